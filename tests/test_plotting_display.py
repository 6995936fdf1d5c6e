"""perclib.plotting.display: every figure carries alt text, and its PNG ignores the user's rc."""

import base64
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest

from perclib.plotting import plot_data
from perclib.plotting.display import DPI, figure_with_alt, reset_style, show_figure


def _figure():
    fig, ax = plt.subplots(figsize=(3, 2))
    plot_data([[0.0, 0.0], [1.0, 1.0]], [-1, 1], ax)
    return fig


def test_bundle_has_alt_text_in_html_and_plain_text():
    bundle = figure_with_alt(_figure(), 'Two points: a "circle" & a cross.')._repr_mimebundle_()
    assert set(bundle) == {"text/html", "image/png", "text/plain"}
    alt = re.search(r'alt="([^"]*)"', bundle["text/html"]).group(1)
    assert alt == "Two points: a &quot;circle&quot; &amp; a cross."
    assert bundle["text/plain"] == '[Figure: Two points: a "circle" & a cross.]'
    src = re.search(r'src="data:image/png;base64,([^"]*)"', bundle["text/html"]).group(1)
    assert src == bundle["image/png"] and base64.b64decode(src)[:4] == b"\x89PNG"


def test_png_size_and_bytes_ignore_the_users_rc():
    first = figure_with_alt(_figure(), "Two points on a plane.").png
    with matplotlib.rc_context(
        {"figure.dpi": 37, "savefig.dpi": 300, "savefig.facecolor": "black"}
    ):
        second = figure_with_alt(_figure(), "Two points on a plane.").png
    assert first == second
    width, height = int.from_bytes(first[16:20], "big"), int.from_bytes(first[20:24], "big")
    assert (
        2 * DPI < width <= 3 * DPI + 20 and DPI < height <= 2 * DPI + 20
    )  # cropped to what is drawn


def test_reset_style_forgets_the_users_settings():
    matplotlib.rcParams["lines.linewidth"] = 9.0
    reset_style()
    assert matplotlib.rcParams["lines.linewidth"] == matplotlib.rcParamsDefault["lines.linewidth"]
    assert matplotlib.rcParams["figure.facecolor"] == "white"


def test_the_figure_is_closed_and_shown_once(capsys):
    fig = _figure()
    show_figure(fig, alt="Two points on a plane.")
    assert not plt.fignum_exists(fig.number)


@pytest.mark.parametrize("alt", [None, "", "plot", 3])
def test_alt_text_is_required(alt):
    with pytest.raises(ValueError, match="alt"):
        figure_with_alt(_figure(), alt)
    plt.close("all")


def test_not_a_figure():
    with pytest.raises(ValueError, match="Figure"):
        figure_with_alt("fig", "a figure of nothing")
