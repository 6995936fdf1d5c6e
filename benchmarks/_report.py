"""Where ``make bench`` writes: one section per script, in ``benchmarks/results.md`` and in
README.md between ``<!-- bench:start -->`` and ``<!-- bench:end -->``.

Each script replaces only its own section, ``<!-- NAME:start -->`` ... ``<!-- NAME:end -->``,
which must appear exactly once in each file (inside the README's bench block), so running one
script alone leaves the other's table as it was.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results.md"
README = ROOT / "README.md"


def _replace(body, name, text, where):
    pattern = re.compile(rf"(<!-- {name}:start -->\n).*?(<!-- {name}:end -->)", re.S)
    found = len(pattern.findall(body))
    if found != 1:
        raise SystemExit(
            f"{where} has {found} <!-- {name}:start --> ... <!-- {name}:end --> sections; "
            "expected exactly one"
        )
    return pattern.sub(lambda m: m.group(1) + text + m.group(2), body)


def write_section(name, text):
    """Put ``text`` into the section ``name`` of results.md and of the README's bench block."""
    readme = README.read_text()
    block = re.search(r"<!-- bench:start -->\n.*?<!-- bench:end -->", readme, re.S)
    if block is None:
        raise SystemExit("README.md has no <!-- bench:start --> ... <!-- bench:end --> markers")
    new_block = _replace(block.group(0), name, text, "README.md's bench block")
    results = _replace(RESULTS.read_text(), name, text, "benchmarks/results.md")
    RESULTS.write_text(results)
    README.write_text(readme[: block.start()] + new_block + readme[block.end() :])
