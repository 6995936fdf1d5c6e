"""perclib.theory against independent solvers, duality certificates and brute force."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

from perclib import Perceptron
from perclib.datasets import make_separable, make_xor, worked_example
from perclib.theory import (
    _min_norm_point,
    geometric_max_margin,
    hinge_loss,
    logistic_loss,
    margin,
    max_margin,
    mistake_bound,
    perceptron_criterion,
    perceptron_loss,
    perceptron_subgradient,
    radius,
)


def _augmented(X, y):
    ys = np.where(y == np.max(y), 1.0, -1.0)
    return np.hstack([np.ones((len(X), 1)), X]) * ys[:, None]


def _slsqp_margin(X, y):
    """An independent solver: the primal QP min ||v||^2 / 2 subject to y_i v.(1, x_i) >= 1."""
    Z = _augmented(X, y)
    v0 = np.linalg.lstsq(Z, np.ones(len(Z)), rcond=None)[0]
    res = minimize(
        lambda v: 0.5 * v @ v,
        v0 * 2,
        jac=lambda v: v,
        method="SLSQP",
        constraints=[{"type": "ineq", "fun": lambda v: Z @ v - 1, "jac": lambda v: Z}],
        options={"ftol": 1e-12, "maxiter": 1000},
    )
    assert res.success, res.message
    return 1.0 / np.linalg.norm(res.x), res.x / np.linalg.norm(res.x)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 40),
    d=st.integers(1, 5),
    margin_=st.floats(0.02, 0.4),
    seed=st.integers(0, 10_000),
)
def test_max_margin_agrees_with_an_independent_solver(n, d, margin_, seed):
    X, y = make_separable(n, d, margin_, random_state=seed)
    w, b, gamma = max_margin(X, y)
    assert np.isclose(np.hypot(np.linalg.norm(w), b), 1.0, rtol=0, atol=1e-12)
    assert gamma == pytest.approx(np.min(np.where(y > 0, 1, -1) * (X @ w + b)), rel=1e-12)
    gamma_qp, v_qp = _slsqp_margin(X, y)
    assert gamma == pytest.approx(gamma_qp, rel=1e-6)
    assert np.allclose(
        np.r_[b, w], v_qp, atol=1e-4
    )  # the direction is unique; SLSQP's is less exact


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 60),
    d=st.integers(1, 6),
    margin_=st.floats(0.0, 0.3),
    seed=st.integers(0, 10_000),
)
def test_min_norm_point_has_a_duality_certificate(n, d, margin_, seed):
    """p = sum lam_i z_i with lam in the simplex, and min_i z_i.p >= ||p||^2: then no unit u does
    better than ||p|| (min_i z_i.u <= p.u <= ||p||), so gamma* = ||p|| exactly, whatever algorithm
    found p."""
    X, y = make_separable(n, d, margin_, random_state=seed)
    Z = _augmented(X, y)
    p, S, lam = _min_norm_point(Z)
    assert np.all(lam > 0) and lam.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.allclose(lam @ Z[S], p, atol=1e-12)
    pp = p @ p
    assert np.min(Z @ p) >= pp * (1 - 1e-9)
    assert max_margin(X, y)[2] == pytest.approx(np.sqrt(pp), rel=1e-9)


def test_min_norm_point_of_random_point_clouds_has_a_certificate():
    """300 seeded point clouds (2 to 11 points in 1 to 4 dimensions, some around the origin, some
    shifted away from it): Wolfe's minor cycle drops points from the support here, which the
    augmented data above rarely makes it do. Each answer carries the certificate: lam in the
    simplex, p = lam @ P[S], and either min_i P_i.p >= ||p||^2 or p = 0 (the origin in the hull)."""
    rng = np.random.default_rng(1)
    zero = 0
    for _ in range(300):
        n, d = int(rng.integers(2, 12)), int(rng.integers(1, 5))
        P = rng.normal(size=(n, d)) + rng.normal(size=d) * rng.uniform(0, 3)
        p, S, lam = _min_norm_point(P)
        assert np.all(lam > 0) and lam.sum() == pytest.approx(1.0, abs=1e-12)
        assert np.allclose(lam @ P[S], p, atol=1e-12)
        pp = p @ p
        if pp > 0:
            assert np.min(P @ p) >= pp * (1 - 1e-9)
        else:
            zero += 1
    assert 20 < zero < 280  # both kinds of answer occurred


def test_max_margin_with_far_more_features_than_points():
    """Two points in 30 dimensions (the step cap grows with n + d, never below 1000 steps): the
    maximum margin is found, and it is the margin of the separator returned."""
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(2, 30)), np.array([1, -1])
    w, b, gamma = max_margin(X, y)
    assert gamma > 0 and margin(X, y, w, b) == pytest.approx(gamma, rel=1e-12)
    # with two points the min-norm point of the segment [z_1, z_2] has a closed form
    Z = _augmented(X, y)
    t = np.clip((Z[1] - Z[0]) @ Z[1] / ((Z[1] - Z[0]) @ (Z[1] - Z[0])), 0.0, 1.0)
    assert gamma == pytest.approx(np.linalg.norm(t * Z[0] + (1 - t) * Z[1]), rel=1e-12)


def test_max_margin_by_hand():
    # +1 at x = 2, -1 at x = 0: the bias counts in the norm, so (b, w) = (-1, 1)/sqrt(2)
    w, b, gamma = max_margin([[2.0], [0.0]], [1, -1])
    assert (
        w[0] == pytest.approx(2**-0.5)
        and b == pytest.approx(-(2**-0.5))
        and gamma == pytest.approx(2**-0.5)
    )
    # brute force over directions on the circle
    angles = np.linspace(0, 2 * np.pi, 200_001)
    U = np.c_[np.cos(angles), np.sin(angles)]
    Z = _augmented(np.array([[2.0], [0.0]]), np.array([1, -1]))
    assert gamma == pytest.approx(np.max(np.min(Z @ U.T, axis=0)), rel=1e-8)


def test_max_margin_brute_force_in_2d():
    X, y = worked_example()
    _, _, gamma = max_margin(X, y)
    rng = np.random.default_rng(0)
    U = rng.normal(size=(400_000, 3))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    best = np.max(np.min(_augmented(X, y) @ U.T, axis=0))
    assert best <= gamma * (1 + 1e-12) and best > 0.97 * gamma


def test_not_separable_raises():
    for X, y in (make_xor(), (np.array([[1.0], [1.0]]), np.array([1, -1]))):
        with pytest.raises(ValueError, match="not linearly separable"):
            max_margin(X, y)
        with pytest.raises(ValueError, match="not linearly separable"):
            mistake_bound(X, y)


def test_radius_and_margin():
    X = np.array([[3.0, 4.0], [0.0, 1.0]])
    assert radius(X) == pytest.approx(np.sqrt(26))
    assert margin(X, [1, -1], [0.0, -1.0], 2.0) == pytest.approx(-2 / np.sqrt(5))
    assert margin([[1.0], [-1.0]], ["b", "a"], [2.0], 0.0) == 1.0
    with pytest.raises(ValueError, match="all zero"):
        margin(X, [1, -1], [0.0, 0.0], 0.0)
    with pytest.raises(ValueError, match="shape"):
        margin(X, [1, -1], [1.0], 0.0)


def independent_bound(X, y):
    """Novikoff's (R / gamma*)^2 with nothing from perclib: R = max ||(1, x_i)|| by math.hypot over
    the entries, gamma* by SLSQP on the primal QP (:func:`_slsqp_margin`)."""
    R = max(math.hypot(1.0, *x) for x in np.asarray(X, dtype=float).tolist())
    gamma, _ = _slsqp_margin(np.asarray(X, dtype=float), np.asarray(y))
    return (R / gamma) ** 2, R, gamma


def test_mistake_bound_holds_for_the_worked_example():
    X, y = worked_example()
    bound = mistake_bound(X, y)
    for rule in ("margin", "prediction"):
        assert Perceptron(rule=rule).fit(X, y).n_updates_ <= bound
    expected, R, _ = independent_bound(X, y)
    assert R == math.sqrt(6.0)  # the point (1, 2): 1 + 1 + 4
    assert bound == pytest.approx(expected, rel=1e-6)  # SLSQP's tolerance


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(2, 30),
    d=st.integers(1, 4),
    margin_=st.floats(0.02, 0.3),
    seed=st.integers(0, 10_000),
    order=st.sampled_from(["cyclic", "shuffle", "random-mistake"]),
    eta=st.sampled_from([1.0, 0.1, 7.0]),
)
def test_mistake_bound_is_novikoffs_from_independent_R_and_gamma(n, d, margin_, seed, order, eta):
    """mistake_bound equals (R/gamma*)^2 computed without perclib, and no run exceeds it (30 data
    sets per run of the suite, each with one order and one eta; the bound held in all)."""
    X, y = make_separable(n, d, margin_, random_state=seed)
    expected, _, _ = independent_bound(X, y)
    assert mistake_bound(X, y) == pytest.approx(expected, rel=1e-6)
    clf = Perceptron(order=order, eta=eta, max_iter=int(expected) + 2, random_state=seed).fit(X, y)
    assert clf.converged_ and clf.n_updates_ <= expected


def test_losses():
    y, a = np.array([1, -1, 1, -1]), np.array([2.0, 0.5, 0.0, -3.0])
    assert perceptron_loss(y, a).tolist() == [0.0, 0.5, 0.0, 0.0]
    assert hinge_loss(y, a).tolist() == [0.0, 1.5, 1.0, 0.0]
    assert logistic_loss(y, a) == pytest.approx(np.log1p(np.exp(-y * a)))
    with pytest.raises(ValueError, match="-1 and \\+1"):
        perceptron_loss([0, 1], [1.0, 1.0])


def test_criterion_is_convex_along_random_segments():
    X, y = make_separable(30, 2, 0.0, random_state=1)
    rng = np.random.default_rng(0)
    for _ in range(200):
        p, q = rng.normal(size=(2, 3))
        t = rng.random()
        mid = t * p + (1 - t) * q
        lhs = perceptron_criterion(X, y, mid[1:], mid[0])
        rhs = t * perceptron_criterion(X, y, p[1:], p[0]) + (1 - t) * perceptron_criterion(
            X, y, q[1:], q[0]
        )
        assert lhs <= rhs + 1e-12


def test_subgradient_step_is_the_perceptron_update():
    X, y = worked_example()
    clf = Perceptron(record=True).fit(X, y)
    w, b = np.zeros(2), 0.0
    for s in clf.history_:
        gw, gb = perceptron_subgradient(s.x[None, :], [s.y], w, b)
        w, b = w - gw, b - gb  # one SGD step with eta = 1 on one example
        assert w.tolist() == s.w.tolist() and b == s.b


def test_subgradient_set_at_the_kink_and_inequality():
    X, y = make_separable(25, 2, 0.0, random_state=2)
    rng = np.random.default_rng(1)
    for _ in range(100):
        v, u = rng.normal(size=(2, 3))
        gw, gb = perceptron_subgradient(X, y, v[1:], v[0], at_zero=rng.random())
        # the subgradient inequality L(u) >= L(v) + g.(u - v)
        lu = perceptron_criterion(X, y, u[1:], u[0])
        lv = perceptron_criterion(X, y, v[1:], v[0])
        assert lu >= lv + np.r_[gb, gw] @ (u - v) - 1e-9
    # at w = 0 every term sits at its kink: t = 0 gives the zero vector, t = 1 the full sum
    assert perceptron_subgradient(X, y, [0.0, 0.0], 0.0, at_zero=0.0)[1] == 0.0
    with pytest.raises(ValueError, match="at_zero"):
        perceptron_subgradient(X, y, [0.0, 0.0], 0.0, at_zero=2.0)
    with pytest.raises(ValueError, match="-1 or \\+1"):
        perceptron_subgradient([[1.0]], [0], [0.0], 0.0)


def test_margin_uses_b_squared_in_the_norm():
    """b = 3, where b**2 = 9 and 2*b = 6 differ: min(1*(1+3), -1*(-1+3)) / sqrt(1 + 9) =
    -2/sqrt(10)."""
    assert margin([[1.0, 0.0], [-1.0, 0.0]], [1, -1], w=[1.0, 0.0], b=3.0) == pytest.approx(
        -2 / math.sqrt(10), rel=1e-15
    )


def test_subgradient_with_two_named_classes():
    """Labels "a" < "b": "b" is +1. At w = 0 every y*a is 0, so t = at_zero = 1 and
    g = -sum y_i (x_i, 1) = -(-1*(1, 1) + 1*(2, 1)) = (-1, 0)."""
    g_w, g_b = perceptron_subgradient([[1.0], [2.0]], ["a", "b"], w=[0.0], b=0.0)
    assert g_w.tolist() == [-1.0] and g_b == 0.0


def test_theory_error_messages_word_for_word():
    X, y = make_xor()
    with pytest.raises(
        ValueError,
        match=r"^The data is not linearly separable: no \(w, b\) puts every "
        r"point strictly on its own side, so there is no maximum margin "
        r"\(and no mistake bound\)\.$",
    ):
        max_margin(X, y)
    with pytest.raises(ValueError, match=r"^this function needs exactly 2 classes in y; got 1"):
        max_margin([[1.0], [2.0]], [1, 1])
    with pytest.raises(
        ValueError, match=r"^y must hold labels -1 and \+1 for the perceptron loss\.$"
    ):
        perceptron_loss([0, 1], [1.0, 1.0])
    with pytest.raises(ValueError, match=r"^With a single class present, y must hold -1 or \+1\.$"):
        perceptron_subgradient([[1.0]], [0], w=[0.0], b=0.0)
    with pytest.raises(
        ValueError,
        match=r"^w and b are all zero: the zero vector does not define a "
        r"separator\.$",
    ):
        margin([[1.0], [-1.0]], [1, -1], [0.0], 0.0)


# -- the geometric (hard-margin SVM) maximum margin, against scikit-learn's SVC -------------------


def _svc_margin(X, y):
    """The oracle: scikit-learn's SVC(kernel="linear") with a huge C is the hard-margin SVM; its
    margin is 1 / ||w|| and its line w.x + b = 0."""
    from sklearn.svm import SVC

    svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    w, b = svc.coef_[0], svc.intercept_[0]
    norm = np.linalg.norm(w)
    return w / norm, b / norm, 1.0 / norm


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("d", [2, 3])
def test_geometric_max_margin_agrees_with_svc(seed, d):
    X, y = make_separable(40, d, 0.1, random_state=seed)
    w, b, gamma = geometric_max_margin(X, y)
    assert np.linalg.norm(w) == pytest.approx(1.0, abs=1e-12)
    ys = np.where(y > 0, 1, -1)
    assert gamma == pytest.approx(np.min(ys * (X @ w + b)), rel=1e-12)
    w_svc, b_svc, gamma_svc = _svc_margin(X, y)
    # SVC is an iterative solver (stopping at tol): its line, measured exactly on the data, is never
    # wider than ours, and agrees to 1e-5
    assert np.min(ys * (X @ w_svc + b_svc)) <= gamma * (1 + 1e-12)
    assert gamma == pytest.approx(gamma_svc, rel=1e-5)
    assert np.allclose(w, w_svc, atol=1e-4) and b == pytest.approx(b_svc, abs=1e-4)


@pytest.mark.parametrize("seed", range(8))
def test_geometric_max_margin_has_a_certificate(seed):
    """Exactness without a solver: 2 gamma w = p - q with p in the hull of the +1 points and q in
    the hull of the -1 points (found by non-negative least squares on the points touching the band).
    Every separating band is at most ||p - q|| wide, and ours is exactly that wide: none is wider.
    """
    from scipy.optimize import nnls

    X, y = make_separable(60, 3, 0.05, random_state=seed)
    w, b, gamma = geometric_max_margin(X, y)
    ys = np.where(y > 0, 1, -1)
    dist = ys * (X @ w + b)
    assert np.isclose(dist[ys > 0].min(), gamma, rtol=1e-9) and np.isclose(
        dist[ys < 0].min(), gamma, rtol=1e-9
    )
    P, Q = X[(ys > 0) & (dist < gamma * (1 + 1e-7))], X[(ys < 0) & (dist < gamma * (1 + 1e-7))]
    A = np.block(
        [
            [P.T, -Q.T],
            [np.ones((1, len(P))), np.zeros((1, len(Q)))],
            [np.zeros((1, len(P))), np.ones((1, len(Q)))],
        ]
    )
    coef, resid = nnls(A, np.r_[2 * gamma * w, 1.0, 1.0])
    assert resid < 1e-9


def test_two_margins_by_hand():
    """x+ = (3, 1), x- = (1, 1): the widest band is x1 = 2 (half-width 1); the augmented optimum is
    x1 - x2 - 1 = 0, whose band in the input plane is only 1/sqrt(2) wide on each side."""
    X, y = [[3.0, 1.0], [1.0, 1.0]], [1, -1]
    w, b, gamma = geometric_max_margin(X, y)
    assert np.allclose(w, [1, 0]) and b == pytest.approx(-2) and gamma == pytest.approx(1)
    wa, ba, gamma_star = max_margin(X, y)
    assert np.allclose(np.r_[ba, wa] * np.sqrt(3), [-1, 1, -1])
    assert gamma_star == pytest.approx(1 / np.sqrt(3))
    assert margin(X, y, wa, ba) * np.sqrt(3) / np.sqrt(2) == pytest.approx(1 / np.sqrt(2))


def test_the_two_margins_differ_on_random_draws():
    """The lines differ on some make_separable(40, 2, 0.1) draws (the issue counts 24 of 300)."""
    differ = 0
    for seed in range(60):
        X, y = make_separable(40, 2, 0.1, random_state=seed)
        w, b, _ = geometric_max_margin(X, y)
        wa, ba, _ = max_margin(X, y)
        line_a = np.r_[ba, wa] / np.linalg.norm(wa)
        differ += not np.allclose(np.r_[b, w], line_a, atol=1e-6)
    assert 0 < differ < 60


def test_geometric_max_margin_rejects_inseparable_data():
    with pytest.raises(ValueError, match="not linearly separable"):
        geometric_max_margin(*make_xor())
    with pytest.raises(ValueError, match="exactly 2 classes"):
        geometric_max_margin([[0.0], [1.0]], [1, 1])


# -- Wolfe's algorithm at every magnitude, and the details a mutation run found untested ----------


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 12),
    d=st.integers(1, 5),
    shift=st.floats(0.0, 3.0),
    exponent=st.floats(-150.0, 150.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_min_norm_point_is_certified_at_every_magnitude(n, d, shift, exponent, seed):
    """A certificate, whatever the scale of the points: lam is in the simplex with
    p = lam @ P[S], and either p = 0 with lam @ P[S] = 0 to rounding (the origin is in the hull),
    or min_i P_i.p >= ||p||^2 to rounding (no point of the hull is shorter than p). Rounding is
    measured against the largest |P_ij|, since p comes out of sums of rows of that size. Before
    Wolfe's algorithm ran on rescaled points, hulls of size 1e-6 or 1e6 broke it (a wrong point,
    a crash, or no convergence)."""
    rng = np.random.default_rng(seed)
    P = (rng.normal(size=(n, d)) + shift * rng.normal(size=d)) * 10.0**exponent
    p, S, lam = _min_norm_point(P)
    scale = np.max(np.abs(P))
    assert np.all(lam > 0) and lam.sum() == pytest.approx(1.0, rel=0, abs=1e-12)
    assert len(set(S)) == len(S) == len(lam)
    pp = p @ p
    if pp == 0:
        assert np.linalg.norm(lam @ P[S]) <= 1e-10 * scale
    else:
        assert np.allclose(lam @ P[S], p, rtol=0, atol=1e-12 * scale)
        assert np.min(P @ p) >= pp - 1e-11 * scale * np.sqrt(pp)


@pytest.mark.parametrize("c", [1e-150, 1e-8, 1e-6, 1e6, 1e8, 1e150])
def test_geometric_max_margin_scales_with_the_data(c):
    """Scaling the points by c scales the band by c and keeps its direction: the same w, c b and
    c gamma, to rounding. (Before the rescaling inside Wolfe's algorithm, c = 1e-8 was called
    inseparable, c = 1e-6 did not converge and c = 1e6 crashed.)"""
    X, y = make_separable(40, 3, 0.1, random_state=0)
    w, b, gamma = geometric_max_margin(X, y)
    wc, bc, gc = geometric_max_margin(X * c, y)
    assert np.allclose(wc, w, rtol=0, atol=1e-12)
    assert bc / c == pytest.approx(b, rel=1e-12, abs=1e-12)
    assert gc / c == pytest.approx(gamma, rel=1e-12)


@pytest.mark.parametrize("c", [1e-150, 1e-6, 1e6, 1e150])
def test_inseparable_data_is_called_so_at_every_magnitude(c):
    X, y = make_xor()
    with pytest.raises(ValueError, match="^The data is not linearly separable: the convex hulls"):
        geometric_max_margin(X * c, y)
    with pytest.raises(ValueError, match="^The data is not linearly separable: no"):
        max_margin(X * c, y)


def test_min_norm_point_of_one_point_is_that_point_with_weight_one():
    p, S, lam = _min_norm_point(np.array([[3.0, 4.0]]))
    assert p.tolist() == [3.0, 4.0] and S == [0] and lam.tolist() == [1.0]


def test_wolfe_step_cap_word_for_word():
    """The cap on Wolfe's steps (finite in theory, a guard against a rounding loop) raises; with no
    step allowed it raises at once."""
    msg = r"^max_margin did not converge; this should not happen, please report the data\.$"
    with pytest.raises(RuntimeError, match=msg):
        _min_norm_point(np.array([[1.0, 0.0], [0.0, 1.0]]), max_steps=0)


def test_geometric_max_margin_error_word_for_word():
    with pytest.raises(
        ValueError,
        match=r"^The data is not linearly separable: the convex hulls of the two classes meet, "
        r"so there is no band between them \(no geometric margin\)\.$",
    ):
        geometric_max_margin(*make_xor())


def test_no_negative_zeros_in_the_returned_lines():
    """-0.0 prints as "-0." in a student's notebook: every returned w and b has +0.0 instead.
    Each case makes the raw result -0.0: (-0.0) - 0.0 in w, -(1 + -1) / 2 in b, and a support of
    one -1 point whose second feature is 0 in max_margin's w."""
    w, b, _ = geometric_max_margin([[-0.0, 1.0], [0.0, -1.0]], [1, -1])
    assert w.tolist() == [0.0, 1.0] and b == 0.0
    assert not np.signbit(w).any() and not np.signbit(b)
    w, b, gamma = max_margin([[-3.0, 5.0], [1.0, 0.0]], [1, -1])
    assert w == pytest.approx([-(2**-0.5), 0.0]) and b == pytest.approx(-(2**-0.5))
    assert gamma == pytest.approx(2**0.5)
    assert not np.signbit(w[1])


def test_margin_reads_a_float32_w_as_float64():
    """w and b are read as float64 whatever their dtype, so ||(w, b)|| is not rounded to float32:
    a float32 w gives the margin of the same numbers held in float64, to the last bit."""
    X, y = make_separable(30, 3, 0.1, random_state=1)
    w32 = np.array([0.1, -0.7, 0.3], dtype=np.float32)
    assert margin(X, y, w32, 0.2) == margin(X, y, w32.astype(np.float64), 0.2)
    assert margin(X, y, w32.tolist(), 0.2) == margin(X, y, w32.astype(np.float64), 0.2)
