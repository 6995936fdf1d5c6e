"""Tests for perclib.plotting.convergence: what is drawn (artists, data), never pixels."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

import perclib.plotting as P
from perclib.datasets import make_separable
from perclib.experiments import novikoff_trace
from perclib.plotting.core import OKABE_ITO
from perclib.sgd import loss_value
from perclib.theory import max_margin, perceptron_criterion


def _trace():
    X, y = make_separable(30, 2, margin=0.1, random_state=0)
    return novikoff_trace(X, y)


def test_exported_from_the_package():
    for name in (
        "plot_novikoff_lemma",
        "plot_bound_scatter",
        "plot_margin_band",
        "plot_histogram",
        "plot_losses",
        "plot_train_test_error",
        "plot_paired",
        "plot_updates_vs",
        "plot_criterion_slice",
    ):
        assert callable(getattr(P, name))


@pytest.mark.parametrize(
    "lemma,measured,bound", [(1, "alignment", "alignment_bound"), (2, "sq_norm", "sq_norm_bound")]
)
def test_plot_novikoff_lemma_draws_both_sides(lemma, measured, bound):
    t = _trace()
    ax = P.plot_novikoff_lemma(t, lemma=lemma)
    lines = ax.get_lines()
    assert len(lines) == 2
    np.testing.assert_array_equal(lines[0].get_xydata(), np.c_[t["k"], t[measured]])
    np.testing.assert_array_equal(lines[1].get_xydata(), np.c_[t["k"], t[bound]])
    assert ax.get_xlabel() == "update $k$" and ax.get_legend() is not None


def test_plot_novikoff_lemma_on_given_ax_and_bad_lemma():
    fig, ax = plt.subplots()
    assert P.plot_novikoff_lemma(_trace(), 2, ax=ax) is ax
    with pytest.raises(ValueError, match="lemma"):
        P.plot_novikoff_lemma(_trace(), 3)


def test_plot_bound_scatter():
    u = np.array([1, 5, 20, 7])
    b = np.array([3.0, 50.0, 400.0, 7.5])
    ax = P.plot_bound_scatter(u, b)
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    np.testing.assert_array_equal(ax.collections[0].get_offsets(), np.c_[u, b])
    diag = ax.get_lines()[0].get_xydata()
    np.testing.assert_allclose(diag[:, 0], diag[:, 1])  # the line y = x
    assert diag[0, 0] <= 1 and diag[1, 0] >= 400
    with pytest.raises(ValueError, match="positive"):
        P.plot_bound_scatter([0, 1], [1, 1])
    with pytest.raises(ValueError, match="same length"):
        P.plot_bound_scatter([1, 2], [1.0])
    with pytest.raises(ValueError, match="non-empty"):
        P.plot_bound_scatter([], [])


def test_plot_margin_band_lines_and_support_points():
    X, y = make_separable(30, 2, margin=0.2, random_state=1)
    w, b, gamma = max_margin(X, y)
    ax = P.plot_data(X, y)
    ax = P.plot_margin_band(w, b, gamma, ax=ax, X=X, y=y)
    lines = ax.get_lines()
    assert len(lines) == 3
    for line, offset in zip(lines, (0.0, gamma, -gamma)):
        pts = line.get_xydata()
        np.testing.assert_allclose(pts @ w + b, offset, atol=1e-9)
    ringed = ax.collections[-1].get_offsets()
    ys = np.where(y == 1, 1, -1)
    margins = ys * (X @ w + b)
    assert len(ringed) >= 2
    np.testing.assert_allclose(
        np.asarray(ringed) @ w + b, np.sign(np.asarray(ringed) @ w + b) * gamma, atol=1e-8
    )
    assert np.sum(margins <= gamma + 1e-9) == len(ringed)
    assert ax.get_aspect() == 1.0


def test_plot_margin_band_errors():
    with pytest.raises(ValueError, match="2 entries"):
        P.plot_margin_band([1.0, 0.0, 0.0], 0.0, 0.1)
    with pytest.raises(ValueError, match="positive"):
        P.plot_margin_band([1.0, 0.0], 0.0, 0.0)
    ax = P.plot_margin_band([1.0, 0.0], 0.0, 0.1, xlim=(-1, 1), ylim=(-1, 1))
    assert ax.get_xlim() == (-1, 1)


def test_plot_histogram_marks_mean_and_median():
    v = np.array([1, 2, 2, 3, 10])
    ax = P.plot_histogram(v, label="iterations")
    lines = ax.get_lines()
    assert lines[0].get_xdata()[0] == pytest.approx(3.6) and lines[1].get_xdata()[0] == 2
    assert sum(p.get_height() for p in ax.patches) == 5
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "mean = 3.6" in labels and "median = 2" in labels


def test_plot_losses_curves_are_the_losses():
    ax = P.plot_losses()
    lines = {line.get_label(): line for line in ax.get_lines()}
    for name, label in (
        ("perceptron", "perceptron: max(0, −ya)"),
        ("hinge", "hinge: max(0, 1 − ya)"),
        ("logistic", "logistic: log(1 + exp(−ya))"),
    ):
        m, value = lines[label].get_xydata().T
        np.testing.assert_allclose(value, loss_value(name, np.ones_like(m), m))
    zero_one = [line for line in ax.get_lines() if line.get_color() == OKABE_ITO["black"]]
    assert len(zero_one) == 2
    assert set(zero_one[0].get_ydata()) == {1.0} and set(zero_one[1].get_ydata()) == {0.0}
    assert ax.get_xlim() == (-3, 3)


def test_plot_train_test_error():
    k = np.array([1, 2, 3])
    tr = np.array([[0.3, 0.2, 0.1], [0.5, 0.2, 0.3]])
    te = tr + 0.1
    ax = P.plot_train_test_error(k, tr, te)
    lines = ax.get_lines()
    np.testing.assert_allclose(lines[0].get_ydata(), tr.mean(axis=0))
    np.testing.assert_allclose(lines[1].get_ydata(), te.mean(axis=0))
    assert len(ax.collections) == 2  # the two bands
    ax = P.plot_train_test_error(k, tr[0], te[0])
    assert len(ax.collections) == 0
    with pytest.raises(ValueError, match="columns"):
        P.plot_train_test_error(k, tr[:, :2], te)


def test_plot_paired():
    a, c = np.array([0.1, 0.2]), np.array([0.3, 0.25])
    ax = P.plot_paired(a, c)
    assert len(ax.get_lines()) == 2
    np.testing.assert_array_equal(ax.collections[0].get_offsets(), np.c_[[0, 0], a])
    np.testing.assert_array_equal(ax.collections[1].get_offsets(), np.c_[[1, 1], c])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["pocket", "last iterate"]
    with pytest.raises(ValueError, match="same length"):
        P.plot_paired([0.1], [0.1, 0.2])


def test_plot_updates_vs():
    U = np.arange(2 * 3 * 4).reshape(2, 3, 4)
    ax = P.plot_updates_vs([10, 100], U, 64, series=["d=2", "d=5", "d=10"])
    assert ax.get_xscale() == "log"
    means = [c.lines[0].get_ydata() for c in ax.containers]
    np.testing.assert_allclose(means[1], U[:, 1].mean(axis=1))
    assert ax.get_lines()[-1].get_ydata()[0] == 64
    ax = P.plot_updates_vs([2, 5], U[:, 0], 64, xlabel="d")
    assert len(ax.containers) == 1 and ax.get_xlabel() == "d"
    with pytest.raises(ValueError, match="shape"):
        P.plot_updates_vs([1, 2, 3], U, 64)
    with pytest.raises(ValueError, match="series"):
        P.plot_updates_vs([10, 100], U, 64, series=["a"])


def test_plot_criterion_slice_is_below_its_chord():
    X, y = make_separable(20, 2, margin=0.1, random_state=2)
    start, end = (np.array([1.0, -2.0]), 0.5), (np.array([-1.0, 1.0]), -0.3)
    ax = P.plot_criterion_slice(X, y, start, end, n_points=11)
    s, L = ax.get_lines()[0].get_xydata().T
    assert L[0] == pytest.approx(perceptron_criterion(X, y, *start))
    assert L[-1] == pytest.approx(perceptron_criterion(X, y, *end))
    assert np.all(L <= (1 - s) * L[0] + s * L[-1] + 1e-9)
    with pytest.raises(ValueError, match="n_points"):
        P.plot_criterion_slice(X, y, start, end, n_points=1)
