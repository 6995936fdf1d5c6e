"""The compiled training loops (perclib._kernel) against the plain reference loops, the numpy scan
and scikit-learn, on random shapes and mistake rates (property-based), and the switch between them.

The compiled path needs numba (``perclib[fast]``, installed by ``make test``); without it these
tests skip and the numpy scan is what the rest of the suite runs.
"""

import contextlib
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.linear_model import Perceptron as SkPerceptron

from perclib import (
    AveragedPerceptron,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
    _accel,
)

needs_numba = pytest.mark.skipif(not _accel.AVAILABLE, reason="numba is not installed")

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


def _fit(model, X, y, path):
    """Fit a copy of ``model`` on the compiled loops, the numpy scan or the reference loop."""
    m = model.__class__(**model.get_params())
    if path == "reference":
        m._reference = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning on data that is not separable
        if path == "numpy":
            with _accel.disabled():
                m.fit(X, y)
        else:
            m.fit(X, y)
    return m


def _assert_same(a, b, names):
    for name in names:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


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


@needs_numba
@settings(max_examples=120, deadline=None)
@given(
    model=st.sampled_from(list(BINARY)), rule=st.sampled_from(["margin", "prediction"]), **shapes
)
def test_binary_models_compiled_equal_numpy_and_reference(
    model, rule, n, d, flip, margin, seed, order, eta, max_iter, fit_intercept
):
    X, y = _data(n, d, flip, margin, seed)
    assume(y.shape[0] >= 2)  # the margin may leave a single point
    if np.unique(y).shape[0] < 2:
        y[0] = -y[0]
    kw = {"eta": eta, "max_iter": max_iter, "order": order, "fit_intercept": fit_intercept}
    if model in (Perceptron, PocketPerceptron):
        kw["rule"] = rule
    est = model(random_state=seed, **kw)
    compiled = _fit(est, X, y, "compiled")
    _assert_same(compiled, _fit(est, X, y, "numpy"), BINARY[model])
    _assert_same(compiled, _fit(est, X, y, "reference"), BINARY[model])


@needs_numba
@settings(max_examples=60, deadline=None)
@given(classes=st.integers(3, 6), average=st.booleans(), **shapes)
def test_multiclass_compiled_equals_numpy_and_reference(
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
    compiled = _fit(est, X, y, "compiled")
    _assert_same(compiled, _fit(est, X, y, "numpy"), MULTI)
    _assert_same(compiled, _fit(est, X, y, "reference"), MULTI)


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(2, 400),
    d=st.integers(1, 40),
    flip=st.sampled_from([0.0, 0.02, 0.2]),
    margin=st.sampled_from([0.0, 0.001, 0.1]),
    seed=st.integers(0, 2**31 - 1),
    max_iter=st.integers(1, 20),
    eta=st.sampled_from([1.0, 0.37]),
    compiled=st.booleans(),
)
def test_perceptron_is_bit_identical_to_sklearn(n, d, flip, margin, seed, max_iter, eta, compiled):
    """Both paths, cyclic order: the weights of scikit-learn's Perceptron after the same epochs."""
    if compiled and not _accel.AVAILABLE:
        return
    X, y = _data(n, d, flip, margin, seed)
    assume(y.shape[0] >= 2)  # the margin may leave a single point
    if np.unique(y).shape[0] < 2:
        y[0] = -y[0]
    on = _accel._on
    _accel._on = compiled
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = Perceptron(eta=eta, max_iter=max_iter).fit(X, y)
            sk = SkPerceptron(shuffle=False, tol=None, eta0=eta, max_iter=ours.n_iter_).fit(X, y)
    finally:
        _accel._on = on
    assert np.array_equal(ours.coef_, sk.coef_[0])
    assert ours.intercept_ == sk.intercept_[0]


@needs_numba
def test_the_plain_python_kernel_is_the_compiled_one(plain):
    """The loop's own source, run by Python with every helper it calls (the ``plain`` module),
    gives the compiled loop's results: the pseudocode the notes print is the code that runs."""
    from perclib import _kernel

    X, y = _data(60, 4, 0.1, 0.0, seed=3)
    X, y = _kernel.read_only(X), _kernel.read_only(y.astype(np.float64))  # as _epochs passes them
    out = []
    for fn in (_kernel.binary_epochs, plain.binary_epochs):
        w, u, mistakes = np.zeros(4), np.zeros(4), np.zeros(5, dtype=np.int64)
        b, c, beta, run, n_log, status = fn(
            X, y, np.full(60, -1.0), np.arange(60), 5, w, 0.0, 1.0, True, True, False,
            mistakes, 1, u, 0.0, _kernel._NO_LOG, _kernel._NONE, _kernel._NONE, _kernel._NONE,
            _kernel._NO_HARD,
        )  # fmt: skip
        out.append((w, u, mistakes, (b, c, beta, run, n_log, status)))
    assert out[0][3] == out[1][3]
    for a, b in zip(out[0][:3], out[1][:3]):
        assert np.array_equal(a, b)
    assert out[0][2].sum() > 0  # the data made mistakes: the loops did something to compare


def _python(code, **env):
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_importing_perclib_does_not_import_numba():
    """numba (and its compiler) load only at the first fit, never with ``import perclib``."""
    code = "import sys, perclib; print('numba' in sys.modules)"
    assert _python(code) == "False"


@needs_numba
def test_the_environment_variable_turns_the_compiled_loops_off():
    code = "from perclib import _accel; print(_accel.enabled(), _accel.engine().__name__)"
    assert _python(code, PERCLIB_ACCEL="0") == "False perclib._fast"
    assert _python(code, PERCLIB_ACCEL="1") == "True perclib._kernel"


def _engine_of_models():
    """The loops the models run here: the compiled ones, or the numpy scan without numba."""
    return _accel.engine()


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("scale", [1.0, 1e-200, 1e200])  # norms out of the plain sum's range
def test_plain_loops_equal_the_models_loops(plain, order, sparse, scale):
    import scipy.sparse as sp

    from perclib._engine import csr

    engine = _engine_of_models()
    # 10 features: two rounds of the four running sums, then the rest
    X, y = _data(40, 10, 0.15, 0.0, seed=11)
    y = y.astype(np.float64)
    X[np.abs(X) < 0.3] = 0.0  # some zeros, so that sparse rows skip entries
    X *= scale / np.abs(X).max()
    Xs = csr(sp.csr_matrix(X)) if sparse else X
    common = {"eta": 0.5, "max_iter": 6, "order": order, "fit_intercept": True}
    runs = {}
    for name, module in (("plain", plain), ("engine", engine)):
        stack = contextlib.ExitStack()
        stack.enter_context(np.errstate(all="ignore"))  # plain Python warns of inf and NaN
        out = {}
        for rule in ("margin", "prediction"):
            w = np.zeros(10)  # trained in place: compared too
            out[rule] = (w, *module.train(Xs, y, w, 0.0, rule=rule, rng=np.random.default_rng(1),
                                          **common))  # fmt: skip
        out["averaged"] = module.averaged(Xs, y, rng=np.random.default_rng(2), **common)
        if not sparse:  # the voted and pocket perceptrons and the multi-class one take dense X
            out["voted"] = module.voted(X, y, rng=np.random.default_rng(3), **common)
            out["pocket"] = module.pocket(
                X, y, rule="margin", rng=np.random.default_rng(4), **common
            )
            t = (np.arange(40) % 3).astype(np.int64)
            for average in (False, True):
                out[f"multi {average}"] = module.multiclass(
                    X, t, 3, rng=np.random.default_rng(5), average=average, **common
                )
        runs[name] = out
        stack.close()
    assert runs["plain"].keys() == runs["engine"].keys()
    for key, got in runs["plain"].items():
        want = runs["engine"][key]
        assert len(got) == len(want)
        for a, b in zip(got, want):
            assert np.array_equal(np.asarray(a), np.asarray(b)), key
            assert np.asarray(a).dtype == np.asarray(b).dtype, key  # int64 counts, not floats
    assert sum(runs["plain"]["margin"][5]) > 0  # mistakes were made: the runs compared something


def test_plain_sparse_rows_count_training_mistakes_as_dense_rows(plain):
    import scipy.sparse as sp

    X, y = _data(30, 4, 0.2, 0.0, seed=5)
    X[np.abs(X) < 0.5] = 0.0
    # two +1 rows with an activation of exactly 0 (-1.0 * 0.1 + 0.1): right, as sign(0) = +1
    X[:2], y[:2] = [0.0, 0.1, 0.0, 0.0], 1
    S = sp.csr_matrix(X)
    w, b, norms = np.array([0.5, -1.0, 2.0, 0.25]), 0.1, np.full(30, -1.0)
    assert (X[:2] @ w + b).tolist() == [0.0, 0.0]
    plain.fill_norms(X, norms)
    assert np.allclose(norms, np.linalg.norm(X, axis=1))
    buffer = np.empty(30)
    w_norm, x_max = np.linalg.norm(w), norms.max()
    dense = plain.training_mistakes(X, y.astype(float), w, b, norms, x_max, w_norm, 31, buffer)
    assert dense == np.count_nonzero(np.where(X @ w + b >= 0, 1, -1) != y) > 0
    sparse = plain.training_mistakes((S.indptr, S.indices, S.data), y.astype(float), w, b,
                                     norms, 0.0, 0.0, 31, buffer)  # fmt: skip
    assert sparse == dense
    tied = sp.csr_matrix(X[:2])  # the two rows at 0 alone: no mistake
    assert plain.training_mistakes((tied.indptr, tied.indices, tied.data), y[:2].astype(float),
                                   w, b, norms[:2], 0.0, 0.0, 3, buffer) == 0  # fmt: skip
    # sparse rows are counted one by one: the count stops exactly at stop_at
    stopped = plain.training_mistakes((S.indptr, S.indices, S.data), y.astype(float), w, b,
                                      norms, 0.0, 0.0, 2, buffer)  # fmt: skip
    assert stopped == 2
    # the count stops after the first block of 256 rows that brings it to stop_at
    X2, y2 = np.tile(X, (30, 1)), np.tile(y.astype(float), 30)  # 900 rows
    norms2, buffer2 = np.tile(norms, 30), np.empty(900)
    full = plain.training_mistakes(X2, y2, w, b, norms2, x_max, w_norm, 901, buffer2)
    assert full == 30 * dense
    stopped = plain.training_mistakes(X2, y2, w, b, norms2, x_max, w_norm, 2, buffer2)
    assert 2 <= stopped < full


@needs_numba
def test_warm_compiles_or_loads_every_loop():
    from perclib import _kernel

    assert _kernel.warm() >= 0.0
    assert _kernel.binary_epochs.signatures and _kernel.multiclass_epochs.signatures


_WARM_PARTS_PROBE = """
import numpy as np
import scipy.sparse as sp

from perclib import MulticlassPerceptron, Perceptron, PocketPerceptron, VotedPerceptron, _kernel

def kinds(loop):  # the X of each compiled version: a CSR tuple, or a dense array
    out = []
    for signature in loop.signatures:
        X = signature[0]
        if hasattr(X, "types"):  # (indptr, indices, data)
            out.append(f"csr-{X.types[1].dtype}")
        else:
            out.append("writable" if X.mutable else "read-only")
    return ",".join(sorted(out)) or "none"

for part in ("binary", "multiclass", "sparse"):
    _kernel.warm((part,))
    print(kinds(_kernel.binary_epochs), kinds(_kernel.multiclass_epochs))

def versions():  # how many versions of each compiled loop
    loops = [v for v in vars(_kernel).values() if hasattr(v, "signatures")]
    return sorted((loop.py_func.__name__, len(loop.signatures)) for loop in loops)

# other data than warm() fits: writable and read-only arrays (X and y), a read-only CSR matrix
before = versions()
rng = np.random.default_rng(0)
X, y = rng.normal(size=(30, 3)), np.where(rng.normal(size=30) > 0, 1, -1)
frozen_X, frozen_y = X.copy(), y.copy()
frozen_X.setflags(write=False)
frozen_y.setflags(write=False)
csr = sp.csr_matrix(frozen_X)
for array in (csr.data, csr.indices, csr.indptr):
    array.setflags(write=False)
for data, labels in ((X, y), (frozen_X, frozen_y)):
    for model in (Perceptron, VotedPerceptron, PocketPerceptron):
        model(max_iter=3).fit(data, labels)
    MulticlassPerceptron(max_iter=3).fit(data, labels % 3)
Perceptron(max_iter=3).fit(csr, frozen_y)
print(versions() == before, X.flags.writeable, y.flags.writeable)
"""


@needs_numba
def test_each_part_of_warm_compiles_its_own_loops():
    """The Makefile runs the parts in two processes: each compiles (or loads) its own versions of
    the loops. The dense parts: one version, X read-only (the loops see every array read-only, so
    that writable data and a read-only memmap, as joblib and scikit-learn's checks pass, share it);
    the sparse part: CSR matrices with 32-bit and 64-bit indices (seen as unsigned). Fitting other
    data after warm(), writable or read-only, compiles nothing more, and leaves the caller's arrays
    writable."""
    assert _python(_WARM_PARTS_PROBE).split("\n") == [
        "read-only none",
        "read-only read-only",
        "csr-uint32,csr-uint64,read-only read-only",
        "True True True",
    ]


def test_warm_names_an_unknown_part():
    from perclib import _kernel

    with pytest.raises(ValueError, match="parts must be among"):
        _kernel.warm(("binary", "ternary"))


def test_warm_fits_every_model_without_a_warning_escaping(recwarn):
    """warm() fits each model of the family once on its tiny data (compiling the loops when numba
    is on) without raising, and keeps the ConvergenceWarnings of those two-epoch fits to itself."""
    import time

    from perclib import _kernel

    start = time.perf_counter()
    seconds = _kernel.warm()
    assert 0.0 <= seconds <= time.perf_counter() - start  # the seconds it took
    assert len(recwarn) == 0


def test_plain_loops_raise_on_overflow_as_the_models_do(plain):
    X = np.array([[1e308, 1e308], [-1e308, 1e308]])
    y = np.array([1.0, -1.0])
    with pytest.raises(ValueError, match="overflow"), np.errstate(over="ignore"):
        plain.train(X, y, np.zeros(2), 0.0, eta=1e10, max_iter=3, order="cyclic",
                    rule="margin", fit_intercept=True, rng=None)  # fmt: skip
    t = np.array([0, 1], dtype=np.int64)
    with pytest.raises(ValueError, match="overflow"), np.errstate(over="ignore"):
        plain.multiclass(X, t, 2, eta=1e10, max_iter=3, order="cyclic", fit_intercept=True,
                         rng=None, average=False)  # fmt: skip
    # only the first weight overflows, the last stays finite: still an overflow, dense and sparse
    import scipy.sparse as sp

    from perclib._engine import csr

    X1 = np.array([[1e308, 1.0, 1.0], [-1e308, 1.0, 1.0]])
    for data in (X1, csr(sp.csr_matrix(X1))):
        with pytest.raises(ValueError, match="overflow"), np.errstate(over="ignore"):
            plain.train(data, y, np.zeros(3), 0.0, eta=1e10, max_iter=3, order="cyclic",
                        rule="margin", fit_intercept=False, rng=None)  # fmt: skip
    with pytest.raises(ValueError, match="overflow"), np.errstate(over="ignore"):
        plain.multiclass(X1, t, 2, eta=1e10, max_iter=3, order="cyclic", fit_intercept=False,
                         rng=None, average=False)  # fmt: skip


@needs_numba
def test_widgets_train_on_the_numpy_loops(monkeypatch):
    """A widget never waits for numba's compiler (a first call can take seconds): the widgets that
    fit models run the numpy loops, whose results are the same."""
    import matplotlib

    matplotlib.use("Agg")
    from perclib import _kernel
    from perclib.widgets.convergence import MarginExplorer
    from perclib.widgets.ensemble import EnsembleExplorer

    def refuse(*args, **kwargs):
        raise AssertionError("a widget ran the compiled loops")

    for name in ("train", "averaged", "voted", "pocket", "multiclass"):
        monkeypatch.setattr(_kernel, name, refuse)
    assert _accel.enabled()
    with pytest.raises(AssertionError, match="compiled"):  # the spies would catch a model's fit
        Perceptron().fit([[1.0], [-1.0]], [1, -1])
    MarginExplorer(30, margin=0.1, seed=3).update()
    EnsembleExplorer(n_samples=40, random_state=0).fit()


@pytest.mark.parametrize("model", [Perceptron, AveragedPerceptron])
@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_sparse_input_gives_the_same_fit_on_every_path(model, order):
    """A CSR X: the compiled loop, the numpy path and the reference touch only the nonzeros, and
    agree with each other and with the dense fit."""
    import scipy.sparse as sp

    X, y = _data(120, 30, 0.1, 0.0, seed=8)
    X[np.abs(X) < 1.0] = 0.0  # about two thirds zeros
    est = model(max_iter=6, order=order, random_state=4)
    dense = _fit(est, X, y, "numpy")
    paths = ["numpy", "reference"] + (["compiled"] if _accel.AVAILABLE else [])
    for path in paths:
        _assert_same(_fit(est, sp.csr_matrix(X), y, path), dense, BINARY[model])
    assert dense.n_updates_ > 0


def test_the_pocket_counts_over_its_rows_in_hardest_first_order(plain, monkeypatch):
    from perclib import _fast

    """After every 64 updates the pocket's count of mistakes runs over a copy of the rows with the
    pocket's mistakes first (so that it reaches the pocket's count, and stops, sooner). The count
    is the same in any order: the plain kernel, which orders its rows on this noisy data and then
    counts over the copy, gives the compiled (or numpy) loops' pocket bit for bit."""
    orderings = []
    real = plain.hardest_first

    def spy(X, y, x_norms, hard, in_use, scores, b):
        real(X, y, x_norms, hard, in_use, scores, b)
        Xh, yh, nh, order = hard
        assert np.array_equal(Xh, X[order]) and np.array_equal(yh, y[order])
        assert np.array_equal(nh, x_norms[order]) and np.array_equal(np.sort(order), np.arange(n))
        orderings.append(order.copy())

    monkeypatch.setattr(plain, "hardest_first", spy)
    X, y = _data(600, 3, 0.2, 0.0, seed=21)
    n = X.shape[0]
    y = y.astype(np.float64)
    common = {"eta": 1.0, "max_iter": 8, "rule": "margin", "fit_intercept": True}
    for order in ("cyclic", "shuffle"):
        orderings.clear()
        got = plain.pocket(X, y, order=order, rng=np.random.default_rng(7), **common)
        want = _engine_of_models().pocket(X, y, order=order, rng=np.random.default_rng(7), **common)
        numpy = _fast.pocket(X, y, order=order, rng=np.random.default_rng(7), **common)  # no copy
        assert orderings, "the rows were never put in hardest-first order"
        assert len(got) == len(want) == len(numpy)
        for a, b, c in zip(got, want, numpy):
            assert np.array_equal(np.asarray(a), np.asarray(b))
            assert np.array_equal(np.asarray(a), np.asarray(c))


def test_hardest_first_puts_the_pockets_mistakes_first(plain):
    rng = np.random.default_rng(3)
    n, d = 50, 4
    X, y = rng.normal(size=(n, d)), rng.choice([-1.0, 1.0], n)
    norms = np.linalg.norm(X, axis=1)
    hard = (np.empty((n, d)), np.empty(n), np.empty(n), np.empty(n, dtype=np.int64))
    w, b = rng.normal(size=d), 0.25
    plain.hardest_first(X, y, norms, hard, False, X @ w, b)  # from X's own order
    Xh, yh, nh, order = hard
    wrong = (Xh @ w + b >= 0) != (yh > 0)
    k = int(wrong.sum())
    assert 0 < k < n and wrong[:k].all() and not wrong[k:].any()
    assert np.array_equal(Xh, X[order]) and np.array_equal(nh, norms[order])
    w2 = rng.normal(size=d)
    plain.hardest_first(X, y, norms, hard, True, Xh @ w2, -b)  # from the current order
    wrong2 = (Xh @ w2 - b >= 0) != (yh > 0)
    k2 = int(wrong2.sum())
    assert wrong2[:k2].all() and not wrong2[k2:].any()
    assert np.array_equal(Xh, X[order]) and np.array_equal(yh, y[order])


@pytest.mark.parametrize("scale", [0.0, 1e-320, 1e-300, 1e-160, 1.0, 1e160, 1e300])
def test_the_compiled_row_norm_is_the_numpy_one(plain, scale):
    """The row norm has one numpy definition (_engine.row_norms, vector_norm for one row) and one
    for the loops (_kernel.norm); both are free of overflow and underflow and agree to rounding,
    against math.hypot, at every scale."""
    import math

    from perclib import _kernel
    from perclib._engine import row_norms, vector_norm

    rng = np.random.default_rng(int(np.log10(scale + 1e-323) + 400))
    X = rng.normal(size=(25, 11)) * scale  # 11 columns: two rounds of four running sums, then 3
    X[0, :] = 0.0
    numpy = row_norms(X)
    for module in (plain, _kernel):
        with np.errstate(all="ignore"):  # plain Python warns of the squares that overflow
            compiled = np.array([module.norm(X, i) for i in range(X.shape[0])])
            one_row = [vector_norm(row) for row in X]
        exact = np.array([math.hypot(*row) for row in X])
        assert np.all(np.isfinite(compiled)) and compiled[0] == 0.0
        assert np.allclose(compiled, exact, rtol=8 * 11 * 2.0**-52, atol=0)
        assert np.allclose(numpy, exact, rtol=8 * 11 * 2.0**-52, atol=0)
        assert np.allclose(one_row, numpy, rtol=8 * 11 * 2.0**-52, atol=0)


@pytest.mark.parametrize("sparse", [False, True])
def test_plain_random_mistake_order_runs_the_reference_loops(plain, sparse):
    """The kernel's entry points hand ``order="random-mistake"`` to the numpy scan, with every
    argument: their results are the reference loop's (guards the arguments passed on, which the
    cyclic and shuffled runs above do not reach)."""
    import scipy.sparse as sp

    from perclib import _reference
    from perclib._engine import csr

    X, y = _data(30, 5, 0.2, 0.0, seed=1)  # entries of order 1
    y = y.astype(np.float64)
    X[np.abs(X) < 0.3] = 0.0
    Xs = csr(sp.csr_matrix(X)) if sparse else X
    common = {"eta": 0.5, "max_iter": 6, "order": "random-mistake", "fit_intercept": True}
    runs = []
    for module in (plain, _reference):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = []
            for rule in ("margin", "prediction"):
                w = np.zeros(5)  # trained in place
                rng = np.random.default_rng(6)
                out.append((w, *module.train(Xs, y, w, 0.25, rule=rule, rng=rng, **common)))
            if not sparse:
                rng = np.random.default_rng(7)
                out.append(module.pocket(X, y, rule="margin", rng=rng, **common))
        runs.append(out)
    for got, want in zip(*runs):
        assert len(got) == len(want)
        for a, b in zip(got, want):
            assert np.array_equal(np.asarray(a), np.asarray(b))
    assert runs[0][0][3] > 0 and np.any(runs[0][0][0] != 0)  # updates: the runs compared something


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_plain_multiclass_stops_after_a_clean_epoch(plain, order):
    """On separable classes the multi-class loop stops after its first epoch without a mistake
    (converged) unless it averages, as the reference loop does (guards the kernel's stopping rule
    and its converged flag, which the noisy data above never reach)."""
    from perclib import _reference

    X, t = _data(40, 3, 0.0, 0.0, seed=3, classes=3)  # converges in 5 and 6 epochs
    for average in (False, True):
        runs = [
            m.multiclass(X, t.astype(np.int64), 3, eta=1.0, max_iter=60, order=order,
                         fit_intercept=True, rng=np.random.default_rng(8), average=average)
            for m in (plain, _reference)
        ]  # fmt: skip
        for a, b in zip(*runs):
            assert np.array_equal(np.asarray(a), np.asarray(b))
        mistakes, converged = runs[0][5], runs[0][6]
        assert converged != average and (len(mistakes) < 60) != average
        assert mistakes[-1] == 0 and sum(mistakes) > 0


def test_plain_loops_settle_a_near_tie_with_each_rows_own_norm(plain):
    """A row whose four running sums and left-to-right sum disagree in sign: w.x is 0.5 from left
    to right, -0.5 in fast_dot's order. Each row's band is 4 d eps ||w|| ||x|| (about 139 here), so
    the left-to-right sum decides, as in the reference loop; with a wrong norm for x (the unset
    marker -1 or a placeholder 1) the band shrinks to nothing and fast_dot's sign would update on a
    correctly classified row (guards the kernel's norms: computed on the first visit, or filled
    before the pocket's counts)."""
    from perclib import _reference

    X = np.array([[1.0, 1.0, 1.0, 1.0, 1.0], [1e16, 1.0, -1e16, 1.0, -0.5]])
    y = np.array([1.0, 1.0])
    w_row = np.ones((1, 5))
    assert plain.seq_dot(w_row, 0, X, 1) == 0.5 and plain.fast_dot(w_row, 0, X, 1) == -0.5
    common = {"eta": 1.0, "max_iter": 3, "order": "cyclic", "rule": "margin", "rng": None}
    for fit_intercept in (False, True):
        for name in ("train", "pocket"):
            runs = []
            for module in (plain, _reference):
                args = (X, y, np.zeros(5), 0.0) if name == "train" else (X, y)
                runs.append(getattr(module, name)(*args, fit_intercept=fit_intercept, **common))
            for a, b in zip(*runs):
                assert np.array_equal(np.asarray(a), np.asarray(b)), name


def test_plain_multiclass_settles_a_near_tie_with_each_rows_own_norm(plain):
    """The multi-class form of the test above: after one update W = (-1, ..., -1), (1, ..., 1),
    and on the row x below class 1 scores 0.5 and class 0 -0.5 from left to right, the reverse in
    fast_dot's order. Its band (with ||x|| about 1.4e16) sends the row to the left-to-right sums,
    as in the reference loop: class 1, no mistake (guards the kernel's norms in the multi-class
    loop: with a placeholder 1 for ||x|| the band shrinks and fast_dot's scores would decide)."""
    from perclib import _reference

    X = np.array([[1.0, 1.0, 1.0, 1.0, 1.0], [1e16, 1.0, -1e16, 1.0, -0.5]])
    t = np.array([1, 1], dtype=np.int64)
    for average in (False, True):
        runs = [
            m.multiclass(X, t, 2, eta=1.0, max_iter=3, order="cyclic", fit_intercept=False,
                         rng=None, average=average)
            for m in (plain, _reference)
        ]  # fmt: skip
        for a, b in zip(*runs):
            assert np.array_equal(np.asarray(a), np.asarray(b))
        assert runs[0][5][:2] == [1, 0]  # one update (the first row), then none


def test_plain_pocket_counts_a_row_not_yet_visited_with_its_own_norm(plain):
    """The pocket's first count comes before the loop reaches the second row below, whose w.x is
    -0.75 from left to right but may come out +0.25 from BLAS's product (a blocked order); its
    norm, filled before the loop, sends it to the left-to-right sum, as in the reference loop, so
    the count is 0 and (1, ..., 1) goes in the pocket (guards the filled norms handed to the
    pocket's loop: without them the row's band is negative and BLAS's sign is taken)."""
    from perclib import _reference

    X = np.array([[1.0, 1.0, 1.0, 1.0, 1.0], [1e16, 1.0, -1e16, 1.0, -1.75]])
    y = np.array([1.0, -1.0])
    runs = [
        m.pocket(X, y, eta=1.0, max_iter=3, order="cyclic", rule="margin", fit_intercept=False,
                 rng=None)
        for m in (plain, _reference)
    ]  # fmt: skip
    for a, b in zip(*runs):
        assert np.array_equal(np.asarray(a), np.asarray(b))
    assert runs[0][2].tolist() == [1.0] * 5 and runs[0][4] == 0  # the pocket: w = 1, no mistake


def test_plain_mistake_count_settles_near_ties_block_by_block(plain):
    """The kernel counts the pocket's mistakes block by block (512 rows), each block scored by
    one BLAS product, and looks again, from left to right, only at the rows within the band.

    The near-tie row: w.x = 1 + 1000 u - (1 + eps) with u = eps/2 (tests/test_scale.py's row):
    left to right every 1 + u rounds back to 1 and the sum is -eps; any blocked or pairwise order
    gives about +250 eps or more. It stands at rows 0 and 600 (one in each of the first two
    blocks) among 1100 rows far from any tie; with b = 0 it is a mistake (label +1), with b = 2 eps
    it is not, with b = -1000 eps it is, on both sides of the band's second look. The count must
    be the left-to-right one in every case (tests/test_oracles.py's plain count), however BLAS
    sums."""
    from test_oracles import training_mistakes

    m = 1000
    eps = np.finfo(float).eps
    w = np.array([1.0] + [2.0**-26] * m + [1.0])
    tie = np.array([1.0] + [2.0**-27] * m + [-(1 + eps)])
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1100, m + 2))
    X[:, -1] = 0.0
    X[:, 0] = np.where(rng.random(1100) < 0.5, 3.0, -3.0) - (X[:, 1:-1] @ w[1:-1])  # |w.x| ~ 3
    y = np.where(rng.random(1100) < 0.8, np.sign(X @ w), -np.sign(X @ w))
    X[[0, 600]], y[[0, 600]] = tie, 1.0
    assert float(np.dot(X[:1], w)[0]) > 0  # BLAS's sign is not the left-to-right one here
    norms = np.linalg.norm(X, axis=1)
    for b in (0.0, 2 * eps, -1000 * eps):  # -1000 eps: a mistake whichever the order
        expected = training_mistakes(X, y, w, b)
        got = plain.training_mistakes(X, y, w, b, norms, norms.max(), np.linalg.norm(w),
                                      1101, np.empty(1100))  # fmt: skip
        assert got == expected, b
    # far from the ties, the intercept moves rows across the boundary: |w.x| <= 0.3 here
    X2 = rng.normal(size=(40, 5)) * 0.1
    y2 = np.where(rng.random(40) < 0.5, 1.0, -1.0)
    w2, b2 = np.ones(5), 0.25
    n2 = np.linalg.norm(X2, axis=1)
    expected = training_mistakes(X2, y2, w2, b2)
    assert expected != training_mistakes(X2, y2, w2, -b2)
    got = plain.training_mistakes(X2, y2, w2, b2, n2, n2.max(), np.linalg.norm(w2), 41,
                                  np.empty(40))  # fmt: skip
    assert got == expected


def test_multiclass_loop_picks_the_left_to_right_winner_among_large_near_ties(plain):
    """tests/test_engine.py's near-tie construction, run through the kernel's multi-class loop: W
    = [v, v + z - beta x/|x|^2, v - z + beta x/|x|^2], b = [0, beta, -beta], z orthogonal to x up
    to rounding, rows in a random order; the three scores are large and equal but for rounding.
    The one example is labelled with the first highest left-to-right score, so the loop must make
    no update, whatever its four running sums say (on the compiled loop too, when numba is
    there)."""
    from test_engine import _plain_scores, large_near_tie

    from perclib import _kernel

    rng = np.random.default_rng(6)
    fast_differs = 0
    for _ in range(300):
        W0, b0, x = large_near_tie(rng, int(rng.integers(8, 60)))
        _, label = _plain_scores(W0, b0, x)  # the first of the highest left-to-right scores
        fast = [plain.fast_dot(W0, k, x[None, :], 0) + b0[k] for k in range(3)]
        fast_differs += int(np.argmax(fast)) != label
        for module in {plain, _kernel}:
            W, b, mistakes = W0.copy(), b0.copy(), np.zeros(1, dtype=np.int64)
            X, t = module.read_only(x[None, :]), module.read_only(np.array([label]))
            module.multiclass_epochs(  # X and t read-only, as the models pass them
                X, t, np.full(1, -1.0), np.arange(1), 1, W, b, 1.0,
                True, True, mistakes, 1, np.zeros((0, 0)), np.zeros(0),
            )  # fmt: skip
            assert mistakes[0] == 0 and np.array_equal(W, W0), module
    assert fast_differs > 30  # the running sums alone would have picked another class that often


def test_plain_multiclass_loop_reports_an_overflow_in_the_true_class_alone(plain):
    """One mistake (true class 0, predicted 1: scores -5e307 and 0) where w_0 + eta x overflows in
    its first entry while w_1 - eta x stays finite: the loop must still report the overflow."""
    W = np.array([[1e308, -1.5e308], [0.0, 0.0]])
    b, mistakes = np.zeros(2), np.zeros(1, dtype=np.int64)
    x = np.array([[1.0, 1.0]])
    with np.errstate(over="ignore"):
        _, _, status = plain.multiclass_epochs(
            x, np.array([0]), np.full(1, -1.0), np.arange(1), 1, W, b, 1e308, False, True,
            mistakes, 1, np.zeros((0, 0)), np.zeros(0),
        )  # fmt: skip
    assert W[0, 0] == np.inf and np.isfinite(W[1]).all()  # the case is the one described
    assert status == plain.OVERFLOW


def test_plain_pocket_without_room_for_the_hardest_first_copy(plain, monkeypatch):
    """Above 256 MiB of rows the pocket keeps no hardest-first copy of X and counts in X's own
    order: the same pocket as the reference's (here with the limit lowered to 0 bytes)."""
    from perclib import _reference

    monkeypatch.setattr(plain, "_HARD_BYTES", 0)
    X, y = _data(80, 3, 0.2, 0.0, seed=4)
    y = y.astype(float)
    common = {"eta": 1.0, "max_iter": 10, "order": "cyclic", "rule": "margin", "rng": None}
    runs = [m.pocket(X, y, fit_intercept=True, **common) for m in (plain, _reference)]
    for a, b in zip(*runs):
        assert np.array_equal(np.asarray(a), np.asarray(b))
    assert runs[0][6] > 64  # past the updates after which the rows would be reordered
