"""Shared test setup. Agg and the isolated Jupyter/IPython/matplotlib folders: ../conftest.py."""

import matplotlib.pyplot as plt
import pytest


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")
