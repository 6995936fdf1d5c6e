"""tools/bytecode.py: the installed packages' folders it compiles, their tests left out."""

import pathlib

import pytest

from tools import bytecode as B


def test_the_folders_of_installed_packages_and_not_of_missing_ones():
    import _pytest
    import pluggy

    got = B.folders(["pluggy", "no_such_package_here", "_pytest"])
    assert [pathlib.Path(f) for f in got] == [
        pathlib.Path(pluggy.__file__).parent,
        pathlib.Path(_pytest.__file__).parent,
    ]


def test_a_module_is_not_a_folder():
    assert B.folders(["six_is_not_here", "glob"]) == []  # glob: a module, not a package


@pytest.mark.parametrize(
    "path, skipped",
    [
        ("/v/site-packages/pandas/tests/frame/test_api.py", True),
        ("/v/site-packages/numpy/testing/_private/utils.py", True),
        ("C:\\v\\site-packages\\sklearn\\utils\\tests\\test_x.py", True),
        ("/v/site-packages/IPython/core/test/x.py", True),
        ("/v/site-packages/IPython/core/interactiveshell.py", False),
        ("/v/site-packages/nbformat/testing_helpers.py", False),
        ("/v/site-packages/pytest_tests_plugin/x.py", False),
    ],
)
def test_the_packages_own_tests_are_left_out(path, skipped):
    assert bool(B.SKIP.search(path)) is skipped
