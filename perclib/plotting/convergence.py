"""Figures for convergence and losses (notebooks 04 and 05).

Same conventions as :mod:`perclib.plotting.core`: every helper takes ``ax=None``, draws on it (or
on a new axes) and returns the axes; none calls ``plt.show()``. Okabe-Ito colours throughout.
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import _validation as V
from ..losses import loss_value, perceptron_criterion
from .core import (
    CLASS_COLORS,
    OKABE_ITO,
    _ax,
    _data_plane,
    _grid,
    _limits,
    plot_decision_boundary,
)

_LOSS_STYLE = {
    "zero_one": (OKABE_ITO["black"], "-", "0-1 loss"),
    "perceptron": (OKABE_ITO["blue"], "-", "perceptron: max(0, −ya)"),
    "hinge": (OKABE_ITO["vermillion"], "--", "hinge: max(0, 1 − ya)"),
    "logistic": (OKABE_ITO["green"], "-.", "logistic: log(1 + exp(−ya))"),
}
#: Novikoff's lemmas: the trace's key, its colour, the quantity, its bound, the title.
_LEMMAS = {
    1: (
        "alignment",
        OKABE_ITO["blue"],
        "$\\tilde{\\mathbf{w}}^{*\\top}\\tilde{\\mathbf{w}}_k$",
        "$k\\,\\eta\\,\\gamma^*$ (lower bound)",
        "Lemma 1: the alignment grows at least linearly",
    ),
    2: (
        "sq_norm",
        OKABE_ITO["vermillion"],
        "$\\|\\tilde{\\mathbf{w}}_k\\|^2$",
        "$k\\,\\eta^2 R^2$ (upper bound)",
        "Lemma 2: the squared norm grows at most linearly",
    ),
}
#: Colours of the groups or series of a figure (yellow and black are kept for other marks).
_SERIES_COLORS = CLASS_COLORS[:6]


def _vector(values, name):
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or v.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence of numbers.")
    return v


def plot_novikoff_lemma(trace, lemma=1, ax=None):
    """Both sides of one of Novikoff's inequalities over the updates k = 1..M.

    ``trace`` is the dict of :func:`perclib.experiments.novikoff_trace`. Lemma 1 draws w~*.w~_k
    above k eta gamma*; lemma 2 draws ||w~_k||^2 below k eta^2 R^2. Returns the axes.
    """
    if lemma not in (1, 2):
        raise ValueError(f"lemma must be 1 (alignment) or 2 (norm); got {lemma!r}.")
    key, color, quantity, bound, title = _LEMMAS[lemma]
    ax = _ax(ax)
    ax.plot(trace["k"], trace[key], "o-", color=color, ms=3, label=f"{quantity} (measured)")
    ax.plot(trace["k"], trace[f"{key}_bound"], "--", color=OKABE_ITO["black"], label=bound)
    ax.set_ylabel(quantity)
    ax.set_title(title)
    ax.set_xlabel("update $k$")
    ax.legend(loc="upper left")
    return ax


def plot_bound_scatter(updates, bounds, ax=None, *, s=12):
    """Log-log scatter of Novikoff's bound (y) against the updates made (x), with the line y = x.

    Every point above the line is a run the bound covered. Returns the axes.
    """
    u = _vector(updates, "updates")
    bnd = _vector(bounds, "bounds")
    if u.shape != bnd.shape:
        raise ValueError(
            f"updates and bounds must have the same length; got {u.size} and {bnd.size}."
        )
    if np.any(u <= 0) or np.any(bnd <= 0):
        raise ValueError("updates and bounds must be positive to be drawn on log axes.")
    ax = _ax(ax)
    ax.scatter(u, bnd, s=s, color=_SERIES_COLORS[0], alpha=0.6, label=f"{u.size} data sets")
    lo, hi = min(u.min(), bnd.min()) / 1.5, max(u.max(), bnd.max()) * 1.5
    ax.plot([lo, hi], [lo, hi], color=OKABE_ITO["black"], linewidth=1.5, label="$y = x$")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    ax.set_xlabel("updates made $M$")
    ax.set_ylabel("bound $(R/\\gamma^*)^2$")
    ax.legend(loc="upper left")
    return ax


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


def plot_histogram(values, ax=None, *, bins="auto", label=None, color=None):
    """A histogram with its mean (solid line) and median (dashed line) marked. Returns the axes."""
    v = _vector(values, "values")
    ax = _ax(ax)
    color = OKABE_ITO["sky"] if color is None else color
    ax.hist(v, bins=bins, color=color, edgecolor="white", label=label)
    mean, median = float(np.mean(v)), float(np.median(v))
    ax.axvline(mean, color=OKABE_ITO["vermillion"], linewidth=2, label=f"mean = {mean:.4g}")
    ax.axvline(
        median,
        color=OKABE_ITO["black"],
        linewidth=2,
        linestyle="--",
        label=f"median = {median:.4g}",
    )
    ax.set_ylabel("count")
    ax.legend()
    return ax


def plot_losses(ax=None):
    """The 0-1, perceptron, hinge and logistic losses as functions of the signed activation
    m = y (w.x + b), for m in [-3, 3]. Returns the axes.

    The logistic loss is in nats, as :func:`perclib.theory.logistic_loss`; divided by log 2 (bits)
    it passes through 1 at m = 0 and lies above the 0-1 loss everywhere.
    """
    lo, hi = -3.0, 3.0
    ax = _ax(ax)
    m = np.linspace(lo, hi, 601)
    ones = np.ones_like(m)
    for name in ("zero_one", "perceptron", "hinge", "logistic"):
        color, style, lab = _LOSS_STYLE[name]
        # the 0-1 loss in two pieces, so that its jump is drawn as a jump
        pieces = (m <= 0, m > 0) if name == "zero_one" else (slice(None),)
        for piece, label in zip(pieces, (lab, None)):
            y = loss_value(name, ones[piece], m[piece])
            ax.plot(m[piece], y, color=color, linestyle=style, linewidth=2, label=label)
    ax.axvline(0, color="0.6", linewidth=0.8)
    ax.set_xlabel("signed activation $m = y\\,(w\\cdot x + b)$")
    ax.set_ylabel("loss")
    ax.set_xlim(lo, hi)
    ax.set_ylim(bottom=-0.1)
    ax.legend()
    return ax


def plot_train_test_error(max_iter, train_error, test_error, ax=None):
    """Mean train and test error (with their 10-90 % band over data sets) against max_iter.

    ``train_error`` and ``test_error`` have shape (n_datasets, len(max_iter)) or (len(max_iter),),
    as from :func:`perclib.experiments.max_iter_curve`. Returns the axes.
    """
    k = _vector(max_iter, "max_iter")
    ax = _ax(ax)
    for errs, name, color in (
        (train_error, "train", OKABE_ITO["blue"]),
        (test_error, "test", OKABE_ITO["vermillion"]),
    ):
        E = np.atleast_2d(np.asarray(errs, dtype=np.float64))
        if E.shape[1] != k.size:
            raise ValueError(
                f"{name}_error must have {k.size} columns, one per max_iter; got shape {E.shape}."
            )
        ax.plot(k, E.mean(axis=0), "o-", color=color, ms=3, label=f"{name} error (mean)")
        if E.shape[0] > 1:
            ax.fill_between(
                k,
                np.quantile(E, 0.1, axis=0),
                np.quantile(E, 0.9, axis=0),
                color=color,
                alpha=0.15,
                label=f"{name}: 10–90 % of data sets",
            )
    ax.set_xlabel("max_iter (epochs)")
    ax.set_ylabel("0-1 error")
    ax.set_ylim(bottom=0)
    ax.legend()
    return ax


def plot_paired(first, second, ax=None, *, labels=("pocket", "last iterate"), ylabel="error"):
    """Paired values per seed (two columns joined by a line per seed), with the means.

    Returns the axes.
    """
    a = _vector(first, "first")
    c = _vector(second, "second")
    if a.shape != c.shape:
        raise ValueError("first and second must have the same length (one pair per seed).")
    ax = _ax(ax)
    for ai, ci in zip(a, c):
        ax.plot([0, 1], [ai, ci], color="0.7", linewidth=1, zorder=1)
    ax.scatter(
        np.zeros_like(a),
        a,
        color=OKABE_ITO["blue"],
        zorder=2,
        label=f"{labels[0]} (mean {a.mean():.3f})",
    )
    ax.scatter(
        np.ones_like(c),
        c,
        color=OKABE_ITO["vermillion"],
        marker="x",
        zorder=2,
        label=f"{labels[1]} (mean {c.mean():.3f})",
    )
    ax.set_xticks([0, 1], labels)
    ax.set_xlim(-0.5, 1.5)
    ax.set_ylabel(ylabel)
    ax.legend()
    return ax


def plot_updates_vs(values, updates, bound, ax=None, *, xlabel="n", series=None):
    """Mean updates (with min-max bars) against a varied quantity on a log axis, with the bound as
    a dashed line.

    ``updates`` has shape (len(values), n_repeats), or (len(values), n_series, n_repeats) with
    ``series`` naming the middle axis (e.g. the dimensions d). Returns the axes.
    """
    x = _vector(values, "values")
    U = np.asarray(updates, dtype=np.float64)
    if U.ndim == 2:
        U = U[:, None, :]
    if U.ndim != 3 or U.shape[0] != x.size:
        raise ValueError(
            f"updates must have shape ({x.size}, n_repeats) or ({x.size}, n_series, n_repeats)."
        )
    series = [None] * U.shape[1] if series is None else list(series)
    if len(series) != U.shape[1]:
        raise ValueError(f"series must name the {U.shape[1]} series.")
    ax = _ax(ax)
    colors = _SERIES_COLORS
    for j, name in enumerate(series):
        mean = U[:, j].mean(axis=1)
        err = np.vstack([mean - U[:, j].min(axis=1), U[:, j].max(axis=1) - mean])
        ax.errorbar(
            x,
            mean,
            yerr=err,
            marker="o",
            capsize=3,
            color=colors[j % len(colors)],
            label="mean updates" if name is None else str(name),
        )
    ax.axhline(
        float(bound),
        color=OKABE_ITO["black"],
        linestyle="--",
        label=f"bound $(R/\\gamma^*)^2$ = {float(bound):g}",
    )
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("updates")
    ax.set_ylim(bottom=0)
    ax.legend()
    return ax


def plot_criterion_slice(X, y, start, end, ax=None, *, n_points=201):
    """The perceptron criterion L along the segment from ``start`` to ``end`` (each a pair (w, b)),
    with the chord between its ends: a convex function never rises above its chords.

    Returns the axes.
    """
    (w0, b0), (w1, b1) = start, end
    w0, w1 = np.asarray(w0, dtype=np.float64), np.asarray(w1, dtype=np.float64)
    s = np.linspace(0.0, 1.0, _check_points(n_points))
    L = np.array(
        [
            perceptron_criterion(X, y, (1 - t) * w0 + t * w1, (1 - t) * float(b0) + t * float(b1))
            for t in s
        ]
    )
    ax = _ax(ax)
    ax.plot(s, L, color=OKABE_ITO["blue"], linewidth=2, label="$L((1-s)\\,v_0 + s\\,v_1)$")
    ax.plot([0, 1], [L[0], L[-1]], color=OKABE_ITO["vermillion"], linestyle="--", label="chord")
    ax.set_xlabel("$s$ (from $v_0$ to $v_1$)")
    ax.set_ylabel("perceptron criterion $L$")
    ax.legend()
    return ax


def _check_points(n):
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 2:
        raise ValueError(f"n_points must be an integer >= 2; got {n!r}.")
    return int(n)


__all__ = [
    "plot_novikoff_lemma",
    "plot_bound_scatter",
    "plot_margin_band",
    "plot_histogram",
    "plot_losses",
    "plot_train_test_error",
    "plot_paired",
    "plot_updates_vs",
    "plot_criterion_slice",
]
