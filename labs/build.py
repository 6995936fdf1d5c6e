"""Build the student versions of the graded labs with nbgrader (``make labs``).

Usage: python labs/build.py [--course DIR] [--db URL]

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


def nbgrader(course, *args, env):
    """Run one nbgrader command in the course directory; raise with its log when it fails."""
    cmd = [sys.executable, "-m", "nbgrader", *args]
    done = subprocess.run(cmd, cwd=course, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[2:])} failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")
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
        nbgrader(course, "generate_assignment", "*", "--force", *(["--db", db] if db else []), env=env)
    for path in (course / "release").glob("*/*.ipynb"):
        _drop_widget_state(path)
    return labs


def _drop_widget_state(path):
    """Remove the stored widget state, which nbgrader keeps: it shows the instructor's run."""
    nb = json.loads(path.read_text())
    if nb.get("metadata", {}).pop("widgets", None) is not None:
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", default=str(HERE), help="the nbgrader course directory (default: labs/)")
    parser.add_argument("--db", default=None, help="the gradebook's URL (default: sqlite:///<course>/gradebook.db)")
    args = parser.parse_args(argv)
    course = pathlib.Path(args.course).resolve()
    for lab in generate(course, args.db):
        files = sorted(str(p.relative_to(course)) for p in (course / "release" / lab).rglob("*") if p.is_file())
        print(f"{lab}: {', '.join(files)}")


if __name__ == "__main__":
    main()
