"""Bad input: each kind gets a clear ValueError or works correctly.

The models validate with scikit-learn's ``validate_data``, so most messages are scikit-learn's;
perclib adds its own where scikit-learn's would not be a ``ValueError`` (sparse input to a model
that needs dense input, ``None`` among the labels).
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import Perceptron as SkPerceptron

from perclib import (
    AveragedPerceptron,
    MulticlassPerceptron,
    NotFittedError,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from perclib.datasets import make_noisy, worked_example

MODELS = [Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron, MulticlassPerceptron]


def _fit(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model().fit(X, y)


@pytest.mark.parametrize("model", [PocketPerceptron, VotedPerceptron, MulticlassPerceptron])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_scipy_sparse_gets_a_valueerror_at_fit_predict_and_score(model, fmt):
    """Perceptron and AveragedPerceptron take sparse input (tests/test_sklearn_compat.py); the
    others say so."""
    X, y = worked_example()
    Xs = sp.csr_matrix(X).asformat(fmt)
    with pytest.raises(ValueError, match="sparse.*toarray"):
        model().fit(Xs, y)
    clf = _fit(model, X, y)
    for call in (lambda: clf.predict(Xs), lambda: clf.score(Xs, y)):
        with pytest.raises(ValueError, match="sparse.*toarray"):
            call()


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_and_inf_get_a_valueerror_at_predict_and_score(model, bad):
    X, y = worked_example()
    clf = _fit(model, X, y)
    Xb = X.copy()
    Xb[2, 1] = bad
    for call in (
        lambda: clf.predict(Xb),
        lambda: clf.score(Xb, y),
        lambda: clf.decision_function(Xb),
    ):
        with pytest.raises(ValueError, match="Input X contains (NaN|infinity)"):
            call()
    assert np.isnan(Xb[2, 1]) or np.isinf(Xb[2, 1])  # the caller's array is left as it was


@pytest.mark.parametrize("model", MODELS)
def test_empty_input_gets_a_valueerror_at_fit_predict_and_score(model):
    X, y = worked_example()
    clf = _fit(model, X, y)
    for call in (
        lambda: model().fit(np.zeros((0, 2)), []),
        lambda: clf.predict(np.zeros((0, 2))),
        lambda: clf.score(np.zeros((0, 2)), []),
    ):
        with pytest.raises(ValueError, match=r"0 sample\(s\)"):
            call()
    with pytest.raises(ValueError, match=r"0 feature\(s\)"):
        clf.predict(np.zeros((2, 0)))


def test_bool_and_float32_x_are_read_as_float64():
    """Bool X is 0/1 and float32 X its exact float64 values: the weights are those of the float64
    array, bit for bit, and scikit-learn's on that array."""
    X, y = make_noisy(60, 3, 0.1, random_state=2)
    X32 = X.astype(np.float32)
    Xb = X > 0
    for Xin in (X32, Xb):
        X64 = Xin.astype(np.float64)
        got = _fit(Perceptron, Xin, y)
        ref = _fit(Perceptron, X64, y)
        assert np.array_equal(got.coef_, ref.coef_) and got.intercept_ == ref.intercept_
        assert got.coef_.dtype == np.float64
        sk = SkPerceptron(shuffle=False, tol=None, max_iter=100)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sk.fit(X64, y)
        assert np.array_equal(got.coef_, sk.coef_.ravel())
        assert np.array_equal(got.predict(Xin), ref.predict(X64))


@pytest.mark.parametrize(
    "model", [Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron]
)
def test_bool_and_object_labels_work_like_their_codes(model):
    """y as bools or Python objects: the classes keep their type, True / "b" is the +1 class (the
    larger), and the weights are those learned from -1/+1."""
    X, y = worked_example()
    ref = _fit(model, X, y)
    for labels in (y > 0, np.array(["a" if v < 0 else "b" for v in y], dtype=object)):
        clf = _fit(model, X, labels)
        assert clf.classes_.tolist() == sorted(set(labels.tolist()))
        weights = "weights_" if model is VotedPerceptron else "coef_"
        assert np.array_equal(getattr(clf, weights), getattr(ref, weights))
        expected = np.where(ref.predict(X) > 0, clf.classes_[1], clf.classes_[0])
        assert clf.predict(X).tolist() == expected.tolist()
        assert clf.score(X, labels) == ref.score(X, y)


# scikit-learn casts the labels before it checks them: numpy warns about the NaN it casts.
@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")
def test_nan_labels_get_a_valueerror():
    X, y = worked_example()
    with pytest.raises(ValueError, match="Input y contains NaN"):
        Perceptron().fit(X, np.array([1.0, np.nan, -1.0, -1.0]))
    clf = _fit(Perceptron, X, y)
    with pytest.raises(ValueError, match="Input y_true contains NaN"):
        clf.score(X, np.array([1.0, np.nan, -1.0, -1.0]))


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(
    "labels", [[1, None, -1, -1], ["a", None, "b", "b"]], ids=["numbers", "strings"]
)
def test_none_among_the_labels_gets_a_valueerror(model, labels):
    X, _ = worked_example()
    y = np.array(labels, dtype=object)
    with pytest.raises(ValueError, match=r"^y holds None: every sample needs a label\.$"):
        model().fit(X, y)
    assert y.tolist() == labels  # the caller's labels are left as they were


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("method", ["predict", "decision_function"])
def test_an_unfitted_model_names_the_call_that_needs_fit(model, method):
    with pytest.raises(ValueError) as info:  # NotFittedError is a ValueError, as scikit-learn's
        getattr(model(), method)([[1.0, 2.0]])
    assert str(info.value) == (
        f"This {model.__name__} is not fitted yet: call fit(X, y) before {method}."
    )


@pytest.mark.parametrize("model", MODELS)
def test_a_fit_that_fails_leaves_the_model_unfitted(model):
    """A fit that fails after reading X (a single class in y) sets ``n_features_in_`` but no
    ``classes_``: the model is still unfitted, and predict says so instead of an AttributeError."""
    X, _ = worked_example()
    clf = model()
    with pytest.raises(ValueError, match="class"):
        clf.fit(X, np.ones(len(X)))
    assert hasattr(clf, "n_features_in_") and not hasattr(clf, "classes_")
    with pytest.raises(NotFittedError, match=r"^This \w+ is not fitted yet: call fit\(X, y\)"):
        clf.predict(X)


@pytest.mark.parametrize("model", [Perceptron, AveragedPerceptron])
@pytest.mark.parametrize(
    "broken",
    [
        "negative column",
        "column past the end",
        "falling row pointer",
        "row pointer past the data",
        "first row pointer not 0",
        "a row pointer missing",
    ],
)
def test_a_malformed_csr_matrix_gets_a_valueerror(model, broken):
    """The compiled loops index w by the CSR column indices without checking them again (as
    unsigned integers, for speed): a malformed matrix must be stopped at fit, with a clear error,
    not read out of bounds. The matrix passed in is not changed."""
    X = sp.csr_matrix(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0], [4.0, 0.0, 5.0]]))
    data, indices, indptr = X.data.copy(), X.indices.copy(), X.indptr.copy()
    # the bad entries sit in the last row: every row's indices are checked, not only the first's
    if broken == "negative column":
        indices[4] = -1
    elif broken == "column past the end":
        indices[4] = 3
    elif broken == "falling row pointer":
        indptr[1], indptr[2] = 3, 2
    elif broken == "row pointer past the data":
        indptr[3] = 6
    elif broken == "first row pointer not 0":
        indptr[0] = 1
    else:
        indptr = indptr[:-1]
    bad = sp.csr_matrix((3, 3))
    bad.data, bad.indices, bad.indptr = data, indices, indptr  # no constructor check on the way
    before = [a.copy() for a in (bad.data, bad.indices, bad.indptr)]
    with pytest.raises(ValueError) as info:
        model().fit(bad, [1, -1, 1])
    assert str(info.value) == (
        "X is a malformed CSR matrix: its row pointers must rise from 0 to the number of stored "
        "entries and its column indices lie in [0, 3). Rebuild it with "
        "scipy.sparse.csr_matrix((data, indices, indptr), shape=...) from valid arrays."
    )
    assert all(np.array_equal(a, b) for a, b in zip(before, (bad.data, bad.indices, bad.indptr)))


@pytest.mark.parametrize("model", [Perceptron, AveragedPerceptron])
def test_a_csr_matrix_with_spare_room_after_its_entries_is_read_as_scipy_reads_it(model):
    """scipy lets ``indices`` and ``data`` hold more than the ``indptr[-1]`` entries in use (room
    to grow); the rest is not part of the matrix. Not an error, and the fit is the dense one."""
    X = sp.csr_matrix((3, 3))
    X.data = np.array([1.0, 2.0, 3.0, 9.0, 9.0])
    X.indices = np.array([0, 2, 1, -5, 7], dtype=np.int32)  # the spare room holds junk
    X.indptr = np.array([0, 2, 3, 3], dtype=np.int32)
    assert np.array_equal(X.toarray(), [[1.0, 0.0, 2.0], [0.0, 3.0, 0.0], [0.0, 0.0, 0.0]])
    y = [1, -1, -1]
    sparse, dense = model().fit(X, y), model().fit(X.toarray(), y)
    assert np.array_equal(sparse.coef_, dense.coef_) and sparse.intercept_ == dense.intercept_
    assert np.any(sparse.coef_ != 0)


def test_attribute_errors_name_the_model_and_what_is_missing():
    """perclib's AttributeErrors say which model, which attribute, and what to do."""
    model = Perceptron()
    with pytest.raises(NotFittedError, match=r"^This Perceptron has no coef_ yet: it is learned"):
        model.coef_
    for name in ("colour", "_secret_", "__shape__"):  # not learned attributes: Python's message
        with pytest.raises(
            AttributeError, match=rf"^'Perceptron' object has no attribute '{name}'$"
        ):
            getattr(model, name)
    fitted = VotedPerceptron().fit(*worked_example())
    with pytest.raises(AttributeError, match=r"^'VotedPerceptron' object has no attribute 'w_'$"):
        fitted.w_
    fitted = Perceptron().fit(*worked_example())
    with pytest.raises(AttributeError, match=r"use Perceptron\(record=True\)\.fit\(X, y\)\.$"):
        fitted.history_


def test_the_scikit_learn_tags_say_sparse_and_multi_class():
    assert Perceptron().__sklearn_tags__().input_tags.sparse is True
    assert AveragedPerceptron().__sklearn_tags__().input_tags.sparse is True
    assert VotedPerceptron().__sklearn_tags__().input_tags.sparse is False
    assert Perceptron().__sklearn_tags__().classifier_tags.multi_class is False
    assert MulticlassPerceptron().__sklearn_tags__().classifier_tags.multi_class is True


def test_continuous_labels_get_scikit_learns_valueerror():
    X = np.arange(12, dtype=float).reshape(6, 2)
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        MulticlassPerceptron().fit(X, [0.5, 1.5, 2.5, 0.5, 1.5, 2.5])


@pytest.mark.parametrize("model", [Perceptron, MulticlassPerceptron])
@pytest.mark.parametrize("label", [-7, 9])  # below and above every class
def test_partial_fit_names_labels_that_are_not_classes(model, label):
    X, y = worked_example()
    classes = [-1, 1] if model is Perceptron else [-1, 0, 1]
    fitted = model().partial_fit(X, y, classes=classes)
    with pytest.raises(ValueError, match=rf"y holds labels \[{label}\] that are not in classes"):
        fitted.partial_fit(X, np.array([1, -1, label, -1]))


def test_errors_about_the_classes_name_the_model():
    X, y = worked_example()
    message = (
        r"^classes must be given on the first call to partial_fit when y does not hold both "
        r"labels, for example classes=\[-1, 1\]\.$"
    )
    with pytest.raises(ValueError, match=message):
        Perceptron().partial_fit(X[:2], y[:2])
    with pytest.raises(ValueError, match="PocketPerceptron"):
        PocketPerceptron().fit(np.vstack([X, X[:1]]), [0, 1, 2, 0, 1])
    with pytest.raises(ValueError, match="VotedPerceptron needs a dense array"):
        VotedPerceptron().fit(sp.csr_matrix(X), y)


def test_labels_that_cannot_be_sorted_get_scikit_learns_valueerror():
    """Numbers mixed with strings cannot be sorted into classes: scikit-learn's check names the
    problem (not numpy's TypeError from sorting), and the labels passed in are left as they were."""
    X, _ = worked_example()
    y = np.array([1, "a", 1, "a"], dtype=object)
    with pytest.raises(ValueError, match="Unknown label type"):
        Perceptron().fit(X, y)
    assert y.tolist() == [1, "a", 1, "a"]
