"""Show a figure with alt text, the same way in the notebook, JupyterLab and the handouts.

A figure shown by the inline backend is a bare PNG: screen readers get nothing. :func:`show_figure`
renders the figure once, at a fixed size and resolution that do not depend on the user's matplotlib
settings, and displays it as an HTML ``<img>`` with an ``alt`` attribute (which JupyterLab, Jupyter
Book and the PDF handouts all render), with the PNG itself and the alt text as the plain-text
fallback. The figure is then closed, so the inline backend does not draw it a second time.

>>> import matplotlib.pyplot as plt
>>> fig, ax = plt.subplots(figsize=(2, 2))
>>> shown = figure_with_alt(fig, "An empty square plot.")
>>> shown.alt, shown.png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
('An empty square plot.', True)
>>> print(shown)
[Figure: An empty square plot.]
"""

from __future__ import annotations

import base64
import html
import io

import matplotlib
import matplotlib.pyplot as plt

__all__ = ["FigureWithAlt", "figure_with_alt", "reset_style", "show_figure"]

#: Dots per inch of every stored figure (whatever the rc says; the PNG is cropped to what is drawn).
DPI = 100


def reset_style():
    """Forget the user's matplotlib settings (matplotlibrc, style sheets): back to matplotlib's own
    defaults, with white figures. The notebooks call it once in their set-up cell."""
    matplotlib.rcdefaults()
    matplotlib.rcParams.update(
        {"figure.facecolor": "white", "axes.facecolor": "white", "savefig.facecolor": "white"}
    )


class FigureWithAlt:
    """A rendered figure and its alt text; it displays as ``<img alt=...>`` with a PNG fallback."""

    def __init__(self, png: bytes, alt: str):
        self.png = png
        self.alt = alt

    def __str__(self):
        return f"[Figure: {self.alt}]"

    __repr__ = __str__

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = base64.b64encode(self.png).decode("ascii")
        tag = (
            f'<img src="data:image/png;base64,{data}" alt="{html.escape(self.alt, quote=True)}" '
            f'style="max-width:100%;height:auto"/>'
        )
        return {"text/html": tag, "image/png": data, "text/plain": str(self)}


def figure_with_alt(fig, alt):
    """Render ``fig`` (PNG, :data:`DPI` dots per inch, white) with its alt text, and close it.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    alt : str
        What the figure shows, for a reader who cannot see it (one or two sentences).
    """
    if not hasattr(fig, "savefig"):
        raise ValueError(f"fig must be a matplotlib Figure; got {type(fig).__name__}.")
    if not isinstance(alt, str) or len(alt.split()) < 3:
        raise ValueError(
            "alt must be a sentence that says what the figure shows (at least three words)."
        )
    buf = io.BytesIO()
    fig.savefig(
        buf,
        format="png",
        dpi=DPI,
        facecolor="white",
        bbox_inches="tight",
        pad_inches=0.1,
        metadata={"Software": None},
    )  # tight: legends and labels outside the axes are kept
    plt.close(fig)
    return FigureWithAlt(buf.getvalue(), " ".join(alt.split()))


def show_figure(fig=None, alt=None):
    """Display ``fig`` (default: the current figure) with alt text, and close it.

    Use it where a notebook would call ``plt.show()``: ``show_figure(fig, alt="...")``.
    """
    fig = plt.gcf() if fig is None else fig
    shown = figure_with_alt(fig, alt)
    try:
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython is a dependency of the course
        print(shown)
        return None
    display(shown)
    return None
