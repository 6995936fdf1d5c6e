"""Notebook 07 quotes tools/sweep_07_cv.py: repetition 0 recomputed, the ten repetitions' totals
stored in notebooks/sweeps/07_cv.json, and the numbers the notebook's sections 5 and 6 quote
from them."""

import json
from pathlib import Path

from perclib.datasets import load_digits
from tools.sweep_07_cv import STORED, repetition, totals

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "07_multiclass.ipynb"
MODELS = {"multi", "averaged", "ovr", "averaged ovr"}


def _markdown():
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return " ".join(text.split())


def test_cv_sweep_matches_the_stored_table_and_the_quotes():
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    rows = stored["rows"]
    row = repetition(0, *load_digits())
    for key, value in rows[0].items():  # repetition 0 recomputed, key by key
        assert row[key] == (tuple(value) if isinstance(value, list) else value), key
    assert row["mean"] == {"multi": 0.947, "averaged": 0.966, "ovr": 0.939, "averaged ovr": 0.962}
    assert row["std"] == {"multi": 0.015, "averaged": 0.008, "ovr": 0.016, "averaged ovr": 0.007}
    assert row["averaged > averaged ovr"] == 15 and row["averaged - averaged ovr"] == (0.004, 0.005)
    assert row["multi > ovr"] == 11 and row["multi - ovr"] == (0.008, 0.023)
    # the ten repetitions (200 splits) as the notebook quotes them
    assert len(rows) == 10 and stored["totals"] == totals(rows)
    assert stored["totals"]["averaged > averaged ovr"] == 149
    assert stored["totals"]["averaged >= multi"] == 196
    assert stored["totals"]["8 as 1 largest"] == 60
    assert (
        min(r["8 as 1 largest"] for r in rows) == 4 and max(r["8 as 1 largest"] for r in rows) == 9
    )
    edges = [r["averaged - averaged ovr"][0] for r in rows]
    assert min(edges) == 0.003 and max(edges) == 0.008
    # the spreads unrounded (the sweep's own count), and how many of those agree at 3 decimals
    assert stored["totals"]["averaged ovr smaller spread"] == 4
    equal = sum(r["std"]["averaged ovr"] == r["std"]["averaged"] for r in rows)
    assert equal == 1


def test_every_repetition_has_the_same_fields():
    rows = json.loads(STORED.read_text(encoding="utf-8"))["rows"]
    assert len(rows) == 10
    fields = set(rows[0])
    for r in rows:
        assert set(r) == fields
        for key in ("mean", "std", "min accuracy"):
            assert set(r[key]) == MODELS, key
        assert len(r["averaged - averaged ovr"]) == 2 and len(r["multi - ovr"]) == 2


def test_notebook_quotes_the_stored_table():
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    rows, tot = stored["rows"], stored["totals"]
    r0 = rows[0]
    text = _markdown()
    names = {
        "multi": "multi-class",
        "ovr": "one-vs-rest",
        "averaged": "averaged multi-class",
        "averaged ovr": "averaged one-vs-rest",
    }
    for key, name in names.items():
        row = f"| {name} | {r0['mean'][key]:.3f} ± {r0['std'][key]:.3f} |"
        assert row in text, row
    edges = [r["averaged - averaged ovr"][0] for r in rows]
    smaller = tot["averaged ovr smaller spread"]  # unrounded
    equal = sum(r["std"]["averaged ovr"] == r["std"]["averaged"] for r in rows)  # at 3 decimals
    largest = [r["8 as 1 largest"] for r in rows]
    diff, mdiff = r0["averaged - averaged ovr"], r0["multi - ovr"]
    quotes = [
        f"averaged multi-class beat averaged one-vs-rest on {r0['averaged > averaged ovr']}, "
        f"by +{diff[0]:.3f} ± {diff[1]:.3f} split by split",
        f"averaged multi-class won on {tot['averaged > averaged ovr']} of 200 splits, by "
        f"{min(edges):.3f} to {max(edges):.3f} on average per repetition",
        f"averaged one-vs-rest's was smaller on {smaller} of the 10 repetitions (on {equal} of "
        "them by less than 0.0005, equal at three decimals)",
        f"multi-class beat one-vs-rest on {r0['multi > ovr']} of the 20 splits "
        f"(+{mdiff[0]:.3f} ± {mdiff[1]:.3f})",
        f"at least as good as the plain one on {tot['averaged >= multi']} of the 200 splits",
        f"on {min(largest)} to {max(largest)} of the 20 splits of each of the ten repetitions",
        f"{tot['8 as 1 largest']} of 200 in all",
    ]
    for quoted in quotes:
        assert quoted in text, quoted
