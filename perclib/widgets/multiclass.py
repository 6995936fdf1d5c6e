"""Step through the updates of the multi-class perceptron on 2-D data with three (or more) classes.

Each step shows the regions each class wins (argmax of w_k.x + b_k) after the step, the weight
vectors w_k as arrows from the origin, and the visited example; a table gives the scores of every
class, the prediction, and the update (+x to the true class's w, -x to the predicted class's w).

The steps come from ``MulticlassPerceptron(record=True).history_``. With ``updates_only`` the slider
walks through the updates only (most visited examples change nothing).

The logic lives in plain methods, so tests drive it without a browser::

    >>> s = MulticlassStepper()
    >>> s.slider.value = 0
    >>> s.state["updated"], s.state["W"].shape
    (False, (3, 2))
"""

from __future__ import annotations

import ipywidgets as W
import numpy as np

from .. import _validation as V
from ..datasets import make_blobs3
from ..multiclass import MulticlassPerceptron
from ..plotting.core import (
    CLASS_COLORS,
    OKABE_ITO,
    _arrow,
    _check_2d,
    _grid,
    _shade_regions,
    plot_classes,
)
from ._common import (
    _StepWidget,
    figure_image,
    fit_noting_convergence,
    html_table,
    new_figure,
    ring,
    square_view,
)


class MulticlassStepper(_StepWidget):
    """Walk through a multi-class perceptron fit one visited example (or one update) at a time.

    Parameters
    ----------
    X, y : array-like, optional
        2-D data with at least 2 classes (at most 8, for the palette). Default:
        ``perclib.datasets.make_blobs3(12, spread=0.8, random_state=0)``.
    eta, max_iter, order, random_state
        The :class:`perclib.MulticlassPerceptron`'s parameters.
    updates_only : bool, default=False
        Start with the slider walking through the updates only.

    Attributes
    ----------
    model : MulticlassPerceptron
        The fitted model (``record=True``).
    history : list of MultiStep
        ``model.history_``.
    slider : perclib.widgets.slider.IntSlider
        The position among the steps shown (all steps, or the updates only).
    play : ipywidgets.Play
        Linked to the slider; hidden, driven by ``play_button``.
    play_button : ipywidgets.ToggleButton
        "▶ play" / "❚❚ pause": a named button in place of the Play's icons.
    prev_button, next_button : ipywidgets.Button
    updates_only : ipywidgets.Checkbox
    table : ipywidgets.HTML
    image : ipywidgets.Image
        The figure as a PNG, re-rendered at every step.
    fig, ax : matplotlib Figure and Axes
    regions : ndarray of shape (resolution, resolution)
        The index of the class winning each grid point after the current step.
    arrows : list of matplotlib Annotation
        The arrows w_k (one per class).
    state : dict
        ``step`` (index into ``history``), ``n_steps``, ``epoch``, ``index``, ``x``, ``y`` and
        ``y_hat`` (labels), ``scores``, ``updated``, ``W``, ``b`` (after the step) and
        ``W_before``, ``b_before``.
    box : ipywidgets.VBox
        The whole widget (CSS class ``perclib-multiclass-stepper``).
    """

    resolution = 120

    def __init__(
        self,
        X=None,
        y=None,
        *,
        eta=1.0,
        max_iter=10,
        order="cyclic",
        random_state=0,
        updates_only=False,
    ):
        if X is None and y is None:
            X, y = make_blobs3(12, spread=0.8, random_state=0)
        elif X is None or y is None:
            raise ValueError("Give both X and y, or neither (for the default 3-class data).")
        X, y = _check_2d(X, y, "The stepper")
        if np.unique(y).size > len(CLASS_COLORS):
            raise ValueError(
                f"The stepper draws at most {len(CLASS_COLORS)} classes; y has {np.unique(y).size}."
            )
        updates_only = V.check_bool(updates_only, "updates_only")
        self.X, self.y = X.copy(), y.copy()
        self.model = MulticlassPerceptron(
            eta=eta, max_iter=max_iter, order=order, random_state=random_state, record=True
        )
        self.message = fit_noting_convergence(self.model, self.X, self.y)
        self.history = list(self.model.history_)
        self.classes = self.model.classes_
        self._updates = [k for k, s in enumerate(self.history) if s.updated]
        self._build_controls(updates_only)
        self._build_figure()
        self._busy = False
        self._set_range()
        self.slider.observe(self._on_step, names="value")
        self.updates_only.observe(self._on_mode, names="value")

    # -- building -------------------------------------------------------------------------------
    def _build_controls(self, updates_only):
        self.updates_only = W.Checkbox(value=updates_only, description="updates only", indent=False)
        self.table = W.HTML()
        self.status = W.HTML()
        self.image = figure_image(
            "The regions each class wins after this step, the weight vectors w_k as arrows from "
            "the origin, and the visited example; the table gives every class's score and the "
            "update."
        )
        nav = W.HBox([*self._build_navigation(), self.updates_only])
        self.box = W.VBox([nav, self.table, self.status, self.image])
        self.box.add_class("perclib-multiclass-stepper")

    def _build_figure(self):
        self.fig = new_figure((6.8, 4.8))
        self.ax = self.fig.add_subplot()
        self.fig.subplots_adjust(left=0.1, right=0.72, top=0.9, bottom=0.11)
        plot_classes(self.X, self.y, self.ax)
        extent = np.vstack([self.X, np.zeros((1, 2)), *(s.W for s in self._sample_weights())])
        self.xlim, self.ylim = square_view(self.ax, extent, scale=1.1)
        gx, gy, self._grid_points = _grid(self.xlim, self.ylim, self.resolution)
        self._grid = (gx, gy)
        self._regions = None
        self.marker = ring(
            self.ax, color=OKABE_ITO["black"], size=20, width=2.5, zorder=5, label="the current x"
        )
        self.arrows = []
        for k, c in enumerate(self.classes):
            color = CLASS_COLORS[k]
            arrow = _arrow(
                self.ax, (0, 0), (0, 0), color, zorder=6, linewidth=2.2, shrinkA=0, shrinkB=0
            )
            self.arrows.append(arrow)
            self.ax.plot([], [], color=color, linewidth=2.2, label=f"$w$ of class {c}")
        self.ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=9, frameon=False)

    def _sample_weights(self):
        # a few weights along the run, so the axes hold the arrows as well as the data
        return self.history[:: max(1, len(self.history) // 50)] + self.history[-1:]

    # -- navigation -----------------------------------------------------------------------------
    def _positions(self):
        return self._updates if self.updates_only.value else list(range(len(self.history)))

    def _move(self, value):
        """Set the slider's range for the current mode and its value, without redrawing twice."""
        last = len(self._positions()) - 1
        self._busy = True
        try:  # widen first, so that neither the old range nor the new one clamps the value
            self.slider.max = self.play.max = max(last, self.slider.value, value)
            self.slider.value = self.play.value = min(value, last)
            self.slider.max = self.play.max = last
        finally:
            self._busy = False
        self.update()

    def _set_range(self):
        self._move(self.slider.value)

    def _on_mode(self, change):
        # keep the same place in the run: the last position at or before the step shown
        step = self.state["step"]
        self._move(max([p for p, k in enumerate(self._positions()) if k <= step], default=0))

    # -- drawing --------------------------------------------------------------------------------
    def update(self):
        """Recompute ``state`` for the slider's position, redraw the figure and the table."""
        # never empty: from w = 0 every score ties, argmax says class 0, so the first example of any
        # other class is a mistake
        k = self._positions()[int(self.slider.value)]
        s = self.history[k]
        if k == 0:
            W_before, b_before = np.zeros_like(s.W), np.zeros_like(s.b)
        else:
            W_before, b_before = self.history[k - 1].W.copy(), self.history[k - 1].b.copy()
        self.state = {
            "step": k,
            "n_steps": len(self.history),
            "epoch": s.epoch,
            "index": s.index,
            "x": s.x.copy(),
            "y": self.classes[s.y],
            "y_hat": self.classes[s.y_hat],
            "scores": np.array(s.scores, dtype=np.float64),
            "updated": s.updated,
            "W": s.W.copy(),
            "b": s.b.copy(),
            "W_before": W_before,
            "b_before": b_before,
        }
        self._show()

    def _draw(self):
        st = self.state
        gx, gy = self._grid
        scores = self._grid_points @ st["W"].T + st["b"]
        self.regions = np.argmax(scores, axis=1).reshape(gx.shape)
        if self._regions is not None:
            self._regions.remove()
        self._regions = _shade_regions(self.ax, gx, gy, self.regions, len(self.classes), alpha=0.18)
        self.marker.set_data([st["x"][0]], [st["x"][1]])
        for arrow, w in zip(self.arrows, st["W"]):
            arrow.xy = (float(w[0]), float(w[1]))
        verb = (
            f"update: w of {st['y']} += x, w of {st['y_hat']} -= x"
            if st["updated"]
            else "no update"
        )
        self.ax.set_title(
            f"step {st['step'] + 1}/{st['n_steps']} · epoch {st['epoch']} · {verb}", fontsize=10
        )

    def _table_html(self):
        st = self.state
        heads = (
            ["epoch", "x", "true class"]
            + [f"score {c}" for c in self.classes]
            + ["predicted", "updated"]
        )
        cells = (
            [str(st["epoch"]), "(" + ", ".join(f"{v:.3g}" for v in st["x"]) + ")", str(st["y"])]
            + [f"{v:.3g}" for v in st["scores"]]
            + [str(st["y_hat"]), "yes" if st["updated"] else "no"]
        )
        colour = "#fbe3d6" if st["updated"] else "#ffffff"
        return html_table(heads, [cells], background=colour, padding="8px")
