"""No silent wrong answer at any finite scale.

Rows whose norm exceeds about 1e154 once overflowed the row norm to inf; ``0 * inf = nan`` then hid
every mistake while w = 0, and the fast Perceptron reported ``converged_=True`` with w = 0. Here
scikit-learn's ``Perceptron`` (its own left-to-right loop, compiled) is the oracle: wherever its
result is finite, perclib's fast path and its reference loop must give its weights bit for bit
(``np.array_equal``); where its weights overflow it raises ``ValueError``, and so must perclib.
The orders and models scikit-learn has no counterpart for are checked fast path against reference.
"""

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
)
from perclib.datasets import worked_example
from perclib.training import row_norms, vector_norm


def _sklearn(X, y, max_iter, eta=1.0, coef_init=None):
    """scikit-learn's weights, or the ValueError it raises."""
    sk = SkPerceptron(shuffle=False, tol=None, max_iter=max_iter, eta0=eta)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            sk.fit(X, y, coef_init=coef_init)
        except ValueError as exc:
            return exc
    return sk.coef_.ravel(), float(sk.intercept_[0])


def _perclib(X, y, max_iter, eta=1.0, reference=False, coef_init=None, **kw):
    clf = Perceptron(max_iter=max_iter, eta=eta, **kw)
    clf._reference = reference
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            clf.fit(X, y, coef_init=coef_init)
        except ValueError as exc:
            return exc
    return clf


def _data(seed, n, d, exponents, flip):
    """Gaussian rows, column j scaled by 10**exponents[j]; labels from a random plane, some
    flipped."""
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n, d))
    y = np.where(Z @ rng.standard_normal(d) + 0.3 * rng.standard_normal() >= 0, 1, -1)
    y[rng.random(n) < flip] *= -1
    if np.unique(y).size < 2:
        y[0] = -y[0]
    return Z * 10.0 ** np.asarray(exponents, dtype=float), y


def _check_against_sklearn(X, y, max_iter, eta=1.0):
    expected = _sklearn(X, y, max_iter, eta)
    for reference in (False, True):
        got = _perclib(X, y, max_iter, eta, reference=reference)
        if isinstance(expected, ValueError):
            assert isinstance(got, ValueError) and "overflow" in str(got), (reference, got)
            continue
        assert not isinstance(got, ValueError), (reference, got)
        assert np.array_equal(got.coef_, expected[0]), (reference, got.coef_, expected[0])
        assert got.intercept_ == expected[1], (reference, got.intercept_, expected[1])
    return expected


@pytest.mark.parametrize(
    "scale", [1e-300, 1e-200, 1e-150, 1e-100, 1.0, 1e100, 1e150, 1e154, 1e155, 1e160, 1e200, 1e300]
)
def test_worked_example_at_every_scale_is_sklearns(scale):
    X, y = worked_example()
    expected = _check_against_sklearn(X * scale, y, max_iter=20)
    if scale >= 1e155:  # the case: the fast path used to stop at w = 0
        assert np.array_equal(expected[0], np.array([scale, scale]))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 25),
    d=st.integers(1, 5),
    exponent=st.integers(-150, 150),
    max_iter=st.integers(1, 8),
    flip=st.sampled_from([0.0, 0.2]),
)
def test_one_scale_for_all_columns_is_sklearns(seed, n, d, exponent, max_iter, flip):
    X, y = _data(seed, n, d, [exponent] * d, flip)
    _check_against_sklearn(X, y, max_iter)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 25),
    exponents=st.lists(st.integers(-150, 150), min_size=1, max_size=5),
    max_iter=st.integers(1, 8),
    flip=st.sampled_from([0.0, 0.2]),
    eta=st.sampled_from([1.0, 0.1, 3.0]),
)
def test_mixed_column_scales_are_sklearns(seed, n, exponents, max_iter, flip, eta):
    X, y = _data(seed, n, len(exponents), exponents, flip)
    _check_against_sklearn(X, y, max_iter, eta)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 20),
    d=st.integers(1, 4),
    exponent=st.integers(150, 307),
    max_iter=st.integers(1, 6),
)
def test_beyond_1e150_sklearn_finite_or_both_raise(seed, n, d, exponent, max_iter):
    """Past 1e154 the squares overflow; past about 1e308 / n the weights themselves may."""
    X, y = _data(seed, n, d, [exponent] * d, 0.2)
    _check_against_sklearn(X, y, max_iter)


def test_an_overflowing_result_raises_a_clear_valueerror():
    """w = 1e308 * (1, 1), then a mistake on (1, -1.5) adds 1e308 to w_1: no finite result
    exists."""
    X = np.array([[1.0, 1.0], [1.0, -1.5], [-1.0, -1.0]])
    y = np.array([1, 1, -1])
    sk = SkPerceptron(shuffle=False, tol=None, max_iter=3, eta0=1e308, fit_intercept=False)
    with pytest.raises(ValueError, match="overflow"):  # scikit-learn cannot give a finite result
        sk.fit(X, y)
    for reference in (False, True):
        clf = Perceptron(max_iter=3, eta=1e308, fit_intercept=False)
        clf._reference = reference
        with pytest.raises(
            ValueError,
            match=r"^Floating-point overflow: an update made the weights "
            r"or the intercept infinite, so no finite result exists at "
            r"this scale\. Scale X \(for example with sklearn\."
            r"preprocessing\.StandardScaler\) or lower eta\.$",
        ):
            clf.fit(X, y)
    # one step below, both give the same finite weights
    _check_against_sklearn(X, y, 3, eta=1e307)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 20),
    exponents=st.lists(st.integers(-150, 150), min_size=1, max_size=4),
    order=st.sampled_from(["cyclic", "shuffle", "random-mistake"]),
    rule=st.sampled_from(["margin", "prediction"]),
    fit_intercept=st.booleans(),
)
def test_fast_equals_reference_at_any_scale_in_every_setting(
    seed, n, exponents, order, rule, fit_intercept
):
    X, y = _data(seed, n, len(exponents), exponents, 0.2)
    kw = {"order": order, "rule": rule, "fit_intercept": fit_intercept, "random_state": seed % 1000}
    fast, ref = (_perclib(X, y, 5, reference=r, **kw) for r in (False, True))
    assert not isinstance(fast, ValueError) and not isinstance(ref, ValueError)
    for name in ("coef_", "intercept_", "mistakes_", "n_updates_", "converged_"):
        assert np.array_equal(getattr(fast, name), getattr(ref, name)), name
    # and the result is not the old failure: w = 0 "converged" while mistakes remain
    if fast.converged_:
        assert np.all(np.where(fast.decision_function(X) >= 0, 1, -1) == y) or rule == "margin"


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 20),
    exponents=st.lists(st.integers(-150, 150), min_size=1, max_size=4),
    model=st.sampled_from([AveragedPerceptron, VotedPerceptron, PocketPerceptron]),
)
def test_other_models_fast_equal_reference_at_any_scale(seed, n, exponents, model):
    X, y = _data(seed, n, len(exponents), exponents, 0.2)
    fast, ref = model(max_iter=4), model(max_iter=4)
    ref._reference = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast.fit(X, y)
        ref.fit(X, y)
    names = {
        AveragedPerceptron: ("coef_", "intercept_", "mistakes_"),
        VotedPerceptron: ("weights_", "intercepts_", "counts_"),
        PocketPerceptron: ("coef_", "intercept_", "pocket_mistakes_", "last_coef_"),
    }[model]
    for name in names:
        assert np.array_equal(getattr(fast, name), getattr(ref, name)), name


@pytest.mark.parametrize("scale", [1e-150, 1.0, 1e150, 1e160, 1e200])
def test_multiclass_fast_equals_reference_at_scale(scale):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((40, 3)) * scale
    y = np.argmax(X @ rng.standard_normal((3, 3)), axis=1)
    fast, ref = MulticlassPerceptron(max_iter=6), MulticlassPerceptron(max_iter=6)
    ref._reference = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast.fit(X, y)
        ref.fit(X, y)
    assert np.array_equal(fast.coef_, ref.coef_) and np.array_equal(fast.intercept_, ref.intercept_)
    assert np.any(fast.coef_ != 0)


@pytest.mark.parametrize("scale", [0.0, 1e-320, 1e-200, 1e-160, 1.0, 1e160, 1e200, 1e300])
def test_norms_are_right_at_every_scale(scale):
    """The scaled norms against an oracle that cannot overflow: Python's math.hypot on the
    entries."""
    import math

    rows = np.array([[3.0, 4.0, 0.0], [1.0, -2.0, 2.0], [5e-3, 12e-3, 0.0]]) * scale
    got = row_norms(rows)
    expected = np.array([math.hypot(*r) for r in rows.tolist()])
    assert np.all(np.abs(got - expected) <= 4 * np.finfo(float).eps * expected), (got, expected)
    assert np.all(np.isfinite(got))
    with np.errstate(over="ignore"):  # vector_norm leaves the errstate to the training loops
        assert vector_norm(rows[0]) == pytest.approx(expected[0], rel=4 * np.finfo(float).eps)


def test_tie_band_covers_the_worst_left_to_right_error():
    """A row built so that the left-to-right sum (scikit-learn's) has the wrong sign.

    w.x = 1 + 1000 * u - (1 + eps) with u = eps/2 and each u term a product 2**-26 * 2**-27: from
    left to right every ``1 + u`` rounds back to 1 (a tie, to even), so the sum is -eps, while the
    exact value is +499 eps and numpy's blocked sums give about +250 to +480 eps. scikit-learn
    updates (a mistake for y = +1); perclib must too. This needs the band to reach d * eps * ||w||
    ||x|| / 4 at least: a band that leaves out the factor d (8 eps here) lets the fast sum's sign
    decide, and no update is made.
    """
    import math

    m, eps = 1000, np.finfo(float).eps
    w0 = np.array([1.0] + [2.0**-26] * m + [1.0])
    x = np.array([1.0] + [2.0**-27] * m + [-(1 + eps)])
    s = 0.0
    for a, b in zip(w0.tolist(), x.tolist()):
        s += a * b
    assert s == -eps and math.fsum((w0 * x).tolist()) == 499 * eps  # the row is what we claim
    X = np.vstack([x, np.zeros_like(x)])
    y = np.array([1, -1])
    sk = SkPerceptron(shuffle=False, tol=None, max_iter=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk.fit(X, y, coef_init=w0.copy(), intercept_init=0.0)  # scikit-learn writes into it
    assert np.array_equal(sk.coef_.ravel(), w0 + x)  # scikit-learn did update on row 0
    from test_oracles import ENGINES, _fit_on

    for engine in ENGINES:  # the block scan starts from w0's own norm
        clf = _fit_on(engine, Perceptron(max_iter=1), X, y, coef_init=w0, intercept_init=0.0)
        assert np.array_equal(clf.coef_, sk.coef_.ravel()), engine
        assert clf.intercept_ == sk.intercept_[0]


@pytest.mark.parametrize("d", [1, 2, 3, 10, 1000])
def test_class_band_covers_what_two_orders_of_summation_can_differ(d):
    """A multi-class score w.x + b has d + 1 terms. Summed in any order it lies within
    gamma_(d+1) (||w|| ||x|| + |b|) of the exact score (Higham, *Accuracy and Stability of
    Numerical Algorithms*, 2nd ed., section 3.1, with Cauchy-Schwarz), plus (d + 1) 2**-1075 for
    products that underflow; two orders of one score differ by at most twice that. The fast paths
    keep numpy's winner only when it leads every other class by more than the sum of the two
    classes' bands, so each band must cover that much. Past 2**1000 a partial sum may overflow in
    one order and not another: the band is then infinite (the left-to-right sum decides), as it is
    for NaN."""
    import math

    from perclib.training import class_band

    u = 2.0**-53
    gamma = (d + 1) * u / (1 - (d + 1) * u)
    cases = [
        (0.0, 0.0, 0.0),
        (1.0, 1.0, 0.0),
        (1.0, 1.0, 5.0),
        (3.5, 2e-3, -7.0),
        (2.0**-600, 2.0**-500, 0.0),
        (2.0**499, 2.0**500, -(2.0**999)),
    ]
    for w_norm, x_norm, b in cases:
        need = 2 * (gamma * (w_norm * x_norm + abs(b)) + (d + 1) * 2.0**-1075)
        assert class_band(w_norm, x_norm, b, d) >= need, (w_norm, x_norm, b)
    for w_norm, x_norm, b in [
        (2.0**510, 2.0**500, 0.0),
        (1.0, 1.0, 2.0**1010),
        (1.0, 1.0, -(2.0**1010)),
        (math.nan, 1.0, 0.0),
        (1.0, 1.0, math.nan),
    ]:
        assert class_band(w_norm, x_norm, b, d) == math.inf, (w_norm, x_norm, b)


def test_train_records_epochs_from_1_by_default():
    """training.train called without epoch_offset (as experiments._fit_pla calls it): epochs count
    from 1."""
    from perclib.training import train

    X, y = worked_example()
    steps = []
    train(
        X,
        np.where(y > 0, 1.0, -1.0),
        np.zeros(2),
        0.0,
        eta=1.0,
        max_iter=5,
        order="cyclic",
        rule="margin",
        fit_intercept=True,
        rng=None,
        record=steps,
    )
    assert [s.epoch for s in steps[:5]] == [1, 1, 1, 1, 2] and steps[0].index == 0


@pytest.mark.parametrize("order", ["cyclic", "random-mistake"])
def test_scores_beyond_2_to_1000_follow_the_left_to_right_sum(order):
    """At 1e152, ||w|| ||x|| passes 2**1000 after a few updates, where the vectorised scores (used
    by
    random-mistake and by the pocket's count) switch to an infinite band: the plain loop of
    tests/test_oracles.py (left-to-right sums) is the oracle."""
    from test_oracles import perceptron_loop, pocket_loop

    X, y = _data(11, 30, 3, [152, 152, 152], 0.2)
    w, b, updates = perceptron_loop(X, y, epochs=6, order=order, seed=5)
    assert max(np.abs(w)) * max(row_norms(X)) > 2.0**1000  # the regime is reached
    pocket, last, _ = pocket_loop(X, y, epochs=6, order=order, seed=5)
    for reference in (False, True):
        clf = _perclib(X, y, 6, reference=reference, order=order, random_state=5)
        assert clf.coef_.tolist() == w and clf.intercept_ == b and clf.n_updates_ == updates
        pk = PocketPerceptron(max_iter=6, order=order, random_state=5)
        pk._reference = reference
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pk.fit(X, y)
        assert pk.coef_.tolist() == pocket["w"] and pk.pocket_mistakes_ == pocket["m"]
