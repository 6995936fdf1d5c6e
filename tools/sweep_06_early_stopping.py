"""The sweeps behind notebook 06's quotes: the last iterate against the longest-lived one
(section 1) and early stopping (section 6).

Section 1: for each of 100 seeds, 200 points with labels flipped with probability 0.1 and a voted
perceptron run of 10 shuffled epochs; does the last iterate make more training mistakes than the
iterate that survived longest?

For each seed, the noisy 2-D task of section 6 (200 training points, labels flipped with probability
0.1) and 1000 held-out points split into 500 for validation and 500 for the test. The averaged
perceptron runs 20 shuffled epochs; the epoch with the lowest validation error is compared with the
last epoch on the test half.

Usage: PYTHONPATH=.:notebooks python tools/sweep_06_early_stopping.py  (notebooks/experiments.py)
It stores both results in notebooks/sweeps/06_early_stopping.json, which tests/test_sweep_06.py
re-checks (recomputed, and against the numbers the notebook's text quotes).
"""

import json
import pathlib

import experiments as E
import numpy as np

from perclib import VotedPerceptron
from perclib.datasets import make_noisy

STORED = (
    pathlib.Path(__file__).resolve().parents[1] / "notebooks" / "sweeps" / "06_early_stopping.json"
)


def last_worse(seed):
    """Whether the last iterate makes more training mistakes than the longest-lived one."""
    X, y = make_noisy(200, flip=0.1, random_state=seed)
    v = VotedPerceptron(max_iter=10, order="shuffle", random_state=seed).fit(X, y)
    k = int(np.argmax(v.counts_))

    def mistakes(w, b):
        return int(np.sum(np.where(X @ w + b >= 0, 1, -1) != y))

    return mistakes(v.last_coef_, v.last_intercept_) > mistakes(v.weights_[k], v.intercepts_[k])


def last_vs_longest(n_seeds=100):
    return {"seeds": n_seeds, "last worse": sum(last_worse(s) for s in range(n_seeds))}


def one_seed(seed, max_epochs=20):
    """(epoch chosen on validation, its test error, the test error after max_epochs)."""
    Xtr, ytr, Xho, yho = E.noisy_task(200, 1000, flip=0.1)(seed=seed)
    val = E.epoch_errors(Xtr, ytr, Xho[:500], yho[:500], max_epochs=max_epochs, random_state=seed)
    tst = E.epoch_errors(Xtr, ytr, Xho[500:], yho[500:], max_epochs=max_epochs, random_state=seed)
    k = int(np.argmin(val["averaged"]))
    return k + 1, float(tst["averaged"][k]), float(tst["averaged"][-1])


def sweep(n_seeds=20):
    rows = np.array([one_seed(s) for s in range(n_seeds)])
    gain = rows[:, 2] - rows[:, 1]  # > 0: the chosen epoch did better on the test half
    return {
        "gain mean": round(float(gain.mean()), 3),
        "gain std": round(float(gain.std()), 3),
        "better": int(np.sum(gain > 0)),
        "tie": int(np.sum(gain == 0)),
        "worse": int(np.sum(gain < 0)),
        "chosen epochs": [int(e) for e in rows[:, 0]],
    }


def run():
    return {"last vs longest": last_vs_longest(100), "early stopping": {"seeds": 20, **sweep(20)}}


if __name__ == "__main__":
    result = run()
    print(result)
    STORED.write_text(json.dumps(result, indent=1) + "\n")
