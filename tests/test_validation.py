"""Every bad input gets a ValueError that says what is wrong; nothing passed in is changed."""
import warnings

import numpy as np
import pytest

from perclib import (AveragedPerceptron, MulticlassPerceptron, NotFittedError, Perceptron, PocketPerceptron,
                     VotedPerceptron)
from perclib._validation import check_array, check_random_state, check_y
from perclib.datasets import make_blobs3, make_noisy, worked_example

BINARY = [Perceptron, PocketPerceptron, VotedPerceptron, AveragedPerceptron]
ALL = BINARY + [MulticlassPerceptron]
X4, Y4 = worked_example()

BAD_DATA = [
    (np.array([1.0, 2.0, 3.0, 4.0]), Y4, r"2-D array.*reshape\(-1, 1\)"),
    (np.zeros((4, 2, 1)), Y4, "2-D array"),
    (np.array([["a", "b"]] * 4), Y4, "numeric"),
    (np.array([[1.0, np.nan]] + [[0.0, 0.0]] * 3), Y4, "NaN or infinity"),
    (np.array([[1.0, np.inf]] + [[0.0, 0.0]] * 3), Y4, "NaN or infinity"),
    (np.zeros((0, 2)), np.zeros(0), "0 samples"),
    (np.zeros((4, 0)), Y4, "0 features"),
    (X4.astype(complex), Y4, "real-valued"),
    (np.array([[1, "x"]] * 4, dtype=object), Y4, "non-numeric"),
    ([[1.0, 2.0], [3.0]], Y4, "could not be read|2-D"),
    (X4, Y4[:3], "X has 4 samples but y has 3"),
    (X4, Y4.reshape(-1, 1), r"1-D.*ravel"),
    (X4, np.array([1.0, np.nan, 1.0, -1.0]), "y contains NaN"),
    (X4, Y4.astype(complex), "class labels"),
]


@pytest.mark.parametrize("model", ALL, ids=lambda m: m.__name__)
@pytest.mark.parametrize("X, y, message", BAD_DATA)
def test_bad_data(model, X, y, message):
    with pytest.raises(ValueError, match=message):
        model().fit(X, y)


@pytest.mark.parametrize("model", BINARY, ids=lambda m: m.__name__)
def test_binary_models_need_exactly_two_classes(model):
    with pytest.raises(ValueError, match=r"exactly 2 classes.*got 1"):
        model().fit(X4, np.ones(4))
    with pytest.raises(ValueError, match=r"exactly 2 classes.*got 3.*MulticlassPerceptron"):
        model().fit(X4, [0, 1, 2, 2])


BAD_PARAMS = [
    ({"eta": 0}, "eta must be a positive number"),
    ({"eta": -1.0}, "eta must be a positive number"),
    ({"eta": np.nan}, "eta must be a positive number"),
    ({"eta": "1"}, "eta must be a positive number"),
    ({"eta": True}, "eta must be a positive number"),
    ({"max_iter": 0}, r"max_iter must be an integer >= 1"),
    ({"max_iter": 2.5}, r"max_iter must be an integer >= 1"),
    ({"order": "random"}, "order must be one of"),
    ({"fit_intercept": "yes"}, "fit_intercept must be True or False"),
    ({"random_state": "seed"}, "random_state must be"),
    ({"random_state": -1}, "random_state must be"),
]


@pytest.mark.parametrize("model", ALL, ids=lambda m: m.__name__)
@pytest.mark.parametrize("params, message", BAD_PARAMS)
def test_bad_hyperparameters_are_caught_in_fit(model, params, message):
    clf = model(**params)  # __init__ stores, fit checks
    X, y = (make_blobs3(5, random_state=0) if model is MulticlassPerceptron else (X4, Y4))
    with pytest.raises(ValueError, match=message):
        clf.fit(X, y)


@pytest.mark.parametrize("model", [Perceptron, PocketPerceptron], ids=lambda m: m.__name__)
def test_bad_rule(model):
    with pytest.raises(ValueError, match="rule must be one of 'margin', 'prediction'; got 'hinge'"):
        model(rule="hinge").fit(X4, Y4)


def test_other_flags():
    with pytest.raises(ValueError, match="record must be True or False"):
        Perceptron(record=1).fit(X4, Y4)
    with pytest.raises(ValueError, match="average must be True or False"):
        MulticlassPerceptron(average="no").fit(X4, Y4)
    with pytest.raises(ValueError, match="order must be one of 'cyclic', 'shuffle'"):
        AveragedPerceptron(order="random-mistake").fit(X4, Y4)


@pytest.mark.parametrize("model", ALL, ids=lambda m: m.__name__)
def test_predict_before_fit_and_with_other_features(model):
    with pytest.raises(NotFittedError, match="call fit"):
        model().predict(X4)
    X, y = (make_blobs3(5, random_state=0) if model is MulticlassPerceptron else (X4, Y4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = model().fit(X, y)
    with pytest.raises(ValueError, match=f"X has 3 features but {model.__name__} was fit with 2"):
        clf.predict(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="2-D"):
        clf.predict(np.zeros(2))
    with pytest.raises(ValueError, match="X has 2 samples but y has 3"):
        clf.score(np.zeros((2, 2)), [1, 1, 1])


@pytest.mark.parametrize("model", ALL, ids=lambda m: m.__name__)
def test_inputs_are_never_modified(model):
    X, y = make_noisy(40, 2, 0.2, random_state=0)
    if model is MulticlassPerceptron:
        y = np.arange(40) % 3
    X_int = np.round(X * 10).astype(np.int64)  # an integer array is converted, never written
    for data in (X, X_int, np.asfortranarray(X), X.tolist()):
        before = np.array(data, copy=True)
        y_before = y.copy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clf = model(order="shuffle", random_state=0).fit(data, y)
        clf.predict(data), clf.score(data, y)
        assert np.array_equal(np.asarray(data), before) and np.array_equal(y, y_before)


def test_fitted_attributes_are_not_views_of_the_input():
    """coef_init and intercept_init are the user's arrays: fit must neither write into them nor keep
    them as coef_ (scikit-learn 1.9's Perceptron does write its result into coef_init)."""
    X, y = worked_example()
    w0, b0 = np.array([0.5, -0.5]), np.array([0.25])
    clf = Perceptron().fit(X, y, coef_init=w0, intercept_init=b0)
    assert w0.tolist() == [0.5, -0.5] and b0.tolist() == [0.25]
    assert clf.coef_.tolist() != [0.5, -0.5]  # training moved the weights, and not in w0
    assert not np.shares_memory(clf.coef_, w0) and not np.shares_memory(clf.coef_, X)
    clf.coef_[0] = 99.0
    assert w0[0] == 0.5
    # partial_fit starts from a copy of coef_: the coef_ an earlier call returned is not changed
    p = Perceptron().partial_fit(X, y)
    first = p.coef_
    kept = first.copy()
    p.partial_fit(-X, y)
    assert np.array_equal(first, kept) and not np.shares_memory(p.coef_, first)


def test_helpers_directly():
    assert check_array([[1, 2]]).dtype == np.float64
    X = np.ones((3, 2))
    assert check_array(X) is X  # already float64 C-contiguous: no copy
    with pytest.raises(ValueError, match="sparse"):
        class FakeSparse:
            def toarray(self):
                return np.ones((2, 2))
        check_array(FakeSparse())
    with pytest.raises(ValueError, match="1-D"):
        check_y(np.zeros((2, 2)), 2)
    assert isinstance(check_random_state(3), np.random.Generator)
    with pytest.raises(ValueError, match="random_state"):
        check_random_state(1.5)
