"""Make a class of generated submissions, to measure grading: ``submitted/<student>/<lab>/``.

Usage (after ``python labs/build.py --course DIR``, which writes ``DIR/release/``)::

    python labs/make_class.py --course DIR --students 25 [--seed 0]

Each student submits every lab of ``DIR/source``. Most submissions are the instructor's solution
with one random slip in one graded function (a comparison, a sign or a constant changed, as a
student's mistake would); some are the solution untouched, some the student version untouched,
and some attacks: an endless loop, a flood of output, reading the course's source, importing the
grader. The slips are random: some leave the function correct, most break it.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import re

SLIPS = (
    (r"<=", "<"), (r"(?<![<>=!])<(?!=)", "<="), (r">=", ">"), (r" \+ ", " - "), (r" - ", " + "),
    (r"\b1\.0\b", "2.0"), (r"\bmax\b", "min"), (r"\bmean\b", "sum"), (r"\* ", "/ "),
)  # fmt: skip
ATTACKS = {
    "endless-loop": "while True:\n    pass\n",
    "output-flood": "for i in range(20000):\n    print('flood', i)\n",
    "read-source": "import pathlib\nfor p in pathlib.Path.cwd().parents:\n"
    "    for nb in p.glob('**/source/*/*.ipynb'):\n        print(nb.read_text()[:100])\n",
    "import-grader": "import importlib\ng = importlib.import_module('lab' + 'grader')\n",
}
MARKER = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n?", re.M)


def _text(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def solved(release, source):
    """The student version answered with the instructor's solution."""
    nb = json.loads(json.dumps(release))
    answers = {
        c["metadata"]["nbgrader"]["grade_id"]: MARKER.sub("", _text(c))
        for c in source["cells"]
        if c.get("metadata", {}).get("nbgrader", {}).get("solution")
    }
    for cell in nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution"):
            gid = meta["grade_id"]
            cell["source"] = answers[gid] if cell["cell_type"] == "code" else "My answer."
    return nb


def slip(nb, rng):
    """One random slip in one graded function's cell (in place); the slip made, or None."""
    cells = [c for c in nb["cells"] if c["cell_type"] == "code"
             and c.get("metadata", {}).get("nbgrader", {}).get("solution")]  # fmt: skip
    rng.shuffle(cells)
    for cell in cells:
        text = _text(cell)
        options = [(m.start(), m.end(), new) for old, new in SLIPS for m in re.finditer(old, text)]
        if options:
            start, end, new = rng.choice(options)
            cell["source"] = text[:start] + new + text[end:]
            return f"{cell['metadata']['nbgrader']['grade_id']}: {text[start:end]!r} -> {new!r}"
    return None


def attack(nb, code):
    nb["cells"].insert(2, {"cell_type": "code", "metadata": {}, "source": code, "outputs": [],
                           "execution_count": None})  # fmt: skip
    return nb


def make_class(course, students, seed=0):
    """Write the submissions; return ``{(student, lab): what it is}``."""
    course = pathlib.Path(course)
    rng = random.Random(seed)
    labs = sorted(p.name for p in (course / "release").iterdir() if p.is_dir())
    made = {}
    for lab in labs:
        release = json.loads((course / "release" / lab / f"{lab}.ipynb").read_text())
        source = json.loads((course / "source" / lab / f"{lab}.ipynb").read_text())
        attacks = list(ATTACKS.items())
        for k in range(students):
            student = f"s{k:04d}"
            roll = rng.random()
            if k < len(attacks):  # the first students of each lab attack, one attack each
                name, code = attacks[k]
                nb, what = attack(solved(release, source), code), f"attack {name}"
            elif roll < 0.1:
                nb, what = json.loads(json.dumps(release)), "untouched"
            elif roll < 0.25:
                nb, what = solved(release, source), "solution"
            else:
                nb = solved(release, source)
                what = f"slip {slip(nb, rng)}"
            folder = course / "submitted" / student / lab
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{lab}.ipynb").write_text(json.dumps(nb, indent=1))
            made[student, lab] = what
    return made


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", required=True, help="a copy of labs/, built (release/)")
    parser.add_argument("--students", type=int, default=25)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for (student, lab), what in sorted(make_class(args.course, args.students, args.seed).items()):
        print(lab, student, what)


if __name__ == "__main__":
    main()
