"""The per-example loop of the perceptron and the averaged perceptron, on dense or sparse rows.

It is CIML's AveragedPerceptronTrain (the perceptron is the same loop without ``u`` and ``beta``)
written once for both kinds of input. A row is a pair ``(j, x)``: ``w[j]`` is the part of ``w``
the row touches. For a dense row ``j`` is ``slice(None)`` (all of ``w``, a view); for a row of a
CSR matrix it is the row's nonzero columns, so an update costs O(nonzeros), not O(n_features):
on text-like data (most features zero) this is what makes the cached-weights trick cheap.

The decisions and the weights are the dense reference's, bit for bit: the activation is
:func:`perclib._engine.activation` on the touched part of ``w`` (a zero feature adds an exact
0 to the left-to-right sum, and the tie band over the nonzeros bounds the rounding of that
shorter sum), and an update does the same arithmetic on the same entries.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._engine import activation, epoch_indices, is_mistake, row_norms, step_size, vector_norm


def csr(X):
    """X as CSR with sorted, summed indices
    (a copy when X is not already so; X is never changed)."""
    X = sp.csr_matrix(X) if not sp.isspmatrix_csr(X) and not isinstance(X, sp.csr_array) else X
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()  # also sorts the indices
    return X


def rows(X):
    """The rows of X as ``(j, x)`` pairs, and their Euclidean norms (for the tie band)."""
    if sp.issparse(X):
        ptr, ind, val = X.indptr, X.indices, X.data
        pairs = [(ind[ptr[i] : ptr[i + 1]], val[ptr[i] : ptr[i + 1]]) for i in range(X.shape[0])]
        return pairs, np.array([vector_norm(x) for _, x in pairs])
    return [(slice(None), X[i]) for i in range(X.shape[0])], row_norms(X)


def epochs(
    X,
    y,
    w,
    b,
    *,
    eta,
    max_iter,
    order,
    fit_intercept,
    rng,
    rule="margin",
    average=None,
    stop_when_clean=True,
):
    """Run up to ``max_iter`` epochs from (w, b) in place; return (b, mistakes, converged).

    ``average`` is None (the plain perceptron) or a dict with CIML's ``u``, ``beta`` and ``c``,
    updated in place. With ``stop_when_clean`` training ends after the first epoch without an
    update.
    """
    pairs, norms = rows(X)
    mistakes, converged = [], False
    for _ in range(max_iter):
        updates = 0
        for i in epoch_indices(X.shape[0], order, rng):
            j, x = pairs[i]
            a = activation(w[j], b, x, norms[i])
            if is_mistake(y[i], a, rule):
                c = step_size(y[i], a, eta, rule)
                w[j] += c * x
                if fit_intercept:
                    b += c
                if average is not None:
                    average["u"][j] += (c * average["c"]) * x
                    if fit_intercept:
                        average["beta"] += c * average["c"]
                updates += 1
            if average is not None:
                average["c"] += 1
        mistakes.append(updates)
        if updates == 0:
            converged = True
            if stop_when_clean:
                break
    return b, np.array(mistakes, dtype=np.int64), converged
