"""Tests for perclib.sgd: losses, subgradients, and SGD = the perceptron on the perceptron loss."""

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
