"""Every widget's controls carry a label and its figure a text description (for screen readers).

In the browser, ipywidgets shows a control's ``description`` as its label and an image's
``tooltip`` as its title; tests/browser checks what a browser makes of them (axe-core, keys only).
A Play's own buttons are bare icons with no name: perclib hides the Play and shows a named
play/pause button that drives it (``_common.play_button``). ipywidgets' sliders draw a handle apart
from their label, which leaves it unnamed in JupyterLab: perclib's own sliders (a labelled
``<input type="range">``, perclib/widgets/slider.py) stand in for them, in every widget.
"""

import ipywidgets as W
import pytest
from ipywidgets.widgets.widget_link import Link

from perclib.datasets import worked_example
from perclib.widgets import (
    BoundaryExplorer,
    EnsembleExplorer,
    KernelStepper,
    MarginExplorer,
    MulticlassStepper,
    SGDExplorer,
    Stepper,
    slider,
)
from perclib.widgets._common import PAUSE, PLAY, figure_image, play_button

# ipywidgets' sliders, unnamed in JupyterLab: no widget may show one.
NOUI_SLIDERS = (W.IntSlider, W.FloatSlider, W.FloatLogSlider, W.SelectionSlider)
CONTROLS = (
    slider.IntSlider,
    slider.FloatSlider,
    slider.FloatLogSlider,
    *NOUI_SLIDERS,
    W.Dropdown,
    W.FloatText,
    W.BoundedFloatText,
    W.Checkbox,
    W.ToggleButton,
    W.Play,
    W.Button,
)

WIDGETS = {
    "Stepper": lambda: Stepper(*worked_example()),
    "BoundaryExplorer": lambda: BoundaryExplorer(*worked_example()),
    "MarginExplorer": lambda: MarginExplorer(n_samples=20, margin=0.3),
    "EnsembleExplorer": lambda: EnsembleExplorer(n_samples=40, n_test=40),
    "SGDExplorer": lambda: SGDExplorer(),
    "MulticlassStepper": lambda: MulticlassStepper(),
    "KernelStepper": lambda: KernelStepper(*worked_example()),
}


def leaves(widget):
    """Every widget inside a box, depth first."""
    children = getattr(widget, "children", None)
    if children is None:
        return [widget]
    return [leaf for child in children for leaf in leaves(child)]


@pytest.mark.parametrize("name", sorted(WIDGETS))
def test_every_control_is_labelled_and_the_figure_described(name):
    parts = leaves(WIDGETS[name]().box)
    controls = [w for w in parts if isinstance(w, CONTROLS)]
    images = [w for w in parts if isinstance(w, W.Image)]
    assert controls and images
    unlabelled = [type(w).__name__ for w in controls if not w.description.strip()]
    assert unlabelled == [], f"{name}: controls without a description: {unlabelled}"
    for image in images:
        assert len(image.tooltip or "") > 40, f"{name}: its figure has no description"
        # ipywidgets' view reads `description` whenever a tooltip is set: it must exist, empty
        assert image.description == "" and "description" in image.keys


@pytest.mark.parametrize("name", sorted(WIDGETS))
def test_no_widget_uses_an_ipywidgets_slider(name):
    parts = leaves(WIDGETS[name]().box)
    assert [type(w).__name__ for w in parts if isinstance(w, NOUI_SLIDERS)] == []
    assert any(isinstance(w, slider._Slider) for w in parts), f"{name} has no slider"


def test_figure_image_keeps_the_alt_text_and_can_tell_a_bare_image():
    assert figure_image("the data and the boundary").tooltip == "the data and the boundary"
    assert "description" not in W.Image().keys  # why figure_image adds one


def shown(widget):
    return widget.layout.display != "none"


@pytest.mark.parametrize("name", sorted(WIDGETS))
def test_no_play_is_shown_and_each_has_a_named_button_that_drives_it(name):
    widget = WIDGETS[name]()
    parts = leaves(widget.box)
    plays = [w for w in parts if isinstance(w, W.Play)]
    assert [w for w in plays if shown(w)] == [], f"{name} shows a Play's unnamed icon buttons"
    if not plays:
        assert not hasattr(widget, "play")
        return
    assert plays == [widget.play]
    button = widget.play_button
    assert button in parts and shown(button)
    assert button.description == PLAY and button.value is False
    link = button._play_link
    assert isinstance(link, Link)
    assert link.source == (button, "value") and link.target == (widget.play, "playing")


def test_play_button_relabels_and_links_in_the_browser():
    play = W.Play(value=0, min=0, max=5, interval=700, description="play")
    button = play_button(play)
    assert play.layout.display == "none" and "0.7 s" in button.tooltip
    assert isinstance(button._play_link, Link)  # jslink: the browser moves the Play
    button.value = True
    assert button.description == PAUSE
    button.value = False
    assert button.description == PLAY
    playing = W.Play(playing=True)
    assert play_button(playing).description == PAUSE and play_button(playing).value is True
