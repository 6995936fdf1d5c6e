"""KernelPerceptron against independent oracles: perclib's primal Perceptron, AveragedPerceptron
and VotedPerceptron on the kernel's explicit feature map, and the same kernel given three ways."""

import itertools

import numpy as np
import pytest
from sklearn.datasets import make_circles
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

from perclib import (
    AveragedPerceptron,
    ConvergenceWarning,
    KernelPerceptron,
    Perceptron,
    VotedPerceptron,
)
from perclib.datasets import make_noisy, make_xor

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

SEEDS = range(20)


def _integer_data(seed, n=30, d=3):
    """Small integers, labels from a random integer w with 10% flipped: every activation in both
    forms is an exact integer, so even the ties (a == 0, frequent here) are decided alike."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(float)
    y = np.where(X @ rng.integers(-2, 3, size=d) + rng.integers(-1, 2) >= 0, 1, -1)
    y[rng.random(n) < 0.1] *= -1
    return X, y


def _update_indices(perceptron):
    return [s.index for s in perceptron.history_ if s.updated]


def _away_from_zero(perceptron, X):
    """The premise of a float comparison: every activation the primal run met was 0 exactly at
    w = 0, b = 0 (the same 0 in the dual form) or further from 0 than rounding can reach."""
    for s in perceptron.history_:
        if s.updated and not s.activation == 0 and abs(s.activation) < 1e-6:
            return False
    return True


def _quadratic_features(X):
    """The feature map of K(x, z) = (x.z + 1)**2: 1, sqrt(2) x_k, x_k**2, sqrt(2) x_j x_k."""
    r2 = np.sqrt(2.0)
    cols = [np.ones(len(X))]
    cols += [r2 * X[:, k] for k in range(X.shape[1])]
    cols += [X[:, k] ** 2 for k in range(X.shape[1])]
    cols += [r2 * X[:, j] * X[:, k] for j, k in itertools.combinations(range(X.shape[1]), 2)]
    return np.column_stack(cols)


QUADRATIC = dict(kernel="poly", degree=2, gamma=1.0, coef0=1.0)


def _data_sets(seed):
    """Three data sets no line separates well: XOR clouds, circles, noisy blobs (d = 2, 2, 3)."""
    Xx, yx = make_xor(n_per_corner=8, noise=0.25, random_state=seed)
    Xc, yc = make_circles(40, noise=0.1, factor=0.5, random_state=seed)
    Xn, yn = make_noisy(40, 3, 0.1, random_state=seed)
    return {"xor": (Xx, yx), "circles": (Xc, yc), "noisy": (Xn, yn)}


# ---- the linear kernel is the primal perceptron ----------------------------------------------


@pytest.mark.parametrize("order", ["cyclic", "shuffle", "random-mistake"])
@pytest.mark.parametrize("rule", ["margin", "prediction"])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_linear_kernel_is_the_perceptron_on_integer_data_20_seeds(order, rule, fit_intercept):
    """20 integer data sets (seeds 0-19) per order, rule and intercept: ties included, the same
    mistakes per epoch, the same examples updated in the same order, w = sum_i alpha_i y_i x_i
    and the same activations exactly."""
    compared_ties = 0
    for seed in SEEDS:
        X, y = _integer_data(seed)
        Xt, _ = _integer_data(seed + 100)
        kw = dict(max_iter=8, order=order, rule=rule, fit_intercept=fit_intercept)
        p = Perceptron(record=True, random_state=seed, **kw).fit(X, y)
        k = KernelPerceptron(kernel="linear", random_state=seed, **kw).fit(X, y)
        assert k.mistakes_.tolist() == p.mistakes_.tolist()
        assert k.update_indices_.tolist() == _update_indices(p)
        assert (k.n_iter_, k.n_updates_, k.converged_) == (p.n_iter_, p.n_updates_, p.converged_)
        assert np.array_equal(k.support_vectors_.T @ k.dual_coef_, p.coef_)
        assert k.intercept_ == p.intercept_
        assert np.array_equal(k.decision_function(Xt), p.decision_function(Xt))
        assert np.array_equal(k.predict(Xt), p.predict(Xt))
        compared_ties += sum(s.activation == 0 and s.w.any() for s in p.history_)
    assert compared_ties > 0  # the ties after the start were met, and decided alike


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize("rule", ["margin", "prediction"])
def test_linear_kernel_is_the_perceptron_on_gaussian_data_20_seeds(order, rule):
    """20 Gaussian data sets (seeds 0-19, 40 x 4, 10% flipped labels) whose activations stay away
    from 0: the same mistakes and updates, and the same predictions on 200 new points."""
    for seed in SEEDS:
        X, y = make_noisy(40, 4, 0.1, random_state=seed)
        Xt = np.random.default_rng(seed).normal(size=(200, 4))
        kw = dict(max_iter=10, order=order, rule=rule, eta=0.3, random_state=seed)
        p = Perceptron(record=True, **kw).fit(X, y)
        assert _away_from_zero(p, X), seed
        k = KernelPerceptron(kernel="linear", **kw).fit(X, y)
        assert k.mistakes_.tolist() == p.mistakes_.tolist()
        assert k.update_indices_.tolist() == _update_indices(p)
        assert np.allclose(k.support_vectors_.T @ k.dual_coef_, p.coef_, rtol=1e-12, atol=1e-12)
        assert np.allclose(k.decision_function(Xt), p.decision_function(Xt), atol=1e-10)
        assert np.array_equal(k.predict(Xt), p.predict(Xt))


# ---- the quadratic kernel is the perceptron on its explicit features -------------------------


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_quadratic_kernel_is_the_perceptron_on_the_feature_map_3_data_sets_10_seeds(
    fit_intercept, order
):
    """3 data sets x 10 seeds: K(x, z) = (x.z + 1)**2 makes the mistakes the primal perceptron
    makes on phi(x), with its sqrt(2) factors, and gives its activations."""
    for seed in range(10):
        for name, (X, y) in _data_sets(seed).items():
            Phi = _quadratic_features(X)
            kw = dict(max_iter=15, order=order, fit_intercept=fit_intercept, random_state=seed)
            p = Perceptron(record=True, **kw).fit(Phi, y)
            assert _away_from_zero(p, Phi), (name, seed)
            k = KernelPerceptron(**QUADRATIC, **kw).fit(X, y)
            assert k.mistakes_.tolist() == p.mistakes_.tolist(), (name, seed)
            assert k.update_indices_.tolist() == _update_indices(p), (name, seed)
            assert np.allclose(k.decision_function(X), p.decision_function(Phi), atol=1e-9)


def test_the_feature_map_without_sqrt2_is_another_kernel():
    """The oracle can fail: drop the sqrt(2) factors and the mistakes differ on some data set."""
    differ = 0
    for seed in range(10):
        for X, y in _data_sets(seed).values():
            Phi = _quadratic_features(X)
            d = X.shape[1]
            Phi[:, 1 : 1 + d] /= np.sqrt(2.0)
            Phi[:, 1 + 2 * d :] /= np.sqrt(2.0)
            p = Perceptron(max_iter=15).fit(Phi, y)
            k = KernelPerceptron(**QUADRATIC, max_iter=15).fit(X, y)
            differ += k.mistakes_.tolist() != p.mistakes_.tolist()
    assert differ > 0


# ---- averaged and voted ----------------------------------------------------------------------


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_kernel_averaged_is_averaged_perceptron_on_the_features_3_data_sets_5_seeds(order):
    for seed in range(5):
        for name, (X, y) in _data_sets(seed).items():
            Phi = _quadratic_features(X)
            Xt = np.random.default_rng(seed).normal(size=(100, X.shape[1]))
            kw = dict(max_iter=6, order=order, random_state=seed)
            p = AveragedPerceptron(**kw).fit(Phi, y)
            k = KernelPerceptron(**QUADRATIC, average=True, **kw).fit(X, y)
            assert k.mistakes_.tolist() == p.mistakes_.tolist(), (name, seed)
            assert np.allclose(
                k.decision_function(Xt),
                p.decision_function(_quadratic_features(Xt)),
                rtol=1e-9,
                atol=1e-9,
            ), (name, seed)
            assert np.allclose(
                _quadratic_features(k.support_vectors_).T @ k.dual_coef_,
                p.coef_,
                atol=1e-9,
            )
            assert np.isclose(k.intercept_, p.intercept_, atol=1e-12)
            # the last iterate is the perceptron's, and it is not the average
            assert np.isclose(k.last_intercept_, p.last_intercept_)
            assert not np.allclose(k.dual_coef_, k.last_dual_coef_)


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_kernel_voted_is_voted_perceptron_on_the_features_3_data_sets_5_seeds(order):
    for seed in range(5):
        for name, (X, y) in _data_sets(seed).items():
            Phi = _quadratic_features(X)
            Xt = np.random.default_rng(seed).normal(size=(100, X.shape[1]))
            kw = dict(max_iter=6, order=order, random_state=seed)
            p = VotedPerceptron(**kw).fit(Phi, y)
            k = KernelPerceptron(**QUADRATIC, vote=True, **kw).fit(X, y)
            assert k.counts_.tolist() == p.counts_.tolist(), (name, seed)
            assert np.array_equal(k.intercepts_, p.intercepts_)
            votes = p.decision_function(_quadratic_features(Xt))
            assert np.array_equal(k.decision_function(Xt), votes), (name, seed)
            assert np.array_equal(k.predict(Xt), p.predict(_quadratic_features(Xt)))


def test_linear_averaged_and_voted_match_the_primal_models_20_seeds():
    for seed in SEEDS:
        X, y = _integer_data(seed)
        Xt, _ = _integer_data(seed + 100)
        a = AveragedPerceptron(max_iter=4).fit(X, y)
        ka = KernelPerceptron(kernel="linear", average=True, max_iter=4).fit(X, y)
        assert np.allclose(ka.decision_function(Xt), a.decision_function(Xt), atol=1e-12)
        v = VotedPerceptron(max_iter=4).fit(X, y)
        kv = KernelPerceptron(kernel="linear", vote=True, max_iter=4).fit(X, y)
        assert np.array_equal(kv.decision_function(Xt), v.decision_function(Xt))


# ---- one kernel, three ways; the cache ----------------------------------------------------------


@pytest.mark.parametrize(
    "params, kernel",
    [
        (dict(kernel="linear"), linear_kernel),
        (dict(kernel="rbf", gamma=0.7), lambda X, Z: rbf_kernel(X, Z, gamma=0.7)),
        (
            dict(kernel="poly", degree=3, gamma=0.5, coef0=2.0),
            lambda X, Z: polynomial_kernel(X, Z, degree=3, gamma=0.5, coef0=2.0),
        ),
    ],
    ids=["linear", "rbf", "poly"],
)
def test_precomputed_and_callable_equal_the_named_kernel_3_seeds(params, kernel):
    for seed in range(3):
        X, y = make_circles(50, noise=0.1, factor=0.5, random_state=seed)
        Xt = np.random.default_rng(seed).normal(size=(60, 2))
        named = KernelPerceptron(**params, max_iter=20).fit(X, y)
        pre = KernelPerceptron(kernel="precomputed", max_iter=20).fit(kernel(X, X), y)
        call = KernelPerceptron(kernel=kernel, max_iter=20).fit(X, y)
        for other in (pre, call):
            assert other.mistakes_.tolist() == named.mistakes_.tolist()
            assert np.array_equal(other.support_, named.support_)
            assert np.array_equal(other.dual_coef_, named.dual_coef_)
        assert np.allclose(pre.decision_function(kernel(Xt, X)), named.decision_function(Xt))
        assert np.allclose(call.decision_function(Xt), named.decision_function(Xt))
        assert pre.support_vectors_.shape == (0, 0)


def test_rows_on_demand_equal_the_cached_gram_matrix_5_seeds():
    """cache_size=0: no Gram matrix, each visit computes the kernel with the support only."""
    for seed in range(5):
        X, y = make_circles(60, noise=0.15, factor=0.5, random_state=seed)
        for params in (dict(kernel="rbf", gamma=2.0), dict(order="random-mistake")):
            kw = dict(max_iter=30, random_state=seed, **params)
            cached = KernelPerceptron(**kw).fit(X, y)
            on_demand = KernelPerceptron(cache_size=0, **kw).fit(X, y)
            assert on_demand.mistakes_.tolist() == cached.mistakes_.tolist()
            assert on_demand.update_indices_.tolist() == cached.update_indices_.tolist()
            assert np.allclose(on_demand.dual_coef_, cached.dual_coef_)


def test_rbf_separates_the_circles_and_gamma_scale_is_svcs():
    X, y = make_circles(80, noise=0.05, factor=0.4, random_state=0)
    assert Perceptron(max_iter=50).fit(X, y).score(X, y) < 0.8
    clf = KernelPerceptron(max_iter=200).fit(X, y)
    assert clf.converged_ and clf.score(X, y) == 1.0
    same = KernelPerceptron(gamma=1 / (2 * X.var()), max_iter=200).fit(X, y)
    assert np.array_equal(same.dual_coef_, clf.dual_coef_)
    assert 0 < clf.support_.size < len(X) and np.all(np.diff(clf.support_) > 0)
    assert np.array_equal(clf.support_vectors_, X[clf.support_])


# ---- partial_fit, refit, labels ------------------------------------------------------------------


@pytest.mark.parametrize("mode", [{}, {"average": True}, {"vote": True}])
def test_partial_fit_one_epoch_is_fit_with_max_iter_1(mode):
    for seed in range(5):
        X, y = make_noisy(40, 2, 0.1, random_state=seed)
        fit = KernelPerceptron(max_iter=1, **mode).fit(X, y)
        part = KernelPerceptron(**mode).partial_fit(X, y)
        for name in ("dual_coef_", "support_", "mistakes_", "update_indices_"):
            assert np.array_equal(getattr(part, name), getattr(fit, name)), name
        assert part.intercept_ == fit.intercept_ and part.n_iter_ == 1
        if mode.get("vote"):
            assert np.array_equal(part.counts_, fit.counts_)


def test_partial_fit_twice_on_the_same_data_is_two_epochs():
    """The second batch's rows are new examples (indices 40-79), with the first one's values:
    the activations, and so the mistakes and the function learned, are those of two epochs."""
    for seed in range(5):
        X, y = make_noisy(40, 2, 0.2, random_state=seed)
        fit = KernelPerceptron(max_iter=2).fit(X, y)
        assert fit.n_iter_ == 2  # not separable after one epoch: two epochs were run
        part = KernelPerceptron().partial_fit(X, y).partial_fit(X, y)
        assert part.mistakes_.tolist() == fit.mistakes_.tolist()
        assert part.update_indices_.tolist() == [
            i + 40 * (e == 1) for e, i in zip(np.repeat([0, 1], fit.mistakes_), fit.update_indices_)
        ]
        assert np.allclose(part.decision_function(X), fit.decision_function(X))


@pytest.mark.parametrize("mode", [{}, {"average": True}, {"vote": True}])
def test_refit_forgets(mode):
    Xa, ya = make_noisy(30, 2, 0.1, random_state=1)
    Xb, yb = make_circles(50, noise=0.1, factor=0.5, random_state=2)
    again = KernelPerceptron(max_iter=5, **mode).fit(Xa, ya).fit(Xb, yb)
    fresh = KernelPerceptron(max_iter=5, **mode).fit(Xb, yb)
    assert sorted(vars(again)) == sorted(vars(fresh))
    for name, value in vars(fresh).items():
        if name.endswith("_") and isinstance(value, np.ndarray):
            assert np.array_equal(getattr(again, name), value), name
    assert again.n_iter_ == fresh.n_iter_ and again.intercept_ == fresh.intercept_
    assert np.array_equal(again.decision_function(Xa), fresh.decision_function(Xa))


def test_any_two_labels_with_classes_1_as_positive():
    X, y = make_circles(40, noise=0.1, factor=0.5, random_state=3)
    ref = KernelPerceptron().fit(X, np.where(y == 1, 1, -1))
    for labels in (np.where(y == 1, "in", "alpha"), np.where(y == 1, 7, 3), y == 1):
        clf = KernelPerceptron().fit(X, labels)
        assert clf.classes_.tolist() == sorted(set(labels.tolist()))
        assert np.array_equal(clf.dual_coef_, ref.dual_coef_)
        expected = np.where(ref.predict(X) > 0, clf.classes_[1], clf.classes_[0])
        assert clf.predict(X).tolist() == expected.tolist()
    flipped = KernelPerceptron().fit(X, np.where(y == 1, "a", "b"))  # "in" is now classes_[0]
    assert np.array_equal(flipped.dual_coef_, -ref.dual_coef_)


def test_xor_is_not_linear_but_quadratic():
    X, y = make_xor()
    with pytest.warns(ConvergenceWarning, match="KernelPerceptron stopped after max_iter=20"):
        KernelPerceptron(kernel="linear", max_iter=20).fit(X, y)
    assert KernelPerceptron(**QUADRATIC).fit(X, y).score(X, y) == 1.0


# ---- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, message",
    [
        (
            dict(kernel="sigmoid"),
            "The 'kernel' parameter of KernelPerceptron must be a str among {'linear', 'poly', "
            "'rbf', 'precomputed'} or a callable K(X, Z). Got 'sigmoid' instead.",
        ),
        (
            dict(degree=0),
            "The 'degree' parameter of KernelPerceptron must be an int in the range [1, inf). "
            "Got 0 instead.",
        ),
        (
            dict(gamma=0.0),
            "The 'gamma' parameter of KernelPerceptron must be a str among {'scale', 'auto'} or "
            "a float in the range (0.0, inf). Got 0.0 instead.",
        ),
        (
            dict(gamma=-1),
            "The 'gamma' parameter of KernelPerceptron must be a str among {'scale', 'auto'} or "
            "a float in the range (0.0, inf). Got -1 instead.",
        ),
        (
            dict(coef0=float("nan")),
            "The 'coef0' parameter of KernelPerceptron must be a float in the range (-inf, inf). "
            "Got nan instead.",
        ),
        (
            dict(average=True, vote=True),
            "average=True and vote=True exclude each other: choose one.",
        ),
        (
            dict(vote=True, order="random-mistake"),
            "average=True and vote=True count the examples each iterate survives, which "
            "order='random-mistake' does not visit in epochs: use 'cyclic' or 'shuffle'.",
        ),
    ],
)
def test_bad_parameters_get_a_clear_valueerror(params, message):
    X, y = make_xor()
    with pytest.raises(ValueError) as info:
        KernelPerceptron(**params).fit(X, y)
    assert str(info.value) == message


def test_a_precomputed_matrix_of_the_wrong_shape():
    X, y = make_circles(20, random_state=0)
    K = linear_kernel(X, X)
    with pytest.raises(ValueError) as info:
        KernelPerceptron(kernel="precomputed").fit(K[:, :15], y)
    assert str(info.value) == (
        "With kernel='precomputed', fit takes the square Gram matrix K(X, X); got a matrix of "
        "shape (20, 15)."
    )
    clf = KernelPerceptron(kernel="precomputed").fit(K, y)
    for method in ("predict", "decision_function"):
        with pytest.raises(ValueError) as info:
            getattr(clf, method)(X)  # the features, not the kernel with the training examples
        assert str(info.value) == (
            "With kernel='precomputed', X must be K(X_test, X_train), one column per training "
            "example: 20 columns; got 2."
        )
    with pytest.raises(ValueError, match="partial_fit does not take kernel='precomputed'"):
        KernelPerceptron(kernel="precomputed").partial_fit(K, y)


@pytest.mark.parametrize(
    "kernel, message",
    [
        (
            lambda X, Z: X @ Z.T[:, :1],
            r"^The kernel callable must return the \(\d+, \d+\) matrix K\(X, Z\) for X with \d+ "
            r"rows and Z with \d+; it returned shape \(\d+, 1\)\.$",
        ),
        (lambda X, Z: (X @ Z.T).ravel(), r"it returned shape \(\d+,\)\.$"),
        (
            lambda X, Z: np.full((len(X), len(Z)), np.nan),
            r"^The kernel returned NaN or infinity: scale X",
        ),
        (lambda X, Z: [["a"] * len(Z)] * len(X), r"^The kernel callable must return a numeric"),
    ],
    ids=["wrong columns", "1-D", "NaN", "strings"],
)
def test_a_callable_kernel_that_returns_the_wrong_thing(kernel, message):
    X, y = make_xor()
    with pytest.raises(ValueError, match=message):
        KernelPerceptron(kernel=kernel).fit(X, y)


def test_a_kernel_that_overflows_is_a_valueerror():
    X, y = make_xor()
    with pytest.raises(ValueError, match="^The kernel returned NaN or infinity"):
        KernelPerceptron(kernel="poly", degree=200, gamma=1e3).fit(X * 1e3, y)


def test_predict_checks_the_features_and_fit():
    X, y = make_xor()
    with pytest.raises(ValueError, match=r"^This KernelPerceptron is not fitted yet: call fit"):
        KernelPerceptron().predict(X)
    clf = KernelPerceptron().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features, but KernelPerceptron is expecting 2"):
        clf.predict(np.zeros((2, 3)))


@pytest.mark.parametrize("mode", [{}, {"average": True}, {"vote": True}])
def test_nothing_passed_in_is_changed(mode):
    X, y = make_circles(30, noise=0.1, factor=0.5, random_state=4)
    y = np.where(y == 1, "in", "out").astype(object)

    def kernel(A, B):
        return rbf_kernel(A, B, gamma=1.0)

    Xc, yc = X.copy(), y.copy()
    K = rbf_kernel(X, X, gamma=1.0)
    Kc = K.copy()
    params = dict(max_iter=5, **mode)
    clf = KernelPerceptron(kernel=kernel, **params).fit(X, y)
    clf.predict(X)
    KernelPerceptron(kernel=kernel, **params).partial_fit(X, y)
    KernelPerceptron(kernel="precomputed", **params).fit(K, y).predict(K)
    assert np.array_equal(X, Xc) and np.array_equal(K, Kc) and y.tolist() == yc.tolist()
    before = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in vars(clf).items()}
    clf.decision_function(X[:5])  # predicting changes nothing in the model either
    for name, value in before.items():
        now = vars(clf)[name]
        assert np.array_equal(now, value) if isinstance(value, np.ndarray) else now is value


def test_the_documented_defaults_are_svcs():
    params = KernelPerceptron().get_params()
    assert {k: params[k] for k in ("kernel", "degree", "gamma", "coef0", "cache_size")} == {
        "kernel": "rbf",
        "degree": 3,
        "gamma": "scale",
        "coef0": 0.0,
        "cache_size": 200,
    }
