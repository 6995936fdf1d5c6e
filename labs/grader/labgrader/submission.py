"""One submission, graded: read against the instructor's notebook, run sandboxed, scored here.

:func:`grade` is the whole grading of one submission and needs nothing but its arguments (the
course folder, the lab, the student, the notebook): ``python labs/build.py grade-one`` runs it, one
command per submission, and writes its verdict as JSON.
"""

from __future__ import annotations

import ast
import hashlib
import json
import pathlib
import re
import time

from . import (
    UNUSABLE,
    GraderError,
    Grading,
    LocalCaller,
    TimedOut,
    Unusable,
    check,
    personalize,  # fmt: skip
    rng_for,
    secret,
    tests_of,
    variant,
)
from .sandbox import Worker, WorkerDied

HERE = pathlib.Path(__file__).resolve().parent
# Time and memory. The verdict "timed out" comes from CPU time, which a loaded machine does not
# eat: CALL_CPU seconds per call of a graded function and per cell, WORKER_CPU per worker (a hard
# limit the student's code cannot raise). Wall-clock limits are backstops only, generous, for code
# that waits instead of computing: WALL_CALL per call or cell, BUDGET per submission.
CALL_CPU, WORKER_CPU, MEMORY = 10, 60, 3 * 2**30
WALL_CALL, BUDGET = 120.0, 600.0
# perclib's and scikit-learn's names a student's graded function may use; any other name of
# perclib or scikit-learn in it (an import, an attribute) makes it a wrapper, worth nothing.
TOOLS = ("perclib.datasets", "perclib.plotting", "perclib.widgets")
ALLOWED = {
    "lab2": ("perclib.theory.max_margin", "perclib.Perceptron", "perclib.perceptron.Perceptron"),
}
# Names in a student's cells that reach for the runtime rather than compute: not forbidden, but
# listed in the table's flags for the instructor to read the notebook.
SUSPICIOUS = {
    "__import__", "importlib", "exec", "eval", "compile", "getattr", "setattr", "globals",
    "locals", "vars", "sys", "os", "subprocess", "ctypes", "gc", "inspect", "builtins",
    "__builtins__", "__code__", "__globals__", "settrace", "setprofile", "_getframe",
    "get_ipython", "open", "socket", "sqlite3", "pickle", "marshal", "shutil", "pathlib",
    "labgrader",
}  # fmt: skip


def grader_version():
    """A digest of the grader's code: a new grader regrades everything."""
    h = hashlib.sha256()
    for path in sorted(HERE.glob("*.py")):
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:16]


def cache_key(notebook_bytes, lab, course):
    """What a verdict depends on: the submission, the grader, the lab's source and the secret."""
    h = hashlib.sha256(notebook_bytes)
    h.update(grader_version().encode())
    h.update((pathlib.Path(course) / "source" / lab / f"{lab}.ipynb").read_bytes())
    h.update(hashlib.sha256(secret().encode()).digest())
    return h.hexdigest()


def _meta(cell):
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return meta if isinstance(meta, dict) else {}


def _source(cell):
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


FIELDS = ("grade", "solution", "locked", "points", "task")


def read(course, lab, notebook):
    """The submission read against the instructor's source notebook.

    Returns ``(cells to run, answers, tests, tamper reasons)``: the instructor's own code cells
    (from the source, whatever the submission holds in them), the student's answer cells and the
    code cells the student added, in the submission's order; the student's answers by cell id;
    the hidden tests ``{grade id: points}`` from the source; and what was edited that the student
    may not edit (metadata, test cells, instructor cells, cells deleted).
    """
    source = json.loads((pathlib.Path(course) / "source" / lab / f"{lab}.ipynb").read_text())
    for cell in source["cells"]:  # as released: with the term's data key
        cell["source"] = personalize(_source(cell), lab)
    by_id = {_meta(c).get("grade_id"): c for c in source["cells"] if _meta(c).get("grade_id")}
    tests = {
        gid: float(_meta(c).get("points", 0))
        for gid, c in by_id.items()
        if _meta(c).get("grade") and c["cell_type"] == "code"
    }
    instructor = {
        gid for gid, c in by_id.items()
        if c["cell_type"] == "code" and _meta(c).get("locked") and not _meta(c).get("grade")
        and not _meta(c).get("solution")
    }  # fmt: skip
    public = {_source(c).strip() for c in source["cells"]}
    public |= {re.sub(r"### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS\n?", "", _source(c),
                      flags=re.S).strip() for c in source["cells"]}  # fmt: skip
    reasons, answers, cells, seen = [], {}, [], set()
    for cell in notebook.get("cells", []):
        meta, text = _meta(cell), _source(cell)
        gid = meta.get("grade_id")
        if gid in by_id:
            seen.add(gid)
            want = _meta(by_id[gid])
            if (
                any(bool(meta.get(k)) != bool(want.get(k)) for k in FIELDS[:3])
                or float(meta.get("points", 0) or 0) != float(want.get("points", 0) or 0)
                or cell.get("cell_type") != by_id[gid]["cell_type"]
            ):
                reasons.append(f"metadata of cell {gid} edited")
            if gid in tests:
                if text.strip() not in public:
                    reasons.append(f"test cell {gid} edited")
                continue
            if gid in instructor:
                if text.strip() != _source(by_id[gid]).strip():
                    reasons.append(f"instructor's cell {gid} edited")
                cells.append(_source(by_id[gid]))
                continue
            if _meta(by_id[gid]).get("solution"):
                answers[gid] = text
                if cell.get("cell_type") == "code":
                    cells.append(text)
                continue
        if cell.get("cell_type") == "code" and text.strip() and text.strip() not in public:
            cells.append(text)  # a cell the student added or changed (or an answer lost its id)
            answers.setdefault(f"added-{len(answers)}", text)
    for gid in sorted(set(by_id) - seen):
        if gid in tests or gid in instructor:
            reasons.append(f"cell {gid} deleted")
        if gid in instructor:
            cells.insert(0, _source(by_id[gid]))
    return cells, answers, tests, sorted(set(reasons))


def _python(text):
    return "\n".join("" if ln.lstrip().startswith(("%", "!")) else ln for ln in text.splitlines())


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


def _bindings(tree):
    bound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                bound[a.asname or a.name.split(".")[0]] = (
                    a.name if a.asname else a.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                bound[a.asname or a.name] = f"{node.module}.{a.name}"
    return bound


def _forbidden(path, lab):
    if not path.startswith(("sklearn", "perclib")) or path.split(".")[0] not in (
        "sklearn",
        "perclib",
    ):
        return False
    if path.startswith(TOOLS) or path == "perclib":
        return False
    allowed = ALLOWED.get(lab, ())
    return not any(
        a == path or a.startswith(path + ".") or path.startswith(a + ".") for a in allowed
    )


def inspect_code(lab, cells, graded):
    """Read the student's code: the graded functions that wrap perclib or scikit-learn (directly
    or through a helper of the student's), and the suspicious names used anywhere."""
    trees = []
    for text in cells:
        try:
            trees.append(ast.parse(_python(text)))
        except SyntaxError:
            continue
    bound = {}
    for tree in trees:
        bound.update(_bindings(tree))
    functions, tainted_names, flags = {}, set(), set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in SUSPICIOUS:
                flags.add(node.id)
            elif isinstance(node, ast.Attribute) and node.attr in SUSPICIOUS:
                flags.add(node.attr)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for a in node.names:
                    root = (getattr(node, "module", None) or a.name).split(".")[0]
                    if root in SUSPICIOUS:
                        flags.add(root)
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions[node.name] = node
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and _uses(
                node.value, bound, lab, set()
            ):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                tainted_names |= {t.id for t in targets if isinstance(t, ast.Name)}

    wrappers = set()
    changed = True
    while changed:
        changed = False
        for name, node in functions.items():
            if name in wrappers:
                continue
            local = {**bound, **_bindings(node)}
            helpers = tainted_names | {w for w in wrappers if w not in graded}
            if _uses(node, local, lab, helpers):
                wrappers.add(name)
                changed = True
    return sorted(wrappers & set(graded)), sorted(flags)


def _uses(node, bound, lab, tainted):
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Import, ast.ImportFrom)):
            for path in _bindings(ast.Module(body=[sub], type_ignores=[])).values():
                if _forbidden(path, lab):
                    return True
        if isinstance(sub, ast.Name) and sub.id in tainted:
            return True
        if isinstance(sub, (ast.Name, ast.Attribute)):
            parts = _dotted(sub)
            if parts and parts[0] in bound:
                path = ".".join([bound[parts[0]], *parts[1:]])
                if _forbidden(path, lab):
                    return True
    return False


def graded_functions(course, lab):
    """The names of the functions the lab grades: the answer cells that define their namesake."""
    source = json.loads((pathlib.Path(course) / "source" / lab / f"{lab}.ipynb").read_text())
    names = set()
    for cell in source["cells"]:
        gid = _meta(cell).get("grade_id")
        if _meta(cell).get("solution") and cell["cell_type"] == "code":
            if re.search(rf"^def {re.escape(gid)}\(", _source(cell), re.M):
                names.add(gid)
    return names


def grade(course, lab, student, notebook_path):
    """The verdict on one submission (a JSON-ready dict): per test its points, score and hint;
    the status (graded, tampered, timed out, failed to grade), the reasons and the flags."""
    started, cpu = time.monotonic(), time.process_time()
    path = pathlib.Path(notebook_path)
    raw = path.read_bytes()
    verdict = {
        "lab": lab, "student": student, "status": "graded", "reasons": [], "flags": [],
        "tests": {}, "answers": {}, "variant": variant(lab, student),
        "key": cache_key(raw, lab, course), "grader": grader_version(),
    }  # fmt: skip
    try:
        notebook = json.loads(raw)
        if not isinstance(notebook, dict):
            raise ValueError("not a notebook")
    except ValueError:
        verdict.update(status="failed to grade", reasons=["the file is not a notebook (JSON)"])
        return verdict
    cells, answers, tests, reasons = read(course, lab, notebook)
    verdict["answers"], verdict["reasons"] = answers, reasons
    if reasons:
        verdict["status"] = "tampered"
    graded = graded_functions(course, lab)
    wrappers, flags = inspect_code(lab, cells, graded)
    verdict["flags"] = flags + [f"wraps perclib/scikit-learn: {w}" for w in wrappers]
    runner = _Runner(path.parent, cells, started)
    functions = tests_of(lab)
    try:
        for test, points in tests.items():
            hint, error = None, None
            if test not in functions:
                error = f"no hidden test {test} in the grader"
            else:
                grading = Grading(runner, rng_for(lab, test, student), wrappers)
                try:
                    hint = check(lab, test, grading)
                except TimedOut:
                    hint = (f"hidden test {test} failed: your code ran past the time or memory "
                            "limit on a hidden input (an endless loop?)")  # fmt: skip
                    verdict["status"] = (
                        "timed out" if verdict["status"] == "graded" else verdict["status"]
                    )
                except Unusable as failure:
                    if _solution_passes(course, lab, test, student):
                        hint = f"hidden test {test} failed: {UNUSABLE}"
                    else:
                        error = f"{failure} (the instructor's solution fails this test too)"
                except GraderError as failure:
                    error = str(failure)
            if error:
                verdict["status"] = "failed to grade"
                verdict["reasons"].append(f"grader error: {error}")
            verdict["tests"][test] = {
                "points": points,
                "score": 0.0 if (hint or error) else points,
                "hint": hint,
                "grader_error": bool(error),
            }
    finally:
        runner.close()
    verdict["seconds"] = round(time.monotonic() - started, 2)
    verdict["worker_cpu"] = round(runner.cpu, 2)
    verdict["grader_cpu"] = round(time.process_time() - cpu, 2)
    return verdict


def _solution_passes(course, lab, test, student):
    """Whether the instructor's solution (the source notebook's code, run here in the grader's
    process: trusted code) passes ``test`` on this student's inputs. A data error that the
    solution meets too is the grader's, never the student's."""
    source = json.loads((pathlib.Path(course) / "source" / lab / f"{lab}.ipynb").read_text())
    ns = {"__name__": "__main__"}
    for cell in source["cells"]:
        if cell["cell_type"] == "code" and not _meta(cell).get("grade"):
            try:
                exec(compile(_python(_source(cell)), f"<{lab} source>", "exec"), ns)
            except Exception:
                continue  # a cell that shows a widget or a figure: not needed by the tests
    try:
        return check(lab, test, Grading(LocalCaller(ns), rng_for(lab, test, student))) is None
    except (Unusable, GraderError, TimedOut):
        return False


class _Runner:
    """The caller of a Grading: a sandboxed worker, restarted after a limit killed it; a function
    that ran past the limits once is not run again, and the submission's whole budget is bounded."""

    def __init__(self, folder, cells, started):
        self.folder, self.cells, self.started = folder, cells, started
        self.worker, self.skip, self.timed_out = None, set(), set()
        self.cpu = 0.0  # the workers' CPU seconds (as they report them: a measurement only)

    def _left(self):
        return BUDGET - (time.monotonic() - self.started)

    def _start(self):
        if self.worker is not None and self.worker.dead is None:
            return self.worker
        self.close()
        if self._left() <= 0:
            raise TimedOut()
        self.worker = Worker(self.folder, cpu_seconds=WORKER_CPU, memory=MEMORY)
        for index, text in enumerate(self.cells):
            if index in self.skip:
                continue
            try:
                self.worker.load([text], min(WALL_CALL, max(self._left(), 1.0)), cpu=CALL_CPU)
            except WorkerDied:
                self.skip.add(index)  # that cell hangs or crashes: run the others without it
                return self._start()
        return self.worker

    def __call__(self, name, args, kwargs, deps, allow, count_rows):
        if name in self.timed_out:
            raise TimedOut()
        worker = self._start()
        try:
            return worker.call(
                name,
                args,
                kwargs,
                deps=deps,
                allow=allow,
                count_rows=count_rows,
                cpu=CALL_CPU,
                timeout=min(WALL_CALL, max(self._left(), 1.0)),
            )
        except WorkerDied:
            self.timed_out.add(name)
            raise TimedOut() from None

    def close(self):
        if self.worker is not None:
            self.worker.close()
            self.cpu += self.worker.cpu or 0.0
            self.worker = None


def grade_to_file(course, lab, student, notebook, out):
    """Grade one submission and write its verdict to ``out`` (JSON, written atomically)."""
    verdict = grade(course, lab, student, notebook)
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(verdict, indent=1))
    tmp.replace(out)
    return verdict


def grade_job(args):
    """:func:`grade_to_file` with its arguments in one tuple (for a process pool)."""
    return grade_to_file(*args)
