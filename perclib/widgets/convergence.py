"""MarginExplorer: a margin slider that regenerates separable data and shows updates against
Novikoff's bound.

The logic lives in :meth:`MarginExplorer.update`, which tests call headlessly: set
``widget.margin.value = 0.05`` and read ``widget.state`` and the figure's artists.
"""

from __future__ import annotations

import warnings

import ipywidgets as W
import numpy as np

from .. import _validation as V
from ..datasets import make_fixed_ratio, make_separable
from ..perceptron import Perceptron
from ..plotting.core import OKABE_ITO, plot_data, plot_decision_boundary, plot_margin_band
from ..theory import max_margin, radius
from ._common import _Widget, figure_image, two_panels
from .slider import FloatSlider, IntSlider


class MarginExplorer(_Widget):
    """Slide the margin of the data; watch the perceptron's updates stay under (R / gamma*)^2.

    Each change draws a fresh separable data set, trains :class:`perclib.Perceptron` from w = 0, and
    computes gamma* (:func:`perclib.theory.max_margin`, in the augmented space) and R. With
    ``exact=True`` the data come from :func:`perclib.datasets.make_fixed_ratio`, so gamma* *is*
    the slider's value and R = sqrt(2) (points in the unit disc): every setting lies on one bound
    curve.
    With ``exact=False`` they come from :func:`perclib.datasets.make_separable`, where ``margin`` is
    the generating margin of a planted line in the plane and gamma* (augmented) differs from it.

    Parameters
    ----------
    n_samples : int, default=40
    margin : float, default=0.1
        The slider's starting value, in [0.01, 0.4].
    order : {"cyclic", "shuffle", "random-mistake"}, default="cyclic"
    seed : int, default=0
        Seeds the data and the order.
    exact : bool, default=True
        Whether the slider sets gamma* exactly (see above).

    Attributes
    ----------
    margin : perclib.widgets.slider.FloatSlider
    seed : perclib.widgets.slider.IntSlider
    order : ipywidgets.Dropdown
    image : ipywidgets.Image (the figure as a PNG)
    summary : ipywidgets.HTML
    fig, ax_data, ax_bound : the matplotlib Figure and its two axes
    state : dict with ``margin``, ``seed``, ``order``, ``gamma`` (gamma*), ``R``, ``bound``,
        ``updates``, ``ratio``, ``w``, ``b`` (the perceptron's), ``w_star``, ``b_star`` and ``seen``
        (the (gamma*, updates) pairs visited so far)
    box : ipywidgets.VBox (CSS class ``perclib-margin-explorer``)
    """

    def __init__(self, n_samples=40, *, margin=0.1, order="cyclic", seed=0, exact=True):
        self.exact = V.check_bool(exact, "exact")
        self.n_samples = int(V.check_max_iter(n_samples, "n_samples"))
        if self.n_samples < 3:
            raise ValueError(f"n_samples must be at least 3; got {n_samples!r}.")
        V.check_choice(order, "order", V.ORDERS)
        if not 0.01 <= float(margin) <= 0.4:
            raise ValueError(f"margin must lie in [0.01, 0.4]; got {margin!r}.")
        self.margin = FloatSlider(
            value=float(margin),
            min=0.01,
            max=0.4,
            step=0.01,
            description="γ*" if self.exact else "margin",
            continuous_update=False,
            readout_format=".2f",
        )
        self.seed = IntSlider(
            value=int(seed), min=0, max=50, description="seed", continuous_update=False
        )
        self.order = W.Dropdown(options=list(V.ORDERS), value=order, description="order")
        self.image = figure_image(
            "Left: the data, o for +1 and x for -1, the max-margin band and the perceptron's "
            "line. Right, log-log: the bound (R/gamma*)^2 against gamma*, and the updates made "
            "(dot) below it."
        )
        self.summary = W.HTML()
        self.fig, (self.ax_data, self.ax_bound) = two_panels()
        self.state = {"seen": []}
        for control in (self.margin, self.seed, self.order):
            control.observe(self._on_change, names="value")
        self.box = W.VBox([W.HBox([self.margin, self.seed, self.order]), self.summary, self.image])
        self.box.add_class("perclib-margin-explorer")
        self.update()

    def data(self):
        """The data set for the current controls."""
        if self.exact:
            return make_fixed_ratio(
                self.n_samples, 2, np.sqrt(2.0) / self.margin.value, random_state=self.seed.value
            )
        return make_separable(
            self.n_samples, 2, margin=self.margin.value, random_state=self.seed.value
        )

    def update(self):
        """Regenerate the data, retrain, recompute the bound, redraw; return the new ``state``."""
        X, y = self.data()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", V.ConvergenceWarning)
            clf = Perceptron(
                order=self.order.value, random_state=self.seed.value, max_iter=100000
            ).fit(X, y)
        w_star, b_star, gamma = max_margin(X, y)
        R = radius(X)
        bound = (R / gamma) ** 2
        seen = self.state["seen"] + [(gamma, int(clf.n_updates_))]
        self.state = {
            "margin": float(self.margin.value),
            "seed": int(self.seed.value),
            "order": self.order.value,
            "gamma": gamma,
            "R": R,
            "bound": bound,
            "updates": int(clf.n_updates_),
            "ratio": clf.n_updates_ / bound,
            "w": clf.coef_.copy(),
            "b": clf.intercept_,
            "w_star": w_star,
            "b_star": b_star,
            "seen": seen,
        }
        self._draw(X, y)
        self.summary.value = (
            f"γ* = {gamma:.4f}, R = {R:.3f}: bound (R/γ*)² = {bound:.1f}; "
            f"the perceptron made <b>{clf.n_updates_}</b> updates "
            f"({100 * self.state['ratio']:.1f} % of the bound)."
        )
        self.image.value = self.render()
        return self.state

    def _draw(self, X, y):
        st = self.state
        ax = self.ax_data
        ax.clear()
        plot_data(X, y, ax)
        lim = (-1.1, 1.1)
        plot_margin_band(st["w_star"], st["b_star"], st["gamma"], ax, X=X, y=y, xlim=lim, ylim=lim)
        plot_decision_boundary(
            st["w"],
            st["b"],
            ax,
            xlim=lim,
            ylim=lim,
            shade=False,
            arrow=False,
            color=OKABE_ITO["purple"],
            linestyle="--",
            label="perceptron",
        )
        ax.set_title(
            f"{'γ*' if self.exact else 'generating margin'} = {st['margin']:.2f} "
            f"(seed {st['seed']})"
        )
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, fontsize=7)
        ax = self.ax_bound
        ax.clear()
        g = np.geomspace(0.005, 1.0, 200)
        ax.plot(
            g,
            (st["R"] / g) ** 2,
            color=OKABE_ITO["black"],
            label=f"bound $(R/\\gamma)^2$, R = {st['R']:.2f}",
        )
        seen = np.array(st["seen"][:-1], dtype=float).reshape(-1, 2)
        ax.plot(seen[:, 0], seen[:, 1], "x", color="0.6", label="earlier settings")
        ax.plot([st["gamma"]], [st["bound"]], "o", color=OKABE_ITO["black"], ms=8)
        (self.updates_point,) = ax.plot(
            [st["gamma"]],
            [st["updates"]],
            "o",
            color=OKABE_ITO["vermillion"],
            ms=9,
            label="updates made",
        )
        ax.vlines(
            st["gamma"],
            max(st["updates"], 1),
            st["bound"],
            color=OKABE_ITO["vermillion"],
            linestyle=":",
        )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("max margin $\\gamma^*$ (augmented space)")
        ax.set_ylabel("updates")
        ax.set_title("updates never exceed the bound")
        ax.legend(loc="upper right", fontsize=7)
