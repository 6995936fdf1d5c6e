"""The notebooks' experiments and their figures: loops longer than a notebook cell should hold,
as tested functions (tests/test_experiments.py, tests/test_experiment_figures.py).

Course content, kept beside the notebooks as their exercises are (notebooks/exercises/): it is not
part of perclib, which students install and which never imports it. Notebooks 04-07, run with
notebooks/ as their working directory, load it with ``import experiments as E``; tools/sweep_*.py,
the benchmarks and the tests put notebooks/ on ``sys.path`` first.

Each experiment is seeded (``random_state``, or a seed per run) and returns NumPy arrays (a dict,
or :class:`ErrorCurves`), so a notebook only calls it, prints a summary and plots it.

- Novikoff's theorem (notebook 04): :func:`novikoff_trace`, :func:`novikoff_check`,
  :func:`vary_n_d`, :func:`order_comparison`; all of theory lives in the augmented space z = (1, x):
  R = max ||(1, x)|| and gamma* is the margin of the best unit (w, b)
  (:func:`perclib.theory.max_margin`).
- Learning From Data's PLA experiment (04): :func:`lfd_experiment`, :func:`disagreement`.
- Beyond separable data (05): :func:`weight_cycle`, :func:`max_iter_curve`, :func:`pocket_vs_last`.
- The perceptron's four answers, last iterate, voted, averaged and pocket (06):
  :func:`iterate_average` (the naive average of the iterates) and :func:`lazy_average` (CIML's
  AveragedPerceptronTrain, optionally with one of three variants that give another vector);
  :func:`epoch_errors` and :func:`error_curves`, the test error of the four answers after every
  epoch, for one run or over many seeds, on the seeded train/test splits of :func:`noisy_task`
  and :func:`split_task`; :func:`averaged_sparse`, what the lazy trick saves on sparse data.
  All four answers come from one perceptron run (margin rule, the same visiting order), so their
  differences are differences of *answer*, not of training; the tests check each of them against
  the corresponding perclib model fitted for the same number of epochs.
- :func:`confusion_matrix` (07): counts of (true, predicted) pairs, as scikit-learn's.

The figures follow :mod:`perclib.plotting.core`'s conventions: each takes ``ax=None``, draws on it
(or on a new axes) and returns the axes; none calls ``plt.show()``. Okabe-Ito colours throughout.

- 04: :func:`plot_novikoff_lemma`, :func:`plot_bound_scatter`, :func:`plot_histogram`,
  :func:`plot_updates_vs`;
- 05: :func:`plot_losses`, :func:`plot_train_test_error`, :func:`plot_paired`,
  :func:`plot_criterion_slice`;
- 06 and 07: :func:`plot_error_curves`, :func:`plot_weight_image`, :func:`plot_confusion_matrix`.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass

import numpy as np
from matplotlib.ticker import MaxNLocator
from scipy import sparse

from perclib import Perceptron, PocketPerceptron
from perclib import _validation as V
from perclib.datasets import _check_count as _count
from perclib.datasets import make_fixed_ratio, make_lfd, make_noisy, make_separable
from perclib.losses import loss_value, perceptron_criterion
from perclib.plotting.core import CLASS_COLORS, METHOD_STYLES, OKABE_ITO, _ax, _method_style
from perclib.theory import max_margin, radius
from perclib.training import csr, predict_sign, row, row_norms, scores, train

#: The four answers compared in notebook 06, in the order they are drawn (perclib's figure styles).
METHODS = tuple(METHOD_STYLES)

#: Variants of CIML's AveragedPerceptronTrain (each gives another vector; notebook 06 section 4).
SLIPS = ("c starts at 0", "returns w - c*u", "c counts only mistakes")


def _fit_quietly(model, X, y):
    """Fit, turning a ConvergenceWarning into the model's ``converged_`` flag (which it sets)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", V.ConvergenceWarning)
        return model.fit(X, y)


def _error(X, y_signed, w, b):
    """0-1 error of sign(w.x + b) (sign(0) = +1) against labels in {-1, +1}."""
    return float(np.mean(predict_sign(X @ w + b) != y_signed))


# -- Novikoff's theorem ----------------------------------------------------------------------------


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


# -- Learning From Data's PLA experiment -----------------------------------------------------------


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


# -- Beyond separable data -------------------------------------------------------------------------


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
    task = noisy_task(n_train, n_test, n_features=n_features, flip=flip)
    train_err, test_err = np.zeros((reps, ks.size)), np.zeros((reps, ks.size))
    for r in range(reps):
        Xtr, ytr, Xte, yte = task(rng)
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
    task = noisy_task(n_train, n_test, n_features=n_features, flip=flip)
    out = {
        key: np.zeros(seeds) for key in ("train_pocket", "test_pocket", "train_last", "test_last")
    }
    for r in range(seeds):
        Xtr, ytr, Xte, yte = task(rng)
        clf = PocketPerceptron(
            max_iter=max_iter, order=order, random_state=int(rng.integers(2**31))
        ).fit(Xtr, ytr)
        ytr_s, yte_s = V.encode_binary(ytr, clf.classes_), V.encode_binary(yte, clf.classes_)
        out["train_pocket"][r] = _error(Xtr, ytr_s, clf.coef_, clf.intercept_)
        out["test_pocket"][r] = _error(Xte, yte_s, clf.coef_, clf.intercept_)
        out["train_last"][r] = _error(Xtr, ytr_s, clf.last_coef_, clf.last_intercept_)
        out["test_last"][r] = _error(Xte, yte_s, clf.last_coef_, clf.last_intercept_)
    return out


# -- The perceptron's four answers: last iterate, voted, averaged, pocket --------------------------


def _binary_data(X, y, name):
    X, y = V.check_X_y(X, y)
    classes = V.binary_classes(y, name)
    return X, V.encode_binary(y, classes), classes


def iterate_average(X, y, *, max_iter=10, eta=1.0, first=0):
    """The naive average of the perceptron's iterates: keep every w_t, then average them.

    The perceptron (margin rule, cyclic order, w_0 = 0, b_0 = 0) runs ``max_iter`` epochs; w_t is
    the weight vector after t visited examples, t = 0, 1, ..., T with T = max_iter * n_samples.
    ``first=0`` averages w_0, ..., w_T (CIML's average, T + 1 vectors); ``first=1`` averages
    w_1, ..., w_T (scikit-learn's ``SGDClassifier(average=True)``, T vectors).

    Returns
    -------
    w : ndarray of shape (n_features,)
    b : float

    Examples
    --------
    >>> from perclib.datasets import worked_example
    >>> w, b = iterate_average(*worked_example(), max_iter=3)
    >>> w.round(4), round(b, 4)
    (array([0.9231, 0.9231]), -0.3077)
    """
    X, y, _ = _binary_data(X, y, "iterate_average")
    max_iter = V.check_max_iter(max_iter)
    eta = V.check_positive(eta, "eta")
    if first not in (0, 1) or isinstance(first, bool):
        raise ValueError(
            f"first must be 0 (average w_0..w_T) or 1 (average w_1..w_T); got {first!r}."
        )
    # The perceptron's reference loop runs; at each update the hook keeps the iterate that was
    # replaced and how many of w_0, ..., w_T it is (the same vector, once per visited example).
    n, d = X.shape
    kept, runs = [], []  # the distinct iterates (w, b) and how many of the w_t each one is
    last = {"w": np.zeros(d), "b": 0.0, "t": 0}  # w_t for t from last["t"] on

    def on_update(w, b, t, i, step):  # the example visited t-th (from 0) made w_(t+1)
        kept.append((last["w"], last["b"]))
        runs.append(t + 1 - last["t"])
        last.update(w=w.copy(), b=b, t=t + 1)

    w = np.zeros(d)
    b, *_ = train(
        X, y, w, 0.0, eta=eta, max_iter=max_iter, order="cyclic", rule="margin",
        fit_intercept=True, rng=None, on_update=on_update, stop_when_clean=False,
    )  # fmt: skip
    kept.append((w, b))
    runs.append(max_iter * n + 1 - last["t"])  # w_T is the last of the w_t
    runs[0] -= first  # first=1 leaves w_0 out
    weights = np.array(runs, dtype=np.float64)
    return (
        np.average(np.array([v for v, _ in kept]), axis=0, weights=weights),
        float(np.average([c for _, c in kept], weights=weights)),
    )


def lazy_average(X, y, *, max_iter=10, eta=1.0, slip=None):
    """CIML's AveragedPerceptronTrain (cyclic order), or a variant of it.

    ``slip=None`` is the algorithm as in CIML (c starts at 1, c grows after every example, and the
    answer is w - u/c, b - beta/c); it equals ``iterate_average(first=0)``. The variants (see
    :data:`SLIPS`) are:

    - ``"c starts at 0"``: line 3 sets c to 0 instead of 1 (see notebook 06);
    - ``"returns w - c*u"``: a vector of no meaning;
    - ``"c counts only mistakes"``: c grows only on updates, so w - u/c is the *unweighted* mean of
      the K + 1 distinct iterates w_0 = 0, w_1, ..., w_K (numerically the plain mean of the voted
      perceptron's vectors): how many examples each survived no longer counts.

    Returns
    -------
    w : ndarray of shape (n_features,)
    b : float

    Examples
    --------
    >>> import numpy as np
    >>> from perclib.datasets import make_noisy
    >>> X, y = make_noisy(100, 2, flip=0.1, random_state=0)
    >>> w, b = lazy_average(X, y, max_iter=5)
    >>> w2, b2 = iterate_average(X, y, max_iter=5, first=0)
    >>> bool(np.allclose(w, w2) and np.isclose(b, b2))
    True
    """
    X, y, _ = _binary_data(X, y, "lazy_average")
    max_iter = V.check_max_iter(max_iter)
    eta = V.check_positive(eta, "eta")
    if slip is not None and slip not in SLIPS:
        raise ValueError(
            f"slip must be None or one of {', '.join(repr(s) for s in SLIPS)}; got {slip!r}."
        )
    # The perceptron's reference loop does lines 1 and 4-8 and 12 (visit, decide, update w and b);
    # the hook does lines 9-10 at each update, with c as the slip counts it.
    n, d = X.shape
    u, sums = np.zeros(d), {"beta": 0.0, "updates": 0}  # line 2

    def counter(t):  # c at the visit of the t-th example (t from 0), after t visits
        if slip == "c starts at 0":  # line 3: c = 0
            return t
        if slip == "c counts only mistakes":
            return 1 + sums["updates"]
        return 1 + t  # line 3: c = 1, line 12: c = c + 1 after every example

    def on_update(w, b, t, i, step):
        c = counter(t)
        u[:] = u + (step * c) * X[i]  # line 9: u = u + eta y c x
        sums["beta"] += step * c  # line 10: beta = beta + eta y c
        sums["updates"] += 1

    w = np.zeros(d)  # line 1
    b, *_ = train(
        X, y, w, 0.0, eta=eta, max_iter=max_iter, order="cyclic", rule="margin",
        fit_intercept=True, rng=None, on_update=on_update, stop_when_clean=False,
    )  # fmt: skip
    c, beta = counter(max_iter * n), sums["beta"]
    if slip == "returns w - c*u":
        return w - c * u, float(b - c * beta)
    return w - u / c, float(b - beta / c)  # line 15


def epoch_errors(
    X_train, y_train, X_test, y_test, *, max_epochs=20, eta=1.0, order="shuffle", random_state=None
):
    """The test error of the four answers after each epoch of one perceptron run.

    One run of the perceptron (margin rule, w and b from 0) over ``X_train`` keeps, at once:
    the last iterate (w, b); the voted perceptron's iterates and survival counts; CIML's running
    sums u, beta, c for the average; and the pocket weights (fewest training mistakes so far). After
    each epoch the test error of each answer is recorded. The answer after e epochs is the one the
    corresponding perclib model gives with ``max_iter=e`` (same ``order`` and ``random_state``).

    Parameters
    ----------
    X_train, y_train : the training data (two classes; ``classes[1]`` is +1).
    X_test, y_test : the test data, with labels among the training labels.
    max_epochs : int, default=20
    eta : float, default=1.0
    order : {"cyclic", "shuffle"}, default="shuffle"
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    dict
        For each name in :data:`METHODS`, an array of shape (max_epochs,): the test error rate after
        epochs 1, 2, ..., max_epochs.

    Examples
    --------
    >>> from perclib.datasets import worked_example
    >>> X, y = worked_example()
    >>> errors = epoch_errors(X, y, X, y, max_epochs=3, order="cyclic")
    >>> errors["last"].tolist(), errors["voted"].tolist()
    ([0.25, 0.0, 0.0], [0.5, 0.25, 0.25])
    """
    X, y, classes = _binary_data(X_train, y_train, "epoch_errors")
    Xt = V.check_array(X_test, name="X_test")
    yt = V.check_y(y_test, Xt.shape[0], name="y_test")
    if Xt.shape[1] != X.shape[1]:
        raise ValueError(
            f"X_test has {Xt.shape[1]} features but X_train has {X.shape[1]}; they must match."
        )
    yt = V.encode_binary(yt, classes)
    max_epochs = V.check_max_iter(max_epochs, "max_epochs")
    eta = V.check_positive(eta, "eta")
    V.check_choice(order, "order", V.ORDERS[:2])
    rng = V.check_random_state(random_state)
    n, d = X.shape
    x_norms = row_norms(X)

    def training_mistakes(w, b):
        return int(np.count_nonzero(predict_sign(scores(X, w, b, x_norms)) != y))

    def test_error(signs):
        return float(np.mean(signs != yt))

    # The perceptron's reference loop runs one epoch at a time; at each update the hook keeps the
    # voted perceptron's votes, CIML's sums for the average and the pocket.
    w = np.zeros(d)  # the last iterate (w, b), updated in place by the loop
    s = {
        "b": 0.0,
        "u": np.zeros(d), "beta": 0.0,  # averaged: CIML's sums (c = 1 + examples visited)
        "signs": predict_sign(Xt @ w + 0.0), "since": 0,  # voted: the iterate's votes, its start
        "pocket": (w.copy(), 0.0, training_mistakes(w, 0.0)),
    }  # fmt: skip
    vote = np.zeros(Xt.shape[0])  # the votes of the finished iterates
    visits = 0  # examples visited before this epoch

    def on_update(w, b, t, i, step):
        t += visits
        vote[:] += (t - s["since"]) * s["signs"]  # the replaced iterate survived t - since visits
        s["signs"], s["since"] = predict_sign(Xt @ w + b), t
        s["u"] += (step * (1 + t)) * X[i]
        s["beta"] += step * (1 + t)
        m = training_mistakes(w, b)
        if m < s["pocket"][2]:
            s["pocket"] = (w.copy(), float(b), m)

    errors = {m: np.empty(max_epochs) for m in METHODS}
    for epoch in range(max_epochs):
        s["b"], *_ = train(
            X, y, w, s["b"], eta=eta, max_iter=1, order=order, rule="margin", fit_intercept=True,
            rng=rng, on_update=on_update,
        )  # fmt: skip
        visits += n
        b, c = s["b"], 1 + visits
        pocket_w, pocket_b, _ = s["pocket"]
        last_signs = predict_sign(Xt @ w + b)
        errors["last"][epoch] = test_error(last_signs)
        errors["voted"][epoch] = test_error(predict_sign(vote + (visits - s["since"]) * last_signs))
        errors["averaged"][epoch] = test_error(
            predict_sign(Xt @ (w - s["u"] / c) + (b - s["beta"] / c))
        )
        errors["pocket"][epoch] = test_error(predict_sign(Xt @ pocket_w + pocket_b))
    return errors


def _check_fraction(value, name):
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float, np.floating))
        or not 0 < value < 1
    ):
        raise ValueError(f"{name} must be a number strictly between 0 and 1; got {value!r}.")
    return float(value)


def noisy_task(n_train=200, n_test=1000, *, n_features=2, flip=0.1, margin=0.0):
    """A seeded task: ``task(seed)`` draws noisy separable data and splits it into train and test.

    Train and test come from one call of :func:`perclib.datasets.make_noisy` (one target
    hyperplane), so each label is flipped with probability ``flip`` in both: no classifier can
    expect a test error much below ``flip``.

    >>> X_train, y_train, X_test, y_test = noisy_task(50, 20)(seed=0)
    >>> X_train.shape, X_test.shape
    ((50, 2), (20, 2))
    """
    n_train = _count(n_train, "n_train", 2)
    n_test = _count(n_test, "n_test")
    make_noisy(2, n_features, flip, margin=margin, random_state=0)  # check the parameters now

    def task(seed):
        X, y = make_noisy(n_train + n_test, n_features, flip, margin=margin, random_state=seed)
        return X[:n_train], y[:n_train], X[n_train:], y[n_train:]

    return task


def split_task(X, y, *, test_size=0.3, standardize=True):
    """A seeded task: ``task(seed)`` splits (X, y) at random into train and test.

    With ``standardize`` each feature is centred and scaled by the training part's mean and standard
    deviation (features constant on the training part are only centred).
    The inputs are not modified.

    >>> from perclib.datasets import load_breast_cancer
    >>> X_train, y_train, X_test, y_test = split_task(*load_breast_cancer())(seed=0)
    >>> X_train.shape, X_test.shape
    ((398, 30), (171, 30))
    """
    X, y = V.check_X_y(X, y)
    test_size = _check_fraction(test_size, "test_size")
    n = X.shape[0]
    n_test = int(np.ceil(test_size * n))
    if n_test >= n:
        raise ValueError(f"test_size={test_size} leaves no training data out of {n} samples.")
    standardize = V.check_bool(standardize, "standardize")

    def task(seed):
        perm = np.random.default_rng(seed).permutation(n)
        test, train = perm[:n_test], perm[n_test:]
        X_train, X_test = X[train], X[test]
        if standardize:
            mean = X_train.mean(axis=0)
            std = X_train.std(axis=0)
            std[std == 0] = 1.0
            X_train, X_test = (X_train - mean) / std, (X_test - mean) / std
        return X_train, y[train].copy(), X_test, y[test].copy()

    return task


@dataclass
class ErrorCurves:
    """Test errors of the four answers over epochs, for many seeds (see :func:`error_curves`).

    Attributes
    ----------
    epochs : ndarray of shape (max_epochs,)
        1, 2, ..., max_epochs.
    errors : dict
        For each method, an array of shape (n_seeds, max_epochs).
    """

    epochs: np.ndarray
    errors: dict

    @property
    def methods(self):
        return tuple(self.errors)

    @property
    def n_seeds(self):
        return next(iter(self.errors.values())).shape[0]

    def mean(self):
        """For each method, the mean test error over seeds after each epoch."""
        return {m: e.mean(axis=0) for m, e in self.errors.items()}

    def std(self):
        """For each method, the standard deviation over seeds (ddof=0) after each epoch."""
        return {m: e.std(axis=0) for m, e in self.errors.items()}

    def summary(self, epoch=None):
        """One line per method: mean ± std of the test error after ``epoch`` (default: the last)."""
        epoch = int(self.epochs[-1]) if epoch is None else epoch
        if epoch not in self.epochs:
            raise ValueError(f"epoch must be one of 1..{int(self.epochs[-1])}; got {epoch!r}.")
        j = int(epoch) - 1
        mean, std = self.mean(), self.std()
        return "\n".join(f"{m:>9}: {mean[m][j]:.3f} ± {std[m][j]:.3f}" for m in self.errors)


def error_curves(task, *, n_seeds=20, max_epochs=20, eta=1.0, order="shuffle", first_seed=0):
    """Run :func:`epoch_errors` on ``task(seed)`` for ``n_seeds`` seeds;
    return :class:`ErrorCurves`.

    Seed s draws the data (``task(s)``) and the visiting order (``random_state=s``), for
    s = first_seed, ..., first_seed + n_seeds - 1.

    >>> curves = error_curves(noisy_task(40, 40), n_seeds=3, max_epochs=5)
    >>> curves.errors["averaged"].shape
    (3, 5)
    """
    if not callable(task):
        raise ValueError(
            "task must be a function of a seed returning (X_train, y_train, X_test, y_test), "
            "for example noisy_task() or split_task(X, y)."
        )
    n_seeds = V.check_max_iter(n_seeds, "n_seeds")
    max_epochs = V.check_max_iter(max_epochs, "max_epochs")
    _count(first_seed, "first_seed", 0)
    runs = []
    for seed in range(first_seed, first_seed + n_seeds):
        X_train, y_train, X_test, y_test = task(seed)
        runs.append(
            epoch_errors(
                X_train,
                y_train,
                X_test,
                y_test,
                max_epochs=max_epochs,
                eta=eta,
                order=order,
                random_state=seed,
            )
        )
    errors = {m: np.array([r[m] for r in runs]) for m in METHODS}
    return ErrorCurves(np.arange(1, max_epochs + 1), errors)


# -- The lazy trick on sparse data -----------------------------------------------------------------


def averaged_sparse(X, y, *, max_iter=5, lazy=True):
    """The averaged perceptron (CIML's, eta = 1, cyclic order) on a CSR matrix.

    On a bag-of-words problem each example has a few non-zero features out of many. The
    perceptron's update touches only those (O(nnz)); the naive average (``lazy=False``) adds the
    whole current w to a running sum after every example (O(d) each time); CIML's lazy trick
    (``lazy=True``, w - u/c) adds c·y·x to u on updates only (O(nnz)). The wall-clock comparison
    is in ``benchmarks/bench_sparse_average.py``.

    Returns ``(w, b, additions)``: the average of w_0..w_T, b_0..b_T and the number of scalar
    additions made into the averaging sums (lazy: into u and beta on updates; naive: into the
    running sum of w and b after every example), so the cost can be compared exactly.

    >>> from perclib.datasets import make_sparse_text
    >>> X, y = make_sparse_text(50, 200, words=5, random_state=0)
    >>> w_lazy, b_lazy, ops_lazy = averaged_sparse(X, y, max_iter=2, lazy=True)
    >>> w_naive, b_naive, ops_naive = averaged_sparse(X, y, max_iter=2, lazy=False)
    >>> bool(np.allclose(w_lazy, w_naive)), ops_naive > 10 * ops_lazy
    (True, True)
    """
    if not sparse.issparse(X):
        raise ValueError("X must be a scipy.sparse matrix (use AveragedPerceptron for dense data).")
    X = csr(sparse.csr_matrix(X, dtype=np.float64))
    y = np.asarray(y)
    if y.shape != (X.shape[0],) or not np.all(np.isin(y, (-1, 1))):
        raise ValueError(f"y must hold {X.shape[0]} labels, each -1 or +1.")
    max_iter = V.check_max_iter(max_iter)
    n, d = X.shape
    # The perceptron's plain loop (sparse rows: O(nnz) per decision and update) runs; the lazy
    # sums are made by its hook at each update, the naive sum by a recorder that receives w after
    # every visited example.
    u, sums = np.zeros(d), {"beta": 0.0, "total_b": 0.0, "additions": 0}
    total = np.zeros(d)

    def on_update(w, b, t, i, step):  # lazy: u = u + y c x, beta = beta + y c (c = 1 + t)
        j, x = row(X, i)
        u[j] += (step * (1 + t)) * x
        sums["beta"] += step * (1 + t)
        sums["additions"] += j.size + 1

    class _Naive:  # the naive running sum: w and b added after every example
        def append(self, step):
            total[:] += step.w  # O(d), every example
            sums["total_b"] += step.b
            sums["additions"] += d + 1

    w = np.zeros(d)
    b, *_ = train(
        X, y, w, 0.0, eta=1.0, max_iter=max_iter, order="cyclic", rule="margin",
        fit_intercept=True, rng=None, on_update=on_update if lazy else None,
        record=None if lazy else _Naive(), stop_when_clean=False,
    )  # fmt: skip
    c = 1 + max_iter * n
    if lazy:
        return w - u / c, float(b - sums["beta"] / c), sums["additions"]
    return total / c, float(sums["total_b"] / c), sums["additions"]  # w_0 = 0 adds nothing


# -- Multi-class -----------------------------------------------------------------------------------


def confusion_matrix(y_true, y_pred, *, labels=None):
    """Counts C[i, j] of examples of true class ``labels[i]`` predicted as ``labels[j]``.

    As ``sklearn.metrics.confusion_matrix``: ``labels`` defaults to the sorted union of the labels
    in ``y_true`` and ``y_pred``; pairs with a label outside ``labels`` are not counted.

    >>> confusion_matrix([0, 1, 2, 2], [0, 2, 2, 2])
    array([[1, 0, 0],
           [0, 0, 1],
           [0, 0, 2]])
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.ndim != 1 or y_pred.ndim != 1 or y_true.shape != y_pred.shape:
        raise ValueError(
            f"y_true and y_pred must be 1-D and of the same length; "
            f"got shapes {y_true.shape} and {y_pred.shape}."
        )
    if labels is None:
        labels = np.unique(np.concatenate([y_true, y_pred]))
    else:
        labels = np.asarray(labels)
        if labels.ndim != 1 or labels.size == 0:
            raise ValueError("labels must be a non-empty 1-D list of class labels.")
        if np.unique(labels).size != labels.size:
            raise ValueError(f"labels must not repeat a label; got {V._show(labels)}.")
        if not np.any(np.isin(y_true, labels)):
            raise ValueError("At least one label in labels must appear in y_true.")
    index = {label: k for k, label in enumerate(labels.tolist())}
    C = np.zeros((labels.size, labels.size), dtype=np.int64)
    for t, p in zip(y_true.tolist(), y_pred.tolist()):
        if t in index and p in index:
            C[index[t], index[p]] += 1
    return C


# -- Figures ---------------------------------------------------------------------------------------

_LOSS_STYLE = {
    "zero_one": (OKABE_ITO["black"], "-", "0-1 loss"),
    "perceptron": (OKABE_ITO["blue"], "-", "perceptron: max(0, −ya)"),
    "hinge": (OKABE_ITO["vermillion"], "--", "hinge: max(0, 1 − ya)"),
    "logistic": (OKABE_ITO["green"], "-.", "logistic: log(1 + exp(−ya))"),
}
#: Novikoff's lemmas: the trace's key, its colour, the quantity, its bound, the title.
_LEMMAS = {
    1: (
        "alignment",
        OKABE_ITO["blue"],
        "$\\tilde{\\mathbf{w}}^{*\\top}\\tilde{\\mathbf{w}}_k$",
        "$k\\,\\eta\\,\\gamma^*$ (lower bound)",
        "Lemma 1: the alignment grows at least linearly",
    ),
    2: (
        "sq_norm",
        OKABE_ITO["vermillion"],
        "$\\|\\tilde{\\mathbf{w}}_k\\|^2$",
        "$k\\,\\eta^2 R^2$ (upper bound)",
        "Lemma 2: the squared norm grows at most linearly",
    ),
}
#: Colours of the groups or series of a figure (yellow and black are kept for other marks).
_SERIES_COLORS = CLASS_COLORS[:6]


def _vector(values, name):
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or v.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence of numbers.")
    return v


def plot_novikoff_lemma(trace, lemma=1, ax=None):
    """Both sides of one of Novikoff's inequalities over the updates k = 1..M.

    ``trace`` is the dict of :func:`novikoff_trace`. Lemma 1 draws w~*.w~_k
    above k eta gamma*; lemma 2 draws ||w~_k||^2 below k eta^2 R^2. Returns the axes.
    """
    if lemma not in (1, 2):
        raise ValueError(f"lemma must be 1 (alignment) or 2 (norm); got {lemma!r}.")
    key, color, quantity, bound, title = _LEMMAS[lemma]
    ax = _ax(ax)
    ax.plot(trace["k"], trace[key], "o-", color=color, ms=3, label=f"{quantity} (measured)")
    ax.plot(trace["k"], trace[f"{key}_bound"], "--", color=OKABE_ITO["black"], label=bound)
    ax.set_ylabel(quantity)
    ax.set_title(title)
    ax.set_xlabel("update $k$")
    ax.legend(loc="upper left")
    return ax


def plot_bound_scatter(updates, bounds, ax=None, *, s=12):
    """Log-log scatter of Novikoff's bound (y) against the updates made (x), with the line y = x.

    Every point above the line is a run the bound covered. Returns the axes.
    """
    u = _vector(updates, "updates")
    bnd = _vector(bounds, "bounds")
    if u.shape != bnd.shape:
        raise ValueError(
            f"updates and bounds must have the same length; got {u.size} and {bnd.size}."
        )
    if np.any(u <= 0) or np.any(bnd <= 0):
        raise ValueError("updates and bounds must be positive to be drawn on log axes.")
    ax = _ax(ax)
    ax.scatter(u, bnd, s=s, color=_SERIES_COLORS[0], alpha=0.6, label=f"{u.size} data sets")
    lo, hi = min(u.min(), bnd.min()) / 1.5, max(u.max(), bnd.max()) * 1.5
    ax.plot([lo, hi], [lo, hi], color=OKABE_ITO["black"], linewidth=1.5, label="$y = x$")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    ax.set_xlabel("updates made $M$")
    ax.set_ylabel("bound $(R/\\gamma^*)^2$")
    ax.legend(loc="upper left")
    return ax


def plot_histogram(values, ax=None, *, bins="auto", label=None, color=None):
    """A histogram with its mean (solid line) and median (dashed line) marked. Returns the axes."""
    v = _vector(values, "values")
    ax = _ax(ax)
    color = OKABE_ITO["sky"] if color is None else color
    ax.hist(v, bins=bins, color=color, edgecolor="white", label=label)
    mean, median = float(np.mean(v)), float(np.median(v))
    ax.axvline(mean, color=OKABE_ITO["vermillion"], linewidth=2, label=f"mean = {mean:.4g}")
    ax.axvline(
        median,
        color=OKABE_ITO["black"],
        linewidth=2,
        linestyle="--",
        label=f"median = {median:.4g}",
    )
    ax.set_ylabel("count")
    ax.legend()
    return ax


def plot_losses(ax=None):
    """The 0-1, perceptron, hinge and logistic losses as functions of the signed activation
    m = y (w.x + b), for m in [-3, 3]. Returns the axes.

    The logistic loss is in nats, as :func:`perclib.theory.logistic_loss`; divided by log 2 (bits)
    it passes through 1 at m = 0 and lies above the 0-1 loss everywhere.
    """
    lo, hi = -3.0, 3.0
    ax = _ax(ax)
    m = np.linspace(lo, hi, 601)
    ones = np.ones_like(m)
    for name in ("zero_one", "perceptron", "hinge", "logistic"):
        color, style, lab = _LOSS_STYLE[name]
        # the 0-1 loss in two pieces, so that its jump is drawn as a jump
        pieces = (m <= 0, m > 0) if name == "zero_one" else (slice(None),)
        for piece, label in zip(pieces, (lab, None)):
            y = loss_value(name, ones[piece], m[piece])
            ax.plot(m[piece], y, color=color, linestyle=style, linewidth=2, label=label)
    ax.axvline(0, color="0.6", linewidth=0.8)
    ax.set_xlabel("signed activation $m = y\\,(w\\cdot x + b)$")
    ax.set_ylabel("loss")
    ax.set_xlim(lo, hi)
    ax.set_ylim(bottom=-0.1)
    ax.legend()
    return ax


def plot_train_test_error(max_iter, train_error, test_error, ax=None):
    """Mean train and test error (with their 10-90 % band over data sets) against max_iter.

    ``train_error`` and ``test_error`` have shape (n_datasets, len(max_iter)) or (len(max_iter),),
    as from :func:`max_iter_curve`. Returns the axes.
    """
    k = _vector(max_iter, "max_iter")
    ax = _ax(ax)
    for errs, name, color in (
        (train_error, "train", OKABE_ITO["blue"]),
        (test_error, "test", OKABE_ITO["vermillion"]),
    ):
        E = np.atleast_2d(np.asarray(errs, dtype=np.float64))
        if E.shape[1] != k.size:
            raise ValueError(
                f"{name}_error must have {k.size} columns, one per max_iter; got shape {E.shape}."
            )
        ax.plot(k, E.mean(axis=0), "o-", color=color, ms=3, label=f"{name} error (mean)")
        if E.shape[0] > 1:
            ax.fill_between(
                k,
                np.quantile(E, 0.1, axis=0),
                np.quantile(E, 0.9, axis=0),
                color=color,
                alpha=0.15,
                label=f"{name}: 10–90 % of data sets",
            )
    ax.set_xlabel("max_iter (epochs)")
    ax.set_ylabel("0-1 error")
    ax.set_ylim(bottom=0)
    ax.legend()
    return ax


def plot_paired(first, second, ax=None, *, labels=("pocket", "last iterate"), ylabel="error"):
    """Paired values per seed (two columns joined by a line per seed), with the means.

    Returns the axes.
    """
    a = _vector(first, "first")
    c = _vector(second, "second")
    if a.shape != c.shape:
        raise ValueError("first and second must have the same length (one pair per seed).")
    ax = _ax(ax)
    for ai, ci in zip(a, c):
        ax.plot([0, 1], [ai, ci], color="0.7", linewidth=1, zorder=1)
    ax.scatter(
        np.zeros_like(a),
        a,
        color=OKABE_ITO["blue"],
        zorder=2,
        label=f"{labels[0]} (mean {a.mean():.3f})",
    )
    ax.scatter(
        np.ones_like(c),
        c,
        color=OKABE_ITO["vermillion"],
        marker="x",
        zorder=2,
        label=f"{labels[1]} (mean {c.mean():.3f})",
    )
    ax.set_xticks([0, 1], labels)
    ax.set_xlim(-0.5, 1.5)
    ax.set_ylabel(ylabel)
    ax.legend()
    return ax


def plot_updates_vs(values, updates, bound, ax=None, *, xlabel="n", series=None):
    """Mean updates (with min-max bars) against a varied quantity on a log axis, with the bound as
    a dashed line.

    ``updates`` has shape (len(values), n_repeats), or (len(values), n_series, n_repeats) with
    ``series`` naming the middle axis (e.g. the dimensions d). Returns the axes.
    """
    x = _vector(values, "values")
    U = np.asarray(updates, dtype=np.float64)
    if U.ndim == 2:
        U = U[:, None, :]
    if U.ndim != 3 or U.shape[0] != x.size:
        raise ValueError(
            f"updates must have shape ({x.size}, n_repeats) or ({x.size}, n_series, n_repeats)."
        )
    series = [None] * U.shape[1] if series is None else list(series)
    if len(series) != U.shape[1]:
        raise ValueError(f"series must name the {U.shape[1]} series.")
    ax = _ax(ax)
    colors = _SERIES_COLORS
    for j, name in enumerate(series):
        mean = U[:, j].mean(axis=1)
        err = np.vstack([mean - U[:, j].min(axis=1), U[:, j].max(axis=1) - mean])
        ax.errorbar(
            x,
            mean,
            yerr=err,
            marker="o",
            capsize=3,
            color=colors[j % len(colors)],
            label="mean updates" if name is None else str(name),
        )
    ax.axhline(
        float(bound),
        color=OKABE_ITO["black"],
        linestyle="--",
        label=f"bound $(R/\\gamma^*)^2$ = {float(bound):g}",
    )
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("updates")
    ax.set_ylim(bottom=0)
    ax.legend()
    return ax


def plot_criterion_slice(X, y, start, end, ax=None, *, n_points=201):
    """The perceptron criterion L along the segment from ``start`` to ``end`` (each a pair (w, b)),
    with the chord between its ends: a convex function never rises above its chords.

    Returns the axes.
    """
    (w0, b0), (w1, b1) = start, end
    w0, w1 = np.asarray(w0, dtype=np.float64), np.asarray(w1, dtype=np.float64)
    s = np.linspace(0.0, 1.0, _check_points(n_points))
    L = np.array(
        [
            perceptron_criterion(X, y, (1 - t) * w0 + t * w1, (1 - t) * float(b0) + t * float(b1))
            for t in s
        ]
    )
    ax = _ax(ax)
    ax.plot(s, L, color=OKABE_ITO["blue"], linewidth=2, label="$L((1-s)\\,v_0 + s\\,v_1)$")
    ax.plot([0, 1], [L[0], L[-1]], color=OKABE_ITO["vermillion"], linestyle="--", label="chord")
    ax.set_xlabel("$s$ (from $v_0$ to $v_1$)")
    ax.set_ylabel("perceptron criterion $L$")
    ax.legend()
    return ax


def _check_points(n):
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 2:
        raise ValueError(f"n_points must be an integer >= 2; got {n!r}.")
    return int(n)


def plot_error_curves(curves, ax=None, *, ylabel="test error"):
    """Mean test error over epochs for each method, with a band of ± one standard deviation
    (over seeds, ddof=0).

    Parameters
    ----------
    curves : :class:`ErrorCurves`, or a dict of arrays of shape
        (n_seeds, n_epochs) (a 1-D array counts as one seed).

    Returns the axes.
    """
    errors = getattr(curves, "errors", curves)
    if not isinstance(errors, dict) or not errors:
        raise ValueError(
            "curves must be an ErrorCurves (from error_curves) or a non-empty "
            "dict of arrays of shape (n_seeds, n_epochs)."
        )
    ax = _ax(ax)
    for k, m in enumerate(errors):
        e = np.atleast_2d(np.asarray(errors[m], dtype=np.float64))
        if e.ndim != 2:
            raise ValueError(f"curves[{m!r}] must have shape (n_seeds, n_epochs); got {e.shape}.")
        epochs = np.arange(1, e.shape[1] + 1)
        mean, std = e.mean(axis=0), e.std(axis=0)
        style = _method_style(m, k)
        ax.plot(
            epochs,
            mean,
            color=style["color"],
            linestyle=style["linestyle"],
            linewidth=2,
            label=style["label"],
            marker="o",
            markersize=3,
        )
        ax.fill_between(
            epochs, mean - std, mean + std, color=style["color"], alpha=0.15, linewidth=0
        )
    ax.set_xlabel("epoch")
    ax.set_ylabel(ylabel)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(bottom=0)
    ax.legend(frameon=False)
    return ax


def _weights_2d(W, shape):
    W = np.asarray(W, dtype=np.float64)
    if W.ndim == 1:
        W = W[None, :]
    if W.ndim != 2 or W.shape[1] != shape[0] * shape[1]:
        raise ValueError(
            f"each weight vector must have {shape[0]}x{shape[1]} = {shape[0] * shape[1]} entries; "
            f"got an array of shape {np.shape(W)}."
        )
    if not np.all(np.isfinite(W)):
        raise ValueError("the weights contain NaN or infinity.")
    return W


def plot_weight_image(w, ax=None, *, shape=(8, 8), title=None, vmax=None, cmap="RdBu_r"):
    """One weight vector as an image (red: positive weight, votes for the class; blue: against).

    The colour scale is symmetric about 0 (0 is white), up to ``vmax`` (default: max |w|).
    Returns the axes.
    """
    w = _weights_2d(w, shape)
    if w.shape[0] != 1:
        raise ValueError(f"plot_weight_image draws one vector; got {w.shape[0]}.")
    ax = _ax(ax)
    vmax = float(np.max(np.abs(w))) if vmax is None else float(vmax)
    vmax = vmax if vmax > 0 else 1.0
    ax.imshow(w[0].reshape(shape), cmap=cmap, vmin=-vmax, vmax=vmax, interpolation="nearest")
    ax.set_xticks([])
    ax.set_yticks([])
    if title is not None:
        ax.set_title(title)
    return ax


def plot_confusion_matrix(C, ax=None, *, labels=None, cmap="Blues"):
    """The confusion matrix C (rows: true class, columns: predicted class), counts in the cells.
    Returns the axes."""
    C = np.asarray(C)
    if C.ndim != 2 or C.shape[0] != C.shape[1] or C.shape[0] == 0:
        raise ValueError(f"C must be a square matrix (n_classes x n_classes); got shape {C.shape}.")
    if not np.issubdtype(C.dtype, np.number) or np.any(C < 0) or not np.all(np.isfinite(C)):
        raise ValueError("C must hold counts: finite numbers >= 0.")
    labels = list(range(C.shape[0])) if labels is None else list(labels)
    if len(labels) != C.shape[0]:
        raise ValueError(f"labels must name each of the {C.shape[0]} classes; got {len(labels)}.")
    M = C.astype(np.float64)
    ax = _ax(ax)
    ax.imshow(M, cmap=cmap, vmin=0, interpolation="nearest")
    high = M.max() / 2 if M.max() > 0 else 1
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            ax.text(
                j,
                i,
                f"{int(C[i, j])}",
                ha="center",
                va="center",
                fontsize=8,
                color="white" if M[i, j] > high else "black",
            )
    ax.set_xticks(range(len(labels)), [str(v) for v in labels])
    ax.set_yticks(range(len(labels)), [str(v) for v in labels])
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    return ax
