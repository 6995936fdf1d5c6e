"""What the instructor reads after grading: a CSV per lab for the LMS, a per-question picture,
and the pairs of submissions whose graded code is near-identical."""

from __future__ import annotations

import ast
import collections
import csv
import io
import itertools
import keyword
import pathlib
import textwrap
import tokenize

STATUSES = ("graded", "tampered", "timed out", "failed to grade")


def write_csv(path, lab, verdicts, written):
    """One row per student: per-question points, the written answers' points, total, status,
    flags. ``written`` maps a student to (points, max points, whether still to grade)."""
    tests = list(next(iter(verdicts.values()))["tests"]) if verdicts else []
    header = ["student", *tests, "written", "total", "max", "status", "flags"]
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(header)
        for student in sorted(verdicts):
            v = verdicts[student]
            scores = [v["tests"].get(t, {}).get("score", 0.0) for t in tests]
            w, w_max, pending = written.get(student, (0.0, 0.0, False))
            auto_max = sum(v["tests"].get(t, {}).get("points", 0.0) for t in tests)
            flags = "; ".join(
                v["reasons"] + v["flags"] + (["written answer to grade"] if pending else [])
            )
            out.writerow(
                [student, *(f"{s:g}" for s in scores), f"{w:g}", f"{sum(scores) + w:g}",
                 f"{auto_max + w_max:g}", v["status"], flags]
            )  # fmt: skip
    return header


def plot_questions(path, lab, verdicts):
    """A histogram of the scores of each hidden test and its most frequent hint (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tests = list(next(iter(verdicts.values()))["tests"]) if verdicts else []
    fig, axes = plt.subplots(len(tests), 1, figsize=(8, 2.1 * max(len(tests), 1)), squeeze=False)
    # Okabe-Ito: blue for full marks, vermillion for none, orange in between.
    colours = {"full": "#0072B2", "part": "#E69F00", "none": "#D55E00"}
    for ax, test in zip(axes[:, 0], tests):
        rows = [v["tests"][test] for v in verdicts.values() if test in v["tests"]]
        points = rows[0]["points"] if rows else 0
        scores = [r["score"] for r in rows]
        values = sorted(set(scores) | {0.0, points})
        counts = [scores.count(s) for s in values]
        ax.bar([f"{s:g}" for s in values], counts,
               color=[colours["full" if s == points else "none" if s == 0 else "part"]
                      for s in values])  # fmt: skip
        hints = collections.Counter(r["hint"].split(": ", 1)[-1] for r in rows if r["hint"])
        top = hints.most_common(1)
        hint = f"most frequent hint ({top[0][1]}x): {top[0][0]}" if top else "no hint given"
        unit = "point" if points == 1 else "points"
        title = f"{test} ({points:g} {unit}, {len(rows)} submissions). {hint}"
        ax.set_title(textwrap.fill(title, 120), fontsize=8, loc="left")
        ax.set_ylabel("submissions", fontsize=8)
        ax.set_xlabel("points scored", fontsize=8)
    fig.suptitle(
        f"{lab}: scores per hidden test (blue full, orange part, vermillion none)", fontsize=10
    )
    fig.tight_layout(h_pad=2.2)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _normalised_tokens(text):
    """The code's tokens with names, numbers and strings replaced by placeholders, comments and
    layout dropped: renaming variables or reformatting does not change it."""
    try:
        code = ast.unparse(ast.parse("\n".join(
            ln for ln in text.splitlines() if not ln.lstrip().startswith(("%", "!")))))  # fmt: skip
    except (SyntaxError, ValueError):
        code = text
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.NAME:
                out.append(tok.string if keyword.iskeyword(tok.string) else "N")
            elif tok.type == tokenize.NUMBER:
                out.append("0")
            elif tok.type == tokenize.STRING:
                out.append("S")
            elif tok.type == tokenize.OP:
                out.append(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out


def similar_pairs(verdicts, release_answers, threshold=0.9, min_tokens=40, k=5):
    """Pairs of students whose answers, normalised, share ``threshold`` or more of their k-token
    shingles (Jaccard similarity, as MOSS-like tools compare code), leaving out what the release
    notebook already holds. Sets, not alignments: a class of 300 is 44,850 pairs per lab."""
    shingles = {}
    for student, v in verdicts.items():
        text = "\n".join(a for gid, a in sorted(v.get("answers", {}).items())
                         if a.strip() != release_answers.get(gid, "").strip())  # fmt: skip
        tokens = _normalised_tokens(text)
        if len(tokens) >= min_tokens:
            shingles[student] = frozenset(hash(tuple(tokens[i:i + k]))
                                          for i in range(len(tokens) - k + 1))  # fmt: skip
    pairs = []
    for a, b in itertools.combinations(sorted(shingles), 2):
        sa, sb = shingles[a], shingles[b]
        if min(len(sa), len(sb)) < threshold * max(len(sa), len(sb)):
            continue  # Jaccard <= |smaller| / |larger|
        common = len(sa & sb)
        r = common / (len(sa) + len(sb) - common)
        if r >= threshold:
            pairs.append((a, b, round(r, 3)))
    return sorted(pairs, key=lambda p: -p[2])


def write_similarity(path, lab, pairs):
    lines = [f"{lab}: pairs of submissions whose graded code is near-identical once names, "
             "numbers, strings and layout are normalised (share of common 5-token shingles). "
             "Read them; a shared textbook answer can look alike too.", ""]  # fmt: skip
    lines += [f"{r:.3f}  {a}  {b}" for a, b, r in pairs] or ["(none)"]
    pathlib.Path(path).write_text("\n".join(lines) + "\n")
