"""Notebook 06 quotes tools/sweep_06_early_stopping.py over 20 seeds; re-run it and compare."""

from tools.sweep_06_early_stopping import sweep


def test_early_stopping_sweep_gives_the_quoted_numbers():
    result = sweep(20)
    assert result["gain mean"] == 0.005 and result["gain std"] == 0.007
    assert (result["better"], result["tie"], result["worse"]) == (14, 4, 2)
    assert result["chosen epochs"][:3] == [20, 6, 6]
