"""Self-checks for the notebooks: a student writes an answer, a helper says right or wrong, and why.

The central one, :func:`check_epoch`, checks a hand-computed perceptron trace (the COMP90049 worked
example by default) row by row and says where it FIRST goes wrong, e.g.
``step 3 (x = <0,0>, epoch 1): your activation θ·x is 1 but it should be 0``. It works for any order
of the points: the order is read from the student's rows.

Notation (the lecture's): θ = (b, w1, ..., wd) is the bias followed by the weights, and x is
augmented with a leading 1, so θ·x = b + w·x. The prediction is ŷ = +1 if θ·x >= 0 else -1
(sign(0) = +1). Under ``rule="prediction"`` (the lecture's) the update is
θ ← θ + η (y − ŷ) (1, x), made when ŷ ≠ y; under ``rule="margin"`` it is θ ← θ + η y (1, x),
made when y θ·x <= 0.

:func:`trace_table` turns a recorded fit (``history_``) into the lecture's table: epoch, x, θ·x,
ŷ, y, update.

Other helpers may append their own functions at the end of this file.
"""

from __future__ import annotations

import html
import numbers
from dataclasses import dataclass

import numpy as np

from . import _validation as V
from ._format import num as _num
from .datasets import worked_example
from .training import train

_TOL = 1e-9


def _point(x):
    """x as the lecture writes it: <1,2>."""
    return "<" + ",".join(_num(t) for t in np.asarray(x).ravel()) + ">"


def _theta(b, w):
    return "(" + ", ".join(_num(t) for t in [b, *np.asarray(w).ravel()]) + ")"


def _sign(v):
    return "+1" if v > 0 else "-1"


# -- the lecture's table from a recorded fit ------------------------------------------------------


class TraceTable:
    """The lecture's trace table: one row per visited example.

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
    """The lecture's table (epoch, x, θ·x, ŷ, y, update) from ``Perceptron(record=True).history_``.

    Parameters
    ----------
    history : sequence of perclib._engine.Step
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
    return arr if arr.shape == (size,) else None


def _scalar(value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    return float(value)


def check_epoch(
    answer,
    X=None,
    y=None,
    *,
    theta0=None,
    rule="prediction",
    eta=1.0,
    epochs=1,
    first_epoch=1,
    reveal=False,
):
    """Check a hand-computed trace and say where it first goes wrong.

    Parameters
    ----------
    answer : list of rows
        One row per visited point, in the order you visited them: a tuple
        ``(x, θ·x, ŷ, θ after the step)`` or a dict with keys x, theta_x, y_hat, theta. θ is
        (b, w1, ..., wd). Leave a value you have not worked out yet as ``...``.
    X, y : optional
        The data (default: the COMP90049 worked example).
    theta0 : sequence, optional
        θ before the first row (default: all zeros).
    rule : {"prediction", "margin"}, default="prediction"
        The lecture's rule θ ← θ + η(y − ŷ)(1, x), or the margin rule θ ← θ + ηy(1, x).
    eta : float, default=1.0
    epochs : int, default=1
        How many epochs the answer should cover (each visits every point once, in any order).
    first_epoch : int, default=1
        The number of the first epoch (for the messages).
    reveal : bool, default=False
        False: a wrong step gets a hint about the kind of mistake (left out the bias, the margin
        rule's step instead of the lecture's, the wrong sign, an update where there is none),
        never the right value. True: the message also says what the value should be (for
        instructors, and for a student who has given up on that step).

    Returns
    -------
    Feedback
        ``correct`` is True only for a complete, correct trace.

    Examples
    --------
    >>> check_epoch([((1, 1), 0, 1, (0, 0, 0)), ((1, 2), 0, 1, (0, 0, 0)),
    ...              ((0, 0), 1, 1, (-2, 0, 0))])  # doctest: +NORMALIZE_WHITESPACE
    step 3 (x = <0,0>, epoch 1): your activation θ·x is 1, which is not b + w1·x1 + w2·x2
    for θ = (0, 0, 0), the θ after the previous step. Recompute it term by term.
    >>> check_epoch([((1, 1), 0, 1, (0, 0, 0)), ((1, 2), 0, 1, (0, 0, 0)),
    ...              ((0, 0), 1, 1, (-2, 0, 0))], reveal=True)  # doctest: +NORMALIZE_WHITESPACE
    step 3 (x = <0,0>, epoch 1): your activation θ·x is 1 but it should be 0
    (θ = (0, 0, 0) before this step, so θ·x = 0 + 0·0 + 0·0).
    """
    X_, ys, _, _ = _setup(X, y, theta0)
    n, d = X_.shape
    if isinstance(answer, (str, bytes, dict)) or not hasattr(answer, "__len__"):
        raise ValueError(
            "answer must be a list of rows, one per visited point: (x, θ·x, ŷ, θ after the step)."
        )
    epochs = V.check_max_iter(epochs, "epochs")
    rows = [_parse_row(r, k) for k, r in enumerate(answer)]
    if not rows:
        return Feedback(
            False,
            f"Your answer has no rows yet: write one row per point ({n} per epoch), "
            f"then run this cell.",
            1,
            neutral=True,
        )
    if len(rows) > epochs * n:
        return Feedback(
            False,
            f"Your answer has {len(rows)} rows, but {epochs} epoch(s) of {n} points have "
            f"{epochs * n}. Each epoch visits every point exactly once.",
            None,
        )

    order = []
    for k, (x, *_rest) in enumerate(rows):
        where = f"step {k + 1} (epoch {first_epoch + k // n})"
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
        start = (k // n) * n
        unused = [int(i) for i in hits if int(i) not in order[start:]]
        if not unused:
            return Feedback(
                False,
                f"{where}: x = {_point(xv)} was already visited in this epoch; "
                f"each epoch visits every point exactly once.",
                k + 1,
            )
        order.append(unused[0])

    truth = epoch_trace(X_, np.where(ys > 0, 1, -1), order, theta0=theta0, rule=rule, eta=eta)
    theta = np.zeros(d + 1) if theta0 is None else np.asarray(theta0, dtype=np.float64)
    for k, (row, ref) in enumerate(zip(rows, truth)):
        where = f"step {k + 1} (x = {_point(ref['x'])}, epoch {first_epoch + k // n})"
        message = _check_row(row[1:], ref, theta, where, rule, eta, d, reveal)
        if message:
            return Feedback(False, message, k + 1, neutral=message.endswith("then run this cell."))
        theta = ref["theta"]
    if len(rows) < epochs * n:
        return Feedback(
            False, f"All {len(rows)} steps so far are right; {epochs * n - len(rows)} to go.", None
        )
    return Feedback(
        True, f"Right: all {len(rows)} steps are correct; θ ends at {_theta(theta[0], theta[1:])}."
    )


def _check_row(row, ref, theta, where, rule, eta, d, reveal=True):
    theta_x, y_hat, theta_after = row
    if not reveal:
        return _hint_row(row, ref, theta, where, rule, eta, d)
    before = _theta(theta[0], theta[1:])
    x = ref["x"]
    for key, value in zip(("theta_x", "y_hat", "theta"), row):
        if _blank(value):
            return f"{where}: fill in your {_NAMES[key]}, then run this cell."
    a = _scalar(theta_x)
    if a is None:
        return f"{where}: your activation θ·x should be a number; got {theta_x!r}."
    if abs(a - ref["theta_x"]) > _TOL:
        terms = " + ".join(
            [_num(theta[0])] + [f"{_num(t)}·{_num(v)}" for t, v in zip(theta[1:], x)]
        )
        return (
            f"{where}: your activation θ·x is {_num(a)} but it should be {_num(ref['theta_x'])} "
            f"(θ = {before} before this step, so θ·x = {terms})."
        )
    p = _scalar(y_hat)
    if p is None or p not in (-1.0, 1.0):
        return f"{where}: your prediction ŷ should be +1 or -1; got {y_hat!r}."
    if p != ref["y_hat"]:
        return (
            f"{where}: your prediction ŷ is {_sign(p)} but it should be {_sign(ref['y_hat'])} "
            f"(ŷ = +1 when θ·x >= 0, so sign(0) = +1; here θ·x = {_num(ref['theta_x'])})."
        )
    t = _vector(theta_after, d + 1)
    if t is None:
        return (
            f"{where}: θ after the step should be {d + 1} numbers (b, w1, ..., w{d}); "
            f"got {theta_after!r}."
        )
    if np.any(np.abs(t - ref["theta"]) > _TOL):
        y = ref["y"]
        if not ref["updated"]:
            why = (
                f"ŷ = y = {_sign(y)}, so there is no update"
                if rule == "prediction"
                else f"y·θ·x = {_num(y * ref['theta_x'])} > 0, so there is no update"
            )
        elif rule == "prediction":
            why = (
                f"ŷ = {_sign(ref['y_hat'])} but y = {_sign(y)}, so θ ← θ + η(y − ŷ)(1, x) = "
                f"{before} + {_num(eta * (y - ref['y_hat']))}·(1, {', '.join(_num(v) for v in x)})"
            )
        else:
            why = (
                f"y·θ·x = {_num(y * ref['theta_x'])} <= 0, so θ ← θ + ηy(1, x) = "
                f"{before} + {_num(eta * y)}·(1, {', '.join(_num(v) for v in x)})"
            )
        return (
            f"{where}: your θ after the step is {_theta(t[0], t[1:])} but it should be "
            f"{_theta(ref['theta'][0], ref['theta'][1:])} ({why})."
        )
    return None


def _hint_row(row, ref, theta, where, rule, eta, d):
    """The first wrong entry of a row: a hint about the kind of mistake, not the right value."""
    theta_x, y_hat, theta_after = row
    before = _theta(theta[0], theta[1:])
    x = ref["x"]
    for key, value in zip(("theta_x", "y_hat", "theta"), row):
        if _blank(value):
            return f"{where}: fill in your {_NAMES[key]}, then run this cell."
    terms = "b + " + " + ".join(f"w{j + 1}·x{j + 1}" for j in range(d))
    a = _scalar(theta_x)
    if a is None:
        return f"{where}: your activation θ·x should be a number; got {theta_x!r}."
    if abs(a - ref["theta_x"]) > _TOL:
        if abs(a - (ref["theta_x"] - theta[0])) <= _TOL and theta[0] != 0:
            return (
                f"{where}: your activation θ·x leaves out the bias b, θ's first entry "
                "(x is augmented with a 1)."
            )
        return (
            f"{where}: your activation θ·x is {_num(a)}, which is not {terms} "
            f"for θ = {before}, the θ "
            f"after the previous step. Recompute it term by term."
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
    z, y = np.concatenate([[1.0], x]), ref["y"]
    if not ref["updated"]:
        why = "ŷ = y here" if rule == "prediction" else "y·θ·x > 0 here"
        return f"{where}: {why}, so the rule makes no update: θ after the step is θ before it."
    c = float(np.round((ref["theta"] - theta) @ z / (z @ z), 12))
    guesses = [
        (
            theta,
            "this step is a mistake, so θ changes"
            + (" (ŷ ≠ y)" if rule == "prediction" else " (y·θ·x <= 0)"),
        ),
        (
            theta - c * z,
            "the step goes towards the point's label: θ + c·(1, x) with c of y's sign, not minus",
        ),
        (
            theta + np.concatenate([[0.0], c * x]),
            "the bias changes too: the augmented x starts with a 1, so b moves by the same factor",
        ),
    ]
    if rule == "prediction":
        guesses.append(
            (
                theta + eta * y * z,
                "you took the margin rule's step ηy(1, x); the lecture's rule adds "
                "η(y − ŷ)(1, x), which is twice that on a mistake",
            )
        )
    else:
        guesses.append(
            (
                theta + 2 * eta * y * z,
                "you took the lecture's step η(y − ŷ)(1, x); the margin rule "
                "adds ηy(1, x), half of that",
            )
        )
    for guess, hint in guesses:
        if np.all(np.abs(t - guess) <= _TOL):
            return f"{where}: your θ after the step is not right: {hint}."
    formula = "θ + η(y − ŷ)(1, x)" if rule == "prediction" else "θ + ηy(1, x)"
    return f"{where}: your θ after the step is not right: recompute {formula} from θ = {before}."


def check_value(answer, expected, *, what="your answer", why="", tol=1e-9):
    """Legacy (notebooks 05-07 until they move to :func:`check`): a one-value self-check.

    It takes the expected value from the student's cell and prints it on a wrong answer; new
    exercises use the registry (:func:`check`, :func:`check_function`, :func:`show_solution`).

    >>> check_value(3, 2, what="k", why="the point is fixed once y w.x > 0")
    Not yet: k is 3 but it should be 2 (the point is fixed once y w.x > 0).
    >>> check_value(..., 2, what="k")
    Fill in k (it is still ...).
    """
    if _blank(answer):
        return Feedback(False, f"Fill in {what} (it is still ...).")
    reason = f" ({why})" if why else ""
    if isinstance(expected, str):
        ok = isinstance(answer, str) and answer.strip().lower() == expected.lower()
        shown = repr(answer)
    else:
        exp = np.asarray(expected, dtype=np.float64)
        try:
            got = np.asarray(answer, dtype=np.float64)
        except (TypeError, ValueError):
            return Feedback(False, f"Not yet: {what} should be a number; got {answer!r}.")
        ok = got.shape == exp.shape and bool(np.all(np.abs(got - exp) <= tol))
        shown = _num(got) if got.ndim == 0 else "(" + ", ".join(_num(v) for v in got.ravel()) + ")"
        expected = (
            _num(exp) if exp.ndim == 0 else "(" + ", ".join(_num(v) for v in exp.ravel()) + ")"
        )
    if ok:
        return Feedback(True, f"Right: {what} is {expected}{reason}.")
    return Feedback(False, f"Not yet: {what} is {shown} but it should be {expected}{reason}.")


# -- the exercise registry: answers live here, never in the student's cell -----------------------
#
# Each exercise is registered once (by perclib.exercise_bank) under an id such as "01-2" (notebook
# 01, exercise 2). The student's cell holds only their answer and one call:
#
#     answer = ...
#     check("01-2", answer)
#
# The expected value is computed here, from the data, when the check runs; a wrong answer is matched
# against the anticipated mistakes (forgot the bias, wrong sign, squared, off by one, ...) to give a
# hint about the kind of mistake; the worked solution shows only on request, show_solution("01-2").


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
    """One registered exercise.

    kind : "quick", "predict", "implement", "explain" or "choice".
    what : the name of the answer, as the feedback says it ("the signed distance").
    expected : a function of nothing that returns the right answer (numbers, vectors, or a word);
        for "choice", a function ``judge(answer) -> None if right, else a hint``; for "implement",
        a function ``cases(rng) -> list of (args, reference result)``.
    mistakes : anticipated wrong answers with their hints.
    hint : the hint for a wrong answer no mistake explains (it must not give the answer away).
    solution : the worked solution, in Markdown (or a function of nothing that writes it), shown by
        :func:`show_solution` only.
    tol : absolute tolerance for numbers.
    seed : the grader's seed for the random cases of an implement exercise.
    judge : for "choice" (and "explain" with a free conclusion): ``judge(answer) -> None`` when the
        student's own choice is right, else a hint about what is wrong with it (or a whole
        :class:`Feedback`, as :func:`check_epoch` gives for a hand trace).
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


_REGISTRY: dict[str, Exercise] = {}
_KINDS = ("quick", "predict", "implement", "explain", "choice")


def register(exercise):
    """Add an exercise to the registry (ids are unique); returns it."""
    if exercise.kind not in _KINDS:
        raise ValueError(f"kind must be one of {', '.join(_KINDS)}; got {exercise.kind!r}.")
    if exercise.id in _REGISTRY:
        raise ValueError(f"An exercise with the id {exercise.id!r} is already registered.")
    _REGISTRY[exercise.id] = exercise
    return exercise


def get_exercise(exercise_id):
    """The registered exercise with this id (a clear error names the known ids)."""
    from . import exercise_bank  # noqa: F401  (registers the course's exercises)

    if exercise_id not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise ValueError(f"There is no exercise {exercise_id!r}; the exercises are: {known}.")
    return _REGISTRY[exercise_id]


def _has_blank(answer):
    """Whether ``...`` is still somewhere in an answer (a tuple of parts, a list of points)."""
    if _blank(answer):
        return True
    if isinstance(answer, (tuple, list)):
        return any(_has_blank(a) for a in answer)
    return False


def _blank_feedback(what):
    return Feedback(False, f"Fill in {what} (replace the ...), then run this cell.", neutral=True)


def _asked(exercise_id):
    return f"Stuck? show_solution({exercise_id!r}) gives the worked solution."


def _value(v):
    return v() if callable(v) else v


def _same(answer, expected, tol):
    """answer equals expected: words case- and space-blind, numbers within tol, same shape."""
    if isinstance(expected, str):
        return isinstance(answer, str) and " ".join(answer.lower().split()) == expected.lower()
    if isinstance(answer, (str, bytes)) or isinstance(answer, bool) != isinstance(expected, bool):
        return False
    try:
        got = np.asarray(answer, dtype=np.float64)
        exp = np.asarray(expected, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return got.shape == exp.shape and bool(np.all(np.abs(got - exp) <= tol))


def check(exercise_id, answer, *, because=None):
    """Check your answer to a registered exercise: right, or a hint about the kind of mistake.

    Parameters
    ----------
    exercise_id : str
        The exercise, as the notebook names it ("01-2").
    answer : object
        Your answer (a number, a vector, a word, a choice). ``...`` means not answered yet.
    because : str, optional
        For an "explain" exercise: your argument, in a sentence or two. The conclusion is checked;
        the argument is yours to compare with the worked solution.

    Returns
    -------
    Feedback
    """
    ex = get_exercise(exercise_id)
    if ex.kind == "implement":
        raise ValueError(
            f"Exercise {exercise_id!r} asks for a function: use check_function({exercise_id!r}, "
            f"your_function)."
        )
    if _blank(answer) or (ex.judge is None and _has_blank(answer)):
        return _blank_feedback(ex.what)
    if ex.kind == "explain" and (not isinstance(because, str) or len(because.split()) < 4):
        return Feedback(
            False,
            "Write your argument in `because` (a sentence or two), then run this cell.",
            neutral=True,
        )
    if ex.judge is not None:
        problem = ex.judge(answer)
        if isinstance(problem, Feedback):  # a checker with its own verdicts (a hand trace)
            return problem
        if problem is None:
            return Feedback(True, f"Right: {ex.what} works.")
        return Feedback(False, f"Not yet: {problem} {_asked(exercise_id)}")
    if _same(answer, _value(ex.expected), ex.tol):
        return Feedback(True, f"Right: {ex.what} is correct.")
    for m in ex.mistakes:
        if _same(answer, _value(m.value), ex.tol):
            return Feedback(False, f"Not yet: {m.hint} {_asked(exercise_id)}")
    return Feedback(False, f"Not yet: {ex.hint} {_asked(exercise_id)}")


def _close(a, b, tol):
    try:
        a = np.asarray(a, dtype=np.float64)
        b = np.asarray(b, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= tol))


def _flat(result):
    """A function's result as one float vector (tuples such as (w, b) are concatenated)."""
    if isinstance(result, tuple):
        return np.concatenate(
            [np.atleast_1d(np.asarray(r, dtype=np.float64)).ravel() for r in result]
        )
    return np.atleast_1d(np.asarray(result, dtype=np.float64)).ravel()


def _describe(args):
    parts = []
    for a in args:
        arr = np.asarray(a)
        parts.append(
            _num(float(arr))
            if arr.ndim == 0
            else "(" + ", ".join(_num(float(v)) for v in arr.ravel()) + ")"
        )
    return ", ".join(parts)


def check_function(exercise_id, func):
    """Check a function you wrote on the grader's random cases, against perclib's reference.

    The cases are random but fixed by the exercise's seed (the same function gets the same verdict
    on every run). A wrong function gets the first case it fails and a hint about the kind of
    mistake; the right results are not shown.
    """
    ex = get_exercise(exercise_id)
    if ex.kind != "implement":
        raise ValueError(
            f"Exercise {exercise_id!r} asks for a value: use check({exercise_id!r}, answer)."
        )
    if _blank(func):
        return _blank_feedback(ex.what)
    if not callable(func):
        return Feedback(
            False, f"Not yet: pass your function itself (its name, without brackets); got {func!r}."
        )
    cases = ex.expected(np.random.default_rng(ex.seed))[: ex.trials]
    failing = []
    for args, ref in cases:
        copies = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
        try:
            got = func(*copies)
        except Exception as err:  # the student's code: any error is feedback, not a crash
            return Feedback(
                False,
                f"Not yet: on the inputs ({_describe(args)}) your function raised "
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
        try:
            ok = _close(_flat(got), _flat(ref), ex.tol)
        except (TypeError, ValueError):
            ok = False
        if not ok:
            failing.append((args, got))
    if not failing:
        return Feedback(
            True,
            f"Right: {ex.what} agrees with perclib's reference on all {len(cases)} random "
            f"cases (grader's seed {ex.seed}).",
        )
    for m in ex.mistakes:
        try:
            if all(_close(_flat(got), _flat(m.value(*args)), ex.tol) for args, got in failing):
                hint = m.hint
                break
        except Exception:  # a buggy variant may not run on every case: not this mistake
            continue
    else:
        hint = ex.hint
    args, got = failing[0]
    return Feedback(
        False,
        f"Not yet: wrong on {len(failing)} of {len(cases)} random cases; the first is the "
        f"inputs ({_describe(args)}). {hint} {_asked(exercise_id)}",
    )


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


def show_solution(exercise_id):
    """The worked solution of an exercise, for when you have tried (or are stuck)."""
    return Solution(exercise_id, _value(get_exercise(exercise_id).solution))
