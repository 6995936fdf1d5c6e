"""Pieces every widget uses: a square view around the data, the status line, the figure's image."""

import html

import ipywidgets as W
import numpy as np
import traitlets

from ..plotting.core import OKABE_ITO


def square_view(ax, points, *, scale, min_half=0.0, pad=0.3):
    """Set equal, square limits centred on ``points`` (half-width max(spread/2, min_half)*scale + pad).

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
