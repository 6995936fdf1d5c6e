"""SGDExplorer: pick a loss and a step size, then watch SGD step by step.

The logic lives in :meth:`SGDExplorer.refit` and :meth:`SGDExplorer.update`, which tests call
headlessly: set ``widget.loss.value = "hinge"`` or ``widget.step.value = 10`` and read
``widget.state`` and the figure's artists.
"""

from __future__ import annotations

import ipywidgets as W
import numpy as np

from .. import _validation as V
from ..datasets import make_noisy
from ..losses import LOSSES, loss_value
from ..plotting.core import OKABE_ITO, _check_2d, plot_data, plot_decision_boundary
from ..sgd import SGD_ORDERS, LinearSGD
from ._common import _Widget, figure_image, play_button, two_panels
from .slider import FloatLogSlider, IntSlider


class SGDExplorer(_Widget):
    """SGD on a linear model, one step at a time, for the perceptron, hinge or logistic loss.

    Parameters
    ----------
    X, y : 2-D data and two labels; default: ``make_noisy(60, 2, flip=0.05, random_state=0)``.
    loss : {"perceptron", "hinge", "logistic"}, default="perceptron"
    eta : float, default=0.1
        The step size, in [0.001, 10] (a log slider).
    max_iter : int, default=10
        Epochs of SGD to run (all are run; the slider walks through their steps).
    order : {"cyclic", "shuffle"}, default="shuffle"
    random_state : int, default=0

    Attributes
    ----------
    loss : ipywidgets.Dropdown
    eta : perclib.widgets.slider.FloatLogSlider
    step : perclib.widgets.slider.IntSlider (0 = before the first step)
    play : ipywidgets.Play (linked to ``step``; hidden, driven by ``play_button``)
    play_button : ipywidgets.ToggleButton ("▶ play" / "❚❚ pause", named for screen readers)
    image : ipywidgets.Image, summary : ipywidgets.HTML
    fig, ax_data, ax_loss : the matplotlib Figure and its two axes
    model : the fitted :class:`perclib.sgd.LinearSGD` (``record=True``)
    weights, biases : (w, b) after each step, index 0 being the start (0, 0)
    objective, errors : the mean training loss and the training 0-1 error after each step
    state : dict with ``loss``, ``eta``, ``step``, ``n_steps``, ``w``, ``b``, ``objective``,
        ``error``, ``moved`` (whether this step changed (w, b)) and ``index`` (the example used)
    box : ipywidgets.VBox (CSS class ``perclib-sgd-explorer``)
    """

    def __init__(
        self,
        X=None,
        y=None,
        *,
        loss="perceptron",
        eta=0.1,
        max_iter=10,
        order="shuffle",
        random_state=0,
    ):
        if X is None and y is None:
            X, y = make_noisy(60, 2, flip=0.05, random_state=0)
        X, y = _check_2d(X, y, "SGDExplorer")
        self.classes = V.binary_classes(y, "SGDExplorer")
        self.X, self.y = X.copy(), V.encode_binary(y, self.classes)
        V.check_choice(loss, "loss", LOSSES)
        V.check_choice(order, "order", SGD_ORDERS)
        eta = V.check_positive(eta, "eta")
        if not 1e-3 <= eta <= 10:
            raise ValueError(f"eta must lie in [0.001, 10]; got {eta!r}.")
        self.max_iter = V.check_max_iter(max_iter)
        self.order_name, self.random_state = order, random_state
        self.loss = W.Dropdown(options=list(LOSSES), value=loss, description="loss")
        self.eta = FloatLogSlider(
            value=eta, base=10, min=-3, max=1, step=0.1, description="η", continuous_update=False
        )
        self.step = IntSlider(value=0, min=0, max=1, description="step")
        self.play = W.Play(value=0, min=0, max=1, interval=150, description="play")
        W.jslink((self.play, "value"), (self.step, "value"))
        self.play_button = play_button(self.play)
        self.image = figure_image(
            "Left: the data, o for +1 and x for -1, the current boundary and the example of this "
            "step ringed. Right: the mean loss and the 0-1 error against the SGD step."
        )
        self.summary = W.HTML()
        self.fig, (self.ax_data, self.ax_loss) = two_panels()
        self.state = {}
        self.loss.observe(lambda change: self.refit(), names="value")
        self.eta.observe(lambda change: self.refit(), names="value")
        self.step.observe(lambda change: self.update(), names="value")
        self.box = W.VBox(
            [
                W.HBox([self.loss, self.eta]),
                W.HBox([self.play_button, self.play, self.step]),
                self.summary,
                self.image,
            ]
        )
        self.box.add_class("perclib-sgd-explorer")
        self.refit()

    def refit(self):
        """Run SGD for the current loss and eta, recompute the curves, and go to the last step."""
        self.model = LinearSGD(
            loss=self.loss.value,
            eta=float(self.eta.value),
            max_iter=self.max_iter,
            order=self.order_name,
            random_state=self.random_state,
            record=True,
        ).fit(self.X, self.y)
        hist = self.model.history_
        self.weights = np.vstack([np.zeros((1, 2))] + [s.w[None, :] for s in hist])
        self.biases = np.array([0.0] + [s.b for s in hist])
        A = self.X @ self.weights.T + self.biases  # (n, steps + 1)
        Y = np.broadcast_to(self.y[:, None], A.shape)
        self.objective = loss_value(self.loss.value, Y, A).mean(axis=0)
        self.errors = loss_value("zero_one", Y, A).mean(axis=0)
        n_steps = len(hist)
        self._draw_curves()
        self.play.max = self.step.max = n_steps
        if self.step.value != n_steps:
            self.step.value = n_steps  # triggers update()
        else:
            self.update()
        return self.state

    def update(self):
        """Show step ``self.step.value``; return the new ``state``."""
        k = int(self.step.value)
        hist = self.model.history_
        self.state = {
            "loss": self.loss.value,
            "eta": float(self.eta.value),
            "step": k,
            "n_steps": len(hist),
            "w": self.weights[k].copy(),
            "b": float(self.biases[k]),
            "objective": float(self.objective[k]),
            "error": float(self.errors[k]),
            "moved": bool(hist[k - 1].updated) if k else False,
            "index": int(hist[k - 1].index) if k else None,
        }
        self._draw_step()
        st = self.state
        self.summary.value = (
            f"step {k} of {st['n_steps']}: w = ({st['w'][0]:.3f}, {st['w'][1]:.3f}), "
            f"b = {st['b']:.3f}; mean {st['loss']} loss {st['objective']:.4f}, "
            f"training error {st['error']:.3f}"
        )
        self.image.value = self.render()
        return self.state

    def _draw_curves(self):
        ax = self.ax_loss
        ax.clear()
        steps = np.arange(self.objective.size)
        (self.objective_line,) = ax.plot(
            steps,
            self.objective,
            color=OKABE_ITO["blue"],
            linewidth=2,
            label=f"mean {self.loss.value} loss",
        )
        (self.error_line,) = ax.plot(
            steps,
            self.errors,
            color=OKABE_ITO["black"],
            linewidth=1,
            linestyle="--",
            label="training 0-1 error",
        )
        (self.marker,) = ax.plot([0], [self.objective[0]], "o", color=OKABE_ITO["vermillion"], ms=8)
        ax.set_xlabel("SGD step")
        ax.set_ylabel("loss / error")
        ax.set_ylim(bottom=0)
        ax.legend(loc="upper right", fontsize=8)

    def _draw_step(self):
        k, st = self.state["step"], self.state
        self.marker.set_data([k], [self.objective[k]])
        ax = self.ax_data
        ax.clear()
        plot_data(self.X, self.y, ax)
        lo, hi = self.X.min(axis=0) - 0.2, self.X.max(axis=0) + 0.2
        if np.any(st["w"] != 0):
            plot_decision_boundary(st["w"], st["b"], ax, xlim=(lo[0], hi[0]), ylim=(lo[1], hi[1]))
        else:
            ax.set_xlim(lo[0], hi[0])
            ax.set_ylim(lo[1], hi[1])
        if st["index"] is not None:
            x = self.X[st["index"]]
            ax.scatter(
                [x[0]],
                [x[1]],
                s=300,
                facecolors="none",
                edgecolors=OKABE_ITO["orange"],
                linewidths=2,
                zorder=5,
                label="example of this step",
            )
        ax.set_title(f"{st['loss']} loss, η = {st['eta']:.3g}, step {k}")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, fontsize=7)
