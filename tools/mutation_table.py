"""Print mutmut's results as a table for tests/MUTATION.md: mutants, killed, survived, score.

Run after ``mutmut run`` (``make mutation`` does): it reads ``mutmut results --all true``.
A module none of whose mutants has run yet (``make mutation MUTANTS=...`` ran others) is left
out; the score counts the mutants that ran. The equivalent survivors are listed, with the reason,
in tests/EQUIVALENT_MUTANTS.md.
"""

from __future__ import annotations

import collections
import subprocess
import sys


def main() -> int:
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for line in out.splitlines():
        if ": " not in line:
            continue
        name, status = line.strip().rsplit(": ", 1)
        counts[name.split(".")[1]][status] += 1
    print("| Module | Mutants run | Killed | Survived | Other | Score |")
    print("|---|---|---|---|---|---|")
    for module in sorted(counts):
        c = counts[module]
        ran = sum(c.values()) - c["not checked"]
        if ran == 0:
            continue
        killed = c["killed"] + c["timeout"]
        other = ran - killed - c["survived"]
        print(
            f"| `{module}` | {ran} | {killed} | {c['survived']} | {other} "
            f"| {100 * killed / ran:.1f}% |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
