"""Seeded generators keep their promises; the real datasets load offline from scikit-learn."""

import numpy as np
import pytest

from perclib import datasets as D
from perclib.theory import max_margin


@pytest.mark.parametrize("d", [1, 2, 5])
@pytest.mark.parametrize("margin", [0.0, 0.1, 0.3])
def test_make_separable_keeps_the_margin(d, margin):
    X, y, (w, b) = D.make_separable(200, d, margin, random_state=d, return_separator=True)
    assert X.shape == (200, d) and set(y.tolist()) == {-1, 1}
    assert np.linalg.norm(w) == pytest.approx(1.0)
    assert np.all(y * (X @ w + b) >= margin) and np.all(np.abs(X) <= 1)
    # the augmented max margin is at least the target's margin over ||(w*, b*)||
    assert max_margin(X, y)[2] >= margin / np.hypot(1.0, b) - 1e-12


def test_seeding_is_deterministic():
    a = D.make_separable(30, 3, 0.1, random_state=5)
    b = D.make_separable(30, 3, 0.1, random_state=5)
    c = D.make_separable(30, 3, 0.1, random_state=6)
    assert np.array_equal(a[0], b[0]) and not np.array_equal(a[0], c[0])
    _, _, (w, b0) = D.make_separable(30, 2, 0.1, bias=False, random_state=1, return_separator=True)
    assert b0 == 0.0


def test_make_noisy_flips_about_the_asked_fraction():
    X, y = D.make_noisy(4000, 2, flip=0.2, random_state=0)
    X2, y2 = D.make_separable(4000, 2, 0.0, random_state=np.random.default_rng(0))
    assert np.array_equal(X, X2)
    assert np.mean(y != y2) == pytest.approx(0.2, abs=0.02)
    assert np.array_equal(
        D.make_noisy(50, flip=0.0, random_state=1)[1],
        D.make_separable(50, margin=0.0, random_state=1)[1],
    )


def test_xor_is_not_separable_and_clouds():
    X, y = D.make_xor()
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin(X, y)
    Xc, yc = D.make_xor(5, noise=0.1, random_state=0)
    assert Xc.shape == (20, 2) and np.array_equal(yc, np.repeat([-1, 1, 1, -1], 5))


def test_lfd_target_passes_through_two_uniform_points():
    rng = np.random.default_rng(3)
    p, q = rng.uniform(-1, 1, size=(2, 2))
    w, b = D.lfd_target(3)
    assert w @ p + b == pytest.approx(0, abs=1e-12) and w @ q + b == pytest.approx(0, abs=1e-12)
    X, y, (w2, b2) = D.make_lfd(100, random_state=3)
    assert np.array_equal(w, w2) and np.all(np.where(X @ w2 + b2 >= 0, 1, -1) == y)
    assert np.all(np.abs(X) <= 1)


def test_real_datasets_load_offline():
    X, y = D.load_breast_cancer()
    assert X.shape == (569, 30) and set(y.tolist()) == {0, 1}
    X, y = D.load_iris()
    assert X.shape == (150, 4)
    X, y = D.load_iris(classes=(0, 2), features=(2, 3))
    assert X.shape == (100, 2) and set(y.tolist()) == {0, 2}
    X, y = D.load_digits()
    assert X.shape == (1797, 64) and X.max() == 16
    with pytest.raises(ValueError, match="classes"):
        D.load_iris(classes=(0, 5))
    with pytest.raises(ValueError, match="features"):
        D.load_iris(features=(7,))


def test_blobs3():
    X, y = D.make_blobs3(20, random_state=1)
    assert X.shape == (60, 2) and np.bincount(y).tolist() == [20, 20, 20]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: D.make_separable(1), "n_samples"),
        (lambda: D.make_separable(10, 0), "n_features"),
        (lambda: D.make_separable(10, 2, margin=0.95), "margin"),
        (lambda: D.make_separable(10, 2, margin=-0.1), "margin"),
        (lambda: D.make_noisy(10, flip=0.7), "flip"),
        (lambda: D.make_xor(0), "n_per_corner"),
        (lambda: D.make_xor(2, noise=-1), "noise"),
        (lambda: D.make_lfd(0), "n_samples"),
        (lambda: D.make_blobs3(0), "n_per_class"),
        (lambda: D.make_blobs3(3, spread=0), "spread"),
    ],
)
def test_bad_arguments(call, message):
    with pytest.raises(ValueError, match=message):
        call()
