"""perclib's sliders (perclib/widgets/slider.py): traits, bounds, links and what the browser draws.

The front end itself (a labelled range input, the keys) is checked in a real browser by
tests/browser/test_browser.py; here, the Python side and the ESM it sends.
"""

import anywidget
import ipywidgets as W
import pytest
from ipywidgets.widgets.widget_link import Link

from perclib.widgets.slider import FloatLogSlider, FloatSlider, IntSlider


def test_the_traits_are_synced_and_kept():
    s = IntSlider(value=4, min=1, max=9, step=2, description="epochs", continuous_update=False)
    state = s.get_state()
    for name, want in {
        "value": 4,
        "min": 1,
        "max": 9,
        "step": 2,
        "description": "epochs",
        "continuous_update": False,
        "readout_format": "d",
        "disabled": False,
    }.items():
        assert state[name] == want, name
    assert isinstance(s, anywidget.AnyWidget) and isinstance(s, W.DOMWidget)
    assert state["_model_module"] == "anywidget" and state["_view_name"] == "AnyView"


def test_the_value_stays_within_the_bounds():
    s = IntSlider(value=7, min=0, max=10)
    s.max = 5  # the value follows the bound down, as ipywidgets' slider does
    assert s.value == 5
    s.min = 2
    s.value = -3
    assert s.value == 2
    s.value = 99
    assert s.value == 5
    # given in any order, the bounds apply before the value
    assert IntSlider(value=250, max=300, min=200).value == 250
    assert IntSlider(max=300, min=200).value == 200
    f = FloatSlider(value=0.3, min=0.01, max=0.4, step=0.01)
    assert f.value == pytest.approx(0.3) and f.get_state()["value"] == pytest.approx(0.3)
    f.value = 1.0
    assert f.value == pytest.approx(0.4)


def test_the_types_follow_ipywidgets():
    s = IntSlider(value=3.0, max=10)
    assert type(s.value) is int and s.value == 3
    f = FloatSlider(value=1, max=5)
    assert type(f.value) is float


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: IntSlider(min=5, max=2), "min must not exceed max"),
        (lambda: setattr(IntSlider(max=10), "min", 11), "min must not exceed max"),
        (lambda: setattr(IntSlider(min=3, max=10), "max", 2), "min must not exceed max"),
        (lambda: IntSlider(step=0), "step must be positive"),
        (lambda: FloatSlider(step=-0.1), "step must be positive"),
        (lambda: FloatSlider(readout_format=".2e"), "readout_format"),
        (lambda: FloatLogSlider(base=1), "base must exceed 1"),
    ],
)
def test_bad_settings_raise_value_error(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_a_failed_setting_leaves_the_slider_as_it_was():
    s = IntSlider(value=4, min=0, max=10)
    with pytest.raises(ValueError):
        s.max = -1
    assert (s.min, s.max, s.value) == (0, 10, 4)


def test_log_slider_holds_the_number_and_moves_over_exponents():
    s = FloatLogSlider(value=0.1, base=10, min=-3, max=1, step=0.1, description="η")
    assert s.value == pytest.approx(0.1) and (s.min, s.max, s.base) == (-3, 1, 10)
    s.value = 1e-5
    assert s.value == pytest.approx(1e-3)
    s.value = 50.0
    assert s.value == pytest.approx(10.0)
    assert s.get_state()["base"] == 10 and s.readout_format == ".3g"
    assert "base" not in IntSlider().keys  # a linear slider sends no base: the ESM reads it so


def test_python_observers_see_every_change():
    s = IntSlider(value=0, max=10)
    seen = []
    s.observe(lambda change: seen.append((change["old"], change["new"])), names="value")
    s.value = 3
    s.value = 3  # no change, no call
    s.max = 2  # clipped: observers hear it
    assert seen == [(0, 3), (3, 2)]


def test_links_with_a_play_in_python_and_in_the_browser():
    s = IntSlider(value=0, max=8)
    play = W.Play(value=0, min=0, max=8)
    W.link((play, "value"), (s, "value"))
    play.value = 5
    assert s.value == 5
    s.value = 2
    assert play.value == 2
    link = W.jslink((play, "value"), (s, "value"))  # the browser moves the slider as it plays
    assert isinstance(link, Link)
    assert link.source == (play, "value") and link.target == (s, "value")


def test_the_esm_draws_a_labelled_range_input_with_an_output():
    esm = IntSlider()._esm
    for piece in (
        'createElement("label")',
        'createElement("input")',
        'input.type = "range"',
        "label.htmlFor = id",
        'createElement("output")',
        "data-lm-suppress-shortcuts",
        "aria-valuetext",
        "export default",
    ):
        assert piece in esm, piece
    # every trait the front end reads is synced
    for name in ("value", "min", "max", "step", "description", "readout_format", "disabled"):
        assert f'"{name}"' in esm and name in IntSlider().keys, name
    assert "continuous_update" in esm and "base" in esm


def test_repr_names_the_value_and_holds_no_memory_address():
    """ipywidgets' containers print their children's reprs into a notebook's stored output."""
    from perclib.widgets.slider import FloatSlider, IntSlider

    for slider in (FloatSlider(0.5, min=0.0, max=1.0, description="eta"), IntSlider(3, max=9)):
        text = repr(slider)
        assert "0x" not in text and "object at" not in text
        assert text.startswith(type(slider).__name__ + "(value=")
    assert "'eta'" in repr(FloatSlider(0.5, min=0.0, max=1.0, description="eta"))
