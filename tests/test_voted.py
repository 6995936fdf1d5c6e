"""VotedPerceptron against a brute-force vote."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from perclib import AveragedPerceptron, MulticlassPerceptron, Perceptron, VotedPerceptron
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
