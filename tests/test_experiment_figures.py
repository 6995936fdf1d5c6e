"""The figures of the notebooks' experiments (notebooks/experiments.py): what is drawn (artists,
data), never pixels."""

import experiments as E
import matplotlib.pyplot as plt
import numpy as np
import pytest
from experiments import ErrorCurves, confusion_matrix
from matplotlib.collections import PolyCollection

import perclib.plotting
from perclib.datasets import make_separable
from perclib.plotting.core import METHOD_STYLES, OKABE_ITO
from perclib.sgd import loss_value
from perclib.theory import perceptron_criterion


def _trace():
    X, y = make_separable(30, 2, margin=0.1, random_state=0)
    return E.novikoff_trace(X, y)


def _curves():
    rng = np.random.default_rng(0)
    errors = {m: rng.uniform(0, 0.5, size=(4, 6)) for m in ("last", "voted", "averaged", "pocket")}
    return ErrorCurves(np.arange(1, 7), errors)


def test_the_figures_are_course_content_not_perclib():
    for name in (
        "plot_novikoff_lemma",
        "plot_bound_scatter",
        "plot_histogram",
        "plot_losses",
        "plot_train_test_error",
        "plot_paired",
        "plot_updates_vs",
        "plot_criterion_slice",
        "plot_error_curves",
        "plot_weight_image",
        "plot_confusion_matrix",
    ):
        assert callable(getattr(E, name)) and not hasattr(perclib.plotting, name)


@pytest.mark.parametrize(
    "lemma,measured,bound", [(1, "alignment", "alignment_bound"), (2, "sq_norm", "sq_norm_bound")]
)
def test_plot_novikoff_lemma_draws_both_sides(lemma, measured, bound):
    t = _trace()
    ax = E.plot_novikoff_lemma(t, lemma=lemma)
    lines = ax.get_lines()
    assert len(lines) == 2
    np.testing.assert_array_equal(lines[0].get_xydata(), np.c_[t["k"], t[measured]])
    np.testing.assert_array_equal(lines[1].get_xydata(), np.c_[t["k"], t[bound]])
    assert ax.get_xlabel() == "update $k$" and ax.get_legend() is not None


def test_plot_novikoff_lemma_on_given_ax_and_bad_lemma():
    fig, ax = plt.subplots()
    assert E.plot_novikoff_lemma(_trace(), 2, ax=ax) is ax
    with pytest.raises(ValueError, match="lemma"):
        E.plot_novikoff_lemma(_trace(), 3)


def test_plot_bound_scatter():
    u = np.array([1, 5, 20, 7])
    b = np.array([3.0, 50.0, 400.0, 7.5])
    ax = E.plot_bound_scatter(u, b)
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    np.testing.assert_array_equal(ax.collections[0].get_offsets(), np.c_[u, b])
    diag = ax.get_lines()[0].get_xydata()
    np.testing.assert_allclose(diag[:, 0], diag[:, 1])  # the line y = x
    assert diag[0, 0] <= 1 and diag[1, 0] >= 400
    with pytest.raises(ValueError, match="positive"):
        E.plot_bound_scatter([0, 1], [1, 1])
    with pytest.raises(ValueError, match="same length"):
        E.plot_bound_scatter([1, 2], [1.0])
    with pytest.raises(ValueError, match="non-empty"):
        E.plot_bound_scatter([], [])


def test_plot_histogram_marks_mean_and_median():
    v = np.array([1, 2, 2, 3, 10])
    ax = E.plot_histogram(v, label="iterations")
    lines = ax.get_lines()
    assert lines[0].get_xdata()[0] == pytest.approx(3.6) and lines[1].get_xdata()[0] == 2
    assert sum(p.get_height() for p in ax.patches) == 5
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "mean = 3.6" in labels and "median = 2" in labels


def test_plot_losses_curves_are_the_losses():
    ax = E.plot_losses()
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
    ax = E.plot_train_test_error(k, tr, te)
    lines = ax.get_lines()
    np.testing.assert_allclose(lines[0].get_ydata(), tr.mean(axis=0))
    np.testing.assert_allclose(lines[1].get_ydata(), te.mean(axis=0))
    assert len(ax.collections) == 2  # the two bands
    ax = E.plot_train_test_error(k, tr[0], te[0])
    assert len(ax.collections) == 0
    with pytest.raises(ValueError, match="columns"):
        E.plot_train_test_error(k, tr[:, :2], te)


def test_plot_paired():
    a, c = np.array([0.1, 0.2]), np.array([0.3, 0.25])
    ax = E.plot_paired(a, c)
    assert len(ax.get_lines()) == 2
    np.testing.assert_array_equal(ax.collections[0].get_offsets(), np.c_[[0, 0], a])
    np.testing.assert_array_equal(ax.collections[1].get_offsets(), np.c_[[1, 1], c])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["pocket", "last iterate"]
    with pytest.raises(ValueError, match="same length"):
        E.plot_paired([0.1], [0.1, 0.2])


def test_plot_updates_vs():
    U = np.arange(2 * 3 * 4).reshape(2, 3, 4)
    ax = E.plot_updates_vs([10, 100], U, 64, series=["d=2", "d=5", "d=10"])
    assert ax.get_xscale() == "log"
    means = [c.lines[0].get_ydata() for c in ax.containers]
    np.testing.assert_allclose(means[1], U[:, 1].mean(axis=1))
    assert ax.get_lines()[-1].get_ydata()[0] == 64
    ax = E.plot_updates_vs([2, 5], U[:, 0], 64, xlabel="d")
    assert len(ax.containers) == 1 and ax.get_xlabel() == "d"
    with pytest.raises(ValueError, match="shape"):
        E.plot_updates_vs([1, 2, 3], U, 64)
    with pytest.raises(ValueError, match="series"):
        E.plot_updates_vs([10, 100], U, 64, series=["a"])


def test_plot_criterion_slice_is_below_its_chord():
    X, y = make_separable(20, 2, margin=0.1, random_state=2)
    start, end = (np.array([1.0, -2.0]), 0.5), (np.array([-1.0, 1.0]), -0.3)
    ax = E.plot_criterion_slice(X, y, start, end, n_points=11)
    s, L = ax.get_lines()[0].get_xydata().T
    assert L[0] == pytest.approx(perceptron_criterion(X, y, *start))
    assert L[-1] == pytest.approx(perceptron_criterion(X, y, *end))
    assert np.all(L <= (1 - s) * L[0] + s * L[-1] + 1e-9)
    with pytest.raises(ValueError, match="n_points"):
        E.plot_criterion_slice(X, y, start, end, n_points=1)


def test_error_curves_draw_mean_lines_and_std_bands():
    curves = _curves()
    ax = E.plot_error_curves(curves)
    assert len(ax.lines) == 4
    for line, m in zip(ax.lines, curves.methods):
        np.testing.assert_allclose(line.get_xydata()[:, 0], np.arange(1, 7))
        np.testing.assert_allclose(line.get_xydata()[:, 1], curves.mean()[m])
        assert line.get_label() == METHOD_STYLES[m]["label"]
        assert line.get_color() == METHOD_STYLES[m]["color"]
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(bands) == 4
    verts = bands[2].get_paths()[0].vertices  # the averaged band: mean - std up to mean + std
    mean, std = curves.mean()["averaged"], curves.std()["averaged"]
    assert verts[:, 1].max() == pytest.approx((mean + std).max())
    assert verts[:, 1].min() == pytest.approx((mean - std).min())
    assert ax.get_xlabel() == "epoch" and ax.get_ylabel() == "test error"
    assert ax.get_ylim()[0] == 0
    assert all(float(t).is_integer() for t in ax.get_xticks())


def test_error_curves_on_a_given_ax_with_a_dict():
    fig, ax = plt.subplots()
    out = E.plot_error_curves({"mine": np.array([0.3, 0.2, 0.1])}, ax)
    assert out is ax and len(ax.lines) == 1
    np.testing.assert_allclose(ax.lines[0].get_ydata(), [0.3, 0.2, 0.1])
    assert ax.lines[0].get_label() == "mine"


def test_error_curves_bad_input():
    with pytest.raises(ValueError, match="ErrorCurves"):
        E.plot_error_curves([0.1, 0.2])
    with pytest.raises(ValueError, match="ErrorCurves"):
        E.plot_error_curves({})
    with pytest.raises(ValueError, match="shape"):
        E.plot_error_curves({"x": np.zeros((2, 2, 2))})


def test_weight_image_shows_the_vector_on_a_symmetric_scale():
    w = np.arange(64.0) - 20
    ax = E.plot_weight_image(w, title="three")
    image = ax.images[0]
    np.testing.assert_array_equal(image.get_array(), w.reshape(8, 8))
    assert image.get_clim() == (-43.0, 43.0)
    assert ax.get_title() == "three" and not ax.get_xticks().size
    ax0 = E.plot_weight_image(np.zeros(64))
    assert ax0.images[0].get_clim() == (-1.0, 1.0)
    ax3 = E.plot_weight_image(np.ones(6), shape=(2, 3), vmax=5)
    assert ax3.images[0].get_array().shape == (2, 3) and ax3.images[0].get_clim() == (-5.0, 5.0)


def test_weight_images_bad_input():
    with pytest.raises(ValueError, match="64 entries"):
        E.plot_weight_image(np.zeros(10))
    with pytest.raises(ValueError, match="one vector"):
        E.plot_weight_image(np.zeros((2, 64)))
    with pytest.raises(ValueError, match="NaN"):
        E.plot_weight_image(np.full(64, np.nan))


def test_confusion_matrix_figure_writes_every_count():
    y_true = np.array([0, 0, 1, 1, 2, 2, 2])
    y_pred = np.array([0, 1, 1, 1, 2, 0, 2])
    C = confusion_matrix(y_true, y_pred)
    ax = E.plot_confusion_matrix(C, labels=["a", "b", "c"])
    np.testing.assert_array_equal(ax.images[0].get_array(), C)
    texts = {(t.get_position()): t.get_text() for t in ax.texts}
    for i in range(3):
        for j in range(3):
            assert texts[(j, i)] == str(C[i, j])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert ax.get_xlabel() == "predicted class" and ax.get_ylabel() == "true class"


def test_confusion_matrix_on_a_given_ax():
    fig, ax = plt.subplots()
    assert E.plot_confusion_matrix(np.array([[3, 1], [0, 0]]), ax) is ax
    E.plot_confusion_matrix(np.zeros((2, 2)))  # an empty matrix still draws


def test_confusion_matrix_figure_bad_input():
    with pytest.raises(ValueError, match="square"):
        E.plot_confusion_matrix(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="counts"):
        E.plot_confusion_matrix(np.array([[1, -1], [0, 1]]))
    with pytest.raises(ValueError, match="counts"):
        E.plot_confusion_matrix(np.array([["a", "b"], ["c", "d"]]))
    with pytest.raises(ValueError, match="labels"):
        E.plot_confusion_matrix(np.eye(2), labels=["a"])
