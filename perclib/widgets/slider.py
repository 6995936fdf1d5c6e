"""Sliders a screen reader can name and a keyboard can move: a native ``<input type="range">``.

ipywidgets 8 draws its sliders with noUiSlider: the handle is a ``div`` with ``role="slider"``
apart from the description's ``<label>``, so in JupyterLab it has no accessible name (axe-core's
``aria-input-field-name`` rule) and nothing in ipywidgets' Python API can give it one. These
sliders are anywidget widgets (the front end is ``slider.js``, beside this file) drawing a browser's
own range input, named by a ``<label>``, its value shown in an ``<output>``: the browser moves it
with the arrow keys, Page Up/Down, Home and End, and tells screen readers its name and value.

They keep ipywidgets' traits and behaviour where perclib uses them: ``value``, ``min``, ``max``,
``step``, ``description``, ``continuous_update``, ``readout_format`` and ``disabled``; ``value`` is
kept within ``[min, max]`` and ``min <= max``. ``ipywidgets.link`` and ``ipywidgets.jslink`` (a
Play's value, in the browser) work on ``value`` as on any widget.

>>> s = IntSlider(value=3, min=0, max=10, description="step")
>>> s.max = 2  # the value follows the bound down
>>> s.value
2
"""

import pathlib
import re

import anywidget
import traitlets

_ESM = (pathlib.Path(__file__).parent / "slider.js").read_text(encoding="utf-8")
_CSS = """
.perclib-slider { display: flex; align-items: center; gap: 8px; width: 300px;
                  min-height: 28px; box-sizing: border-box; }
.perclib-slider label { flex: 0 0 auto; min-width: 40px; text-align: right; }
.perclib-slider input[type="range"] { flex: 1 1 auto; min-width: 60px; margin: 0; }
.perclib-slider output { flex: 0 0 auto; min-width: 3em; font-variant-numeric: tabular-nums; }
"""
_FORMAT = re.compile(r"d|\.\d+[fg]")


class _Slider(anywidget.AnyWidget):
    _esm = _ESM
    _css = _CSS
    description = traitlets.Unicode("").tag(sync=True)
    continuous_update = traitlets.Bool(True).tag(sync=True)
    readout_format = traitlets.Unicode(".2f").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)

    def __init__(self, value=None, **kwargs):
        super().__init__()
        # Checked together at the end of the block (traitlets holds cross-validation until then):
        # the value against the new bounds, whatever order they are given in.
        with self.hold_trait_notifications():
            for name, given in kwargs.items():
                setattr(self, name, given)
            self.value = self._lowest() if value is None else value

    def __repr__(self):
        # A plain repr (ipywidgets' containers print their children's): no memory address.
        return (
            f"{type(self).__name__}(value={self.value!r}, min={self.min!r}, max={self.max!r}, "
            f"description={self.description!r})"
        )

    def _lowest(self):
        return self.min

    def _highest(self):
        return self.max

    @traitlets.validate("value")
    def _valid_value(self, proposal):
        return min(max(proposal["value"], self._lowest()), self._highest())

    @traitlets.validate("min", "max")
    def _valid_bounds(self, proposal):
        low, high = (
            (proposal["value"], self.max)
            if proposal["trait"].name == "min"
            else (self.min, proposal["value"])
        )
        if low > high:
            raise ValueError(f"min must not exceed max; got min={low!r}, max={high!r}.")
        return proposal["value"]

    @traitlets.observe("min", "max")
    def _keep_value_inside(self, change):
        self.value = self.value  # validated again: into the new bounds

    @traitlets.validate("step")
    def _valid_step(self, proposal):
        if not proposal["value"] > 0:
            raise ValueError(f"step must be positive; got {proposal['value']!r}.")
        return proposal["value"]

    @traitlets.validate("readout_format")
    def _valid_format(self, proposal):
        if not _FORMAT.fullmatch(proposal["value"]):
            raise ValueError(
                f"readout_format must be 'd', '.Nf' or '.Ng'; got {proposal['value']!r}."
            )
        return proposal["value"]


class IntSlider(_Slider):
    """An integer slider (``ipywidgets.IntSlider``'s traits), drawn as a labelled range input."""

    value = traitlets.CInt(0).tag(sync=True)
    min = traitlets.CInt(0).tag(sync=True)
    max = traitlets.CInt(100).tag(sync=True)
    step = traitlets.CInt(1).tag(sync=True)
    readout_format = traitlets.Unicode("d").tag(sync=True)


class FloatSlider(_Slider):
    """A float slider (``ipywidgets.FloatSlider``'s traits), drawn as a labelled range input."""

    value = traitlets.CFloat(0.0).tag(sync=True)
    min = traitlets.CFloat(0.0).tag(sync=True)
    max = traitlets.CFloat(10.0).tag(sync=True)
    step = traitlets.CFloat(0.1).tag(sync=True)


class FloatLogSlider(FloatSlider):
    """A slider over ``base ** exponent`` (``ipywidgets.FloatLogSlider``'s traits): ``min``,
    ``max`` and ``step`` are exponents; ``value`` is the number itself."""

    base = traitlets.CFloat(10.0).tag(sync=True)
    max = traitlets.CFloat(4.0).tag(sync=True)
    readout_format = traitlets.Unicode(".3g").tag(sync=True)

    @traitlets.validate("base")
    def _valid_base(self, proposal):
        if not proposal["value"] > 1:
            raise ValueError(f"base must exceed 1; got {proposal['value']!r}.")
        return proposal["value"]

    def _lowest(self):
        return self.base**self.min

    def _highest(self):
        return self.base**self.max
