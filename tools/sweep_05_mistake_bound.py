"""Notebook 05's check of the mistake bound without separability, over many data sets.

For each seed: ``make_noisy(100, 2, flip=0.1, random_state=seed)`` drawn so as to keep the line that
generated the labels, the perceptron for 10 epochs in the cyclic order, and Freund and Schapire's
bound ((R + D)/gamma)^2 with u the generating line (augmented, normalised) and the best gamma of 200
values in (0, 2]; D is the norm of the margin deficits over the whole visited sequence.

Run ``PYTHONPATH=. python tools/sweep_05_mistake_bound.py`` (1000 seeds): it prints the numbers the
notebook quotes and stores them, with every seed's updates and bound, in
notebooks/sweeps/05_mistake_bound.json, which tests/test_sweep_05.py compares with the notebook.
"""

from __future__ import annotations

import json
import pathlib
import sys
import warnings

import numpy as np

from perclib import ConvergenceWarning, Perceptron
from perclib.datasets import make_separable

OUT = pathlib.Path(__file__).resolve().parents[1] / "notebooks" / "sweeps" / "05_mistake_bound.json"
GAMMAS = np.linspace(0.01, 2.0, 200)


def bound_check(seed, epochs=10):
    """(updates, bound) on one noisy data set."""
    rng = np.random.default_rng(seed)  # make_noisy's draws, keeping the generating line
    X, y, (w_gen, b_gen) = make_separable(100, 2, 0.0, random_state=rng, return_separator=True)
    y = np.where(rng.random(100) < 0.1, -y, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        k = Perceptron(max_iter=epochs).fit(X, y).n_updates_
    Xt = np.c_[np.ones(len(X)), X]
    R = np.linalg.norm(Xt, axis=1).max()
    u = np.r_[b_gen, w_gen] / np.linalg.norm(np.r_[b_gen, w_gen])
    d = np.maximum(0.0, GAMMAS[:, None] - y * (Xt @ u))
    D = np.sqrt(epochs * (d**2).sum(axis=1))
    return k, float(np.min(((R + D) / GAMMAS) ** 2))


def sweep(seeds):
    """Arrays of updates and bounds, one entry per seed."""
    pairs = [bound_check(s) for s in seeds]
    return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])


def summary(k, bound):
    """The numbers the notebook quotes, rounded as it prints them."""
    ratio = k / bound
    return {
        "seeds": len(k),
        "holds": int(np.sum(k <= bound)),
        "smallest": round(float(ratio.min()), 2),
        "median": round(float(np.median(ratio)), 2),
        "largest": round(float(ratio.max()), 2),
    }


def main(n_seeds=1000):
    k, bound = sweep(range(n_seeds))
    ratio = k / bound
    table = {"summary": summary(k, bound), "updates": k.tolist(), "bound": bound.tolist()}
    OUT.write_text(json.dumps(table, indent=1) + "\n")
    print(f"seeds 0-{n_seeds - 1}: bound holds on {int(np.sum(k <= bound))} of {n_seeds}")
    print(
        f"updates / bound: smallest {ratio.min():.2f}, median {np.median(ratio):.2f}, "
        f"largest {ratio.max():.2f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
