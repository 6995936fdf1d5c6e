"""Figures for the course, in the manner of mlxtend's ``plot_decision_regions``.

Conventions, the same in every figure:

- o for the +1 class and x for the -1 class;
- the Okabe-Ito colour-blind-safe palette (blue for +1, vermillion for -1);
- w drawn as an arrow normal to the boundary w.x + b = 0, the +1 half-plane shaded blue;
- equal aspect for geometry, labelled axes, a white background.

Every helper takes ``ax=None``, draws on it (or on a new axes), and returns the axes. None of them
calls ``plt.show()``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator

from .. import _validation as V

#: Okabe & Ito (2008), "Color Universal Design":
#: distinguishable with every common colour-vision deficiency.
OKABE_ITO = {
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "black": "#000000",
}
POSITIVE = {"marker": "o", "color": OKABE_ITO["blue"], "label": "+1"}
NEGATIVE = {"marker": "x", "color": OKABE_ITO["vermillion"], "label": "−1"}
#: Colours for classes 0, 1, 2, ... of a multi-class figure, with their markers.
CLASS_COLORS = [
    OKABE_ITO[k]
    for k in ("blue", "vermillion", "green", "orange", "purple", "sky", "yellow", "black")
]
CLASS_MARKERS = ["o", "x", "s", "^", "D", "v", "P", "*"]

#: One style per answer of one perceptron run (last iterate, voted, averaged, pocket), as notebook
#: 06 and the EnsembleExplorer draw them: colour, line style, legend label.
METHOD_STYLES = {
    "last": {"color": OKABE_ITO["black"], "linestyle": "--", "label": "last iterate"},
    "voted": {"color": OKABE_ITO["purple"], "linestyle": "-.", "label": "voted"},
    "averaged": {"color": OKABE_ITO["green"], "linestyle": "-", "label": "averaged"},
    "pocket": {"color": OKABE_ITO["orange"], "linestyle": ":", "label": "pocket"},
}
_EXTRA_COLORS = [OKABE_ITO[k] for k in ("sky", "yellow", "blue", "vermillion")]


def _method_style(name, k):
    if name in METHOD_STYLES:
        return METHOD_STYLES[name]
    return {"color": _EXTRA_COLORS[k % len(_EXTRA_COLORS)], "linestyle": "-", "label": str(name)}


def _check_2d(X, y, who):
    """X (with 2 features) and y (as long as X), checked for ``who``, which draws them."""
    X = V.check_array(X)
    if X.shape[1] != 2:
        raise ValueError(f"{who} draws 2-D data; X has {X.shape[1]} features.")
    return X, V.check_y(y, X.shape[0])


def _hollow(marker, color):
    """The colours of a scatter's ``marker``: hollow for the open shapes, filled for the others."""
    return {"facecolors": "none", "edgecolors": color} if marker in "osD^v" else {"c": color}


def _arrow(ax, tip, tail, color, *, zorder=4, **props):
    """An arrow from ``tail`` to ``tip``; ``props`` restyle it (linewidth, linestyle, ...)."""
    props = {"arrowstyle": "-|>", "color": color, "linewidth": 2, **props}
    return ax.annotate("", xy=tuple(tip), xytext=tuple(tail), zorder=zorder, arrowprops=props)


def _grid(xlim, ylim, resolution):
    """A resolution x resolution grid over the box: its coordinates gx, gy and its points."""
    gx, gy = np.meshgrid(np.linspace(*xlim, resolution), np.linspace(*ylim, resolution))
    return gx, gy, np.c_[gx.ravel(), gy.ravel()]


def _shade_regions(ax, gx, gy, regions, n_classes, **kwargs):
    """Shade the grid points of class k (``regions == k``) in ``CLASS_COLORS[k]``."""
    style = {
        "levels": np.arange(n_classes + 1) - 0.5,
        "colors": [CLASS_COLORS[k % len(CLASS_COLORS)] for k in range(n_classes)],
        "zorder": 0,
    }
    return ax.contourf(gx, gy, regions, **{**style, **kwargs})


def _ax(ax):
    if ax is None:
        fig, ax = plt.subplots(figsize=(5, 5))
    ax.figure.patch.set_facecolor("white")
    ax.set_facecolor("white")
    return ax


def _data_plane(ax, xlim=None, ylim=None):
    """The (x1, x2) plane of the data:
    limits (when given), axis labels, equal aspect; returns ax."""
    if xlim is not None:
        ax.set_xlim(xlim)
    if ylim is not None:
        ax.set_ylim(ylim)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_aspect("equal", adjustable="box")
    return ax


def _signs(y):
    y = np.asarray(y)
    classes = np.unique(y)
    if classes.shape[0] > 2:
        raise ValueError(
            f"plot_data draws two classes; got {classes.shape[0]}. Use plot_classes for more."
        )
    if classes.shape[0] == 2:
        return np.where(y == classes[1], 1, -1)
    if classes[0] in (1, -1):
        return y.astype(int)
    raise ValueError("With a single class, y must be +1 or -1 so the marker is known.")


def plot_data(X, y, ax=None, *, s=60, labels=None):
    """Scatter 2-D data: o (blue) for the +1 class, x (vermillion) for the -1 class.

    ``y`` may hold any two labels (the larger is +1). ``labels`` overrides the legend's names
    as a pair (name of -1, name of +1). Returns the axes.
    """
    X, y = _check_2d(X, y, "plot_data")
    ys = _signs(y)
    ax = _ax(ax)
    for sign, style in ((1, POSITIVE), (-1, NEGATIVE)):
        pts = X[ys == sign]
        if len(pts):
            label = style["label"] if labels is None else labels[(sign + 1) // 2]
            ax.scatter(
                pts[:, 0],
                pts[:, 1],
                marker=style["marker"],
                s=s,
                linewidths=1.8,
                label=label,
                zorder=3,
                **_hollow(style["marker"], style["color"]),
            )
    return _data_plane(ax)


def _limits(ax, xlim, ylim):
    if xlim is None or ylim is None:
        ax.autoscale_view()
    return (ax.get_xlim() if xlim is None else tuple(xlim)), (
        ax.get_ylim() if ylim is None else tuple(ylim)
    )


def boundary_segment(w, b, xlim, ylim):
    """The two ends of the line w.x + b = 0 inside the box xlim x ylim,
    or None if it misses the box."""
    w = _check_w(w)
    (x0, x1), (y0, y1) = xlim, ylim
    pts = []
    if w[1] != 0:
        for x in (x0, x1):
            yy = -(w[0] * x + b) / w[1]
            if y0 <= yy <= y1:
                pts.append((x, yy))
    if w[0] != 0:
        for yy in (y0, y1):
            x = -(w[1] * yy + b) / w[0]
            if x0 <= x <= x1:
                pts.append((x, yy))
    pts = sorted(set(pts))
    if len(pts) < 2:
        return None
    return np.array([pts[0], pts[-1]])


def halfplanes(w, b, xlim, ylim):
    """The parts of the box xlim x ylim where w.x + b >= 0 and where w.x + b < 0, as polygons.

    Returns ``(positive, negative)``, each an array of shape (k, 2) of the polygon's corners in
    order, or None when that side does not meet the box. The box is clipped exactly by the line, so
    the shading follows the boundary with no grid artefacts (and costs no more than a few points).

    >>> pos, neg = halfplanes([1.0, 0.0], 0.0, (-1, 1), (-1, 1))
    >>> pos.tolist()
    [[0.0, -1.0], [1.0, -1.0], [1.0, 1.0], [0.0, 1.0]]
    """
    w = _check_w(w)
    b = float(b)
    (x0, x1), (y0, y1) = xlim, ylim
    box = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return _clip(box, w, b, 1.0), _clip(box, w, b, -1.0)


def _clip(poly, w, b, side):
    # Sutherland-Hodgman against the half-plane w.p + b >= 0 (side = 1) or w.p + b < 0 (side = -1).
    def inside(v):
        return v >= 0 if side > 0 else v > 0

    def f(p):
        return side * (w[0] * p[0] + w[1] * p[1] + b)

    out = []
    for k, p in enumerate(poly):
        q = poly[(k + 1) % len(poly)]
        fp, fq = f(p), f(q)
        if inside(fp):
            out.append(p)
        if inside(fp) != inside(fq) and fp != fq:
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    cleaned = []
    for p in out:
        if not cleaned or (
            abs(p[0] - cleaned[-1][0]) > 1e-12 or abs(p[1] - cleaned[-1][1]) > 1e-12
        ):
            cleaned.append((float(p[0]), float(p[1])))
    if (
        len(cleaned) > 1
        and abs(cleaned[0][0] - cleaned[-1][0]) <= 1e-12
        and abs(cleaned[0][1] - cleaned[-1][1]) <= 1e-12
    ):
        cleaned.pop()
    if len(cleaned) < 3:
        return None
    pts = np.array(cleaned)
    area = 0.5 * abs(
        np.dot(pts[:, 0], np.roll(pts[:, 1], -1)) - np.dot(pts[:, 1], np.roll(pts[:, 0], -1))
    )
    return pts if area > 0 else None


def _check_w(w):
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (2,):
        raise ValueError(f"w must have 2 entries to draw a 2-D boundary; got shape {w.shape}.")
    if not np.all(np.isfinite(w)):
        raise ValueError("w contains NaN or infinity.")
    return w


def plot_decision_boundary(
    w,
    b,
    ax=None,
    *,
    xlim=None,
    ylim=None,
    shade=True,
    arrow=True,
    color="black",
    linestyle="-",
    label="$w\\cdot x+b=0$",
    alpha=0.12,
):
    """Draw the boundary w.x + b = 0, shade the +1 half-plane (blue) and the -1 half-plane
    (vermillion), and draw w as an arrow normal to the boundary. Returns the axes.

    The limits default to the axes' current limits, so draw the data first.
    """
    w = _check_w(w)
    b = float(b)
    ax = _ax(ax)
    xlim, ylim = _limits(ax, xlim, ylim)
    if shade:
        for poly, style in zip(halfplanes(w, b, xlim, ylim), (POSITIVE, NEGATIVE)):
            if poly is not None:
                ax.fill(
                    poly[:, 0], poly[:, 1], color=style["color"], alpha=alpha, zorder=0, linewidth=0
                )
    seg = boundary_segment(w, b, xlim, ylim)
    if seg is not None:
        ax.plot(
            seg[:, 0],
            seg[:, 1],
            color=color,
            linestyle=linestyle,
            linewidth=2,
            label=label,
            zorder=2,
        )
        if arrow:
            mid = seg.mean(axis=0)
            span = min(xlim[1] - xlim[0], ylim[1] - ylim[0])
            d = w / np.linalg.norm(w) * 0.2 * span
            _arrow(ax, mid + d, mid, color)
            ax.text(*(mid + 1.12 * d), "$w$", color=color, ha="center", va="center", zorder=4)
    return _data_plane(ax, xlim, ylim)


def plot_margin_band(
    w,
    b,
    gamma,
    ax=None,
    *,
    X=None,
    y=None,
    xlim=None,
    ylim=None,
    tol=1e-9,
    color=None,
    label="max-margin separator",
):
    """The max-margin separator w.x + b = 0 with ||(w, b)|| = 1 and its band |w.x + b| <= gamma.

    The band's edges are the lines w.x + b = +-gamma (dotted). In the plane, a point at augmented
    margin gamma lies at Euclidean distance gamma / ||w|| from the line, so the band is
    2 gamma/||w|| wide (wider than 2 gamma, since ||w|| <= 1). With X and y, the support points
    (margin within ``tol`` of gamma) are ringed. Draw the data first. Returns the axes.
    """
    w = np.asarray(w, dtype=np.float64)
    b, gamma = float(b), float(gamma)
    if w.shape != (2,):
        raise ValueError(f"w must have 2 entries to draw a 2-D band; got shape {w.shape}.")
    if gamma <= 0:
        raise ValueError(f"gamma must be positive; got {gamma!r}.")
    ax = _ax(ax)
    color = OKABE_ITO["green"] if color is None else color
    xlim, ylim = _limits(ax, xlim, ylim)
    gx, gy, _ = _grid(xlim, ylim, 300)
    a = w[0] * gx + w[1] * gy + b
    ax.contourf(
        gx,
        gy,
        (np.abs(a) <= gamma).astype(float),
        levels=[0.5, 1.5],
        colors=[color],
        alpha=0.15,
        zorder=0,
    )
    for offset, style, lab in (
        (0.0, "-", label),
        (gamma, ":", "margin band $w\\cdot x+b=\\pm\\gamma^*$"),
        (-gamma, ":", None),
    ):
        line = {"xlim": xlim, "ylim": ylim, "color": color, "linestyle": style, "label": lab}
        plot_decision_boundary(w, b - offset, ax, shade=False, arrow=False, **line)
    if X is not None and y is not None:
        X = V.check_array(X)
        y = V.check_y(y, X.shape[0])
        classes = np.unique(y)
        ys = np.where(y == classes[-1], 1.0, -1.0)
        support = ys * (X @ w + b) <= gamma + tol
        ax.scatter(
            X[support, 0],
            X[support, 1],
            s=260,
            facecolors="none",
            edgecolors=color,
            linewidths=1.5,
            zorder=4,
            label="support points",
        )
    return _data_plane(ax, xlim, ylim)


def plot_update(
    x, y, w_before, b_before, w_after, b_after, ax=None, *, eta=1.0, xlim=None, ylim=None
):
    """One update step: the boundary before (dashed) and after (solid, its half-planes shaded), the
    point x, and the vectors: w before (dashed black), w after (green), and the step added to w
    (purple, from the tip of the old w to the tip of the new one). Returns the axes.

    The step's legend says ``eta*y*x`` when that is what was added (the margin rule), and otherwise
    the multiple of x that was (2*eta*y under the (y - y_hat) rule).
    """
    x = np.asarray(x, dtype=np.float64)
    if x.shape != (2,) or not np.all(np.isfinite(x)):
        raise ValueError(f"x must be one 2-D point, for example (1.0, 2.0); got shape {x.shape}.")
    if y not in (-1, 1):
        raise ValueError(f"y must be -1 or +1; got {y!r}.")
    w0, w1 = _check_w(w_before), _check_w(w_after)
    ax = _ax(ax)
    style = POSITIVE if y > 0 else NEGATIVE
    ax.scatter(
        [x[0]],
        [x[1]],
        marker=style["marker"],
        s=160,
        linewidths=2.5,
        zorder=5,
        label=f"the point x (y = {'+1' if y > 0 else '−1'})",
        **_hollow(style["marker"], style["color"]),
    )
    xlim, ylim = _limits(ax, xlim, ylim)
    view = {"xlim": xlim, "ylim": ylim, "arrow": False}
    black, green = OKABE_ITO["black"], OKABE_ITO["green"]
    plot_decision_boundary(
        w0, b_before, ax, shade=False, color=black, linestyle="--", label="boundary before", **view
    )
    plot_decision_boundary(w1, b_after, ax, color=green, label="boundary after", **view)
    step = w1 - w0
    sign = "+1" if y > 0 else "−1"
    if np.allclose(step, eta * y * x):
        step_label = f"added to w: $\\eta y x$ = {eta:g}·({sign})·x"
    elif np.any(x != 0) and np.allclose(step, (step @ x) / (x @ x) * x):
        step_label = f"added to w: {(step @ x) / (x @ x):g}·x"
    else:
        step_label = f"added to w: ({step[0]:.3g}, {step[1]:.3g})"
    arrows = (
        (w0, (0.0, 0.0), black, "--", "w before"),
        (w1, (0.0, 0.0), green, "-", "w after"),
        (w1, w0, OKABE_ITO["purple"], "-", step_label),
    )
    for tip, tail, color, ls, label in arrows:
        if np.any(np.asarray(tip) != np.asarray(tail)):
            _arrow(ax, tip, tail, color, linestyle=ls)
            ax.plot([], [], color=color, linestyle=ls, linewidth=2, label=label)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    return ax


def plot_mistakes(mistakes, ax=None, *, label="updates"):
    """Updates (mistakes) per epoch, as bars. Returns the axes."""
    m = np.asarray(mistakes)
    if m.ndim != 1 or m.size == 0:
        raise ValueError("mistakes must be a non-empty 1-D sequence, for example model.mistakes_.")
    ax = _ax(ax)
    epochs = np.arange(1, m.size + 1)
    ax.bar(epochs, m, color=OKABE_ITO["blue"], label=label)
    ax.set_xlabel("epoch")
    ax.set_ylabel("updates in the epoch")
    if m.size <= 20:
        ax.set_xticks(epochs)
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(0.4, m.size + 0.6)
    return ax


def plot_classes(X, y, ax=None, *, s=50):
    """Scatter 2-D data of several classes, each with its own colour and marker.
    Returns the axes."""
    X, y = _check_2d(X, y, "plot_classes")
    ax = _ax(ax)
    for k, c in enumerate(np.unique(y)):
        pts = X[y == c]
        marker = CLASS_MARKERS[k % len(CLASS_MARKERS)]
        kw = _hollow(marker, CLASS_COLORS[k % len(CLASS_COLORS)])
        ax.scatter(
            pts[:, 0], pts[:, 1], marker=marker, s=s, linewidths=1.5, label=str(c), zorder=3, **kw
        )
    return _data_plane(ax)


def plot_decision_regions(X, y, clf, ax=None, *, resolution=300, alpha=0.15, s=50, **kwargs):
    """Shade the region each class wins under a fitted 2-D classifier and scatter the data over it.

    The argument order is mlxtend's ``plot_decision_regions(X, y, clf, ax=None, **kwargs)``. ``clf``
    is any fitted classifier with ``predict`` (perclib's or scikit-learn's). ``s`` is the markers'
    size; ``kwargs`` style the shaded regions (they go to ``ax.contourf``, and may override its
    ``colors``, ``alpha`` or ``zorder``). Returns the axes.
    """
    X = V.check_array(X)
    ax = plot_classes(X, y, ax, s=s)
    ax.autoscale_view()
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    gx, gy, grid = _grid(xlim, ylim, resolution)
    if hasattr(clf, "feature_names_in_"):  # fitted on a DataFrame: predict on the same columns
        import pandas as pd

        grid = pd.DataFrame(grid, columns=clf.feature_names_in_)
    pred = np.asarray(clf.predict(grid))
    classes = np.unique(np.asarray(y))  # the colours of plot_classes: class k gets CLASS_COLORS[k]
    idx = np.clip(np.searchsorted(classes, pred), 0, classes.shape[0] - 1)
    if not np.array_equal(classes[idx], pred):
        raise ValueError(
            f"clf predicts labels {V._show(np.setdiff1d(pred, classes))} that are not in y."
        )
    _shade_regions(
        ax, gx, gy, idx.reshape(gx.shape), classes.shape[0], **{"alpha": alpha, **kwargs}
    )
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    return ax


def _padded_limits(X, pad=0.1):
    """The data's box (xlim, ylim), widened on each side by ``pad`` times its span."""
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    return (lo[0] - pad * span[0], hi[0] + pad * span[0]), (
        lo[1] - pad * span[1],
        hi[1] + pad * span[1],
    )


def plot_boundaries(models, X, y, ax=None, *, xlim=None, ylim=None, resolution=300):
    """The decision boundaries of several fitted binary models over 2-D data.

    A model with a 1-D ``coef_`` (last iterate, averaged, pocket) has the line w.x + b = 0; any
    other model (the voted perceptron) is drawn as the edge of the region it predicts as +1, found
    on a ``resolution`` x ``resolution`` grid. Names in :data:`METHOD_STYLES` get their style.

    Parameters
    ----------
    models : dict
        name -> fitted binary model, all trained on labels of ``y``.

    Returns the axes.
    """
    if not isinstance(models, dict) or not models:
        raise ValueError("models must be a non-empty dict of name -> fitted model.")
    X, y = _check_2d(X, y, "plot_boundaries")
    ax = plot_data(X, y, ax)
    dx, dy = _padded_limits(X)
    xlim = dx if xlim is None else tuple(xlim)
    ylim = dy if ylim is None else tuple(ylim)
    gx, gy, grid = _grid(xlim, ylim, resolution)
    for k, (name, model) in enumerate(models.items()):
        if "classes_" not in getattr(model, "__dict__", {}):
            raise ValueError(f"models[{name!r}] is not fitted: call fit(X, y) first.")
        style = _method_style(name, k)
        coef = model.__dict__.get("coef_")
        xs, ys = [], []  # the line, or nothing but the legend's entry
        if coef is not None and np.ndim(coef) == 1:
            seg = boundary_segment(coef, model.intercept_, xlim, ylim)
            if seg is not None:
                xs, ys = seg[:, 0], seg[:, 1]
        else:
            # in chunks: a voted perceptron holds one vector per update, and a grid times all of
            # them at once would need a large temporary array
            pred = np.concatenate(
                [model.predict(grid[i : i + 1024]) for i in range(0, len(grid), 1024)]
            )
            positive = (pred == model.classes_[1]).reshape(gx.shape).astype(float)
            if 0 < positive.sum() < positive.size:
                ax.contour(
                    gx,
                    gy,
                    positive,
                    levels=[0.5],
                    colors=[style["color"]],
                    linestyles=[style["linestyle"]],
                    linewidths=2.2,
                    zorder=2,
                )
        ax.plot(
            xs,
            ys,
            color=style["color"],
            linestyle=style["linestyle"],
            linewidth=2.2,
            label=style["label"],
            zorder=2,
        )
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_aspect("equal", adjustable="box")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    return ax
