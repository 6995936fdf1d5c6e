"""Figures for comparing and inspecting trained perceptrons (notebooks 06 and 07).

- :func:`plot_error_curves`: test error over epochs, mean line and a ± one standard deviation band;
- :func:`plot_boundaries`: the boundaries of several fitted binary models over 2-D data (a voted
  perceptron's boundary is not a line: it is drawn as the edge of its +1 region);
- :func:`plot_weight_image`: a weight vector as an 8 x 8 image;
- :func:`plot_confusion_matrix`: the confusion matrix, with its counts written in the cells.

Every helper takes ``ax=None``, draws on it or on a new one, and returns it; none calls
``plt.show()``. The conventions of :mod:`perclib.plotting.core` hold.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import MaxNLocator

from .core import OKABE_ITO, _ax, _check_2d, _grid, boundary_segment, plot_data

#: One style per answer compared in notebook 06 (colour, line style, legend label).
METHOD_STYLES = {
    "last": {"color": OKABE_ITO["black"], "linestyle": "--", "label": "last iterate"},
    "voted": {"color": OKABE_ITO["purple"], "linestyle": "-.", "label": "voted"},
    "averaged": {"color": OKABE_ITO["green"], "linestyle": "-", "label": "averaged"},
    "pocket": {"color": OKABE_ITO["orange"], "linestyle": ":", "label": "pocket"},
}
_EXTRA_COLORS = [OKABE_ITO[k] for k in ("sky", "yellow", "blue", "vermillion")]


def _style(name, k):
    if name in METHOD_STYLES:
        return METHOD_STYLES[name]
    return {"color": _EXTRA_COLORS[k % len(_EXTRA_COLORS)], "linestyle": "-", "label": str(name)}


def plot_error_curves(curves, ax=None, *, ylabel="test error"):
    """Mean test error over epochs for each method, with a band of ± one standard deviation
    (over seeds, ddof=0).

    Parameters
    ----------
    curves : :class:`perclib.experiments.ErrorCurves`, or a dict of arrays of shape
        (n_seeds, n_epochs) (a 1-D array counts as one seed).

    Returns the axes.
    """
    errors = getattr(curves, "errors", curves)
    if not isinstance(errors, dict) or not errors:
        raise ValueError(
            "curves must be an ErrorCurves (from perclib.experiments.error_curves) or a non-empty "
            "dict of arrays of shape (n_seeds, n_epochs)."
        )
    ax = _ax(ax)
    for k, m in enumerate(errors):
        e = np.atleast_2d(np.asarray(errors[m], dtype=np.float64))
        if e.ndim != 2:
            raise ValueError(f"curves[{m!r}] must have shape (n_seeds, n_epochs); got {e.shape}.")
        epochs = np.arange(1, e.shape[1] + 1)
        mean, std = e.mean(axis=0), e.std(axis=0)
        style = _style(m, k)
        ax.plot(
            epochs,
            mean,
            color=style["color"],
            linestyle=style["linestyle"],
            linewidth=2,
            label=style["label"],
            marker="o",
            markersize=3,
        )
        ax.fill_between(
            epochs, mean - std, mean + std, color=style["color"], alpha=0.15, linewidth=0
        )
    ax.set_xlabel("epoch")
    ax.set_ylabel(ylabel)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(bottom=0)
    ax.legend(frameon=False)
    return ax


def _limits_of(X, pad=0.1):
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
    dx, dy = _limits_of(X)
    xlim = dx if xlim is None else tuple(xlim)
    ylim = dy if ylim is None else tuple(ylim)
    gx, gy, grid = _grid(xlim, ylim, resolution)
    for k, (name, model) in enumerate(models.items()):
        if "classes_" not in getattr(model, "__dict__", {}):
            raise ValueError(f"models[{name!r}] is not fitted: call fit(X, y) first.")
        style = _style(name, k)
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


def _weights_2d(W, shape):
    W = np.asarray(W, dtype=np.float64)
    if W.ndim == 1:
        W = W[None, :]
    if W.ndim != 2 or W.shape[1] != shape[0] * shape[1]:
        raise ValueError(
            f"each weight vector must have {shape[0]}x{shape[1]} = {shape[0] * shape[1]} entries; "
            f"got an array of shape {np.shape(W)}."
        )
    if not np.all(np.isfinite(W)):
        raise ValueError("the weights contain NaN or infinity.")
    return W


def plot_weight_image(w, ax=None, *, shape=(8, 8), title=None, vmax=None, cmap="RdBu_r"):
    """One weight vector as an image (red: positive weight, votes for the class; blue: against).

    The colour scale is symmetric about 0 (0 is white), up to ``vmax`` (default: max |w|).
    Returns the axes.
    """
    w = _weights_2d(w, shape)
    if w.shape[0] != 1:
        raise ValueError(f"plot_weight_image draws one vector; got {w.shape[0]}.")
    ax = _ax(ax)
    vmax = float(np.max(np.abs(w))) if vmax is None else float(vmax)
    vmax = vmax if vmax > 0 else 1.0
    ax.imshow(w[0].reshape(shape), cmap=cmap, vmin=-vmax, vmax=vmax, interpolation="nearest")
    ax.set_xticks([])
    ax.set_yticks([])
    if title is not None:
        ax.set_title(title)
    return ax


def plot_confusion_matrix(C, ax=None, *, labels=None, cmap="Blues"):
    """The confusion matrix C (rows: true class, columns: predicted class), counts in the cells.
    Returns the axes."""
    C = np.asarray(C)
    if C.ndim != 2 or C.shape[0] != C.shape[1] or C.shape[0] == 0:
        raise ValueError(f"C must be a square matrix (n_classes x n_classes); got shape {C.shape}.")
    if not np.issubdtype(C.dtype, np.number) or np.any(C < 0) or not np.all(np.isfinite(C)):
        raise ValueError("C must hold counts: finite numbers >= 0.")
    labels = list(range(C.shape[0])) if labels is None else list(labels)
    if len(labels) != C.shape[0]:
        raise ValueError(f"labels must name each of the {C.shape[0]} classes; got {len(labels)}.")
    M = C.astype(np.float64)
    ax = _ax(ax)
    ax.imshow(M, cmap=cmap, vmin=0, interpolation="nearest")
    high = M.max() / 2 if M.max() > 0 else 1
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            ax.text(
                j,
                i,
                f"{int(C[i, j])}",
                ha="center",
                va="center",
                fontsize=8,
                color="white" if M[i, j] > high else "black",
            )
    ax.set_xticks(range(len(labels)), [str(v) for v in labels])
    ax.set_yticks(range(len(labels)), [str(v) for v in labels])
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    return ax
