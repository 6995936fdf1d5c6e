"""Build the student versions of the graded labs with nbgrader, pack them, grade submissions.

Usage::

    python labs/build.py [--course DIR] [--db URL]            # make labs: release/<lab>/
    python labs/build.py pack [--out DIR]                     # make student-pack: the hand-out
    python labs/build.py grade [--course DIR] [--feedback]    # make grade: autograde, print table

Without a command:

This runs ``nbgrader generate_assignment "*" --force`` once in the course directory ``DIR``
(default: this folder), which writes ``DIR/release/<lab>/`` for every ``DIR/source/<lab>/``:
solutions replaced by a stub, hidden tests removed, outputs cleared. It then removes the stored
widget state (the instructor's run, which nbgrader keeps in the notebook's metadata). nbgrader also
records each lab's test cells in the gradebook (``DIR/gradebook.db`` unless ``--db``), which
autograding needs later.

Jupyter's config, data and runtime folders point to a temporary folder while nbgrader runs, so
nothing in the user's own Jupyter setup changes the build, and the build changes nothing there.
The tests (``tests/test_labs.py``) use :func:`nbgrader` on a temporary copy of the course.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent


def assignments(course):
    """The labs of a course directory: the folders of ``source/`` that hold a notebook."""
    source = pathlib.Path(course) / "source"
    return sorted(p.name for p in source.iterdir() if p.is_dir() and any(p.glob("*.ipynb")))


def jupyter_env(folder):
    """os.environ with Jupyter's config, data and runtime folders inside ``folder``.

    The virtualenv's bin folder goes first on PATH: nbgrader runs the ``alembic`` command to create
    a new gradebook, and ``make`` does not activate the virtualenv.
    """
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        path = pathlib.Path(folder) / name.split("_")[1].lower()
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    return env


# How nbgrader is run: this Python's `-m nbgrader`.
NBGRADER = [sys.executable, "-m", "nbgrader"]


def nbgrader(course, *args, env):
    """Run one nbgrader command in the course directory; raise with its log when it fails."""
    cmd = [*NBGRADER, *args]
    done = subprocess.run(cmd, cwd=course, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(
            f"nbgrader {' '.join(args)} failed (exit {done.returncode}):\n"
            f"{done.stdout}\n{done.stderr}"
        )
    return done


def generate(course=HERE, db=None, env=None):
    """Build release/<lab>/ for every lab of the course; return the list of labs."""
    course = pathlib.Path(course)
    labs = assignments(course)
    with tempfile.TemporaryDirectory(prefix="perclib-labs-jupyter-") as tmp:
        env = jupyter_env(tmp) if env is None else env
        for lab in labs:
            shutil.rmtree(course / "release" / lab, ignore_errors=True)  # no stale files survive
        # One nbgrader run for all the labs ("*"): its start-up costs seconds.
        nbgrader(
            course, "generate_assignment", "*", "--force", *(["--db", db] if db else []), env=env
        )
    for path in (course / "release").glob("*/*.ipynb"):
        _drop_widget_state(path)
    return labs


def _drop_widget_state(path):
    """Remove the stored widget state, which nbgrader keeps: it shows the instructor's run."""
    nb = json.loads(path.read_text())
    if nb.get("metadata", {}).pop("widgets", None) is not None:
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


PACK = HERE.parent / "_build" / "student-pack"
# Words that have no business in a student's notebook: the grader's internals and ways to reach
# them.
TAMPER = (
    "labgrader",
    "grading.json",
    "_failure",
    "sys.modules",
    "__code__",
    "settrace",
    "setprofile",
    "builtins",
    "os.environ",
    "PYTHONPATH",
    "NBGRADER",
    "AssertionError =",
    "sys.path",
)


def student_pack(course=HERE, out=PACK, env=None, db=None):
    """Build the student versions and copy them, and only them, to ``out``; return the files.

    The pack is what is handed out: ``<lab>/<lab>.ipynb`` and the data files that sit next to it in
    ``source/<lab>/`` (nbgrader copies them into ``release/<lab>/``). No solution, hidden test,
    rubric or grader code: ``tests/test_labs.py`` checks every file of it. The build registers the
    labs in the gradebook ``db`` (a URL), by default a new one, discarded after.
    """
    course, out = pathlib.Path(course), pathlib.Path(out)
    with tempfile.TemporaryDirectory(prefix="perclib-pack-") as tmp:
        generate(course, db=db or f"sqlite:///{pathlib.Path(tmp) / 'gradebook.db'}", env=env)
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(
        course / "release", out, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    )
    return sorted(p for p in out.rglob("*") if p.is_file())


def autograde(course=HERE, db=None, env=None, feedback=False, release=True):
    """Autograde every submission in ``course/submitted`` (one nbgrader run); return the rows of
    the table.

    ``release=False`` skips building the student versions first, for a caller that has just built
    them into the same gradebook (the build registers the labs' test cells, which grading needs).
    """
    course = pathlib.Path(course)
    db = db or f"sqlite:///{course / 'gradebook.db'}"
    with tempfile.TemporaryDirectory(prefix="perclib-labs-jupyter-") as tmp:
        env = jupyter_env(tmp) if env is None else env
        if release:
            generate(course, db=db, env=env)  # registers the labs and their test cells
        # nbgrader exits with 1 when one submission cannot be processed; the others are graded, so
        # report the failures and go on to the table (the submission is missing from it).
        for command in (["autograde"], ["generate_feedback"] if feedback else []):
            if command:
                done = subprocess.run(
                    [*NBGRADER, *command, "*", "--force", "--db", db],
                    cwd=course,
                    env=env,
                    capture_output=True,
                    text=True,
                )
                for line in (done.stdout + done.stderr).splitlines():
                    if "| ERROR]" in line:
                        print(line, file=sys.stderr)
    return grade_table(course, db)


def grade_table(course, db):
    """One row per submission: autograded points, failed hidden tests, written answers, flags."""
    from nbgrader.api import Gradebook, MissingEntry

    rows = []
    with Gradebook(db) as gb:
        for folder in sorted((pathlib.Path(course) / "autograded").glob("*/*")):
            student, lab = folder.parent.name, folder.name
            try:
                sub = gb.find_submission(lab, student)
            except MissingEntry:
                continue
            auto = [g for nb in sub.notebooks for g in nb.grades if g.cell_type == "code"]
            manual = [g for nb in sub.notebooks for g in nb.grades if g.cell_type == "markdown"]
            rows.append(
                {
                    "student": student,
                    "lab": lab,
                    "auto": sum(g.score for g in auto),
                    "auto_max": sum(g.max_score for g in auto),
                    "failed": sorted(g.name for g in auto if g.score < g.max_score),
                    "written": (
                        f"{sum(g.score for g in manual):g}/{sum(g.max_score for g in manual):g}"
                        + (" to grade" if any(g.needs_manual_grade for g in manual) else "")
                    ),
                    "flags": _flags(folder),
                }
            )
    return rows


def _flags(folder):
    """Words of TAMPER found in the student's cells: a reason to read the notebook by hand."""
    found = set()
    for path in folder.glob("*.ipynb"):
        nb = json.loads(path.read_text())
        for cell in nb["cells"]:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if meta.get("locked"):
                continue  # the grader's own cells
            found |= {w for w in TAMPER if w in "".join(cell["source"])}
    return sorted(found)


def format_table(rows, seed):
    width = max([28] + [len(r["student"]) for r in rows])
    lines = [
        f"Grades (autograded points; hidden tests drawn with the instructor's seed {seed})",
        f"{'lab':<5} {'student':<{width}} {'auto':>10}  {'written':<14} failed tests / flags",
    ]
    for r in rows:
        tail = ", ".join(r["failed"]) or "-"
        if r["flags"]:
            tail += "   FLAGS: " + ", ".join(r["flags"])
        lines.append(
            f"{r['lab']:<5} {r['student']:<{width}} {r['auto']:5g}/{r['auto_max']:<4g}  "
            f"{r['written']:<14} {tail}"
        )
    return "\n".join(lines)


def grading_seed(course=HERE):
    return json.loads((pathlib.Path(course) / "grader" / "grading.json").read_text())["seed"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "command", nargs="?", default="release", choices=("release", "pack", "grade")
    )
    parser.add_argument(
        "--course", default=str(HERE), help="the nbgrader course directory (default: labs/)"
    )
    parser.add_argument(
        "--db", default=None, help="the gradebook's URL (default: sqlite:///<course>/gradebook.db)"
    )
    parser.add_argument(
        "--out", default=str(PACK), help="pack: the folder to write (default: _build/student-pack)"
    )
    parser.add_argument(
        "--feedback", action="store_true", help="grade: also write feedback/ (HTML per submission)"
    )
    args = parser.parse_args(argv)
    course = pathlib.Path(args.course).resolve()
    if args.command == "pack":
        out = pathlib.Path(args.out).resolve()
        for path in student_pack(course, out):
            print(path.relative_to(out))
        return
    if args.command == "grade":
        if not any((course / "submitted").glob("*/*/*.ipynb")):
            sys.exit(
                f"nothing to grade: put submissions in {course / 'submitted'}/<student>/<lab>/"
            )
        print(
            format_table(autograde(course, args.db, feedback=args.feedback), grading_seed(course))
        )
        return
    for lab in generate(course, args.db):
        files = sorted(
            str(p.relative_to(course)) for p in (course / "release" / lab).rglob("*") if p.is_file()
        )
        print(f"{lab}: {', '.join(files)}")


if __name__ == "__main__":
    main()
