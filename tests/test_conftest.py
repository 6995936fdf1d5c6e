"""The run's own set-up (../conftest.py): the user's Jupyter, IPython and matplotlib configuration
is swapped for empty temporary folders, and each test gets the marker of its tier.

That a hostile configuration really changes a notebook's outputs without this set-up, and not
with it, is checked end to end by tests/test_notebook_env.py.
"""

import os
import pathlib

import matplotlib
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture
def root(request):
    """../conftest.py, as pytest loaded it."""
    plugins = request.config.pluginmanager.get_plugins()
    return next(p for p in plugins if getattr(p, "__file__", None) == str(ROOT / "conftest.py"))


def test_config_folders_are_empty_temporary_folders(root):
    home = pathlib.Path.home()
    for name in root.ISOLATED:
        folder = pathlib.Path(os.environ[name])
        assert folder.is_dir() and folder.is_relative_to(root.CONFIG), name
        assert not folder.is_relative_to(home) or pathlib.Path(root.CONFIG).is_relative_to(home)
    for name in root.UNSET:
        assert name not in os.environ, name


def test_matplotlib_reads_the_isolated_folder_and_draws_with_agg(root):
    assert matplotlib.get_configdir() == os.environ["MPLCONFIGDIR"]
    assert matplotlib.get_backend().lower() == "agg"


@pytest.mark.parametrize(
    ("nodeid", "tier"),
    [
        ("notebooks/02_update_rule.ipynb::Cell 3", "notebooks"),
        ("tests/test_notebook_env.py::test_setup_cell_chooses_the_inline_backend", "notebooks"),
        ("labs/source/lab1/lab1.ipynb::Cell 0", "labs"),
        ("tests/test_labs.py::TestLabs::test_no_work_gets_no_marks[lab1-untouched]", "labs"),
        ("tests/browser/test_browser.py::test_stepper", "browser"),
        ("tests/test_theory.py::test_radius", "unit"),
        ("perclib/theory.py::perclib.theory.mistake_bound", "unit"),
    ],
)
def test_each_test_gets_the_tier_of_the_folder_or_file_it_lives_in(root, nodeid, tier):
    assert root.tier(nodeid) == tier


def test_this_test_is_marked_unit(request):
    assert request.node.get_closest_marker("unit") is not None
    assert request.node.get_closest_marker("notebooks") is None
