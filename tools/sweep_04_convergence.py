"""The sweeps behind notebook 04: the bound on 1000 data sets and Learning From Data's experiment.

Both take several seconds, too long for a notebook cell, so they run here ahead of time and write
notebooks/sweeps/04_convergence.json, which notebook 04 reads and quotes. tests/test_sweep_04.py
recomputes the first runs of each sweep and compares them with the stored table.

- "novikoff": perclib.experiments.novikoff_check(1000, random_state=0), one entry per data set.
- "lfd10", "lfd100": perclib.experiments.lfd_experiment(N, 1000) with random_state 0 and 1: the
  iterations and the exact disagreement P[f != g] of every run.
- "lfd10_mc": for every run of "lfd10", the disagreement counted on 10 000 fresh uniform points
  (numpy's default_rng(2), one draw per run in turn), in units of its standard error.

Usage: PYTHONPATH=. python tools/sweep_04_convergence.py
"""

import json
import pathlib

import numpy as np

from perclib import experiments as E

OUT = pathlib.Path(__file__).resolve().parents[1] / "notebooks" / "sweeps" / "04_convergence.json"


def novikoff(n_datasets=1000):
    res = E.novikoff_check(n_datasets, random_state=0)
    return {
        "updates": res["updates"].tolist(),
        "bound": [round(float(b), 9) for b in res["bound"]],
        "order": res["order"].tolist(),
        "n": res["n"].tolist(),
        "d": res["d"].tolist(),
        "converged": bool(res["converged"].all()),
    }


def lfd(n_samples, n_runs=1000, random_state=0):
    return E.lfd_experiment(n_samples, n_runs, random_state=random_state)


def monte_carlo(r, n_points=10_000, seed=2):
    rng = np.random.default_rng(seed)
    mc = np.array(
        [
            E.disagreement_mc(
                r["w_f"][i], r["b_f"][i], r["w_g"][i], r["b_g"][i],
                n_points=n_points, random_state=rng,
            )
            for i in range(len(r["disagreement"]))
        ]
    )  # fmt: skip
    exact = r["disagreement"]
    z = np.abs(mc - exact) / np.maximum(np.sqrt(exact * (1 - exact) / n_points), 1e-12)
    return {
        "mean_exact": round(float(exact.mean()), 6),
        "mean_mc": round(float(mc.mean()), 6),
        "largest_z": round(float(z.max()), 3),
        "share_beyond_2": round(float(np.mean(z > 2)), 4),
    }


def _runs(r):
    return {
        "iterations": r["iterations"].tolist(),
        "disagreement": [round(float(v), 9) for v in r["disagreement"]],
        "converged": bool(r["converged"].all()),
    }


if __name__ == "__main__":
    lfd10, lfd100 = lfd(10, random_state=0), lfd(100, random_state=1)
    table = {
        "novikoff": novikoff(),
        "lfd10": _runs(lfd10),
        "lfd100": _runs(lfd100),
        "lfd10_mc": monte_carlo(lfd10),
    }
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(table, separators=(",", ":")) + "\n")
    print("wrote", OUT.name, {k: len(v) for k, v in table.items()})
