"""Notebook 08's comparison of the kernel perceptron with scikit-learn's SVC: accuracy, support
vectors, and fit and predict time as ratios measured in the same run.

For each seed: ``make_moons(300, noise=0.25, random_state=seed)`` split 200/100
(``train_test_split(..., test_size=100, random_state=seed)``); the RBF kernel with gamma = 1 for
both; ``KernelPerceptron(max_iter=10)`` (last iterate and ``average=True``) and ``SVC(C=1)``. Times
are the median of 5 repeats of each fit and of each predict (on the 100 test points and on 10 000
points), with ``time.perf_counter``; their ratios, not the seconds, are what the notebook quotes.

Usage: ``PYTHONPATH=. python tools/sweep_08_svc.py [runs]`` (default 3 runs of the 20 seeds). It
stores the date, the machine, the accuracies, per run each time ratio's median and range over the
splits, and per run each split's raw seconds (every repeat of every fit and predict) in
notebooks/sweeps/08_svc.json, which tests/test_sweep_08.py checks against the notebook's text.
"""

from __future__ import annotations

import datetime
import json
import os
import pathlib
import platform
import sys
import time
import warnings

import numpy as np
from sklearn.datasets import make_moons
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

from perclib import ConvergenceWarning, KernelPerceptron

STORED = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "sweeps" / "08_svc.json"
TIMES = {2: "fit", 3: "predict 100", 4: "predict 10000"}


def split(seed):
    X, y = make_moons(300, noise=0.25, random_state=seed)
    return train_test_split(X, y, test_size=100, random_state=seed)


def models():
    return {
        "perceptron": KernelPerceptron(kernel="rbf", gamma=1.0, max_iter=10),
        "averaged": KernelPerceptron(kernel="rbf", gamma=1.0, max_iter=10, average=True),
        "SVC": SVC(kernel="rbf", gamma=1.0, C=1.0),
    }


def _times(f, repeats):
    """The seconds of each of `repeats` calls of f."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return times


def run(seed, repeats=5, raw=None):
    """{model: (test accuracy, support vectors, fit s, predict-100 s, predict-10000 s)}, each time
    the median of `repeats` calls. If `raw` is a dict, every call's seconds are stored in it as
    {model: {what: [seconds, ...]}}."""
    Xtr, Xte, ytr, yte = split(seed)
    big = np.random.default_rng(seed).uniform(-1.5, 2.5, size=(10_000, 2))
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for name, model in models().items():
            seconds = {
                "fit": _times(lambda m=model: m.fit(Xtr, ytr), repeats),
                "predict 100": _times(lambda m=model: m.predict(Xte), repeats),
                "predict 10000": _times(lambda m=model: m.predict(big), repeats),
            }
            if raw is not None:
                raw[name] = {what: [float(f"{t:.4g}") for t in ts] for what, ts in seconds.items()}
            out[name] = (
                float(model.score(Xte, yte)),
                int(len(model.support_)),
                *(float(np.median(seconds[what])) for what in TIMES.values()),
            )
    return out


def ratios(runs):
    """{model: {what: {median, min, max}}}: each time over SVC's, across the splits of one run."""
    out = {}
    for name in ("perceptron", "averaged"):
        out[name] = {}
        for k, what in TIMES.items():
            r = np.array([run[name][k] / run["SVC"][k] for run in runs])
            out[name][what] = {
                "median": round(float(np.median(r)), 2),
                "min": round(float(r.min()), 2),
                "max": round(float(r.max()), 2),
            }
    return out


def summary(stored):
    """What the notebook quotes: over the runs and both forms, the range of the median ratios
    (and of the single splits' ratios for fitting), as {what: (low, high)}."""
    runs = stored["runs"]
    out = {}
    for what in TIMES.values():
        medians = [r[name][what]["median"] for r in runs for name in r]
        out[what] = (min(medians), max(medians))
    out["fit, single splits"] = (
        min(r[name]["fit"]["min"] for r in runs for name in r),
        max(r[name]["fit"]["max"] for r in runs for name in r),
    )
    return out


def main(n_runs=3, n_seeds=20):
    results, raw = [], []
    for i in range(n_runs):
        raw.append([{} for _ in range(n_seeds)])
        runs = [run(s, raw=raw[i][s]) for s in range(n_seeds)]
        results.append(ratios(runs))
        for name, times in results[-1].items():
            for what, r in times.items():
                print(
                    f"run {i}: {name} / SVC {what} time: median {r['median']:.1f}, "
                    f"range {r['min']:.1f} to {r['max']:.1f}"
                )
    stored = {
        "date": datetime.date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared), "
        f"Python {platform.python_version()}",
        "seeds": n_seeds,
        "repeats": 5,
        "accuracy": {
            name: round(float(np.mean([r[name][0] for r in runs])), 3) for name in runs[0]
        },
        "support vectors": {
            name: round(float(np.mean([r[name][1] for r in runs])), 1) for name in runs[0]
        },
        "runs": results,
        "seconds": raw,  # [run][split] {model: {what: each repeat's seconds}}
    }
    STORED.write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
