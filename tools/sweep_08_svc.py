"""Notebook 08's comparison of the kernel perceptron with scikit-learn's SVC: accuracy, support
vectors, and fit and predict time as ratios measured in the same run.

For each seed: ``make_moons(300, noise=0.25, random_state=seed)`` split 200/100
(``train_test_split(..., test_size=100, random_state=seed)``); the RBF kernel with gamma = 1 for
both; ``KernelPerceptron(max_iter=10)`` (last iterate and ``average=True``) and ``SVC(C=1)``. Times
are the median of 5 repeats of each fit and of each predict (on the 100 test points and on 10 000
points), with ``time.perf_counter``; their ratios, not the seconds, are what the notebook quotes.

Run ``PYTHONPATH=. python tools/sweep_08_svc.py`` (20 seeds) to get the numbers.
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np
from sklearn.datasets import make_moons
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

from perclib import ConvergenceWarning, KernelPerceptron


def split(seed):
    X, y = make_moons(300, noise=0.25, random_state=seed)
    return train_test_split(X, y, test_size=100, random_state=seed)


def models():
    return {
        "perceptron": KernelPerceptron(kernel="rbf", gamma=1.0, max_iter=10),
        "averaged": KernelPerceptron(kernel="rbf", gamma=1.0, max_iter=10, average=True),
        "SVC": SVC(kernel="rbf", gamma=1.0, C=1.0),
    }


def _median_time(f, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def run(seed, repeats=5):
    """{model: (test accuracy, support vectors, fit s, predict-100 s, predict-10000 s)}."""
    Xtr, Xte, ytr, yte = split(seed)
    big = np.random.default_rng(seed).uniform(-1.5, 2.5, size=(10_000, 2))
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for name, model in models().items():
            fit = _median_time(lambda m=model: m.fit(Xtr, ytr), repeats)
            out[name] = (
                float(model.score(Xte, yte)),
                int(len(model.support_)),
                fit,
                _median_time(lambda m=model: m.predict(Xte), repeats),
                _median_time(lambda m=model: m.predict(big), repeats),
            )
    return out


def main(n_seeds=20):
    runs = [run(s) for s in range(n_seeds)]
    for name in ("perceptron", "averaged", "SVC"):
        acc = np.array([r[name][0] for r in runs])
        sv = np.array([r[name][1] for r in runs])
        print(
            f"{name:10s} accuracy {acc.mean():.3f} ± {acc.std():.3f}, "
            f"support vectors {sv.mean():.1f}"
        )
    for name in ("perceptron", "averaged"):
        for k, what in ((2, "fit"), (3, "predict 100"), (4, "predict 10000")):
            ratio = np.array([r[name][k] / r["SVC"][k] for r in runs])
            print(
                f"{name} / SVC {what} time: median {np.median(ratio):.1f}, "
                f"range {ratio.min():.1f} to {ratio.max():.1f}"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
