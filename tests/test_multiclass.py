"""MulticlassPerceptron: hand traces, the binary link, averaging, and the argmax tie rule."""

import warnings

import numpy as np
import pytest

from perclib import ConvergenceWarning, MulticlassPerceptron, Perceptron
from perclib.datasets import load_digits, make_blobs3, make_separable


def test_hand_trace():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    clf = MulticlassPerceptron(record=True).fit(X, [0, 1])
    first, second = clf.history_[0], clf.history_[1]
    # all scores 0: argmax picks class 0, which is right for x_1;
    # then class 0 wins x_2 (score 0 vs 0)
    assert not first.updated and first.y_hat == 0
    assert second.updated and second.y_hat == 0 and second.y == 1
    assert second.W.tolist() == [[0.0, -1.0], [0.0, 1.0]] and second.b.tolist() == [-1.0, 1.0]
    # epoch 2: x_1 now scores (-1, 1) through the biases, a mistake; epoch 3 is clean
    third = clf.history_[2]
    assert third.updated and third.scores.tolist() == [-1.0, 1.0]
    assert clf.converged_ and clf.n_iter_ == 3 and clf.mistakes_.tolist() == [1, 1, 0]


def test_argmax_ties_go_to_the_lowest_class():
    clf = MulticlassPerceptron().fit(np.array([[1.0], [2.0], [3.0]]), ["c", "b", "a"])
    clf.coef_ = np.zeros((3, 1))
    clf.intercept_ = np.array([0.0, 1.0, 1.0])
    assert clf.predict([[5.0]]).tolist() == ["b"]


def test_two_classes_follow_the_binary_perceptron_on_the_difference():
    X, y = make_separable(60, 3, 0.05, random_state=4)
    order = np.argsort(
        -y, kind="stable"
    )  # start with a +1 example: the zero-weight tie is then a mistake for both
    X, y = X[order], y[order]
    multi = MulticlassPerceptron(eta=1.0).fit(X, y)
    binary = Perceptron(eta=2.0).fit(X, y)  # each multi-class step moves w_+ - w_- by 2*eta*y*x
    # w_0 = -w_1 exactly (each step adds to one what it takes from the other), so
    # w_1 - w_0 = 2 w_1 is the binary sum of 2 y x in the same order: exact
    assert np.array_equal(multi.coef_[1] - multi.coef_[0], binary.coef_)
    assert multi.intercept_[1] - multi.intercept_[0] == binary.intercept_
    assert multi.n_updates_ == binary.n_updates_


def _iterates(X, y, epochs, n_classes=3):
    """The multi-class perceptron as a plain loop (eta = 1, cyclic order, from 0): the last W and
    every iterate (W, b), the start included, one per visit."""
    W, b = np.zeros((n_classes, X.shape[1])), np.zeros(n_classes)
    Ws, bs = [W.copy()], [b.copy()]
    for _ in range(epochs):
        for x, t in zip(X, y):
            p = int(np.argmax(W @ x + b))
            if p != t:
                W[t] += x
                W[p] -= x
                b[t] += 1
                b[p] -= 1
            Ws.append(W.copy())
            bs.append(b.copy())
    return W, Ws, bs


def test_average_equals_naive_average_per_class():
    X, y = make_blobs3(15, spread=1.2, random_state=0)
    epochs = 4
    clf = MulticlassPerceptron(average=True, max_iter=epochs).fit(X, y)
    W, Ws, bs = _iterates(X, y, epochs)
    assert np.allclose(clf.coef_, np.mean(Ws, axis=0)) and np.allclose(
        clf.intercept_, np.mean(bs, axis=0)
    )
    assert np.array_equal(clf.last_coef_, W) and clf.n_iter_ == epochs


def test_digits_learns_and_warns_when_not_converged():
    X, y = load_digits()
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        clf = MulticlassPerceptron(max_iter=2).fit(X, y)
    assert clf.coef_.shape == (10, 64) and clf.intercept_.shape == (10,)
    assert clf.score(X, y) > 0.85
    assert clf.decision_function(X[:3]).shape == (3, 10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        avg = MulticlassPerceptron(
            max_iter=2, average=True, order="shuffle", random_state=0, fit_intercept=False
        ).fit(X, y)
    assert np.all(avg.intercept_ == 0) and avg.score(X, y) > 0.85


def test_needs_two_classes():
    with pytest.raises(ValueError, match="at least 2 classes"):
        MulticlassPerceptron().fit([[1.0], [2.0]], [3, 3])


def test_decision_function_is_the_class_scores_and_their_difference_for_two_classes():
    X3, y3 = make_blobs3(8, random_state=1)
    clf = MulticlassPerceptron(max_iter=3).fit(X3, y3)
    W, b = clf.coef_.tolist(), clf.intercept_.tolist()
    # every score by a plain loop over the features: w_k.x + b_k
    expected = [
        [sum(wj * xj for wj, xj in zip(W[k], x)) + b[k] for k in range(3)] for x in X3.tolist()
    ]
    assert np.allclose(clf.decision_function(X3), expected, rtol=1e-12, atol=1e-12)
    assert clf.decision_function(X3).shape == (24, 3)
    # two classes: one number per row, the score of classes_[1] minus that of classes_[0]
    X2, y2 = make_separable(30, 2, 0.1, random_state=5)
    two = MulticlassPerceptron().fit(X2, np.where(y2 > 0, "yes", "no"))
    W, b = two.coef_.tolist(), two.intercept_.tolist()
    diff = [
        (sum(w1 * xj for w1, xj in zip(W[1], x)) + b[1])
        - (sum(w0 * xj for w0, xj in zip(W[0], x)) + b[0])
        for x in X2.tolist()
    ]
    out = two.decision_function(X2)
    assert out.shape == (30,) and np.allclose(out, diff, rtol=1e-12, atol=1e-12)
    assert min(abs(v) for v in diff) > 1e-9  # no row on the boundary: predict is the sign
    assert two.converged_
    assert two.predict(X2).tolist() == ["yes" if v > 0 else "no" for v in diff]


def test_averaging_runs_every_epoch_even_after_a_clean_one():
    X, y = make_blobs3(10, spread=0.3, random_state=0)  # well apart: a clean epoch comes early
    plain = MulticlassPerceptron().fit(X, y)
    assert plain.converged_ and plain.n_iter_ < 6
    for reference in (False, True):
        clf = MulticlassPerceptron(average=True, max_iter=6)
        clf._reference = reference
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # averaging never warns
            clf.fit(X, y)
        assert clf.n_iter_ == 6 and clf.mistakes_.tolist()[-1] == 0
        # the average of the 6 * 30 + 1 iterates, the last ones equal to the converged weights
        _, Ws, bs = _iterates(X, y, 6)
        assert np.allclose(clf.coef_, np.mean(Ws, axis=0), rtol=1e-12, atol=1e-12)
        assert np.allclose(clf.intercept_, np.mean(bs, axis=0), rtol=1e-12, atol=1e-12)
        assert np.array_equal(clf.last_coef_, plain.coef_)


def test_a_recorded_fit_that_converges_does_not_warn_and_records_each_visit():
    X, y = make_blobs3(6, spread=0.3, random_state=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = MulticlassPerceptron(record=True).fit(X, y)
    assert clf.converged_ and len(clf.history_) == 18 * clf.n_iter_
    for k, step in enumerate(clf.history_):
        assert step.epoch == 1 + k // 18 and step.index == k % 18
        assert np.array_equal(step.x, X[k % 18]) and step.y == y[k % 18]


def test_recorded_partial_fits_number_their_epochs_on():
    X, y = make_blobs3(4, random_state=3)
    clf = MulticlassPerceptron(record=True)
    for call in range(1, 4):  # one example per call: each call is one more epoch
        clf.partial_fit(X[call : call + 1], y[call : call + 1], classes=[0, 1, 2])
        assert [s.epoch for s in clf.history_] == list(range(1, call + 1))
    for call in range(4, 6):  # then two examples per call
        clf.partial_fit(X[:2], y[:2])
        assert [s.epoch for s in clf.history_[-2:]] == [call, call]
    assert clf.n_iter_ == 5


def test_the_convergence_warning_word_for_word_at_the_callers_line_and_converged_(
    assert_warned_at,
):
    X, y = make_blobs3(10, spread=1.5, random_state=0)  # overlapping: no clean epoch in 2
    with pytest.warns(ConvergenceWarning) as caught:
        clf = MulticlassPerceptron(max_iter=2).fit(X, y)
    assert len(caught) == 1 and str(caught[0].message) == (
        "MulticlassPerceptron stopped after max_iter=2 epochs without an epoch free of mistakes: "
        "the classes may not be linearly separable, or it needs more epochs."
    )
    assert_warned_at(caught[0])  # stacklevel: at the line that called fit
    assert clf.converged_ is False and clf.mistakes_[-1] > 0
    for reference in (False, True):
        avg = MulticlassPerceptron(average=True, max_iter=2)
        avg._reference = reference
        avg.fit(X, y)
        assert avg.converged_ is False  # the last epoch made mistakes
        done = MulticlassPerceptron(average=True, max_iter=8)
        done._reference = reference
        done.fit(*make_blobs3(10, spread=0.3, random_state=0))
        assert done.converged_ is True and done.n_iter_ == 8  # all epochs run, the last one clean


@pytest.mark.parametrize("engine", ["block scan", "reference"])
def test_a_fit_that_converges_warns_nothing(engine):
    """Three separable blobs: an epoch free of mistakes comes, and with it no ConvergenceWarning
    (on both paths: each reports its own convergence)."""
    X, y = make_blobs3(30, spread=0.3, random_state=1)
    model = MulticlassPerceptron(max_iter=100)
    model._reference = engine == "reference"
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model.fit(X, y)
    assert model.converged_ and model.n_iter_ < 100 and model.mistakes_[-1] == 0
    assert model.n_updates_ > 0
