"""Notebook 07 quotes tools/sweep_07_cv.py for random_state 0; re-check that shuffle."""

from perclib.datasets import load_digits
from tools.sweep_07_cv import shuffle


def test_cv_sweep_matches_the_quoted_table():
    row = shuffle(0, *load_digits())
    assert row["mean"] == {"multi": 0.947, "averaged": 0.966, "ovr": 0.939, "averaged ovr": 0.962}
    assert row["std"] == {"multi": 0.015, "averaged": 0.008, "ovr": 0.016, "averaged ovr": 0.007}
    assert row["averaged > averaged ovr"] == 15 and row["averaged - averaged ovr"] == (0.004, 0.005)
    assert row["multi > ovr"] == 11
