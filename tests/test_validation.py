"""Every bad input gets a ValueError that says what is wrong; nothing passed in is changed."""

import warnings

import numpy as np
import pytest

from perclib import (
    AveragedPerceptron,
    MulticlassPerceptron,
    NotFittedError,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from perclib._validation import (
    _show,
    binary_classes,
    check_array,
    check_bool,
    check_choice,
    check_init,
    check_max_iter,
    check_positive,
    check_random_state,
    check_X_y,
    check_y,
    encode_binary,
)
from perclib.datasets import make_blobs3, make_noisy, worked_example

BINARY = [Perceptron, PocketPerceptron, VotedPerceptron, AveragedPerceptron]
ALL = BINARY + [MulticlassPerceptron]
X4, Y4 = worked_example()

BAD_DATA = [  # scikit-learn's validate_data and check_classification_targets say what is wrong
    (np.array([1.0, 2.0, 3.0, 4.0]), Y4, r"(?s)Expected 2D array, got 1D array.*reshape\(-1, 1\)"),
    (np.zeros((4, 2, 1)), Y4, "Found array with dim 3, while dim <= 2 is required"),
    (np.array([["a", "b"]] * 4), Y4, "could not convert string to float"),
    (np.array([[1.0, np.nan]] + [[0.0, 0.0]] * 3), Y4, "Input X contains NaN"),
    (np.array([[1.0, np.inf]] + [[0.0, 0.0]] * 3), Y4, "Input X contains infinity"),
    (np.zeros((0, 2)), np.zeros(0), r"0 sample\(s\)"),
    (np.zeros((4, 0)), Y4, r"0 feature\(s\)"),
    (X4.astype(complex), Y4, "Complex data not supported"),
    (np.array([[1, "x"]] * 4, dtype=object), Y4, "could not convert string to float: 'x'"),
    ([[1.0, 2.0], [3.0]], Y4, "inhomogeneous shape"),
    (X4, Y4[:3], r"inconsistent numbers of samples: \[4, 3\]"),
    (X4, np.zeros((4, 2)), r"y should be a 1d array, got an array of shape \(4, 2\)"),
    (X4, np.array([1.0, np.nan, 1.0, -1.0]), "Input y contains NaN"),
    (X4, Y4.astype(complex), "Complex data not supported"),
    (X4, np.array([0.5, 1.5, 0.5, 2.5]), "Unknown label type: continuous"),
]


@pytest.mark.parametrize("model", ALL, ids=lambda m: m.__name__)
@pytest.mark.parametrize("X, y, message", BAD_DATA)
def test_bad_data(model, X, y, message):
    with pytest.raises(ValueError, match=message):
        model().fit(X, y)


@pytest.mark.parametrize("model", ALL, ids=lambda m: m.__name__)
def test_a_column_vector_y_is_read_as_1d_with_a_warning(model):
    # scikit-learn's convention (its check_supervised_y_2d): an (n, 1) y is unambiguous, so it is
    # ravelled, with a DataConversionWarning that says so; any other 2-D y is refused above.
    from sklearn.exceptions import DataConversionWarning

    with pytest.warns(DataConversionWarning, match="column-vector y"):
        column = model().fit(X4, Y4.reshape(-1, 1))
    assert np.array_equal(column.predict(X4), model().fit(X4, Y4).predict(X4))


@pytest.mark.parametrize("model", BINARY, ids=lambda m: m.__name__)
def test_binary_models_need_exactly_two_classes(model):
    with pytest.raises(ValueError, match=r"exactly 2 classes.*got 1"):
        model().fit(X4, np.ones(4))
    with pytest.raises(ValueError, match=r"exactly 2 classes.*got 3.*MulticlassPerceptron"):
        model().fit(X4, [0, 1, 2, 2])


ETA = r"The 'eta' parameter of \w+ must be a float in the range \(0.0, inf\)"
MAX_ITER = r"The 'max_iter' parameter of \w+ must be an int in the range \[1, inf\)"
RANDOM_STATE = (
    r"The 'random_state' parameter of \w+ must be None, an int in the range \[0, inf\) or"
)
BAD_PARAMS = [  # declared in _parameter_constraints, checked by scikit-learn at the start of fit
    ({"eta": 0}, ETA),
    ({"eta": -1.0}, ETA),
    ({"eta": np.nan}, ETA),
    ({"eta": "1"}, ETA),
    ({"eta": True}, ETA),  # scikit-learn's own intervals would take True as 1; perclib's do not
    ({"max_iter": 0}, MAX_ITER),
    ({"max_iter": 2.5}, MAX_ITER),
    ({"max_iter": True}, MAX_ITER),
    ({"order": "random"}, r"The 'order' parameter of \w+ must be a str among"),
    (
        {"fit_intercept": "yes"},
        r"The 'fit_intercept' parameter of \w+ must be an instance of 'bool'",
    ),
    ({"random_state": "seed"}, RANDOM_STATE),
    ({"random_state": -1}, RANDOM_STATE),
]


@pytest.mark.parametrize("model", ALL, ids=lambda m: m.__name__)
@pytest.mark.parametrize("params, message", BAD_PARAMS)
def test_bad_hyperparameters_are_caught_in_fit(model, params, message):
    clf = model(**params)  # __init__ stores, fit checks
    X, y = make_blobs3(5, random_state=0) if model is MulticlassPerceptron else (X4, Y4)
    with pytest.raises(ValueError, match=message):
        clf.fit(X, y)


@pytest.mark.parametrize("model", [Perceptron, PocketPerceptron], ids=lambda m: m.__name__)
def test_bad_rule(model):
    with pytest.raises(
        ValueError, match=r"The 'rule' parameter of \w+ must be a str among .*Got 'hinge'"
    ):
        model(rule="hinge").fit(X4, Y4)


def test_other_flags():
    with pytest.raises(
        ValueError, match="The 'record' parameter of Perceptron must be an instance of 'bool'"
    ):
        Perceptron(record=1).fit(X4, Y4)
    with pytest.raises(
        ValueError, match="The 'average' parameter of MulticlassPerceptron must be an instance"
    ):
        MulticlassPerceptron(average="no").fit(X4, Y4)
    with pytest.raises(
        ValueError,
        match=r"The 'order' parameter of AveragedPerceptron must be a str among "
        r"\{'(cyclic|shuffle)', '(cyclic|shuffle)'\}\. Got 'random-mistake'",
    ):
        AveragedPerceptron(order="random-mistake").fit(X4, Y4)


@pytest.mark.parametrize("model", ALL, ids=lambda m: m.__name__)
def test_predict_before_fit_and_with_other_features(model):
    with pytest.raises(NotFittedError, match="call fit"):
        model().predict(X4)
    X, y = make_blobs3(5, random_state=0) if model is MulticlassPerceptron else (X4, Y4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = model().fit(X, y)
    with pytest.raises(
        ValueError, match=f"X has 3 features, but {model.__name__} is expecting 2 features"
    ):
        clf.predict(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="Expected 2D array, got 1D array"):
        clf.predict(np.zeros(2))
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[3, 2\]"):
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


@pytest.mark.parametrize(
    "X, message",
    [  # perclib's own check_array, used by theory, plotting, evaluation
        (np.array([1.0, 2.0]), r"2-D array.*reshape\(-1, 1\)"),
        (np.array([["a", "b"]]), "numeric; got dtype"),
        (np.array([[1, "x"]], dtype=object), "non-numeric"),
        (np.array([[1.0, np.nan]]), "NaN or infinity"),
        (np.zeros((0, 2)), "0 samples"),
        (np.zeros((2, 0)), "0 features"),
        (np.ones((2, 2), dtype=complex), "real-valued"),
        ([[1.0, 2.0], [3.0]], "could not be read as an array"),
    ],
)
def test_check_array_messages(X, message):
    with pytest.raises(ValueError, match=message):
        check_array(X)


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
    with pytest.raises(ValueError, match="X has 2 samples but y has 3"):
        check_y([1, 2, 3], 2)
    with pytest.raises(ValueError, match="y contains NaN"):
        check_y([1.0, np.nan], 2)
    with pytest.raises(ValueError, match="class labels"):
        check_y(np.ones(2, dtype=complex), 2)
    with pytest.raises(ValueError, match="could not be read as an array"):
        check_y([[1], [2, 3]], 2)
    with pytest.raises(ValueError, match="random_state must be"):
        check_random_state(-1)
    assert isinstance(check_random_state(3), np.random.Generator)
    with pytest.raises(ValueError, match="random_state"):
        check_random_state(1.5)


# -- perclib's own checks, message by message (theory, experiments and plotting call them) --------


def _message(call, *args, **kwargs):
    with pytest.raises(ValueError) as info:
        call(*args, **kwargs)
    return str(info.value)


def test_check_array_messages_word_for_word():
    class FakeSparse:
        def toarray(self):
            return np.ones((2, 2))

    assert _message(check_array, FakeSparse(), name="Z") == (
        "Z is a sparse matrix; pass a dense array (for example Z.toarray())."
    )
    assert _message(check_array, np.array([1.0, 2.0]), name="Z") == (
        "Z must be a 2-D array of shape (n_samples, n_features); got 1 dimension(s) with shape "
        "(2,). Reshape with Z.reshape(-1, 1) if it is one feature, or Z.reshape(1, -1) if it is "
        "one sample."
    )
    assert _message(check_array, np.zeros((2, 2, 2))) == (
        "X must be a 2-D array of shape (n_samples, n_features); got 3 dimension(s) with shape "
        "(2, 2, 2)."
    )
    assert _message(check_array, np.array([[1, "x"]], dtype=object)) == (
        "X must be numeric; it holds non-numeric values."
    )
    assert _message(check_array, np.array([["a"]])) == "X must be numeric; got dtype <U1."
    assert _message(check_array, np.ones((1, 1), dtype=complex)) == (
        "X must be real-valued; got complex dtype complex128."
    )
    assert _message(check_array, np.zeros((0, 2))) == (
        "X has 0 samples; at least 1 sample is needed."
    )
    assert _message(check_array, np.zeros((2, 0))) == (
        "X has 0 features; at least 1 feature is needed."
    )
    assert _message(check_array, [[1.0, -np.inf]]) == (
        "X contains NaN or infinity; remove or impute those values first."
    )
    assert _message(check_array, [[1.0], [2.0, 3.0]]).startswith(
        "X could not be read as an array: "
    )


def test_check_array_reads_every_finite_array_whole():
    # a sum that overflows proves nothing: each entry is then checked, and these are all finite
    big = np.array([[1e308, 1e308], [-1e308, 1e308]])
    assert check_array(big) is big
    assert check_array(np.array([[True, False]])).tolist() == [[1.0, 0.0]]
    objects = np.array([[1, 2.5]], dtype=object)
    assert check_array(objects).dtype == np.float64 and check_array(objects).tolist() == [[1, 2.5]]
    fortran = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    out = check_array(fortran)
    assert out.flags["C_CONTIGUOUS"] and np.array_equal(out, fortran) and out is not fortran
    assert check_array(np.ones((1, 1), dtype=np.float32)).dtype == np.float64


def test_check_y_messages_word_for_word_and_what_it_returns():
    assert _message(check_y, np.zeros((3, 1)), 3, name="t") == (
        "t must be 1-D of shape (n_samples,); got shape (3, 1). Use t.ravel() for a column vector."
    )
    assert _message(check_y, np.zeros((1, 3)), 3) == (
        "y must be 1-D of shape (n_samples,); got shape (1, 3). Use y.ravel() for a column vector."
    )
    assert _message(check_y, np.zeros((2, 3)), 3) == (
        "y must be 1-D of shape (n_samples,); got shape (2, 3)."
    )
    assert _message(check_y, [1, 2, 3], 2, name="t") == (
        "X has 2 samples but t has 3; they must match."
    )
    assert _message(check_y, [1.0, np.inf], 2) == (
        "y contains NaN or infinity; every sample needs a label."
    )
    assert _message(check_y, np.ones(2, dtype=complex), 2) == (
        "y must hold class labels; got complex dtype complex128."
    )
    assert _message(check_y, [[1], [2, 3]], 2).startswith("y could not be read as an array: ")
    labels = np.array(["a", "b"])
    assert check_y(labels, 2) is labels and check_y([1, 2], 2).tolist() == [1, 2]
    X, y = check_X_y([[1, 2], [3, 4]], [0, 1])
    assert X.dtype == np.float64 and X.tolist() == [[1, 2], [3, 4]] and y.tolist() == [0, 1]
    with pytest.raises(ValueError, match="X has 2 samples but y has 1"):
        check_X_y([[1, 2], [3, 4]], [0])


def test_binary_classes_and_encode_binary():
    assert binary_classes(np.array([3, 1, 3]), "M").tolist() == [1, 3]
    assert _message(binary_classes, np.array([1, 1]), "M") == (
        "M needs exactly 2 classes in y; got 1 class: [1]."
    )
    assert _message(binary_classes, np.array(["a", "b", "c"]), "M") == (
        "M needs exactly 2 classes in y; got 3 classes: ['a', 'b', 'c']. Only binary "
        "classification is supported: use MulticlassPerceptron for more than two."
    )
    assert _message(binary_classes, np.arange(8), "M").endswith(
        "got 8 classes: [0, 1, 2, 3, 4, 5, ...]. Only binary classification is supported: use "
        "MulticlassPerceptron for more than two."
    )
    assert _show(range(6)) == "[0, 1, 2, 3, 4, 5]" and _show([]) == "[]"
    assert _show(range(7), limit=2) == "[0, 1, ...]"
    classes = np.array(["ham", "spam"])
    assert encode_binary(np.array(["spam", "ham", "spam"]), classes).tolist() == [1.0, -1.0, 1.0]
    assert _message(encode_binary, np.array(["ham", "eggs", "bacon", "eggs"]), classes) == (
        "y holds labels ['bacon', 'eggs'] that are not in classes ['ham', 'spam']."
    )


def test_the_parameter_checks():
    assert check_positive(2, "eta") == 2.0 and type(check_positive(2, "eta")) is float
    assert check_positive(1e-300, "eta") == 1e-300
    for bad in (0, -1.0, np.inf, np.nan, True, "1", None):
        assert _message(check_positive, bad, "eta") == (
            f"eta must be a positive number; got {bad!r}."
        )
    assert check_max_iter(np.int64(3)) == 3 and type(check_max_iter(np.int64(3))) is int
    assert check_max_iter(1) == 1
    for bad in (0, -2, 2.0, True, "3"):
        assert _message(check_max_iter, bad, "epochs") == (
            f"epochs must be an integer >= 1; got {bad!r}."
        )
    assert _message(check_max_iter, 0) == "max_iter must be an integer >= 1; got 0."
    assert check_choice("b", "rule", ("a", "b")) == "b"
    for bad in ("c", 1, None):
        assert _message(check_choice, bad, "rule", ("a", "b")) == (
            f"rule must be one of 'a', 'b'; got {bad!r}."
        )
    assert check_bool(np.bool_(True), "flag") is True and check_bool(False, "flag") is False
    for bad in (1, 0, "yes", None):
        assert _message(check_bool, bad, "flag") == f"flag must be True or False; got {bad!r}."


def test_check_random_state():
    g = np.random.default_rng(5)
    assert check_random_state(g) is g
    assert check_random_state(7).random() == np.random.default_rng(7).random()
    assert check_random_state(np.int64(7)).random() == np.random.default_rng(7).random()
    assert check_random_state(0).random() == np.random.default_rng(0).random()
    assert isinstance(check_random_state(None), np.random.Generator)
    for bad in (-1, 1.5, True, "3", np.random.RandomState(0)):
        assert _message(check_random_state, bad) == (
            f"random_state must be None, a non-negative integer or a numpy Generator; got {bad!r}."
        )


def test_check_init():
    w, b = check_init(None, None, 3)
    assert w.tolist() == [0.0, 0.0, 0.0] and w.dtype == np.float64 and b.shape == () and b == 0
    W, B = check_init(None, None, 2, shape=(3, 2))
    assert W.shape == (3, 2) and not W.any() and B.shape == (3,) and not B.any()
    coef, bias = [1, 2], np.array([0.5])
    w, b = check_init(coef, bias, 2)
    assert w.tolist() == [1.0, 2.0] and w.dtype == np.float64 and b.shape == () and b == 0.5
    w[0], b[...] = 9.0, 9.0
    assert coef == [1, 2] and bias.tolist() == [0.5]  # copies: the caller's values stay
    assert check_init(None, 2, 2)[1] == 2.0 and check_init(None, 2, 2)[1].dtype == np.float64
    W, B = check_init(np.ones((3, 2), dtype=int), [1, 2, 3], 2, shape=(3, 2))
    assert W.shape == (3, 2) and B.tolist() == [1.0, 2.0, 3.0]
    assert W.dtype == np.float64 and B.dtype == np.float64  # integers in, float64 weights out
    assert _message(check_init, [1, 2, 3], None, 2) == ("coef_init must have shape (2,); got (3,).")
    assert _message(check_init, [1, np.nan], None, 2) == "coef_init contains NaN or infinity."
    assert _message(check_init, None, [1, 2], 2) == (
        "intercept_init must have shape () (a number); got (2,)."
    )
    assert _message(check_init, None, [1, 2], 2, shape=(3, 2)) == (
        "intercept_init must have shape (3,); got (2,)."
    )
    assert _message(check_init, None, -np.inf, 2) == "intercept_init contains NaN or infinity."
    assert _message(check_init, None, [np.nan], 2) == "intercept_init contains NaN or infinity."
