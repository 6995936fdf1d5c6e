"""Compare the four answers of one perceptron run: last iterate, voted, averaged and pocket.

Two sliders set the number of epochs and the label noise (the probability that a label of the
separable data is flipped); the figure shows the training data and the four boundaries, the table
the training and test error of each answer and how many vectors each keeps for a prediction.

The logic lives in plain methods, so tests drive it without a browser::

    >>> e = EnsembleExplorer(n_samples=40, n_test=40)
    >>> e.epochs.value = 2
    >>> e.state["epochs"], sorted(e.state["test_error"])
    (2, ['averaged', 'last', 'pocket', 'voted'])
"""

from __future__ import annotations

import numbers
import warnings

import ipywidgets as W
import numpy as np

from .. import _validation as V
from ..averaged import AveragedPerceptron
from ..datasets import make_noisy
from ..perceptron import Perceptron
from ..plotting.core import METHOD_STYLES, plot_boundaries
from ..pocket import PocketPerceptron
from ..voted import VotedPerceptron, prediction_cost
from ._common import _Widget, figure_image, html_table, new_figure
from .slider import FloatSlider, IntSlider

_MAX_NOISE = 0.4


def _check_int(value, name, minimum):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


class EnsembleExplorer(_Widget):
    """Sliders for epochs and label noise; the last, voted, averaged and pocket boundaries side by
    side.

    Parameters
    ----------
    n_samples : int, default=100
        Training points (2-D, from :func:`perclib.datasets.make_noisy`).
    n_test : int, default=500
        Test points, drawn with the training points (same target, same noise).
    epochs : int, default=5
        The initial number of epochs. The voted and averaged perceptrons run exactly this many;
        the last iterate and the pocket stop earlier after an epoch free of mistakes (neither would
        change after it).
    noise : float, default=0.1
        The initial probability of flipping a label, in [0, 0.4].
    max_epochs : int, default=30
        The epochs slider's maximum.
    order : {"cyclic", "shuffle"}, default="shuffle"
    random_state : int, default=0
        Seeds the data and the visiting order; the same seed at every noise level, so a higher noise
        flips the labels a lower one flipped and a few more.

    Attributes
    ----------
    epochs : perclib.widgets.slider.IntSlider
    noise : perclib.widgets.slider.FloatSlider
    table : ipywidgets.HTML
        Training error, test error and vectors kept, per answer.
    image : ipywidgets.Image
        The figure, re-rendered as a PNG after every change.
    fig, ax : matplotlib Figure and Axes
    models : dict
        name -> the fitted model ("last", "voted", "averaged", "pocket").
    X, y, X_test, y_test : the current data.
    state : dict
        ``epochs``, ``noise``, ``train_error`` and ``test_error`` (dicts by answer), ``boundaries``
        (answer -> (w, b) for the three linear answers), ``n_vectors`` (answer -> vectors kept).
    box : ipywidgets.VBox
        The whole widget (CSS class ``perclib-ensemble``).
    """

    def __init__(
        self,
        *,
        n_samples=100,
        n_test=500,
        epochs=5,
        noise=0.1,
        max_epochs=30,
        order="shuffle",
        random_state=0,
    ):
        self.n_samples = _check_int(n_samples, "n_samples", 2)
        self.n_test = _check_int(n_test, "n_test", 1)
        max_epochs = _check_int(max_epochs, "max_epochs", 1)
        epochs = _check_int(epochs, "epochs", 1)
        if epochs > max_epochs:
            raise ValueError(f"epochs must be at most max_epochs={max_epochs}; got {epochs}.")
        if (
            isinstance(noise, bool)
            or not isinstance(noise, numbers.Real)
            or not 0 <= noise <= _MAX_NOISE
        ):
            raise ValueError(f"noise must be a probability in [0, {_MAX_NOISE}]; got {noise!r}.")
        self.order = V.check_choice(order, "order", V.ORDERS[:2])
        self.random_state = _check_int(random_state, "random_state", 0)
        self.epochs = IntSlider(
            value=epochs, min=1, max=max_epochs, description="epochs", continuous_update=False
        )
        self.noise = FloatSlider(
            value=float(noise),
            min=0.0,
            max=_MAX_NOISE,
            step=0.05,
            description="noise",
            readout_format=".2f",
            continuous_update=False,
        )
        self.table = W.HTML()
        self.image = figure_image(
            "The training data, o for +1 and x for -1, and the boundaries of the last, averaged "
            "and pocket perceptrons; the table gives the errors of all four answers."
        )
        self.box = W.VBox([W.HBox([self.epochs, self.noise]), self.table, self.image])
        self.box.add_class("perclib-ensemble")
        self.fig = new_figure((7.2, 4.6))
        self.ax = self.fig.add_subplot()
        self.fig.subplots_adjust(left=0.08, right=0.7, top=0.92, bottom=0.11)
        self.update()
        self.epochs.observe(self._on_change, names="value")
        self.noise.observe(self._on_change, names="value")

    def _data(self, noise):
        X, y = make_noisy(self.n_samples + self.n_test, 2, noise, random_state=self.random_state)
        n = self.n_samples
        return X[:n], y[:n], X[n:], y[n:]

    def fit(self):
        """Fit the four models on the current data for the slider's number of epochs."""
        epochs = int(self.epochs.value)
        kw = {"max_iter": epochs, "order": self.order, "random_state": self.random_state}
        models = {
            "last": Perceptron(**kw),
            "voted": VotedPerceptron(**kw),
            "averaged": AveragedPerceptron(**kw),
            "pocket": PocketPerceptron(**kw),
        }
        with warnings.catch_warnings():
            # noisy data is rarely separable: the last iterate's ConvergenceWarning is expected here
            warnings.simplefilter("ignore", V.ConvergenceWarning)
            for model in models.values():
                model.fit(self.X, self.y)
        self.models = models
        return models

    def update(self):
        """Redraw the data, refit the four models, and update ``state``, the figure and the
        table."""
        noise = round(float(self.noise.value), 10)
        self.X, self.y, self.X_test, self.y_test = self._data(noise)
        models = self.fit()
        self.state = {
            "epochs": int(self.epochs.value),
            "noise": noise,
            "train_error": {
                m: float(np.mean(models[m].predict(self.X) != self.y)) for m in METHOD_STYLES
            },
            "test_error": {
                m: float(np.mean(models[m].predict(self.X_test) != self.y_test))
                for m in METHOD_STYLES
            },
            "boundaries": {
                m: (models[m].coef_.copy(), float(models[m].intercept_))
                for m in ("last", "averaged", "pocket")
            },
            "n_vectors": {m: prediction_cost(models[m])["vectors"] for m in METHOD_STYLES},
        }
        self._draw()
        self.table.value = self._table_html()
        self.image.value = self.render()

    def _draw(self):
        self.ax.clear()
        plot_boundaries(self.models, self.X, self.y, self.ax, resolution=100)
        self.ax.set_title(
            f"{self.state['epochs']} epoch(s), noise {self.state['noise']:.2f}", fontsize=11
        )

    def _table_html(self):
        st = self.state
        rows = [
            [
                METHOD_STYLES[m]["label"],
                f"{st['train_error'][m]:.3f}",
                f"{st['test_error'][m]:.3f}",
                str(st["n_vectors"][m]),
            ]
            for m in METHOD_STYLES
        ]
        return html_table(("answer", "training error", "test error", "vectors kept"), rows)
