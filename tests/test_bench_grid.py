"""The benchmark grid's workloads (benchmarks/workloads.py) are what the table says they are.

Nothing here is timed: the generators run at small sizes and their promises are checked (the
stated fraction of flipped labels, separability, a CSR matrix of the stated density, ...).
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.linear_model import Perceptron as SkPerceptron

from perclib import AveragedPerceptron, Perceptron
from perclib.datasets import make_separable

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


W = _load("workloads")
REPORT = _load("_report")


def separable(X, y):
    """Whether some (w, b) has y (w.x + b) >= 1 for every row: a linear program's feasibility."""
    X = sp.csr_matrix(X) if sp.issparse(X) else np.asarray(X)
    ones = np.ones((X.shape[0], 1))
    A = sp.hstack([X, ones]).tocsr() if sp.issparse(X) else np.hstack([X, ones])
    A_ub = -(sp.diags(y.astype(float)) @ A)
    res = linprog(np.zeros(A.shape[1]), A_ub=A_ub, b_ub=-np.ones(X.shape[0]), bounds=(None, None))
    assert res.status in (0, 2), res.message  # solved, or proved infeasible
    return res.status == 0


@pytest.mark.parametrize("fraction", [0.02, 0.2, 0.5])
def test_flip_labels_flips_exactly_the_stated_fraction(fraction):
    y = np.where(np.arange(1000) % 3 == 0, 1, -1)
    before = y.copy()
    out = W.flip_labels(y, fraction, random_state=5)
    assert np.array_equal(y, before)  # not mutated
    assert set(np.unique(out).tolist()) <= {-1, 1}
    assert np.count_nonzero(out != y) == round(fraction * 1000)
    assert np.array_equal(out, W.flip_labels(y, fraction, random_state=5))  # seeded


@pytest.mark.parametrize("fraction", [0.02, 0.2])
def test_noisy_workload_is_separable_data_with_the_fraction_flipped(fraction):
    X, y = W.noisy(500, 5, fraction, random_state=3)
    X0, y0 = make_separable(500, 5, margin=0.0, random_state=3)
    assert np.array_equal(X, X0)
    assert np.count_nonzero(y != y0) == round(fraction * 500)
    assert separable(X0, y0) and not separable(X, y)


@pytest.mark.filterwarnings("ignore::perclib.ConvergenceWarning")  # two epochs, on purpose
def test_sparse_text_is_csr_with_the_stated_density_and_both_classes():
    n, d, k = 300, 400, 7
    X, y = W.sparse_text(n, d, k, random_state=2)
    assert sp.issparse(X) and X.format == "csr" and X.shape == (n, d)
    assert np.array_equal(np.diff(X.indptr), np.full(n, k))  # k nonzeros in every row
    assert X.has_canonical_format  # sorted, distinct columns in each row
    assert X.nnz == n * k and X.nnz / (n * d) == k / d
    assert np.all((X.data >= 0.1) & (X.data < 1.0))
    assert 0.3 <= np.mean(y == 1) <= 0.7
    assert separable(X, y)
    # both libraries take it as it is
    for model in (
        Perceptron(max_iter=2),
        AveragedPerceptron(max_iter=2),
        SkPerceptron(max_iter=2, tol=None),
    ):
        assert model.fit(X, y).coef_.size == d


def test_tiny_problems_are_distinct_separable_and_seeded():
    problems = W.tiny_binary(5, 100, random_state=7)
    assert len(problems) == 5
    assert all(X.shape == (100, 2) and separable(X, y) for X, y in problems)
    assert not np.array_equal(problems[0][0], problems[1][0])
    assert np.array_equal(problems[4][0], W.tiny_binary(1, 100, random_state=11)[0][0])
    three = W.tiny_multiclass(4, 33, random_state=7)
    assert [X.shape for X, _ in three] == [(99, 2)] * 4
    assert all(np.array_equal(np.unique(y), [0, 1, 2]) for _, y in three)


def test_the_grid_has_every_kind_of_the_issue_each_distinct():
    kinds = {"tall", "wide", "thin", "noise2", "noise20", "sparse", "tiny", "tiny3", "digits"}
    assert set(W.SIZES) == kinds
    built = {key: W.make_workload(key, quick=True) for key in W.SIZES}
    assert len({(w.title, w.shape) for w in built.values()}) == len(kinds)
    (X_tall, _), (X_wide, _) = built["tall"].problems[0], built["wide"].problems[0]
    assert X_tall.shape[0] > 20 * X_tall.shape[1] and X_wide.shape[1] > X_wide.shape[0] / 5
    assert not built["sparse"].dense and sp.issparse(built["sparse"].problems[0][0])
    assert all(built[k].dense for k in kinds - {"sparse"})
    assert {k for k, w in built.items() if w.multiclass} == {"tiny3", "digits"}
    X, y = built["digits"].problems[0]
    assert X.shape == (1797, 64) and len(np.unique(y)) == 10
    for key in ("wide", "thin"):
        assert built[key].separable and separable(*built[key].problems[0])
    y_noisy = built["noise20"].problems[0][1]
    assert not separable(*built["noise20"].problems[0]) and y_noisy.size == 5000


def test_make_workload_rejects_an_unknown_kind():
    with pytest.raises(ValueError, match="unknown workload 'square'"):
        W.make_workload("square")


@pytest.mark.parametrize("count", [0, 2])
def test_a_section_must_appear_exactly_once(count):
    body = "x\n" + "<!-- grid:start -->\nold\n<!-- grid:end -->\n" * count
    with pytest.raises(SystemExit, match=f"has {count} <!-- grid:start -->"):
        REPORT._replace(body, "grid", "new\n", "README.md")


def test_a_section_is_replaced_and_the_rest_kept():
    body = "a\n<!-- grid:start -->\nold\n<!-- grid:end -->\n<!-- fit:start -->\nF\n<!-- fit:end -->"
    out = REPORT._replace(body, "grid", "new\n", "results.md")
    assert (
        out
        == "a\n<!-- grid:start -->\nnew\n<!-- grid:end -->\n<!-- fit:start -->\nF\n<!-- fit:end -->"
    )
