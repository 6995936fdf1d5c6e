"""Hidden tests of lab 4: training_mistakes (1), pocket_fit (3), perceptron_loss (1),
perceptron_subgradient (2), voted_predict (2), averaged_predict (1)."""

from __future__ import annotations

import numpy as np

from . import Hint, as_tuple, close


def ref_mistakes(w, b, X, y):
    a = np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + float(b)
    return int(np.sum(np.asarray(y, dtype=float) * a <= 0))


def ref_pocket(X, y, eta=1.0, max_iter=10, ties=False, last=False):
    """The pocket (strict <); ``ties``: a tie replaces it; ``last``: the last iterate instead."""
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    best_w, best_b, best = w.copy(), b, ref_mistakes(w, b, X, y)
    for _ in range(max_iter):
        for x, t in zip(X, y):
            if t * (np.dot(w, x) + b) <= 0:
                w, b = w + eta * t * x, b + eta * t
                m = ref_mistakes(w, b, X, y)
                if m < best or (ties and m == best):
                    best_w, best_b, best = w.copy(), b, m
    if last:
        return w, b, ref_mistakes(w, b, X, y)
    return best_w, best_b, best


def _ints(rng, shape, lo=-3, hi=3):
    return rng.integers(lo, hi + 1, size=shape).astype(float)


def _as_kind(rng, X):
    kind = rng.integers(3)
    return X.astype(np.float32) if kind == 1 else X.tolist() if kind == 2 else X


def _noisy_ints(rng):
    """Small integer data with noisy labels: exact activations, boundary points and ties."""
    n, d = int(rng.integers(6, 21)), int(rng.integers(1, 4))
    X = _ints(rng, (n, d))
    y = np.where(X @ rng.normal(size=d) + 0.5 * rng.normal() > 0, 1.0, -1.0)
    flip = rng.random(n) < 0.2
    y[flip] = -y[flip]
    y[0], y[-1] = 1.0, -1.0
    return X, y


def test_mistakes(g):
    for k in range(40):
        X, y = _noisy_ints(g.rng)
        w, b = _ints(g.rng, X.shape[1], -2, 2), float(g.rng.integers(-2, 3))
        if k % 5 == 0:
            w, b = np.zeros_like(w), 0.0  # every example on the boundary
        got = g.call("training_mistakes", w, b, _as_kind(g.rng, X), y)
        want = ref_mistakes(w, b, X, y)
        try:
            ok = float(got) == want
        except (TypeError, ValueError):
            ok = False
        if ok:
            continue
        a = X @ w + b
        on_boundary = int(np.sum(a == 0))
        plus_one = int(np.sum(np.where(a >= 0, 1.0, -1.0) != y))
        if on_boundary and got in (plus_one, want - on_boundary):
            raise Hint(
                "a point on the boundary (y*(w.x + b) = 0) is a mistake, whatever its label: count "
                "y*(w.x + b) <= 0, not a prediction with sign(0) = +1 or np.sign"
            )
        raise Hint(
            "training_mistakes is the number of rows with y*(w.x + b) <= 0 (an integer, at most n)"
        )


def test_pocket(g):
    for _ in range(12):
        X, y = _noisy_ints(g.rng)
        eta, max_iter = float(g.rng.choice([0.5, 1.0, 2.0])), int(g.rng.integers(2, 7))
        Xk = _as_kind(g.rng, X)
        out = as_tuple(
            g.call(
                "pocket_fit",
                Xk,
                y,
                eta=eta,
                max_iter=max_iter,
                deps={"training_mistakes": ref_mistakes},
            ),
            3,
            "pocket_fit",
            "(w_pocket, b_pocket, pocket_mistakes)",
        )
        want = ref_pocket(X, y, eta, max_iter)
        scale = 1.0 + eta * np.abs(X).sum()
        w_ok = close(out[0], want[0], scale) and close(out[1], want[1], scale)
        if w_ok and close(out[2], want[2]):
            continue
        if w_ok:
            raise Hint(
                "your pocket weights are right but pocket_mistakes is not: return the number of "
                "training mistakes of the weights in the pocket"
            )
        for variant, hint in (
            (
                {"ties": True},
                "a later iterate with as many mistakes replaced your pocket: replace it only when "
                "the new weights make strictly fewer mistakes",
            ),
            (
                {"last": True},
                "you returned the last iterate: return the weights in the pocket, the iterate "
                "with the fewest training mistakes",
            ),
        ):
            other = ref_pocket(X, y, eta, max_iter, **variant)
            if close(out[0], other[0], scale) and close(out[1], other[1], scale):
                raise Hint(hint)
        raise Hint(
            "your pocket is off: start from w = 0, b = 0 (all n examples are mistakes), run the "
            "perceptron on the examples in order for all max_iter epochs, and after each update "
            "count the mistakes with training_mistakes"
        )


def _activations(rng):
    n, d = int(rng.integers(3, 30)), int(rng.integers(1, 5))
    scale = float(rng.choice([0.5, 1.0, 4.0]))
    X = rng.normal(size=(n, d)) * scale
    w, b = rng.normal(size=d), float(rng.normal())
    y = rng.choice([-1.0, 1.0], size=n)
    return X, y, w, b


def test_loss(g):
    for _ in range(20):
        X, y, w, b = _activations(g.rng)
        got = g.call("perceptron_loss", w, b, _as_kind(g.rng, X), y)
        ya = y * (X @ w + b)
        scale = 1.0 + np.abs(ya).max()
        if close(got, np.mean(np.maximum(0.0, -ya)), scale):
            continue
        if close(got, np.mean(np.maximum(0.0, 1.0 - ya)), scale):
            raise Hint(
                "that is the hinge loss max(0, 1 - y*a), the SVM's: the perceptron loss has no "
                "margin, max(0, -y*a)"
            )
        if close(got, np.sum(np.maximum(0.0, -ya)), scale):
            raise Hint("you summed the losses: perceptron_loss is their mean over the examples")
        if close(got, np.mean(np.maximum(0.0, ya)), scale):
            raise Hint("your loss is positive on the examples classified right: it is max(0, -y*a)")
        raise Hint(
            "perceptron_loss is the mean over the examples of max(0, -y*(w.x + b)), one number"
        )


def _subgradient_set(X, y, w, b):
    """The forced part of the mean loss's subgradient and the kink directions (one per column)."""
    Xa = np.hstack([X, np.ones((X.shape[0], 1))])
    ya = y * (X @ w + b)
    n = X.shape[0]
    forced = -(y[ya < 0, None] * Xa[ya < 0]).sum(axis=0) / n
    kinks = (-(y[ya == 0, None] * Xa[ya == 0]) / n).T
    return forced, kinks


def in_subdifferential(g_vec, forced, kinks, scale):
    """Whether g = forced + kinks @ t for some t in [0, 1]^k (bounded least squares)."""
    r = np.asarray(g_vec, dtype=float) - forced
    if kinks.shape[1] == 0:
        return bool(np.all(np.abs(r) <= 1e-6 * scale))
    from scipy.optimize import lsq_linear

    fit = lsq_linear(kinks, r, bounds=(0.0, 1.0), method="bvls")
    return bool(np.all(np.abs(kinks @ fit.x - r) <= 1e-6 * scale))


def test_subgradient(g):
    for k in range(30):
        X, y = _noisy_ints(g.rng)
        w, b = _ints(g.rng, X.shape[1], -2, 2), float(g.rng.integers(-2, 3))
        if k % 6 == 0:
            w, b = np.zeros_like(w), 0.0
        out = as_tuple(
            g.call("perceptron_subgradient", w, b, _as_kind(g.rng, X), y),
            2,
            "perceptron_subgradient",
            "(g_w, g_b)",
        )
        try:
            g_vec = np.append(np.asarray(out[0], dtype=float).ravel(), float(out[1]))
        except (TypeError, ValueError):
            raise Hint("g_w must be a vector of len(w) numbers and g_b one number") from None
        if g_vec.shape != (X.shape[1] + 1,):
            raise Hint("g_w must be a vector of len(w) numbers and g_b one number")
        forced, kinks = _subgradient_set(X, y, w, b)
        scale = 1.0 + np.abs(X).max()
        if in_subdifferential(g_vec, forced, kinks, scale):
            continue
        if in_subdifferential(-g_vec, forced, kinks, scale):
            raise Hint(
                "your subgradient has the wrong sign: where y*a < 0 the loss -y*(w.x + b) has "
                "gradient -y*x in w and -y in b (a step against it is the perceptron's update)"
            )
        if in_subdifferential(g_vec / X.shape[0], forced, kinks, scale):
            raise Hint(
                "you summed over the examples: the subgradient of the mean loss divides by n"
            )
        ya = y * (X @ w + b)
        hinge = -(y[ya < 1, None] * np.hstack([X, np.ones((len(y), 1))])[ya < 1]).sum(0) / len(y)
        if close(g_vec, hinge, scale):
            raise Hint(
                "you took the hinge loss's subgradient (y*a < 1): the perceptron loss is flat "
                "wherever y*a > 0"
            )
        raise Hint(
            "your (g_w, g_b) is not a subgradient of the mean perceptron loss: add -y*(x, 1)/n "
            "for each example with y*a < 0, nothing for y*a > 0, and at y*a = 0 any "
            "-t*y*(x, 1)/n with 0 <= t <= 1"
        )


def _sign(a):
    return np.where(np.asarray(a) >= 0, 1.0, -1.0)


def ref_voted(weights, intercepts, counts, X):
    return _sign(_sign(X @ weights.T + intercepts) @ counts)


def ref_averaged(weights, intercepts, counts, X):
    return _sign(X @ (counts @ weights) + counts @ intercepts)


def _ensemble(rng):
    """Iterates with small integer weights and counts: ties inside the votes and between them."""
    K, d, n = int(rng.integers(1, 7)), int(rng.integers(1, 4)), int(rng.integers(5, 30))
    weights, intercepts = _ints(rng, (K, d), -2, 2), _ints(rng, K, -1, 1)
    counts = rng.integers(0, 6, size=K).astype(float)
    counts[rng.integers(K)] += 1.0
    return weights, intercepts, counts, _ints(rng, (n, d), -2, 2)


def _predictions(out, n, name):
    try:
        p = np.asarray(out, dtype=float).ravel()
    except (TypeError, ValueError):
        raise Hint(f"{name} must return one prediction, +1 or -1, per row of X") from None
    if p.shape != (n,):
        raise Hint(f"{name} must return one prediction, +1 or -1, per row of X")
    if np.any(p == 0):
        raise Hint(f"{name} predicted 0: sign(0) = +1 here (np.sign(0) is 0)")
    return p


def _check_vote(g, name, ref, other, other_hint):
    for _ in range(25):
        weights, intercepts, counts, X = _ensemble(g.rng)
        kind = int(g.rng.integers(3))
        args = (
            (weights, intercepts, counts, X)
            if kind == 0
            else (weights.tolist(), intercepts.tolist(), counts.astype(int).tolist(), X.tolist())
            if kind == 1
            else (
                weights.astype(np.float32),
                intercepts.astype(np.float32),
                counts.astype(np.int64),
                X.astype(np.float32),
            )
        )
        got = _predictions(g.call(name, *args), X.shape[0], name)
        want = ref(weights, intercepts, counts, X)
        if np.array_equal(got, want):
            continue
        if np.array_equal(got, other(weights, intercepts, counts, X)):
            raise Hint(other_hint)
        raise Hint(
            f"{name} is off: check the rule and sign(0) = +1 (a point on a boundary, or a tied "
            "vote, counts as +1)"
        )


def test_voted(g):
    _check_vote(
        g,
        "voted_predict",
        ref_voted,
        ref_averaged,
        "you used the averaged rule: in the voted perceptron each iterate votes with "
        "c_k * sign(w_k.x + b_k), the prediction is the sign of the sum of the votes",
    )


def test_averaged(g):
    _check_vote(
        g,
        "averaged_predict",
        ref_averaged,
        ref_voted,
        "you let the iterates vote: the averaged perceptron predicts with one vector, "
        "sign((sum c_k w_k).x + sum c_k b_k)",
    )


# The visible part of these test cells runs with the grader's versions of what the function
# builds on.
VISIBLE_DEPS = {"test_pocket": {"training_mistakes": ref_mistakes}}
