"""Tests for perclib.experiments, against independent oracles (brute force, Monte Carlo,
direct runs)."""

import warnings

import numpy as np
import pytest
from test_oracles import perceptron_loop
from test_theory import independent_bound

from perclib import ConvergenceWarning, Perceptron, PocketPerceptron
from perclib import experiments as E
from perclib.datasets import make_lfd, make_separable, make_xor
from perclib.theory import max_margin, mistake_bound, radius


def test_novikoff_trace_lemmas_hold_on_a_run():
    X, y = make_separable(40, 3, margin=0.05, random_state=1)
    for eta in (1.0, 0.3):
        t = E.novikoff_trace(X, y, eta=eta)
        clf = Perceptron(eta=eta).fit(X, y)
        assert t["updates"] == clf.n_updates_ == t["k"][-1] and t["converged"]
        assert t["bound"] == pytest.approx(mistake_bound(X, y))
        tol = 1e-12 * eta * t["R"] * t["k"]
        assert np.all(t["d_alignment"] >= eta * t["gamma"] - 1e-12 * eta * t["R"])
        assert np.all(
            t["d_sq_norm"] <= eta**2 * t["R"] ** 2 + 1e-12 * eta**2 * t["R"] ** 2 * t["k"]
        )
        assert np.all(t["alignment"] >= t["alignment_bound"] - tol)
        assert np.all(t["sq_norm"] <= t["sq_norm_bound"] * (1 + 1e-12))
        # the last update's weights are the model's (augmented) weights
        v = np.concatenate([[clf.intercept_], clf.coef_])
        assert t["sq_norm"][-1] == pytest.approx(v @ v)


def test_novikoff_trace_increments_are_the_updates():
    X, y = make_separable(20, 2, margin=0.1, random_state=5)
    t = E.novikoff_trace(X, y)
    clf = Perceptron(record=True).fit(X, y)
    w_star, b_star, _ = max_margin(X, y)
    u = np.concatenate([[b_star], w_star])
    steps = [s for s in clf.history_ if s.updated]
    expected = np.array([s.y * (u @ np.concatenate([[1.0], s.x])) for s in steps])
    np.testing.assert_allclose(t["d_alignment"], expected, atol=1e-12)


def test_novikoff_check_small_run():
    r = E.novikoff_check(
        30, n_samples=(10, 20), n_features=(2, 3), margins=(0.05, 0.1), random_state=3
    )
    assert r["ratio"].shape == (30,) and np.all(r["converged"])
    assert np.all(r["updates"] <= r["bound"]) and np.all(r["ratio"] <= 1)
    assert set(r["order"]) == {"cyclic", "shuffle", "random-mistake"}
    assert set(r["n"]) <= {10, 20} and set(r["d"]) <= {2, 3}


def test_novikoff_check_bounds_are_independent_ones(monkeypatch):
    """R, gamma* and the bound of every data set novikoff_check draws, recomputed without perclib
    (math.hypot and SLSQP, tests/test_theory.py); the data sets are captured as they are made."""
    seen = []

    def capture(*args, **kwargs):
        X, y = make_separable(*args, **kwargs)
        seen.append((X.copy(), y.copy()))
        return X, y

    monkeypatch.setattr(E, "make_separable", capture)
    r = E.novikoff_check(
        8, n_samples=(10, 20), n_features=(2, 3), margins=(0.05, 0.1), random_state=3
    )
    assert len(seen) == 8
    for i, (X, y) in enumerate(seen):
        bound, R, gamma = independent_bound(X, y)
        assert r["R"][i] == pytest.approx(R, rel=1e-14)
        assert r["gamma"][i] == pytest.approx(gamma, rel=1e-6)
        assert r["bound"][i] == pytest.approx(bound, rel=1e-5)
        assert r["updates"][i] <= bound


def test_novikoff_check_errors():
    with pytest.raises(ValueError, match="n_datasets"):
        E.novikoff_check(0)
    with pytest.raises(ValueError, match="must not be empty"):
        E.novikoff_check(3, margins=())
    with pytest.raises(ValueError, match="order"):
        E.novikoff_check(3, orders=("backwards",))


@pytest.mark.parametrize(
    "n,d,ratio",
    [
        (5, 2, 6.0),
        (50, 3, 10.0),
        (200, 10, 8.0),
        (30, 25, 20.0),
        (20, 2, 1.06 * np.sqrt(2)),
        (20, 4, 1.5 * np.sqrt(2)),
    ],
)
def test_make_fixed_ratio_is_exact(n, d, ratio):
    X, y = E.make_fixed_ratio(n, d, ratio, random_state=n + d)
    assert X.shape == (n, d) and set(y.tolist()) == {-1, 1}
    assert radius(X) == pytest.approx(np.sqrt(2.0), rel=1e-12)
    _, _, gamma = max_margin(X, y)
    assert radius(X) / gamma == pytest.approx(ratio, rel=1e-9)


def test_separable_data_is_required_before_any_run():
    X, y = make_xor()
    with pytest.raises(ValueError, match="not linearly separable"):
        E.novikoff_trace(X, y)
    with pytest.raises(ValueError, match="not linearly separable"):
        E.order_comparison(X, y)


def test_make_fixed_ratio_errors():
    with pytest.raises(ValueError, match="ratio"):
        E.make_fixed_ratio(10, 2, 1.0)
    with pytest.raises(ValueError, match="n_samples"):
        E.make_fixed_ratio(2, 2, 10.0)
    with pytest.raises(ValueError, match="rho"):
        E.make_fixed_ratio(10, 2, 10.0, rho=-1.0)


def test_vary_n_d_keeps_the_ratio_and_the_bound():
    r = E.vary_n_d(ns=(10, 40), ds=(2, 6), ratio=6.0, n_repeats=3, random_state=1)
    assert r["updates"].shape == (2, 2, 3) and r["bound"] == 36.0
    np.testing.assert_allclose(r["ratio_measured"], 6.0, rtol=1e-9)
    assert np.all(r["updates"] <= r["bound"]) and np.all(r["updates"] >= 1)
    with pytest.raises(ValueError, match="must not be empty"):
        E.vary_n_d(ns=())


def test_order_comparison():
    X, y = make_separable(30, 2, margin=0.1, random_state=2)
    r = E.order_comparison(X, y, n_seeds=4)
    assert set(r["updates"]) == {"cyclic", "shuffle", "random-mistake"}
    assert len(set(r["updates"]["cyclic"].tolist())) == 1  # cyclic ignores the seed
    for order, ups in r["updates"].items():
        assert np.all(ups <= r["bound"])
        np.testing.assert_allclose(np.linalg.norm(r["weights"][order], axis=1), 1.0)
        W = r["weights"][order]
        assert np.all(np.where(y == 1, 1, -1)[:, None] * (np.c_[np.ones(len(X)), X] @ W.T) > 0)


def test_disagreement_against_monte_carlo_and_a_grid():
    rng = np.random.default_rng(0)
    g = np.linspace(-1, 1, 801)
    G = np.array(np.meshgrid(g, g)).reshape(2, -1).T
    for _ in range(6):
        wf, wg = rng.normal(size=2), rng.normal(size=2)
        bf, bg = rng.normal() * 0.5, rng.normal() * 0.5
        exact = E.disagreement(wf, bf, wg, bg)
        grid = np.mean(np.sign(G @ wf + bf) != np.sign(G @ wg + bg))
        assert exact == pytest.approx(grid, abs=5e-3)
        mc = E.disagreement_mc(wf, bf, wg, bg, n_points=20000, random_state=1)
        assert abs(mc - exact) < 5 * np.sqrt(exact * (1 - exact) / 20000) + 1e-3


def test_disagreement_special_cases():
    assert E.disagreement([1.0, 0.0], 0.0, [1.0, 0.0], 0.0) == 0.0
    assert E.disagreement([1.0, 0.0], 0.0, [-1.0, 0.0], 0.0) == pytest.approx(1.0)
    assert E.disagreement([1.0, 1.0], 5.0, [0.0, 0.0], 1.0) == 0.0  # both +1 everywhere
    assert E.disagreement([1.0, 0.0], 0.5, [0.0, 0.0], -1.0) == pytest.approx(
        0.75
    )  # g is -1 everywhere
    with pytest.raises(ValueError, match="2-D"):
        E.disagreement([1.0, 0.0, 0.0], 0.0, [1.0, 0.0], 0.0)


def test_lfd_pla_matches_a_plain_pla_loop():
    """Against the plain loop of tests/test_oracles.py (the same draws from default_rng(seed))."""
    runs = 0
    for seed in range(20):
        X, y, _ = make_lfd(20, random_state=seed)
        if len(set(y.tolist())) < 2:  # the loop's labels need both classes (see the next test)
            continue
        pla = E._fit_pla(X, y, np.random.default_rng(seed + 100))
        w, b, updates = perceptron_loop(X, y, epochs=10**6, order="random-mistake", seed=seed + 100)
        assert pla["w"].tolist() == w and pla["b"] == b
        assert pla["updates"] == updates and pla["converged"]
        runs += 1
    assert runs >= 15


def test_lfd_pla_with_one_class():
    X = np.array([[0.5, 0.5], [-0.2, 0.1]])
    pla = E._fit_pla(X, np.array([1, 1]), np.random.default_rng(0))
    assert pla["converged"] and np.all(X @ pla["w"] + pla["b"] > 0)


def test_lfd_experiment_small():
    r = E.lfd_experiment(10, 200, random_state=0)
    assert r["iterations"].shape == (200,) and np.all(r["converged"])
    assert np.all(r["iterations"] >= 1)
    # Learning From Data's answers: about 10 iterations and P[f != g] about 0.1 for N = 10
    assert 5 < r["iterations"].mean() < 20 and 0.05 < r["disagreement"].mean() < 0.2
    mc = E.lfd_experiment(10, 200, random_state=0, method="monte-carlo", n_test=4000)
    assert mc["iterations"].shape == (200,) and np.all(mc["converged"])
    assert abs(mc["disagreement"].mean() - r["disagreement"].mean()) < 0.02
    # the returned lines are each run's f and g: their exact disagreement is the one reported
    again = [E.disagreement(r["w_f"][i], r["b_f"][i], r["w_g"][i], r["b_g"][i]) for i in range(200)]
    assert np.array_equal(again, r["disagreement"]) and r["w_g"].shape == (200, 2)
    with pytest.raises(ValueError, match="method"):
        E.lfd_experiment(10, 2, method="guess")


def test_weight_cycle_on_xor():
    r = E.weight_cycle(*make_xor(), max_iter=6)
    assert r["first"] == 1 and r["period"] == 1
    np.testing.assert_array_equal(r["weights"], np.zeros((6, 3)))
    np.testing.assert_array_equal(r["updates_per_epoch"], [4] * 6)
    # separable data converges: no repeat is reported
    X, y = make_separable(20, 2, margin=0.2, random_state=0)
    r = E.weight_cycle(X, y, max_iter=50)
    assert r["first"] is None and r["period"] is None


def test_weight_cycle_longer_period():
    # the XOR corners in another order: the end-of-epoch weights cycle with a longer period
    X, y = make_xor()
    order = [1, 0, 3, 2]
    r = E.weight_cycle(X[order], y[order], max_iter=30)
    assert r["period"] is not None
    first, period = r["first"], r["period"]
    np.testing.assert_array_equal(r["weights"][first - 1], r["weights"][first - 1 + period])


def test_max_iter_curve_equals_fit_with_max_iter():
    r = E.max_iter_curve(max_iters=(1, 3, 5), n_train=30, n_test=100, n_datasets=2, random_state=0)
    assert r["train_error"].shape == (2, 3) and list(r["max_iter"]) == [1, 3, 5]
    # redo data set 0 with fit(max_iter=k)
    rng = np.random.default_rng(0)
    Xtr, ytr, Xte, yte = E._noisy_split(30, 100, 0.1, 2, rng)
    seed = int(rng.integers(2**31))
    for j, k in enumerate((1, 3, 5)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf = Perceptron(order="shuffle", random_state=seed, max_iter=k).fit(Xtr, ytr)
        assert r["train_error"][0, j] == pytest.approx(1 - clf.score(Xtr, ytr))
        assert r["test_error"][0, j] == pytest.approx(1 - clf.score(Xte, yte))
    with pytest.raises(ValueError, match="max_iters"):
        E.max_iter_curve(max_iters=(0,))
    with pytest.raises(ValueError, match="must not be empty"):
        E.max_iter_curve(max_iters=())


def test_pocket_vs_last():
    r = E.pocket_vs_last(4, n_train=40, n_test=200, max_iter=10, random_state=0)
    assert all(v.shape == (4,) for v in r.values())
    assert np.all(
        r["train_pocket"] <= r["train_last"]
    )  # the pocket is never worse on training data
    rng = np.random.default_rng(0)
    Xtr, ytr, Xte, yte = E._noisy_split(40, 200, 0.1, 2, rng)
    clf = PocketPerceptron(max_iter=10, order="shuffle", random_state=int(rng.integers(2**31))).fit(
        Xtr, ytr
    )
    assert r["train_pocket"][0] == pytest.approx(1 - clf.score(Xtr, ytr))
    assert r["test_pocket"][0] == pytest.approx(1 - clf.score(Xte, yte))
    assert r["train_pocket"][0] == pytest.approx(clf.pocket_mistakes_ / 40)
