"""The block scan (perclib.block_scan) against the plain loops (perclib.training), and against
scikit-learn.

Each test that takes the ``chunk`` fixture runs with the scan's own windows and with tiny windows
of 3 rows, so that scans cross many window boundaries even on small data.

Each model has a private class switch ``_reference``: set on an instance, it runs the plain loop
that mirrors the pseudocode. The block scan must reproduce it bit for bit (``np.array_equal``, not
``allclose``): the same mistakes in the same epochs, hence the same floating-point updates.

The averaged models get no tolerance either (tolerance 0): the scan finds the same mistakes and
then makes the plain loop's own increments ``u += (eta*y*c)*x``, ``beta += eta*y*c`` with the same
counter ``c``, so the average ``w - u/c`` is the same float computation; any difference would be a
bug, not rounding.
"""

import copy
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.linear_model import Perceptron as SkPerceptron

from perclib import (
    AveragedPerceptron,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
    block_scan,
    training,
)
from perclib.datasets import load_digits, load_iris, make_blobs3, make_noisy, make_separable
from perclib.training import _seq_dot

# These tests train on thousands of rows through perclib's per-sample loops: they run without
# coverage's tracer (conftest.py), as every line they run, a traced test runs too.

ORDERS = ["cyclic", "shuffle", "random-mistake"]
RULES = ["margin", "prediction"]


def _use(path, monkeypatch):
    """Train with the scan's own windows ("default"), or with windows of 3 rows ("tiny")."""
    if path == "tiny":
        monkeypatch.setattr(block_scan, "_MIN_WINDOW", 3)
        monkeypatch.setattr(block_scan, "_MAX_ENTRIES", 0)


@pytest.fixture(params=["default", "tiny"])
def chunk(request, monkeypatch):
    """Run each test with two window sizes (_use)."""
    _use(request.param, monkeypatch)
    return request.param


def _key(value):
    """A hashable stand-in for a fit's argument: an array by its dtype, shape and bytes; a value
    that a fit may change (a random generator) has none."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, dict):
        return tuple(sorted((k, _key(v)) for k, v in value.items()))
    if isinstance(value, tuple):
        return tuple(map(_key, value))
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"no key for {type(value).__name__}")  # a generator, say: not cached


# The reference fits, by model, parameters and data. The tests that take ``chunk`` run once per
# window size, on the same data: the plain loop does not read it, so its result is computed once
# and each test gets its own copy.
_REFERENCE_FITS = {}


def _reference_fit(model, X, y, fit_kw):
    try:
        key = (type(model), _key(model.get_params()), _key(X), _key(y), _key(fit_kw))
    except TypeError:
        key = None
    if key not in _REFERENCE_FITS:
        ref = model.__class__(**model.get_params())
        ref._reference = True
        ref.fit(X, y, **fit_kw)
        if key is None:
            return ref
        _REFERENCE_FITS[key] = ref
    return copy.deepcopy(_REFERENCE_FITS[key])


def _pair(model, X, y, fit_kw=None):
    """Fit a fast copy and a reference copy of ``model``; return both."""
    fit_kw = fit_kw or {}
    fast = model.__class__(**model.get_params())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning on data that is not separable
        fast.fit(X, y, **fit_kw)
        ref = _reference_fit(model, X, y, fit_kw)
    return fast, ref


def _assert_same(fast, ref, names):
    for name in names:
        a, b = getattr(fast, name), getattr(ref, name)
        assert np.array_equal(np.asarray(a), np.asarray(b)), name


PERCEPTRON_ATTRS = ["coef_", "intercept_", "mistakes_", "n_iter_", "n_updates_", "converged_"]


def _random_data(kind, n, d, seed):
    rng = np.random.default_rng(seed)
    if kind == "separable":
        return make_separable(n, d, margin=0.05, random_state=seed)
    if kind == "noisy":
        X, y = make_noisy(n, d, flip=0.15, random_state=seed)
        y[0] = -y[1]  # both classes, even when the flips took one away
        return X, y
    if kind == "integers":  # small integers: many activations are exactly 0 (exact ties)
        X = rng.integers(-2, 3, size=(n, d)).astype(np.float64)
    else:
        X = rng.normal(size=(n, d)) * rng.choice([1e-3, 1.0, 1e3])
    y = np.where(rng.random(n) < 0.5, 1, -1)
    y[:2] = [1, -1]
    return X, y


@settings(max_examples=150, deadline=None)
@given(
    kind=st.sampled_from(["separable", "noisy", "integers", "gaussian"]),
    n=st.integers(2, 120),
    d=st.integers(1, 9),
    seed=st.integers(0, 2**31 - 1),
    order=st.sampled_from(ORDERS),
    rule=st.sampled_from(RULES),
    eta=st.sampled_from([1.0, 0.1, 0.37, 3.0]),
    max_iter=st.integers(1, 25),
    fit_intercept=st.booleans(),
    path=st.sampled_from(["default", "tiny windows"]),
)
def test_perceptron_fast_equals_reference(
    kind, n, d, seed, order, rule, eta, max_iter, fit_intercept, path
):
    X, y = _random_data(kind, n, d, seed)
    model = Perceptron(
        eta=eta,
        max_iter=max_iter,
        order=order,
        rule=rule,
        fit_intercept=fit_intercept,
        random_state=seed,
    )
    old = block_scan._MIN_WINDOW, block_scan._MAX_ENTRIES
    # hypothesis and fixtures do not mix: set and restore by hand
    if path == "tiny windows":
        block_scan._MIN_WINDOW, block_scan._MAX_ENTRIES = 3, 0
    try:
        fast, ref = _pair(model, X, y)
    finally:
        block_scan._MIN_WINDOW, block_scan._MAX_ENTRIES = old
    _assert_same(fast, ref, PERCEPTRON_ATTRS)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("rule", RULES)
def test_perceptron_fast_equals_reference_seeded(order, rule, chunk):
    for seed in range(6):
        for kind in ["separable", "noisy", "integers", "gaussian"]:
            X, y = _random_data(kind, 100 + 20 * seed, 2 + seed % 6, seed)
            model = Perceptron(max_iter=12, order=order, rule=rule, random_state=seed)
            fast, ref = _pair(model, X, y)
            _assert_same(fast, ref, PERCEPTRON_ATTRS)


def test_perceptron_from_initial_weights_and_partial_fit(chunk):
    rng = np.random.default_rng(5)
    for seed in range(20):
        X, y = _random_data("integers" if seed % 2 else "gaussian", 80, 4, seed)
        w0, b0 = rng.integers(-2, 3, size=4).astype(float), float(rng.integers(-2, 3))
        for rule in RULES:
            model = Perceptron(max_iter=15, rule=rule, order="shuffle", random_state=seed)
            fast, ref = _pair(model, X, y, {"coef_init": w0, "intercept_init": b0})
            _assert_same(fast, ref, PERCEPTRON_ATTRS)
            for clf in (fast, ref):
                clf.partial_fit(X[::-1], y[::-1])
            _assert_same(fast, ref, PERCEPTRON_ATTRS)


def _tie_trials(seed, trials=150):
    """Small random problems (X, y, w0, b0) whose first example's activation under the initial
    weights is exactly 0 by the left-to-right sum; its label alternates between trials."""
    rng = np.random.default_rng(seed)
    for trial in range(trials):
        d = int(rng.integers(2, 60))
        X = rng.normal(size=(24, d))
        w0 = rng.normal(size=d)
        b0 = -_seq_dot(w0, X[0])  # the first example's activation is exactly 0
        y = np.where(rng.random(24) < 0.5, 1, -1)
        y[0] = 1 if trial % 2 else -1
        yield X, y, w0, b0


def test_near_ties_are_settled_as_the_reference_settles_them(chunk):
    """Start each fit exactly on a tie of the left-to-right sum, where numpy's own order often is
    not 0.

    A fast path that trusted the sign of ``X[block] @ w + b`` would decide these examples
    differently.
    """
    decided_differently = 0
    for X, y, w0, b0 in _tie_trials(seed=0):
        blocked = float((X[:16] @ w0)[0]) + b0  # what a blocked product says instead
        decided_differently += blocked != 0.0
        for rule in RULES:
            model = Perceptron(max_iter=3, rule=rule)
            fast, ref = _pair(model, X, y, {"coef_init": w0, "intercept_init": b0})
            _assert_same(fast, ref, PERCEPTRON_ATTRS)
            rec = Perceptron(max_iter=1, rule=rule, record=True)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                rec.fit(X, y, coef_init=w0, intercept_init=b0)
            assert rec.history_[0].activation == 0.0  # the reference saw the exact tie
            assert rec.history_[0].updated == (rule == "margin" or y[0] == -1)
    assert decided_differently > 25  # the tie logic was needed, not just run


def test_a_near_tie_is_judged_with_its_own_rows_band(chunk):
    """The tie band of row i is the band of ||w|| ||x_i||: a near-tie on a long row, met after
    other rows in its window, among rows a hundred million times shorter. Judged with a short
    row's band (as good as none), numpy's blocked sign would decide it instead of the
    left-to-right sum. Row 1 holds the exact tie (by the left-to-right sum); row 0 and the rest
    are short and on the side of their labels (the last one excepted), so the scan meets the tie
    at position 1 of its first window."""
    rng = np.random.default_rng(7)
    decided_differently = 0
    for trial in range(150):
        d = int(rng.integers(2, 60))
        X = rng.normal(size=(24, d)) * 1e-8
        X[1] *= 1e8
        w0 = rng.normal(size=d)
        b0 = -_seq_dot(w0, X[1])  # row 1's activation is exactly 0
        y = np.where(X @ w0 + b0 >= 0, 1, -1)  # the short rows are on their labels' side,
        y[-1] = -y[-1]  # but for the last one (a mistake after the tie, and a second class)
        y[1] = 1 if trial % 2 else -1
        decided_differently += float((X[:16] @ w0)[1]) + b0 != 0.0
        for rule in RULES:
            model = Perceptron(max_iter=3, rule=rule)
            fast, ref = _pair(model, X, y, {"coef_init": w0, "intercept_init": b0})
            _assert_same(fast, ref, PERCEPTRON_ATTRS)
    assert decided_differently > 25  # the tie logic was needed, not just run


def test_fast_path_is_bit_identical_to_sklearn(chunk):
    Xi, yi = load_iris(classes=(1, 2))
    datasets = [
        Xi,
    ] + [make_noisy(400, 6, 0.1, random_state=s)[0] for s in range(3)]
    labels = [yi] + [make_noisy(400, 6, 0.1, random_state=s)[1] for s in range(3)]
    datasets.append(make_separable(2000, 20, 0.05, random_state=7)[0])
    labels.append(make_separable(2000, 20, 0.05, random_state=7)[1])
    for X, y in zip(datasets, labels):
        for k in (1, 3, 12):
            for eta in (1.0, 0.25):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    sk = SkPerceptron(shuffle=False, tol=None, eta0=eta, max_iter=k).fit(X, y)
                    ours = Perceptron(eta=eta, max_iter=k).fit(X, y)
                assert np.array_equal(ours.coef_, sk.coef_[0])
                assert np.array_equal(np.array([ours.intercept_]), sk.intercept_)


def test_fast_path_to_convergence_matches_sklearn_on_a_larger_problem(chunk):
    X, y = make_separable(3000, 30, margin=0.1, random_state=1)
    ours = Perceptron(max_iter=1000).fit(X, y)
    assert ours.converged_ and ours.n_iter_ > 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = SkPerceptron(shuffle=False, tol=None, max_iter=ours.n_iter_).fit(X, y)
    assert np.array_equal(ours.coef_, sk.coef_[0]) and ours.intercept_ == sk.intercept_[0]


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_averaged_fast_equals_reference(order, chunk):
    for seed in range(10):
        for kind in ["separable", "noisy", "integers", "gaussian"]:
            X, y = _random_data(kind, 60 + 15 * seed, 1 + seed % 5, seed)
            for fit_intercept in (True, False):
                model = AveragedPerceptron(
                    eta=0.5 + seed,
                    max_iter=1 + seed % 7,
                    order=order,
                    fit_intercept=fit_intercept,
                    random_state=seed,
                )
                fast, ref = _pair(model, X, y)
                _assert_same(
                    fast,
                    ref,
                    [
                        "coef_",
                        "intercept_",
                        "last_coef_",
                        "last_intercept_",
                        "c_",
                        "mistakes_",
                        "n_iter_",
                        "n_updates_",
                        "converged_",
                    ],
                )


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_voted_fast_equals_reference(order, chunk):
    for seed in range(10):
        for kind in ["separable", "noisy", "integers", "gaussian"]:
            X, y = _random_data(kind, 50 + 10 * seed, 1 + seed % 4, seed)
            model = VotedPerceptron(
                max_iter=1 + seed % 6, order=order, random_state=seed, fit_intercept=bool(seed % 3)
            )
            fast, ref = _pair(model, X, y)
            _assert_same(
                fast,
                ref,
                [
                    "weights_",
                    "intercepts_",
                    "counts_",
                    "last_coef_",
                    "last_intercept_",
                    "mistakes_",
                    "n_iter_",
                    "n_updates_",
                    "converged_",
                ],
            )
            assert fast.counts_.sum() == fast.n_iter_ * X.shape[0]


@pytest.mark.parametrize("order", ORDERS)
def test_pocket_fast_equals_reference(order, chunk):
    for seed in range(5):
        for kind in ["noisy", "integers"]:
            X, y = _random_data(kind, 50 + 10 * seed, 2 + seed % 3, seed)
            for rule in RULES:
                model = PocketPerceptron(max_iter=8, order=order, rule=rule, random_state=seed)
                fast, ref = _pair(model, X, y)
                _assert_same(
                    fast,
                    ref,
                    [
                        "coef_",
                        "intercept_",
                        "pocket_mistakes_",
                        "last_coef_",
                        "last_intercept_",
                        "mistakes_",
                        "n_iter_",
                        "n_updates_",
                        "converged_",
                    ],
                )


def _multiclass_data():
    Xd, yd = load_digits()  # integers 0..16: exact ties between class scores are common
    Xb, yb = make_blobs3(40, spread=1.2, random_state=0)
    Xi, yi = load_iris()
    rng = np.random.default_rng(3)
    Xr = rng.integers(-1, 2, size=(90, 3)).astype(float)
    yr = rng.integers(0, 4, size=90)
    return [(Xd[:400], yd[:400]), (Xb, yb), (Xi, yi), (Xr, yr)]


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize("average", [False, True])
def test_multiclass_fast_equals_reference(order, average, chunk):
    for k, (X, y) in enumerate(_multiclass_data()):
        for fit_intercept in (True, False):
            model = MulticlassPerceptron(
                eta=[1.0, 0.3][k % 2],
                max_iter=6,
                order=order,
                average=average,
                fit_intercept=fit_intercept,
                random_state=k,
            )
            fast, ref = _pair(model, X, y)
            _assert_same(
                fast,
                ref,
                [
                    "coef_",
                    "intercept_",
                    "last_coef_",
                    "last_intercept_",
                    "mistakes_",
                    "n_iter_",
                    "n_updates_",
                    "converged_",
                ],
            )


def test_multiclass_near_ties_between_classes(chunk):
    """Class scores that are equal in exact arithmetic, which a blocked product rounds apart.

    The first two examples (x1 of class 1, then -x1 of class 2) are mistakes that leave
    W = [0, x1, -x1]. The third, x3, is orthogonal to x1 up to rounding, so its three scores are
    0, +-delta, -+delta with delta pure rounding: the argmax depends on the order of summation, and
    the fast path must side with the reference's ``W @ x + b`` every time.
    """
    rng = np.random.default_rng(1)
    blocked_differs = 0
    for trial in range(150):
        d = int(rng.integers(3, 60))
        x1 = rng.normal(size=d)
        x3 = rng.normal(size=d)
        x3 -= (x3 @ x1) / (x1 @ x1) * x1
        X = np.vstack([x1, -x1, x3, rng.normal(size=(20, d))])
        y = np.concatenate([[1, 2, trial % 3], rng.integers(0, 3, size=20)])
        W = np.vstack([np.zeros(d), x1, -x1])
        blocked_differs += np.argmax((X[2:18] @ W.T)[0]) != np.argmax(W @ x3)
        model = MulticlassPerceptron(max_iter=3, fit_intercept=False, average=bool(trial % 2))
        fast, ref = _pair(model, X, y)
        _assert_same(fast, ref, ["coef_", "intercept_", "last_coef_", "mistakes_", "n_iter_"])
        assert ref.mistakes_[0] >= 2  # the two set-up mistakes happened
    assert blocked_differs > 20  # the gap test was needed, not just run


def test_a_multiclass_near_tie_is_judged_with_its_own_rows_norm(chunk):
    """The multi-class form of the binary test above: the near-tie row x3 (scores 0, +-delta, as in
    the test before) stands at position 3 of the window that starts after the two set-up mistakes
    (rows 4 and 5), and the rows before it are a hundred million times shorter. Its band must be
    its own row's: with a short row's norm the band is as good as none, and numpy's blocked
    scores would pick the class instead of the left-to-right sums."""
    from test_training import _plain_scores  # the first highest left-to-right score

    rng = np.random.default_rng(3)
    blocked_differs = 0
    for trial in range(150):
        d = int(rng.integers(3, 60))
        x1, x3 = rng.normal(size=d), rng.normal(size=d)
        x3 -= (x3 @ x1) / (x1 @ x1) * x1
        short = rng.normal(size=(24, d)) * 1e-8
        X = np.vstack([short[:4], x1, -x1, short[4:7], x3, short[7:]])
        W = np.vstack([np.zeros(d), x1, -x1])  # W after rows 4 (class 1) and 5 (class 2)
        y = np.array(
            [_plain_scores(W, np.zeros(3), x)[1] for x in X]
        )  # every row right under that W ...
        y[:4] = 0  # ... the first four under W = 0 (all scores tie: class 0)
        y[4], y[5], y[9] = 1, 2, trial % 3  # the two set-up mistakes, and the near-tie row
        blocked_differs += (
            int(np.argmax((X[6:22] @ W.T)[3])) != _plain_scores(W, np.zeros(3), x3)[1]
        )
        model = MulticlassPerceptron(max_iter=2, fit_intercept=False, average=bool(trial % 2))
        fast, ref = _pair(model, X, y)
        _assert_same(fast, ref, ["coef_", "intercept_", "last_coef_", "mistakes_", "n_iter_"])
        assert ref.mistakes_[0] >= 2  # the two set-up mistakes happened
    assert blocked_differs > 20  # the row's own band was needed, not just used


def test_record_uses_the_reference_and_agrees_with_the_fast_path(chunk):
    X, y = make_noisy(200, 3, 0.1, random_state=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = Perceptron(max_iter=8, order="shuffle", random_state=0).fit(X, y)
        rec = Perceptron(max_iter=8, order="shuffle", random_state=0, record=True).fit(X, y)
    assert len(rec.history_) == 8 * 200
    assert np.array_equal(fast.coef_, rec.coef_) and fast.intercept_ == rec.intercept_
    assert sum(s.updated for s in rec.history_) == fast.n_updates_
    mc = MulticlassPerceptron(max_iter=3, record=True).fit(*make_blobs3(10, random_state=0))
    assert np.array_equal(
        mc.coef_, MulticlassPerceptron(max_iter=3).fit(*make_blobs3(10, random_state=0)).coef_
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda: Perceptron(max_iter=5, order="shuffle", random_state=0),
        lambda: Perceptron(max_iter=5, order="random-mistake", random_state=0),
        lambda: AveragedPerceptron(max_iter=3, order="shuffle", random_state=0),
        lambda: VotedPerceptron(max_iter=3, order="shuffle", random_state=0),
        lambda: PocketPerceptron(max_iter=3, order="shuffle", random_state=0),
        lambda: MulticlassPerceptron(max_iter=3, order="shuffle", random_state=0),
    ],
)
def test_nothing_passed_in_is_modified(make, chunk):
    X, y = make_noisy(300, 5, 0.1, random_state=0)
    X, y = np.ascontiguousarray(X), y.copy()
    X_before, y_before = X.copy(), y.copy()
    X.setflags(write=False)  # a write would raise, not just show up in the comparison
    y.setflags(write=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        make().fit(X, y)
        if isinstance(make(), Perceptron):
            w0 = np.ones(5)
            make().fit(X, y, coef_init=w0, intercept_init=0.5)
            assert np.array_equal(w0, np.ones(5))
    assert np.array_equal(X, X_before) and np.array_equal(y, y_before)


def test_the_block_scan_is_the_default_and_the_plain_loop_stays_reachable(monkeypatch):
    """The models train with the block scan; ``_reference``, ``record=True`` and
    ``order="random-mistake"`` run the plain loop instead."""
    calls = []
    for module in (block_scan, training):
        for name in ("train", "multiclass"):
            real = getattr(module, name)

            def spy(*args, _real=real, _name=f"{module.__name__}.{name}", **kwargs):
                calls.append(_name)
                return _real(*args, **kwargs)

            monkeypatch.setattr(module, name, spy)
    # the models hold the loops themselves (BaseModel._train): hand them the spies
    for model in (Perceptron, AveragedPerceptron, VotedPerceptron, PocketPerceptron):
        monkeypatch.setattr(model, "_plain_loop", staticmethod(training.train))
        monkeypatch.setattr(model, "_block_scan", staticmethod(block_scan.train))
    monkeypatch.setattr(MulticlassPerceptron, "_plain_loop", staticmethod(training.multiclass))
    monkeypatch.setattr(MulticlassPerceptron, "_block_scan", staticmethod(block_scan.multiclass))
    X, y = make_separable(50, 2, random_state=0)
    X3, y3 = make_blobs3(10, random_state=0)
    for model in (Perceptron, AveragedPerceptron, VotedPerceptron, PocketPerceptron):
        model().fit(X, y)
    MulticlassPerceptron().fit(X3, y3)
    scan = ["perclib.block_scan.train"] * 4 + ["perclib.block_scan.multiclass"]
    assert calls == scan
    calls.clear()
    for model in (Perceptron, AveragedPerceptron, VotedPerceptron, PocketPerceptron):
        ref = model()
        ref._reference = True
        ref.fit(X, y)
    Perceptron(record=True).fit(X, y)
    Perceptron(order="random-mistake", random_state=0).fit(X, y)
    MulticlassPerceptron(record=True).fit(X3, y3)
    assert calls == ["perclib.training.train"] * 6 + ["perclib.training.multiclass"]
    assert "_reference" not in Perceptron().get_params()


def test_finiteness_check_needs_no_boolean_copy_of_X():
    """check_array proves X finite by its sum (no n x d mask); an overflowing sum falls back to the
    entry-by-entry check, so huge finite values pass and NaN or inf anywhere still fail."""
    from perclib._validation import check_array

    X = np.full((4, 3), 1e308)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_array(X) is X
        for bad in (np.nan, np.inf, -np.inf):
            Y = X.copy()
            Y[2, 1] = bad
            with pytest.raises(ValueError, match="NaN or infinity"):
                check_array(Y)


# ---- Ported from the tests of the compiled loops: random shapes and mistake rates, every model,
# ---- CSR input, huge and tiny scales, near-ties on rows of very different lengths.

BINARY = {
    Perceptron: ("coef_", "intercept_", "n_iter_", "n_updates_", "converged_", "mistakes_"),
    AveragedPerceptron: ("coef_", "intercept_", "last_coef_", "last_intercept_", "c_", "mistakes_"),
    VotedPerceptron: ("weights_", "intercepts_", "counts_", "last_coef_", "mistakes_"),
    PocketPerceptron: (
        "coef_",
        "intercept_",
        "pocket_mistakes_",
        "last_coef_",
        "last_intercept_",
        "mistakes_",
        "converged_",
    ),
}
MULTI = ("coef_", "intercept_", "last_coef_", "mistakes_", "converged_")


def _data(n, d, flip, margin, seed, classes=2):
    """Gaussian points labelled by random hyperplanes, ``flip`` of the labels then changed."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.choice([0.01, 1.0, 300.0])
    if classes == 2:
        w = rng.normal(size=d)
        a = X @ w
        keep = np.abs(a) >= margin * np.abs(a).max() if margin else np.ones(n, dtype=bool)
        X, y = X[keep], np.where(a[keep] >= 0, 1, -1)
    else:
        y = np.argmax(X @ rng.normal(size=(d, classes)), axis=1)
    flips = rng.random(y.shape[0]) < flip
    if classes == 2:
        y[flips] = -y[flips]
    else:
        y[flips] = rng.integers(0, classes, flips.sum())
    return X, y


shapes = {
    "n": st.integers(2, 80),
    "d": st.integers(1, 12),
    "flip": st.sampled_from([0.0, 0.02, 0.2, 0.45]),
    "margin": st.sampled_from([0.0, 0.05]),
    "seed": st.integers(0, 2**31 - 1),
    "order": st.sampled_from(["cyclic", "shuffle"]),
    "eta": st.sampled_from([1.0, 0.1, 3.0]),
    "max_iter": st.integers(1, 15),
    "fit_intercept": st.booleans(),
}


@settings(max_examples=120, deadline=None)
@given(
    model=st.sampled_from(list(BINARY)), rule=st.sampled_from(["margin", "prediction"]), **shapes
)
def test_binary_models_block_scan_equals_plain_loop(
    model, rule, n, d, flip, margin, seed, order, eta, max_iter, fit_intercept
):
    X, y = _data(n, d, flip, margin, seed)
    assume(y.shape[0] >= 2)  # the margin may leave a single point
    if np.unique(y).shape[0] < 2:
        y[0] = -y[0]
    kw = {"eta": eta, "max_iter": max_iter, "order": order, "fit_intercept": fit_intercept}
    if model in (Perceptron, PocketPerceptron):
        kw["rule"] = rule
    fast, ref = _pair(model(random_state=seed, **kw), X, y)
    _assert_same(fast, ref, BINARY[model])


@settings(max_examples=60, deadline=None)
@given(classes=st.integers(3, 6), average=st.booleans(), **shapes)
def test_multiclass_block_scan_equals_plain_loop(
    classes, average, n, d, flip, margin, seed, order, eta, max_iter, fit_intercept
):
    X, y = _data(n, d, flip, margin, seed, classes=classes)
    if np.unique(y).shape[0] < 2:
        y[0] = (y[0] + 1) % classes
    est = MulticlassPerceptron(
        eta=eta,
        max_iter=max_iter,
        order=order,
        fit_intercept=fit_intercept,
        random_state=seed,
        average=average,
    )
    fast, ref = _pair(est, X, y)
    _assert_same(fast, ref, MULTI)


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(2, 400),
    d=st.integers(1, 40),
    flip=st.sampled_from([0.0, 0.02, 0.2]),
    margin=st.sampled_from([0.0, 0.001, 0.1]),
    seed=st.integers(0, 2**31 - 1),
    max_iter=st.integers(1, 20),
    eta=st.sampled_from([1.0, 0.37]),
)
def test_perceptron_is_bit_identical_to_sklearn(n, d, flip, margin, seed, max_iter, eta):
    """The block scan, cyclic order: the weights of scikit-learn's Perceptron after the same
    epochs."""
    X, y = _data(n, d, flip, margin, seed)
    assume(y.shape[0] >= 2)  # the margin may leave a single point
    if np.unique(y).shape[0] < 2:
        y[0] = -y[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = Perceptron(eta=eta, max_iter=max_iter).fit(X, y)
        sk = SkPerceptron(shuffle=False, tol=None, eta0=eta, max_iter=ours.n_iter_).fit(X, y)
    assert np.array_equal(ours.coef_, sk.coef_[0])
    assert ours.intercept_ == sk.intercept_[0]


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("scale", [1.0, 1e-200, 1e200])  # norms out of the plain sum's range
def test_block_scan_functions_equal_the_plain_loops(order, sparse, scale, chunk):
    """Function by function, the scan's results (and w, trained in place) are the plain loop's,
    with the same dtypes, dense and CSR, at every scale."""
    X, y = _data(40, 10, 0.15, 0.0, seed=11)
    y = y.astype(np.float64)
    X[np.abs(X) < 0.3] = 0.0  # some zeros, so that sparse rows skip entries
    X *= scale / np.abs(X).max()
    Xs = training.csr(sp.csr_matrix(X)) if sparse else X
    common = {"eta": 0.5, "max_iter": 6, "order": order, "fit_intercept": True}
    runs = {}
    for name, loop, multi in (
        ("plain", training.train, training.multiclass),
        ("scan", block_scan.train, block_scan.multiclass),
    ):
        out = {}
        for rule in ("margin", "prediction"):
            w = np.zeros(10)  # trained in place: compared too
            rng = np.random.default_rng(1)
            out[rule] = (w, *loop(Xs, y, w, 0.0, rule=rule, rng=rng, **common))
        state = training.averaged_start(10)
        mistakes = training.averaged(
            Xs, y, state, rng=np.random.default_rng(2), loop=loop, **common
        )
        out["averaged"] = (mistakes, *state.values())
        if not sparse:  # the voted and pocket perceptrons and the multi-class one take dense X
            state = training.voted_start(10)
            mistakes = training.voted(
                X, y, state, rng=np.random.default_rng(3), loop=loop, **common
            )
            out["voted"] = (mistakes, state["w"], state["b"], state["c"], *state["counts"])
            out["pocket"] = training.pocket(
                X, y, rule="margin", rng=np.random.default_rng(4), loop=loop, **common
            )
            t = (np.arange(40) % 3).astype(np.int64)
            for average in (False, True):
                state = training.multiclass_start(3, 10)
                found = multi(
                    X, t, state, rng=np.random.default_rng(5), stop_when_clean=not average, **common
                )
                out[f"multi {average}"] = (*found, *state.values())
        runs[name] = out
    assert runs["plain"].keys() == runs["scan"].keys()
    for key, got in runs["plain"].items():
        want = runs["scan"][key]
        assert len(got) == len(want)
        for a, b in zip(got, want):
            assert np.array_equal(np.asarray(a), np.asarray(b)), key
            assert np.asarray(a).dtype == np.asarray(b).dtype, key  # int64 counts, not floats
    assert sum(runs["plain"]["margin"][5]) > 0  # mistakes were made: the runs compared something


def test_the_loops_raise_on_overflow_as_the_models_do():
    X = np.array([[1e308, 1e308], [-1e308, 1e308]])
    y = np.array([1.0, -1.0])
    t = np.array([0, 1], dtype=np.int64)
    X1 = np.array([[1e308, 1.0, 1.0], [-1e308, 1.0, 1.0]])  # only the first weight overflows
    for train, multiclass in (
        (training.train, training.multiclass),
        (block_scan.train, block_scan.multiclass),
    ):
        for data, fit_intercept in (
            (X, True),
            (X1, False),
            (training.csr(sp.csr_matrix(X1)), False),
        ):
            with pytest.raises(ValueError, match="overflow"):
                train(
                    data,
                    y,
                    np.zeros(data.shape[1]),
                    0.0,
                    eta=1e10,
                    max_iter=3,
                    order="cyclic",
                    rule="margin",
                    fit_intercept=fit_intercept,
                    rng=None,
                )
        for data in (X, X1):
            with pytest.raises(ValueError, match="overflow"):
                multiclass(
                    data,
                    t,
                    training.multiclass_start(2, data.shape[1]),
                    eta=1e10,
                    max_iter=3,
                    order="cyclic",
                    fit_intercept=False,
                    rng=None,
                    stop_when_clean=True,
                )


def test_the_loops_report_an_overflow_in_the_true_class_alone():
    """One mistake (true class 0, predicted 1: scores -5e307 and 0) where w_0 + eta x overflows in
    its first entry while w_1 - eta x stays finite: the loops must still report the overflow."""
    x = np.array([[1.0, 1.0]])
    for multiclass in (training.multiclass, block_scan.multiclass):
        state = training.multiclass_start(2, 2)
        state["W"][0] = [1e308, -1.5e308]
        with pytest.raises(ValueError, match="overflow"):
            multiclass(
                x,
                np.array([0]),
                state,
                eta=1e308,
                max_iter=1,
                order="cyclic",
                fit_intercept=False,
                rng=None,
                stop_when_clean=True,
            )
        assert state["W"][0, 0] == np.inf and np.isfinite(state["W"][1]).all()  # the case


@pytest.mark.parametrize("model", [Perceptron, AveragedPerceptron])
@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_sparse_input_gives_the_same_fit_on_both_paths(model, order, chunk):
    """A CSR X: the block scan and the plain loop touch only the nonzeros, and agree with each
    other and with the dense fit."""
    X, y = _data(120, 30, 0.1, 0.0, seed=8)
    X[np.abs(X) < 1.0] = 0.0  # about two thirds zeros
    est = model(max_iter=6, order=order, random_state=4)
    fast, ref = _pair(est, sp.csr_matrix(X), y)
    dense, _ = _pair(est, X, y)
    _assert_same(fast, ref, BINARY[model])
    _assert_same(fast, dense, BINARY[model])
    assert dense.n_updates_ > 0


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_multiclass_stops_after_a_clean_epoch(order, chunk):
    """On separable classes the multi-class loops stop after their first epoch without a mistake
    (converged) unless they average."""
    X, t = _data(40, 3, 0.0, 0.0, seed=3, classes=3)  # converges in 5 and 6 epochs
    for average in (False, True):
        runs = [
            m(
                X,
                t.astype(np.int64),
                training.multiclass_start(3, 3),
                eta=1.0,
                max_iter=60,
                order=order,
                fit_intercept=True,
                rng=np.random.default_rng(8),
                stop_when_clean=not average,
            )
            for m in (training.multiclass, block_scan.multiclass)
        ]
        assert np.array_equal(runs[0][0], runs[1][0]) and runs[0][1] == runs[1][1]
        mistakes, converged = runs[0]
        assert converged != average and (len(mistakes) < 60) != average
        assert mistakes[-1] == 0 and sum(mistakes) > 0


def test_a_near_tie_among_huge_entries_is_settled_with_its_own_rows_norm(chunk):
    """A row whose left-to-right sum and other orders disagree in sign: w.x is 0.5 from left to
    right, -0.5 summed in other orders. Its band is 4 d eps ||w|| ||x|| (about 139 here), so the
    left-to-right sum decides, in the perceptron, the pocket and the multi-class loops alike."""
    X = np.array([[1.0, 1.0, 1.0, 1.0, 1.0], [1e16, 1.0, -1e16, 1.0, -0.5]])
    assert _seq_dot(np.ones(5), X[1]) == 0.5
    y = np.array([1.0, 1.0])
    common = {"eta": 1.0, "max_iter": 3, "order": "cyclic", "rng": None}
    for fit_intercept in (False, True):
        runs = []
        for loop in (training.train, block_scan.train):
            w = np.zeros(5)
            out = loop(X, y, w, 0.0, rule="margin", fit_intercept=fit_intercept, **common)
            pk = training.pocket(
                X, y, rule="margin", fit_intercept=fit_intercept, loop=loop, **common
            )
            runs.append((w, *out, *pk))
        for a, b in zip(*runs):
            assert np.array_equal(np.asarray(a), np.asarray(b))
    t = np.array([1, 1], dtype=np.int64)
    for average in (False, True):
        runs = []
        for loop in (training.multiclass, block_scan.multiclass):
            state = training.multiclass_start(2, 5)
            out = loop(X, t, state, fit_intercept=False, stop_when_clean=not average, **common)
            runs.append((*out, state["W"], state["b"]))
        for a, b in zip(*runs):
            assert np.array_equal(np.asarray(a), np.asarray(b))
        assert runs[0][0][:2].tolist() == [1, 0]  # one update (the first row), then none


def test_multiclass_picks_the_left_to_right_winner_among_large_near_ties(chunk):
    """tests/test_training.py's near-tie construction through the multi-class block scan: the
    three scores are large and equal but for rounding. The one example is labelled with the first
    highest left-to-right score, so the scan must make no update."""
    from test_training import _plain_scores, large_near_tie

    rng = np.random.default_rng(6)
    numpy_differs = 0
    for _ in range(300):
        W0, b0, x = large_near_tie(rng, int(rng.integers(8, 60)))
        _, label = _plain_scores(W0, b0, x)  # the first of the highest left-to-right scores
        numpy_differs += int(np.argmax(x[None, :] @ W0.T + b0)) != label
        state = training.multiclass_start(3, x.shape[0])
        state["W"], state["b"] = W0.copy(), b0.copy()
        mistakes, _ = block_scan.multiclass(
            x[None, :],
            np.array([label]),
            state,
            eta=1.0,
            max_iter=1,
            order="cyclic",
            fit_intercept=True,
            rng=None,
            stop_when_clean=True,
        )
        assert mistakes[0] == 0 and np.array_equal(state["W"], W0)
    assert numpy_differs > 30  # numpy's scores alone would have picked another class that often
