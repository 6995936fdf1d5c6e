"""Headless tests for perclib.widgets.convergence.MarginExplorer: set a control, check the state
and the figure."""

import numpy as np
import pytest

from perclib import Perceptron
from perclib.datasets import make_fixed_ratio, make_separable
from perclib.theory import max_margin, mistake_bound, radius
from perclib.widgets import MarginExplorer


def test_exact_mode_sets_gamma_star_to_the_slider_value():
    w = MarginExplorer(30, margin=0.1, seed=3)
    X, y = make_fixed_ratio(30, 2, np.sqrt(2) / 0.1, random_state=3)
    st = w.state
    assert st["margin"] == 0.1 and st["seed"] == 3 and st["order"] == "cyclic"
    assert st["gamma"] == pytest.approx(0.1, rel=1e-9) and st["R"] == pytest.approx(np.sqrt(2))
    assert st["bound"] == pytest.approx(mistake_bound(X, y)) and st["bound"] == pytest.approx(200.0)
    clf = Perceptron(random_state=3).fit(X, y)
    assert st["updates"] == clf.n_updates_ and np.array_equal(st["w"], clf.coef_)
    assert st["updates"] <= st["bound"] and st["ratio"] == pytest.approx(
        st["updates"] / st["bound"]
    )
    assert w.image.value[:8] == b"\x89PNG\r\n\x1a\n"
    assert "perclib-margin-explorer" in w.box._dom_classes
    assert np.allclose(w.updates_point.get_xydata(), [[st["gamma"], st["updates"]]])
    w.margin.value = 0.04
    assert w.state["gamma"] == pytest.approx(0.04, rel=1e-9) and w.state["bound"] == pytest.approx(
        1250.0
    )
    assert w.state["updates"] <= w.state["bound"]
    # the bound curve of the right panel passes through (gamma*, bound)
    curve = w.ax_bound.get_lines()[0].get_xydata()
    np.testing.assert_allclose(curve[:, 1], 2.0 / curve[:, 0] ** 2)


def test_generating_mode_slider_regenerates_data_and_the_bound():
    w = MarginExplorer(40, margin=0.2, seed=0, exact=False)
    big = w.state["bound"]
    w.margin.value = 0.02
    st = w.state
    X, y = make_separable(40, 2, margin=0.02, random_state=0)
    _, _, gamma = max_margin(X, y)
    assert st["margin"] == 0.02 and st["gamma"] == pytest.approx(gamma)
    assert st["R"] == pytest.approx(radius(X))
    assert st["bound"] > big  # a smaller margin gives a larger bound here
    assert st["updates"] <= st["bound"]
    assert len(st["seen"]) == 2
    assert np.allclose(w.updates_point.get_xydata(), [[gamma, st["updates"]]])
    assert "updates" in w.summary.value
    # the left panel's band edges are the lines w*.x + b* = +-gamma*
    band = [line for line in w.ax_data.get_lines() if line.get_linestyle() == ":"]
    assert len(band) == 2
    for line in band:
        vals = line.get_xydata() @ st["w_star"] + st["b_star"]
        np.testing.assert_allclose(np.abs(vals), st["gamma"], rtol=1e-9)


def test_order_and_seed_controls():
    w = MarginExplorer(30, margin=0.1)
    w.order.value = "random-mistake"
    assert w.state["order"] == "random-mistake" and w.state["updates"] <= w.state["bound"]
    w.seed.value = 7
    X, y = make_fixed_ratio(30, 2, np.sqrt(2) / 0.1, random_state=7)
    clf = Perceptron(order="random-mistake", random_state=7).fit(X, y)
    assert w.state["seed"] == 7 and w.state["updates"] == clf.n_updates_
    assert len(w.state["seen"]) == 3


def test_bad_arguments():
    with pytest.raises(ValueError, match="margin"):
        MarginExplorer(margin=0.8)
    with pytest.raises(ValueError, match="order"):
        MarginExplorer(order="backwards")
    with pytest.raises(ValueError, match="n_samples"):
        MarginExplorer(2)
    with pytest.raises(ValueError, match="exact"):
        MarginExplorer(exact="yes")


def test_display_and_mimebundle(monkeypatch):
    w = MarginExplorer(20)
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    w.display()
    assert shown == [w.box]
    bundle = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_the_notebooks_explorer_at_a_small_margin():
    """Notebook 04's explorer (40 points, seed 0) with the slider moved to 0.03, as a student would:
    gamma* is the slider's value exactly, R = sqrt(2), the run is the perceptron's own on the same
    data, it stays under the bound, and the right panel marks it with a vermillion dot (the colour
    the notebook's prose names)."""
    from perclib.plotting import OKABE_ITO

    w = MarginExplorer(40, margin=0.1, seed=0)
    w.margin.value = 0.03
    st = w.state
    X, y = make_fixed_ratio(40, 2, np.sqrt(2) / 0.03, random_state=0)
    assert st["gamma"] == pytest.approx(0.03, rel=1e-9) and st["R"] == pytest.approx(np.sqrt(2))
    assert st["bound"] == pytest.approx(2.0 / 0.03**2) == pytest.approx(mistake_bound(X, y))
    assert st["updates"] == Perceptron(random_state=0).fit(X, y).n_updates_
    assert 0 < st["updates"] <= st["bound"]
    assert w.updates_point.get_color() == OKABE_ITO["vermillion"]
    assert np.allclose(w.updates_point.get_xydata(), [[0.03, st["updates"]]])
