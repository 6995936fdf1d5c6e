"""Headless tests for perclib.widgets.losses.SGDExplorer: set a control, check state and figure."""

import numpy as np
import pytest

from perclib import Perceptron
from perclib.datasets import make_noisy, make_separable
from perclib.sgd import LinearSGD, objective
from perclib.widgets import SGDExplorer


def test_default_starts_at_the_last_step():
    w = SGDExplorer()
    X, y = make_noisy(60, 2, flip=0.05, random_state=0)
    sgd = LinearSGD(loss="perceptron", eta=0.1, max_iter=10, order="shuffle", random_state=0).fit(
        X, y
    )
    st = w.state
    assert st["step"] == st["n_steps"] == 600 and w.step.max == 600 and w.play.max == 600
    assert np.array_equal(st["w"], sgd.coef_) and st["b"] == sgd.intercept_
    ys = np.where(y == 1, 1, -1)
    assert st["objective"] == pytest.approx(objective(X, ys, sgd.coef_, sgd.intercept_))
    assert st["error"] == pytest.approx(1 - sgd.score(X, y))
    assert w.image.value[:4] == b"\x89PNG" and "perclib-sgd-explorer" in w.box._dom_classes


def test_step_slider_walks_the_history():
    X, y = make_separable(20, 2, margin=0.1, random_state=1)
    w = SGDExplorer(X, y, eta=1.0, order="cyclic")
    w.step.value = 0
    assert w.state["step"] == 0 and np.all(w.state["w"] == 0) and w.state["index"] is None
    assert w.state["objective"] == 0.0 and not w.state["moved"]
    w.step.value = 3
    h = w.model.history_[2]
    assert np.array_equal(w.state["w"], h.w) and w.state["b"] == h.b and w.state["index"] == h.index
    assert w.state["moved"] == h.updated
    np.testing.assert_array_equal(w.marker.get_xydata(), [[3, w.objective[3]]])
    assert "step 3" in w.summary.value
    # the perceptron loss with eta = 1, cyclic: SGD ends where the perceptron does
    w.step.value = w.state["n_steps"]
    clf = Perceptron().fit(X, y)
    assert np.array_equal(w.state["w"], clf.coef_) and w.state["b"] == clf.intercept_
    assert w.state["error"] == 0.0


def test_changing_the_loss_and_eta_refits():
    w = SGDExplorer(max_iter=3)
    w.loss.value = "logistic"
    st = w.state
    assert st["loss"] == "logistic" and st["step"] == st["n_steps"] == 180
    X, y = make_noisy(60, 2, flip=0.05, random_state=0)
    sgd = LinearSGD(loss="logistic", eta=0.1, max_iter=3, order="shuffle", random_state=0).fit(X, y)
    assert np.allclose(st["w"], sgd.coef_)
    ys = np.where(y == 1, 1, -1)
    curve = w.objective_line.get_ydata()
    assert curve[0] == pytest.approx(np.log(2))  # w = 0: log 2 per example
    assert curve[-1] == pytest.approx(objective(X, ys, sgd.coef_, sgd.intercept_, loss="logistic"))
    assert st["moved"]  # every logistic step moves
    w.step.value = 10
    w.eta.value = 1.0
    assert w.state["eta"] == 1.0 and w.state["step"] == w.state["n_steps"]
    w.loss.value = "hinge"
    assert w.state["loss"] == "hinge" and w.objective_line.get_label() == "mean hinge loss"


def test_same_number_of_steps_still_redraws():
    X, y = make_noisy(30, 2, flip=0.2, random_state=3)
    w = SGDExplorer(X, y, loss="hinge", max_iter=2)
    before = w.state["w"].copy()
    w.eta.value = (
        0.01  # same number of steps (noisy data, no early stop): update() is called directly
    )
    assert w.state["step"] == 60 and not np.array_equal(before, w.state["w"])


def test_bad_arguments():
    X, y = make_noisy(20, 3, random_state=0)
    with pytest.raises(ValueError, match="2-D data"):
        SGDExplorer(X, y)
    with pytest.raises(ValueError, match="loss"):
        SGDExplorer(loss="squared")
    with pytest.raises(ValueError, match="order"):
        SGDExplorer(order="random-mistake")
    with pytest.raises(ValueError, match="eta"):
        SGDExplorer(eta=100.0)
    with pytest.raises(ValueError, match="classes"):
        SGDExplorer(X[:, :2], np.ones(20))


def test_display_and_mimebundle(monkeypatch):
    w = SGDExplorer(max_iter=1)
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    w.display()
    assert shown == [w.box]
    assert "application/vnd.jupyter.widget-view+json" in w._repr_mimebundle_()
