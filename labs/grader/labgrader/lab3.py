"""Hidden tests of lab 3: averaged_fit (3 + 1 for laziness), multiclass_step (2), multiclass_fit
(3), accuracy (1)."""

from __future__ import annotations

import numpy as np

from . import Hint, as_tuple, close


def ref_averaged(X, y, eta=1.0, max_iter=10, count_every_example=True):
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    sw, sb, count = w.copy(), 0.0, 1
    for _ in range(max_iter):
        for x, t in zip(X, y):
            mistake = t * (np.dot(w, x) + b) <= 0
            if mistake:
                w, b = w + eta * t * x, b + eta * t
            if mistake or count_every_example:
                sw, sb, count = sw + w, sb + b, count + 1
    return sw / count, sb / count, w, b


def ref_mc_step(W, b, x, y, eta=1.0):
    y_hat = int(np.argmax(W @ x + b))
    if y_hat == y:
        return W, b, False
    W, b = np.array(W, dtype=float), np.array(b, dtype=float)
    W[y] += eta * x
    b[y] += eta
    W[y_hat] -= eta * x
    b[y_hat] -= eta
    return W, b, True


def ref_mc_fit(X, y, K, eta=1.0, max_iter=10):
    X = np.asarray(X, dtype=float)
    W, b = np.zeros((K, X.shape[1])), np.zeros(K)
    sW, sb, count = W.copy(), b.copy(), 1
    for _ in range(max_iter):
        for x, t in zip(X, y):
            W, b, _ = ref_mc_step(W, b, x, int(t), eta)
            sW, sb, count = sW + W, sb + b, count + 1
    return W, b, sW / count, sb / count


def _noisy(rng):
    n, d = int(rng.integers(5, 40)), int(rng.integers(1, 5))
    X = rng.normal(size=(n, d)) * float(rng.choice([0.5, 1.0, 4.0]))
    y = np.where(X @ rng.normal(size=d) + 0.3 * rng.normal() > 0, 1, -1)
    flip = rng.random(n) < 0.1
    y[flip] = -y[flip]
    y[0], y[-1] = 1, -1
    kind = rng.integers(3)
    return (X.astype(np.float32) if kind == 1 else X.tolist() if kind == 2 else X), y


def test_averaged(g):
    for _ in range(8):
        X, y = _noisy(g.rng)
        eta, max_iter = float(g.rng.choice([0.5, 1.0, 2.0])), int(g.rng.integers(1, 6))
        w_avg, b_avg = as_tuple(
            g.call("averaged_fit", X, y, eta=eta, max_iter=max_iter),
            2,
            "averaged_fit",
            "(w_avg, b_avg)",
        )
        want = ref_averaged(X, y, eta, max_iter)
        scale = 1.0 + eta * np.abs(np.asarray(X, dtype=float)).sum()
        if close(w_avg, want[0], scale) and close(b_avg, want[1], scale):
            continue
        per_update = ref_averaged(X, y, eta, max_iter, count_every_example=False)
        if close(w_avg, want[2], scale) and close(b_avg, want[3], scale):
            raise Hint(
                "you returned the last iterate (w, b), not the average: return w - u/c, b - beta/c"
            )
        if close(w_avg, per_update[0], scale) and close(b_avg, per_update[1], scale):
            raise Hint(
                "your c counts updates only: c grows by 1 after every example, mistake or not"
            )
        if close(w_avg, want[0], scale):
            raise Hint(
                "your w_avg is right but b_avg is not: beta += eta*y*c at each update, return b - "
                "beta/c"
            )
        raise Hint(
            "your average is off: compare your loop with AveragedPerceptronTrain line by line"
        )


def test_averaged_lazy(g):
    """The lazy trick touches the vectors on updates only: count, over a long run with few
    updates."""
    n, d = 24, 3
    for _ in range(3):
        u = g.rng.normal(size=d)
        X = g.rng.normal(size=(n, d))
        X += np.sign(X @ u)[:, None] * 3.0 * u / np.linalg.norm(u)  # a wide margin: few updates
        y = np.where(X @ u > 0, 1, -1)
        max_iter = 40
        (w_avg, b_avg), changes = g.call("averaged_fit", X, y, 1.0, max_iter, count_rows=n)
        updates = _updates(X, y, max_iter)
        if not (close(w_avg, ref_averaged(X, y, 1.0, max_iter)[0], 1 + np.abs(X).sum())):
            raise Hint("averaged_fit must first return the right average (see the test above)")
        if changes > 10 * (updates + 2):
            raise Hint(
                f"your averaged_fit changes its vectors after every example ({n * max_iter} "
                "examples, "
                f"{updates} updates): that is the naive O(T d) average; with the lazy trick w and "
                "u "
                "change only on an update and the average is w - u/c at the end"
            )


def _updates(X, y, max_iter):
    w, b, k = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(max_iter):
        for x, t in zip(X, y):
            if t * (w @ x + b) <= 0:
                w, b, k = w + t * x, b + t, k + 1
    return k


def _mc_case(rng, mistake):
    K, d = int(rng.integers(3, 7)), int(rng.integers(2, 6))
    W, b, x = rng.normal(size=(K, d)), rng.normal(size=K), rng.normal(size=d)
    y_hat = int(np.argmax(W @ x + b))
    y = int(rng.choice([k for k in range(K) if k != y_hat])) if mistake else y_hat
    return W, b, x, y, float(rng.choice([0.5, 1.0, 2.0]))


def test_multiclass_step(g):
    for k in range(150):
        W, b, x, y, eta = _mc_case(g.rng, k % 3 != 0)
        if k % 25 == 0:  # a tie: every score equal, the prediction is class 0
            W, b = np.zeros_like(W), np.zeros_like(b)
        W0, b0 = W.copy(), b.copy()
        out = as_tuple(
            g.call("multiclass_step", W, b, x, y, eta),
            3,
            "multiclass_step",
            "(W_new, b_new, updated)",
        )
        if not (np.array_equal(W, W0) and np.array_equal(b, b0)):
            raise Hint("your step changed the W or b it was given: work on copies")
        want = ref_mc_step(W, b, x, y, eta)
        if bool(out[2]) != want[2]:
            raise Hint(
                "updated must be True exactly when the predicted class argmax(W @ x + b) (the "
                "first "
                "maximum when scores tie) differs from y"
            )
        if close(out[0], want[0]) and close(out[1], want[1]):
            continue
        y_hat = int(np.argmax(W @ x + b))
        Wn = np.asarray(out[0], dtype=float)
        if close(Wn[y_hat], W[y_hat]) and close(Wn[y], want[0][y]):
            raise Hint(
                "your update did not lower the predicted class: W[y_hat] -= eta*x and b[y_hat] -= "
                "eta"
            )
        raise Hint(
            "on a mistake only the rows y and y_hat change: W[y] += eta*x, b[y] += eta, "
            "W[y_hat] -= eta*x, b[y_hat] -= eta"
        )


def test_multiclass_fit(g):
    for _ in range(5):
        K, d = int(g.rng.integers(3, 6)), int(g.rng.integers(2, 5))
        y = np.concatenate([np.arange(K), g.rng.integers(0, K, size=int(g.rng.integers(5, 30)))])
        X = g.rng.normal(size=(K, d))[y] * 2.0 + g.rng.normal(size=(len(y), d))
        eta, max_iter = float(g.rng.choice([0.5, 1.0, 2.0])), int(g.rng.integers(1, 5))
        out = as_tuple(
            g.call(
                "multiclass_fit",
                X,
                y,
                K,
                eta=eta,
                max_iter=max_iter,
                deps={"multiclass_step": ref_mc_step},
            ),
            4,
            "multiclass_fit",
            "(W, b, W_avg, b_avg)",
        )
        W, b, W_avg, b_avg = ref_mc_fit(X, y, K, eta, max_iter)
        scale = 1.0 + eta * np.abs(X).sum()
        if not (close(out[0], W, scale) and close(out[1], b, scale)):
            raise Hint(
                "your last iterate is off: start from W = 0, b = 0, call multiclass_step on the "
                "examples "
                "in order, for all max_iter epochs"
            )
        if close(out[2], W, scale) and close(out[3], b, scale):
            raise Hint("you returned the last iterate as the average: return W - U/c, b - beta/c")
        if not (close(out[2], W_avg, scale) and close(out[3], b_avg, scale)):
            raise Hint(
                "your last iterate is right but the average is not: U += c*(W_new - W), "
                "beta += c*(b_new - b), c grows after every example"
            )


def test_accuracy(g):
    for _ in range(20):
        K, d, n = int(g.rng.integers(2, 8)), int(g.rng.integers(1, 6)), int(g.rng.integers(1, 40))
        W, b, X, y = (
            g.rng.normal(size=(K, d)),
            g.rng.normal(size=K),
            g.rng.normal(size=(n, d)),
            g.rng.integers(0, K, size=n),
        )
        got = g.call("accuracy", W, b, X, y)
        want = float(np.mean(np.argmax(X @ W.T + b, axis=1) == y))
        if not close(got, want):
            raise Hint(
                "accuracy is the fraction of rows whose highest-scoring class argmax_k (w_k.x + "
                "b_k) "
                "is the label"
            )


# The visible part of these test cells runs with the grader's versions of what the function
# builds on.
VISIBLE_DEPS = {"test_multiclass_fit": {"multiclass_step": ref_mc_step}}
