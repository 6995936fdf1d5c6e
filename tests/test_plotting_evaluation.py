"""perclib.plotting.evaluation: check what was drawn (artists, data), not pixels."""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import PolyCollection

from perclib import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron, plotting
from perclib.datasets import make_noisy
from perclib.experiments import ErrorCurves, confusion_matrix
from perclib.plotting import evaluation as P


def _curves():
    rng = np.random.default_rng(0)
    errors = {m: rng.uniform(0, 0.5, size=(4, 6)) for m in ("last", "voted", "averaged", "pocket")}
    return ErrorCurves(np.arange(1, 7), errors)


def test_exported_from_the_plotting_package():
    assert plotting.plot_error_curves is P.plot_error_curves
    assert plotting.plot_confusion_matrix is P.plot_confusion_matrix


def test_error_curves_draw_mean_lines_and_std_bands():
    curves = _curves()
    ax = P.plot_error_curves(curves)
    assert len(ax.lines) == 4
    for line, m in zip(ax.lines, curves.methods):
        np.testing.assert_allclose(line.get_xydata()[:, 0], np.arange(1, 7))
        np.testing.assert_allclose(line.get_xydata()[:, 1], curves.mean()[m])
        assert line.get_label() == P.METHOD_STYLES[m]["label"]
        assert line.get_color() == P.METHOD_STYLES[m]["color"]
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
    out = P.plot_error_curves({"mine": np.array([0.3, 0.2, 0.1])}, ax)
    assert out is ax and len(ax.lines) == 1
    np.testing.assert_allclose(ax.lines[0].get_ydata(), [0.3, 0.2, 0.1])
    assert ax.lines[0].get_label() == "mine"


def test_error_curves_bad_input():
    with pytest.raises(ValueError, match="ErrorCurves"):
        P.plot_error_curves([0.1, 0.2])
    with pytest.raises(ValueError, match="ErrorCurves"):
        P.plot_error_curves({})
    with pytest.raises(ValueError, match="shape"):
        P.plot_error_curves({"x": np.zeros((2, 2, 2))})


def _fitted(X, y, epochs=5):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "last": Perceptron(max_iter=epochs).fit(X, y),
            "voted": VotedPerceptron(max_iter=epochs).fit(X, y),
            "averaged": AveragedPerceptron(max_iter=epochs).fit(X, y),
            "pocket": PocketPerceptron(max_iter=epochs).fit(X, y),
        }


def test_boundaries_draw_each_linear_boundary_on_its_line():
    X, y = make_noisy(80, flip=0.1, random_state=0)
    models = _fitted(X, y)
    ax = P.plot_boundaries(models, X, y)
    lines = {line.get_label(): line for line in ax.lines}
    for name in ("last", "averaged", "pocket"):
        pts = lines[P.METHOD_STYLES[name]["label"]].get_xydata()
        m = models[name]
        assert pts.shape == (2, 2)
        np.testing.assert_allclose(pts @ m.coef_ + m.intercept_, 0, atol=1e-9)
    # the voted boundary: a contour whose points lie where the vote changes sign
    assert P.METHOD_STYLES["voted"]["label"] in lines
    contours = [c for c in ax.collections if hasattr(c, "levels")]
    assert len(contours) == 1
    pts = np.vstack([p.vertices for p in contours[0].get_paths()])
    assert len(pts) > 10
    step = (ax.get_xlim()[1] - ax.get_xlim()[0]) / 299
    near = [
        np.unique(
            models["voted"].predict(p + step * np.array([[1, 0], [-1, 0], [0, 1], [0, -1]]))
        ).size
        for p in pts[::5]
    ]
    assert np.mean(np.array(near) == 2) > 0.9
    assert ax.get_aspect() == 1.0
    assert [t.get_text() for t in ax.get_legend().get_texts()][-4:] == [
        "last iterate",
        "voted",
        "averaged",
        "pocket",
    ]


def test_boundaries_with_limits_and_degenerate_models():
    X, y = make_noisy(30, flip=0.0, random_state=1)
    fig, ax = plt.subplots()
    zero = AveragedPerceptron(max_iter=1).fit(X, y)
    zero.coef_ = np.zeros(2)  # a zero vector has no boundary: an empty line, still in the legend
    one_sided = VotedPerceptron(max_iter=1).fit(X, y)
    one_sided.counts_ = np.zeros_like(one_sided.counts_)  # every vote 0: all +1, no edge
    out = P.plot_boundaries(
        {"averaged": zero, "voted": one_sided, "extra": zero},
        X,
        y,
        ax,
        xlim=(-2, 2),
        ylim=(-2, 2),
        resolution=50,
    )
    assert out is ax and ax.get_xlim() == (-2, 2)
    assert len(ax.lines[0].get_xydata()) == 0
    assert not [c for c in ax.collections if hasattr(c, "levels")]
    assert ax.lines[-1].get_label() == "extra"


def test_boundaries_bad_input():
    X, y = make_noisy(20, flip=0.0, random_state=1)
    with pytest.raises(ValueError, match="non-empty dict"):
        P.plot_boundaries([], X, y)
    with pytest.raises(ValueError, match="2-D data"):
        P.plot_boundaries({"a": Perceptron().fit(X, y)}, np.zeros((3, 3)), [0, 1, 1])
    with pytest.raises(ValueError, match="not fitted"):
        P.plot_boundaries({"a": Perceptron()}, X, y)


def test_weight_image_shows_the_vector_on_a_symmetric_scale():
    w = np.arange(64.0) - 20
    ax = P.plot_weight_image(w, title="three")
    image = ax.images[0]
    np.testing.assert_array_equal(image.get_array(), w.reshape(8, 8))
    assert image.get_clim() == (-43.0, 43.0)
    assert ax.get_title() == "three" and not ax.get_xticks().size
    ax0 = P.plot_weight_image(np.zeros(64))
    assert ax0.images[0].get_clim() == (-1.0, 1.0)
    ax3 = P.plot_weight_image(np.ones(6), shape=(2, 3), vmax=5)
    assert ax3.images[0].get_array().shape == (2, 3) and ax3.images[0].get_clim() == (-5.0, 5.0)


def test_weight_images_bad_input():
    with pytest.raises(ValueError, match="64 entries"):
        P.plot_weight_image(np.zeros(10))
    with pytest.raises(ValueError, match="one vector"):
        P.plot_weight_image(np.zeros((2, 64)))
    with pytest.raises(ValueError, match="NaN"):
        P.plot_weight_image(np.full(64, np.nan))


def test_confusion_matrix_figure_writes_every_count():
    y_true = np.array([0, 0, 1, 1, 2, 2, 2])
    y_pred = np.array([0, 1, 1, 1, 2, 0, 2])
    C = confusion_matrix(y_true, y_pred)
    ax = P.plot_confusion_matrix(C, labels=["a", "b", "c"])
    np.testing.assert_array_equal(ax.images[0].get_array(), C)
    texts = {(t.get_position()): t.get_text() for t in ax.texts}
    for i in range(3):
        for j in range(3):
            assert texts[(j, i)] == str(C[i, j])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert ax.get_xlabel() == "predicted class" and ax.get_ylabel() == "true class"


def test_confusion_matrix_on_a_given_ax():
    fig, ax = plt.subplots()
    assert P.plot_confusion_matrix(np.array([[3, 1], [0, 0]]), ax) is ax
    P.plot_confusion_matrix(np.zeros((2, 2)))  # an empty matrix still draws


def test_confusion_matrix_figure_bad_input():
    with pytest.raises(ValueError, match="square"):
        P.plot_confusion_matrix(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="counts"):
        P.plot_confusion_matrix(np.array([[1, -1], [0, 1]]))
    with pytest.raises(ValueError, match="counts"):
        P.plot_confusion_matrix(np.array([["a", "b"], ["c", "d"]]))
    with pytest.raises(ValueError, match="labels"):
        P.plot_confusion_matrix(np.eye(2), labels=["a"])
