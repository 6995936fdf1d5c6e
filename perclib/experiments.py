"""The experiments of notebooks 04 and 05, as tested functions.

Every experiment is seeded (``random_state``) and returns a dict of NumPy arrays, so a notebook
only calls it, prints a summary and plots it. All of theory lives in the augmented space z = (1, x):
R = max ||(1, x)|| and gamma* is the margin of the best unit (w, b)
(:func:`perclib.theory.max_margin`).
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from . import _validation as V
from .datasets import make_fixed_ratio, make_lfd, make_noisy, make_separable
from .perceptron import Perceptron
from .pocket import PocketPerceptron
from .theory import max_margin, radius
from .training import predict_sign, train


def _count(value, name, minimum=1):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def _fit_quietly(model, X, y):
    """Fit, turning a ConvergenceWarning into the model's ``converged_`` flag (which it sets)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", V.ConvergenceWarning)
        return model.fit(X, y)


def _error(X, y_signed, w, b):
    """0-1 error of sign(w.x + b) (sign(0) = +1) against labels in {-1, +1}."""
    return float(np.mean(predict_sign(X @ w + b) != y_signed))


# --------------------------------------------------------------------------------------------
# Novikoff's theorem
# --------------------------------------------------------------------------------------------


def novikoff_trace(X, y, *, eta=1.0, order="cyclic", random_state=0, max_iter=100000):
    """Both lemmas of Novikoff's proof, measured along one real run of the perceptron.

    With u = (b*, w*) the max-margin unit vector, gamma* its margin and R the radius (all in the
    augmented space), and v_k = (b_k, w_k) the weights after the k-th update from v_0 = 0:

    - Lemma 1 (alignment): u.v_k - u.v_{k-1} = eta y u.z >= eta gamma*, so u.v_k >= k eta gamma*;
    - Lemma 2 (norm): ||v_k||^2 - ||v_{k-1}||^2 = 2 eta y v_{k-1}.z + eta^2 ||z||^2 <= eta^2 R^2
      (the middle term is <= 0 on a mistake), so ||v_k||^2 <= k eta^2 R^2.

    Returns a dict with ``k`` (1..M), ``alignment`` (u.v_k), ``alignment_bound`` (k eta gamma*),
    ``sq_norm`` (||v_k||^2), ``sq_norm_bound`` (k eta^2 R^2), the per-update increments
    ``d_alignment`` and ``d_sq_norm``, and the scalars ``gamma``, ``R``, ``eta``, ``updates`` (M)
    and ``bound`` ((R / gamma*)^2).
    """
    w_star, b_star, gamma = max_margin(X, y)  # first: data that is not separable is refused at once
    model = Perceptron(
        eta=eta, order=order, random_state=random_state, record=True, max_iter=max_iter
    )
    model = _fit_quietly(model, X, y)
    R = radius(X)
    u = np.concatenate([[b_star], w_star])
    V_k = np.array([np.concatenate([[s.b], s.w]) for s in model.history_ if s.updated])
    V_all = np.vstack([np.zeros((1, u.size)), V_k])
    alignment = V_all @ u
    sq_norm = np.einsum("ij,ij->i", V_all, V_all)
    k = np.arange(1, V_k.shape[0] + 1)
    eta = float(eta)
    return {
        "k": k,
        "alignment": alignment[1:],
        "alignment_bound": k * eta * gamma,
        "sq_norm": sq_norm[1:],
        "sq_norm_bound": k * eta**2 * R**2,
        "d_alignment": np.diff(alignment),
        "d_sq_norm": np.diff(sq_norm),
        "gamma": gamma,
        "R": R,
        "eta": eta,
        "updates": int(model.n_updates_),
        "bound": (R / gamma) ** 2,
        "converged": bool(model.converged_),
    }


def novikoff_check(
    n_datasets=1000,
    *,
    n_samples=(10, 20, 50, 100),
    n_features=(2, 3, 5, 10),
    margins=(0.02, 0.05, 0.1, 0.2),
    orders=("cyclic", "shuffle", "random-mistake"),
    random_state=0,
):
    """Run the perceptron on many random separable data sets and compare updates with the bound.

    Data set i draws n, d and the generating margin uniformly from the given tuples
    (:func:`perclib.datasets.make_separable`) and is trained with ``orders[i % len(orders)]``.
    ``max_iter`` is set to floor(bound) + 2, which always suffices if the theorem holds, so a run
    that does not converge would show up as a ratio above 1, never be hidden.

    Returns a dict of arrays (one entry per data set): ``n``, ``d``, ``margin`` (generating),
    ``order``, ``R``, ``gamma`` (gamma*), ``bound`` ((R/gamma*)^2), ``updates``, ``ratio``
    (updates / bound) and ``converged``.
    """
    m = _count(n_datasets, "n_datasets")
    for name, values in (
        ("n_samples", n_samples),
        ("n_features", n_features),
        ("margins", margins),
        ("orders", orders),
    ):
        if len(values) == 0:
            raise ValueError(f"{name} must not be empty.")
    for o in orders:
        V.check_choice(o, "order", V.ORDERS)
    rng = V.check_random_state(random_state)
    out = {
        key: []
        for key in ("n", "d", "margin", "order", "R", "gamma", "bound", "updates", "converged")
    }
    for i in range(m):
        n, d = int(rng.choice(n_samples)), int(rng.choice(n_features))
        mg, order = float(rng.choice(margins)), orders[i % len(orders)]
        X, y = make_separable(n, d, mg, random_state=rng)
        _, _, gamma = max_margin(X, y)
        R = radius(X)
        bound = (R / gamma) ** 2
        clf = _fit_quietly(Perceptron(order=order, max_iter=int(bound) + 2, random_state=rng), X, y)
        for key, value in (
            ("n", n),
            ("d", d),
            ("margin", mg),
            ("order", order),
            ("R", R),
            ("gamma", gamma),
            ("bound", bound),
            ("updates", clf.n_updates_),
            ("converged", clf.converged_),
        ):
            out[key].append(value)
    res = {key: np.array(v) for key, v in out.items()}
    res["ratio"] = res["updates"] / res["bound"]
    return res


def vary_n_d(
    ns=(10, 30, 100, 300),
    ds=(2, 5, 10, 20),
    *,
    ratio=8.0,
    n_repeats=10,
    order="shuffle",
    random_state=0,
):
    """Updates of the perceptron at a fixed R / gamma* while n and d vary.

    For each (n, d), ``n_repeats`` data sets from :func:`make_fixed_ratio` are trained with
    ``order``. Returns ``ns``, ``ds``, ``updates`` of shape (len(ns), len(ds), n_repeats), the
    common ``bound`` = ratio^2, and ``ratio_measured`` (R / gamma* recomputed by
    :func:`perclib.theory.max_margin` and :func:`perclib.theory.radius`, same shape) as a check.
    """
    reps = _count(n_repeats, "n_repeats")
    if len(ns) == 0 or len(ds) == 0:
        raise ValueError("ns and ds must not be empty.")
    rng = V.check_random_state(random_state)
    updates = np.zeros((len(ns), len(ds), reps), dtype=np.int64)
    measured = np.zeros((len(ns), len(ds), reps))
    bound = float(ratio) ** 2
    for i, n in enumerate(ns):
        for j, d in enumerate(ds):
            for r in range(reps):
                X, y = make_fixed_ratio(n, d, ratio, random_state=rng)
                clf = _fit_quietly(
                    Perceptron(order=order, max_iter=int(bound) + 2, random_state=rng), X, y
                )
                updates[i, j, r] = clf.n_updates_
                measured[i, j, r] = radius(X) / max_margin(X, y)[2]
    return {
        "ns": np.array(ns),
        "ds": np.array(ds),
        "updates": updates,
        "bound": bound,
        "ratio_measured": measured,
    }


def order_comparison(
    X, y, *, orders=("cyclic", "shuffle", "random-mistake"), n_seeds=20, random_state=0
):
    """Updates and final weights of the perceptron on one data set under each order and seed.

    Returns ``bound`` and, per order, ``updates[order]`` (n_seeds,) and ``weights[order]``
    (n_seeds, 1 + d) as unit vectors (b, w) / ||(b, w)||. Cyclic order ignores the seed.
    """
    seeds = _count(n_seeds, "n_seeds")
    _, _, gamma = max_margin(X, y)  # first: data that is not separable is refused at once
    rng = V.check_random_state(random_state)
    updates, weights = {}, {}
    for order in orders:
        V.check_choice(order, "order", V.ORDERS)
        ups, ws = [], []
        for _ in range(seeds):
            clf = _fit_quietly(Perceptron(order=order, max_iter=100000, random_state=rng), X, y)
            v = np.concatenate([[clf.intercept_], clf.coef_])
            ups.append(clf.n_updates_)
            ws.append(v / np.linalg.norm(v))
        updates[order], weights[order] = np.array(ups), np.array(ws)
    return {"updates": updates, "weights": weights, "bound": (radius(X) / gamma) ** 2}


# --------------------------------------------------------------------------------------------
# Learning From Data's PLA experiment
# --------------------------------------------------------------------------------------------


def _clip(poly, w, b):
    """Sutherland-Hodgman: the part of a convex polygon where w.p + b >= 0."""
    out = []
    k = len(poly)
    for i in range(k):
        p, q = poly[i], poly[(i + 1) % k]
        fp, fq = w @ p + b, w @ q + b
        if fp >= 0:
            out.append(p)
        if (fp >= 0) != (fq >= 0):
            out.append(p + fp / (fp - fq) * (q - p))
    return out


def _area(poly):
    if len(poly) < 3:
        return 0.0
    P = np.array(poly)
    x, y = P[:, 0], P[:, 1]
    return 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))


def disagreement(w_f, b_f, w_g, b_g):
    """P[f(x) != g(x)] for x uniform on [-1, 1]^2, computed exactly as an area.

    f = sign(w_f.x + b_f) and g = sign(w_g.x + b_g). The set where they differ is
    {f >= 0, g < 0} union {f < 0, g >= 0}; each part is the square clipped by two half-planes
    (a convex polygon, Sutherland-Hodgman), measured by the shoelace formula, over the area 4.

    >>> round(disagreement([1.0, 0.0], 0.0, [0.0, 1.0], 0.0), 12)  # two perpendicular lines: half
    0.5
    """
    w_f, w_g = np.asarray(w_f, dtype=np.float64), np.asarray(w_g, dtype=np.float64)
    if w_f.shape != (2,) or w_g.shape != (2,):
        raise ValueError("disagreement works in 2-D: w_f and w_g must have 2 entries.")
    square = [np.array(p, dtype=np.float64) for p in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    area = 0.0
    for s in (1.0, -1.0):  # {s f >= 0} and {s g < 0}
        area += _area(_clip(_clip(square, s * w_f, s * b_f), -s * w_g, -s * b_g))
    return min(max(area / 4.0, 0.0), 1.0)


def disagreement_mc(w_f, b_f, w_g, b_g, *, n_points=10000, random_state=None):
    """P[f(x) != g(x)] estimated on ``n_points`` fresh uniform points of [-1, 1]^2."""
    k = _count(n_points, "n_points")
    rng = V.check_random_state(random_state)
    P = rng.uniform(-1.0, 1.0, size=(k, 2))
    return float(
        np.mean(predict_sign(P @ np.asarray(w_f) + b_f) != predict_sign(P @ np.asarray(w_g) + b_g))
    )


def _fit_pla(X, y, rng, max_iter=1_000_000):
    """PLA from w = 0 with a random misclassified point per iteration, through the reference loop.

    It calls the same engine as :class:`perclib.Perceptron` (``order="random-mistake"``) directly,
    because a small sample can hold one class only (the target line may miss most of the square),
    which a classifier's ``fit`` rejects but PLA handles: it still starts with every point wrong.
    """
    w = np.zeros(X.shape[1])
    b, _, updates, converged, _ = train(
        X,
        y.astype(np.float64),
        w,
        0.0,
        eta=1.0,
        max_iter=max_iter,
        order="random-mistake",
        rule="margin",
        fit_intercept=True,
        rng=rng,
    )
    return {"w": w, "b": float(b), "updates": updates, "converged": converged}


def lfd_experiment(n_samples=10, n_runs=1000, *, method="exact", n_test=10000, random_state=0):
    """Learning From Data (homework 1 of the Caltech course): PLA on N random points of a line.

    Each run draws a target f (:func:`perclib.datasets.make_lfd`), runs PLA from w = 0 picking a
    uniformly random misclassified point each iteration (``order="random-mistake"``) until no
    point is misclassified, and measures P[f(x) != g(x)] on [-1, 1]^2, exactly (``method="exact"``,
    :func:`disagreement`) or on ``n_test`` fresh points (``method="monte-carlo"``).

    Returns ``iterations`` (updates until convergence, the book's count), ``disagreement`` and
    ``converged`` (all True: separable data, max_iter is effectively unlimited), each of shape
    (n_runs,), and the lines of every run: the target's ``w_f`` (n_runs, 2) and ``b_f``, and the
    final hypothesis's ``w_g`` and ``b_g``, so that a run's disagreement can be measured again.
    """
    n = _count(n_samples, "n_samples")
    runs = _count(n_runs, "n_runs")
    V.check_choice(method, "method", ("exact", "monte-carlo"))
    rng = V.check_random_state(random_state)
    iterations, dis, conv = (
        np.zeros(runs, dtype=np.int64),
        np.zeros(runs),
        np.zeros(runs, dtype=bool),
    )
    lines = {
        key: np.zeros((runs, 2) if key[0] == "w" else runs) for key in ("w_f", "b_f", "w_g", "b_g")
    }
    for r in range(runs):
        X, y, (w_f, b_f) = make_lfd(n, random_state=rng)
        clf = _fit_pla(X, y, rng)
        iterations[r], conv[r] = clf["updates"], clf["converged"]
        lines["w_f"][r], lines["b_f"][r], lines["w_g"][r], lines["b_g"][r] = (
            w_f,
            b_f,
            clf["w"],
            clf["b"],
        )
        if method == "exact":
            dis[r] = disagreement(w_f, b_f, clf["w"], clf["b"])
        else:
            dis[r] = disagreement_mc(
                w_f, b_f, clf["w"], clf["b"], n_points=n_test, random_state=rng
            )
    return {"iterations": iterations, "disagreement": dis, "converged": conv, **lines}


# --------------------------------------------------------------------------------------------
# Beyond separable data
# --------------------------------------------------------------------------------------------


def weight_cycle(X, y, *, max_iter=20):
    """The weights (b, w) at the end of every epoch of the cyclic perceptron, and the first repeat.

    On data that is not separable (XOR) the perceptron never stops; from w = 0 with a cyclic order
    its state after an epoch depends only on its state before it, so as soon as an end-of-epoch
    weight vector repeats, the run cycles forever with that period.

    Returns ``weights`` (n_epochs, 1 + d), ``first`` (the epoch, counted from 1, where the repeated
    vector was first seen; None if no repeat within ``max_iter`` or if the run converged),
    ``period`` (epochs per cycle, or None) and ``updates_per_epoch``.
    """
    clf = _fit_quietly(Perceptron(max_iter=_count(max_iter, "max_iter"), record=True), X, y)
    ends = {}
    for s in clf.history_:
        ends[s.epoch] = np.concatenate([[s.b], s.w])
    weights = np.array([ends[e] for e in sorted(ends)])
    first = period = None
    seen = {}
    for e, v in enumerate(weights if not clf.converged_ else [], start=1):  # converged: no cycle
        key = tuple(v.tolist())
        if key in seen:
            first, period = seen[key], e - seen[key]
            break
        seen[key] = e
    return {
        "weights": weights,
        "first": first,
        "period": period,
        "updates_per_epoch": clf.mistakes_,
    }


def _noisy_split(n_train, n_test, flip, n_features, rng):
    X, y = make_noisy(n_train + n_test, n_features, flip=flip, random_state=rng)
    return X[:n_train], y[:n_train], X[n_train:], y[n_train:]


def max_iter_curve(
    max_iters=tuple(range(1, 31)),
    *,
    n_train=50,
    n_test=2000,
    flip=0.1,
    n_features=2,
    n_datasets=20,
    order="shuffle",
    random_state=0,
):
    """Train and test error of the perceptron's last iterate against ``max_iter`` on noisy data.

    Each data set is :func:`perclib.datasets.make_noisy` split into train and test (the same noisy
    distribution, so the test error includes the label noise). The model is trained one epoch at a
    time with ``partial_fit``, which gives exactly ``Perceptron(max_iter=k).fit`` after k epochs.

    Returns ``max_iter`` (K,), ``train_error`` and ``test_error`` of shape (n_datasets, K).
    """
    reps = _count(n_datasets, "n_datasets")
    ks = np.array(sorted(set(int(_count(k, "max_iters entries")) for k in max_iters)))
    if ks.size == 0:
        raise ValueError("max_iters must not be empty.")
    rng = V.check_random_state(random_state)
    train_err, test_err = np.zeros((reps, ks.size)), np.zeros((reps, ks.size))
    for r in range(reps):
        Xtr, ytr, Xte, yte = _noisy_split(n_train, n_test, flip, n_features, rng)
        clf = Perceptron(order=order, random_state=int(rng.integers(2**31)))
        j = 0
        for epoch in range(1, ks[-1] + 1):
            clf.partial_fit(Xtr, ytr, classes=[-1, 1])
            if epoch == ks[j]:
                train_err[r, j], test_err[r, j] = 1 - clf.score(Xtr, ytr), 1 - clf.score(Xte, yte)
                j += 1
    return {"max_iter": ks, "train_error": train_err, "test_error": test_err}


def pocket_vs_last(
    n_seeds=20,
    *,
    n_train=100,
    n_test=2000,
    flip=0.1,
    n_features=2,
    max_iter=50,
    order="shuffle",
    random_state=0,
):
    """Train and test error of the pocket weights against the last iterate, one noisy data set
    per seed.

    Returns arrays of shape (n_seeds,): ``train_pocket``, ``test_pocket``, ``train_last``,
    ``test_last``.
    """
    seeds = _count(n_seeds, "n_seeds")
    rng = V.check_random_state(random_state)
    out = {
        key: np.zeros(seeds) for key in ("train_pocket", "test_pocket", "train_last", "test_last")
    }
    for r in range(seeds):
        Xtr, ytr, Xte, yte = _noisy_split(n_train, n_test, flip, n_features, rng)
        clf = PocketPerceptron(
            max_iter=max_iter, order=order, random_state=int(rng.integers(2**31))
        ).fit(Xtr, ytr)
        ytr_s, yte_s = (
            np.where(ytr == clf.classes_[1], 1.0, -1.0),
            np.where(yte == clf.classes_[1], 1.0, -1.0),
        )
        out["train_pocket"][r] = _error(Xtr, ytr_s, clf.coef_, clf.intercept_)
        out["test_pocket"][r] = _error(Xte, yte_s, clf.coef_, clf.intercept_)
        out["train_last"][r] = _error(Xtr, ytr_s, clf.last_coef_, clf.last_intercept_)
        out["test_last"][r] = _error(Xte, yte_s, clf.last_coef_, clf.last_intercept_)
    return out
