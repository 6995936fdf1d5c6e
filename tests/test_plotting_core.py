"""perclib.plotting.core on the Agg backend: check the artists and their data, not pixels."""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_rgba

from perclib import (
    AveragedPerceptron,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from perclib.datasets import make_blobs3, make_noisy, make_separable, worked_example
from perclib.plotting import (
    METHOD_STYLES,
    NEGATIVE,
    OKABE_ITO,
    POSITIVE,
    boundary_segment,
    plot_boundaries,
    plot_classes,
    plot_data,
    plot_decision_boundary,
    plot_decision_regions,
    plot_margin_band,
    plot_mistakes,
    plot_update,
)
from perclib.plotting.core import halfplanes
from perclib.theory import max_margin


def polygon_area(p):
    return 0.5 * abs(np.dot(p[:, 0], np.roll(p[:, 1], -1)) - np.dot(p[:, 1], np.roll(p[:, 0], -1)))


def fills(ax):
    return [p for p in ax.patches if p.__class__.__name__ == "Polygon"]


# -- plot_data -----------------------------------------------------------------------------------


def test_plot_data_markers_colours_and_points():
    X, y = worked_example()
    ax = plot_data(X, y)
    pos, neg = ax.collections
    assert pos.get_label() == "+1" and neg.get_label() == "−1"
    assert pos.get_offsets().tolist() == [[1, 1], [1, 2]] and neg.get_offsets().tolist() == [
        [0, 0],
        [-1, 0],
    ]
    assert (
        np.allclose(pos.get_edgecolor()[0], to_rgba(POSITIVE["color"]))
        and len(pos.get_facecolor()) == 0
    )
    assert np.allclose(neg.get_facecolor()[0], to_rgba(NEGATIVE["color"]))
    assert ax.get_xlabel() == "$x_1$" and ax.get_ylabel() == "$x_2$"
    assert ax.get_aspect() == 1.0 and ax.figure.get_facecolor() == to_rgba("white")


def test_plot_data_any_two_labels_draws_on_given_axes():
    X, y = worked_example()
    fig, ax = plt.subplots()
    out = plot_data(X, np.where(y > 0, "spam", "ham"), ax, labels=("ham", "spam"))
    assert out is ax
    pos, neg = ax.collections
    assert pos.get_label() == "spam" and pos.get_offsets().tolist() == [[1, 1], [1, 2]]
    assert neg.get_label() == "ham"


def test_plot_data_one_class():
    ax = plot_data([[0.0, 1.0]], [-1])
    assert len(ax.collections) == 1 and ax.collections[0].get_label() == "−1"
    with pytest.raises(ValueError, match="single class, y must be \\+1 or -1"):
        plot_data([[0.0, 1.0]], [3])


def test_plot_data_bad_input():
    with pytest.raises(ValueError, match="draws 2-D data; X has 3 features"):
        plot_data(np.zeros((2, 3)), [1, -1])
    with pytest.raises(ValueError, match="two classes; got 3"):
        plot_data(np.zeros((3, 2)), [0, 1, 2])
    with pytest.raises(ValueError, match="X has 2 samples but y has 1"):
        plot_data(np.zeros((2, 2)), [1])


# -- the geometry: boundary_segment and halfplanes -----------------------------------------------


@pytest.mark.parametrize(
    "w, b, expected",
    [
        ((1.0, 0.0), -0.5, [[0.5, -1.0], [0.5, 1.0]]),  # vertical line x1 = 0.5
        ((0.0, 2.0), 1.0, [[-1.0, -0.5], [1.0, -0.5]]),  # horizontal line x2 = -0.5
        ((1.0, 1.0), 0.0, [[-1.0, 1.0], [1.0, -1.0]]),  # the diagonal through two corners
    ],
)
def test_boundary_segment_known_lines(w, b, expected):
    seg = boundary_segment(w, b, (-1, 1), (-1, 1))
    assert np.allclose(seg, expected)
    assert np.allclose(seg @ np.asarray(w) + b, 0)


def test_boundary_segment_misses_the_box():
    assert boundary_segment((1.0, 1.0), -5.0, (-1, 1), (-1, 1)) is None
    assert boundary_segment((1.0, 1.0), -2.0, (-1, 1), (-1, 1)) is None  # touches one corner only
    with pytest.raises(ValueError, match="w must have 2 entries"):
        boundary_segment((1.0, 1.0, 1.0), 0.0, (-1, 1), (-1, 1))


def test_halfplanes_split_the_box_exactly():
    rng = np.random.default_rng(0)
    for _ in range(200):
        w, b = rng.normal(size=2), rng.normal()
        pos, neg = halfplanes(w, b, (-1, 2), (-1.5, 1))
        area = sum(polygon_area(p) for p in (pos, neg) if p is not None)
        assert area == pytest.approx(3 * 2.5)
        if pos is not None:
            assert np.all(pos @ w + b >= -1e-9)
        if neg is not None:
            assert np.all(neg @ w + b <= 1e-9)


def test_halfplanes_degenerate_cases():
    pos, neg = halfplanes((0.0, 0.0), 0.0, (-1, 1), (-1, 1))  # sign(0) = +1 everywhere
    assert polygon_area(pos) == 4 and neg is None
    pos, neg = halfplanes((0.0, 0.0), -1.0, (-1, 1), (-1, 1))
    assert pos is None and polygon_area(neg) == 4
    pos, neg = halfplanes((1.0, 1.0), -2.0, (-1, 1), (-1, 1))  # the line touches a corner only
    assert pos is None and polygon_area(neg) == 4
    pos, neg = halfplanes((1.0, -2.0), -1.0, (-1, 1), (-1, 1))  # through the first corner (-1, -1)
    assert sorted(map(tuple, pos.tolist())) == [(-1.0, -1.0), (1.0, -1.0), (1.0, 0.0)]
    assert polygon_area(neg) == pytest.approx(3.0)
    with pytest.raises(ValueError, match="NaN or infinity"):
        halfplanes((np.nan, 1.0), 0.0, (-1, 1), (-1, 1))


# -- plot_decision_boundary ----------------------------------------------------------------------


def test_decision_boundary_line_shading_and_normal_arrow():
    X, y = worked_example()
    ax = plot_data(X, y)
    plot_decision_boundary((1.0, 1.0), -1.0, ax, xlim=(-2, 2), ylim=(-2, 3))
    line = ax.lines[0]
    assert np.allclose(line.get_xydata() @ [1.0, 1.0] - 1.0, 0)
    pos, neg = fills(ax)
    assert np.allclose(pos.get_facecolor()[:3], to_rgba(POSITIVE["color"])[:3])
    assert np.allclose(neg.get_facecolor()[:3], to_rgba(NEGATIVE["color"])[:3])
    assert np.all(pos.get_xy() @ [1.0, 1.0] - 1 >= -1e-9) and np.all(
        neg.get_xy() @ [1.0, 1.0] - 1 <= 1e-9
    )
    arrow = [t for t in ax.texts if hasattr(t, "xyann")][0]
    tip, tail = np.array(arrow.xy), np.array(arrow.xyann)
    assert np.isclose(tail @ [1.0, 1.0] - 1.0, 0)  # starts on the line
    d = tip - tail
    assert np.isclose(d[0], d[1]) and d[0] > 0  # along +w: normal, to the +1 side
    assert ax.get_xlim() == (-2, 2) and ax.get_ylim() == (-2, 3)
    assert any(t.get_text() == "$w$" for t in ax.texts)


def test_decision_boundary_default_limits_come_from_the_data():
    X, y = make_separable(20, random_state=0)
    ax = plot_data(X, y)
    ax.autoscale_view()
    xlim = ax.get_xlim()
    plot_decision_boundary((0.3, -1.0), 0.1, ax)
    assert ax.get_xlim() == xlim


def test_decision_boundary_options_and_zero_w():
    ax = plot_decision_boundary((0.0, 0.0), -1.0, xlim=(0, 1), ylim=(0, 1))
    assert len(ax.lines) == 0 and len(ax.texts) == 0  # no line, no arrow: the whole box is -1
    assert len(fills(ax)) == 1 and polygon_area(fills(ax)[0].get_xy()) == pytest.approx(1.0)
    ax = plot_decision_boundary(
        (1.0, 0.0),
        0.0,
        xlim=(-1, 1),
        ylim=(-1, 1),
        shade=False,
        arrow=False,
        color="red",
        linestyle="--",
        label="mine",
    )
    assert len(fills(ax)) == 0 and len(ax.texts) == 0
    assert ax.lines[0].get_linestyle() == "--" and ax.lines[0].get_label() == "mine"
    with pytest.raises(ValueError, match="w must have 2 entries"):
        plot_decision_boundary((1.0, 1.0, 1.0), 0.0)


# -- plot_update ---------------------------------------------------------------------------------


def arrows(ax):
    return [
        (tuple(np.round(t.xyann, 9)), tuple(np.round(t.xy, 9)))
        for t in ax.texts
        if hasattr(t, "xyann")
    ]


def test_plot_update_margin_rule():
    ax = plot_update(
        (1.0, 1.0), 1, (-2.0, -2.0), 0.0, (-1.0, -1.0), 1.0, xlim=(-3, 2), ylim=(-3, 2)
    )
    assert arrows(ax) == [((0, 0), (-2, -2)), ((0, 0), (-1, -1)), ((-2, -2), (-1, -1))]
    labels = [line.get_label() for line in ax.lines]
    assert labels[:2] == ["boundary before", "boundary after"]
    assert (
        "w before" in labels
        and "w after" in labels
        and "added to w: $\\eta y x$ = 1·(+1)·x" in labels
    )
    before, after = ax.lines[0], ax.lines[1]
    assert (
        np.allclose(before.get_xydata() @ [-2.0, -2.0] + 0.0, 0) and before.get_linestyle() == "--"
    )
    assert np.allclose(after.get_xydata() @ [-1.0, -1.0] + 1.0, 0)
    point = ax.collections[0]
    assert (
        point.get_offsets().tolist() == [[1.0, 1.0]] and point.get_label() == "the point x (y = +1)"
    )
    assert len(fills(ax)) == 2


def test_plot_update_other_steps_are_labelled_by_what_was_added():
    ax = plot_update((0.0, 1.0), -1, (0.0, 0.0), 0.0, (0.0, -2.0), -2.0, xlim=(-2, 2), ylim=(-2, 2))
    assert "added to w: -2·x" in [
        line.get_label() for line in ax.lines
    ]  # the (y - y_hat) rule: 2*y*x
    assert len(arrows(ax)) == 2  # w before is 0: no arrow
    assert ax.collections[0].get_label() == "the point x (y = −1)"
    ax = plot_update((1.0, 0.0), 1, (1.0, 1.0), 0.0, (1.5, 2.0), 0.5, xlim=(-2, 2), ylim=(-2, 3))
    assert "added to w: (0.5, 1)" in [line.get_label() for line in ax.lines]
    ax = plot_update(
        (0.5, 0.5), 1, (0.0, 0.0), 0.0, (0.25, 0.25), 0.5, eta=0.5, xlim=(-1, 1), ylim=(-1, 1)
    )
    assert "added to w: $\\eta y x$ = 0.5·(+1)·x" in [line.get_label() for line in ax.lines]


def test_plot_update_bad_input():
    with pytest.raises(ValueError, match="x must be one 2-D point"):
        plot_update((1.0, 1.0, 1.0), 1, (0, 0), 0, (1, 1), 1)
    with pytest.raises(ValueError, match="y must be -1 or \\+1"):
        plot_update((1.0, 1.0), 0, (0, 0), 0, (1, 1), 1)
    with pytest.raises(ValueError, match="w must have 2 entries"):
        plot_update((1.0, 1.0), 1, (0, 0, 0), 0, (1, 1), 1)


# -- plot_mistakes, plot_classes, plot_decision_regions ------------------------------------------


def test_plot_mistakes_bars():
    ax = plot_mistakes([1, 2, 0])
    assert [p.get_height() for p in ax.patches] == [1, 2, 0]
    assert [p.get_x() + p.get_width() / 2 for p in ax.patches] == [1, 2, 3]
    assert list(ax.get_xticks()) == [1, 2, 3] and ax.get_xlabel() == "epoch"
    assert all(float(t).is_integer() for t in ax.get_yticks())
    ax = plot_mistakes(np.arange(30))
    assert len(ax.patches) == 30 and ax.get_xlim() == (0.4, 30.6)
    for bad in ([], [[1, 2]]):
        with pytest.raises(ValueError, match="non-empty 1-D"):
            plot_mistakes(bad)


def test_plot_classes_one_style_per_class():
    X, y = make_blobs3(5, random_state=0)
    ax = plot_classes(X, y)
    assert [c.get_label() for c in ax.collections] == ["0", "1", "2"]
    for k, c in enumerate(ax.collections):
        assert c.get_offsets().tolist() == X[y == k].tolist()
    assert np.allclose(ax.collections[0].get_edgecolor()[0], to_rgba(OKABE_ITO["blue"]))
    assert np.allclose(
        ax.collections[1].get_facecolor()[0], to_rgba(OKABE_ITO["vermillion"])
    )  # x: filled
    with pytest.raises(ValueError, match="draws 2-D data; X has 1 features"):
        plot_classes(np.zeros((3, 1)), [0, 1, 2])


def test_plot_decision_regions_shades_what_the_model_predicts():
    X, y = make_blobs3(20, random_state=0)
    model = MulticlassPerceptron(random_state=0).fit(X, y)
    ax = plot_decision_regions(X, y, model, resolution=50)  # mlxtend's order: X, y, clf
    contour = [
        c for c in ax.collections if c.__class__.__name__ in ("QuadContourSet", "ContourSet")
    ]
    assert len(contour) == 1 and list(contour[0].levels) == [-0.5, 0.5, 1.5, 2.5]
    assert len([c for c in ax.collections if c.get_label() in ("0", "1", "2")]) == 3
    xlim = ax.get_xlim()
    assert xlim[0] <= X[:, 0].min() and xlim[1] >= X[:, 0].max()


def _spy_contourf(ax):
    calls = []
    draw = ax.contourf
    ax.contourf = lambda *a, **k: calls.append((a, k)) or draw(*a, **k)
    return calls


@pytest.mark.parametrize("labels", [np.array([0, 1, 2]), np.array(["iris-a", "iris-b", "iris-c"])])
def test_plot_decision_regions_draws_any_fitted_scikit_learn_classifier(labels):
    from sklearn.neighbors import KNeighborsClassifier

    X, k = make_blobs3(15, random_state=1)
    y = labels[k]
    clf = KNeighborsClassifier(n_neighbors=3).fit(X, y)
    fig, ax = plt.subplots()
    calls = _spy_contourf(ax)
    plot_decision_regions(X, y, clf, ax=ax, resolution=40, hatches=["//", "", ".."], alpha=0.3)
    (gx, gy, z), style = calls[0]
    # each grid point is shaded with the index of the label the classifier predicts there
    pred = clf.predict(np.c_[gx.ravel(), gy.ravel()])
    assert np.array_equal(labels[z.ravel()], pred) and len(set(z.ravel().tolist())) == 3
    assert style["hatches"] == ["//", "", ".."] and style["alpha"] == 0.3  # styling passed through
    assert [c.get_label() for c in ax.collections][:3] == [str(v) for v in labels]  # plot_classes
    plt.close(fig)


def test_plot_decision_regions_refuses_a_classifier_of_other_labels():
    X, y = make_blobs3(5, random_state=0)
    model = MulticlassPerceptron().fit(X, y + 10)
    with pytest.raises(ValueError, match="predicts labels .* not in y"):
        plot_decision_regions(X, y, model, resolution=10)


# -- the max-margin band (notebook 04, MarginExplorer) ---------------------------------------------


def test_plot_margin_band_lines_and_support_points():
    X, y = make_separable(30, 2, margin=0.2, random_state=1)
    w, b, gamma = max_margin(X, y)
    ax = plot_data(X, y)
    ax = plot_margin_band(w, b, gamma, ax=ax, X=X, y=y)
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
        plot_margin_band([1.0, 0.0, 0.0], 0.0, 0.1)
    with pytest.raises(ValueError, match="positive"):
        plot_margin_band([1.0, 0.0], 0.0, 0.0)
    ax = plot_margin_band([1.0, 0.0], 0.0, 0.1, xlim=(-1, 1), ylim=(-1, 1))
    assert ax.get_xlim() == (-1, 1)


# -- the four answers' boundaries (notebook 06, EnsembleExplorer) ----------------------------------


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
    ax = plot_boundaries(models, X, y)
    lines = {line.get_label(): line for line in ax.lines}
    for name in ("last", "averaged", "pocket"):
        pts = lines[METHOD_STYLES[name]["label"]].get_xydata()
        m = models[name]
        assert pts.shape == (2, 2)
        np.testing.assert_allclose(pts @ m.coef_ + m.intercept_, 0, atol=1e-9)
    # the voted boundary: a contour whose points lie where the vote changes sign
    assert METHOD_STYLES["voted"]["label"] in lines
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
    out = plot_boundaries(
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
        plot_boundaries([], X, y)
    with pytest.raises(ValueError, match="2-D data"):
        plot_boundaries({"a": Perceptron().fit(X, y)}, np.zeros((3, 3)), [0, 1, 1])
    with pytest.raises(ValueError, match="not fitted"):
        plot_boundaries({"a": Perceptron()}, X, y)
