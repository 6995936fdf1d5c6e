"""perclib.evaluation against independent oracles: the perclib models, scikit-learn, brute force."""

import warnings

import numpy as np
import pytest
from sklearn.linear_model import SGDClassifier
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from perclib import (
    AveragedPerceptron,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from perclib import evaluation as E
from perclib.datasets import load_breast_cancer, make_noisy, worked_example


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


# ---------------------------------------------------------------- prediction cost
def test_prediction_cost_counts_the_vectors():
    X, y = make_noisy(100, 5, flip=0.1, random_state=0)
    voted = VotedPerceptron(max_iter=4).fit(X, y)
    K = voted.n_updates_ + 1
    assert E.prediction_cost(voted) == {
        "vectors": K,
        "multiplications": K * 5 + K,
        "numbers_stored": K * 7,
    }
    avg = AveragedPerceptron(max_iter=4).fit(X, y)
    assert E.prediction_cost(avg) == {"vectors": 1, "multiplications": 5, "numbers_stored": 6}
    with pytest.raises(ValueError, match="fitted"):
        E.prediction_cost(VotedPerceptron())
    with pytest.raises(ValueError, match="fitted"):
        E.prediction_cost("model")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        multi = MulticlassPerceptron(max_iter=2).fit(X, np.arange(100) % 3)
    with pytest.raises(ValueError, match="binary models"):
        E.prediction_cost(multi)


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
