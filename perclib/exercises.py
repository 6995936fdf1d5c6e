"""Self-checks for the notebooks: a student writes an answer, a helper says right or wrong, and why.

The central one, :func:`check_epoch`, checks a hand-computed epoch of the perceptron (the course's
worked example by default) row by row and says where it FIRST goes wrong, e.g.
``step 3 (x = <0,0>, epoch 1): your activation θ·x is 1, which is not b + w1·x1 + w2·x2 ...``.
It works for any order of the points: the order is read from the student's rows.

Notation (notebook 03's): θ = (b, w1, ..., wd) is the bias followed by the weights, and x is
augmented with a leading 1, so θ·x = b + w·x. The prediction is ŷ = +1 if θ·x >= 0 else -1
(sign(0) = +1). Under ``rule="prediction"`` (the prediction rule) the update is
θ ← θ + η (y − ŷ) (1, x), made when ŷ ≠ y; under ``rule="margin"`` it is θ ← θ + η y (1, x),
made when y θ·x <= 0. :func:`check_epoch` checks the prediction rule with η = 1, the notebook's.

:func:`trace_table` turns a recorded fit (``history_``) into notebook 03's trace table: epoch,
x, θ·x, ŷ, y, update.

:class:`ExerciseSet` holds one notebook's exercises (their answers, anticipated mistakes, hints and
worked solutions, which are course content and live beside the notebook, in notebooks/exercises/)
and gives the notebook ``check``, ``check_function`` and ``show_solution``.
"""

from __future__ import annotations

import functools
import html
import inspect
import numbers
import re
import types
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np

from . import _validation as V
from ._format import num as _num
from .datasets import worked_example
from .training import train

_TOL = 1e-9


def _point(x):
    """x as the trace table writes it: <1,2>."""
    return "<" + ",".join(_num(t) for t in np.asarray(x).ravel()) + ">"


def _theta(b, w):
    return "(" + ", ".join(_num(t) for t in [b, *np.asarray(w).ravel()]) + ")"


def _sign(v):
    return "+1" if v > 0 else "-1"


# -- the trace table from a recorded fit ----------------------------------------------------------


class TraceTable:
    """The trace table: one row per visited example.

    ``rows`` is a list of dicts with keys epoch, x, theta_x, y_hat, y, updated, theta (θ after the
    step, as (b, w1, ..., wd)). Printing gives a plain-text table; in a notebook it shows as HTML.
    """

    COLUMNS = ("epoch", "x", "θ·x", "ŷ", "y", "update")

    def __init__(self, rows):
        self.rows = rows

    def cells(self):
        """The rows as strings, in the order of ``COLUMNS``."""
        out = []
        for r in self.rows:
            update = f"θ ← {_theta(r['theta'][0], r['theta'][1:])}" if r["updated"] else "no"
            out.append(
                [
                    str(r["epoch"]),
                    _point(r["x"]),
                    _num(r["theta_x"]),
                    _sign(r["y_hat"]),
                    _sign(r["y"]),
                    update,
                ]
            )
        return out

    def __len__(self):
        return len(self.rows)

    def __str__(self):
        body = self.cells()
        widths = [max(len(c) for c in col) for col in zip(self.COLUMNS, *body)]

        def line(cells):  # numbers right-aligned, the update column left-aligned
            return "  ".join([c.rjust(wd) for c, wd in zip(cells[:-1], widths)] + [cells[-1]])

        lines = [line(self.COLUMNS), "  ".join("-" * wd for wd in widths)] + [
            line(row) for row in body
        ]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self):
        cell = "padding:2px 10px;text-align:right"
        head = "".join(f"<th style='{cell}'>{html.escape(c)}</th>" for c in self.COLUMNS)
        rows = "".join(
            f"<tr style='background:{'#fbe3d6' if r['updated'] else 'white'}'>"
            + "".join(f"<td style='{cell}'>{html.escape(c)}</td>" for c in row)
            + "</tr>"
            for r, row in zip(self.rows, self.cells())
        )
        return f"<table><tr>{head}</tr>{rows}</table>"


def trace_table(history, *, epochs=None):
    """The trace table (epoch, x, θ·x, ŷ, y, update) from ``Perceptron(record=True).history_``.

    Parameters
    ----------
    history : sequence of perclib.training.Step
        The recorded fit.
    epochs : int or sequence of int, optional
        Keep only these epochs.

    Examples
    --------
    >>> from perclib import Perceptron
    >>> from perclib.datasets import worked_example
    >>> clf = Perceptron(rule="prediction", record=True).fit(*worked_example())
    >>> print(trace_table(clf.history_, epochs=1))
    epoch       x  θ·x   ŷ   y  update
    -----  ------  ---  --  --  --------------
        1   <1,1>    0  +1  +1  no
        1   <1,2>    0  +1  +1  no
        1   <0,0>    0  +1  -1  θ ← (-2, 0, 0)
        1  <-1,0>   -2  -1  -1  no
    """
    if isinstance(history, (str, bytes)) or not hasattr(history, "__iter__"):
        raise ValueError(
            "history must be a sequence of steps, such as model.history_ of "
            "Perceptron(record=True)."
        )
    if epochs is not None:
        keep = {int(epochs)} if isinstance(epochs, numbers.Integral) else {int(e) for e in epochs}
    rows = []
    for k, s in enumerate(history):
        if not all(
            hasattr(s, f) for f in ("epoch", "x", "activation", "y_hat", "y", "updated", "w", "b")
        ):
            raise ValueError(
                f"history[{k}] is not a recorded step (it needs epoch, x, activation, y_hat, y, "
                f"updated, w and b); pass model.history_ of Perceptron(record=True)."
            )
        if epochs is not None and s.epoch not in keep:
            continue
        rows.append(
            {
                "epoch": s.epoch,
                "x": np.array(s.x, dtype=float),
                "theta_x": float(s.activation),
                "y_hat": float(s.y_hat),
                "y": float(s.y),
                "updated": bool(s.updated),
                "theta": np.concatenate([[float(s.b)], np.asarray(s.w, dtype=float)]),
            }
        )
    return TraceTable(rows)


# -- checking a hand-computed trace ----------------------------------------------------------------


@dataclass
class Feedback:
    """The verdict of a self-check: ``correct``, the first wrong ``step`` (1-based, or None) and a
    ``message`` saying what is wrong and why. ``bool(feedback)`` is ``correct``.

    ``neutral`` marks a verdict on an answer not given yet (``...``): it shows without a cross, so
    a stored, unanswered exercise cell looks like an invitation, not a failure."""

    correct: bool
    message: str
    step: int | None = None
    neutral: bool = False

    def __bool__(self):
        return self.correct

    def __str__(self):
        return self.message

    def __repr__(self):
        return self.message

    def _repr_html_(self):
        if self.neutral:
            return f"<span style='color:#555555'>✎ {html.escape(self.message)}</span>"
        colour = "#009E73" if self.correct else "#D55E00"
        mark = "✔" if self.correct else "✘"
        return f"<span style='color:{colour}'>{mark} {html.escape(self.message)}</span>"


def epoch_trace(X, y, order, *, theta0=None, rule="prediction", eta=1.0):
    """The correct trace of visiting the points ``order`` (indices, any length) from θ = ``theta0``.

    Returns a list of dicts with keys index, x, y, theta_x, y_hat, updated, theta (after the step).
    The rule's step is the perceptron engine's own.
    """
    X, ys, w, b = _setup(X, y, theta0)
    V.check_choice(rule, "rule", V.RULES)
    eta = V.check_positive(eta, "eta")
    visit = [int(i) for i in order]
    for i in visit:
        if not 0 <= i < X.shape[0]:
            raise ValueError(f"order holds the index {i}, but there are only {X.shape[0]} points.")
    steps = []  # the perceptron's reference loop, once over the rows in the order given
    train(
        X[visit], ys[visit], w, b, eta=eta, max_iter=1, order="cyclic", rule=rule,
        fit_intercept=True, rng=None, record=steps,
    )  # fmt: skip
    rows = [
        {
            "index": visit[s.index],
            "x": s.x,
            "y": s.y,
            "theta_x": s.activation,
            "y_hat": s.y_hat,
            "updated": s.updated,
            "theta": np.concatenate([[s.b], s.w]),
        }
        for s in steps
    ]
    return rows


def _setup(X, y, theta0):
    if X is None and y is None:
        X, y = worked_example()
    elif X is None or y is None:
        raise ValueError("Give both X and y, or neither (for the worked example).")
    X, y = V.check_X_y(X, y)
    classes = V.binary_classes(y, "The trace")
    ys = V.encode_binary(y, classes)
    d = X.shape[1]
    theta = np.zeros(d + 1) if theta0 is None else np.array(theta0, dtype=np.float64)
    if theta.shape != (d + 1,) or not np.all(np.isfinite(theta)):
        raise ValueError(
            f"theta0 must be {d + 1} finite numbers (b, w1, ..., w{d}); got {theta0!r}."
        )
    return X, ys, theta[1:].copy(), float(theta[0])


_KEYS = ("x", "theta_x", "y_hat", "theta")
_NAMES = {"theta_x": "activation θ·x", "y_hat": "prediction ŷ", "theta": "θ after the step"}


def _parse_row(row, k):
    if isinstance(row, dict):
        missing = [key for key in _KEYS if key not in row]
        if missing:
            raise ValueError(
                f"Row {k + 1} of your answer lacks {', '.join(missing)}; "
                "each row is a dict with the "
                f"keys x, theta_x, y_hat, theta, or a tuple (x, θ·x, ŷ, θ after)."
            )
        return [row[key] for key in _KEYS]
    if isinstance(row, (tuple, list)) and len(row) == 4:
        return list(row)
    raise ValueError(
        f"Row {k + 1} of your answer must be a tuple (x, θ·x, ŷ, θ after the step), "
        f"for example ((1, 1), 0, 1, (0, 0, 0)); got {row!r}."
    )


def _blank(value):
    return value is Ellipsis or value is None


def _vector(value, size):
    try:
        arr = np.array(value, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        return None
    return arr if arr.shape == (size,) and np.all(np.isfinite(arr)) else None


def _scalar(value):
    """value as a finite float, or None (NaN and inf are never a right activation)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    value = float(value)
    return value if np.isfinite(value) else None


def check_epoch(answer, X=None, y=None, *, theta0=None):
    """Check a hand-computed epoch of the prediction rule and say where it first goes wrong.

    Parameters
    ----------
    answer : list of rows
        One row per visited point, in the order you visited them: a tuple
        ``(x, θ·x, ŷ, θ after the step)`` or a dict with keys x, theta_x, y_hat, theta. θ is
        (b, w1, ..., wd). Leave a value you have not worked out yet as ``...``.
    X, y : optional
        The data (default: the worked example of notebook 03).
    theta0 : sequence, optional
        θ before the first row (default: all zeros).

    Returns
    -------
    Feedback
        ``correct`` is True only for a complete, correct epoch (every point visited once, in any
        order). A wrong step gets a hint about the kind of mistake (left out the bias, the margin
        rule's step instead of the prediction rule's, the wrong sign, an update where there is
        none), never the right value.

    Examples
    --------
    >>> check_epoch([((1, 1), 0, 1, (0, 0, 0)), ((1, 2), 0, 1, (0, 0, 0)),
    ...              ((0, 0), 1, 1, (-2, 0, 0))])  # doctest: +NORMALIZE_WHITESPACE
    step 3 (x = <0,0>, epoch 1): your activation θ·x is 1, which is not b + w1·x1 + w2·x2
    for θ = (0, 0, 0), the θ after the previous step. Recompute it term by term.
    """
    X_, ys, _, _ = _setup(X, y, theta0)
    n, d = X_.shape
    if isinstance(answer, (str, bytes, dict)) or not hasattr(answer, "__len__"):
        raise ValueError(
            "answer must be a list of rows, one per visited point: (x, θ·x, ŷ, θ after the step)."
        )
    rows = [_parse_row(r, k) for k, r in enumerate(answer)]
    if not rows:
        return Feedback(
            False,
            f"Your answer has no rows yet: write one row per point ({n}), then run this cell.",
            1,
            neutral=True,
        )
    if len(rows) > n:
        return Feedback(
            False,
            f"Your answer has {len(rows)} rows, but an epoch of {n} points has {n}. "
            "Each epoch visits every point exactly once.",
            None,
        )

    order = []
    for k, (x, *_rest) in enumerate(rows):
        where = f"step {k + 1} (epoch 1)"
        if _blank(x):
            return Feedback(
                False,
                f"{where}: fill in the point x you visit, then run this cell.",
                k + 1,
                neutral=True,
            )
        xv = _vector(x, d)
        if xv is None:
            return Feedback(
                False, f"{where}: x should be a point with {d} coordinates; got {x!r}.", k + 1
            )
        hits = np.flatnonzero(np.all(np.abs(X_ - xv) <= _TOL, axis=1))
        if hits.size == 0:
            return Feedback(
                False,
                f"{where}: x = {_point(xv)} is not one of the data points "
                f"{', '.join(_point(p) for p in X_)}.",
                k + 1,
            )
        unused = [int(i) for i in hits if int(i) not in order]
        if not unused:
            return Feedback(
                False,
                f"{where}: x = {_point(xv)} was already visited in this epoch; "
                f"each epoch visits every point exactly once.",
                k + 1,
            )
        order.append(unused[0])

    truth = epoch_trace(X_, np.where(ys > 0, 1, -1), order, theta0=theta0)
    theta = np.zeros(d + 1) if theta0 is None else np.asarray(theta0, dtype=np.float64)
    for k, (row, ref) in enumerate(zip(rows, truth)):
        where = f"step {k + 1} (x = {_point(ref['x'])}, epoch 1)"
        message = _check_row(row[1:], ref, theta, where, d)
        if message:
            return Feedback(False, message, k + 1, neutral=message.endswith("then run this cell."))
        theta = ref["theta"]
    if len(rows) < n:
        return Feedback(False, f"All {len(rows)} steps so far are right; {n - len(rows)} to go.")
    return Feedback(
        True, f"Right: all {len(rows)} steps are correct; θ ends at {_theta(theta[0], theta[1:])}."
    )


def _check_row(row, ref, theta, where, d):
    """The first wrong entry of a row, or None: a hint about the kind of mistake, not the right
    value."""
    theta_x, y_hat, theta_after = row
    before = _theta(theta[0], theta[1:])
    x = ref["x"]
    for key, value in zip(("theta_x", "y_hat", "theta"), row):
        if _blank(value):
            return f"{where}: fill in your {_NAMES[key]}, then run this cell."
    a = _scalar(theta_x)
    if a is None:
        return f"{where}: your activation θ·x should be a number; got {theta_x!r}."
    if abs(a - ref["theta_x"]) > _TOL:
        if abs(a - (ref["theta_x"] - theta[0])) <= _TOL and theta[0] != 0:
            return (
                f"{where}: your activation θ·x leaves out the bias b, θ's first entry "
                "(x is augmented with a 1)."
            )
        terms = "b + " + " + ".join(f"w{j + 1}·x{j + 1}" for j in range(d))
        return (
            f"{where}: your activation θ·x is {_num(a)}, which is not {terms} "
            f"for θ = {before}, the θ after the previous step. Recompute it term by term."
        )
    p = _scalar(y_hat)
    if p is None or p not in (-1.0, 1.0):
        return f"{where}: your prediction ŷ should be +1 or -1; got {y_hat!r}."
    if p != ref["y_hat"]:
        extra = " A tie θ·x = 0 is predicted +1: sign(0) = +1." if ref["theta_x"] == 0 else ""
        return (
            f"{where}: your prediction ŷ does not follow from your θ·x: "
            f"ŷ = +1 when θ·x >= 0, else -1.{extra}"
        )
    t = _vector(theta_after, d + 1)
    if t is None:
        return (
            f"{where}: θ after the step should be {d + 1} numbers (b, w1, ..., w{d}); "
            f"got {theta_after!r}."
        )
    if np.all(np.abs(t - ref["theta"]) <= _TOL):
        return None
    if not ref["updated"]:
        return f"{where}: ŷ = y here, so the rule makes no update: θ after the step is θ before it."
    z = np.concatenate([[1.0], x])
    c = float(np.round((ref["theta"] - theta) @ z / (z @ z), 12))
    guesses = [
        (theta, "this step is a mistake, so θ changes (ŷ ≠ y)"),
        (
            theta - c * z,
            "the step goes towards the point's label: θ + c·(1, x) with c of y's sign, not minus",
        ),
        (
            theta + np.concatenate([[0.0], c * x]),
            "the bias changes too: the augmented x starts with a 1, so b moves by the same factor",
        ),
        (
            theta + ref["y"] * z,
            "you took the margin rule's step ηy(1, x); the prediction rule adds "
            "η(y − ŷ)(1, x), which is twice that on a mistake",
        ),
    ]
    for guess, hint in guesses:
        if np.all(np.abs(t - guess) <= _TOL):
            return f"{where}: your θ after the step is not right: {hint}."
    return (
        f"{where}: your θ after the step is not right: recompute θ + η(y − ŷ)(1, x) "
        f"from θ = {before}."
    )


# -- a notebook's exercises: answers live there, never in the student's cell ----------------------
#
# Each notebook's exercises are course content, in a module beside it (notebooks/exercises/ex01.py
# for notebook 01), which builds an ExerciseSet under ids such as "01-2" (notebook 01, exercise 2).
# The notebook imports that set's functions, and the student's cell holds only an answer and a call:
#
#     answer = ...
#     check("01-2", answer)
#
# The expected value is computed when the check runs. An answer is first read in the form the
# exercise wants (a number, k numbers, a word, a reason's key); one that cannot be read so gets a
# hint about the form. A readable wrong answer is matched against the anticipated mistakes (forgot
# the bias, wrong sign, ...) to give a hint about the kind of mistake; the worked solution shows
# only on request, show_solution("01-2").


@dataclass
class Mistake:
    """An anticipated wrong answer: ``value`` (a value, or a function of nothing that computes it)
    and the ``hint`` to give when the student's answer equals it. For an implement exercise,
    ``value`` is a buggy implementation, and the hint is given when the student's function agrees
    with it on every failing case."""

    value: object
    hint: str


@dataclass
class Exercise:
    """One exercise of a notebook.

    kind : "quick", "predict", "implement", "explain" or "choice".
    what : the name of the answer, as the feedback says it ("the signed distance").
    expected : a function of nothing that returns the right answer (numbers, vectors, or a word);
        for "choice", a function ``judge(answer) -> None if right, else a hint``; for "implement",
        a function ``cases(rng) -> list of (args, reference result)``.
    mistakes : anticipated wrong answers with their hints.
    hint : the hint for a wrong answer no mistake explains (it must not give the answer away).
    solution : the worked solution, in Markdown (or a function of nothing that writes it), shown by
        :meth:`ExerciseSet.show_solution` only.
    tol : absolute tolerance for numbers (an exercise that asks for 3 decimals sets 5e-4).
    seed : the grader's seed for the random cases of an implement exercise.
    judge : for "choice" (and "explain" that checks a second consequence instead of a reason):
        ``judge(answer) -> None`` when the student's own choice is right, else a hint about what is
        wrong with it (or a whole :class:`Feedback`, as :func:`check_epoch` gives for a hand trace).
    words : synonyms the exercise foresees, a normalised word -> its value
        (``{"deny": -1, "approve": 1}``); words are compared case-, space- and punctuation-blind.
    reasons : for "explain": the plausible justifications, key -> text (``{"a": ..., "b": ...}``);
        the student picks one with ``check(id, answer, because="b")``.
    reason : the key of the right justification.
    reason_hints : key -> a hint on what is wrong with that option's reasoning (optional).
    returns : for "implement" returning a tuple, the names of its parts (``("w", "b")``), for the
        feedback; default "part 1", "part 2", ...
    own_code : for "implement" that asks for the loop itself, an :class:`OwnCode`: the packages a
        function must not reach, and what to do instead.
    """

    id: str
    kind: str
    what: str
    expected: object
    solution: str
    hint: str = "Recheck your working step by step."
    mistakes: tuple = ()
    tol: float = 1e-6
    seed: int = 0
    trials: int = 25
    judge: object = None
    words: dict = field(default_factory=dict)
    reasons: dict = field(default_factory=dict)
    reason: str | None = None
    reason_hints: dict = field(default_factory=dict)
    returns: tuple = ()
    own_code: OwnCode | None = None


_KINDS = ("quick", "predict", "implement", "explain", "choice")


def has_blank(answer):
    """Whether ``...`` is still somewhere in an answer (a tuple of parts, a list of points)."""
    if _blank(answer):
        return True
    if isinstance(answer, (tuple, list)):
        return any(has_blank(a) for a in answer)
    return False


def blank_feedback(what):
    """The neutral verdict on an answer with a ``...`` left in it."""
    return Feedback(False, f"Fill in {what} (replace the ...), then run this cell.", neutral=True)


def _asked(exercise_id):
    return f"Stuck? show_solution({exercise_id!r}) gives the worked solution."


def _value(v):
    return v() if callable(v) else v


# -- reading an answer in the form the exercise wants ---------------------------------------------

_UNREAD = object()  # an answer that cannot be read in the wanted form
_YES_NO = ("yes", "no")


_NUMBER_WORDS = dict(
    zip(
        "zero one two three four five six seven eight nine ten eleven twelve".split(),
        range(13),
    )
)


def read_words(text):
    """A word answer normalised: lower case, punctuation and repeated spaces dropped.

    >>> read_words("  No, it is NOT! "), read_words("margin-rule")
    ('no it is not', 'margin rule')
    """
    return " ".join(re.sub(r"[^\w]+", " ", text.lower()).split())


def read_number(value):
    """One finite float from a number in any valid form (str, int, float, Fraction, Decimal,
    numpy scalar, or one of these alone in a list, tuple or array), or None.

    >>> [read_number(v) for v in (" -1 ", "+1", "1/2", "0.5", True, "nan", "Two", "lots", ["7"])]
    [-1.0, 1.0, 0.5, 0.5, None, None, 2.0, None, 7.0]
    """
    if isinstance(value, (list, tuple, np.ndarray)):
        got = read_numbers(value)
        return None if got is None or got.size != 1 else float(got.ravel()[0])
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, str):
        text = value.strip().replace("−", "-").replace(" ", "")
        text = str(_NUMBER_WORDS.get(read_words(value), text))
        try:
            value = Fraction(text)
        except (ValueError, ZeroDivisionError):
            return None
    if isinstance(value, Decimal):
        value = float(value)
    if not isinstance(value, numbers.Real):
        return None
    value = float(value)
    return value if np.isfinite(value) else None


def read_numbers(value):
    """A float array from numbers in any valid form, nested in lists, tuples or arrays, or None;
    a string of comma-separated numbers is a list of them.

    >>> read_numbers("(4, -4)").tolist(), read_numbers("5, 7").tolist(), read_numbers("1,2,x")
    ([4.0, -4.0], [5.0, 7.0], None)
    """
    if isinstance(value, str) and "," in value:
        value = value.strip().strip("()[]").split(",")
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "iuf":
            arr = value.astype(np.float64)
            return arr if np.all(np.isfinite(arr)) else None
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        parts = [read_numbers(v) for v in value]
        if any(p is None for p in parts):
            return None
        try:
            return np.array(parts, dtype=np.float64)
        except ValueError:  # ragged
            return None
    number = read_number(value)
    return None if number is None else np.array(number)


def read_parts(answer, count, *, spaces=False):
    """A string of ``count`` parts as the tuple of their texts, else ``answer`` unchanged. Parts
    are separated by semicolons (a comma between digits is then a decimal comma), else by commas,
    else (with ``spaces=True``) by spaces; brackets around the whole or a part are dropped.

    >>> read_parts("(no, 1/2)", 2), read_parts("0,8; -0,4; 0,4", 3), read_parts("3 -2", 2)
    (('no', '1/2'), ('0.8', '-0.4', '0.4'), '3 -2')
    """
    if not isinstance(answer, str):
        return answer

    def parts(split):
        return tuple(p for p in (p.strip().strip("()[]").strip() for p in split) if p)

    candidates = [parts(answer.split(","))]
    if ";" in answer:
        semicolons = tuple(
            re.sub(r"^([-+−]?\d+),(\d+)$", r"\1.\2", p) for p in parts(answer.split(";"))
        )
        if not any("," in p for p in semicolons):  # every comma a decimal comma
            candidates.insert(0, semicolons)
    if spaces:
        candidates.append(parts(re.split(r"[\s,;()\[\]]+", answer)))
    return next((c for c in candidates if len(c) == count), answer)


def _parts(expected):
    """Whether expected is a tuple of parts of different kinds (a word and a number, ...)."""
    if not isinstance(expected, (tuple, list)):
        return False
    return any(isinstance(e, str) for e in expected) or read_numbers(expected) is None


def _read(answer, expected, words=None):
    """The answer in the form of ``expected``, or ``_UNREAD``.

    Words: case-, space- and punctuation-blind, through the exercise's synonyms; for a yes/no
    answer also True/False and a sentence whose first word is yes or no. Numbers: any valid form;
    a single number may come as a one-element list; vectors as lists, tuples or arrays.
    """
    if isinstance(answer, str) and words:
        synonyms = {read_words(k): v for k, v in words.items()}
        if read_words(answer) in synonyms:
            answer = synonyms[read_words(answer)]
    if isinstance(expected, str):
        want = read_words(expected)
        if want in _YES_NO:
            if isinstance(answer, (bool, np.bool_)):
                return "yes" if answer else "no"
            if isinstance(answer, str):
                first = read_words(answer).split()[:1]
                return first[0] if first and first[0] in _YES_NO else _UNREAD
            return _UNREAD
        return read_words(answer) if isinstance(answer, str) and read_words(answer) else _UNREAD
    if _parts(expected):
        if not isinstance(answer, (tuple, list, np.ndarray)) or len(answer) != len(expected):
            return _UNREAD
        got = [_read(a, e, words) for a, e in zip(answer, expected)]
        return _UNREAD if any(g is _UNREAD for g in got) else got
    want = read_numbers(expected)
    got = read_numbers(answer)
    if want is None or got is None:
        return _UNREAD
    if want.ndim == 0:
        return got.reshape(()) if got.size == 1 else _UNREAD
    if got.shape != want.shape:
        return (
            got.reshape(want.shape) if np.squeeze(got).shape == np.squeeze(want).shape else _UNREAD
        )
    return got


def _close(got, expected, tol):
    if isinstance(expected, str):
        return got == read_words(expected)
    if _parts(expected):
        return all(_close(g, e, tol) for g, e in zip(got, expected))
    return bool(np.all(np.abs(got - read_numbers(expected)) <= tol))


def _same(answer, expected, tol, words=None):
    """answer equals expected, read in every valid form: words case-, space- and punctuation-blind
    (with the exercise's synonyms), numbers within tol whatever their type, the same shape.

    >>> _same("1/2", 0.5, 1e-9), _same([2], 2, 0), _same("No.", "no", 0), _same(float("nan"), 1, 1)
    (True, True, True, False)
    """
    got = _read(answer, expected, words)
    return got is not _UNREAD and _close(got, expected, tol)


def _form(expected):
    """What an answer of this form is, for a hint about the form: "a number", "3 numbers", ..."""
    if isinstance(expected, str):
        return '"yes" or "no"' if read_words(expected) in _YES_NO else "a word"
    if _parts(expected):
        return f"{len(expected)} parts: " + ", ".join(_form(e) for e in expected)
    shape = read_numbers(expected).shape
    if shape == ():
        return "a number"
    if len(shape) == 1:
        return f"{shape[0]} numbers"
    return f"an array of shape {shape}"


# -- implement exercises: the failing input as given, and what differs ----------------------------


def _shaped(value):
    """A value as the student gave it, nested lists kept: [[1, 2], [3, 4]]."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (np.ndarray, list, tuple)):
        inner = ", ".join(_shaped(v) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    number = read_number(value)
    return _num(number) if number is not None else repr(value)


def _describe(args, func=None):
    """The inputs ``name = value, ...`` with the names of the function's signature where known."""
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        params = []
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(names) < len(args):
        names = [f"argument {k + 1}" for k in range(len(args))]
    return ", ".join(f"{n} = {_shaped(a)}" for n, a in zip(names, args))


def _entries(shape):
    if shape == ():
        return "one number"
    if len(shape) == 1:
        return "1 entry" if shape[0] == 1 else f"{shape[0]} entries"
    return f"shape {shape}"


def _result_parts(result, ref):
    """The result's parts, matched to a tuple reference (w, b), or None."""
    if isinstance(ref, tuple) and isinstance(result, (tuple, list)) and len(result) == len(ref):
        return list(result)
    return None


def _flat(result):
    """A function's result as one float vector (tuples such as (w, b) are concatenated), or None."""
    if isinstance(result, (tuple, list)):
        parts = [read_numbers(r) for r in result]
        return None if any(p is None for p in parts) else np.concatenate([p.ravel() for p in parts])
    got = read_numbers(result)
    return None if got is None else got.ravel()


def _result_same(got, ref, tol):
    """A function's result equals the reference: (w, b) as a tuple or a list, or flattened."""
    parts = _result_parts(got, ref)
    if parts is not None:
        return all(_same(g, r, tol) for g, r in zip(parts, ref))
    if isinstance(ref, tuple):
        flat, want = _flat(got), _flat(ref)
        return (
            flat is not None and flat.shape == want.shape and bool(np.all(abs(flat - want) <= tol))
        )
    return _same(got, ref, tol)


def _difference(got, ref, names, tol):
    """What differs between a result and the reference, without the reference's values:
    "your w has shape (3,), expected 2 entries", "your b is off; your w matches"."""
    if not isinstance(ref, tuple):
        g = read_numbers(got)
        if g is None:
            return f"your result is not numbers (got {type(got).__name__})"
        want = read_numbers(ref)
        if g.size != want.size:
            return f"your result has shape {g.shape}, expected {_entries(want.shape)}"
        return "your result is off"
    names = list(names) or [f"part {k + 1}" for k in range(len(ref))]
    together = "(" + ", ".join(names) + ")"
    parts = _result_parts(got, ref)
    if parts is None:
        count = len(got) if isinstance(got, (tuple, list)) else 1
        return f"your function returns {count} value(s); expected {len(ref)}, {together}"
    off, fine = [], []
    for name, g, r in zip(names, parts, ref):
        gv, rv = read_numbers(g), read_numbers(r)
        if gv is None:
            return f"your {name} is not numbers (got {type(g).__name__})"
        if gv.size != rv.size:
            return f"your {name} has shape {gv.shape}, expected {_entries(rv.shape)}"
        (fine if _same(g, r, tol) else off).append(name)
    text = f"your {' and '.join(off)} {'is' if len(off) == 1 else 'are'} off"
    if fine:
        text += f"; your {' and '.join(fine)} {'matches' if len(fine) == 1 else 'match'}"
    return text


# -- implement exercises that ask for the loop itself, not a library's ---------------------------


def _package(obj):
    """The top-level package of a module, or of the module where ``obj`` was defined."""
    name = obj.__name__ if isinstance(obj, types.ModuleType) else getattr(obj, "__module__", None)
    return name.split(".")[0] if isinstance(name, str) else None


def library_uses(func, packages):
    """The names through which ``func`` reaches ``packages`` (top-level names, "sklearn"): an
    import in its body, a global, closure variable or argument default bound to one of their
    modules or to anything defined there (also inside a ``functools.partial``); functions defined
    in ``func`` or reached through a variable are searched too.

    >>> from sklearn.linear_model import Perceptron
    >>> def fit_sklearn(X, y):
    ...     return Perceptron().fit(X, y)
    >>> def fit(X, y):  # a helper that wraps the library's perceptron
    ...     return fit_sklearn(X, y)
    >>> library_uses(fit, ["sklearn"]), library_uses(lambda X: X.sum(), ["sklearn"])
    ({'Perceptron'}, set())
    """
    found, seen = set(), set()

    def reach(name, obj):
        obj = obj.func if isinstance(obj, functools.partial) else obj
        if _package(obj) in packages:
            found.add(name)
        elif isinstance(obj, types.FunctionType):
            search(obj)

    def search(f):
        code = getattr(f, "__code__", None)
        if code is None or code in seen:
            return
        seen.add(code)
        cells = dict(zip(code.co_freevars, getattr(f, "__closure__", None) or ()))
        defaults = getattr(f, "__defaults__", None) or ()
        named = code.co_varnames[code.co_argcount - len(defaults) : code.co_argcount]
        for name, value in [*zip(named, defaults), *(f.__kwdefaults__ or {}).items()]:
            reach(name, value)  # def fit(X, y, kernel=rbf_kernel): a default is a variable too
        codes = [code]
        while codes:
            c = codes.pop()
            codes.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
            for name in c.co_names + c.co_freevars:
                if name.split(".")[0] in packages:  # an import in the body names its module
                    found.add(name)
                try:
                    obj = cells[name].cell_contents if name in cells else f.__globals__[name]
                except (KeyError, ValueError):  # not a global, or an empty cell
                    continue
                reach(name, obj)

    search(func)
    return found


@dataclass
class OwnCode:
    """For an implement exercise that asks for the loop itself: a function that reaches one of
    ``packages`` (:func:`library_uses`) is refused with ``advice``, what to do instead (an
    anticipated mistake never is).

    >>> exercises = ExerciseSet()
    >>> _ = exercises.add(Exercise("00-2", "implement", "your total", lambda rng: [((3,), 6)],
    ...     solution=".", own_code=OwnCode(["numpy"], "Add them in a loop.")))
    >>> exercises.check_function("00-2", lambda n: np.arange(n + 1).sum())
    Not yet: your function reaches a library through np. Add them in a loop.
    """

    packages: tuple
    advice: str


class Solution:
    """A worked solution: Markdown in a notebook, plain text elsewhere."""

    def __init__(self, exercise_id, text):
        self.exercise_id = exercise_id
        self.text = text

    def __str__(self):
        return f"Solution {self.exercise_id}:\n{self.text}"

    __repr__ = __str__

    def _repr_markdown_(self):
        return f"**Solution {self.exercise_id}.** {self.text}"


def _reason_key(because, reasons):
    """The key of the option a student picked ("b", "(B)", "b)" or the option's text), or None."""
    picked = read_words(because) if isinstance(because, str) else ""
    for key, text in reasons.items():
        if picked in (read_words(key), read_words(text)):
            return key
    return None


class ExerciseSet:
    """The exercises of one notebook, by id, and the checks a student calls on them.

    A notebook's exercises module builds one, adds its exercises, and hands the notebook its
    methods: :meth:`check`, :meth:`check_function`, :meth:`show_solution`, and for a cell after an
    exercise that shows its answer, :meth:`answered` and :meth:`reveal`.

    An answer of parts may come as one string (:func:`read_parts`), with the exercise's synonyms
    in its parts. With ``count_reasons=True`` an explain exercise's reason is judged only once its
    answer is right, and every wrong reason gets one message with the count of those tried so far
    (as "Right" does): trying the keys one by one shows, and no message tells the options apart.

    Examples
    --------
    >>> exercises = ExerciseSet()
    >>> _ = exercises.add(Exercise("00-1", "quick", "the sum", 4, solution="2 + 2 = 4."))
    >>> exercises.check("00-1", 4)
    Right: the sum is correct.
    >>> exercises.check("00-1", 5)  # doctest: +NORMALIZE_WHITESPACE
    Not yet: Recheck your working step by step.
    Stuck? show_solution('00-1') gives the worked solution.
    >>> exercises.check("00-1", "several")
    Not yet: give a number for the sum.
    >>> exercises.show_solution("00-1")
    Solution 00-1:
    2 + 2 = 4.
    >>> _ = exercises.add(Exercise("00-2", "quick", "the pair", ("no", 0.5), solution="."))
    >>> exercises.check("00-2", "No, 1/2")
    Right: the pair is correct.
    """

    def __init__(self, *, count_reasons=False):
        self.count_reasons = count_reasons
        self._exercises = {}
        self._done = set()  # ids answered right or whose solution was shown
        self._reasons_tried = {}  # id -> the wrong reasons picked with a right answer

    def add(self, exercise):
        """Add an exercise (ids are unique); returns it."""
        ex = exercise
        if ex.kind not in _KINDS:
            raise ValueError(f"kind must be one of {', '.join(_KINDS)}; got {ex.kind!r}.")
        if ex.id in self._exercises:
            raise ValueError(f"An exercise with the id {ex.id!r} is already in this set.")
        if ex.kind == "explain" and ex.judge is None and not ex.reasons:
            raise ValueError(
                f"Explain exercise {ex.id!r} needs reasons and the right reason (or a judge of a "
                "second consequence): a conclusion alone can be guessed."
            )
        if ex.reasons and ex.reason not in ex.reasons:
            raise ValueError(
                f"Exercise {ex.id!r}: reason must be one of the keys of reasons "
                f"({', '.join(map(str, ex.reasons))}); got {ex.reason!r}."
            )
        if set(ex.reason_hints) - set(ex.reasons):
            raise ValueError(f"Exercise {ex.id!r}: reason_hints has keys that reasons has not.")
        if ex.own_code is not None and ex.kind != "implement":
            raise ValueError(f"Exercise {ex.id!r}: own_code is for implement exercises only.")
        self._exercises[ex.id] = ex
        return ex

    def __getitem__(self, exercise_id):
        """The exercise with this id (a clear error names the known ids)."""
        if exercise_id not in self._exercises:
            known = ", ".join(sorted(self._exercises)) or "none"
            raise ValueError(f"There is no exercise {exercise_id!r}; the exercises are: {known}.")
        return self._exercises[exercise_id]

    def __iter__(self):
        return iter(self._exercises.values())

    def __len__(self):
        return len(self._exercises)

    def _verdict(self, exercise_id, feedback):
        if feedback.correct:
            self._done.add(exercise_id)
        return feedback

    def check(self, exercise_id, answer, *, because=None):
        """Check your answer to an exercise: right, or a hint about the kind of mistake.

        Parameters
        ----------
        exercise_id : str
            The exercise, as the notebook names it ("01-2").
        answer : object
            Your answer (a number, a vector, a word, a choice). ``...`` means not answered yet.
        because : str, optional
            For an "explain" exercise with reasons: the key of the reason that justifies your
            answer ("b"). Leave it ``...`` to see the options.

        Returns
        -------
        Feedback
        """
        ex = self[exercise_id]
        picked = _reason_key(because, ex.reasons) if isinstance(because, str) else None
        if self.count_reasons and ex.kind == "explain" and picked and not has_blank(answer):
            return self._verdict(exercise_id, self._check_reason(ex, answer, picked))
        return self._verdict(exercise_id, self._check(exercise_id, answer, because))

    def _check_reason(self, ex, answer, picked):
        """The answer judged as if the reason were right; once it is, the reason alone."""
        verdict = self._check(ex.id, answer, ex.reason)
        if not verdict.correct:
            return verdict
        tried = self._reasons_tried.setdefault(ex.id, set())
        if picked != ex.reason:
            tried.add(picked)
            return Feedback(
                False,
                f"Not yet: your answer is right, but reason {picked!r} does not justify it. "
                f"Reasons tried so far: {len(tried)} of {len(ex.reasons) - 1} wrong ones. Test "
                "each option on this exercise's own numbers before you pick again. "
                + _asked(ex.id),
            )
        after = f" after {len(tried)} wrong reason(s)" if tried else " at the first try"
        return Feedback(True, f"Right: {ex.what} and the reason are correct (reason found{after}).")

    def _check(self, exercise_id, answer, because):
        ex = self[exercise_id]
        if ex.kind == "implement":
            raise ValueError(
                f"Exercise {exercise_id!r} asks for a function: use "
                f"check_function({exercise_id!r}, your_function)."
            )
        expected = _value(ex.expected) if ex.judge is None else None
        if isinstance(expected, (tuple, list)):  # the parts may come as one string: "no, 1/2"
            answer = read_parts(answer, len(expected))
        if isinstance(answer, (tuple, list)) and ex.words and ex.judge is None:
            synonyms = {read_words(k): v for k, v in ex.words.items()}  # in a part: "2yx" for 2
            answer = type(answer)(
                synonyms.get(read_words(a), a) if isinstance(a, str) else a for a in answer
            )
        if _blank(answer) or (ex.judge is None and has_blank(answer)):
            return blank_feedback(ex.what)
        if ex.reasons and (_blank(because) or because is None):
            options = "\n".join(f'  "{k}": {t}' for k, t in ex.reasons.items())
            return Feedback(
                False,
                f"Now pick the reason for your answer, because=one of:\n{options}\n"
                "then run this cell.",
                neutral=True,
            )
        if ex.judge is not None:
            problem = ex.judge(answer)
            if isinstance(problem, Feedback):  # a checker with its own verdicts (a hand trace)
                return problem
            if problem is not None:
                return Feedback(False, f"Not yet: {problem} {_asked(exercise_id)}")
            conclusion = None
        else:
            conclusion = _read(answer, expected, ex.words)
        picked = None
        if ex.reasons:
            picked = _reason_key(because, ex.reasons)
            if picked is None:
                keys = ", ".join(f'"{k}"' for k in ex.reasons)
                return Feedback(
                    False, f"Not yet: give because as one of {keys} (the options' keys)."
                )
        if ex.judge is None and conclusion is _UNREAD:
            for m in ex.mistakes:  # a mistake the exercise foresees in another form
                if _same(answer, _value(m.value), ex.tol, ex.words):
                    return Feedback(False, f"Not yet: {m.hint} {_asked(exercise_id)}")
            return Feedback(False, f"Not yet: give {_form(expected)} for {ex.what}.")
        if picked is not None and picked != ex.reason:
            hint = ex.reason_hints.get(
                picked,
                f"reason {picked!r} does not hold here: test it on this exercise's own numbers.",
            )
            return Feedback(False, f"Not yet: {hint} {_asked(exercise_id)}")
        if ex.judge is not None or _close(conclusion, expected, ex.tol):
            return Feedback(True, f"Right: {ex.what} {'works' if ex.judge else 'is correct'}.")
        for m in ex.mistakes:
            if _same(answer, _value(m.value), ex.tol, ex.words):
                return Feedback(False, f"Not yet: {m.hint} {_asked(exercise_id)}")
        return Feedback(False, f"Not yet: {ex.hint} {_asked(exercise_id)}")

    def check_function(self, exercise_id, func):
        """Check a function you wrote on random cases, against the exercise's reference.

        The cases are random but fixed by the exercise's seed (the same function gets the same
        verdict on every run). A wrong function gets the first case it fails (its inputs as given
        to your function), what differs in your result and a hint about the kind of mistake; the
        right results are not shown.
        """
        return self._verdict(exercise_id, self._check_function(exercise_id, func))

    def _check_function(self, exercise_id, func):
        ex = self[exercise_id]
        if ex.kind != "implement":
            raise ValueError(
                f"Exercise {exercise_id!r} asks for a value: use check({exercise_id!r}, answer)."
            )
        if _blank(func):
            return blank_feedback(ex.what)
        if not callable(func):
            return Feedback(
                False,
                f"Not yet: pass your function itself (its name, without brackets); got {func!r}.",
            )
        refusal = self._refusal(ex, func)
        if refusal is not None:
            return refusal
        cases = ex.expected(np.random.default_rng(ex.seed))[: ex.trials]
        failing = []
        for args, ref in cases:
            copies = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
            try:
                got = func(*copies)
            except Exception as err:  # the student's code: any error is feedback, not a crash
                return Feedback(
                    False,
                    f"Not yet: on the inputs {_describe(args, func)} your function raised "
                    f"{type(err).__name__}: {err}",
                )
            if got is None:
                return Feedback(
                    False,
                    "Write the body of your function (it returns nothing yet), then run this cell.",
                    neutral=True,
                )
            if any(
                isinstance(a, np.ndarray) and not np.array_equal(a, c) for a, c in zip(args, copies)
            ):
                return Feedback(
                    False,
                    "Not yet: your function changes its inputs in place; return new values "
                    "instead (w = w + ..., not w += ...).",
                )
            if not _result_same(got, ref, ex.tol):
                failing.append((args, got, ref))
        if not failing:
            return Feedback(
                True,
                f"Right: {ex.what} agrees with the reference on all {len(cases)} random "
                f"cases (grader's seed {ex.seed}).",
            )
        for m in ex.mistakes:
            try:
                if all(_result_same(got, m.value(*args), ex.tol) for args, got, _ in failing):
                    hint = m.hint
                    break
            except Exception:  # a buggy variant may not run on every case: not this mistake
                continue
        else:
            hint = ex.hint
        args, got, ref = failing[0]
        return Feedback(
            False,
            f"Not yet: wrong on {len(failing)} of {len(cases)} random cases; the first is the "
            f"inputs {_describe(args, func)}: {_difference(got, ref, ex.returns, ex.tol)}. "
            f"{hint} {_asked(exercise_id)}",
        )

    def _refusal(self, ex, func):
        """A verdict on ``func`` before its cases run, or None: a function that reaches a library
        where the exercise asks for the loop itself is refused (an anticipated mistake never is)."""
        own = ex.own_code
        if own is None or any(func is m.value for m in ex.mistakes):
            return None
        uses = ", ".join(sorted(library_uses(func, own.packages)))
        if not uses:
            return None
        return Feedback(
            False, f"Not yet: your function reaches a library through {uses}. {own.advice}"
        )

    def show_solution(self, exercise_id):
        """The worked solution of an exercise, for when you have tried (or are stuck)."""
        solution = Solution(exercise_id, _value(self[exercise_id].solution))
        self._done.add(exercise_id)
        return solution

    def answered(self, exercise_id):
        """Whether the exercise was answered right, or its solution shown, in this session."""
        self[exercise_id]  # an unknown id is an error, not False
        return exercise_id in self._done

    def reveal(self, exercise_id, show):
        """For a cell after an exercise that shows its answer: ``show()`` (and its result) once the
        exercise is answered right or its solution shown, else a neutral note.

        Examples
        --------
        >>> exercises = ExerciseSet()
        >>> _ = exercises.add(Exercise("00-1", "quick", "the sum", 4, solution="2 + 2 = 4."))
        >>> show = lambda: print("the sum is 4")  # noqa: E731
        >>> exercises.reveal("00-1", show)  # doctest: +NORMALIZE_WHITESPACE
        Answer exercise 00-1 above first (or run show_solution('00-1')), then run this cell.
        >>> _ = exercises.check("00-1", "4")
        >>> exercises.reveal("00-1", show)
        the sum is 4
        """
        if self.answered(exercise_id):
            return show()
        return Feedback(
            False,
            f"Answer exercise {exercise_id} above first (or run "
            f"show_solution({exercise_id!r})), then run this cell.",
            neutral=True,
        )
