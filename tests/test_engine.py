"""The reference loop's tie handling: decisions follow scikit-learn's left-to-right sum exactly."""

import numpy as np

from perclib._engine import _seq_dot, activation, scores


def test_activation_settles_near_ties_with_the_left_to_right_sum():
    rng = np.random.default_rng(0)
    differ = 0
    for _ in range(2000):
        d = int(rng.integers(2, 200))
        w, x = rng.normal(size=d), rng.normal(size=d)
        b = -_seq_dot(w, x)  # the left-to-right activation is exactly 0
        differ += float(np.dot(w, x)) + b != 0.0  # numpy's own order often is not
        assert activation(w, b, x) == 0.0
        X = np.vstack([x, rng.normal(size=d)])
        a = scores(X, w, b, np.linalg.norm(X, axis=1))
        assert a[0] == 0.0  # the same tie, found by the vectorised scan
        assert np.sign(a[1]) == np.sign(_seq_dot(w, X[1]) + b)
    assert differ > 100  # the fallback mattered, not just ran


def test_far_from_ties_numpy_dot_is_kept():
    w, x = np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0, 1.0])
    assert activation(w, 0.5, x) == 6.5
