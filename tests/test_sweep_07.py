"""Notebook 07 quotes tools/sweep_07_cv.py: shuffle 0 recomputed, the ten-shuffle totals stored in
notebooks/sweeps/07_cv.json, and the numbers the notebook's section 5 and 6 quote from them."""

import json

from perclib.datasets import load_digits
from tools.sweep_07_cv import STORED, shuffle, totals


def test_cv_sweep_matches_the_stored_table_and_the_quotes():
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    rows = stored["rows"]
    row = shuffle(0, *load_digits())
    for key, value in rows[0].items():  # shuffle 0 recomputed, key by key
        assert row[key] == (tuple(value) if isinstance(value, list) else value), key
    assert row["mean"] == {"multi": 0.947, "averaged": 0.966, "ovr": 0.939, "averaged ovr": 0.962}
    assert row["std"] == {"multi": 0.015, "averaged": 0.008, "ovr": 0.016, "averaged ovr": 0.007}
    assert row["averaged > averaged ovr"] == 15 and row["averaged - averaged ovr"] == (0.004, 0.005)
    assert row["multi > ovr"] == 11 and row["multi - ovr"] == (0.008, 0.023)
    # the ten shuffles (200 splits) as the notebook quotes them
    assert len(rows) == 10 and stored["totals"] == totals(rows)
    assert stored["totals"]["averaged > averaged ovr"] == 149
    assert stored["totals"]["averaged >= multi"] == 196
    assert stored["totals"]["8 as 1 largest"] == 60
    assert (
        min(r["8 as 1 largest"] for r in rows) == 4 and max(r["8 as 1 largest"] for r in rows) == 9
    )
    edges = [r["averaged - averaged ovr"][0] for r in rows]
    assert min(edges) == 0.003 and max(edges) == 0.008
    smaller = sum(r["std"]["averaged ovr"] < r["std"]["averaged"] for r in rows)
    equal = sum(r["std"]["averaged ovr"] == r["std"]["averaged"] for r in rows)
    assert (smaller, equal) == (3, 1)
