"""VotedPerceptron against a brute-force vote."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from perclib import (
    AveragedPerceptron,
    KernelPerceptron,
    MulticlassPerceptron,
    Perceptron,
    VotedPerceptron,
)
from perclib.datasets import make_blobs3, make_noisy, worked_example
from perclib.voted import prediction_cost


def brute_force(X, y, epochs):
    """Freund & Schapire's pseudocode, with a list of (w, b, c) and loops everywhere."""
    ys = [1 if v == max(y) else -1 for v in y]
    k_list = [[[0.0] * len(X[0]), 0.0, 0]]
    for _ in range(epochs):
        for x, t in zip(X.tolist(), ys):
            w, b, _ = k_list[-1]
            a = sum(wj * xj for wj, xj in zip(w, x)) + b
            if t * a <= 0:
                k_list.append([[wj + t * xj for wj, xj in zip(w, x)], b + t, 1])
            else:
                k_list[-1][2] += 1
    return k_list


def brute_vote(k_list, x):
    s = 0
    for w, b, c in k_list:
        a = sum(wj * xj for wj, xj in zip(w, x)) + b
        s += c * (1 if a >= 0 else -1)
    return 1 if s >= 0 else -1


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 25),
    d=st.integers(1, 3),
    flip=st.floats(0, 0.3),
    seed=st.integers(0, 10_000),
    epochs=st.integers(1, 5),
)
def test_voted_prediction_equals_brute_force_vote(n, d, flip, seed, epochs):
    X, y = make_noisy(n, d, flip, random_state=seed)
    assume(len(np.unique(y)) == 2)
    clf = VotedPerceptron(max_iter=epochs).fit(X, y)
    k_list = brute_force(X, y, epochs)
    assert clf.counts_.tolist() == [c for _, _, c in k_list]
    assert np.array_equal(clf.weights_, [w for w, _, _ in k_list])
    assert np.array_equal(clf.intercepts_, [b for _, b, _ in k_list])
    Xt = np.random.default_rng(seed).uniform(-1.5, 1.5, size=(30, d))
    expected = [brute_vote(k_list, x) for x in Xt.tolist()]
    assert clf.predict(Xt).tolist() == expected
    assert clf.counts_.sum() == n * epochs  # every visit counts once, in the vector that made it


def test_counts_and_last_iterate():
    X, y = worked_example()
    clf = VotedPerceptron(max_iter=3).fit(X, y)
    assert clf.counts_.tolist() == [0, 2, 4, 6] and clf.weights_.shape == (4, 2)
    p = Perceptron().fit(X, y)
    assert np.array_equal(clf.last_coef_, p.coef_) and clf.last_intercept_ == p.intercept_
    assert clf.n_updates_ == 3 and clf.converged_
    assert not hasattr(clf, "coef_")  # the voted classifier is not one linear model


def test_shuffle_and_no_intercept():
    X, y = make_noisy(60, 2, 0.1, random_state=2)
    a = VotedPerceptron(order="shuffle", random_state=3, fit_intercept=False).fit(X, y)
    b = VotedPerceptron(order="shuffle", random_state=3, fit_intercept=False).fit(X, y)
    assert np.array_equal(a.weights_, b.weights_) and np.all(a.intercepts_ == 0.0)
    assert a.score(X, y) > 0.7


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize(
    "model, attrs",
    [
        (AveragedPerceptron, ("coef_", "intercept_", "last_coef_", "c_", "mistakes_")),
        (VotedPerceptron, ("weights_", "intercepts_", "counts_", "last_coef_", "mistakes_")),
        (MulticlassPerceptron, ("coef_", "intercept_", "last_coef_", "mistakes_")),
    ],
)
def test_partial_fit_continues_the_fit_epoch_by_epoch(model, attrs, order):
    """Three calls of partial_fit are fit with max_iter=3, and so is fit with max_iter=2 followed
    by one partial_fit: the same visiting order (the same shuffles from random_state), the same
    state carried from call to call (iterates, survival counts, CIML's sums)."""
    if model is MulticlassPerceptron:  # three overlapping blobs: no epoch is free of mistakes
        X, y = make_blobs3(20, spread=1.5, random_state=1)
    else:
        X, y = make_noisy(60, 3, 0.1, random_state=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = model(max_iter=3, order=order, random_state=5).fit(X, y)
        calls = model(order=order, random_state=5)
        for _ in range(3):
            calls.partial_fit(X, y, classes=np.unique(y))
        resumed = model(max_iter=2, order=order, random_state=5).fit(X, y)
        resumed.partial_fit(X, y)
    assert whole.n_updates_ > 5 and whole.mistakes_.shape == (3,)
    for other in (calls, resumed):
        for name in attrs:
            got, want = getattr(other, name), getattr(whole, name)
            assert np.array_equal(got, want) and np.asarray(got).dtype == np.asarray(want).dtype, (
                name
            )
    if order == "shuffle":  # the order mattered: cyclic epochs give other iterates
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # three epochs, not converged: as above
            cyclic = model(max_iter=3, random_state=5).fit(X, y)
        assert not np.array_equal(cyclic.last_coef_, whole.last_coef_)


# ---------------------------------------------------------------- ties
# Two examples on the same point x = 1 with opposite labels, no intercept, one epoch: the first
# is a tie (a = 0, a mistake), v_1 = 1; the second is then a mistake, v_2 = 0. Counts (0, 1, 1).
# At x = -1 the vote is 1 * sign(-1) + 1 * sign(0) = 0: a tie. At x = 0 every activation is 0.
TIE_X, TIE_Y = np.array([[1.0], [1.0]]), np.array(["yes", "no"])  # classes_ = ["no", "yes"]
VOTED = {
    "VotedPerceptron": lambda: VotedPerceptron(max_iter=1, fit_intercept=False),
    "KernelPerceptron(vote=True)": lambda: KernelPerceptron(
        kernel="linear", vote=True, max_iter=1, fit_intercept=False
    ),
}
AVERAGED = {
    "AveragedPerceptron": lambda: AveragedPerceptron(max_iter=1, fit_intercept=False),
    "KernelPerceptron(average=True)": lambda: KernelPerceptron(
        kernel="linear", average=True, max_iter=1, fit_intercept=False
    ),
}


@pytest.mark.parametrize("make", VOTED.values(), ids=VOTED.keys())
def test_a_tied_vote_predicts_classes_1_and_scores_positive(make):
    clf = make().fit(TIE_X, TIE_Y)
    assert clf.counts_.tolist() == [0, 1, 1]
    Xt = np.array([[-1.0], [0.0], [2.0], [-3.0]])
    # the iterates' activations at x are (0, x, 0): the vote is sign(x) + 1, 0 where x < 0
    votes = [sum(c * (1 if a >= 0 else -1) for c, a in zip([0, 1, 1], [0, x, 0])) for x in Xt[:, 0]]
    assert votes == [0, 2, 2, 0]
    decision = clf.decision_function(Xt)
    assert decision.tolist() == [0.5, 2.0, 2.0, 0.5]  # a tie scores half a vote for +1
    assert clf.predict(Xt).tolist() == ["yes"] * 4  # sign(0) = +1 at both levels
    assert np.array_equal(clf.predict(Xt), clf.classes_[(decision > 0).astype(int)])


@pytest.mark.parametrize("make", VOTED.values(), ids=VOTED.keys())
@pytest.mark.parametrize("seed", range(10))
def test_predict_is_classes_1_exactly_where_the_vote_is_positive(make, seed):
    """On integer data and an integer grid, ties are common; scikit-learn's rule holds on each."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(12, 2)).astype(float)
    y = np.where(rng.random(12) < 0.5, 3, 7)
    y[:2] = 3, 7
    grid = np.array([[i, j] for i in range(-3, 4) for j in range(-3, 4)], dtype=float)
    clf = make().set_params(max_iter=3).fit(X, y)
    decision = clf.decision_function(np.vstack([X, grid]))
    predicted = clf.predict(np.vstack([X, grid]))
    assert np.array_equal(predicted, clf.classes_[(decision > 0).astype(int)])
    assert not np.any(decision == 0)


@pytest.mark.parametrize("make", AVERAGED.values(), ids=AVERAGED.keys())
def test_an_averaged_activation_of_exactly_0_predicts_classes_1(make):
    """The averaged perceptron is one linear classifier: decision_function is its activation and
    predict keeps the course's sign(0) = +1 (Perceptron's), so on the boundary itself, and only
    there, predict is classes_[1] while the activation is 0."""
    clf = make().fit(TIE_X, TIE_Y)
    Xt = np.array([[0.0], [1.0], [-1.0]])
    decision = clf.decision_function(Xt)
    assert decision[0] == 0 and decision[1] > 0 > decision[2]
    assert clf.predict(Xt).tolist() == ["yes", "yes", "no"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # one epoch with mistakes: not converged, as meant
        p = Perceptron(fit_intercept=False, max_iter=1).fit(TIE_X, TIE_Y)
    assert p.decision_function(Xt[:1]).tolist() == [0.0] and p.predict(Xt[:1]).tolist() == ["yes"]


# ---------------------------------------------------------------- prediction cost
def test_prediction_cost_counts_the_vectors():
    X, y = make_noisy(100, 5, flip=0.1, random_state=0)
    voted = VotedPerceptron(max_iter=4).fit(X, y)
    K = voted.n_updates_ + 1
    assert prediction_cost(voted) == {
        "vectors": K,
        "multiplications": K * 5 + K,
        "numbers_stored": K * 7,
    }
    avg = AveragedPerceptron(max_iter=4).fit(X, y)
    assert prediction_cost(avg) == {"vectors": 1, "multiplications": 5, "numbers_stored": 6}
    with pytest.raises(ValueError, match="fitted"):
        prediction_cost(VotedPerceptron())
    with pytest.raises(ValueError, match="fitted"):
        prediction_cost("model")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        multi = MulticlassPerceptron(max_iter=2).fit(X, np.arange(100) % 3)
    with pytest.raises(ValueError, match="binary models"):
        prediction_cost(multi)
