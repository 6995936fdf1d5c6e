import numpy as np
import pytest
from experiments import averaged_sparse
from scipy import sparse

from perclib import AveragedPerceptron
from perclib.datasets import make_sparse_text


def test_lazy_and_naive_agree_with_the_dense_averaged_perceptron():
    X, y = make_sparse_text(60, 80, words=6, random_state=1)
    ref = AveragedPerceptron(max_iter=3).fit(X.toarray(), y)
    for lazy in (True, False):
        w, b, _ = averaged_sparse(X, y, max_iter=3, lazy=lazy)
        assert np.allclose(w, ref.coef_) and np.isclose(b, ref.intercept_)


def test_operation_counts():
    X, y = make_sparse_text(40, 500, words=4, random_state=0)
    _, _, naive = averaged_sparse(X, y, max_iter=2, lazy=False)
    _, _, lazy = averaged_sparse(X, y, max_iter=2, lazy=True)
    assert naive == 2 * 40 * 501
    assert (
        lazy % 5 == 0 and 0 < lazy <= 2 * 40 * 5
    )  # (words + 1) per update, at most one per example


def test_data_and_errors():
    X, y = make_sparse_text(30, 100, words=7, random_state=2)
    assert (
        sparse.isspmatrix_csr(X) and np.all(np.diff(X.indptr) == 7) and set(np.unique(y)) <= {-1, 1}
    )
    with pytest.raises(ValueError, match="sparse"):
        averaged_sparse(X.toarray(), y)
    with pytest.raises(ValueError, match="labels"):
        averaged_sparse(X, y[:-1])
    with pytest.raises(ValueError, match="exceed"):
        make_sparse_text(5, 3, words=4)
