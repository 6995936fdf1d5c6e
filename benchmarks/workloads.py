"""The workloads of the training benchmark grid (``bench_grid.py``), one generator per kind.

Every generator is seeded and cheap to call at small sizes, so ``tests/test_bench_grid.py`` checks
what each one promises (separable, the stated fraction of flipped labels, CSR with the stated
number of nonzeros per row, ...) without timing anything. This module sets no environment
variables and imports no benchmark code: importing it is harmless in a test process.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from perclib.datasets import load_digits, make_blobs3, make_separable


def flip_labels(y, fraction, random_state):
    """A copy of y in {-1, +1} with exactly ``round(fraction * len(y))`` labels flipped, chosen by a
    seeded draw without replacement."""
    y = np.asarray(y)
    k = round(fraction * y.shape[0])
    flipped = np.random.default_rng(random_state).choice(y.shape[0], size=k, replace=False)
    out = y.copy()
    out[flipped] = -out[flipped]
    return out


def noisy(n_samples, n_features, fraction, random_state):
    """Separable data without a margin (``make_separable(margin=0)``), then ``fraction`` of its
    labels flipped (:func:`flip_labels`, seeded with ``random_state + 1``)."""
    X, y = make_separable(n_samples, n_features, margin=0.0, random_state=random_state)
    return X, flip_labels(y, fraction, random_state + 1)


def sparse_text(n_samples, n_features, nnz_per_row, random_state, hits=5):
    """A text-like CSR matrix: each row has exactly ``nnz_per_row`` nonzeros in distinct, uniformly
    drawn columns, with positive values in [0.1, 1) (term weights). The labels are the sign of a
    sparse hidden w* with ties to +1; a fraction ``hits / nnz_per_row`` of w*'s entries is nonzero
    (normal), so a row meets ``hits`` of them on average and few rows score 0 (exp(-hits)).

    The data is linearly separable: w* with a bias smaller than its least nonzero |score|
    separates it (rows that meet no feature of w* score 0 and are +1).
    """
    rng = np.random.default_rng(random_state)
    n, d, k = n_samples, n_features, nnz_per_row
    indices = np.concatenate([np.sort(rng.choice(d, size=k, replace=False)) for _ in range(n)])
    values = rng.uniform(0.1, 1.0, size=n * k)
    X = sparse.csr_matrix((values, indices, np.arange(0, n * k + 1, k)), shape=(n, d))
    hidden = rng.normal(size=d) * (rng.random(d) < hits / k)
    y = np.where(X @ hidden >= 0, 1, -1)
    return X, y


def tiny_binary(n_problems, n_samples, random_state):
    """``n_problems`` separable 2-D problems of ``n_samples`` points (margin 0.1), as in the
    notebooks' experiments, seeded ``random_state``, ``random_state + 1``, ..."""
    return [
        make_separable(n_samples, 2, margin=0.1, random_state=random_state + i)
        for i in range(n_problems)
    ]


def tiny_multiclass(n_problems, n_per_class, random_state):
    """``n_problems`` three-class 2-D problems (``make_blobs3``) of ``3 * n_per_class`` points."""
    return [make_blobs3(n_per_class, random_state=random_state + i) for i in range(n_problems)]


@dataclass
class Workload:
    """One row group of the grid.

    ``epochs`` is the number of epochs every model runs, or None: then Perceptron runs to
    convergence (at most ``cap`` epochs) and AveragedPerceptron and VotedPerceptron run as many
    epochs as it took. PocketPerceptron runs ``pocket_epochs`` (None: like Perceptron, to
    convergence). scikit-learn always runs, per problem, the epochs the perclib model ran.
    """

    key: str
    title: str
    shape: str
    problems: list
    epochs: int | None = None
    cap: int = 1000
    pocket_epochs: int | None = None
    multiclass: bool = False
    dense: bool = True
    separable: bool = False


#: The grid's kinds, in the table's order: (key, full-size arguments, --quick arguments).
SIZES = {
    "tall": ((300_000, 20, 0.05), (20_000, 20, 0.05)),
    "wide": ((5_000, 1_000, 0.01), (500, 200, 0.01)),
    "thin": ((20_000, 10, 0.001, 300), (2_000, 10, 0.001, 50)),
    "noise2": ((50_000, 20, 0.02, 10), (5_000, 20, 0.02, 5)),
    "noise20": ((50_000, 20, 0.20, 10), (5_000, 20, 0.20, 5)),
    "sparse": ((20_000, 20_000, 50, 10), (2_000, 2_000, 20, 5)),
    "tiny": ((300, 100), (30, 100)),
    "tiny3": ((300, 33), (30, 33)),
    "digits": ((50,), (5,)),
}


def make_workload(key, quick=False, seed=0):
    """Build the workload ``key`` of :data:`SIZES` (its ``--quick`` size with ``quick``)."""
    if key not in SIZES:
        raise ValueError(f"unknown workload {key!r}; expected one of {sorted(SIZES)}")
    args = SIZES[key][1 if quick else 0]
    if key in ("tall", "wide"):
        n, d, margin = args
        return Workload(
            key,
            f"{key}, separable (margin {margin})",
            f"{n:_} x {d:_}",
            [make_separable(n, d, margin=margin, random_state=seed)],
            pocket_epochs=1,
            separable=True,
        )
    if key == "thin":
        n, d, margin, cap = args
        return Workload(
            key,
            f"thin margin ({margin})",
            f"{n:_} x {d}",
            [make_separable(n, d, margin=margin, random_state=seed)],
            cap=cap,
            pocket_epochs=10,
            separable=True,
        )
    if key in ("noise2", "noise20"):
        n, d, fraction, epochs = args
        return Workload(
            key,
            f"{fraction:.0%} label noise",
            f"{n:_} x {d}",
            [noisy(n, d, fraction, seed)],
            epochs=epochs,
            pocket_epochs=1,
        )
    if key == "sparse":
        n, d, k, epochs = args
        return Workload(
            key,
            f"sparse text-like (CSR, {k} nonzeros per row)",
            f"{n:_} x {d:_}",
            [sparse_text(n, d, k, seed)],
            epochs=epochs,
            dense=False,
            separable=True,
        )
    if key == "tiny":
        count, n = args
        return Workload(
            key,
            "many tiny fits, binary",
            f"{count} x ({n} x 2)",
            tiny_binary(count, n, seed),
            cap=100,
            separable=True,
        )
    if key == "tiny3":
        count, k = args
        return Workload(
            key,
            "many tiny fits, 3 classes",
            f"{count} x ({3 * k} x 2)",
            tiny_multiclass(count, k, seed),
            cap=100,
            multiclass=True,
        )
    if key == "digits":
        (epochs,) = args
        X, y = load_digits()
        return Workload(
            key,
            "digits, 10 classes",
            f"{X.shape[0]} x {X.shape[1]}",
            [(X, y)],
            epochs=epochs,
            multiclass=True,
        )
    raise AssertionError(f"SIZES has {key!r} but make_workload does not build it")
