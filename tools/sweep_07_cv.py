"""The sweep behind notebook 07's section 5 prose: its 20-split cross-validation, repeated
with random_state 0-9.

Notebook 07 runs `RepeatedStratifiedKFold(n_splits=4, n_repeats=5, random_state=0)` (20 splits) and
says how the comparisons fared over ten repetitions of that 20-split experiment, `random_state` 0-9
(200 splits). This prints, per repetition, what the prose quotes: the wins of each pair of models,
the spreads, the paired difference between the plain multi-class perceptron and one-vs-rest, and
on how many splits "8 read as 1" is the (joint) largest confusion.

Usage: PYTHONPATH=.:notebooks python tools/sweep_07_cv.py [random_state ...]   (default: 0 to 9)
With the default ten repetitions it also stores the rows and totals in notebooks/sweeps/07_cv.json,
which tests/test_sweep_07.py re-checks (repetition 0 recomputed, the totals, the notebook's quotes).
"""

import json
import pathlib
import sys
import warnings

import numpy as np
from experiments import confusion_matrix
from sklearn.exceptions import ConvergenceWarning as SklearnConvergenceWarning
from sklearn.linear_model import Perceptron as OneVsRestPerceptron
from sklearn.linear_model import SGDClassifier
from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate

from perclib import ConvergenceWarning, MulticlassPerceptron
from perclib.datasets import load_digits

STORED = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "sweeps" / "07_cv.json"


def totals(rows):
    """The counts summed over repetitions (ints and booleans)."""
    out = {}
    for row in rows:
        for key, value in row.items():
            if isinstance(value, (int, bool)):
                out[key] = out.get(key, 0) + int(value)
    return out


def repetition(random_state, X, y):
    """One repetition of notebook 07's 20-split cross-validation: what sections 5 and 6 measure."""
    cv = RepeatedStratifiedKFold(n_splits=4, n_repeats=5, random_state=random_state)
    models = {
        "multi": MulticlassPerceptron(max_iter=20, order="shuffle", random_state=0),
        "averaged": MulticlassPerceptron(
            max_iter=20, order="shuffle", random_state=0, average=True
        ),
        "ovr": OneVsRestPerceptron(max_iter=20, tol=None, random_state=0),
        "averaged ovr": SGDClassifier(
            loss="perceptron", eta0=1, learning_rate="constant", penalty=None, average=True,
            max_iter=20, tol=None, random_state=0,
        ),
    }  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", SklearnConvergenceWarning)
        runs = {
            name: cross_validate(m, X, y, cv=cv, return_estimator=True, return_indices=True)
            for name, m in models.items()
        }
    acc = {name: run["test_score"] for name, run in runs.items()}
    top_8_as_1 = 0
    for est, test in zip(runs["multi"]["estimator"], runs["multi"]["indices"]["test"]):
        C = confusion_matrix(y[test], est.predict(X[test]))
        off = C - np.diag(np.diag(C))
        top_8_as_1 += int(off[8, 1] == off.max())
    diff = acc["multi"] - acc["ovr"]
    avg_diff = acc["averaged"] - acc["averaged ovr"]
    return {
        "mean": {name: round(float(a.mean()), 3) for name, a in acc.items()},
        "std": {name: round(float(a.std()), 3) for name, a in acc.items()},
        "averaged > averaged ovr": int(np.sum(avg_diff > 0)),
        "averaged - averaged ovr": (
            round(float(avg_diff.mean()), 3),
            round(float(avg_diff.std()), 3),
        ),
        "multi > ovr": int(np.sum(acc["multi"] > acc["ovr"])),
        "multi - ovr": (round(float(diff.mean()), 3), round(float(diff.std()), 3)),
        "averaged ovr smaller spread": bool(acc["averaged ovr"].std() < acc["averaged"].std()),
        "averaged >= multi": int(np.sum(acc["averaged"] >= acc["multi"])),
        "averaged > ovr": int(np.sum(acc["averaged"] > acc["ovr"])),
        "averaged smallest spread": bool(
            acc["averaged"].std() < min(acc["multi"].std(), acc["ovr"].std())
        ),
        "|mean diff| < its spread": bool(abs(diff.mean()) < diff.std()),
        "8 as 1 largest": top_8_as_1,
        "min accuracy": {name: round(float(a.min()), 3) for name, a in acc.items()},
    }


if __name__ == "__main__":
    X, y = load_digits()
    states = [int(a) for a in sys.argv[1:]] or list(range(10))
    rows = []
    for rs in states:
        rows.append(repetition(rs, X, y))
        print(rs, rows[-1], flush=True)
    print(f"totals over {len(states)} repetitions ({20 * len(states)} splits):", totals(rows))
    if states == list(range(10)):
        STORED.write_text(json.dumps({"rows": rows, "totals": totals(rows)}, indent=1) + "\n")
