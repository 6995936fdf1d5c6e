"""Where ``make bench`` writes: one section per script, in ``benchmarks/results.md``.

Each script replaces only its own section, ``<!-- NAME:start -->`` ... ``<!-- NAME:end -->``,
which must appear exactly once in the file, so running one script alone leaves the other's
table as it was.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results.md"


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
    """Put ``text`` into the section ``name`` of results.md."""
    RESULTS.write_text(_replace(RESULTS.read_text(), name, text, "benchmarks/results.md"))
