"""AveragedPerceptron against the naive average of the iterates, and against scikit-learn."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.linear_model import SGDClassifier

from perclib import AveragedPerceptron, Perceptron
from perclib.datasets import make_noisy, make_separable, worked_example


def naive_average(X, y, eta, epochs, order_seed=None):
    """Average of w_0, ..., w_T, keeping every iterate: O(examples * d) extra work."""
    ys = np.where(y == np.max(y), 1.0, -1.0)
    w, b = np.zeros(X.shape[1]), 0.0
    ws, bs = [w.copy()], [b]
    rng = np.random.default_rng(order_seed)
    for _ in range(epochs):
        idx = range(len(X)) if order_seed is None else rng.permutation(len(X))
        for i in idx:
            if ys[i] * (w @ X[i] + b) <= 0:
                w = w + eta * ys[i] * X[i]
                b = b + eta * ys[i]
            ws.append(w.copy())
            bs.append(b)
    return np.mean(ws, axis=0), float(np.mean(bs)), w, b


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 30),
    d=st.integers(1, 4),
    flip=st.floats(0, 0.3),
    seed=st.integers(0, 10_000),
    epochs=st.integers(1, 6),
    eta=st.sampled_from([1.0, 0.5]),
    shuffle=st.booleans(),
)
def test_equals_the_naive_average(n, d, flip, seed, epochs, eta, shuffle):
    X, y = make_noisy(n, d, flip, margin=0.05, random_state=seed)
    assume(len(np.unique(y)) == 2)
    clf = AveragedPerceptron(
        eta=eta, max_iter=epochs, order="shuffle" if shuffle else "cyclic", random_state=seed
    ).fit(X, y)
    w_avg, b_avg, w_last, b_last = naive_average(X, y, eta, epochs, seed if shuffle else None)
    assert np.allclose(clf.coef_, w_avg, rtol=1e-9, atol=1e-9)
    assert clf.intercept_ == pytest.approx(b_avg, rel=1e-9, abs=1e-9)
    # the last iterate is a sum in the same order as the loop's: exact
    assert np.array_equal(clf.last_coef_, w_last) and clf.last_intercept_ == b_last
    assert clf.c_ == n * epochs + 1


def test_last_iterate_is_the_perceptron():
    X, y = make_noisy(100, 3, 0.1, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = Perceptron(max_iter=5).fit(X, y)
    a = AveragedPerceptron(max_iter=5).fit(X, y)
    assert np.array_equal(a.last_coef_, p.coef_) and a.mistakes_.tolist() == p.mistakes_.tolist()
    assert a.n_updates_ == p.n_updates_ and a.n_iter_ == 5


def test_sklearn_average_differs_by_T_over_T_plus_1_and_predicts_the_same():
    X, y = make_noisy(200, 4, 0.1, random_state=3)
    epochs = 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = SGDClassifier(
            loss="perceptron",
            learning_rate="constant",
            eta0=1.0,
            penalty=None,
            average=True,
            shuffle=False,
            tol=None,
            max_iter=epochs,
        ).fit(X, y)
    ours = AveragedPerceptron(max_iter=epochs).fit(X, y)
    T = ours.c_ - 1
    assert np.allclose(ours.coef_, sk.coef_[0] * T / (T + 1), rtol=1e-9)
    assert ours.intercept_ == pytest.approx(sk.intercept_[0] * T / (T + 1), rel=1e-9)
    assert np.array_equal(ours.predict(X), sk.predict(X))


def test_fit_intercept_false_and_converged_flag():
    X, y = make_separable(40, 2, 0.2, bias=False, random_state=1)
    clf = AveragedPerceptron(fit_intercept=False, max_iter=30).fit(X, y)
    assert clf.intercept_ == 0.0 and clf.converged_ and clf.score(X, y) == 1.0


def test_worked_example_by_hand():
    # iterates after each of 12 examples: w = (1, 1) from t = 1 on; b = 1,1,0,0,0,0,-1,...,-1
    clf = AveragedPerceptron(max_iter=3).fit(*worked_example())
    assert clf.coef_ == pytest.approx([12 / 13, 12 / 13]) and clf.intercept_ == pytest.approx(
        -4 / 13
    )
