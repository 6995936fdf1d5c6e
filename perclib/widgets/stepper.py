"""A stepper that walks through a recorded perceptron fit, one visited example at a time.

Each step shows the example being visited, the boundary before the step (dashed) and after it
(solid, with w drawn as an arrow normal to it and the two half-planes shaded), and a one-row
table: epoch, x, y, w.x+b, y_hat, whether it updated, the new w and the new b.

Without a ``history`` the stepper fits :class:`perclib.Perceptron` (``record=True``) itself and
refits whenever eta, the rule, the order or the initial weights change. With a ``history`` (a
sequence of :class:`perclib.training.Step`, or of dicts with the same keys) it replays that
history, for example one recorded by a student's own implementation; the fitting controls are then
disabled, since they do not apply.

The logic lives in plain methods, so tests drive it without a browser::

    >>> from perclib.datasets import worked_example
    >>> s = Stepper(*worked_example(), rule="prediction")
    >>> s.slider.value = 2
    >>> s.state["x"].tolist(), s.state["updated"], s.state["b"]
    ([0.0, 0.0], True, -2.0)
"""

from __future__ import annotations

from collections.abc import Mapping

import ipywidgets as W
import numpy as np

from .. import _validation as V
from .._format import num as _num
from .._format import vec as _vec
from ..perceptron import Perceptron
from ..plotting.core import OKABE_ITO, _check_2d
from ..training import Step
from ._common import (
    _BoundaryWidget,
    _StepWidget,
    check_number,
    figure_image,
    fit_noting_convergence,
    html_table,
    ring,
)

FIELDS = ("epoch", "index", "x", "y", "activation", "y_hat", "updated", "w", "b")
COLUMNS = ("epoch", "x", "y", "w·x+b", "ŷ", "updated", "new w", "new b")
_ETA_RANGE = (1e-3, 1e3)


def _as_step(item, k):
    """One history entry as a Step with float arrays, or a ValueError saying what is wrong."""
    if isinstance(item, Step):
        item = {f: getattr(item, f) for f in FIELDS}
    if not isinstance(item, Mapping):
        raise ValueError(
            f"history[{k}] must be a perclib Step or a dict with the keys {', '.join(FIELDS)}; "
            f"got {type(item).__name__}."
        )
    missing = [f for f in FIELDS if f not in item]
    if missing:
        raise ValueError(
            f"history[{k}] lacks the key(s) {', '.join(missing)}; each step needs "
            f"{', '.join(FIELDS)}."
        )
    try:
        x = np.array(item["x"], dtype=np.float64).ravel()
        w = np.array(item["w"], dtype=np.float64).ravel()
        nums = {f: float(item[f]) for f in ("y", "activation", "y_hat", "b")}
    except (TypeError, ValueError):
        raise ValueError(
            f"history[{k}] holds a value that is not a number (x, y, activation, y_hat, w and b "
            f"must be numbers)."
        ) from None
    if x.shape != (2,) or w.shape != (2,):
        raise ValueError(
            f"history[{k}]: the stepper draws 2-D data, so x and w need 2 entries; "
            f"got x with {x.size} and w with {w.size}."
        )
    if nums["y"] not in (-1.0, 1.0):
        raise ValueError(
            f"history[{k}]: y must be -1 or +1 (the label as the perceptron sees it); "
            f"got {item['y']!r}."
        )
    if not all(np.isfinite(list(nums.values()))) or not (
        np.all(np.isfinite(x)) and np.all(np.isfinite(w))
    ):
        raise ValueError(f"history[{k}] contains NaN or infinity.")
    return Step(
        int(item["epoch"]),
        int(item["index"]),
        x,
        nums["y"],
        nums["activation"],
        nums["y_hat"],
        bool(item["updated"]),
        w,
        nums["b"],
    )


def _check_history(history):
    if isinstance(history, (str, bytes, Mapping)) or not hasattr(history, "__len__"):
        raise ValueError(
            "history must be a sequence (for example a list) of steps, such as model.history_."
        )
    steps = [_as_step(item, k) for k, item in enumerate(history)]
    if not steps:
        raise ValueError("history is empty: there is no step to show.")
    return steps


def _check_pair(value, name):
    arr = np.array(value, dtype=np.float64) if not isinstance(value, str) else None
    if arr is None or arr.shape != (2,) or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be 2 finite numbers, for example (0.0, 0.0); got {value!r}.")
    return arr


class Stepper(_BoundaryWidget, _StepWidget):
    """Walk through a perceptron fit one visited example at a time.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
        The 2-D data to draw (and to fit when ``history`` is None).
    y : array-like of shape (n_samples,)
        Two labels; the larger is the +1 class.
    history : sequence of Step or dict, optional
        A recorded fit to replay; each entry has epoch, index, x, y (+1/-1), activation, y_hat,
        updated, and w, b after the step. Without it the stepper fits
        ``perclib.Perceptron(record=True)`` from the controls' values.
    eta, rule, order, max_iter, random_state
        The Perceptron's parameters (see :class:`perclib.Perceptron`).
    w0, b0
        The initial weights and bias (``coef_init``, ``intercept_init``); with a ``history``, the
        weights before its first step.
    title : str, optional
        A title above the figure.

    Attributes
    ----------
    slider : perclib.widgets.slider.IntSlider
        The step shown, 0 to ``len(history) - 1``.
    play : ipywidgets.Play
        Plays through the steps; linked to the slider. Hidden: ``play_button`` drives it.
    play_button : ipywidgets.ToggleButton
        "▶ play" / "❚❚ pause": a named button in place of the Play's three unnamed icons.
    prev_button, next_button : ipywidgets.Button
        One step back or forward.
    eta, rule, order, w1_0, w2_0, b_0 : ipywidgets controls
        The fitting parameters; changing one refits (disabled when replaying a ``history``).
    table : ipywidgets.HTML
        The current step as a one-row table.
    image : ipywidgets.Image
        The figure, re-rendered as a PNG at every step.
    fig, ax : matplotlib Figure and Axes
        The figure whose artists tests can read.
    history : list of Step
        The steps shown.
    model : Perceptron or None
        The fitted model (None when replaying a given history).
    state : dict
        The current step: ``step``, ``n_steps``, the Step's fields (epoch, index, x, y, activation,
        y_hat, updated, w, b; w and b after the step) and ``w_before``, ``b_before``.
    box : ipywidgets.VBox
        The whole widget (CSS class ``perclib-stepper``).
    """

    def __init__(
        self,
        X,
        y,
        history=None,
        *,
        eta=1.0,
        rule="margin",
        order="cyclic",
        w0=(0.0, 0.0),
        b0=0.0,
        max_iter=20,
        random_state=0,
        title=None,
    ):
        X, y = _check_2d(X, y, "The stepper")
        V.binary_classes(y, "Stepper")
        self.X, self.y = X.copy(), y.copy()
        eta = V.check_positive(eta, "eta")
        if not _ETA_RANGE[0] <= eta <= _ETA_RANGE[1]:
            raise ValueError(
                f"eta must lie in [{_ETA_RANGE[0]:g}, {_ETA_RANGE[1]:g}] for the stepper; "
                f"got {eta!r}."
            )
        V.check_choice(rule, "rule", V.RULES)
        V.check_choice(order, "order", V.ORDERS)
        w0 = _check_pair(w0, "w0")
        b0 = check_number(b0, "b0")
        self.max_iter = V.check_max_iter(max_iter)
        # only to check it: with an int, every refit starts from that seed
        V.check_random_state(random_state)
        self.random_state = random_state
        if title is not None and not isinstance(title, str):
            raise ValueError(f"title must be a string; got {title!r}.")
        self.title = title
        self.replay = history is not None
        given = _check_history(history) if self.replay else None

        self._busy = False
        self.message = ""
        self._build_controls(eta, rule, order, w0, b0)
        self._build_figure()
        if self.replay:
            self.model = None
            self._set_history(given)
        else:
            self.refit()
        for control in (self.eta, self.rule, self.order, self.w1_0, self.w2_0, self.b_0):
            control.observe(self._on_param, names="value")
        self.slider.observe(self._on_step, names="value")

    # -- building -------------------------------------------------------------------------------
    def _build_controls(self, eta, rule, order, w0, b0):
        fixed = {
            "disabled": self.replay,
            "layout": W.Layout(width="150px"),
            "style": {"description_width": "40px"},
        }
        self.eta = W.BoundedFloatText(
            value=eta, min=_ETA_RANGE[0], max=_ETA_RANGE[1], step=0.1, description="η", **fixed
        )
        self.rule = W.Dropdown(
            options=list(V.RULES),
            value=rule,
            description="rule",
            **{**fixed, "layout": W.Layout(width="190px")},
        )
        self.order = W.Dropdown(
            options=list(V.ORDERS),
            value=order,
            description="order",
            **{**fixed, "layout": W.Layout(width="210px")},
        )
        self.w1_0 = W.FloatText(value=float(w0[0]), description="w₁⁰", **fixed)
        self.w2_0 = W.FloatText(value=float(w0[1]), description="w₂⁰", **fixed)
        self.b_0 = W.FloatText(value=b0, description="b⁰", **fixed)
        nav = W.HBox(self._build_navigation())
        self.slider.add_class("perclib-stepper-slider")
        self.table = W.HTML()
        self.table.add_class("perclib-stepper-table")
        self.status = W.HTML()
        self.image = figure_image(
            "The data, o for +1 and x for -1, the boundary before this step dashed and after it "
            "solid, w as an arrow, and the visited example; the table above gives the numbers."
        )
        params = W.HBox(
            [self.eta, self.rule, self.order, self.w1_0, self.w2_0, self.b_0],
            layout=W.Layout(flex_flow="row wrap"),
        )
        self.box = W.VBox([params, nav, self.table, self.status, self.image])
        self.box.add_class("perclib-stepper")

    def _build_figure(self):
        # Only the artists in self.dynamic change from step to step; _Blit redraws just those. The
        # step's text goes in the table's caption, not the figure: text is slow to draw.
        top = 0.9 if self.title else 0.95
        ax = self._start_figure((6.6, 4.8), self.y, scale=1.3, right=0.68, top=top)
        ax.axhline(0, color="#cccccc", linewidth=0.8, zorder=1)
        ax.axvline(0, color="#cccccc", linewidth=0.8, zorder=1)
        if self.title:
            ax.set_title(self.title, fontsize=11)
        (self.before_line,) = ax.plot(
            [],
            [],
            color="#777777",
            linestyle="--",
            linewidth=1.8,
            zorder=2,
            label="boundary before",
        )
        self.after_line = self._add_boundary(ax, "boundary after")
        self.point_marker = ring(
            ax, color=OKABE_ITO["orange"], size=22, width=2.5, zorder=4, label="the current x"
        )
        self._finish_figure(self.before_line, self.after_line, self.point_marker)

    # -- data -----------------------------------------------------------------------------------
    def refit(self):
        """Fit ``Perceptron(record=True)`` from the controls' values and show its history."""
        model = Perceptron(
            eta=float(self.eta.value),
            max_iter=self.max_iter,
            order=self.order.value,
            rule=self.rule.value,
            random_state=self.random_state,
            record=True,
        )
        self.message = fit_noting_convergence(
            model,
            self.X,
            self.y,
            coef_init=[self.w1_0.value, self.w2_0.value],
            intercept_init=self.b_0.value,
        )
        self.model = model
        self._set_history(model.history_)

    def _set_history(self, steps):
        self.history = [_as_step(s, k) for k, s in enumerate(steps)]
        last = len(self.history) - 1
        self._busy = True
        try:
            value = min(self.slider.value, last)
            self.slider.value = value  # first, so that max can shrink under it
            self.slider.max = self.play.max = last
            self.play.value = value
        finally:
            self._busy = False
        self.update()

    def _before(self, k):
        if k == 0:
            return np.array([self.w1_0.value, self.w2_0.value], dtype=np.float64), float(
                self.b_0.value
            )
        prev = self.history[k - 1]
        return prev.w.copy(), prev.b

    # -- events ---------------------------------------------------------------------------------
    def _on_param(self, change):
        if not self._busy:
            self.refit()

    # -- drawing --------------------------------------------------------------------------------
    def update(self):
        """Recompute ``state`` for the slider's step, redraw the figure and the table."""
        k = int(self.slider.value)
        s = self.history[k]
        w_before, b_before = self._before(k)
        self.state = {
            "step": k,
            "n_steps": len(self.history),
            "epoch": s.epoch,
            "index": s.index,
            "x": s.x.copy(),
            "y": s.y,
            "activation": s.activation,
            "y_hat": s.y_hat,
            "updated": s.updated,
            "w": s.w.copy(),
            "b": s.b,
            "w_before": w_before,
            "b_before": b_before,
        }
        self._show()

    def _draw(self):
        st = self.state
        self._set_line(self.before_line, st["w_before"], st["b_before"])
        self._move_boundary(self.after_line, st["w"], st["b"])
        self.point_marker.set_data([st["x"][0]], [st["x"][1]])

    def table_row(self):
        """The current step as the table's cells, in the order of ``COLUMNS``."""
        st = self.state
        return [
            str(st["epoch"]),
            _vec(st["x"]),
            "+1" if st["y"] > 0 else "−1",
            _num(st["activation"]),
            "+1" if st["y_hat"] > 0 else ("−1" if st["y_hat"] < 0 else _num(st["y_hat"])),
            "yes" if st["updated"] else "no",
            _vec(st["w"]),
            _num(st["b"]),
        ]

    def _table_html(self):
        st = self.state
        caption = (
            f"step {st['step'] + 1} of {st['n_steps']} · epoch {st['epoch']} · "
            f"{'update' if st['updated'] else 'no update'}"
        )
        colour = "#fbe3d6" if st["updated"] else "#ffffff"
        return html_table(COLUMNS, [self.table_row()], caption=caption, background=colour)
