"""tools/lazy_rfc3987.py: rfc3987_syntax stands in until it is used, then is the real module.

A small package of the same name in a temporary folder plays the real one: the tests see when it
is imported, and what its function answers.
"""

import sys

import pytest

from tools import lazy_rfc3987 as L

FAKE = """
IMPORTS = IMPORTS + 1 if "IMPORTS" in globals() else 1
def is_valid_syntax(term, value):
    return f"{term}:{value}"
GRAMMAR = "rfc3987"
"""


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """A fake rfc3987_syntax first on sys.path, and none imported yet."""
    (tmp_path / "rfc3987_syntax").mkdir()
    (tmp_path / "rfc3987_syntax" / "__init__.py").write_text(FAKE)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [n for n in sys.modules if n.split(".")[0] == L.NAME]:
        monkeypatch.delitem(sys.modules, name)  # put back after the test
    yield tmp_path
    sys.modules.pop(L.NAME, None)


def test_the_stand_in_until_first_use_then_the_real_module(fake):
    assert L.install() is L._stand_in
    from rfc3987_syntax import is_valid_syntax  # as jsonschema imports it

    assert sys.modules[L.NAME] is L._stand_in  # not imported yet
    assert is_valid_syntax("iri", "http://example.org/ä") == "iri:http://example.org/ä"
    real = sys.modules[L.NAME]
    assert real is not L._stand_in and real.IMPORTS == 1
    assert is_valid_syntax("iri_reference", "a/b") == "iri_reference:a/b"
    assert sys.modules[L.NAME].IMPORTS == 1  # imported once
    assert L._stand_in.GRAMMAR == "rfc3987"  # any other public name: the real module's


def test_private_names_do_not_import_it(fake):
    L.install()
    for name in ("__file__", "__path__", "_mock_name"):
        assert getattr(sys.modules[L.NAME], name, None) is None
    assert sys.modules[L.NAME] is L._stand_in


def test_an_import_that_fails_leaves_the_stand_in_for_the_next_use(fake):
    L.install()
    (fake / "rfc3987_syntax" / "__init__.py").write_text("raise ImportError('broken')")
    with pytest.raises(ImportError, match="broken"):
        L.is_valid_syntax("iri", "x")
    assert sys.modules[L.NAME] is L._stand_in
    (fake / "rfc3987_syntax" / "__init__.py").write_text(FAKE)
    assert L.is_valid_syntax("iri", "x") == "iri:x"


def test_nothing_to_stand_in_for(fake, monkeypatch):
    monkeypatch.setitem(sys.modules, L.NAME, "already imported")
    assert L.install() == "already imported"  # left as it is
    monkeypatch.delitem(sys.modules, L.NAME)
    (fake / "rfc3987_syntax" / "__init__.py").unlink()
    (fake / "rfc3987_syntax").rmdir()
    monkeypatch.setattr(sys, "path", [p for p in sys.path if "site-packages" not in p])
    assert L.install() is None and L.NAME not in sys.modules  # not installed: no stand-in
