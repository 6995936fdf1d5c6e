"""Perceptron against independent oracles: scikit-learn, the lecture's hand trace, Novikoff's
bound."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import Perceptron as SkPerceptron

from perclib import ConvergenceWarning, NotFittedError, Perceptron
from perclib.datasets import (
    load_breast_cancer,
    load_iris,
    make_noisy,
    make_separable,
    make_xor,
    worked_example,
)
from perclib.theory import mistake_bound


def _sk(X, y, eta, k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn warns that tol=None ran max_iter epochs
        return SkPerceptron(shuffle=False, tol=None, eta0=eta, max_iter=k).fit(X, y)


def _ours(X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return Perceptron(**kw).fit(X, y)


def _datasets():
    Xb, yb = load_breast_cancer()
    Xi, yi = load_iris(classes=(1, 2))  # versicolor vs virginica: not separable
    Xs, ys = make_separable(300, 5, margin=0.05, random_state=3)
    Xn, yn = make_noisy(300, 4, flip=0.1, random_state=4)
    return {
        "breast_cancer": (Xb, yb),
        "iris_1_2": (Xi, yi),
        "separable": (Xs, ys),
        "noisy": (Xn, yn),
    }


DATA = _datasets()


@pytest.mark.parametrize("name", sorted(DATA))
@pytest.mark.parametrize("k", [1, 2, 3, 7, 20])
@pytest.mark.parametrize("eta", [1.0, 0.1])
def test_bit_identical_to_sklearn(name, k, eta):
    X, y = DATA[name]
    sk = _sk(X, y, eta, k)
    ours = _ours(X, y, eta=eta, max_iter=k)
    assert np.array_equal(ours.coef_, sk.coef_[0])
    assert np.array_equal(np.array([ours.intercept_]), sk.intercept_)
    assert np.array_equal(
        ours.predict(X[:50]),
        np.where(sk.decision_function(X[:50]) >= 0, sk.classes_[1], sk.classes_[0]),
    )


def test_sklearn_equivalence_runs_to_convergence_on_separable_data():
    X, y = DATA["separable"]
    ours = _ours(X, y, max_iter=1000)
    assert ours.converged_ and ours.n_iter_ > 2
    sk = _sk(X, y, 1.0, ours.n_iter_ + 5)  # extra epochs change nothing once an epoch is clean
    assert np.array_equal(ours.coef_, sk.coef_[0]) and ours.intercept_ == sk.intercept_[0]


def _theta_after_each_epoch(clf):
    last = {}
    for step in clf.history_:
        last[step.epoch] = (step.b, *step.w)
    return [last[e] for e in sorted(last)]


def test_comp90049_worked_example_prediction_rule():
    X, y = worked_example()
    clf = Perceptron(rule="prediction", record=True).fit(X, y)
    assert _theta_after_each_epoch(clf) == [(-2, 0, 0), (-2, 2, 2), (-2, 2, 2)]
    assert clf.mistakes_.tolist() == [1, 2, 0]
    assert clf.n_iter_ == 3 and clf.converged_ and clf.n_updates_ == 3
    # the lecture's table, row by row: (theta . x, y_hat, updated)
    rows = [(s.activation, s.y_hat, s.updated) for s in clf.history_]
    assert rows[:4] == [(0, 1, False), (0, 1, False), (0, 1, True), (-2, -1, False)]
    assert rows[4:8] == [(-2, -1, True), (6, 1, False), (0, 1, True), (-4, -1, False)]


def test_worked_example_margin_rule():
    X, y = worked_example()
    clf = Perceptron(record=True).fit(X, y)
    assert clf.coef_.tolist() == [1, 1] and clf.intercept_ == -1 and clf.n_iter_ == 3
    assert [s.updated for s in clf.history_[:4]] == [True, False, True, False]


@pytest.mark.parametrize("record", [False, True])
def test_mistakes_per_epoch_are_integers(record):
    X, y = worked_example()
    clf = Perceptron(record=record).fit(X, y)
    assert clf.mistakes_.dtype == np.int64 and clf.mistakes_.tolist() == [2, 1, 0]
    online = Perceptron(record=record).partial_fit(X, y).partial_fit(X, y)
    assert online.mistakes_.dtype == np.int64 and online.mistakes_.tolist() == [2, 1]


def test_rules_differ_on_ties_and_by_a_factor_of_two():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    # A tie (activation 0) with y = +1: a mistake for the margin rule only.
    m = Perceptron(rule="margin", max_iter=1, record=True)
    p = Perceptron(rule="prediction", max_iter=1, record=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m.fit(X, [1, -1]), p.fit(X, [1, -1])
    assert m.history_[0].updated and not p.history_[0].updated
    # On a real mistake both move the same way, the prediction rule twice as far.
    w0 = np.array([-1.0, 0.0])
    X2, y2 = np.array([[2.0, 1.0], [-1.0, 3.0]]), np.array([1, -1])
    a = Perceptron(rule="margin", max_iter=1, record=True)
    b = Perceptron(rule="prediction", max_iter=1, record=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a.fit(X2, y2, coef_init=w0, intercept_init=-0.5)
        b.fit(X2, y2, coef_init=w0, intercept_init=-0.5)
    assert a.history_[0].updated and b.history_[0].updated
    assert np.array_equal(b.history_[0].w - w0, 2 * (a.history_[0].w - w0))
    assert b.history_[0].b + 0.5 == 2 * (a.history_[0].b + 0.5)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 25),
    d=st.integers(1, 4),
    margin=st.floats(0.05, 0.3),
    seed=st.integers(0, 10_000),
    order=st.sampled_from(["cyclic", "shuffle", "random-mistake"]),
    rule=st.sampled_from(["margin", "prediction"]),
    eta=st.sampled_from([1.0, 0.25, 3.0]),
)
def test_every_order_converges_within_novikoffs_bound(n, d, margin, seed, order, rule, eta):
    X, y = make_separable(n, d, margin, random_state=seed)
    bound = mistake_bound(X, y)
    clf = Perceptron(
        eta=eta, order=order, rule=rule, random_state=seed, max_iter=int(bound) + 2
    ).fit(X, y)
    assert clf.converged_
    # the 1e-9 only absorbs rounding in the computed bound itself
    assert clf.n_updates_ <= bound * (1 + 1e-9)
    assert clf.score(X, y) == 1.0


def test_does_not_converge_on_xor_stops_and_warns(assert_warned_at):
    X, y = make_xor()
    with pytest.warns(ConvergenceWarning, match="max_iter=25"):
        clf = Perceptron(max_iter=25).fit(X, y)
    assert not clf.converged_ and clf.n_iter_ == 25 and len(clf.mistakes_) == 25
    with pytest.warns(ConvergenceWarning) as caught:
        Perceptron(max_iter=3).fit(X, y)
    assert len(caught) == 1 and str(caught[0].message) == (
        "Perceptron stopped after max_iter=3 epochs without an epoch free of mistakes: the data "
        "may not be linearly separable, or it needs more epochs."
    )
    assert_warned_at(caught[0])  # stacklevel: at the line that called fit
    assert issubclass(ConvergenceWarning, UserWarning)
    with pytest.warns(ConvergenceWarning) as caught:
        Perceptron(max_iter=10, order="random-mistake", random_state=0).fit(X, y)
    assert str(caught[0].message).startswith(
        "Perceptron stopped after max_iter=10 iterations without an epoch free of mistakes"
    )


def test_random_mistake_counts_scans_and_picks_only_mistakes():
    X, y = make_separable(40, 2, 0.1, random_state=0)
    clf = Perceptron(order="random-mistake", random_state=1, max_iter=10_000, record=True).fit(X, y)
    assert clf.converged_ and clf.n_iter_ == clf.n_updates_ + 1
    assert all(s.updated for s in clf.history_) and len(clf.history_) == clf.n_updates_
    assert clf.mistakes_.tolist() == [1] * clf.n_updates_ + [0]


def test_shuffle_is_seeded_and_differs_from_cyclic():
    X, y = make_separable(60, 3, 0.05, random_state=2)
    a = Perceptron(order="shuffle", random_state=7).fit(X, y)
    b = Perceptron(order="shuffle", random_state=7).fit(X, y)
    c = Perceptron(order="cyclic").fit(X, y)
    assert np.array_equal(a.coef_, b.coef_) and not np.array_equal(a.coef_, c.coef_)
    assert (
        Perceptron(order="shuffle", random_state=np.random.default_rng(7)).fit(X, y).coef_.tolist()
        == a.coef_.tolist()
    )


def test_any_two_labels_with_classes_1_as_positive():
    X, y = worked_example()
    labels = np.where(y > 0, "spam", "ham")  # "spam" sorts after "ham": it is +1
    clf = Perceptron().fit(X, labels)
    assert clf.classes_.tolist() == ["ham", "spam"]
    assert clf.predict(X).tolist() == labels.tolist()
    ref = Perceptron().fit(X, y)
    assert np.array_equal(clf.coef_, ref.coef_)
    assert clf.score(X, labels) == 1.0


def test_predict_sends_a_zero_activation_to_the_positive_class():
    clf = Perceptron().fit(*worked_example())  # w = (1, 1), b = -1
    assert clf.decision_function([[0.5, 0.5]]).tolist() == [0.0]
    assert clf.predict([[0.5, 0.5]]).tolist() == [1]


def test_history_records_every_visited_example():
    X, y = worked_example()
    clf = Perceptron(record=True).fit(X, y)
    assert len(clf.history_) == 4 * clf.n_iter_
    s = clf.history_[2]
    assert (s.epoch, s.index, s.x.tolist(), s.y, s.activation, s.updated) == (
        1,
        2,
        [0.0, 0.0],
        -1.0,
        1.0,
        True,
    )
    assert s.w.tolist() == [1.0, 1.0] and s.b == 0.0
    with pytest.raises(AttributeError, match="record=True"):
        Perceptron().fit(X, y).history_


def test_fit_intercept_false_keeps_b():
    X, y = make_separable(50, 2, 0.1, bias=False, random_state=0)
    clf = Perceptron(fit_intercept=False).fit(X, y)
    assert clf.intercept_ == 0.0 and clf.converged_
    clf = Perceptron(fit_intercept=False, max_iter=1000).fit(X, y, intercept_init=0.25)
    assert clf.intercept_ == 0.25


def test_partial_fit_is_one_online_pass():
    X, y = make_separable(80, 3, 0.1, random_state=5)
    online = Perceptron()
    for _ in range(4):
        online.partial_fit(X, y, classes=[-1, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        batch = Perceptron(max_iter=4).fit(X, y)
    assert np.array_equal(online.coef_, batch.coef_) and online.intercept_ == batch.intercept_
    # batch stops after its first clean epoch; the online passes after it make no update either
    assert (
        online.n_iter_ == 4
        and online.mistakes_[: batch.n_iter_].tolist() == batch.mistakes_.tolist()
    )
    assert online.mistakes_[batch.n_iter_ :].sum() == 0 and batch.converged_
    first = Perceptron().partial_fit(X, y)  # both labels present: classes may be omitted
    assert first.classes_.tolist() == [-1, 1]
    with pytest.raises(ValueError, match="classes must be given"):
        Perceptron().partial_fit(X[y == 1], y[y == 1])
    with pytest.raises(ValueError, match="differs from the classes"):
        first.partial_fit(X, y, classes=[0, 1])
    with pytest.raises(ValueError, match="features"):
        first.partial_fit(X[:, :2], y)
    rec = Perceptron(record=True).partial_fit(X, y, classes=[-1, 1]).partial_fit(X, y)
    assert {s.epoch for s in rec.history_} == {1, 2}


def test_initial_weights_are_copied_and_checked():
    X, y = worked_example()
    w0, b0 = np.array([0.5, -0.5]), np.array([0.25])
    clf = Perceptron(rule="prediction").fit(X, y, coef_init=w0, intercept_init=b0)
    assert w0.tolist() == [0.5, -0.5] and b0.tolist() == [0.25] and clf.converged_
    with pytest.raises(ValueError, match="coef_init must have shape"):
        Perceptron().fit(X, y, coef_init=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="intercept_init"):
        Perceptron().fit(X, y, intercept_init=[1.0, 2.0])
    with pytest.raises(ValueError, match="NaN"):
        Perceptron().fit(X, y, coef_init=[np.nan, 0.0])
    with pytest.raises(ValueError, match="NaN"):
        Perceptron().fit(X, y, intercept_init=np.inf)


def test_not_fitted_errors_say_to_call_fit():
    clf = Perceptron()
    for call in (
        lambda: clf.predict([[1.0, 2.0]]),
        lambda: clf.decision_function([[1.0, 2.0]]),
        lambda: clf.score([[1.0, 2.0]], [1]),
    ):
        with pytest.raises(NotFittedError, match=r"call fit\(X, y\)"):
            call()
    with pytest.raises(NotFittedError, match="learned by fit"):
        clf.coef_
    with pytest.raises(
        ValueError, match="call fit"
    ):  # caught as a ValueError, as scikit-learn's is
        clf.predict([[1.0, 2.0]])
    assert not hasattr(clf, "n_iter_")
    with pytest.raises(AttributeError, match="no attribute"):
        clf._private_thing


def test_params_repr_and_refit():
    clf = Perceptron(eta=0.5, rule="prediction")
    assert clf.get_params()["eta"] == 0.5 and repr(clf) == "Perceptron(eta=0.5, rule='prediction')"
    assert clf.set_params(max_iter=7).max_iter == 7
    with pytest.raises(ValueError, match=r"Invalid parameter 'alpha' for estimator Perceptron"):
        clf.set_params(alpha=1)
    X, y = worked_example()
    clf.fit(X, y)
    clf.fit(X[:, :1], y)  # a refit forgets the old shape
    assert clf.coef_.shape == (1,) and clf.n_features_in_ == 1
