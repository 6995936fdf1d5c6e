"""The graded labs (``labs/``): nbgrader builds them, and autograding scores right and wrong work as it should.

One run per test session, in a temporary copy of the course (the repository is never written):
build the student versions with ``labs/build.py``, submit for every lab the instructor's solution, the
untouched student version and plausible wrong solutions, autograde them all with nbgrader, and read
the scores from the gradebook, which lives in the temporary folder too, as do Jupyter's config,
data and runtime folders. The grades table is printed (``pytest -s`` shows it).

The labs' tests draw fresh random inputs from a seed chosen per run; set ``PERCLIB_LAB_SEED`` to
replay a run (the seed is printed with the table and named in every failure).
"""
from __future__ import annotations

import importlib.util
import os
import pathlib
import random
import re
import shutil

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
LABS = ROOT / "labs"
SOLUTION = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n?", re.M)
REGION = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)\n(.*?)### END \1", re.S)
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")

# Plausible wrong submissions: edits of the instructor's solution cells, and what autograding must
# say about them: {failing test cell: a phrase its message must contain}. Every other test passes.
WRONG = {
    "lab1": {
        "no-bias-update": (
            [("perceptron_step", "return w + eta * y * x, b + eta * y, True", "return w + eta * y * x, b, True")],
            {"test_step_mistake": "your update did not change b: the bias must move by eta*y",
             "test_fit": "your history first differs from perclib's"}),
        "updates-correct-points": (
            [("perceptron_step", "    if y * a <= 0:\n        return w + eta * y * x, b + eta * y, True\n"
              "    return w.copy(), b, False", "    return w + eta * y * x, b + eta * y, True")],
            {"test_step_correct": "you updated on a point that was already classified correctly",
             "test_fit": "your history first differs from perclib's"}),
        "strict-less-than": (
            [("perceptron_step", "if y * a <= 0:", "if y * a < 0:")],
            {"test_step_tie": "y*a = 0 is a mistake too",
             "test_fit": "your fit never updated"}),
    },
    "lab2": {
        "radius-without-bias": (
            [("novikoff_bound", "np.sqrt(1.0 + np.max(", "np.sqrt(np.max(")],
            {"test_bound": "your R leaves out the bias coordinate",
             "test_experiment": "table['R'] should be",
             "test_findings": "your findings follow from your table, but the table itself is off"}),
        "counts-epochs": (
            [("count_updates", "counts.append(clf.n_updates_)", "counts.append(clf.n_iter_)")],
            {"test_count_updates": "you counted epochs (n_iter_), not updates",
             "test_experiment": "table['updates_max'] should be",
             "test_findings": "your findings follow from your table, but the table itself is off"}),
    },
    "lab3": {
        "counter-on-updates-only": (
            [("averaged_fit", "beta = beta + eta * y[i] * c\n            c += 1",
              "beta = beta + eta * y[i] * c\n                c += 1"),
             ("multiclass_fit", "W, b = W_new, b_new\n            c += 1", "W, b = W_new, b_new\n                c += 1")],
            {"test_averaged": "your c counts updates only",
             "test_multiclass_fit": "your last iterate is right but the average is not",
             "test_digits": "acc_avg should be"}),
        "no-demotion": (
            [("multiclass_step", "    W[y_hat] -= eta * x\n    b[y_hat] -= eta\n", "")],
            {"test_multiclass_step": "your update did not lower the predicted class",
             "test_multiclass_fit": "your last iterate differs from perclib's",
             "test_digits": "acc_last should be"}),
    },
}


def _load_build():
    spec = importlib.util.spec_from_file_location("labs_build", LABS / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _nb_cells(nb, kind):
    return {c.metadata["nbgrader"]["grade_id"]: c for c in nb.cells
            if c.metadata.get("nbgrader", {}).get(kind)}


def _notebook_path(course, step, lab):
    return next((course / step / lab).glob("*.ipynb")) if step == "release" else None


def _submit(course, student, lab, release_nb, source_nb, edits=None):
    """A student's submission: the released notebook with the solution cells filled in (or not)."""
    nb = nbformat.from_dict(release_nb)
    if edits is not None:
        answers = _nb_cells(source_nb, "solution")
        for grade_id, cell in _nb_cells(nb, "solution").items():
            cell.source = SOLUTION.sub("", answers[grade_id].source)  # what a student would write
        for grade_id, old, new in edits:
            cell = _nb_cells(nb, "solution")[grade_id]
            assert cell.source.count(old) == 1, f"{lab}/{student}: the edit does not apply to {grade_id}"
            cell.source = cell.source.replace(old, new)
    folder = course / "submitted" / student / lab
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{lab}.ipynb")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Build, submit and autograde every lab once; return what the tests look at."""
    build = _load_build()
    tmp = tmp_path_factory.mktemp("labs")
    course = tmp / "course"
    shutil.copytree(LABS, course, ignore=shutil.ignore_patterns(
        "release", "submitted", "autograded", "feedback", "gradebook.db", "__pycache__", ".ipynb_checkpoints"))
    env = build.jupyter_env(tmp / "jupyter")
    seed = os.environ.get("PERCLIB_LAB_SEED") or str(random.SystemRandom().randrange(2**32))
    env["PERCLIB_LAB_SEED"] = seed
    db = f"sqlite:///{tmp / 'gradebook.db'}"
    labs = build.generate(course, db=db, env=env)
    assert labs == sorted(WRONG)

    students = {}
    for lab in labs:
        source_nb = nbformat.read(next((course / "source" / lab).glob("*.ipynb")), as_version=4)
        release_nb = nbformat.read(_notebook_path(course, "release", lab), as_version=4)
        _submit(course, "solution", lab, release_nb, source_nb, edits=[])
        _submit(course, "untouched", lab, release_nb, source_nb)
        for student, (edits, _) in WRONG[lab].items():
            _submit(course, student, lab, release_nb, source_nb, edits=edits)
        students[lab] = ["solution", "untouched", *WRONG[lab]]
    build.nbgrader(course, "autograde", "*", "--force", "--db", db, env=env)

    from nbgrader.api import Gradebook

    scores, cells = {}, {}
    with Gradebook(db) as gb:
        for lab in labs:
            for student in students[lab]:
                sub = gb.find_submission(lab, student)
                scores[lab, student] = (sub.score, sub.max_score)
                cells[lab, student] = {g.name: (g.score, g.max_score) for nb in sub.notebooks for g in nb.grades}
    rows = [f"{'assignment':<10} {'submission':<24} score / max"]
    rows += [f"{lab:<10} {student:<24} {score:5.1f} / {top:.0f}" for (lab, student), (score, top) in scores.items()]
    print(f"\nGrades from nbgrader autograde (PERCLIB_LAB_SEED={seed}):\n" + "\n".join(rows))
    return {"course": course, "labs": labs, "seed": seed, "scores": scores, "cells": cells}


def _errors(course, student, lab):
    """{test cell: the text of its error} for the autograded notebook of one submission."""
    nb = nbformat.read(next((course / "autograded" / student / lab).glob("*.ipynb")), as_version=4)
    return {gid: "\n".join(f"{o.ename}: {o.evalue}" for o in cell.outputs if o.output_type == "error")
            for gid, cell in _nb_cells(nb, "grade").items()}


def test_instructor_solutions_get_full_marks(graded):
    for lab in graded["labs"]:
        score, top = graded["scores"][lab, "solution"]
        assert top > 0 and score == top, (
            f"{lab}: the instructor's solution scored {score}/{top} (PERCLIB_LAB_SEED={graded['seed']}); "
            f"errors: {_errors(graded['course'], 'solution', lab)}")


def test_untouched_student_version_gets_zero(graded):
    for lab in graded["labs"]:
        assert graded["scores"][lab, "untouched"][0] == 0, graded["cells"][lab, "untouched"]


@pytest.mark.parametrize("lab, student", [(lab, s) for lab in WRONG for s in WRONG[lab]])
def test_wrong_submissions_get_partial_marks_and_name_the_mistake(graded, lab, student):
    score, top = graded["scores"][lab, student]
    assert 0 < score < top, f"{lab}/{student} scored {score}/{top}; a plausible mistake should get partial marks"
    expected = WRONG[lab][student][1]
    failed = {gid for gid, (s, m) in graded["cells"][lab, student].items() if s < m}
    errors = _errors(graded["course"], student, lab)
    assert failed == set(expected), (
        f"{lab}/{student}: the failing tests are {sorted(failed)}, expected {sorted(expected)} "
        f"(PERCLIB_LAB_SEED={graded['seed']}): {errors}")
    for gid, phrase in expected.items():
        assert phrase in errors[gid], f"{lab}/{student}: {gid} should say {phrase!r}; it says {errors[gid]!r}"


def test_release_holds_no_solution_and_no_hidden_test(graded):
    course = graded["course"]
    for lab in graded["labs"]:
        source_nb = nbformat.read(next((course / "source" / lab).glob("*.ipynb")), as_version=4)
        source_text = "\n".join(c.source for c in source_nb.cells)
        secret = "\n".join(m.group(2) for m in REGION.finditer(source_text))
        public = REGION.sub("", source_text)
        # Lines of solutions and hidden tests that appear nowhere else in the source notebook.
        lines = {ln.strip() for ln in secret.splitlines() if len(ln.strip()) >= 12 and ln.strip() not in public}
        assert len(lines) > 20, f"{lab}: too few solution and hidden-test lines to check ({len(lines)})"
        files = [p for p in (course / "release" / lab).rglob("*") if p.is_file()]
        assert files, f"{lab}: nothing was released"
        for path in files:
            raw = path.read_text(errors="replace")
            texts = [raw]
            if path.suffix == ".ipynb":
                nb = nbformat.reads(raw, as_version=4)
                texts.append("\n".join(c.source for c in nb.cells))
                assert not any(c.get("outputs") for c in nb.cells), f"{path.name}: released with outputs"
                assert "widgets" not in nb.metadata, f"{path.name}: released with the instructor's widget state"
                stubs = [c for c in _nb_cells(nb, "solution").values() if "raise NotImplementedError()" in c.source]
                assert len(stubs) == len(_nb_cells(source_nb, "solution")), f"{path.name}: a solution cell has no stub"
            text = "\n".join(texts)
            for marker in MARKERS:
                assert marker not in text, f"{path.name} still holds '### {marker}'"
            leaked = sorted(ln for ln in lines if ln in text)
            assert not leaked, f"{path.name} holds solution or hidden-test lines: {leaked[:5]}"
