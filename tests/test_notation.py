"""One notation for the course: notebook 01 shows the handouts' table verbatim, and the converted
notebooks do not fall back on the old names of the augmented vectors."""

import pathlib
import re

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- notation-table: begin -->", "<!-- notation-table: end -->"


def _table(text):
    return text[text.index(BEGIN) : text.index(END) + len(END)]


def _markdown(name):
    nb = nbformat.read(next((ROOT / "notebooks").glob(f"{name}_*.ipynb")), as_version=4)
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def _symbols(table):
    return [r.split("|")[1].strip() for r in table.splitlines() if r.startswith("| $")]


def test_notebook_01_shows_the_handouts_rows_it_uses():
    """01 shows only its own symbols (later notebooks add theirs), as the handouts define them."""
    ours = _symbols(_table(_markdown("01")))
    book = _symbols(_table((ROOT / "book" / "notation.md").read_text()))
    assert ours and set(ours) <= set(book)
    for later in ("\\eta", "\\gamma^*", "R =", "\\mathbf{w}_k"):
        assert not any(later in s for s in ours), later


def test_the_handouts_list_the_notation_page():
    assert '"- file: notation"' in (ROOT / "tools" / "build_handouts.py").read_text()


def test_every_symbol_of_the_table_is_defined_once():
    rows = [
        r
        for r in _table((ROOT / "book" / "notation.md").read_text()).splitlines()
        if r.startswith("| $")
    ]
    symbols = [r.split("|")[1].strip() for r in rows]
    assert len(symbols) == len(set(symbols)) and len(symbols) >= 15


@pytest.mark.parametrize("name, mappings", [("01", 1), ("02", 0), ("03", 3), ("04", 0)])
def test_no_old_names_for_the_augmented_vectors(name, mappings):
    """03 maps the lecture's theta onto w~ (in its outline, notation section and summary)."""
    text = _markdown(name)
    if BEGIN in text:
        text = text.replace(_table(text), "")
    assert not re.search(r"\\mathbf\{z\}|\\mathbf\{v\}", text)  # z and v were used for x~ and w~
    # theta appears only as the lecture's name, mapped onto w~ (and as McCulloch-Pitts' threshold)
    assert text.count("\\boldsymbol\\theta") <= mappings


def test_04_uses_the_tables_symbols_for_the_augmented_vectors():
    """04 used a bare z for x~ and v for w~ (v*, v_k, z_i); now it writes them with tildes."""
    text = _markdown("04")
    maths = " ".join(re.findall(r"\$\$?(.+?)\$\$?", text, flags=re.S))
    assert not re.search(r"(?<![\\\w{])[vz](?:\^|_|\s*=|\\cdot)", maths)
    for symbol in (
        "\\tilde{\\mathbf{x}}",
        "\\tilde{\\mathbf{w}}^*",
        "\\tilde{\\mathbf{w}}_k",
        "\\gamma^*",
    ):
        assert symbol in text
