"""Notebook 05 quotes notebooks/sweeps/05_mistake_bound.json: recompute its first seeds, compare the
quoted numbers with the stored ones, and check that the perclib paths the notebook names exist."""

import importlib.util
import json
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
_PATH = ROOT / "tools" / "sweep_05_mistake_bound.py"
_spec = importlib.util.spec_from_file_location("sweep_05_mistake_bound", _PATH)
sweep_05 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sweep_05)
NOTEBOOK = ROOT / "notebooks" / "05_non_separable.ipynb"


def _markdown():
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_stored_sweep_matches_a_recomputation_of_its_first_50_seeds():
    table = json.loads(sweep_05.OUT.read_text())
    k, bound = sweep_05.sweep(range(50))
    assert table["updates"][:50] == k.tolist()
    assert np.allclose(table["bound"][:50], bound, rtol=1e-9)
    assert len(table["updates"]) == 1000
    stored = sweep_05.summary(np.array(table["updates"]), np.array(table["bound"]))
    assert stored == table["summary"]


def test_notebook_quotes_the_stored_sweep():
    s = json.loads(sweep_05.OUT.read_text())["summary"]
    text = " ".join(_markdown().split())
    quoted = (
        f"the bound held on all {s['holds']}, with updates / bound between {s['smallest']:.2f} and "
        f"{s['largest']:.2f}, median {s['median']:.2f}"
    )
    assert s["holds"] == s["seeds"] == 1000
    assert quoted in text, quoted


def test_perclib_paths_named_in_notebook_05_exist():
    text = NOTEBOOK.read_text()
    paths = set(re.findall(r"(?:perclib|tools|tests|notebooks)/[\w/]+\.(?:py|json)", text))
    assert paths, "the notebook names no file"
    for path in paths:
        assert (ROOT / path).exists(), path
