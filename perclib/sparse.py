"""Sparse, text-like data and the averaged perceptron on it: why CIML's lazy trick matters.

On a bag-of-words problem each example has a few non-zero features out of many. The perceptron's
update touches only those (O(nnz)); the naive average adds the whole current w to a running sum
after every example (O(d) each time); CIML's lazy trick (w - u/c) adds c·y·x to u on updates only
(O(nnz)). The data come from :func:`perclib.datasets.make_sparse_text` (importable from here
too). :func:`averaged_sparse` runs either and counts the scalar additions into the averaging
sums, so the cost can be compared exactly (the wall-clock comparison is in
``benchmarks/bench_sparse_average.py``).

>>> X, y = make_sparse_text(50, 200, words=5, random_state=0)
>>> w_lazy, b_lazy, ops_lazy = averaged_sparse(X, y, max_iter=2, lazy=True)
>>> w_naive, b_naive, ops_naive = averaged_sparse(X, y, max_iter=2, lazy=False)
>>> bool(np.allclose(w_lazy, w_naive)), ops_naive > 10 * ops_lazy
(True, True)
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from . import _validation as V
from .datasets import make_sparse_text
from .training import csr, row, train

__all__ = ["make_sparse_text", "averaged_sparse"]


def averaged_sparse(X, y, *, max_iter=5, lazy=True):
    """The averaged perceptron (CIML's, eta = 1, cyclic order) on a CSR matrix.

    Returns ``(w, b, additions)``: the average of w_0..w_T, b_0..b_T and the number of scalar
    additions made into the averaging sums (lazy: into u and beta on updates; naive: into the
    running sum of w and b after every example).
    """
    if not sparse.issparse(X):
        raise ValueError("X must be a scipy.sparse matrix (use AveragedPerceptron for dense data).")
    X = csr(sparse.csr_matrix(X, dtype=np.float64))
    y = np.asarray(y)
    if y.shape != (X.shape[0],) or not np.all(np.isin(y, (-1, 1))):
        raise ValueError(f"y must hold {X.shape[0]} labels, each -1 or +1.")
    max_iter = V.check_max_iter(max_iter)
    n, d = X.shape
    # The perceptron's plain loop (sparse rows: O(nnz) per decision and update) runs; the lazy
    # sums are made by its hook at each update, the naive sum by a recorder that receives w after
    # every visited example.
    u, sums = np.zeros(d), {"beta": 0.0, "total_b": 0.0, "additions": 0}
    total = np.zeros(d)

    def on_update(w, b, t, i, step):  # lazy: u = u + y c x, beta = beta + y c (c = 1 + t)
        j, x = row(X, i)
        u[j] += (step * (1 + t)) * x
        sums["beta"] += step * (1 + t)
        sums["additions"] += j.size + 1

    class _Naive:  # the naive running sum: w and b added after every example
        def append(self, step):
            total[:] += step.w  # O(d), every example
            sums["total_b"] += step.b
            sums["additions"] += d + 1

    w = np.zeros(d)
    b, *_ = train(
        X, y, w, 0.0, eta=1.0, max_iter=max_iter, order="cyclic", rule="margin",
        fit_intercept=True, rng=None, on_update=on_update if lazy else None,
        record=None if lazy else _Naive(), stop_when_clean=False,
    )  # fmt: skip
    c = 1 + max_iter * n
    if lazy:
        return w - u / c, float(b - sums["beta"] / c), sums["additions"]
    return total / c, float(sums["total_b"] / c), sums["additions"]  # w_0 = 0 adds nothing
