"""Notebook 06 quotes tools/sweep_06_early_stopping.py, stored in
notebooks/sweeps/06_early_stopping.json: recompute the sweeps, compare them with the stored table,
and find the quoted numbers in the notebook's text."""

import json
import re
from pathlib import Path

from tools.sweep_06_early_stopping import STORED, last_vs_longest, sweep

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "06_voting_averaging.ipynb"


def _markdown():
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return " ".join(text.split())


def test_early_stopping_sweep_matches_the_stored_table():
    stored = json.loads(STORED.read_text(encoding="utf-8"))["early stopping"]
    assert {"seeds": 20, **sweep(20)} == stored


def test_last_vs_longest_matches_the_stored_table():
    stored = json.loads(STORED.read_text(encoding="utf-8"))["last vs longest"]
    assert last_vs_longest(stored["seeds"]) == stored


def test_notebook_quotes_the_stored_sweeps():
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    text = _markdown()
    last = stored["last vs longest"]
    quoted = f"over {last['seeds']} seeds (data and order) that held in {last['last worse']}"
    assert quoted in text, quoted
    early = stored["early stopping"]
    quoted = (
        f"`tools/sweep_06_early_stopping.py`, {early['seeds']} seeds) gained "
        f"{early['gain mean']} ± {early['gain std']} in test error over simply running 20 epochs: "
        f"better on {early['better']} seeds, the same on {early['tie']}, worse on {early['worse']}"
    )
    assert quoted in text, quoted
    summary = (
        f"gained a small but consistent {early['gain mean']} (± {early['gain std']} over "
        f"{early['seeds']} seeds; better on {early['better']}, worse on {early['worse']})"
    )
    assert summary in text, summary


def test_notebook_quotes_the_stored_benchmark_ratio():
    results = (NOTEBOOK.parents[1] / "benchmarks" / "results.md").read_text(encoding="utf-8")
    section = results.split("### Naive against lazy averaging on sparse data", 1)[1]
    ratio = re.search(r"naive/lazy = ([0-9.]+)", section).group(1)
    quoted = f"found the naive average {ratio} times slower than the lazy one in its stored run"
    assert quoted in _markdown(), quoted
