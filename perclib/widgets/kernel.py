"""Step through a kernel perceptron's updates: pick the kernel and its parameter, and watch the
boundary sum_i alpha_i y_i K(x_i, x) + b = 0 and the support vectors (the examples with
alpha_i > 0) change, one update at a time.

Step k shows the iterate after the first k updates (step 0: no update, h(x) = sign(0) = +1
everywhere): the region it predicts +1 shaded blue and -1 vermillion (as the other widgets),
the boundary as a black curve, each support vector so far ringed, and the example of the k-th
update ringed in orange. The controls a kernel does not use are disabled (gamma for "linear",
degree for all but "poly").

The logic lives in plain methods, so tests drive it without a browser::

    >>> from perclib.datasets import make_xor
    >>> s = KernelStepper(*make_xor(), kernel="poly", degree=2)
    >>> s.slider.value = s.slider.max
    >>> s.state["support"], s.state["training_mistakes"]
    ([0, 1, 2, 3], 0)
"""

from __future__ import annotations

import ipywidgets as W
import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from .. import _validation as V
from ..kernel_perceptron import KernelPerceptron
from ..plotting.core import OKABE_ITO, _check_2d, plot_data
from ._common import (
    _Blit,
    _StepWidget,
    figure_image,
    fit_noting_convergence,
    html_table,
    new_figure,
    ring,
    square_view,
)
from .slider import FloatLogSlider, IntSlider

KERNELS = ("linear", "poly", "rbf")
COLUMNS = ("update", "example", "y", "support vectors", "training mistakes")
_GAMMA_EXPONENTS = (-2.0, 2.0)  # gamma from 0.01 to 100
_GRID = 60  # the boundary is drawn from the activation on a _GRID x _GRID grid


class KernelStepper(_StepWidget):
    """Walk through a kernel perceptron's fit, one update at a time.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Two labels; the larger is the +1 class.
    kernel : {"linear", "poly", "rbf"}, default="rbf"
    gamma : float, default=1.0
        The scale of "poly" and "rbf", in [0.01, 100].
    degree : int, default=2
        The degree of "poly", 1 to 6 (coef0 is 1: K(x, z) = (gamma x.z + 1)**degree).
    max_iter : int, default=10
        The most epochs of each fit (cyclic order, margin rule, eta = 1).

    Attributes
    ----------
    kernel : ipywidgets.Dropdown
    gamma : perclib.widgets.slider.FloatLogSlider
    degree : perclib.widgets.slider.IntSlider
        The fit's parameters; changing one refits and keeps the step where it can. A control
        the chosen kernel does not use is disabled.
    slider : perclib.widgets.slider.IntSlider
        The step: the number of updates made, 0 to ``model.n_updates_``.
    play, play_button, prev_button, next_button : as in :class:`perclib.widgets.Stepper`
    table : ipywidgets.HTML
        The current step as a one-row table.
    image : ipywidgets.Image
        The figure as a PNG.
    fig, ax : matplotlib Figure and Axes
    model : KernelPerceptron
        The fitted model.
    state : dict
        ``step``, ``n_steps``, ``alpha_y`` (alpha_i y_i for every example after ``step``
        updates), ``b``, ``support`` (indices with alpha_i > 0), ``index`` (the example of the
        step's update, None at step 0), ``grid_activation`` (the activation on the drawn grid)
        and ``training_mistakes`` (of that iterate, sign(0) = +1).
    box : ipywidgets.VBox
        The whole widget (CSS class ``perclib-kernel-stepper``).
    """

    def __init__(self, X, y, *, kernel="rbf", gamma=1.0, degree=2, max_iter=10):
        X, y = _check_2d(X, y, "The kernel stepper")
        classes = V.binary_classes(y, "KernelStepper")
        self.X, self.y = X.copy(), y.copy()
        self.signs = np.where(self.y == classes[1], 1.0, -1.0)
        V.check_choice(kernel, "kernel", KERNELS)
        gamma = V.check_positive(gamma, "gamma")
        if not 10 ** _GAMMA_EXPONENTS[0] <= gamma <= 10 ** _GAMMA_EXPONENTS[1]:
            raise ValueError(
                f"gamma must lie in [0.01, 100] for the kernel stepper; got {gamma!r}."
            )
        if (
            isinstance(degree, bool)
            or not isinstance(degree, (int, np.integer))
            or not 1 <= degree <= 6
        ):
            raise ValueError(f"degree must be a whole number from 1 to 6; got {degree!r}.")
        self.max_iter = V.check_max_iter(max_iter)
        self._busy = False
        self.message = ""
        self._build_controls(kernel, gamma, int(degree))
        self._build_figure()
        self.refit()
        for control in (self.kernel, self.gamma, self.degree):
            control.observe(self._on_param, names="value")
        self.slider.observe(self._on_step, names="value")

    # -- building -------------------------------------------------------------------------------
    def _build_controls(self, kernel, gamma, degree):
        self.kernel = W.Dropdown(
            options=list(KERNELS),
            value=kernel,
            description="kernel",
            layout=W.Layout(width="190px"),
        )
        lo, hi = _GAMMA_EXPONENTS
        self.gamma = FloatLogSlider(
            value=gamma, min=lo, max=hi, step=0.25, description="γ (poly, rbf)"
        )
        self.degree = IntSlider(value=degree, min=1, max=6, description="degree (poly)")
        nav = W.HBox(self._build_navigation())
        self.slider.description = "update"
        self.table = W.HTML()
        self.status = W.HTML()
        self.image = figure_image(
            "The data, o for +1 and x for -1, the region the kernel perceptron predicts +1 shaded "
            "blue and the region it predicts -1 shaded vermillion, its boundary as a black curve, "
            "the support vectors so far ringed in green and the example of this update ringed in "
            "orange; the table gives the numbers."
        )
        self.box = W.VBox(
            [
                W.HBox([self.kernel, self.gamma, self.degree]),
                nav,
                self.table,
                self.status,
                self.image,
            ]
        )
        self.box.add_class("perclib-kernel-stepper")

    def _build_figure(self):
        self.fig = new_figure((6.6, 4.8))
        self.ax = ax = self.fig.add_subplot()
        self.fig.subplots_adjust(left=0.1, bottom=0.11, right=0.68, top=0.95)
        plot_data(self.X, self.y, ax)
        self.xlim, self.ylim = square_view(ax, self.X, scale=1.1, min_half=0.5)
        self.points = list(ax.collections)
        gx, gy = np.meshgrid(np.linspace(*self.xlim, _GRID), np.linspace(*self.ylim, _GRID))
        self.grid = np.c_[gx.ravel(), gy.ravel()]
        self.shade = ax.imshow(
            np.zeros((_GRID, _GRID)),
            extent=(*self.xlim, *self.ylim),
            origin="lower",
            cmap=ListedColormap([OKABE_ITO["vermillion"], OKABE_ITO["blue"]]),
            vmin=0,
            vmax=2,
            alpha=0.12,
            zorder=0,
            aspect="auto",
        )
        ax.set_xlim(self.xlim)
        ax.set_ylim(self.ylim)
        (self.curve,) = ax.plot([], [], color=OKABE_ITO["black"], linewidth=2, label="boundary")
        self.support_rings = ring(
            ax, color=OKABE_ITO["green"], size=13, width=1.8, zorder=4, label="support vectors"
        )
        self.update_ring = ring(
            ax, color=OKABE_ITO["orange"], size=20, width=2.5, zorder=5, label="this update's x"
        )
        positive = Patch(facecolor=OKABE_ITO["blue"], alpha=0.12)
        negative = Patch(facecolor=OKABE_ITO["vermillion"], alpha=0.12)
        handles, labels = ax.get_legend_handles_labels()
        ax.legend(
            [*handles, positive, negative],
            [*labels, "predicted +1", "predicted −1"],
            loc="upper left",
            bbox_to_anchor=(1.03, 1.0),
            fontsize=9,
            frameon=False,
        )
        self._contour = None
        self._blit = _Blit(
            self.fig, [self.shade, *self.points, self.support_rings, self.update_ring]
        )

    # -- data -----------------------------------------------------------------------------------
    def refit(self):
        """Fit the kernel perceptron from the controls' values and go to the step it can keep."""
        self.gamma.disabled = self.kernel.value == "linear"
        self.degree.disabled = self.kernel.value != "poly"
        self.model = KernelPerceptron(
            kernel=self.kernel.value,
            gamma=float(self.gamma.value),
            degree=int(self.degree.value),
            coef0=1.0,
            max_iter=self.max_iter,
        )
        self.message = fit_noting_convergence(self.model, self.X, self.y)
        # the kernel of the grid and of the training set with every example, computed once per fit
        self._K_grid = self.model._kernel(self.grid, self.X)
        self._K_train = self.model._kernel(self.X, self.X)
        last = self.model.n_updates_
        self._busy = True
        try:
            value = min(self.slider.value, last)
            self.slider.value = value
            self.slider.max = self.play.max = last
            self.play.value = value
        finally:
            self._busy = False
        self.update()

    def _on_param(self, change):
        if not self._busy:
            self.refit()

    # -- drawing --------------------------------------------------------------------------------
    def update(self):
        """Recompute ``state`` for the slider's step, redraw the figure and the table."""
        k = int(self.slider.value)
        rows = self.model.update_indices_[:k]
        alpha_y = np.zeros(self.X.shape[0])
        np.add.at(alpha_y, rows, self.signs[rows])  # eta = 1, margin rule: each step is y_i
        b = float(self.signs[rows].sum())
        train_a = self._K_train @ alpha_y + b
        self.state = {
            "step": k,
            "n_steps": self.model.n_updates_ + 1,
            "alpha_y": alpha_y,
            "b": b,
            "support": np.flatnonzero(alpha_y).tolist(),
            "index": int(rows[-1]) if k else None,
            "grid_activation": self._K_grid @ alpha_y + b,
            "training_mistakes": int(np.sum(np.where(train_a >= 0, 1.0, -1.0) != self.signs)),
        }
        self._show()

    def _draw(self):
        st = self.state
        a = st["grid_activation"].reshape(_GRID, _GRID)
        self.shade.set_data(np.where(a >= 0, 2.0, 0.0))
        if self._contour is not None:
            self._blit.dynamic.remove(self._contour)
            self._contour.remove()
        self._contour = None
        if a.min() < 0 < a.max():
            self._contour = self.ax.contour(
                self.grid[:_GRID, 0],
                self.grid[::_GRID, 1],
                a,
                levels=[0.0],
                colors=OKABE_ITO["black"],
                linewidths=2,
                zorder=2,
            )
            self._contour.set_animated(True)
            self._blit.dynamic.insert(1, self._contour)
        sv = self.X[st["support"]]
        self.support_rings.set_data(sv[:, 0], sv[:, 1])
        x = self.X[st["index"]] if st["index"] is not None else np.empty((0, 2))
        self.update_ring.set_data(np.atleast_2d(x)[:, 0], np.atleast_2d(x)[:, 1])

    def table_row(self):
        """The current step as the table's cells, in the order of ``COLUMNS``."""
        st = self.state
        if st["index"] is None:
            return ["0 (start)", "—", "—", "0", str(st["training_mistakes"])]
        return [
            str(st["step"]),
            f"#{st['index']}",
            "+1" if self.signs[st["index"]] > 0 else "−1",
            str(len(st["support"])),
            str(st["training_mistakes"]),
        ]

    def _table_html(self):
        st = self.state
        caption = f"update {st['step']} of {st['n_steps'] - 1} · kernel {self.kernel.value}"
        return html_table(COLUMNS, [self.table_row()], caption=caption)
