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
    grader = _grader(course)
    for path in (course / "release").glob("*/*.ipynb"):
        _drop_widget_state(path)
        _write_data_key(path, grader)
    return labs


def _drop_widget_state(path):
    """Remove the stored widget state, which nbgrader keeps: it shows the instructor's run."""
    nb = json.loads(path.read_text())
    if nb.get("metadata", {}).pop("widgets", None) is not None:
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def _write_data_key(path, grader):
    """Write the term's data key into a released notebook: each student's explored data sets then
    derive from (secret, lab, student id)."""
    nb = json.loads(path.read_text())
    lab = path.parent.name
    for cell in nb["cells"]:
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        cell["source"] = grader.personalize(text, lab)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


PACK = HERE.parent / "_build" / "student-pack"


def student_pack(course=HERE, out=PACK, env=None, db=None, release=True):
    """Build the student versions and copy them, and only them, to ``out``; return the files.

    The pack is what is handed out: ``<lab>/<lab>.ipynb`` and the data files that sit next to it in
    ``source/<lab>/`` (nbgrader copies them into ``release/<lab>/``). No solution, hidden test,
    rubric or grader code: ``tests/test_labs.py`` checks every file of it. The build registers the
    labs in the gradebook ``db`` (a URL), by default a new one, discarded after. ``release=False``
    skips the build, for a caller that has just built ``release/`` with :func:`generate`.
    """
    course, out = pathlib.Path(course), pathlib.Path(out)
    if release:
        with tempfile.TemporaryDirectory(prefix="perclib-pack-") as tmp:
            generate(course, db=db or f"sqlite:///{pathlib.Path(tmp) / 'gradebook.db'}", env=env)
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(
        course / "release", out, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    )
    return sorted(p for p in out.rglob("*") if p.is_file())


def _grader(course):
    """The instructor's grader package (``course/grader/labgrader``), imported from the course."""
    path = str(pathlib.Path(course) / "grader")
    if path not in sys.path:
        sys.path.insert(0, path)
    import labgrader.reports
    import labgrader.submission

    return labgrader


def check_sandbox(course):
    """Stop with the command that installs bubblewrap when it is missing (installed when root)."""
    sandbox = _grader(course).sandbox
    if os.environ.get("LABS_SANDBOX") == "none" or sandbox.bwrap():
        return
    if sys.platform.startswith("linux") and os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(["apt-get", "install", "-y", "bubblewrap"], check=True)
        return
    sys.exit(
        "grading runs each submission in a bubblewrap sandbox (a Linux grading host): "
        + sandbox.INSTALL_HINT
    )


def submissions(course, labs=None):
    """``[(lab, student, notebook path)]`` of ``course/submitted/<student>/<lab>/<lab>.ipynb``."""
    found = []
    for path in sorted(pathlib.Path(course).glob("submitted/*/*/*.ipynb")):
        lab, student = path.parent.name, path.parent.parent.name
        if path.name == f"{lab}.ipynb" and (labs is None or lab in labs):
            found.append((lab, student, path))
    return found


def verdict_path(course, lab, student):
    return pathlib.Path(course) / "verdicts" / lab / f"{student}.json"


def grade_one(course, lab, student, notebook=None, out=None):
    """Grade one submission (sandboxed) and write its verdict: the unit of a cluster's job."""
    grader = _grader(course)
    notebook = notebook or pathlib.Path(course) / "submitted" / student / lab / f"{lab}.ipynb"
    out = out or verdict_path(course, lab, student)
    return grader.submission.grade_to_file(course, lab, student, notebook, out)


def autograde(course=HERE, db=None, env=None, feedback=False, release=True, jobs=None,
              labs=None, force=False):  # fmt: skip
    """Grade the new or changed submissions of ``course/submitted`` on ``jobs`` processes (all
    cores by default), record the verdicts in nbgrader's gradebook, write the autograded
    notebooks, the reports and (``feedback``) the feedback; return the table's rows.

    A submission is graded again only when its notebook, the grader's code, the lab's source or
    the term's secret changed (``force``: always). ``release=False`` skips building the student
    versions first, for a caller that has just built them into the same gradebook.
    """
    course = pathlib.Path(course)
    db = db or f"sqlite:///{course / 'gradebook.db'}"
    grader = _grader(course)
    with tempfile.TemporaryDirectory(prefix="perclib-labs-jupyter-") as tmp:
        env = jupyter_env(tmp) if env is None else env
        if release:
            generate(course, db=db, env=env)  # registers the labs and their test cells
        todo, verdicts = [], {}
        for lab, student, path in submissions(course, labs):
            key = grader.submission.cache_key(path.read_bytes(), lab, course)
            saved = verdict_path(course, lab, student)
            old = json.loads(saved.read_text()) if saved.exists() else None
            if old and old.get("key") == key and not force:
                verdicts[lab, student] = (old, False)
            else:
                todo.append((str(course), lab, student, str(path), str(saved)))
        if todo:
            check_sandbox(course)
            jobs = jobs or os.cpu_count() or 1
            if jobs == 1:
                done = map(grader.submission.grade_job, todo)
            else:
                import concurrent.futures

                pool = concurrent.futures.ProcessPoolExecutor(jobs)
                done = pool.map(grader.submission.grade_job, todo)
            for v in done:
                verdicts[v["lab"], v["student"]] = (v, True)
            if jobs != 1:
                pool.shutdown()
        changed = [v for v, new in verdicts.values() if new]
        record(course, db, changed)
        if feedback and verdicts:
            # Every graded lab: a run after `make grade` has nothing new but asks for it.
            labs_graded = sorted({lab for lab, _ in verdicts})
            # One nbgrader run ("*") when those are all the labs of autograded/: nbgrader then
            # starts once, not once per lab.
            held = sorted({p.name for p in course.glob("autograded/*/*") if p.is_dir()})
            for lab in ["*"] if held == labs_graded else labs_graded:
                nbgrader(course, "generate_feedback", lab, "--force", "--db", db, env=env)
    rows = grade_table(course, db, {k: v for k, (v, _) in verdicts.items()})
    write_reports(course, rows, {k: v for k, (v, _) in verdicts.items()})
    return rows


def _release_cells(course, lab):
    return json.loads((course / "release" / lab / f"{lab}.ipynb").read_text())


def record(course, db, verdicts):
    """Put verdicts into the gradebook (nbgrader's API: each test cell's auto_score) and write the
    autograded notebooks that nbgrader's formgrader and feedback read."""
    from nbgrader import utils
    from nbgrader.api import Gradebook, MissingEntry

    course = pathlib.Path(course)
    if not verdicts:
        return
    with Gradebook(db) as gb:
        for v in verdicts:
            lab, student = v["lab"], v["student"]
            nb = _autograded_notebook(course, v)
            folder = course / "autograded" / student / lab
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            (folder / f"{lab}.ipynb").write_text(json.dumps(nb, indent=1, ensure_ascii=False))
            stamp = course / "submitted" / student / lab / "timestamp.txt"
            if stamp.exists():
                shutil.copy(stamp, folder / "timestamp.txt")
            gb.update_or_create_student(student)
            try:
                gb.remove_submission(lab, student)
            except MissingEntry:
                pass
            gb.add_submission(lab, student)
            import nbformat

            for cell in nbformat.from_dict(nb).cells:
                meta = cell.metadata.get("nbgrader", {})
                if not meta.get("grade"):
                    continue
                grade = gb.find_grade(meta["grade_id"], lab, lab, student)
                if cell.cell_type == "code":
                    grade.auto_score = v["tests"].get(meta["grade_id"], {}).get("score", 0.0)
                    grade.needs_manual_grade = bool(
                        v["tests"].get(meta["grade_id"], {}).get("grader_error")
                    )
                else:
                    grade.auto_score, _ = utils.determine_grade(cell)
                    grade.needs_manual_grade = grade.auto_score is None
            gb.db.commit()


def _autograded_notebook(course, v):
    """The release notebook with the student's answers, each test cell's verdict as its output."""
    lab = v["lab"]
    nb = _release_cells(course, lab)
    for cell in nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        gid = meta.get("grade_id")
        if meta.get("solution") and gid in v["answers"]:
            cell["source"] = v["answers"][gid]
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
        if meta.get("grade") and cell["cell_type"] == "code":
            test = v["tests"].get(gid, {})
            text = f"[grader] {lab}/{gid}: hidden tests on variant {v['variant']}\n"
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": text}]
            if test.get("grader_error"):
                message = "the grader could not run this test; your instructor will grade it"
                cell["outputs"].append(_error("GraderError", message))
            elif test.get("hint"):
                cell["outputs"].append(_error("AssertionError", test["hint"]))
    extra = [a for gid, a in v["answers"].items() if gid.startswith("added-")]
    if extra:
        nb["cells"].append({"cell_type": "markdown", "metadata": {}, "source": "Cells you added:"})
        nb["cells"] += [{"cell_type": "code", "metadata": {}, "source": a, "outputs": [],
                         "execution_count": None} for a in extra]  # fmt: skip
    return nb


def _error(name, value):
    return {"output_type": "error", "ename": name, "evalue": value,
            "traceback": [f"{name}: {value}"]}  # fmt: skip


def grade_table(course, db, verdicts=None):
    """One row per submission: autograded points, failed tests, written answers, status, flags."""
    from nbgrader.api import Gradebook, MissingEntry

    course = pathlib.Path(course)
    if verdicts is None:
        verdicts = {}
        for path in sorted(course.glob("verdicts/*/*.json")):
            v = json.loads(path.read_text())
            verdicts[v["lab"], v["student"]] = v
    rows = []
    with Gradebook(db) as gb:
        for (lab, student), v in sorted(verdicts.items()):
            try:
                sub = gb.find_submission(lab, student)
                manual = [g for nb in sub.notebooks for g in nb.grades if g.cell_type == "markdown"]
            except MissingEntry:
                manual = []
            tests = v["tests"]
            rows.append(
                {
                    "student": student,
                    "lab": lab,
                    "auto": sum(t["score"] for t in tests.values()),
                    "auto_max": sum(t["points"] for t in tests.values()),
                    "failed": sorted(k for k, t in tests.items() if t["score"] < t["points"]),
                    "hints": {k: t["hint"] for k, t in tests.items() if t["hint"]},
                    "written_score": sum(g.score for g in manual),
                    "written_max": sum(g.max_score for g in manual),
                    "written_pending": any(g.needs_manual_grade for g in manual),
                    "written": (
                        f"{sum(g.score for g in manual):g}/{sum(g.max_score for g in manual):g}"
                        + (" to grade" if any(g.needs_manual_grade for g in manual) else "")
                    ),
                    "status": v["status"],
                    "reasons": v["reasons"],
                    "flags": v["flags"],
                    "variant": v["variant"],
                }
            )
    return rows


def write_reports(course, rows, verdicts):
    """reports/<lab>.csv (one row per student, for the LMS), reports/<lab>-questions.png and
    reports/<lab>-similarity.txt."""
    grader = _grader(course)
    course = pathlib.Path(course)
    out = course / "reports"
    out.mkdir(exist_ok=True)
    for lab in sorted({lab for lab, _ in verdicts}):
        mine = {s: v for (name, s), v in verdicts.items() if name == lab}
        written = {r["student"]: (r["written_score"], r["written_max"], r["written_pending"])
                   for r in rows if r["lab"] == lab}  # fmt: skip
        grader.reports.write_csv(out / f"{lab}.csv", lab, mine, written)
        grader.reports.plot_questions(out / f"{lab}-questions.png", lab, mine)
        release = course / "release" / lab / f"{lab}.ipynb"
        answers = {}
        if release.exists():
            for cell in json.loads(release.read_text())["cells"]:
                gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
                if gid:
                    answers[gid] = "".join(cell["source"])
        pairs = grader.reports.similar_pairs(mine, answers)
        grader.reports.write_similarity(out / f"{lab}-similarity.txt", lab, pairs)


def format_table(rows, secret_note="the term's secret in grader/grading.json"):
    width = max([28] + [len(r["student"]) for r in rows])
    lines = [
        f"Grades (autograded points; hidden inputs per student from {secret_note})",
        f"{'lab':<5} {'student':<{width}} {'auto':>10}  {'written':<14} {'status':<16}"
        "failed tests / flags",
    ]
    for r in rows:
        tail = ", ".join(r["failed"]) or "-"
        notes = r["reasons"] + r["flags"]
        if notes:
            tail += "   FLAGS: " + "; ".join(notes)
        lines.append(
            f"{r['lab']:<5} {r['student']:<{width}} {r['auto']:5g}/{r['auto_max']:<4g}  "
            f"{r['written']:<14} {r['status']:<16}{tail}"
        )
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "command", nargs="?", default="release",
        choices=("release", "pack", "grade", "grade-one", "variant"),
    )  # fmt: skip
    parser.add_argument(
        "--course", default=str(HERE), help="the nbgrader course directory (default: labs/)"
    )
    parser.add_argument(
        "--db", default=None, help="the gradebook's URL (default: sqlite:///<course>/gradebook.db)"
    )
    parser.add_argument(
        "--out", default=None,
        help="pack: the folder to write (default: _build/student-pack); "
        "grade-one: the verdict file",
    )  # fmt: skip
    parser.add_argument(
        "--feedback", action="store_true", help="grade: also write feedback/ (HTML per submission)"
    )
    parser.add_argument("--lab", action="append", help="grade: only this lab (repeatable)")
    parser.add_argument("--student", help="grade-one, variant: the student id")
    parser.add_argument("--notebook", help="grade-one: the submission (default: submitted/...)")
    parser.add_argument("--jobs", type=int, default=None, help="grade: processes (default: cores)")
    parser.add_argument("--force", action="store_true", help="grade: regrade unchanged ones too")
    args = parser.parse_args(argv)
    course = pathlib.Path(args.course).resolve()
    if args.command == "pack":
        out = pathlib.Path(args.out or PACK).resolve()
        for path in student_pack(course, out):
            print(path.relative_to(out))
        return
    if args.command == "grade-one":
        if not (args.lab and args.student):
            sys.exit("grade-one needs --lab LAB --student ID")
        check_sandbox(course)
        verdict = grade_one(course, args.lab[0], args.student, args.notebook, args.out)
        print(json.dumps({k: verdict[k] for k in ("lab", "student", "status", "tests")}, indent=1))
        return
    if args.command == "variant":
        grader = _grader(course)
        if not args.student:
            sys.exit("variant needs --student ID")
        print("lab   student  hidden tests  data key (run the released notebook with "
              "JUPYTERHUB_USER=<student> to see the student's data)")  # fmt: skip
        for lab in args.lab or assignments(course):
            print(lab, args.student, grader.variant(lab, args.student), grader.data_key(lab))
        return
    if args.command == "grade":
        if not submissions(course, args.lab):
            sys.exit(
                f"nothing to grade: put submissions in {course / 'submitted'}/<student>/<lab>/"
            )
        rows = autograde(course, args.db, feedback=args.feedback, jobs=args.jobs, labs=args.lab,
                         force=args.force)  # fmt: skip
        print(format_table(rows))
        print(f"reports: {course / 'reports'}/<lab>.csv, <lab>-questions.png, <lab>-similarity.txt")
        return
    for lab in generate(course, args.db):
        files = sorted(
            str(p.relative_to(course)) for p in (course / "release" / lab).rglob("*") if p.is_file()
        )
        print(f"{lab}: {', '.join(files)}")


if __name__ == "__main__":
    main()
