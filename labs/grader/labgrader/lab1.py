"""Hidden tests of lab 1: perceptron_step (4 points) and fit (4 points)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from . import Hint, as_tuple, close

KEYS = {"epoch", "index", "x", "y", "activation", "y_hat", "updated", "w", "b"}


def ref_step(w, b, x, y, eta=1.0):
    a = float(np.dot(w, x) + b)
    if y * a <= 0:
        return w + eta * y * x, b + eta * y, True
    return np.array(w, dtype=float), b, False


def ref_fit(X, y, eta=1.0, max_iter=100):
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    w, b, history = np.zeros(X.shape[1]), 0.0, []
    for epoch in range(1, max_iter + 1):
        updates = 0
        for i in range(len(y)):
            a = float(np.dot(w, X[i]) + b)
            w, b, updated = ref_step(w, b, X[i], y[i], eta)
            updates += updated
            history.append(
                {
                    "epoch": epoch,
                    "index": i,
                    "activation": a,
                    "y_hat": 1.0 if a >= 0 else -1.0,
                    "updated": updated,
                    "w": w.copy(),
                    "b": float(b),
                }
            )
        if updates == 0:
            break
    return w, b, history


def _dtype(rng):
    return np.float32 if rng.random() < 0.3 else np.float64


def _step_case(rng, kind):
    """A random (w, b, x, y, eta): kind 'mistake' or 'correct', |y*a| well away from 0."""
    while True:
        d, dt = int(rng.integers(1, 7)), _dtype(rng)
        w, x = rng.normal(size=d).astype(dt), rng.normal(size=d).astype(dt)
        b, eta = float(rng.normal()), float(rng.choice([0.1, 0.25, 0.5, 2.0, 3.0]))
        a = float(np.dot(w, x) + b)
        if abs(a) > 0.05 * (1 + abs(b) + np.abs(w).sum() * np.abs(x).max()):
            y = (-1.0 if a > 0 else 1.0) if kind == "mistake" else (1.0 if a > 0 else -1.0)
            return w, b, x, y, eta


def _check_step(g, w, b, x, y, eta):
    w_before = w.copy()
    out = as_tuple(
        g.call("perceptron_step", w, b, x, y, eta), 3, "perceptron_step", "(w_new, b_new, updated)"
    )
    if not np.array_equal(w, w_before):
        raise Hint(
            "your step changed the w it was given: return a new array (w + ...), "
            "do not write w += ..."
        )
    want = ref_step(w.astype(float), b, x.astype(float), y, eta)
    w_new, b_new, updated = out
    scale = 1.0 + abs(b) + eta * (np.abs(w).max() + np.abs(x).max())
    a_without_b = y * float(np.dot(w, x))
    if bool(updated) != want[2]:
        if want[2] and a_without_b > 0:
            raise Hint(
                "on a point that is a mistake only because of the bias you did not update: "
                "the activation is w.x + b, with the bias"
            )
        if not want[2] and a_without_b <= 0:
            raise Hint(
                "you updated on a point that is right once the bias counts: "
                "the activation is w.x + b"
            )
        raise Hint(
            "a mistake (y*(w.x + b) <= 0) must update and return updated=True; a correct point "
            "must return updated=False"
            if want[2]
            else "you updated on a point that was already classified correctly: "
            "change w and b only when y*(w.x + b) <= 0"
        )
    if close(w_new, want[0], scale) and close(b_new, want[1], scale):
        return
    if not want[2]:
        raise Hint("on a correct point return w and b unchanged")
    if close(b_new, b, scale):
        raise Hint("your update did not change b: on a mistake the bias moves by eta*y")
    if eta != 1 and close(w_new, w + y * x, scale):
        raise Hint("w moved by y*x: multiply by the learning rate, w + eta*y*x")
    if eta != 1 and close(b_new, b + y, scale):
        raise Hint("b moved by y: multiply by the learning rate, b + eta*y")
    if close(w_new, w - eta * y * x, scale):
        raise Hint("w moved the wrong way: on a mistake w moves towards y*x, w + eta*y*x")
    raise Hint("on a mistake w_new must be w + eta*y*x and b_new must be b + eta*y")


def test_step_mistake(g):
    for _ in range(100):
        _check_step(g, *_step_case(g.rng, "mistake"))


def test_step_correct(g):
    for _ in range(100):
        _check_step(g, *_step_case(g.rng, "correct"))


def test_step_tie(g):
    for _ in range(40):
        w = g.rng.integers(-4, 5, size=2).astype(float)
        w[0] = w[0] or 1.0
        x = np.array([w[1], -w[0]]) * float(g.rng.integers(1, 4)) + float(g.rng.integers(-2, 3)) * w
        b = -float(np.dot(w, x))  # w.x + b = 0 exactly: the point lies on the boundary
        y, eta = float(g.rng.choice([-1.0, 1.0])), float(g.rng.choice([0.5, 1.0, 2.0]))
        out = as_tuple(
            g.call("perceptron_step", w, b, x, y, eta),
            3,
            "perceptron_step",
            "(w_new, b_new, updated)",
        )
        if not out[2]:
            raise Hint(
                "a point exactly on the boundary (y*a = 0) is a mistake too: update when "
                "y*(w.x + b) <= 0, not < 0"
            )
        if not (close(out[0], w + eta * y * x) and close(out[1], b + eta * y)):
            raise Hint(
                "on the boundary the step must update as on any mistake: w + eta*y*x, b + eta*y"
            )


def _fit_case(rng, converge=True):
    """Dyadic data (exact in float32 too) separated by an integer line; X as array, float32 or
    list."""
    n, d = int(rng.integers(4, 25)), int(rng.integers(1, 4))
    while True:
        X = rng.integers(-8, 9, size=(n, d)) / 4.0
        u, c = rng.integers(-3, 4, size=d), int(rng.integers(-2, 3))
        s = X @ u + c / 4.0
        if np.any(u) and np.all(s != 0) and len(np.unique(np.sign(s))) == 2:
            break
    y = np.where(s > 0, 1, -1)
    eta = float(rng.choice([0.25, 0.5, 1.0, 2.0]))
    max_iter = 200 if converge else int(rng.integers(1, 4))
    kind = rng.integers(3)
    X_in = X.astype(np.float32) if kind == 1 else X.tolist() if kind == 2 else X
    return X_in, y, eta, max_iter


def _fit(g, X, y, eta, max_iter):
    out = as_tuple(
        g.call("fit", X, y, eta=eta, max_iter=max_iter, deps={"perceptron_step": ref_step}),
        3,
        "fit",
        "(w, b, history)",
    )
    history = out[2]
    if isinstance(history, (str, bytes, Mapping)) or not hasattr(history, "__len__"):
        raise Hint("history must be a list with one record per visited example")
    return out[0], out[1], list(history)


def test_history_format(g):
    for _ in range(6):
        X, y, eta, max_iter = _fit_case(g.rng, converge=bool(g.rng.integers(2)))
        Xf = np.asarray(X, dtype=float)
        w, b, history = _fit(g, X, y, eta, max_iter)
        n = len(y)
        if not history:
            raise Hint("history is empty: append one record per visited example")
        for k, rec in enumerate(history):
            if not isinstance(rec, Mapping) or not KEYS <= set(rec):
                raise Hint(f"every record must be a dict with (at least) the keys {sorted(KEYS)}")
            if rec["epoch"] != k // n + 1 or rec["index"] != k % n:
                raise Hint(
                    "records must follow the visits: epochs count from 1 and each epoch visits "
                    "the rows 0, ..., n-1 in order"
                )
            if not close(rec["x"], Xf[k % n]) or rec["y"] != y[k % n]:
                raise Hint("each record's x and y must be the example visited")
            if rec["y_hat"] != (1 if rec["activation"] >= 0 else -1):
                raise Hint(
                    "y_hat must be +1 when the activation is >= 0 and -1 otherwise (a point on the "
                    "boundary predicts +1)"
                )
        if len(history) % n:
            raise Hint("fit must finish every epoch it starts")
        ws = [rec["w"] for rec in history]
        if any(ws[k] is ws[k - 1] and history[k]["updated"] for k in range(1, len(ws))):
            raise Hint(
                "two records hold the same w object although w changed: store a copy, 'w': w.copy()"
            )


def test_fit(g):
    for k in range(6):
        X, y, eta, max_iter = _fit_case(g.rng, converge=k % 2 == 0)
        want_w, want_b, ref = ref_fit(X, y, eta, max_iter)
        w, b, history = _fit(g, X, y, eta, max_iter)
        n, scale = len(y), 1.0 + eta * np.abs(np.asarray(X, dtype=float)).sum()
        for mine, step in zip(history, ref):
            if not isinstance(mine, Mapping) or not KEYS <= set(mine):
                raise Hint(f"every record must be a dict with (at least) the keys {sorted(KEYS)}")
            if (
                bool(mine["updated"]) != step["updated"]
                or not close(mine["w"], step["w"], scale)
                or not close(mine["b"], step["b"], scale)
            ):
                raise Hint(
                    "your history differs from the perceptron's: at some step your update, w or b "
                    "is not the one PerceptronTrain makes (w = 0, b = 0 at the start, examples "
                    "in order)"
                )
            if not close(mine["activation"], step["activation"], scale):
                after = float(
                    np.dot(step["w"], np.asarray(X, dtype=float)[mine["index"]]) + step["b"]
                )
                if step["updated"] and close(mine["activation"], after, scale):
                    raise Hint(
                        "you recorded the activation after the step: record a = w.x + b before it"
                    )
                raise Hint(
                    "a recorded activation is off: it is a = w.x + b, with the w and b before the "
                    "step"
                )
        if len(history) != len(ref):
            epochs = len(history) / n
            if ref[-1]["epoch"] == max_iter and epochs == max_iter - 1:
                raise Hint("you ran max_iter - 1 epochs: run at most max_iter epochs")
            raise Hint(
                "your fit stops at the wrong epoch: stop after the first epoch without an update, "
                "or "
                "after max_iter epochs"
            )
        if not (close(w, want_w, scale) and close(b, want_b, scale)):
            raise Hint(
                "fit must return the final (w, b), the same as the last record of the history"
            )


# The visible part of these test cells runs with the grader's versions of what the function
# builds on.
VISIBLE_DEPS = {
    "test_history_format": {"perceptron_step": ref_step},
    "test_fit": {"perceptron_step": ref_step},
}
