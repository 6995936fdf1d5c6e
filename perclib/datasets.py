"""Data for the course: seeded generators, and scikit-learn's bundled real datasets.

Nothing here reaches the network: the generators draw from a seeded ``numpy.random.Generator``
and the loaders read the files that ship inside scikit-learn.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import sparse

from . import _validation as V


def _check_count(value, name, minimum=1):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def worked_example():
    """The Melbourne COMP90049 lecture's 4 points: <1,1>, <1,2> are +1; <0,0>, <-1,0> are -1.

    >>> X, y = worked_example()
    >>> X.tolist(), y.tolist()
    ([[1.0, 1.0], [1.0, 2.0], [0.0, 0.0], [-1.0, 0.0]], [1, 1, -1, -1])
    """
    X = np.array([[1.0, 1.0], [1.0, 2.0], [0.0, 0.0], [-1.0, 0.0]])
    y = np.array([1, 1, -1, -1])
    return X, y


def make_separable(
    n_samples=100, n_features=2, margin=0.1, *, bias=True, random_state=None, return_separator=False
):
    """Linearly separable data with a chosen margin.

    Points are uniform in [-1, 1]^d. A random unit normal w* (and, with ``bias``, an offset b* in
    [-0.5, 0.5]) defines the target; points closer than ``margin`` to the hyperplane w*.x + b* = 0
    are redrawn, so every point has y (w*.x + b*) >= margin with ||w*|| = 1. Both classes appear.

    Returns X of shape (n_samples, n_features), y in {-1, +1}, and with ``return_separator`` also
    (w*, b*).

    >>> X, y = make_separable(50, 3, margin=0.2, random_state=0)
    >>> X.shape, sorted(set(y.tolist()))
    ((50, 3), [-1, 1])
    """
    n = _check_count(n_samples, "n_samples", 2)
    d = _check_count(n_features, "n_features")
    if isinstance(margin, bool) or not isinstance(margin, numbers.Real) or not 0 <= margin < 0.9:
        raise ValueError(
            f"margin must be a number in [0, 0.9) for points in [-1, 1]^d; got {margin!r}."
        )
    rng = V.check_random_state(random_state)
    batch, floor = max(2 * n, 64), max(margin, 1e-9)  # points per draw; the least |w*.x + b*|
    for _ in range(1000):
        w = rng.normal(size=d)
        w /= np.linalg.norm(w)
        b = float(rng.uniform(-0.5, 0.5)) * (1.0 if bias else 0.0)
        kept, count = [], 0  # the batches' points outside the margin, until there are n
        for _ in range(10000):
            cand = rng.uniform(-1.0, 1.0, size=(batch, d))
            kept.append(cand[np.abs(cand @ w + b) >= floor])
            count += kept[-1].shape[0]
            if count >= n:
                break
        X = (kept[0] if len(kept) == 1 else np.concatenate(kept))[:n]
        y = np.where(X @ w + b >= 0, 1, -1)
        if X.shape[0] == n and np.any(y != y[0]):  # both classes
            return (X, y, (w, b)) if return_separator else (X, y)
    raise ValueError(
        f"Could not draw {n} points with margin {margin} and both classes; use a smaller margin."
    )


def make_noisy(n_samples=100, n_features=2, flip=0.1, *, margin=0.0, random_state=None):
    """Separable data (see :func:`make_separable`)
    with each label flipped with probability ``flip``.

    >>> X, y = make_noisy(200, flip=0.1, random_state=1)
    >>> X.shape
    (200, 2)
    """
    if isinstance(flip, bool) or not isinstance(flip, numbers.Real) or not 0 <= flip <= 0.5:
        raise ValueError(f"flip must be a probability in [0, 0.5]; got {flip!r}.")
    rng = V.check_random_state(random_state)
    X, y = make_separable(n_samples, n_features, margin, random_state=rng)
    flips = rng.random(X.shape[0]) < flip
    return X, np.where(flips, -y, y)


def make_xor(n_per_corner=1, noise=0.0, *, random_state=None):
    """XOR: the corners (0,0), (1,1) are -1 and (0,1), (1,0) are +1; no line separates them.

    With ``n_per_corner`` > 1, each corner becomes a Gaussian cloud of standard deviation ``noise``.

    >>> X, y = make_xor()
    >>> X.tolist(), y.tolist()
    ([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], [-1, 1, 1, -1])
    """
    k = _check_count(n_per_corner, "n_per_corner")
    if isinstance(noise, bool) or not isinstance(noise, numbers.Real) or noise < 0:
        raise ValueError(f"noise must be a number >= 0; got {noise!r}.")
    corners = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    labels = np.array([-1, 1, 1, -1])
    X = np.repeat(corners, k, axis=0)
    y = np.repeat(labels, k)
    if noise > 0:
        X = X + V.check_random_state(random_state).normal(scale=noise, size=X.shape)
    return X, y


def lfd_target(random_state=None):
    """Learning From Data's target f: the line through two uniform points of [-1, 1]^2.

    Returns (w, b) with f(x) = sign(w.x + b).
    """
    rng = V.check_random_state(random_state)
    p, q = rng.uniform(-1.0, 1.0, size=(2, 2))
    w = np.array([q[1] - p[1], p[0] - q[0]])  # normal to the direction q - p
    b = -float(w @ p)
    return w, b


def make_lfd(n_samples=10, *, random_state=None):
    """Learning From Data's experiment: a random target line f and N uniform points of [-1, 1]^2.

    Returns X, y = f(X) in {-1, +1} (sign(0) = +1), and the target (w, b).

    >>> X, y, (w, b) = make_lfd(10, random_state=0)
    >>> bool(np.all(np.where(X @ w + b >= 0, 1, -1) == y))
    True
    """
    n = _check_count(n_samples, "n_samples")
    rng = V.check_random_state(random_state)
    w, b = lfd_target(rng)
    X = rng.uniform(-1.0, 1.0, size=(n, 2))
    return X, np.where(X @ w + b >= 0, 1, -1), (w, b)


def _sklearn_datasets():
    try:
        from sklearn import datasets
    except ImportError:  # pragma: no cover - scikit-learn is one of perclib's dependencies
        raise ImportError(
            "The real datasets ship with scikit-learn, one of perclib's dependencies: "
            "python3 -m pip install -e . (in the course's folder, in the venv you use) installs it."
        ) from None
    return datasets


def load_breast_cancer():
    """Wisconsin breast cancer (569 x 30, bundled with scikit-learn);
    y is 1 (benign) or 0 (malignant).

    >>> X, y = load_breast_cancer()
    >>> X.shape, sorted(set(y.tolist()))
    ((569, 30), [0, 1])
    """
    data = _sklearn_datasets().load_breast_cancer()
    return data.data.copy(), data.target.copy()


def load_iris(classes=(0, 1, 2), features=(0, 1, 2, 3)):
    """Fisher's iris (bundled with scikit-learn), restricted to some classes and features.

    >>> X, y = load_iris(classes=(0, 1), features=(0, 1))
    >>> X.shape, sorted(set(y.tolist()))
    ((100, 2), [0, 1])
    """
    data = _sklearn_datasets().load_iris()
    classes, features = list(classes), list(features)
    if not set(classes) <= {0, 1, 2} or not classes:
        raise ValueError(f"classes must be a subset of (0, 1, 2); got {classes!r}.")
    if not set(features) <= {0, 1, 2, 3} or not features:
        raise ValueError(f"features must be a subset of (0, 1, 2, 3); got {features!r}.")
    keep = np.isin(data.target, classes)
    return data.data[keep][:, features].copy(), data.target[keep].copy()


def load_digits():
    """The 8 x 8 handwritten digits (1797 x 64, values 0-16, bundled with scikit-learn).

    >>> X, y = load_digits()
    >>> X.shape, len(set(y.tolist()))
    ((1797, 64), 10)
    """
    data = _sklearn_datasets().load_digits()
    return data.data.copy(), data.target.copy()


def make_blobs3(n_per_class=30, *, spread=0.6, random_state=None):
    """Three Gaussian classes in 2-D, for the multi-class perceptron's geometry.

    >>> X, y = make_blobs3(10, random_state=0)
    >>> X.shape, sorted(set(y.tolist()))
    ((30, 2), [0, 1, 2])
    """
    k = _check_count(n_per_class, "n_per_class")
    if isinstance(spread, bool) or not isinstance(spread, numbers.Real) or spread <= 0:
        raise ValueError(f"spread must be a positive number; got {spread!r}.")
    rng = V.check_random_state(random_state)
    centres = np.array([[0.0, 2.0], [-2.0, -1.0], [2.0, -1.0]])
    X = np.vstack([c + spread * rng.normal(size=(k, 2)) for c in centres])
    return X, np.repeat(np.arange(3), k)


def make_fixed_ratio(n_samples, n_features, ratio, *, rho=1.0, random_state=None):
    """Separable data whose R / gamma* is exactly ``ratio`` (up to rounding), for any n and d.

    Construction, in the augmented space: a random unit u = (u_0, w) with |u_0| <= 0.3 and
    gamma = R / ratio, R = sqrt(1 + rho^2). Two support points z_+ = gamma u + t and
    z_- = gamma u - mu t (t orthogonal to u, mu = (1 + gamma u_0) / (1 - gamma u_0)) have a convex
    combination equal to gamma u and u.z = gamma; every other point has u.z >= gamma. Then gamma u
    is the point of least norm of the hull (any q in it has ||q|| >= u.q >= gamma), so gamma* =
    gamma exactly. One point lies on the sphere ||x|| = rho, all others inside, so R is exact too.

    Returns X of shape (n_samples, n_features) and y in {-1, +1} (both classes present).
    """
    n = _check_count(n_samples, "n_samples", 3)
    d = _check_count(n_features, "n_features")
    rho = V.check_positive(rho, "rho")
    R = float(np.sqrt(1.0 + rho**2))
    if (
        isinstance(ratio, bool)
        or not isinstance(ratio, numbers.Real)
        or not R / rho * 1.05 <= ratio <= 1e4
    ):
        raise ValueError(
            f"ratio must be a number in [{R / rho * 1.05:.3f}, 1e4] for rho={rho}; got {ratio!r}."
        )
    gamma = R / float(ratio)
    rng = V.check_random_state(random_state)
    for _ in range(
        1000
    ):  # redraw u until both support points fit in the ball (always soon: u_0 = 0 fits)
        u0 = float(rng.uniform(-0.3, 0.3))
        w = rng.normal(size=d)
        w *= np.sqrt(1 - u0**2) / np.linalg.norm(w)
        mu = (1 + gamma * u0) / (1 - gamma * u0)
        alpha = (1 - gamma * u0) / (1 - u0**2)
        x_plus_base = (gamma - alpha * u0) * w  # x_+ = z_+[1:] without the free part s
        x_minus_base = -(gamma + mu * alpha * u0) * w  # x_- = -z_-[1:] without the free part
        if max(x_plus_base @ x_plus_base, x_minus_base @ x_minus_base) <= rho**2:
            break
    else:  # pragma: no cover - needs 1000 unlucky draws
        raise ValueError(
            f"Could not place the support points for ratio={ratio!r}; use a larger ratio."
        )
    s = rng.normal(size=d)
    s -= (s @ w) / (w @ w) * w  # s is orthogonal to w (and to e_0): t stays orthogonal to u
    if d == 1:  # no direction is orthogonal to w: the projection leaves only a rounding error
        s[:] = 0.0
    room = min(rho**2 - x_plus_base @ x_plus_base, (rho**2 - x_minus_base @ x_minus_base) / mu**2)
    s_norm = float(np.linalg.norm(s))
    s = s * (0.5 * np.sqrt(max(room, 0.0)) / s_norm) if s_norm > 0 else s
    supports = np.array([x_plus_base + s, x_minus_base + mu * s])

    def draw(count, on_sphere):
        pts = np.empty((0, d))
        while pts.shape[0] < count:
            g = rng.normal(size=(4 * count + 16, d))
            g /= np.linalg.norm(g, axis=1, keepdims=True)
            r = rho if on_sphere else rho * rng.uniform(size=(g.shape[0], 1)) ** (1.0 / d)
            cand = g * r
            pts = np.vstack([pts, cand[np.abs(u0 + cand @ w) >= gamma]])
        return pts[:count]

    X = np.vstack([supports, draw(1, True), draw(n - 3, False)])
    X = X[rng.permutation(n)]
    y = np.where(u0 + X @ w >= 0, 1, -1)
    return X, y


def make_sparse_text(n_samples=2000, n_features=5000, *, words=20, random_state=None):
    """A text-like binary problem: each example "contains" ``words`` distinct features (value 1).

    Features follow a Zipf-like frequency (a few common words, many rare ones); the label is the
    sign of a hidden sparse weight vector's score (ties to +1). Returns ``(X, y)`` with X a CSR
    matrix.
    """
    n = V.check_max_iter(n_samples, "n_samples")
    d = V.check_max_iter(n_features, "n_features")
    words = V.check_max_iter(words, "words")
    if words > d:
        raise ValueError(f"words ({words}) cannot exceed n_features ({d}).")
    rng = np.random.default_rng(random_state)
    p = 1.0 / np.arange(1, d + 1)
    p /= p.sum()
    rows = [np.sort(rng.choice(d, size=words, replace=False, p=p)) for _ in range(n)]
    indices = np.concatenate(rows)
    indptr = np.arange(0, n * words + 1, words)
    X = sparse.csr_matrix((np.ones(n * words), indices, indptr), shape=(n, d))
    hidden = np.where(rng.random(d) < 0.5, -1.0, 1.0) * (rng.random(d) < 0.2)
    y = np.where(X @ hidden >= 0, 1, -1)
    return X, y
