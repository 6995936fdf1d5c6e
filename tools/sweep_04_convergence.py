"""The sweeps behind notebook 04: the bound on 1000 data sets and Learning From Data's experiment.

Both take several seconds, too long for a notebook cell, so they run here ahead of time and write
notebooks/sweeps/04_convergence.json, which notebook 04 reads and quotes. tests/test_sweep_04.py
recomputes the first runs of each sweep and compares them with the stored table.

- "novikoff": experiments.novikoff_check(1000, random_state=0), one entry per data set.
- "lfd10", "lfd100": experiments.lfd_experiment(N, 1000) with random_state 0 and 1: the
  iterations and the exact disagreement P[f != g] of every run.
- "lfd10_mc": for every run of "lfd10", the disagreement counted on 10 000 fresh uniform points
  (numpy's default_rng(2), one draw per run in turn), in units of its standard error.
- "rank_bootstrap": the (bound, iterations) pairs of the notebook's 50 draws with N = 100 (its
  point 3 of "What the theorem does not promise", numpy's default_rng(0)), Spearman's rho between
  them and a 95 % percentile bootstrap interval for it (2000 resamples of the 50 pairs,
  default_rng(0)).

Usage: PYTHONPATH=.:notebooks python tools/sweep_04_convergence.py  (notebooks/experiments.py)
"""

import json
import pathlib

import experiments as E
import numpy as np

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


def bound_and_iterations(n_draws=50, n_samples=100):
    """The notebook's draws: 50 of N = 10, then 50 of N = 100 from one default_rng(0); the
    (bound, iterations of Learning From Data's PLA) of each N = 100 draw with both classes."""
    from perclib import Perceptron
    from perclib.datasets import make_lfd
    from perclib.theory import mistake_bound

    rng = np.random.default_rng(0)
    pairs = []
    for N in (10, n_samples):
        for _ in range(n_draws):
            X, y, _ = make_lfd(N, random_state=rng)
            if len(np.unique(y)) == 2 and N == n_samples:
                pla = Perceptron(order="random-mistake", max_iter=10**6, random_state=rng)
                pairs.append((float(mistake_bound(X, y)), int(pla.fit(X, y).n_updates_)))
    return pairs


def spearman_bootstrap(pairs, n_boot=2000, seed=0):
    """Spearman's rho of the pairs and the middle 95 % of its values over n_boot resamples of
    the pairs with replacement (ranks with ties averaged, as scipy.stats.spearmanr takes them)."""
    from scipy.stats import rankdata, spearmanr

    pairs = np.asarray(pairs, dtype=float)
    rng = np.random.default_rng(seed)
    idx = np.array([rng.integers(0, len(pairs), len(pairs)) for _ in range(n_boot)])
    ranks = [rankdata(pairs[idx, j], axis=1) for j in (0, 1)]  # each resample ranked on its own
    a, b = (r - r.mean(axis=1, keepdims=True) for r in ranks)
    rho_boot = (a * b).sum(axis=1) / np.sqrt((a * a).sum(axis=1) * (b * b).sum(axis=1))
    lo, hi = np.percentile(rho_boot, [2.5, 97.5])
    rho = spearmanr(pairs[:, 0], pairs[:, 1]).statistic
    return {
        "rho": round(float(rho), 9),
        "boot_lo": round(float(lo), 9),
        "boot_hi": round(float(hi), 9),
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
    pairs = bound_and_iterations()
    table["rank_bootstrap"] = {"pairs": pairs, **spearman_bootstrap(pairs)}
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(table, separators=(",", ":")) + "\n")
    print("wrote", OUT.name, {k: len(v) for k, v in table.items()})
