"""Hidden tests of lab 2: novikoff_bound, count_updates, margin_experiment, summarize (2 points
each)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from . import Hint, as_tuple, close

COLUMNS = ("margin", "gamma", "R", "bound", "updates_max", "updates_mean")
# count_updates is asked to run perclib's Perceptron: its module and perclib's private training
# loops stay available for it (the other estimators stay blocked).
PERCEPTRON = ("perclib.perceptron", "perclib.training", "perclib.block_scan", "perclib._")
# novikoff_bound is asked to take gamma* from max_margin: perclib.theory stays available (its
# mistake_bound and radius, which would answer the exercise, are refused by reading the code).
THEORY = ("perclib.theory", "perclib.losses")


def _max_margin(X, y):
    from perclib.theory import max_margin

    return max_margin(X, y)


def ref_bound(X, y):
    X = np.asarray(X, dtype=float)
    R = float(np.sqrt(1.0 + np.max(np.sum(X**2, axis=1))))
    gamma = float(_max_margin(X, y)[2])
    return R, gamma, (R / gamma) ** 2


def ref_counts(X, y, n_orders=5, random_state=0):
    from perclib import Perceptron

    return np.array(
        [
            Perceptron(order="shuffle", random_state=random_state + k, max_iter=10_000)
            .fit(X, y)
            .n_updates_
            for k in range(n_orders)
        ],
        dtype=int,
    )


def ref_experiment(margins, n_samples=200, n_orders=5, random_state=0):
    from perclib.datasets import make_separable

    rows = []
    for m in margins:
        X, y = make_separable(n_samples, 2, margin=m, random_state=random_state)
        R, gamma, bound = ref_bound(X, y)
        counts = ref_counts(X, y, n_orders, random_state)
        rows.append((m, gamma, R, bound, counts.max(), counts.mean()))
    return {key: np.array(col, dtype=float) for key, col in zip(COLUMNS, zip(*rows))}


def ref_summary(table):
    lg = np.log(table["gamma"])
    return {
        "bound_holds": bool(np.all(table["updates_max"] <= table["bound"])),
        "bound_slope": float(np.polyfit(lg, np.log(table["bound"]), 1)[0]),
        "updates_slope": float(np.polyfit(lg, np.log(table["updates_mean"]), 1)[0]),
        "max_fraction": float(np.max(table["updates_max"] / table["bound"])),
    }


def _data(rng):
    from perclib.datasets import make_separable

    X, y = make_separable(
        int(rng.integers(10, 60)),
        int(rng.integers(1, 5)),
        margin=float(rng.uniform(0.03, 0.3)),
        random_state=int(rng.integers(2**31)),
    )
    X = X * float(rng.choice([0.5, 1.0, 3.0]))
    return (X.astype(np.float32) if rng.random() < 0.3 else X), y


def test_bound(g):
    for _ in range(6):
        X, y = _data(g.rng)
        R, gamma, bound = (
            float(v)
            for v in as_tuple(
                g.call("novikoff_bound", X, y, deps={"max_margin": _max_margin}, allow=THEORY),
                3,
                "novikoff_bound",
                "(R, gamma, bound)",
            )
        )
        want = ref_bound(X, y)
        plain = float(np.sqrt(np.max(np.sum(np.asarray(X, dtype=float) ** 2, axis=1))))
        if close(R, plain) and not close(R, want[0]):
            raise Hint(
                "your R leaves out the bias coordinate: R is the largest norm of (1, x_i), "
                "sqrt(1 + max ||x_i||^2)"
            )
        if not close(R, want[0]):
            raise Hint("R is off: R = max_i ||(1, x_i)|| = sqrt(1 + max_i ||x_i||^2)")
        if not close(gamma, want[1]):
            raise Hint(
                "gamma is off: take it from max_margin(X, y), the third of the values it returns"
            )
        if close(bound, want[0] / want[1]):
            raise Hint("your bound is R/gamma: Novikoff's bound is its square, (R/gamma)**2")
        if not close(bound, want[2]):
            raise Hint("the bound is off: it is (R/gamma)**2, with your R and gamma")


def test_count_updates(g):
    from perclib import Perceptron

    for _ in range(4):
        X, y = _data(g.rng)
        n_orders, rs = int(g.rng.integers(2, 5)), int(g.rng.integers(1000))
        counts = g.call("count_updates", X, y, n_orders=n_orders, random_state=rs, allow=PERCEPTRON)
        try:
            counts = np.asarray(counts, dtype=float)
        except (TypeError, ValueError):
            raise Hint("count_updates must return one number per order") from None
        want = ref_counts(X, y, n_orders, rs)
        if counts.shape != (n_orders,):
            raise Hint("count_updates must return one count per order, an array of length n_orders")
        if np.array_equal(counts, want):
            continue
        epochs = [
            Perceptron(order="shuffle", random_state=rs + k, max_iter=10_000).fit(X, y).n_iter_
            for k in range(n_orders)
        ]
        if np.array_equal(counts, epochs):
            raise Hint(
                "you counted epochs (n_iter_), not updates: the bound is on updates, n_updates_"
            )
        if np.all(counts == counts[0]) and np.any(want != want[0]):
            raise Hint("all your runs gave the same count: run k uses random_state + k")
        raise Hint(
            "your counts are not the updates of Perceptron(order='shuffle', "
            "random_state=random_state + k, max_iter=10_000), k = 0, ..., n_orders - 1"
        )


def test_experiment(g):
    for _ in range(2):
        margins = tuple(
            sorted(g.rng.choice([0.3, 0.2, 0.1, 0.05, 0.03], size=3, replace=False), reverse=True)
        )
        n, n_orders, rs = (
            int(g.rng.integers(30, 70)),
            int(g.rng.integers(2, 4)),
            int(g.rng.integers(1000)),
        )
        table = g.call(
            "margin_experiment",
            margins,
            n_samples=n,
            n_orders=n_orders,
            random_state=rs,
            deps={
                "novikoff_bound": ref_bound,
                "count_updates": ref_counts,
                "max_margin": _max_margin,
            },
        )
        if not isinstance(table, Mapping) or not set(COLUMNS) <= set(table):
            raise Hint(
                f"margin_experiment must return a dict with (at least) the keys {list(COLUMNS)}"
            )
        want = ref_experiment(margins, n, n_orders, rs)
        for key in COLUMNS:
            if not close(table[key], want[key]):
                if key == "updates_max" and close(table[key], want["updates_mean"]):
                    raise Hint(
                        "table['updates_max'] holds the mean: it is the largest count over the "
                        "orders"
                    )
                raise Hint(
                    f"table[{key!r}] is off: one entry per margin, in the order of margins, from "
                    "data "
                    "drawn with make_separable(n_samples, 2, margin=m, random_state=random_state)"
                )


def _table(rng):
    k = int(rng.integers(2, 7))
    gamma = np.sort(rng.uniform(0.01, 0.3, size=k))
    bound = (rng.uniform(1.2, 2.0, size=k) / gamma) ** 2
    mean = rng.uniform(2, 50, size=k) / gamma ** rng.uniform(0.5, 1.5)
    upd = np.round(mean * rng.uniform(1.0, 2.0, size=k))
    if rng.random() < 0.5:
        upd[-1] = np.ceil(bound[-1] * 1.1)
    return {
        "margin": gamma,
        "gamma": gamma,
        "R": np.ones(k),
        "bound": bound,
        "updates_max": upd,
        "updates_mean": mean,
    }


def test_summarize(g):
    for _ in range(20):
        table = _table(g.rng)
        got = g.call("summarize", {k: v.copy() for k, v in table.items()})
        want = ref_summary(table)
        if not isinstance(got, Mapping) or not set(want) <= set(got):
            raise Hint(f"summarize must return a dict with (at least) the keys {sorted(want)}")
        if bool(got["bound_holds"]) != want["bound_holds"]:
            raise Hint("bound_holds must be True exactly when updates_max <= bound at every margin")
        for key in ("bound_slope", "updates_slope"):
            if not close(got[key], want[key]):
                raise Hint(
                    f"{key} is off: the slope of a straight-line fit of the log of the column "
                    "against "
                    "log(gamma), np.polyfit(np.log(gamma), np.log(column), 1)[0]"
                )
        if not close(got["max_fraction"], want["max_fraction"]):
            raise Hint("max_fraction is off: the largest updates_max / bound over the margins")


# The visible part of these test cells runs with the grader's versions of what the function
# builds on.
VISIBLE_DEPS = {"test_experiment": {"novikoff_bound": ref_bound, "count_updates": ref_counts}}
