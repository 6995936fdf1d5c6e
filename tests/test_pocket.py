"""PocketPerceptron: the pocket holds the best iterate, checked by brute force over all iterates."""

import warnings

import numpy as np

from perclib import Perceptron, PocketPerceptron
from perclib.datasets import make_noisy, make_separable


def errors(X, y, w, b):
    ys = np.where(y == np.max(y), 1, -1)
    return int(np.sum(np.where(X @ w + b >= 0, 1, -1) != ys))


def test_pocket_is_the_best_iterate_seen():
    for seed in range(5):
        X, y = make_noisy(80, 2, 0.15, random_state=seed)
        pocket = PocketPerceptron(max_iter=15).fit(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rec = Perceptron(max_iter=15, record=True).fit(X, y)
        iterates = [(np.zeros(2), 0.0)] + [(s.w, s.b) for s in rec.history_ if s.updated]
        best = min(errors(X, y, w, b) for w, b in iterates)
        assert pocket.pocket_mistakes_ == best == errors(X, y, pocket.coef_, pocket.intercept_)
        assert np.array_equal(pocket.last_coef_, rec.coef_)
        assert pocket.pocket_mistakes_ <= errors(X, y, pocket.last_coef_, pocket.last_intercept_)


def test_pocket_on_separable_data_converges_to_zero_mistakes():
    X, y = make_separable(50, 3, 0.1, random_state=0)
    clf = PocketPerceptron(order="random-mistake", max_iter=10_000, random_state=0).fit(X, y)
    assert clf.converged_ and clf.pocket_mistakes_ == 0 and clf.score(X, y) == 1.0


def test_pocket_does_not_warn_on_noisy_data():
    X, y = make_noisy(50, 2, 0.2, random_state=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = PocketPerceptron(max_iter=3).fit(X, y)
    assert not clf.converged_ and clf.n_iter_ == 3
