"""The notebooks' experiments (notebooks/experiments.py) against independent oracles: brute
force, Monte Carlo, direct runs, the perclib models, scikit-learn."""

import doctest
import warnings

import experiments as E
import numpy as np
import pytest
from sklearn.linear_model import SGDClassifier
from sklearn.metrics import confusion_matrix as sk_confusion_matrix
from test_oracles import perceptron_loop
from test_theory import independent_bound

from perclib import (
    AveragedPerceptron,
    ConvergenceWarning,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from perclib.datasets import (
    load_breast_cancer,
    make_fixed_ratio,
    make_lfd,
    make_noisy,
    make_separable,
    make_xor,
    worked_example,
)
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
    X, y = make_fixed_ratio(n, d, ratio, random_state=n + d)
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
        make_fixed_ratio(10, 2, 1.0)
    with pytest.raises(ValueError, match="n_samples"):
        make_fixed_ratio(2, 2, 10.0)
    with pytest.raises(ValueError, match="rho"):
        make_fixed_ratio(10, 2, 10.0, rho=-1.0)


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
    X, y = make_noisy(130, 2, flip=0.1, random_state=rng)  # one draw, split 30 / 100
    Xtr, ytr, Xte, yte = X[:30], y[:30], X[30:], y[30:]
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
    X, y = make_noisy(240, 2, flip=0.1, random_state=rng)  # one draw, split 40 / 200
    Xtr, ytr, Xte, yte = X[:40], y[:40], X[40:], y[40:]
    clf = PocketPerceptron(max_iter=10, order="shuffle", random_state=int(rng.integers(2**31))).fit(
        Xtr, ytr
    )
    assert r["train_pocket"][0] == pytest.approx(1 - clf.score(Xtr, ytr))
    assert r["test_pocket"][0] == pytest.approx(1 - clf.score(Xte, yte))
    assert r["train_pocket"][0] == pytest.approx(clf.pocket_mistakes_ / 40)


def _brute_average(X, y, epochs, eta=1.0):
    """Every iterate kept in a list, from a plain loop written here (labels: larger is +1)."""
    s = np.where(y == np.unique(y)[1], 1.0, -1.0)
    w, b = np.zeros(X.shape[1]), 0.0
    ws, bs = [w.copy()], [b]
    for _ in range(epochs):
        for i in range(len(X)):
            if s[i] * (X[i] @ w + b) <= 0:
                w, b = w + eta * s[i] * X[i], b + eta * s[i]
            ws.append(w.copy())
            bs.append(b)
    return np.array(ws), np.array(bs)


# ---------------------------------------------------------------- averages and the slips
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("epochs", [1, 4])
def test_iterate_average_is_the_brute_force_average(seed, epochs):
    X, y = make_noisy(40, 3, flip=0.1, random_state=seed)
    ws, bs = _brute_average(X, y, epochs, eta=0.5)
    w, b = E.iterate_average(X, y, max_iter=epochs, eta=0.5)
    np.testing.assert_allclose(w, ws.mean(axis=0))
    assert b == pytest.approx(bs.mean())
    w1, b1 = E.iterate_average(X, y, max_iter=epochs, eta=0.5, first=1)
    np.testing.assert_allclose(w1, ws[1:].mean(axis=0))
    assert b1 == pytest.approx(bs[1:].mean())


@pytest.mark.parametrize("seed", [0, 3])
def test_lazy_average_equals_naive_average_and_the_model(seed):
    X, y = make_noisy(60, 2, flip=0.15, random_state=seed)
    w, b = E.lazy_average(X, y, max_iter=5)
    wn, bn = E.iterate_average(X, y, max_iter=5)
    np.testing.assert_allclose(w, wn, atol=1e-12)
    assert b == pytest.approx(bn, abs=1e-12)
    model = AveragedPerceptron(max_iter=5).fit(X, y)
    np.testing.assert_allclose(model.coef_, w, atol=1e-12)
    assert model.c_ == 5 * 60 + 1  # c = T + 1 at the end


def test_each_slip_differs_from_the_naive_average():
    X, y = make_noisy(50, 2, flip=0.1, random_state=0)
    naive = np.r_[E.iterate_average(X, y, max_iter=3)[0], E.iterate_average(X, y, max_iter=3)[1]]
    for slip in E.SLIPS:
        w, b = E.lazy_average(X, y, max_iter=3, slip=slip)
        assert not np.allclose(np.r_[w, b], naive, rtol=1e-6, atol=1e-9), slip


def test_c_starting_at_0_gives_sklearn_average_of_w1_to_wT():
    X, y = make_noisy(50, 2, flip=0.1, random_state=1)
    T = 3 * 50
    w0, b0 = E.lazy_average(X, y, max_iter=3, slip="c starts at 0")
    w1, b1 = E.iterate_average(X, y, max_iter=3, first=1)
    np.testing.assert_allclose(w0, w1, atol=1e-12)
    w, b = E.lazy_average(X, y, max_iter=3)
    np.testing.assert_allclose(w, T / (T + 1) * w1, atol=1e-12)
    sgd = SGDClassifier(
        loss="perceptron",
        learning_rate="constant",
        eta0=1,
        penalty=None,
        average=True,
        shuffle=False,
        tol=None,
        max_iter=3,
    ).fit(X, y)
    np.testing.assert_allclose(sgd.coef_[0], w1, atol=1e-10)
    assert sgd.intercept_[0] == pytest.approx(b1, abs=1e-10)


def test_c_counting_mistakes_changes_predictions():
    X, y = make_noisy(200, 2, flip=0.1, random_state=0)
    w, b = E.lazy_average(X, y, max_iter=5)
    ws, bs = E.lazy_average(X, y, max_iter=5, slip="c counts only mistakes")
    assert np.any(np.sign(X @ w + b) != np.sign(X @ ws + bs))


def test_average_inputs_are_checked_and_not_modified():
    X, y = worked_example()
    X0, y0 = X.copy(), y.copy()
    E.lazy_average(X, y, max_iter=2)
    E.iterate_average(X, y, max_iter=2)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    with pytest.raises(ValueError, match="slip must be"):
        E.lazy_average(X, y, slip="c starts at 2")
    with pytest.raises(ValueError, match="first must be"):
        E.iterate_average(X, y, first=2)
    with pytest.raises(ValueError, match="first must be"):
        E.iterate_average(X, y, first=True)
    with pytest.raises(ValueError, match="exactly 2 classes"):
        E.lazy_average(X, np.array([0, 1, 2, 2]))
    with pytest.raises(ValueError, match="eta"):
        E.iterate_average(X, y, eta=0)


# ---------------------------------------------------------------- epoch errors against the models
def _model_errors(X, y, Xt, yt, epochs, order, seed):
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # the last iterate warns when max_iter stops it: expected here
        models = {
            "last": Perceptron(max_iter=epochs, order=order, random_state=seed),
            "voted": VotedPerceptron(max_iter=epochs, order=order, random_state=seed),
            "averaged": AveragedPerceptron(max_iter=epochs, order=order, random_state=seed),
            "pocket": PocketPerceptron(max_iter=epochs, order=order, random_state=seed),
        }
        return {m: float(np.mean(model.fit(X, y).predict(Xt) != yt)) for m, model in models.items()}


@pytest.mark.parametrize("order", ["shuffle", "cyclic"])
@pytest.mark.parametrize("seed", [0, 5])
def test_epoch_errors_match_each_model_after_each_epoch(order, seed):
    X_train, y_train, X_test, y_test = E.noisy_task(60, 80, flip=0.1)(seed)
    errors = E.epoch_errors(
        X_train, y_train, X_test, y_test, max_epochs=6, order=order, random_state=seed
    )
    assert set(errors) == set(E.METHODS)
    for epoch in range(1, 7):
        expected = _model_errors(X_train, y_train, X_test, y_test, epoch, order, seed)
        for m in E.METHODS:
            assert errors[m][epoch - 1] == expected[m], (m, epoch)


def test_epoch_errors_on_real_data_with_labels_0_1():
    X_train, y_train, X_test, y_test = E.split_task(*load_breast_cancer())(3)
    errors = E.epoch_errors(X_train, y_train, X_test, y_test, max_epochs=3, random_state=3)
    expected = _model_errors(X_train, y_train, X_test, y_test, 3, "shuffle", 3)
    for m in E.METHODS:
        assert errors[m][-1] == expected[m]


def test_epoch_errors_on_separable_data_after_convergence():
    X, y = worked_example()
    errors = E.epoch_errors(X, y, X, y, max_epochs=6, order="cyclic")
    assert errors["last"][-1] == 0.0 and errors["pocket"][-1] == 0.0


def test_epoch_errors_checks_its_inputs():
    X, y = worked_example()
    X0 = X.copy()
    with pytest.raises(ValueError, match="X_test has 3 features"):
        E.epoch_errors(X, y, np.zeros((2, 3)), [1, -1])
    with pytest.raises(ValueError, match="not in classes"):
        E.epoch_errors(X, y, X, [1, 1, 0, 0])
    with pytest.raises(ValueError, match="max_epochs"):
        E.epoch_errors(X, y, X, y, max_epochs=0)
    with pytest.raises(ValueError, match="order"):
        E.epoch_errors(X, y, X, y, order="random-mistake")
    with pytest.raises(ValueError, match="y_test"):
        E.epoch_errors(X, y, X, y[:3])
    np.testing.assert_array_equal(X, X0)


# ---------------------------------------------------------------- tasks and curves
def test_noisy_task_is_seeded_and_shares_one_target():
    task = E.noisy_task(30, 10, n_features=3, flip=0.0)
    a, b = task(4), task(4)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    X, y = make_noisy(40, 3, 0.0, random_state=4)
    np.testing.assert_array_equal(np.vstack([a[0], a[2]]), X)
    np.testing.assert_array_equal(np.r_[a[1], a[3]], y)
    with pytest.raises(ValueError, match="flip"):
        E.noisy_task(flip=0.7)
    with pytest.raises(ValueError, match="n_train"):
        E.noisy_task(n_train=1)


def test_split_task_standardizes_with_training_statistics():
    X, y = load_breast_cancer()
    X0 = X.copy()
    X_train, y_train, X_test, y_test = E.split_task(X, y, test_size=0.25)(0)
    assert X_train.shape[0] + X_test.shape[0] == X.shape[0]
    assert X_test.shape[0] == int(np.ceil(0.25 * 569))
    np.testing.assert_allclose(X_train.mean(axis=0), 0, atol=1e-10)
    np.testing.assert_allclose(X_train.std(axis=0), 1)
    np.testing.assert_array_equal(X, X0)
    raw = E.split_task(X, y, standardize=False)(0)
    perm = np.random.default_rng(0).permutation(569)
    np.testing.assert_array_equal(raw[2], X[perm[:171]])
    np.testing.assert_array_equal(raw[1], y[perm[171:]])
    Xc = np.c_[X, np.ones(569)]  # a constant feature is centred, not divided by 0
    assert np.all(np.isfinite(E.split_task(Xc, y)(0)[0]))
    with pytest.raises(ValueError, match="test_size"):
        E.split_task(X, y, test_size=1.5)
    with pytest.raises(ValueError, match="no training data"):
        E.split_task(X[:2], y[:2], test_size=0.9)
    with pytest.raises(ValueError, match="standardize"):
        E.split_task(X, y, standardize="yes")


def test_error_curves_stack_epoch_errors_over_seeds():
    task = E.noisy_task(40, 40, flip=0.1)
    curves = E.error_curves(task, n_seeds=4, max_epochs=3, first_seed=2)
    assert curves.methods == E.METHODS and curves.n_seeds == 4
    np.testing.assert_array_equal(curves.epochs, [1, 2, 3])
    one = E.epoch_errors(*task(3), max_epochs=3, random_state=3)
    for m in E.METHODS:
        np.testing.assert_array_equal(curves.errors[m][1], one[m])
        np.testing.assert_allclose(curves.mean()[m], curves.errors[m].mean(axis=0))
        np.testing.assert_allclose(curves.std()[m], curves.errors[m].std(axis=0))
    text = curves.summary()
    assert text.count("±") == 4 and "averaged" in text
    assert f"{curves.mean()['voted'][0]:.3f}" in curves.summary(epoch=1)
    with pytest.raises(ValueError, match="epoch must be"):
        curves.summary(epoch=9)
    with pytest.raises(ValueError, match="task must be"):
        E.error_curves("noisy")
    with pytest.raises(ValueError, match="first_seed"):
        E.error_curves(task, first_seed=-1)
    with pytest.raises(ValueError, match="n_seeds"):
        E.error_curves(task, n_seeds=0)


def test_averaging_and_voting_reduce_the_spread_over_seeds():
    curves = E.error_curves(E.noisy_task(100, 300, flip=0.1), n_seeds=20, max_epochs=10)
    std = curves.std()
    assert std["averaged"][-1] < std["last"][-1]
    assert std["voted"][-1] < std["last"][-1]


# ---------------------------------------------------------------- confusion matrix
@pytest.mark.parametrize("seed", range(5))
def test_confusion_matrix_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    y_true, y_pred = rng.integers(0, 6, 200), rng.integers(1, 7, 200)
    np.testing.assert_array_equal(
        E.confusion_matrix(y_true, y_pred), sk_confusion_matrix(y_true, y_pred)
    )
    labels = [5, 0, 2, 9]
    np.testing.assert_array_equal(
        E.confusion_matrix(y_true, y_pred, labels=labels),
        sk_confusion_matrix(y_true, y_pred, labels=labels),
    )


def test_confusion_matrix_with_string_labels_and_its_checks():
    y_true = ["cat", "dog", "dog", "bird"]
    y_pred = ["dog", "dog", "cat", "bird"]
    np.testing.assert_array_equal(
        E.confusion_matrix(y_true, y_pred), sk_confusion_matrix(y_true, y_pred)
    )
    C = E.confusion_matrix(y_true, y_pred)
    assert C.sum() == 4 and np.trace(C) == 2
    with pytest.raises(ValueError, match="same length"):
        E.confusion_matrix([1, 2], [1])
    with pytest.raises(ValueError, match="same length"):
        E.confusion_matrix([[1, 2]], [[1, 2]])
    with pytest.raises(ValueError, match="repeat"):
        E.confusion_matrix([1, 2], [1, 2], labels=[1, 1])
    with pytest.raises(ValueError, match="non-empty"):
        E.confusion_matrix([1, 2], [1, 2], labels=[])
    with pytest.raises(ValueError, match="appear in y_true"):
        E.confusion_matrix([1, 2], [1, 2], labels=[7])


# ---------------------------------------------------------------- the docstrings' examples
@pytest.mark.parametrize(
    "example",
    [t for t in doctest.DocTestFinder().find(E) if t.examples],
    ids=lambda t: t.name.removeprefix("experiments."),
)
def test_docstring_example(example):
    """The examples in the experiments' docstrings run as written: the unit tier's doctests
    (--doctest-modules) cover perclib, and this module lives beside the notebooks."""
    runner = doctest.DocTestRunner()
    runner.run(example)
    assert runner.failures == 0
