"""A boundary you move yourself: sliders for w1, w2 and b, the misclassified points and the loss.

The figure shows the data (o for +1, x for -1), the line w.x + b = 0 with w as an arrow normal to
it, the two half-planes shaded (blue where h(x) = +1), and a ring around every misclassified point.
Below it: how many points are misclassified, and the perceptron loss
L(w, b) = sum_i max(0, -y_i (w.x_i + b)).

A point exactly on the line has h(x) = sign(0) = +1: it is misclassified if its label is -1, yet it
adds 0 to the loss. So a loss of 0 does not always mean no mistakes (try w = 0, b = 0).

    >>> from perclib.datasets import worked_example
    >>> ex = BoundaryExplorer(*worked_example(), w1=1.0, w2=1.0, b=-1.0)
    >>> ex.state["misclassified"], ex.state["loss"]
    ([], 0.0)
    >>> ex.b.value = 0.5
    >>> ex.state["misclassified"], ex.state["loss"]
    ([2], 0.5)
"""

from __future__ import annotations

import ipywidgets as W
import numpy as np

from .. import _validation as V
from ..plotting.core import OKABE_ITO, _check_2d
from ._common import _BoundaryWidget, check_number, figure_image, ring
from .slider import FloatSlider


class BoundaryExplorer(_BoundaryWidget):
    """Move the boundary w.x + b = 0 by hand and watch the mistakes and the perceptron loss.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Two labels; the larger is the +1 class.
    w1, w2, b : float
        The starting weights and bias.

    Attributes
    ----------
    w1, w2, b : perclib.widgets.slider.FloatSlider
        The weights and the bias.
    info : ipywidgets.HTML
        The number of misclassified points and the loss.
    image : ipywidgets.Image
        The figure as a PNG, re-rendered when a slider moves.
    fig, ax : matplotlib Figure and Axes
    state : dict
        ``w`` (array), ``b``, ``misclassified`` (sorted indices), ``loss`` (the perceptron loss) and
        ``activations`` (w.x_i + b).
    box : ipywidgets.VBox
        The whole widget (CSS class ``perclib-boundary``).
    """

    def __init__(self, X, y, *, w1=1.0, w2=1.0, b=0.0):
        X, y = _check_2d(X, y, "The boundary explorer")
        classes = V.binary_classes(y, "BoundaryExplorer")
        self.X = X.copy()
        self.y_signed = V.encode_binary(y, classes)
        w1, w2, b = (check_number(v, n) for v, n in ((w1, "w1"), (w2, "w2"), (b, "b")))
        self._build_controls(w1, w2, b)
        self._build_figure(y)
        self.update()
        for slider in (self.w1, self.w2, self.b):
            slider.observe(self._on_change, names="value")

    def _build_controls(self, w1, w2, b):
        wmax = max(3.0, float(np.ceil(max(abs(w1), abs(w2)))))
        radius = float(np.max(np.linalg.norm(self.X, axis=1)))
        bmax = max(3.0, float(np.ceil(wmax * radius)), float(np.ceil(abs(b))))
        common = {
            "continuous_update": True,
            "readout_format": ".2f",
            "layout": W.Layout(width="330px"),
        }
        self.w1 = FloatSlider(value=w1, min=-wmax, max=wmax, step=0.05, description="w₁", **common)
        self.w2 = FloatSlider(value=w2, min=-wmax, max=wmax, step=0.05, description="w₂", **common)
        self.b = FloatSlider(value=b, min=-bmax, max=bmax, step=0.05, description="b", **common)
        self.info = W.HTML()
        self.image = figure_image(
            "The data, o for +1 and x for -1, the line w.x + b = 0 with w as an arrow normal to "
            "it, the half-planes shaded, and a ring around each misclassified point; counts "
            "below."
        )
        self.box = W.VBox([W.HBox([W.VBox([self.w1, self.w2, self.b]), self.info]), self.image])
        self.box.add_class("perclib-boundary")

    def _build_figure(self, y):
        ax = self._start_figure((6.2, 4.8), y, scale=1.25, right=0.7, top=0.92)
        self.line = self._add_boundary(ax, "$w\\cdot x+b=0$")
        self.rings = ring(
            ax, color=OKABE_ITO["orange"], size=20, width=2.2, zorder=4, label="misclassified"
        )
        self._finish_figure(self.line, self.rings)

    def update(self):
        """Recompute ``state`` from the sliders and redraw."""
        w = np.array([self.w1.value, self.w2.value], dtype=np.float64)
        b = float(self.b.value)
        a = self.X @ w + b
        y_hat = np.where(a >= 0, 1.0, -1.0)  # sign(0) = +1
        wrong = np.flatnonzero(y_hat != self.y_signed)
        loss = float(np.sum(np.maximum(0.0, -self.y_signed * a)))
        self.state = {
            "w": w,
            "b": b,
            "misclassified": [int(i) for i in wrong],
            "loss": loss,
            "activations": a,
        }
        self._draw()
        n = self.X.shape[0]
        self.info.value = (
            f"<div style='padding-left:16px;font-family:monospace'>"
            f"misclassified: <b>{wrong.size}</b> of {n}<br>"
            f"perceptron loss L(w, b) = Σ max(0, −y(w·x+b)) = <b>{loss:.4g}</b></div>"
        )
        self.image.value = self.render()

    def _draw(self):
        self._move_boundary(self.line, self.state["w"], self.state["b"])
        wrong = self.state["misclassified"]
        self.rings.set_data(self.X[wrong, 0], self.X[wrong, 1])
