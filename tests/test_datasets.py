"""Seeded generators keep their promises; the real datasets load offline from scikit-learn."""

import sys

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


def _separable_by_the_docstring(n, d, margin, bias, rng):
    """make_separable's draws as its docstring tells them, in plain loops: a normal w* made unit,
    b* uniform in [-0.5, 0.5] (0 without bias), then batches of max(2n, 64) uniform points of
    [-1, 1]^d of which those with |w*.x + b*| >= max(margin, 1e-9) are kept, until n are kept;
    y = sign(w*.x + b*) with sign(0) = +1; all over again if one class is missing."""
    while True:
        w = rng.normal(size=d)
        norm = sum(v * v for v in w.tolist()) ** 0.5
        w = w / norm
        b = float(rng.uniform(-0.5, 0.5)) * (1.0 if bias else 0.0)
        kept = []
        while len(kept) < n:
            for x in rng.uniform(-1.0, 1.0, size=(max(2 * n, 64), d)):
                if abs(x @ w + b) >= max(margin, 1e-9):
                    kept.append(x)
        X = np.array(kept[:n])
        y = np.array([1 if x @ w + b >= 0 else -1 for x in X])
        if len(set(y.tolist())) == 2:
            return X, y, w, b


@pytest.mark.parametrize(
    "n, d, margin, bias, seed",
    [
        (5, 1, 0.3, True, 0),
        (40, 2, 0.1, True, 1),
        (100, 3, 0.0, False, 2),
        (70, 2, 0.5, True, 3),
        (32, 1, 0.5, True, 0),  # the first batch of 64 keeps exactly 32: no second batch drawn
    ],
)
def test_make_separable_draws_what_its_docstring_says(n, d, margin, bias, seed):
    X, y, (w, b) = D.make_separable(
        n, d, margin, bias=bias, random_state=seed, return_separator=True
    )
    X0, y0, w0, b0 = _separable_by_the_docstring(n, d, margin, bias, np.random.default_rng(seed))
    assert np.allclose(w, w0, rtol=1e-15, atol=0) and b == b0
    assert np.array_equal(X, X0) and np.array_equal(y, y0) and X.shape == (n, d)
    # make_noisy: the same data, then one uniform draw per point, flipped below `flip`
    rng = np.random.default_rng(seed)
    Xn, yn = D.make_noisy(n, d, 0.3, margin=margin, random_state=seed)
    X1, y1, _, _ = _separable_by_the_docstring(n, d, margin, True, rng)
    flips = [u < 0.3 for u in rng.random(n)]
    assert np.array_equal(Xn, X1) and yn.tolist() == [-t if f else t for t, f in zip(y1, flips)]


def test_when_no_draw_has_both_classes_it_says_so():
    class AllOnes(np.random.Generator):
        """A generator whose every uniform draw is 1: every point is (1, ..., 1), one class."""

        def uniform(self, low=0.0, high=1.0, size=None):
            return 1.0 if size is None else np.ones(size)

    with pytest.raises(ValueError) as info:
        D.make_separable(20, 2, margin=0.1, random_state=AllOnes(np.random.PCG64(0)))
    assert str(info.value) == (
        "Could not draw 20 points with margin 0.1 and both classes; use a smaller margin."
    )


def test_xor_lfd_and_blobs_by_their_draws():
    assert D.make_xor(2)[0].tolist() == [[0, 0], [0, 0], [0, 1], [0, 1], [1, 0], [1, 0]] + [
        [1, 1],
        [1, 1],
    ]
    assert D.make_xor(2)[1].tolist() == [-1, -1, 1, 1, 1, 1, -1, -1]
    X, _ = D.make_xor(3, noise=0.2, random_state=4)
    corners = np.repeat([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], 3, axis=0)
    assert np.array_equal(X, corners + np.random.default_rng(4).normal(scale=0.2, size=(12, 2)))
    assert np.array_equal(D.make_xor(3, noise=0.0, random_state=4)[0], corners)
    rng = np.random.default_rng(8)
    p, q = rng.uniform(-1.0, 1.0, size=(2, 2))
    w, b = D.lfd_target(8)
    assert w.tolist() == [q[1] - p[1], p[0] - q[0]] and b == -(w[0] * p[0] + w[1] * p[1])
    X, y, _ = D.make_lfd(50, random_state=8)
    assert np.array_equal(X, rng.uniform(-1.0, 1.0, size=(50, 2)))
    assert y.tolist() == [1 if x @ w + b >= 0 else -1 for x in X]
    rng = np.random.default_rng(2)
    centres = [[0.0, 2.0], [-2.0, -1.0], [2.0, -1.0]]
    expected = np.vstack([np.add(c, 0.7 * rng.normal(size=(4, 2))) for c in centres])
    X, y = D.make_blobs3(4, spread=0.7, random_state=2)
    assert np.array_equal(X, expected) and y.tolist() == [0] * 4 + [1] * 4 + [2] * 4


def test_the_real_datasets_are_copies_in_the_documented_shape():
    from sklearn import datasets as skd

    iris = skd.load_iris()
    X, y = D.load_iris(classes=(2, 1), features=(3, 0))
    keep = (iris.target == 1) | (iris.target == 2)
    assert np.array_equal(X, iris.data[keep][:, [3, 0]]) and np.array_equal(y, iris.target[keep])
    X, y = D.load_breast_cancer()
    assert np.array_equal(X, skd.load_breast_cancer().data) and y.sum() == 357  # benign
    X[0, 0] = -1.0  # a copy: the next call still reads the bundled file's values
    assert D.load_breast_cancer()[0][0, 0] != -1.0
    X, y = D.load_digits()
    assert np.array_equal(y, skd.load_digits().target) and X.dtype == np.float64


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: D.make_separable(1), "n_samples must be an integer >= 2; got 1."),
        (lambda: D.make_separable(True), "n_samples must be an integer >= 2; got True."),
        (lambda: D.make_separable(10, 0), "n_features must be an integer >= 1; got 0."),
        (lambda: D.make_separable(10, 2.0), "n_features must be an integer >= 1; got 2.0."),
        (
            lambda: D.make_separable(10, 2, margin=0.9),
            "margin must be a number in [0, 0.9) for points in [-1, 1]^d; got 0.9.",
        ),
        (
            lambda: D.make_separable(10, 2, margin=True),
            "margin must be a number in [0, 0.9) for points in [-1, 1]^d; got True.",
        ),
        (
            lambda: D.make_separable(10, 2, margin="0.1"),
            "margin must be a number in [0, 0.9) for points in [-1, 1]^d; got '0.1'.",
        ),
        (lambda: D.make_noisy(10, flip=0.51), "flip must be a probability in [0, 0.5]; got 0.51."),
        (lambda: D.make_noisy(10, flip=-0.1), "flip must be a probability in [0, 0.5]; got -0.1."),
        (lambda: D.make_noisy(10, flip=True), "flip must be a probability in [0, 0.5]; got True."),
        (lambda: D.make_noisy(10, flip="a"), "flip must be a probability in [0, 0.5]; got 'a'."),
        (lambda: D.make_xor(0), "n_per_corner must be an integer >= 1; got 0."),
        (lambda: D.make_xor(2, noise=-0.5), "noise must be a number >= 0; got -0.5."),
        (lambda: D.make_xor(2, noise=True), "noise must be a number >= 0; got True."),
        (lambda: D.make_xor(2, noise="1"), "noise must be a number >= 0; got '1'."),
        (lambda: D.make_lfd(0), "n_samples must be an integer >= 1; got 0."),
        (lambda: D.make_blobs3(0), "n_per_class must be an integer >= 1; got 0."),
        (lambda: D.make_blobs3(3, spread=0), "spread must be a positive number; got 0."),
        (lambda: D.make_blobs3(3, spread=True), "spread must be a positive number; got True."),
        (lambda: D.make_blobs3(3, spread="1"), "spread must be a positive number; got '1'."),
        (
            lambda: D.load_iris(classes=()),
            "classes must be a subset of (0, 1, 2); got [].",
        ),
        (
            lambda: D.load_iris(classes=(0, 3)),
            "classes must be a subset of (0, 1, 2); got [0, 3].",
        ),
        (
            lambda: D.load_iris(features=()),
            "features must be a subset of (0, 1, 2, 3); got [].",
        ),
        (
            lambda: D.load_iris(features=(4,)),
            "features must be a subset of (0, 1, 2, 3); got [4].",
        ),
    ],
)
def test_bad_arguments_word_for_word(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


def test_the_edges_of_the_arguments_are_accepted():
    assert D.make_separable(2, 1, margin=0.0, random_state=0)[0].shape == (2, 1)
    assert D.make_separable(10, 1, margin=0.85, random_state=1)[0].shape == (10, 1)
    assert D.make_noisy(10, flip=0.5, random_state=0)[0].shape == (10, 2)
    assert D.make_noisy(10, flip=0, random_state=0)[0].shape == (10, 2)
    assert D.make_xor(1, noise=0)[0].shape == (4, 2) and D.make_lfd(1)[0].shape == (1, 2)
    assert D.make_blobs3(1, spread=1e-9, random_state=0)[0].shape == (3, 2)
    assert D.load_iris(classes=[0], features=[1])[0].shape == (50, 1)


def test_the_documented_defaults():
    assert D.make_lfd(random_state=0)[0].shape == (10, 2)
    X, y = D.make_separable(random_state=0)
    assert X.shape == (100, 2)
    _, _, (w, b) = D.make_separable(random_state=0, return_separator=True)
    assert np.all(y * (X @ w + b) >= 0.1) and b != 0.0  # margin 0.1 and a bias by default
    Xn, yn = D.make_noisy(random_state=1)
    X0, y0 = D.make_separable(margin=0.0, random_state=np.random.default_rng(1))
    assert np.array_equal(Xn, X0) and 0 < np.sum(yn != y0) < 25  # margin 0, flip=0.1 of 100
    assert D.make_xor()[0].shape == (4, 2) and D.make_blobs3(random_state=0)[0].shape == (90, 2)
    Xb, _ = D.make_blobs3(random_state=0)
    spread = np.std(Xb[:30] - [0.0, 2.0])
    assert 0.4 < spread < 0.8  # spread=0.6 by default


def test_noise_zero_draws_nothing_and_a_point_on_the_target_line_is_plus_one():
    g = np.random.default_rng(9)
    D.make_xor(2, noise=0.0, random_state=g)
    assert g.random() == np.random.default_rng(9).random()  # the caller's generator untouched

    class Scripted(np.random.Generator):
        """p = (0, 0) and q = (1, 1): the target line is x2 = x1; then the points below."""

        def __init__(self, draws):
            super().__init__(np.random.PCG64(0))
            self.draws = list(draws)

        def uniform(self, low=0.0, high=1.0, size=None):
            return np.array(self.draws.pop(0), dtype=float)

    points = [[0.5, 0.5], [0.25, -0.5], [-0.5, 0.25]]
    X, y, (w, b) = D.make_lfd(3, random_state=Scripted([[[0, 0], [1, 1]], points]))
    assert X.tolist() == points and w.tolist() == [1.0, -1.0] and b == 0.0
    assert y.tolist() == [1, 1, -1]  # on the line: sign(0) = +1


def test_without_scikit_learn_the_real_datasets_say_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "sklearn", None)  # import sklearn now raises ImportError
    for load in (D.load_breast_cancer, D.load_iris, D.load_digits):
        with pytest.raises(ImportError) as info:
            load()
        assert str(info.value) == (
            "The real datasets ship with scikit-learn: pip install -e '.[course]'."
        )


def test_flip_zero_flips_nothing_even_on_a_draw_of_exactly_zero():
    class ZeroDraws(np.random.Generator):
        """Normal and uniform draws as usual; every rng.random() draw exactly 0.0."""

        def random(self, size=None, dtype=np.float64, out=None):
            return np.zeros(size)

    X, y = D.make_noisy(30, flip=0.0, random_state=ZeroDraws(np.random.PCG64(4)))
    X0, y0 = D.make_separable(30, margin=0.0, random_state=np.random.default_rng(4))
    assert np.array_equal(X, X0) and np.array_equal(y, y0)
    _, y_all = D.make_noisy(30, flip=0.5, random_state=ZeroDraws(np.random.PCG64(4)))
    assert np.array_equal(y_all, -y0)  # a draw of 0 < 0.5: every label flipped


def test_every_data_generator_lives_in_datasets():
    """Issue 19: the generators are written once, in perclib.datasets; the modules that used to
    hold one (experiments, sparse) export that very function."""
    import ast
    from pathlib import Path

    import perclib
    from perclib import datasets, experiments, sparse

    root = Path(perclib.__file__).parent
    elsewhere = [
        f"{path.relative_to(root)}: {node.name}"
        for path in root.rglob("*.py")
        if path.name != "datasets.py"
        for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("make_")
    ]
    assert elsewhere == []
    assert experiments.make_fixed_ratio is datasets.make_fixed_ratio
    assert sparse.make_sparse_text is datasets.make_sparse_text
