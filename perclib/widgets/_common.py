"""What the widgets share: the figure and its fast redraws, the artists of a boundary, the controls
of a stepper, the status line and the tables, and showing the widget."""

import html
import io
import numbers
import warnings

import ipywidgets as W
import numpy as np
import PIL.Image
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .. import _validation as V
from ..plotting.core import OKABE_ITO, _arrow, boundary_segment, halfplanes, plot_data
from .slider import IntSlider


def check_number(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}.")
    return float(value)


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


def html_table(head, rows, *, caption=None, background=None, padding="10px"):
    """A monospace HTML table: the ``head`` row, then ``rows`` (each a list of cell strings),
    every cell escaped; ``background`` colours the rows below the head."""
    cell = f"padding:2px {padding};text-align:center;border:1px solid #ddd"
    tr = "<tr>" if background is None else f"<tr style='background:{background}'>"
    body = "".join(
        tr + "".join(f"<td style='{cell}'>{html.escape(c)}</td>" for c in row) + "</tr>"
        for row in rows
    )
    caption = (
        f"<caption style='text-align:left'>{html.escape(caption)}</caption>" if caption else ""
    )
    return (
        f"<table style='border-collapse:collapse;font-family:monospace'>{caption}<tr>"
        + "".join(f"<th style='{cell}'>{html.escape(h)}</th>" for h in head)
        + f"</tr>{body}</table>"
    )


def fit_noting_convergence(model, X, y, **kwargs):
    """Fit ``model``; return the message of its ConvergenceWarning, or "" when it converged."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", V.ConvergenceWarning)
        model.fit(X, y, **kwargs)
    return str(caught[-1].message) if caught else ""


def new_figure(figsize):
    """A white figure drawn by Agg at 80 dots per inch, outside pyplot (the widget shows PNGs)."""
    fig = Figure(figsize=figsize, dpi=80, facecolor="white")
    FigureCanvasAgg(fig)
    return fig


def two_panels():
    """A figure of two axes side by side, with room below them for the legends."""
    fig = new_figure((10, 5.2))
    axes = fig.subplots(1, 2)
    fig.subplots_adjust(bottom=0.27)
    return fig, axes


def png(fig):
    """The whole figure, drawn afresh, as PNG bytes."""
    buf = io.BytesIO()
    fig.canvas.print_png(buf)
    return buf.getvalue()


class _Blit:
    """Fast PNG redraws of a figure in which only a few artists change (blitting).

    The axes, ticks and legend are drawn once into a background; each redraw restores it, draws
    only the changing artists (marked animated, in z-order) and encodes the canvas as a PNG.
    """

    def __init__(self, fig, dynamic):
        self.fig = fig
        self.dynamic = sorted(dynamic, key=lambda a: a.get_zorder())
        for artist in self.dynamic:
            artist.set_animated(True)
        self.background = None

    def png(self):
        canvas = self.fig.canvas
        if self.background is None:
            canvas.draw()
            self.background = canvas.copy_from_bbox(self.fig.bbox)
        canvas.restore_region(self.background)
        for artist in self.dynamic:
            self.fig.draw_artist(artist)
        buf = io.BytesIO()
        PIL.Image.fromarray(np.asarray(canvas.buffer_rgba())).save(
            buf, format="png", compress_level=1
        )
        return buf.getvalue()


def ring(ax, *, color, size, width, zorder, label):
    """An empty line of hollow circles, to ring points (``set_data`` places them)."""
    (line,) = ax.plot(
        [],
        [],
        linestyle="none",
        marker="o",
        markersize=size,
        markerfacecolor="none",
        markeredgecolor=color,
        markeredgewidth=width,
        zorder=zorder,
        label=label,
    )
    return line


class _Widget:
    """A widget shown as its ``box``; ``render`` gives its figure as PNG bytes."""

    _blit = None  # a _Blit, in a widget that redraws only the artists that change

    def _on_change(self, change):
        self.update()

    def render(self):
        """The figure as PNG bytes (what ``image`` shows)."""
        return png(self.fig) if self._blit is None else self._blit.png()

    def display(self):
        """Show the widget (a notebook cell may also just end with it)."""
        from IPython.display import display

        display(self.box)

    def _repr_mimebundle_(self, **kwargs):
        return self.box._repr_mimebundle_(**kwargs)


class _BoundaryWidget(_Widget):
    """A widget over 2-D data (``X``) whose boundary moves: the half-planes shaded (``pos_patch``,
    ``neg_patch``), a line and w as an arrow (``w_arrow``) labelled ``w_label``, in the square
    view ``xlim`` x ``ylim``. Only those artists and the ``points`` are redrawn (blitting)."""

    def _start_figure(self, figsize, y, *, scale, **margins):
        """The figure with the data; returns its axes."""
        self.fig = new_figure(figsize)
        self.ax = ax = self.fig.add_subplot()
        self.fig.subplots_adjust(left=0.1, bottom=0.11, **margins)
        plot_data(self.X, y, ax)
        self.xlim, self.ylim = square_view(ax, self.X, scale=scale, min_half=0.5)
        self.points = list(ax.collections)
        return ax

    def _add_boundary(self, ax, label):
        """Make the artists of the boundary; return its line (``_move_boundary`` moves them)."""
        self.pos_patch, self.neg_patch = (
            ax.fill([0, 0, 0], [0, 0, 0], color=OKABE_ITO[c], alpha=0.12, linewidth=0, zorder=0)[0]
            for c in ("blue", "vermillion")
        )
        (line,) = ax.plot([], [], color=OKABE_ITO["black"], linewidth=2.2, zorder=2, label=label)
        self.w_arrow = _arrow(ax, (0, 0), (0, 0), OKABE_ITO["black"], zorder=5)
        self.w_label = ax.text(
            0, 0, "w", ha="center", va="center", zorder=5, fontstyle="italic", fontsize=12
        )
        return line

    def _finish_figure(self, *lines):
        """The legend, then the blitting of the boundary, the points and ``lines``."""
        self.ax.legend(loc="upper left", bbox_to_anchor=(1.03, 1.0), fontsize=9, frameon=False)
        self.dynamic = [self.pos_patch, self.neg_patch, *self.points, *lines]
        self.dynamic += [self.w_arrow, self.w_label]
        self._blit = _Blit(self.fig, self.dynamic)

    def _set_line(self, line, w, b):
        """Put ``line`` on w.x + b = 0; return its ends, or None when it is not in the view."""
        seg = boundary_segment(w, b, self.xlim, self.ylim) if np.any(w != 0) else None
        if seg is None:
            line.set_data([], [])
        else:
            line.set_data(seg[:, 0], seg[:, 1])
        return seg

    def _move_boundary(self, line, w, b):
        """Move ``line``, the half-planes and the arrow to the boundary w.x + b = 0."""
        seg = self._set_line(line, w, b)
        pos, neg = halfplanes(w, b, self.xlim, self.ylim)
        for patch, poly in ((self.pos_patch, pos), (self.neg_patch, neg)):
            patch.set_visible(poly is not None)
            if poly is not None:
                patch.set_xy(poly)
        self.w_arrow.set_visible(seg is not None)
        self.w_label.set_visible(seg is not None)
        if seg is not None:
            mid = seg.mean(axis=0)
            d = w / np.linalg.norm(w) * 0.18 * (self.xlim[1] - self.xlim[0])
            self.w_arrow.xy = tuple(mid + d)
            self.w_arrow.set_position(tuple(mid))
            self.w_label.set_position(tuple(mid + 1.15 * d))


class _StepWidget(_Widget):
    """A widget that walks through steps: a step slider, a play button and previous/next."""

    def _build_navigation(self):
        """Make the controls; return them in the order they are shown."""
        self.slider = IntSlider(
            value=0, min=0, max=0, description="step", layout=W.Layout(width="420px")
        )
        self.play = W.Play(value=0, min=0, max=0, interval=700, description="play")
        self._link = W.link((self.play, "value"), (self.slider, "value"))
        self.play_button = play_button(self.play)
        self.prev_button = W.Button(description="◀ previous", layout=W.Layout(width="110px"))
        self.next_button = W.Button(description="next ▶", layout=W.Layout(width="110px"))
        self.prev_button.on_click(lambda _: self.go(-1))
        self.next_button.on_click(lambda _: self.go(+1))
        return [self.play_button, self.play, self.prev_button, self.slider, self.next_button]

    def _show(self):
        """Redraw the figure, the table and the status line for the current ``state``."""
        self._draw()
        self.table.value = self._table_html()
        self.status.value = status_html(self.message)
        self.image.value = self.render()

    def _on_step(self, change):
        if not self._busy:
            self.update()

    def go(self, delta):
        """Move the slider ``delta`` places (clamped to its ends)."""
        self.slider.value = int(np.clip(self.slider.value + delta, 0, self.slider.max))


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
