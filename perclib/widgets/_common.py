"""Pieces every widget uses: a square view around the data, the status line, the figure's image."""

import html

import ipywidgets as W
import numpy as np
import traitlets

from ..plotting.core import OKABE_ITO


def square_view(ax, points, *, scale, min_half=0.0, pad=0.3):
    """Set equal, square limits centred on ``points``.

    The half-width is max(spread/2, min_half)*scale + pad.

    Returns (xlim, ylim).
    """
    lo, hi = points.min(axis=0), points.max(axis=0)
    centre, half = (lo + hi) / 2, max(float(np.max(hi - lo)) / 2, min_half) * scale + pad
    xlim = (centre[0] - half, centre[0] + half)
    ylim = (centre[1] - half, centre[1] + half)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_aspect("equal", adjustable="box")
    return xlim, ylim


def status_html(message):
    """The widget's status line: the message in vermillion, or nothing."""
    return (
        f"<span style='color:{OKABE_ITO['vermillion']}'>{html.escape(message)}</span>"
        if message
        else ""
    )


class _Figure(W.Image):
    # ipywidgets 8's view sets a tooltip as the element's title only when the widget's description
    # is empty, and reads the description even for an Image, which has none (the view then fails).
    description = traitlets.Unicode("").tag(sync=True)


def figure_image(alt):
    """The PNG image widget of a figure, named for screen readers by ``alt`` (its tooltip, shown
    as the <img>'s title; the handouts copy it into the alt text)."""
    return _Figure(format="png", tooltip=alt)


PLAY, PAUSE = "▶ play", "❚❚ pause"


def play_button(play):
    """A play/pause button, named by its text, that drives ``play`` (an ipywidgets.Play).

    ipywidgets 8 draws a Play as three buttons holding only an icon, so in JupyterLab they have
    no accessible name (a screen reader says "button", axe-core's button-name rule fails them),
    and nothing in ipywidgets' Python API can name them. This ToggleButton shows its description
    as its text, which names it; the Play stays in the widget but hidden (``display: none``: no
    tab stop, nothing a screen reader meets), because its view is what runs the animation in the
    browser. The two are linked in the browser (jslink), as the Play's own button would be: pressed,
    the Play plays (from the first step when it stands on the last) and the button reads "pause";
    at the last step the Play stops and the button pops back to "play".
    """
    play.layout.display = "none"
    button = W.ToggleButton(
        value=bool(play.playing),
        description=PAUSE if play.playing else PLAY,
        tooltip="play through the steps, one every "
        f"{play.interval / 1000:g} s; press again to pause",
        layout=W.Layout(width="90px"),
    )
    button.add_class("perclib-play")
    button._play_link = W.jslink((button, "value"), (play, "playing"))

    def relabel(change):
        button.description = PAUSE if change["new"] else PLAY

    button.observe(relabel, names="value")
    return button
