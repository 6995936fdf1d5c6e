"""The fast paths against the reference per-sample loops, and against scikit-learn.

There are two fast paths: the compiled loops (perclib._kernel, when numba is installed) and the
numpy block scan (perclib._fast, without numba). Each test that takes the ``chunk`` fixture runs on
both, and on the scan with tiny chunks too.

Each model has a private class switch ``_reference``: set on an instance, it runs the plain loop
that mirrors the pseudocode. The fast path must reproduce it bit for bit (``np.array_equal``, not
``allclose``): the same mistakes in the same epochs, hence the same floating-point updates.

The issue allows the averaged models a tolerance. We use none (tolerance 0): the fast path finds the
same mistakes and then makes the reference's own increments ``u += (eta*y*c)*x``,
``beta += eta*y*c`` with the same counter ``c``, so the average ``w - u/c`` is the same float
computation; any difference would be a bug, not rounding.
"""

import copy
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import Perceptron as SkPerceptron

from perclib import (
    AveragedPerceptron,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
    _accel,
    _fast,
)
from perclib._engine import _seq_dot
from perclib.datasets import load_digits, load_iris, make_blobs3, make_noisy, make_separable

# These tests train on thousands of rows through perclib's per-sample loops: they run without
# coverage's tracer (conftest.py), as every line they run, a traced test runs too.
pytestmark = pytest.mark.untraced

ORDERS = ["cyclic", "shuffle", "random-mistake"]
RULES = ["margin", "prediction"]


def _use(path, monkeypatch):
    """Train with the compiled loops ("compiled") or the numpy scan ("default" chunks of about
    2 MiB, or "tiny" 256-byte chunks, so that scans cross many chunk boundaries, and the shuffled
    buffer is refilled often, even on small data)."""
    if path == "compiled" and not _accel.AVAILABLE:
        pytest.skip("numba is not installed: no compiled path to test")
    monkeypatch.setattr(_accel, "_on", path == "compiled")
    if path == "tiny":
        monkeypatch.setattr(_fast, "_CHUNK_BYTES", 256)


@pytest.fixture(params=["compiled", "default", "tiny"])
def chunk(request, monkeypatch):
    """Run each test on the compiled path, and on the numpy scan with two chunk sizes (_use)."""
    _use(request.param, monkeypatch)
    return request.param


@pytest.fixture(params=["default", "tiny"])
def scan_chunk(request, monkeypatch):
    """The numpy scan only, with both chunk sizes: for tests of the scan's own machinery."""
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
# fast path, on the same data: the reference loop reads neither the chunk size nor the switch
# between the compiled loops and the scan (_accel.engine(reference=True) is perclib._reference
# whatever they are), so its result is computed once and each test gets its own copy.
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
    path=st.sampled_from(["compiled", "numpy", "tiny chunks"]),
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
    if path == "compiled" and not _accel.AVAILABLE:
        return  # numba is not installed: the numpy draws still run
    old, on = _fast._CHUNK_BYTES, _accel._on
    # hypothesis and fixtures do not mix: set and restore by hand
    _fast._CHUNK_BYTES = 8 * d * 16 if path == "tiny chunks" else old
    _accel._on = path == "compiled"
    try:
        fast, ref = _pair(model, X, y)
    finally:
        _fast._CHUNK_BYTES, _accel._on = old, on
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


def test_near_ties_in_a_chunk_streamed_by_einsum(scan_chunk, monkeypatch):
    """The same exact ties, met in a chunk whose first product is einsum's (``_Scan.epoch``'s fresh
    chunk) rather than BLAS's: einsum sums in its own order, and its sign must not decide a tie
    either.

    Normally the first epoch's chunks come into the cache for their norms, so einsum first streams a
    chunk in the second epoch; computing all the norms up front makes every chunk fresh from the
    start.
    """
    init = _fast._Scan.__init__

    def eager_norms(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self.norms()

    monkeypatch.setattr(_fast._Scan, "__init__", eager_norms)
    streamed = []
    original = np.einsum

    def spy(subscripts, *operands, **kwargs):
        streamed.append(subscripts)
        return original(subscripts, *operands, **kwargs)

    monkeypatch.setattr(_fast.np, "einsum", spy)
    decided_differently = 0
    for X, y, w0, b0 in _tie_trials(seed=1):
        decided_differently += float(original("ij,j->i", X, w0)[0]) + b0 != 0.0
        for rule in RULES:
            fast, ref = _pair(
                Perceptron(max_iter=3, rule=rule), X, y, {"coef_init": w0, "intercept_init": b0}
            )
            _assert_same(fast, ref, PERCEPTRON_ATTRS)
    assert "ij,j->i" in streamed  # the fresh chunks were scored by einsum
    assert decided_differently > 25  # and its sign alone would have decided ties wrongly


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
    from test_engine import _plain_scores  # the first highest left-to-right score

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


@pytest.mark.parametrize("accelerated", [True, False])
def test_the_fast_path_is_the_default_and_the_reference_stays_reachable(accelerated, monkeypatch):
    """The models run the loops of ``_accel.engine()``: the compiled ones when numba is on, else
    the numpy scan; ``_reference`` and ``record=True`` run the plain loop instead."""
    if accelerated and not _accel.AVAILABLE:
        pytest.skip("numba is not installed")
    monkeypatch.setattr(_accel, "_on", accelerated)
    from perclib import _kernel

    calls, depth = [], [0]
    module = _kernel if accelerated else _fast
    for name in ("train", "averaged", "voted", "pocket", "multiclass"):
        real = getattr(module, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            if not depth[0]:  # the models' calls, not the loops' calls to each other
                calls.append(_name)
            depth[0] += 1
            try:
                return _real(*args, **kwargs)
            finally:
                depth[0] -= 1

        monkeypatch.setattr(module, name, spy)
    X, y = make_separable(50, 2, random_state=0)
    for model in (Perceptron, AveragedPerceptron, VotedPerceptron, PocketPerceptron):
        model().fit(X, y)
    MulticlassPerceptron().fit(*make_blobs3(10, random_state=0))
    assert calls == ["train", "averaged", "voted", "pocket", "multiclass"]
    for model in (Perceptron, AveragedPerceptron, VotedPerceptron, PocketPerceptron):
        ref = model()
        ref._reference = True
        ref.fit(X, y)
    Perceptron(record=True).fit(X, y)
    MulticlassPerceptron(record=True).fit(*make_blobs3(10, random_state=0))
    assert calls[5:] == []  # the reference fits (perclib._reference) ran none of the fast loops
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
