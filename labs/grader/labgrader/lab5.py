"""Hidden tests of lab 5: linear_kernel (1), polynomial_kernel (2), rbf_kernel (2), dual_fit (3),
dual_predict (2)."""

from __future__ import annotations

import numpy as np

from . import Hint, as_tuple, close


def ref_linear(A, B):
    return np.asarray(A, dtype=float) @ np.asarray(B, dtype=float).T


def ref_polynomial(A, B, degree=2, gamma=1.0, coef0=1.0):
    return (gamma * ref_linear(A, B) + coef0) ** degree


def _squared_distances(A, B):
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    return ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)


def ref_rbf(A, B, gamma=1.0):
    return np.exp(-gamma * _squared_distances(A, B))


def ref_dual_fit(K, y, max_iter=10, strict=False, bias=True, batch=False):
    """The dual perceptron on the Gram matrix K: (alpha, b, n_epochs, the smallest nonzero |a|).
    ``strict``: update on y*a < 0 only; ``bias``: learn b; ``batch``: the epoch's activations
    computed before its updates."""
    K, y = np.asarray(K, dtype=float), np.asarray(y, dtype=float)
    n = y.shape[0]
    alpha, b, smallest = np.zeros(n), 0.0, np.inf
    epochs = 0
    for _ in range(max_iter):
        epochs += 1
        frozen = K @ (alpha * y) + b
        updates = 0
        for i in range(n):
            a = frozen[i] if batch else float(K[i] @ (alpha * y)) + b
            if a != 0:
                smallest = min(smallest, abs(a))
            if y[i] * a < 0 or (y[i] * a == 0 and not strict):
                alpha[i] += 1.0
                if bias:
                    b += y[i]
                updates += 1
        if updates == 0:
            break
    return alpha, b, epochs, smallest


def _sign(a):
    return np.where(np.asarray(a) >= 0, 1.0, -1.0)


def ref_dual_predict(alpha, b, y, K):
    return _sign(np.asarray(K, dtype=float) @ (np.asarray(alpha, float) * np.asarray(y, float)) + b)


def _ints(rng, shape, lo=-2, hi=2):
    return rng.integers(lo, hi + 1, size=shape).astype(float)


def _as_kind(rng, M, integer=False):
    """M as the student may meet it: float64, float32, a list, or (integer data) an int array."""
    kind = int(rng.integers(4 if integer else 3))
    if kind == 1:
        return M.astype(np.float32)
    if kind == 2:
        return M.astype(int).tolist() if integer and rng.random() < 0.5 else M.tolist()
    if kind == 3:
        return M.astype(np.int64)
    return M


def _pair(rng):
    """Two data sets with the same number of columns: small integers, halves or normal floats."""
    m, k, d = int(rng.integers(1, 9)), int(rng.integers(1, 9)), int(rng.integers(1, 5))
    kind = int(rng.integers(3))
    if kind == 0:
        return _ints(rng, (m, d)), _ints(rng, (k, d)), True
    if kind == 1:
        return _ints(rng, (m, d), -4, 4) / 2, _ints(rng, (k, d), -4, 4) / 2, False
    scale = float(rng.choice([0.3, 1.0, 2.0]))
    return rng.normal(size=(m, d)) * scale, rng.normal(size=(k, d)) * scale, False


def _matrix(got, shape, name):
    try:
        K = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        raise Hint(f"{name} must return a matrix of numbers, K(A, B)") from None
    if K.shape == shape[::-1] and shape[0] != shape[1]:
        raise Hint(f"{name} {TRANSPOSED}, shape (len(A), len(B))")
    if K.shape != shape:
        raise Hint(
            f"{name} must return the matrix K(A, B), one row per row of A and one column per row "
            "of B: shape (len(A), len(B))"
        )
    return K


class _Verdict:
    """A test's cases, then one hint: a wrong answer is named by the mistake that explains every
    case (a slip can agree with the reference, or with another slip, on some inputs)."""

    def __init__(self, hints):
        self.hints = dict(hints)  # {hint: still consistent with every case}
        self.consistent = dict.fromkeys(self.hints, True)
        self.failed = False

    def case(self, right, **matches):
        """One case: whether the answer was right, and for each hint whether it explains it."""
        self.failed |= not right
        for hint in self.consistent:
            self.consistent[hint] &= bool(matches.get(self.hints[hint], False))

    def hint(self, otherwise):
        if not self.failed:
            return
        for hint, ok in self.consistent.items():
            if ok:
                raise Hint(hint)
        raise Hint(otherwise)


def _kernel_test(g, name, cases, alternatives, otherwise):
    """Call the kernel ``name`` on each case ``(A, B, integer, params, want, others)``."""
    verdict = _Verdict(alternatives)
    for A, B, integer, params, want, others in cases:
        got = g.call(name, _as_kind(g.rng, A, integer), _as_kind(g.rng, B, integer), **params)
        K = _matrix(got, want.shape, name)
        scale = 1.0 + np.abs(want).max()
        matches = {key: close(K, other, scale) for key, other in others.items()}
        matches["transposed"] = close(K, want.T, scale) if want.shape[0] == want.shape[1] else False
        verdict.case(close(K, want, scale), **matches)
    verdict.hint(otherwise)


TRANSPOSED = "returned K(B, A): K(A, B) has one row per row of A and one column per row of B"


def test_linear(g):
    cases = []
    for _ in range(20):
        A, B, integer = _pair(g.rng)
        cases.append((A, B, integer, {}, ref_linear(A, B), {}))
    _kernel_test(
        g,
        "linear_kernel",
        cases,
        {f"linear_kernel {TRANSPOSED}": "transposed"},
        "linear_kernel's entry (i, j) is the dot product A[i].B[j]",
    )


def test_polynomial(g):
    cases = []
    for k in range(24):
        A, B, integer = _pair(g.rng)
        degree = int(g.rng.integers(1, 5))
        gamma = float(g.rng.choice([0.5, 1.0, 2.0, 0.25]))
        coef0 = float(g.rng.choice([0.0, 1.0, 2.5, -1.0]))
        if k % 4 == 0:  # parameters where each of the hints below can be told apart
            degree, gamma, coef0 = int(g.rng.integers(2, 4)), 2.0, 1.0
        dot = ref_linear(A, B)
        others = {
            "no gamma": (dot + coef0) ** degree,
            "gamma outside": (gamma * (dot + coef0)) ** degree,
            "no coef0": (gamma * dot) ** degree,
            "power inside": gamma * dot**degree + coef0,
        }
        params = {"degree": degree, "gamma": gamma, "coef0": coef0}
        cases.append((A, B, integer, params, ref_polynomial(A, B, degree, gamma, coef0), others))
    _kernel_test(
        g,
        "polynomial_kernel",
        cases,
        {
            "polynomial_kernel leaves out gamma: it multiplies the dot product": "no gamma",
            "gamma multiplies the dot product only, not coef0": "gamma outside",
            "polynomial_kernel leaves out coef0: it is added inside the power": "no coef0",
            "the whole of gamma x.z + coef0 is raised to the power degree": "power inside",
            f"polynomial_kernel {TRANSPOSED}": "transposed",
        },
        "polynomial_kernel's entry (i, j) is (gamma A[i].B[j] + coef0) ** degree, with the "
        "parameters it is given",
    )


def test_rbf(g):
    cases = []
    for _ in range(24):
        A, B, integer = _pair(g.rng)
        gamma = float(g.rng.choice([0.1, 0.5, 1.0, 2.0]))
        d2 = _squared_distances(A, B)
        others = {
            "unsquared": np.exp(-gamma * np.sqrt(d2)),
            "positive": np.exp(gamma * d2),
            "divides": np.exp(-d2 / gamma),
            "no gamma": np.exp(-d2),
        }
        cases.append((A, B, integer, {"gamma": gamma}, ref_rbf(A, B, gamma), others))
    _kernel_test(
        g,
        "rbf_kernel",
        cases,
        {
            "rbf_kernel uses the distance ||x - z||: the kernel takes its square": "unsquared",
            "rbf_kernel grows with the distance: the exponent is negative": "positive",
            "gamma multiplies the squared distance; it does not divide it": "divides",
            "rbf_kernel leaves out gamma, which multiplies the squared distance": "no gamma",
            f"rbf_kernel {TRANSPOSED}": "transposed",
        },
        "rbf_kernel's entry (i, j) is exp(-gamma ||A[i] - B[j]||^2), one number in (0, 1]",
    )


def _training_set(rng):
    """A Gram matrix of a kernel on data the rule may or may not separate: exact integers for the
    linear and quadratic kernels (activations of 0 happen), floats for the RBF kernel."""
    n, d = int(rng.integers(4, 15)), int(rng.integers(1, 4))
    kernel = ("linear", "poly", "rbf")[int(rng.integers(3))]
    if kernel == "rbf":
        X = rng.normal(size=(n, d))
        K = ref_rbf(X, X, float(rng.choice([0.5, 1.0, 2.0])))
    else:
        X = _ints(rng, (n, d))
        K = ref_linear(X, X) if kernel == "linear" else ref_polynomial(X, X, 2, 1.0, 1.0)
    y = np.where((X**2).sum(axis=1) + X @ rng.normal(size=d) > float(d), 1.0, -1.0)
    flip = rng.random(n) < 0.15
    y[flip] = -y[flip]
    y[0], y[-1] = 1.0, -1.0
    return K, y, kernel != "rbf"


FIT_HINTS = {
    "an example with activation exactly 0 (each one before the first update) is a mistake: "
    "update when y_i * a <= 0": "strict",
    "b never changed: each mistake on example i also adds y_i to b": "no bias",
    "you computed an epoch's activations before its updates: each example's activation uses "
    "alpha and b as the updates before it left them": "batch",
    "your alpha holds alpha_i y_i: alpha_i is the number of mistakes made on example i "
    "(0, 1, 2, ...); the label enters through y_i in the activation": "signed",
    "your alpha and b are right but n_epochs is not: stop after the first epoch without a "
    "mistake": "no stop",
    "your alpha and b are right but n_epochs is not: it counts the epochs run, the last one "
    "(without a mistake) included, at most max_iter": "epochs",
}


def test_dual_fit(g):
    verdict = _Verdict(FIT_HINTS)
    for k in range(16):
        while True:  # no activation within rounding of 0 unless it is exactly 0
            K, y, integer = _training_set(g.rng)
            max_iter = int(g.rng.integers(1, 11))
            sent = _as_kind(g.rng, K, integer)
            K = np.asarray(sent, dtype=float)  # the matrix as the student gets it (float32...)
            alpha, b, epochs, smallest = ref_dual_fit(K, y, max_iter)
            stops_early = epochs < max_iter  # every third run: one that stops before max_iter
            if (integer or smallest > 1e-4) and (stops_early or k % 3):
                break
        labels = y.astype(int) if g.rng.random() < 0.3 else y
        labels = labels.tolist() if g.rng.random() < 0.3 else labels
        out = as_tuple(
            g.call("dual_fit", sent, labels, max_iter=max_iter),
            3,
            "dual_fit",
            "(alpha, b, n_epochs)",
        )
        try:
            got = (np.asarray(out[0], dtype=float).ravel(), float(out[1]), float(out[2]))
        except (TypeError, ValueError):
            raise Hint(
                "dual_fit must return alpha (one number per example), b (a number) and n_epochs "
                "(an integer)"
            ) from None
        if got[0].shape != alpha.shape:
            raise Hint("alpha must hold one number per training example")
        scale = 1.0 + max_iter * len(y)

        def same(other, got=got, scale=scale):
            a, bb, e = other[:3]
            return close(got[0], a, scale) and close(got[1], bb, scale) and got[2] == e

        weights_right = close(got[0], alpha, scale) and close(got[1], b, scale)
        verdict.case(
            same((alpha, b, epochs)),
            strict=same(ref_dual_fit(K, y, max_iter, strict=True)),
            batch=same(ref_dual_fit(K, y, max_iter, batch=True)),
            signed=same((alpha * y, b, epochs)),
            epochs=weights_right,
            **{
                "no bias": same(ref_dual_fit(K, y, max_iter, bias=False)),
                "no stop": weights_right and got[2] == max_iter,
            },
        )
    verdict.hint(
        "your alpha or b is off: start from alpha = 0, b = 0; visit the examples in order; the "
        "activation of example i is sum_j alpha_j y_j K[j, i] + b; on a mistake add 1 to alpha_i "
        "and y_i to b"
    )


def _model(rng):
    """Small integer alphas, labels and kernel values: activations of 0 happen."""
    n, m = int(rng.integers(1, 13)), int(rng.integers(1, 16))
    alpha = rng.integers(0, 4, size=n).astype(float)
    if rng.random() < 0.1:
        alpha[:] = 0.0  # no mistake yet: every prediction is sign(b)
    y = rng.choice([-1.0, 1.0], size=n)
    b = float(rng.integers(-2, 3))
    return alpha, b, y, _ints(rng, (m, n), -3, 3)


def test_dual_predict(g):
    verdict = _Verdict(
        {
            "a point with activation exactly 0 predicts +1 (sign(0) = +1)": "zero",
            "your activation leaves out the labels: each term is alpha_i y_i K(x_i, x)": "labels",
            "your activation leaves out b": "no b",
        }
    )
    for _ in range(30):
        alpha, b, y, K = _model(g.rng)
        kind = int(g.rng.integers(3))
        args = (
            (alpha, b, y, K)
            if kind == 0
            else (alpha.astype(int).tolist(), int(b), y.astype(int).tolist(), K.tolist())
            if kind == 1
            else (alpha.astype(np.int64), np.float32(b), y.astype(np.float32), K.astype(np.float32))
        )
        got = g.call("dual_predict", *args)
        try:
            p = np.asarray(got, dtype=float).ravel()
        except (TypeError, ValueError):
            raise Hint("dual_predict must return one prediction, +1 or -1, per row of K") from None
        if p.shape != (K.shape[0],):
            raise Hint(
                "dual_predict must return one prediction, +1 or -1, per row of K (one row per "
                "point to predict, one column per training example)"
            )
        if np.any(p == 0):
            raise Hint("dual_predict predicted 0: sign(0) = +1 here (np.sign(0) is 0)")
        a = K @ (alpha * y) + b
        verdict.case(
            np.array_equal(p, ref_dual_predict(alpha, b, y, K)),
            zero=np.array_equal(p, np.where(a > 0, 1.0, -1.0)),
            labels=np.array_equal(p, _sign(K @ alpha + b)),
            **{"no b": np.array_equal(p, _sign(K @ (alpha * y)))},
        )
    verdict.hint(
        "dual_predict is off: the activation of row j of K is sum_i alpha_i y_i K[j, i] + b, and "
        "the prediction its sign, with sign(0) = +1"
    )
