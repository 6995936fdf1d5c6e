"""Seeded generators keep their promises; the real datasets load offline from scikit-learn."""

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from perclib import datasets as D
from perclib.theory import max_margin, radius


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
        """A generator whose every uniform and normal draw is 1: every point is (1, ..., 1), one
        class, and every attempt has the same target, far from that point. (With random targets,
        an attempt whose hyperplane passed within the margin of (1, ..., 1) redrew its batch
        10,000 times.)"""

        def uniform(self, low=0.0, high=1.0, size=None):
            return 1.0 if size is None else np.ones(size)

        def normal(self, loc=0.0, scale=1.0, size=None):
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
            "The real datasets ship with scikit-learn, one of perclib's dependencies: "
            "python3 -m pip install -e . (in the course's folder, in the venv you use) installs it."
        )
    # the command installs scikit-learn: it is a dependency, not an extra's
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    assert re.search(
        r'^    "scikit-learn>=', pyproject.split("[project.optional-dependencies]")[0], re.M
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
    """The generators are written once, in perclib.datasets: no other module of perclib, and not
    the notebooks' experiments (notebooks/experiments.py), defines one; the experiments import
    the very functions."""
    import ast

    import experiments

    import perclib
    from perclib import datasets

    root = Path(perclib.__file__).parent
    modules = [*root.rglob("*.py"), Path(experiments.__file__)]
    elsewhere = [
        f"{path.name}: {node.name}"
        for path in modules
        if path != root / "datasets.py"
        for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("make_")
    ]
    assert elsewhere == []
    assert experiments.make_fixed_ratio is datasets.make_fixed_ratio
    assert experiments.make_noisy is datasets.make_noisy


def _fixed_ratio_by_the_docstring(n, d, ratio, rho, rng, report=None):
    """make_fixed_ratio's draws as its docstring tells them: u_0 uniform in [-0.3, 0.3] and a
    normal w scaled to ||w||^2 = 1 - u_0^2, redrawn until both support points x_+, x_- (without
    the free part) lie in the ball of radius rho; a free part s orthogonal to w, scaled to half the
    room left; one point on the sphere and n - 3 inside (radius rho U^(1/d)), each from batches of
    4 count + 16 normal directions of which those with |u_0 + x.w| >= gamma are kept; the n rows
    shuffled; y = sign(u_0 + x.w), sign(0) = +1. ``report`` (a list) receives the draws whose
    check is met with equality, or a batch that brings the points to exactly the count."""
    R = (1.0 + rho * rho) ** 0.5
    gamma = R / ratio
    while True:
        u0 = float(rng.uniform(-0.3, 0.3))
        w = rng.normal(size=d)
        w = w * ((1.0 - u0 * u0) ** 0.5 / np.linalg.norm(w))
        mu = (1.0 + gamma * u0) / (1.0 - gamma * u0)
        alpha = (1.0 - gamma * u0) / (1.0 - u0 * u0)
        xp, xm = (gamma - alpha * u0) * w, -(gamma + mu * alpha * u0) * w
        top = max(xp @ xp, xm @ xm)
        if report is not None and top == rho * rho:
            report.append("support check met with equality")
        if top <= rho * rho:
            break
    s = rng.normal(size=d)
    s = s - (s @ w) / (w @ w) * w if d > 1 else np.zeros(1)  # none orthogonal to w in 1-D
    room = min(rho * rho - xp @ xp, (rho * rho - xm @ xm) / (mu * mu))
    if np.linalg.norm(s) > 0:
        s = s * (0.5 * max(room, 0.0) ** 0.5 / np.linalg.norm(s))
    rows = [xp + s, xm + mu * s]
    for count, on_sphere in ((1, True), (n - 3, False)):
        kept = []
        while len(kept) < count:
            g = rng.normal(size=(4 * count + 16, d))
            g = g / np.linalg.norm(g, axis=1, keepdims=True)
            r = rho if on_sphere else rho * rng.uniform(size=(g.shape[0], 1)) ** (1.0 / d)
            kept += [x for x in g * r if abs(u0 + x @ w) >= gamma]
            if report is not None and len(kept) == count:
                report.append("a batch brought the points to exactly the count")
        rows += kept[:count]
    X = np.array(rows)[rng.permutation(n)]
    return X, np.array([1 if u0 + x @ w >= 0 else -1 for x in X])


@pytest.mark.parametrize(
    "n, d, ratio, rho, seed",
    [
        (5, 1, 3.0, 1.0, 0),  # d = 1: no direction orthogonal to w, s = 0
        (12, 2, 2.0, 2.0, 1),
        (20, 4, 10.0, 0.5, 2),
        (8, 3, 1.6, 1.0, 3),
        (9, 3, 5.0, 3.0, 4),
        (10, 3, 3.0, 0.5, 0),  # the first draw has max ||x_+-||^2 = 0.208, in (rho^3, rho^2]
    ],
)
def test_make_fixed_ratio_draws_what_its_docstring_says(n, d, ratio, rho, seed):
    """Guards every draw and every formula of make_fixed_ratio (the seed, u_0's range, the room
    for s, the radii, the batch sizes, rho^2 rather than rho^3 or 2 rho), which the exactness test
    (R / gamma* to 1e-9) does not see."""
    X, y = D.make_fixed_ratio(n, d, ratio, rho=rho, random_state=seed)
    X0, y0 = _fixed_ratio_by_the_docstring(n, d, ratio, rho, np.random.default_rng(seed))
    assert X.shape == (n, d) and np.all(np.isfinite(X))
    assert np.allclose(X, X0, rtol=1e-12, atol=1e-15) and np.array_equal(y, y0)
    assert np.linalg.norm(X, axis=1).max() == pytest.approx(rho, rel=1e-12)  # one on the sphere


@pytest.mark.parametrize(
    "n, d, ratio, seed, event",
    [
        # the first draw's support points lie exactly on the sphere ||x|| = rho: kept (<=, not <)
        (6, 2, 1.9642044873869173, 3, "support check met with equality"),
        # the first batch for the point on the sphere keeps exactly one: no second batch is drawn
        (6, 2, 1.5, 0, "a batch brought the points to exactly the count"),
    ],
)
def test_make_fixed_ratio_on_its_boundaries(n, d, ratio, seed, event):
    """Guards make_fixed_ratio's two comparisons met with equality: the support-point check
    (``<= rho**2``) and the batch loop (``while pts.shape[0] < count``)."""
    report = []
    X0, y0 = _fixed_ratio_by_the_docstring(n, d, ratio, 1.0, np.random.default_rng(seed), report)
    assert event in report  # the data reach the boundary
    X, y = D.make_fixed_ratio(n, d, ratio, random_state=seed)
    assert np.allclose(X, X0, rtol=1e-12, atol=1e-15) and np.array_equal(y, y0)


_RATIO = "ratio must be a number in [{:.3f}, 1e4] for rho={}; got {}."


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: D.make_fixed_ratio(2, 2, 10.0), "n_samples must be an integer >= 3; got 2."),
        (lambda: D.make_fixed_ratio(9, 0, 10.0), "n_features must be an integer >= 1; got 0."),
        (
            lambda: D.make_fixed_ratio(9, 2, 10.0, rho=-1.0),
            "rho must be a positive number; got -1.0.",
        ),
        (lambda: D.make_fixed_ratio(9, 2, 1.0), _RATIO.format(2**0.5 * 1.05, 1.0, "1.0")),
        (lambda: D.make_fixed_ratio(9, 2, 1.4), _RATIO.format(2**0.5 * 1.05, 1.0, "1.4")),
        (lambda: D.make_fixed_ratio(9, 2, 1e5), _RATIO.format(2**0.5 * 1.05, 1.0, "100000.0")),
        (lambda: D.make_fixed_ratio(9, 2, 10000.5), _RATIO.format(1.484924, 1.0, "10000.5")),
        (lambda: D.make_fixed_ratio(9, 2, "5"), _RATIO.format(1.484924, 1.0, "'5'")),
        (lambda: D.make_fixed_ratio(9, 2, True), _RATIO.format(1.484924, 1.0, "True")),
        (
            lambda: D.make_fixed_ratio(9, 2, 2.0, rho=0.5),
            _RATIO.format(1.25**0.5 / 0.5 * 1.05, 0.5, "2.0"),
        ),
        (lambda: D.make_sparse_text(0), "n_samples must be an integer >= 1; got 0."),
        (lambda: D.make_sparse_text(5, 0), "n_features must be an integer >= 1; got 0."),
        (lambda: D.make_sparse_text(5, 9, words=0), "words must be an integer >= 1; got 0."),
        (lambda: D.make_sparse_text(5, 3, words=4), "words (4) cannot exceed n_features (3)."),
    ],
)
def test_the_moved_generators_errors_word_for_word(call, message):
    """Guards the names, bounds and numbers in make_fixed_ratio's and make_sparse_text's messages
    (a ratio of 1e5 or 10000.5 refused, "5" refused with the message rather than a TypeError)."""
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


def test_the_moved_generators_accept_the_edges_of_their_arguments():
    """Guards the bounds: n = 3, a ratio of exactly R / rho * 1.05 and of 1e4, a ratio of 2 with
    rho = 2 (its lower bound is 1.17; R * rho * 1.05 would be 4.7); words = n_features, and one
    word per example (the CSR row pointers then step by 1)."""
    assert D.make_fixed_ratio(3, 2, 10.0, random_state=0)[0].shape == (3, 2)
    lowest = float(np.sqrt(1.0 + 1.0**2)) / 1.0 * 1.05
    assert D.make_fixed_ratio(5, 2, lowest, random_state=0)[0].shape == (5, 2)
    assert D.make_fixed_ratio(5, 2, 1e4, random_state=0)[0].shape == (5, 2)
    assert D.make_fixed_ratio(5, 2, 2.0, rho=2.0, random_state=0)[0].shape == (5, 2)
    X, _ = D.make_sparse_text(4, 5, words=5, random_state=0)
    assert X.toarray().tolist() == [[1.0] * 5] * 4
    X, _ = D.make_sparse_text(6, 5, words=1, random_state=0)
    assert X.shape == (6, 5) and X.indptr.tolist() == list(range(7)) and X.nnz == 6


def test_make_fixed_ratio_gives_up_after_1000_draws_that_do_not_fit():
    """Guards the give-up path (its message, and the 1000 draws): with u_0 = -0.3 on every draw and
    the smallest ratio for rho = 1, x_+ lies outside the unit ball on every draw."""

    class Edge(np.random.Generator):
        calls = 0

        def uniform(self, low=0.0, high=1.0, size=None):
            Edge.calls += 1
            return low  # -0.3, the lowest u_0

    lowest = float(np.sqrt(2.0)) * 1.05
    with pytest.raises(ValueError) as info:
        D.make_fixed_ratio(5, 2, lowest, random_state=Edge(np.random.PCG64(0)))
    assert str(info.value) == (
        f"Could not place the support points for ratio={lowest!r}; use a larger ratio."
    )
    assert Edge.calls == 1000


def test_make_separable_gives_up_after_1000_draws_of_one_class():
    """Guards the number of attempts (1000) before make_separable gives up: every draw is 1, so
    w* = (1, 1) / sqrt(2), b* = 1, every point is (1, 1) and one batch per attempt is kept."""

    class Ones(np.random.Generator):
        calls = 0

        def normal(self, loc=0.0, scale=1.0, size=None):
            Ones.calls += 1
            return np.ones(size)

        def uniform(self, low=0.0, high=1.0, size=None):
            return 1.0 if size is None else np.ones(size)

    with pytest.raises(ValueError, match="Could not draw 20 points"):
        D.make_separable(20, 2, margin=0.1, random_state=Ones(np.random.PCG64(0)))
    assert Ones.calls == 1000


def test_make_separable_gives_up_an_attempt_after_10000_batches():
    """Guards the batches drawn in one attempt (10,000) before make_separable draws a new target:
    w* = (1, 1)/sqrt(2) and b* = 0 on every attempt, and the first attempt's candidates are all
    the origin, on the hyperplane, so none is kept; the second attempt draws real points and
    succeeds. The batches counted when the second b* is drawn are the first attempt's."""

    class Stuck(np.random.Generator):
        batches = 0
        batches_at_b = []

        def normal(self, loc=0.0, scale=1.0, size=None):
            return np.ones(size)

        def uniform(self, low=0.0, high=1.0, size=None):
            if size is None:  # b*, once per attempt
                Stuck.batches_at_b.append(Stuck.batches)
                return 0.0
            Stuck.batches += 1
            if len(Stuck.batches_at_b) == 1:  # the first attempt: every candidate at the origin
                return np.zeros(size)
            return super().uniform(low, high, size)

    X, y = D.make_separable(20, 2, margin=0.1, random_state=Stuck(np.random.PCG64(0)))
    assert X.shape == (20, 2) and len(np.unique(y)) == 2
    assert Stuck.batches_at_b[:2] == [0, 10000]


def test_make_separable_keeps_points_exactly_at_the_margin():
    """The docstring promises y (w*.x + b*) >= margin, so a point at exactly the margin is kept: one
    feature, w* = 1, b* = 0, and a first batch of candidates at exactly +-0.1 = margin."""

    class Edge(np.random.Generator):
        batches = 0

        def normal(self, loc=0.0, scale=1.0, size=None):
            return np.ones(size)

        def uniform(self, low=0.0, high=1.0, size=None):
            if size is None:  # b*
                return 0.0
            Edge.batches += 1
            if Edge.batches == 1:
                return np.where(np.arange(size[0])[:, None] % 2 == 0, 0.1, -0.1)
            return super().uniform(low, high, size)

    X, y = D.make_separable(20, 1, margin=0.1, random_state=Edge(np.random.PCG64(0)))
    assert X.ravel().tolist() == [0.1, -0.1] * 10 and y.tolist() == [1, -1] * 10


def test_make_fixed_ratio_keeps_points_exactly_at_gamma():
    """Every point other than the support points has u.z >= gamma: a point at exactly gamma is
    kept. One feature, u_0 = 0 (so w = 1), and a first batch of radii at exactly gamma (rho = 1)."""
    ratio = 2.0
    gamma = float(np.sqrt(2.0)) / ratio

    class Edge(np.random.Generator):
        batches = 0

        def normal(self, loc=0.0, scale=1.0, size=None):
            return np.ones(size)

        def uniform(self, low=0.0, high=1.0, size=None):
            if size is None:  # u_0
                return 0.0
            Edge.batches += 1
            if Edge.batches == 1:  # the first radii, for the points inside the ball
                return np.full(size, gamma)
            return super().uniform(low, high, size)

        def permutation(self, x):
            return np.arange(x)

    X, y = D.make_fixed_ratio(6, 1, ratio, random_state=Edge(np.random.PCG64(0)))
    assert X[3:].ravel().tolist() == [gamma] * 3  # the three points inside: at gamma, kept


def _sparse_text_by_the_docstring(n, d, words, rng):
    """make_sparse_text's draws as its docstring tells them: each example's ``words`` distinct
    features drawn with probability proportional to 1 / rank; the hidden weights -1 or +1 with
    probability 1/2 each, kept with probability 0.2 (else 0); y = +1 where the score is >= 0."""
    p = np.array([1.0 / k for k in range(1, d + 1)])
    p = p / p.sum()
    rows = [sorted(rng.choice(d, size=words, replace=False, p=p).tolist()) for _ in range(n)]
    sign = [-1.0 if u < 0.5 else 1.0 for u in rng.random(d)]
    hidden = [s if u < 0.2 else 0.0 for s, u in zip(sign, rng.random(d))]
    y = [1 if sum(hidden[j] for j in row) >= 0 else -1 for row in rows]
    return rows, np.array(y)


@pytest.mark.parametrize("n, d, words, seed", [(40, 30, 3, 0), (60, 12, 2, 1), (25, 50, 6, 2)])
def test_make_sparse_text_draws_what_its_docstring_says(n, d, words, seed):
    """Guards make_sparse_text's draws (the seed, the Zipf-like p, sampling without replacement,
    the hidden weights' signs, values and mask) and its labels (ties to +1)."""
    X, y = D.make_sparse_text(n, d, words=words, random_state=seed)
    rows, y0 = _sparse_text_by_the_docstring(n, d, words, np.random.default_rng(seed))
    assert X.shape == (n, d) and X.dtype == np.float64
    assert [X.indices[X.indptr[i] : X.indptr[i + 1]].tolist() for i in range(n)] == rows
    assert np.all(X.data == 1.0) and np.array_equal(y, y0)
    assert 0 < np.sum(y == 1) < n  # both labels: the weights did something


def test_make_sparse_text_draws_below_its_thresholds_strictly():
    """Guards the two thresholds of the hidden weights: a sign draw of exactly 0.5 gives +1 (-1
    with probability 1/2: u < 0.5), a mask draw of exactly 0.2 drops the feature (u < 0.2)."""

    class Scripted(np.random.Generator):
        def __init__(self, bits):
            super().__init__(bits)
            self.draws = [np.array([0.5, 0.1, 0.9, 0.9]), np.array([0.0, 0.2, 0.9, 0.9])]

        def random(self, size=None, dtype=np.float64, out=None):
            if size == 4:  # the hidden weights' draws (choice draws one at a time here)
                return self.draws.pop(0)
            return super().random(size, dtype, out)

    X, y = D.make_sparse_text(40, 4, words=1, random_state=Scripted(np.random.PCG64(0)))
    features = X.indices.tolist()
    assert 0 in features and 1 in features  # both scripted features occur
    assert y.tolist() == [1] * 40  # hidden = (+1, 0, 0, 0): every score is 1 or 0


def test_make_sparse_text_defaults():
    """Guards the defaults: 2000 examples, 5000 features, 20 words each. (The draws are
    replaced by cheap ones.)"""

    class Cheap(np.random.Generator):
        def choice(self, a, size=None, replace=True, p=None):
            assert p.shape == (a,) and replace is False
            return np.arange(size)

    X, y = D.make_sparse_text(random_state=Cheap(np.random.PCG64(0)))
    assert X.shape == (2000, 5000) and X.nnz == 2000 * 20 and y.shape == (2000,)


def test_make_fixed_ratio_is_exact_in_one_dimension():
    """A bug found by mutation testing: with one feature no direction is orthogonal to w, but the
    projection of s left a rounding error (about 1e-17) that was then scaled up to half the room,
    moving the support points off their construction; R / gamma* came out 4.18 for 10.0, 5.24
    for 3.0 (seeds 0, 3 and 5 of 8). Now s = 0 in one dimension."""
    for seed in range(8):
        X, y = D.make_fixed_ratio(7, 1, 3.0, random_state=seed)
        assert radius(X) / max_margin(X, y)[2] == pytest.approx(3.0, rel=1e-9), seed
