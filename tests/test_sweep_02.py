"""Notebook 02 quotes tools/sweep_02_bias_scale.py; the sweep gives those numbers."""

import pathlib
import sys

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.sweep_02_bias_scale import draw, summary  # noqa: E402


def test_the_bias_scale_sweep_gives_the_numbers_notebook_02_quotes():
    got = summary([draw(seed) for seed in range(20)])
    assert got == {
        "centred, constant 1 fewer": 15,
        "centred, ties": 3,
        "centred, constant 10 fewer": 2,
        "moved up, constant 10 fewer": 19,
        "moved up, constant 10 at least 10x fewer": 18,
        "moved up, ties": 1,
        "moved up, median with constant 1": 6676.5,
        "moved up, median with constant 10": 133.5,
    }
    nb = nbformat.read(ROOT / "notebooks" / "02_update_rule.ipynb", as_version=4)
    text = " ".join(" ".join(c.source.split()) for c in nb.cells if c.cell_type == "markdown")
    for quoted in (
        "fewer updates in 19 of 20 draws",
        "at least 10 times fewer in 18",
        "15 of 20",
        "3 ties and 2 reversals",
        "median 6676.5 updates",
        "133.5 with the constant 10",
    ):
        assert quoted in text, quoted
