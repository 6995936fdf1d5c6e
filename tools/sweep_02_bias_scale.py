"""The sweep behind notebook 02's section 5 prose: the scale of the bias feature over 20 draws.

For `make_separable(40, margin=0.1, random_state=seed)`, seeds 0 to 19, a perceptron without an
intercept is fit on the data with a constant feature c prepended (c = 1 and c = 10), once on the
data as drawn (centred) and once moved 10 units up. It prints the updates of each run and what the
notebook quotes: on how many draws the constant 1 needs fewer updates on the centred data, on how
many the constant 10 needs fewer (and at least 10 times fewer) on the moved data, the ties
and reversals, and the medians on the moved data.

Usage: PYTHONPATH=. python tools/sweep_02_bias_scale.py [seed ...]   (default: 0 to 19)
"""

import sys
import warnings

import numpy as np

from perclib import ConvergenceWarning, Perceptron
from perclib.datasets import make_separable


def updates_with_constant(data, labels, const):
    fit = Perceptron(fit_intercept=False, max_iter=10_000)
    return fit.fit(np.c_[np.full(len(data), const), data], labels).n_updates_


def draw(seed):
    """Updates on one draw: centred (c = 1, c = 10), moved up by 10 (c = 1, c = 10)."""
    X, y = make_separable(40, margin=0.1, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # every run must converge
        return [
            updates_with_constant(data, y, const)
            for data in (X, X + [0.0, 10.0])
            for const in (1.0, 10.0)
        ]


def summary(table):
    table = np.asarray(table)
    return {
        "centred, constant 1 fewer": int(np.sum(table[:, 0] < table[:, 1])),
        "centred, ties": int(np.sum(table[:, 0] == table[:, 1])),
        "centred, constant 10 fewer": int(np.sum(table[:, 1] < table[:, 0])),
        "moved up, constant 10 fewer": int(np.sum(table[:, 3] < table[:, 2])),
        "moved up, constant 10 at least 10x fewer": int(np.sum(10 * table[:, 3] <= table[:, 2])),
        "moved up, ties": int(np.sum(table[:, 3] == table[:, 2])),
        "moved up, median with constant 1": float(np.median(table[:, 2])),
        "moved up, median with constant 10": float(np.median(table[:, 3])),
    }


def main(seeds):
    table = [draw(s) for s in seeds]
    for s, row in zip(seeds, table):
        print(f"seed {s:>2}: centred {row[:2]}, moved up {row[2:]}")
    for key, value in summary(table).items():
        print(f"{key}: {value:g}" if "median" in key else f"{key}: {value:g} of {len(seeds)}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or list(range(20)))
