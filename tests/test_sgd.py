"""Tests for perclib.sgd: losses, subgradients, and SGD = the perceptron on the perceptron loss."""

import ast
import inspect
import re
import warnings

import numpy as np
import pytest

from perclib import Perceptron
from perclib.datasets import make_noisy, make_separable, worked_example
from perclib.sgd import LOSSES, LinearSGD, loss_derivative, loss_value, objective, subgradient
from perclib.theory import hinge_loss, logistic_loss, perceptron_loss


def test_loss_values_match_theory():
    rng = np.random.default_rng(0)
    y = rng.choice([-1.0, 1.0], size=50)
    a = rng.normal(size=50) * 3
    np.testing.assert_array_equal(loss_value("perceptron", y, a), perceptron_loss(y, a))
    np.testing.assert_array_equal(loss_value("hinge", y, a), hinge_loss(y, a))
    np.testing.assert_array_equal(loss_value("logistic", y, a), logistic_loss(y, a))
    np.testing.assert_array_equal(loss_value("zero_one", y, a), (y * a <= 0).astype(float))


@pytest.mark.parametrize("loss", ["perceptron", "hinge", "logistic"])
def test_derivative_matches_finite_differences_away_from_kinks(loss):
    rng = np.random.default_rng(1)
    y = rng.choice([-1.0, 1.0], size=200)
    a = rng.uniform(-3, 3, size=200)
    keep = (np.abs(y * a) > 1e-3) & (np.abs(y * a - 1) > 1e-3)
    y, a = y[keep], a[keep]
    h = 1e-6
    num = (loss_value(loss, y, a + h) - loss_value(loss, y, a - h)) / (2 * h)
    np.testing.assert_allclose(loss_derivative(loss, y, a), num, atol=1e-6)


@pytest.mark.parametrize("loss,kink", [("perceptron", 0.0), ("hinge", 1.0)])
def test_subgradient_set_at_the_kink(loss, kink):
    # at the kink every -t*y with t in [0, 1] satisfies the subgradient inequality
    # l(m') >= l(m) + g*(a' - a) for all a' (checked on a grid), and t outside [0, 1] does not.
    for y in (-1.0, 1.0):
        a = kink * y
        grid = np.linspace(-4, 4, 801)
        for t in (0.0, 0.3, 1.0):
            g = loss_derivative(loss, [y], [a], at_zero=t)[0]
            assert g == -t * y
            assert np.all(
                loss_value(loss, np.full_like(grid, y), grid)
                >= loss_value(loss, [y], [a])[0] + g * (grid - a) - 1e-12
            )
        for t in (-0.2, 1.2):
            g = -t * y
            assert np.any(
                loss_value(loss, np.full_like(grid, y), grid)
                < loss_value(loss, [y], [a])[0] + g * (grid - a) - 1e-9
            )


def test_logistic_derivative_is_stable_for_large_activations():
    g = loss_derivative("logistic", [1.0, 1.0, -1.0], [800.0, -800.0, 800.0])
    np.testing.assert_allclose(g, [0.0, -1.0, 1.0])
    assert np.all(np.isfinite(g))


def test_subgradient_of_one_example():
    gw, gb = subgradient([1.0, 2.0], -1, [1.0, 1.0], 0.0)  # a = 3, y a = -3: gradient -y(x, 1)
    np.testing.assert_array_equal(gw, [1.0, 2.0])
    assert gb == 1.0
    gw, gb = subgradient([1.0, 2.0], 1, [1.0, 1.0], 0.0, loss="hinge")  # y a = 3 > 1: zero
    np.testing.assert_array_equal(gw, [0.0, 0.0])
    assert gb == 0.0
    with pytest.raises(ValueError, match="same length"):
        subgradient([1.0, 2.0], 1, [1.0], 0.0)


def test_objective_is_the_mean_loss():
    X, y = worked_example()
    w, b = np.array([1.0, -0.5]), 0.25
    expected = np.mean(np.maximum(0, -y * (X @ w + b)))
    assert objective(X, y, w, b) == pytest.approx(expected)


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize("eta", [1.0, 0.1, 0.37])
def test_sgd_on_perceptron_loss_is_the_perceptron_bit_for_bit(order, eta):
    X, y = make_separable(60, 4, margin=0.05, random_state=3)
    sgd = LinearSGD(
        loss="perceptron", eta=eta, order=order, random_state=7, record=True, max_iter=500
    ).fit(X, y)
    pla = Perceptron(eta=eta, order=order, random_state=7, record=True, max_iter=500).fit(X, y)
    assert np.array_equal(sgd.coef_, pla.coef_) and sgd.intercept_ == pla.intercept_
    assert sgd.n_iter_ == pla.n_iter_ and sgd.n_updates_ == pla.n_updates_ and sgd.converged_
    assert len(sgd.history_) == len(pla.history_)
    for s, p in zip(sgd.history_, pla.history_):
        assert s.index == p.index and s.updated == p.updated and s.activation == p.activation
        assert np.array_equal(s.w, p.w) and s.b == p.b


def test_sgd_matches_the_perceptron_on_noisy_data_until_max_iter():
    X, y = make_noisy(80, 2, flip=0.1, random_state=2)
    sgd = LinearSGD(max_iter=7).fit(X, y)
    with pytest.warns(Warning):
        pla = Perceptron(max_iter=7).fit(X, y)
    assert np.array_equal(sgd.coef_, pla.coef_) and sgd.intercept_ == pla.intercept_
    assert not sgd.converged_ and sgd.n_iter_ == 7


def test_at_zero_zero_never_leaves_the_origin():
    # with t = 0 at the kink, w = 0 (all activations 0) is a fixed point: a valid subgradient,
    # no progress
    X, y = worked_example()
    sgd = LinearSGD(at_zero=0.0).fit(X, y)
    assert np.all(sgd.coef_ == 0) and sgd.intercept_ == 0 and sgd.converged_ and sgd.n_updates_ == 0


def test_hinge_sgd_reaches_margin_one_on_separable_data():
    X, y = make_separable(40, 2, margin=0.2, random_state=0)
    sgd = LinearSGD(loss="hinge", eta=0.5, max_iter=5000).fit(X, y)
    assert sgd.converged_
    ys = np.where(y == 1, 1, -1)
    assert np.all(ys * (X @ sgd.coef_ + sgd.intercept_) >= 1 - 1e-12)


def test_logistic_sgd_decreases_the_objective_and_never_converges():
    X, y = make_noisy(100, 2, flip=0.1, random_state=4)
    sgd = LinearSGD(loss="logistic", eta=0.05, max_iter=30, order="shuffle", random_state=0).fit(
        X, y
    )
    assert not sgd.converged_ and sgd.n_iter_ == 30 and sgd.objective_.shape == (30,)
    assert sgd.objective_[-1] < np.log(2)  # below the loss of w = 0
    ys = np.where(y == 1, 1.0, -1.0)
    assert sgd.objective_[-1] == pytest.approx(
        objective(X, ys, sgd.coef_, sgd.intercept_, loss="logistic")
    )
    assert sgd.score(X, y) > 0.8


def test_one_manual_logistic_step():
    X = np.array([[2.0, -1.0]])
    y = np.array([1])
    w0, b0 = np.array([0.5, 0.5]), 0.0
    sgd = LinearSGD(loss="logistic", eta=0.3, max_iter=1).fit(
        np.vstack([X, -X]), np.append(y, 0), coef_init=w0, intercept_init=b0
    )
    # step 1 on (x, +1): a = 0.5, c = 0.3 * sigma(-0.5); step 2 on (-x, -1)
    c1 = 0.3 / (1 + np.exp(0.5))
    w1, b1 = w0 + c1 * X[0], b0 + c1
    a2 = -X[0] @ w1 + b1
    c2 = -0.3 / (1 + np.exp(-a2))  # eta * y * sigma(-y a) with y = -1
    np.testing.assert_allclose(sgd.coef_, w1 + c2 * (-X[0]))
    assert sgd.intercept_ == pytest.approx(b1 + c2)
    assert sgd.classes_.tolist() == [0, 1]  # the trace's labels: 1 is the +1 class, 0 the -1 class


def test_labels_inputs_and_errors():
    X, y = worked_example()
    Xc, yc = X.copy(), y.copy()
    labels = np.where(y == 1, "spam", "ham")
    clf = LinearSGD(fit_intercept=False).fit(X, labels)
    assert clf.intercept_ == 0.0
    # "spam" > "ham", so "spam" is the +1 class: predict is sign(w.x) with sign(0) = +1; both labels
    # occur
    expected = np.where(X @ clf.coef_ >= 0, "spam", "ham")
    assert clf.predict(X).tolist() == expected.tolist() and set(expected) == {"spam", "ham"}
    np.testing.assert_array_equal(X, Xc)
    np.testing.assert_array_equal(y, yc)
    for kwargs, msg in [
        ({"loss": "squared"}, "loss"),
        ({"order": "random-mistake"}, "order"),
        ({"at_zero": 2.0}, "at_zero"),
        ({"at_zero": True}, "at_zero"),
        ({"eta": 0}, "eta"),
        ({"max_iter": 0}, "max_iter"),
        ({"record": 1}, "record"),
    ]:
        with pytest.raises(ValueError, match=msg):
            LinearSGD(**kwargs).fit(X, y)
    with pytest.raises(ValueError, match="-1 and \\+1"):
        loss_value("hinge", [0, 1], [1.0, 1.0])
    with pytest.raises(ValueError, match="loss"):
        loss_value("squared", [1], [1.0])
    assert "history_" not in LinearSGD().fit(X, y).__dict__
    # each loss named in LOSSES is the formula of the notes at a few activations
    ys, a = np.array([1.0, -1.0, 1.0, -1.0]), np.array([2.0, 0.5, 0.0, -3.0])
    formulas = {
        "perceptron": np.maximum(0.0, -ys * a),
        "hinge": np.maximum(0.0, 1.0 - ys * a),
        "logistic": np.log1p(np.exp(-ys * a)),
    }
    assert set(LOSSES) == set(formulas)
    for name in LOSSES:
        np.testing.assert_allclose(loss_value(name, ys, a), formulas[name], rtol=1e-15, atol=0)


def test_error_messages_word_for_word():
    with pytest.raises(
        ValueError,
        match=r"^loss must be one of 'perceptron', 'hinge', 'logistic', 'zero_one'; "
        r"got 'squared'\.$",
    ):
        loss_value("squared", [1], [1.0])
    with pytest.raises(
        ValueError,
        match=r"^loss must be one of 'perceptron', 'hinge', 'logistic'; got 'zero_one'\.$",
    ):
        loss_derivative("zero_one", [1], [1.0])  # the 0-1 loss has no useful subgradient
    with pytest.raises(ValueError, match=r"^y must hold the labels -1 and \+1 here\.$"):
        loss_value("hinge", [0, 1], [1.0, 1.0])
    with pytest.raises(ValueError, match=r"^y must hold the labels -1 and \+1 here\.$"):
        loss_derivative("hinge", [2], [1.0])
    with pytest.raises(
        ValueError,
        match=r"^x and w must be 1-D of the same length; got shapes \(2,\) and \(1,\)\.$",
    ):
        subgradient([1.0, 2.0], 1, [1.0], 0.0)


@pytest.mark.parametrize("bad", [True, False, np.True_, 1.5, -0.1, 2.0, np.nan, "0.5", None])
def test_at_zero_outside_zero_one_or_not_a_number_is_refused(bad):
    msg = (
        r"^at_zero must be a number in \[0, 1\], the subgradient set at the kink; got "
        + re.escape(repr(bad))
        + r"\.$"
    )
    with pytest.raises(ValueError, match=msg):
        loss_derivative("perceptron", [1], [0.0], at_zero=bad)
    with pytest.raises(ValueError, match=msg):
        subgradient([1.0], 1, [0.0], 0.0, at_zero=bad)


def test_at_zero_boundaries_are_accepted():
    # 0 and 1 (int or float) are the ends of the subgradient set -t*y, 0 <= t <= 1, at the kink
    for t in (0, 0.0, 1, 1.0, np.float32(0.5)):
        g = loss_derivative("perceptron", [1.0, -1.0], [0.0, 0.0], at_zero=t)
        np.testing.assert_array_equal(g, [-float(t), float(t)])
        g = loss_derivative("hinge", [1.0, -1.0], [1.0, -1.0], at_zero=t)
        np.testing.assert_array_equal(g, [-float(t), float(t)])


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8, np.uint64, np.float16, np.float32])
def test_labels_of_any_numeric_dtype_give_the_float64_results(dtype):
    # y holds -1 and +1 (only +1 for unsigned types, where -y would wrap around to 2**k - 1)
    signed = np.dtype(dtype).kind != "u"
    y64 = np.array([1.0, -1.0, 1.0, -1.0] if signed else [1.0, 1.0, 1.0, 1.0])
    y = y64.astype(dtype)
    a = np.array([-2.5, 0.0, 0.75, 3.0])
    for loss in ("perceptron", "hinge", "logistic"):
        g = loss_derivative(loss, y, a, at_zero=0.5)
        assert g.dtype == np.float64
        np.testing.assert_array_equal(g, loss_derivative(loss, y64, a, at_zero=0.5))
    for loss in ("perceptron", "hinge", "logistic", "zero_one"):
        np.testing.assert_array_equal(loss_value(loss, y, a), loss_value(loss, y64, a))


def test_zero_one_loss_counts_a_margin_of_exactly_zero_as_a_mistake():
    # the 0-1 loss is 1 where y a <= 0 (the margin rule's mistakes): a point on the boundary
    # counts, whatever its label and the sign of the zero
    y = [1.0, -1.0, 1.0, -1.0, 1.0, 1.0]
    a = [0.0, 0.0, -0.0, -0.0, 1e-300, -1e-300]
    np.testing.assert_array_equal(loss_value("zero_one", y, a), [1.0, 1.0, 1.0, 1.0, 0.0, 1.0])
    assert loss_value("zero_one", y, a).dtype == np.float64


@pytest.mark.parametrize("loss,flat", [("perceptron", [0.0, 2.5]), ("hinge", [1.0, 7.0])])
def test_derivative_is_plus_zero_on_the_flat_part(loss, flat):
    # where the loss is flat (and at the kink with at_zero=0) the derivative is 0.0, never -0.0
    # (it would print as "-0." in the notebooks)
    for y in (1.0, -1.0):
        for m in flat:
            for t in (0.0, 1.0):
                if m == flat[0] and t == 1.0:
                    continue  # at the kink with t = 1: -y, not 0
                g = loss_derivative(loss, [y], [m * y], at_zero=t)
                assert g[0] == 0.0 and not np.signbit(g[0]), (y, m, t, g)


def test_subgradient_uses_the_intercept_and_at_zero():
    # w.x = 1 and b = -1: a = 0, the kink of the perceptron loss, where the subgradient is
    # -t y (x, 1)
    x, w, b = [1.0, 2.0], [1.0, 0.0], -1.0
    for y in (1, -1):
        gw, gb = subgradient(x, y, w, b, at_zero=0.25)
        np.testing.assert_array_equal(gw, [-0.25 * y, -0.5 * y])
        assert gb == -0.25 * y
    # w.x = 0 and b = 2: a = 2, y a = 2 > 1, the hinge is flat: a zero subgradient
    gw, gb = subgradient(x, 1, [0.0, 0.0], 2.0, loss="hinge")
    np.testing.assert_array_equal(gw, [0.0, 0.0])
    assert gb == 0.0
    # the same point with y = -1: y a = -2 < 1, the gradient -y (x, 1)
    gw, gb = subgradient(x, -1, [0.0, 0.0], 2.0, loss="hinge")
    np.testing.assert_array_equal(gw, [1.0, 2.0])
    assert gb == 1.0


@pytest.mark.parametrize("loss,at_zero", [("perceptron", 0.3), ("logistic", 1.0)])
def test_subgradient_of_float32_input_is_float64(loss, at_zero):
    # dl/da times (x, 1), computed in double precision whatever x's dtype
    x = np.array([0.1, 3.0, -7.3], dtype=np.float32)
    w = np.array([0.0, 0.0, 0.0], dtype=np.float32)
    gw, gb = subgradient(x, 1, w, 0.0, loss=loss, at_zero=at_zero)
    assert gb == (-0.3 if loss == "perceptron" else -0.5)
    assert gw.dtype == np.float64
    np.testing.assert_array_equal(gw, gb * x.astype(np.float64))


def test_defaults_are_the_documented_ones():
    # every "default=" of the Parameters section is what get_params gives; cleandoc because
    # Python 3.13 strips a docstring's common indentation when it compiles it, older ones do not
    doc = inspect.cleandoc(LinearSGD.__doc__).split("Parameters")[1].split("Attributes")[0]
    documented = {
        name: ast.literal_eval(value)
        for name, value in re.findall(r"^(\w+) : .*default=(.+)$", doc, flags=re.M)
    }
    assert documented == LinearSGD().get_params()


def _sgd_oracle(X, y, w, b, *, loss, eta, max_iter, order, seed, at_zero=1.0):
    """The pseudocode of the module docstring, as a plain loop over Python floats."""
    rng = np.random.default_rng(seed)
    w, b = [float(v) for v in w], float(b)
    kink = 0.0 if loss == "perceptron" else 1.0
    steps, n_updates, epoch, converged = [], 0, 0, False
    for epoch in range(1, max_iter + 1):
        moved = 0
        for i in rng.permutation(len(X)) if order == "shuffle" else range(len(X)):
            x, yi = [float(v) for v in X[i]], float(y[i])
            a = b
            for wj, xj in zip(w, x):
                a += wj * xj
            m = yi * a
            t = 1.0 if m < kink else (at_zero if m == kink else 0.0)
            c = eta * t * yi  # c = -eta * dl/da, dl/da = -t y
            if c != 0.0:
                w = [wj + c * xj for wj, xj in zip(w, x)]
                b += c
                moved += 1
            steps.append((epoch, int(i), x, yi, a, 1.0 if a >= 0 else -1.0, c != 0.0, list(w), b))
        n_updates += moved
        if moved == 0:
            converged = True
            break
    return steps, w, b, epoch, n_updates, converged


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize("loss", ["perceptron", "hinge"])
def test_recorded_steps_match_a_plain_loop(loss, order):
    # dyadic data: every sum below is exact, so the oracle and perclib agree to the bit
    X = np.array([[1.0, 5.0], [2.0, -1.0], [-1.0, 0.5], [0.5, 0.5], [-2.0, -1.5], [0.25, 1.0]])
    y = np.array([1, -1, 1, -1, -1, 1])
    w0, b0 = np.array([1.0, 0.0]), -1.0  # a = 0 on the first row: the kink of the perceptron loss
    sgd = LinearSGD(loss=loss, eta=0.5, max_iter=6, order=order, random_state=1, record=True).fit(
        X, y, coef_init=w0, intercept_init=b0
    )
    steps, w, b, n_iter, n_updates, converged = _sgd_oracle(
        X, y, w0, b0, loss=loss, eta=0.5, max_iter=6, order=order, seed=1
    )
    activations = [s[4] for s in steps]
    # the trace covers a = 0, 0 < a < 1 and a < 0 (where y_hat is +1, +1 and -1)
    assert 0.0 in activations and any(0 < a < 1 for a in activations)
    assert any(a < 0 for a in activations) and len({s[0] for s in steps}) > 1
    assert len(sgd.history_) == len(steps)
    for s, (epoch, i, x, yi, a, y_hat, updated, ws, bs) in zip(sgd.history_, steps):
        assert (s.epoch, s.index, s.y, s.activation, s.y_hat, s.updated, s.b) == (
            epoch,
            i,
            yi,
            a,
            y_hat,
            updated,
            bs,
        )
        assert s.x.tolist() == x and s.w.tolist() == ws
    assert sgd.coef_.tolist() == w and sgd.intercept_ == b
    assert (sgd.n_iter_, sgd.n_updates_, sgd.converged_) == (n_iter, n_updates, converged)


def test_sgd_is_the_perceptron_on_rows_whose_squared_norm_underflows():
    # x = 2**-540 (1, ..., 1): its squares underflow to 0. w.x is 2**-500 times 2**53 + 1 - 2**53,
    # which is 1 summed one way (numpy.dot here) and 0 left to right; with b = -2**-501 the sign of
    # a rests on the order of summation, and the tie band (it needs ||x||, not 0) must send it to
    # the left-to-right sum, as Perceptron does
    d = 16
    x = np.full(d, 2.0**-540)
    w0 = np.zeros(d)
    w0[:3] = [2.0**93, 2.0**40, -(2.0**93)]  # the products 2**-447, 2**-500, -2**-447: exact
    X, y = np.vstack([x, -x]), np.array([1, -1])
    b0 = -(2.0**-501)
    sgd = LinearSGD(max_iter=1, record=True).fit(X, y, coef_init=w0, intercept_init=b0)
    with pytest.warns(Warning):  # max_iter reached
        pla = Perceptron(max_iter=1, record=True).fit(X, y, coef_init=w0, intercept_init=b0)
    assert sgd.history_[0].activation == b0 and sgd.history_[0].updated  # the left-to-right sum
    assert [s.activation for s in sgd.history_] == [s.activation for s in pla.history_]
    assert np.array_equal(sgd.coef_, pla.coef_) and sgd.intercept_ == pla.intercept_


@pytest.mark.parametrize("loss", ["perceptron", "hinge", "logistic"])
def test_an_update_that_overflows_is_a_clear_error(loss):
    """At X = +-1e200 and eta = 1e200 the first update makes w infinite: a ValueError that says
    so, as Perceptron raises (no silent coef_ = inf, no RuntimeWarning)."""
    X = np.array([[1e200, 1e200], [-1e200, -1e200]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="^Floating-point overflow: an update made the"):
            LinearSGD(loss=loss, eta=1e200).fit(X, [1, -1])


@pytest.mark.parametrize("loss", ["perceptron", "hinge"])
def test_an_objective_past_the_largest_float_is_inf_without_a_warning(loss):
    """At 1e200 the weights stay finite (about 1e200) but every activation overflows: the mean
    training loss after each epoch is then +inf, reported as such, and no RuntimeWarning escapes
    the fit (the numbers are what IEEE arithmetic gives; warnings are turned into errors here)."""
    X, y = make_separable(40, 3, margin=0.1, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = LinearSGD(loss=loss, max_iter=3).fit(X * 1e200, y)
    assert np.all(np.isfinite(model.coef_)) and model.objective_.shape == (3,)
    assert np.all(np.isposinf(model.objective_))
