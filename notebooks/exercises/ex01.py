"""The exercises of notebook 01 · The perceptron model.

Answers, anticipated mistakes, hints and worked solutions; the ids are "01-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex01 import check, check_function, reveal, show_solution
"""

from __future__ import annotations

import ast

import numpy as np

from perclib._format import num as _num
from perclib.datasets import worked_example
from perclib.exercises import (
    Exercise,
    ExerciseSet,
    Feedback,
    Mistake,
    read_number,
    read_numbers,
    read_words,
)

EXERCISES = ExerciseSet()


# -- 1: the lowest salary approved -------------------------------------------------------------

_CREDIT_W, _CREDIT_B = np.array([0.1, 0.5, -0.3]), -5.0
_YEARS, _DEBT = 2.0, 5.0


def _lowest_salary(bias=_CREDIT_B, years_w=0.5, debt_w=-0.3):
    """The salary s with 0.1 s + years_w·2 + debt_w·5 + bias = 0 (the boundary)."""
    return -(years_w * _YEARS + debt_w * _DEBT + bias) / _CREDIT_W[0]


def _salary(answer):
    """A salary in k$ from a number, or a string such as "55k", "$55k", "$55,000" or "55000"
    (a number of 1000 or more is read as dollars); None if it is not one.

    >>> [_salary(a) for a in (55, "55k", "$55K", "$55,000", 55000, "55 k$", "lots")]
    [55.0, 55.0, 55.0, 55.0, 55.0, 55.0, None]
    """
    if isinstance(answer, str):
        text = answer.strip().lower().replace("$", "").replace(" ", "")
        thousands = text.endswith("k")
        text = text.removesuffix("k").replace(",", "")
        value = read_number(text)
        if value is None:
            return None
        return value if thousands or abs(value) < 1000 else value / 1000
    value = read_number(answer)
    if value is None:
        return None
    return value if abs(value) < 1000 else value / 1000


def _judge_salary(answer):
    got = _salary(answer)
    if got is None:
        return 'give a number for the salary, in k$ (such as 30 or "30k").'
    if abs(got - _lowest_salary()) <= 1e-6:
        return Feedback(True, "Right: the lowest salary is correct.")
    for m in _SALARY_MISTAKES:
        if abs(got - m.value()) <= 1e-6:
            return m.hint
    return (
        "Write the activation as a function of the salary s, with the other features fixed, "
        "and find where its sign changes."
    )


_SALARY_MISTAKES = (
    Mistake(
        lambda: _lowest_salary(bias=0.0),
        "That salary makes the weighted sum of the features 0; the bank compares it with "
        "its threshold. Where is the bias in your working?",
    ),
    Mistake(
        lambda: _lowest_salary(debt_w=0.3),
        "Debt has a negative weight: owing money lowers the score. Check the sign of the "
        "debt's term.",
    ),
    Mistake(
        lambda: _lowest_salary(years_w=0.0),
        "Years in residence count too: the applicant has lived 2 years at their address.",
    ),
    Mistake(
        lambda: _lowest_salary() + 0.1,
        "At the salary you solved for, the activation is exactly 0. Is that applicant "
        "approved or denied in this course (section 2)?",
    ),
    Mistake(
        lambda: _lowest_salary() + 1.0,
        "At the salary you solved for, the activation is exactly 0. Is that applicant "
        "approved or denied in this course (section 2)?",
    ),
)

EXERCISES.add(
    Exercise(
        "01-1",
        "quick",
        "the lowest salary",
        None,
        judge=_judge_salary,
        hint="",
        solution="The activation is 0.1·s + 0.5·2 − 0.3·5 − 5 = 0.1·s − 5.5. It is >= 0 from "
        "s = 55 on, and at s = 55 exactly it is 0, a tie: sign(0) = +1, so that applicant is "
        "approved. The lowest salary is 55 (k$).",
    )
)


# -- 2: which points a line misclassifies --------------------------------------------------------

_LINE2 = (np.array([1.0, -1.0]), 0.0)


def _misclassified(tie=1, w=_LINE2[0], b=_LINE2[1]):
    """The points of the worked example that (w, b) gets wrong, sign(0) = tie (None: no class)."""
    X, y = worked_example()
    a = X @ w + b
    if tie is None:
        wrong = (a != 0) & (np.where(a > 0, 1, -1) != y)
    else:
        wrong = np.where(a > 0, 1, np.where(a < 0, -1, tie)) != y
    return {tuple(float(v) for v in p) for p in X[wrong]}


def _read_points(answer):
    """A set of 2-D points from a list, tuple or array of points; None if it is not one."""
    if isinstance(answer, str):  # "[(1, 2), (0, 0)]" typed as text
        try:
            answer = ast.literal_eval(answer.strip() or "[]")
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
        if isinstance(answer, str):
            return None
    if isinstance(answer, (bytes, dict)):
        return None
    if isinstance(answer, (set, frozenset)):  # "which points": a set is the natural type
        answer = sorted(answer, key=repr)
    try:
        arr = np.array(answer, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    if arr.size == 0:
        return set()
    if arr.shape == (2,):  # one point given without its list
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != 2 or not np.all(np.isfinite(arr)):
        return None
    return {tuple(float(v) for v in p) for p in arr}


def _judge_points(answer):
    got = _read_points(answer)
    if got is None:
        return "give a list of points, such as [(1, 1), (0, 0)], or [] for none."
    X, _ = worked_example()
    points = {tuple(float(v) for v in p) for p in X}
    if not got <= points:
        return "every point of your list must be one of <1,1>, <1,2>, <0,0>, <-1,0>."
    if got == _misclassified():
        return None
    if got == _misclassified(tie=-1):
        return (
            "your list treats a point with a = 0 as predicted −1. What does this course's sign "
            "give at 0?"
        )
    if got == _misclassified(tie=0):
        return (
            "a point with a = 0 is not 'no class' (as np.sign would say): it gets a "
            "prediction like every other point, and it may be right."
        )
    if got == _misclassified(tie=None):
        return "two points lie exactly on the line (a = 0); they get a prediction too."
    return "work out a = x1 − x2 for each point, predict its sign, and compare with its label."


EXERCISES.add(
    Exercise(
        "01-2",
        "predict",
        "your list of misclassified points",
        None,
        judge=_judge_points,
        hint="",
        solution="The activations x1 − x2 are 0, −1, 0, −1 for <1,1>, <1,2>, <0,0>, <−1,0>. With "
        "sign(0) = +1 the predictions are +1, −1, +1, −1 against the labels +1, +1, −1, −1: "
        "<1,2> and <0,0> are misclassified, [(1, 2), (0, 0)]. The two ties go opposite ways: "
        "<1,1> (label +1) is right because sign(0) = +1, <0,0> (label −1) is wrong for the "
        "same reason.",
    )
)


# -- 3: two equations of one line, chosen for what they say about a point ------------------------

_P3 = np.array([3.0, 4.0])
_LINE3 = np.array([3.0, 4.0, -5.0])  # (w1, w2, b) of 3 x1 + 4 x2 - 5 = 0


def _equations(answer):
    """Two (w1, w2, b) triples from any valid form (nested sequences, arrays, a string), or None."""
    if isinstance(answer, str):
        try:
            answer = ast.literal_eval(answer.strip().replace("−", "-"))
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            answer = answer.replace("(", "").replace(")", "")  # "-3, -4, 5, 0.15, 0.2, -0.25"
    got = read_numbers(answer)
    if got is None or got.size != 6:
        return None
    return got.reshape(2, 3)


def _judge_equations(answer):
    got = _equations(answer)
    if got is None:
        return "give two equations as ((w1, w2, b), (w1, w2, b))."
    for k, v in enumerate(got, 1):
        w, b = v[:2], v[2]
        c = float(v @ _LINE3 / (_LINE3 @ _LINE3))  # v = c·(3, 4, −5) if it is the same line
        if not np.any(w):
            return f"equation {k} has w = (0, 0): it is not the equation of a line."
        if not np.allclose(v, c * _LINE3, atol=1e-9):
            x = np.array([-1.0, 2.0])  # a point of the line 3 x1 + 4 x2 − 5 = 0
            return (
                f"equation {k} is not the line 3x1 + 4x2 − 5 = 0: the point (−1, 2) is on that "
                f"line, but your equation gives it {_num(float(w @ x + b))}, not 0."
            )
        distance, activation = (w @ _P3 + b) / np.linalg.norm(w), w @ _P3 + b
        if k == 1 and not np.isclose(distance, -4.0):
            return (
                f"in equation 1, (3, 4) has signed distance {_num(float(distance))}, not −4. "
                "Which way does w point in your equation, and which side is (3, 4) on?"
            )
        if k == 2 and not np.isclose(activation, 1.0):
            return (
                f"in equation 2, the activation at (3, 4) is {_num(float(activation))}, not 1. "
                "What does multiplying the whole equation by a number do to it?"
            )
    return None


EXERCISES.add(
    Exercise(
        "01-3",
        "predict",
        "each of your two equations",
        None,
        judge=_judge_equations,
        hint="",
        solution="Every equation of the line is c·(3x1 + 4x2 − 5) = 0 with c ≠ 0, that is "
        "(w1, w2, b) = c·(3, 4, −5). At (3, 4) its activation is c·(9 + 16 − 5) = 20c and its "
        "signed distance 20c/(|c|·5) = ±4: the size 4 belongs to the line and the point, only "
        "the sign depends on the equation, through the direction of w. (1) Signed distance −4 "
        "needs c < 0, w pointing away from (3, 4): any negative c, such as (−3, −4, 5) or "
        "(−6, −8, 10). (2) Activation 1 needs 20c = 1, c = 1/20: (0.15, 0.2, −0.25), the only "
        "one; the activation, unlike the distance, changes with the scale of the equation. "
        "For example ((−3, −4, 5), (0.15, 0.2, −0.25)).",
    )
)


# -- 4: the mirror image in a hyperplane ---------------------------------------------------------


def _mirror(w, b, x):
    return x - 2 * (w @ x + b) / (w @ w) * w


def _mirror_cases(rng):
    cases = []
    for _ in range(25):
        d = int(rng.integers(2, 6))
        w, x = rng.normal(size=d) * rng.uniform(0.5, 3.0), rng.normal(size=d) * 2
        b = float(rng.normal() * 2)
        cases.append(((w, b, x), _mirror(w, b, x)))
    return cases


EXERCISES.add(
    Exercise(
        "01-4",
        "implement",
        "your mirror",
        _mirror_cases,
        mistakes=(
            Mistake(
                lambda w, b, x: x - (w @ x + b) / (w @ w) * w,
                "Your point lies on the hyperplane: that is the nearest point of it, halfway. "
                "The mirror image is as far beyond the hyperplane as x is before it.",
            ),
            Mistake(
                lambda w, b, x: x - 2 * (w @ x + b) / np.linalg.norm(w) * w,
                "Your step is along w but has the wrong length: scale w and b by 2 (the same "
                "hyperplane) and your result moves. Is the vector you step along of length 1?",
            ),
            Mistake(
                lambda w, b, x: x - 2 * (w @ x) / (w @ w) * w,
                "You mirrored x in the parallel hyperplane through the origin: where is b?",
            ),
            Mistake(
                lambda w, b, x: x + 2 * (w @ x + b) / (w @ w) * w,
                "Your point moved away from the hyperplane, to the side x is already on: its "
                "activation has the same sign as x's.",
            ),
        ),
        hint="Test your result on the failing case: the mirror image's activation is minus that "
        "of x, and the step from x to it is parallel to w. Which of the two fails?",
        solution="Step from x to the hyperplane along the unit normal, then as far again: x is at "
        "signed distance s = (w.x + b)/||w|| on the side of w/||w||, so the mirror image is "
        "x − 2 s w/||w||, that is\n```python\ndef mirror(w, b, x):\n    return x - 2 * (w @ x + b) "
        "/ (w @ w) * w\n```\nIts activation is w.x + b − 2(w.x + b) = −(w.x + b): the same "
        "distance, on the other side.",
        seed=101,
    )
)


# -- 5: "exactly two of three" is not linearly separable, and why --------------------------------

_CUBE = np.array([[i, j, k] for i in (0, 1) for j in (0, 1) for k in (0, 1)], dtype=float)
_TWO_OF_THREE = np.where(_CUBE.sum(axis=1) == 2, 1, -1)
_NONE = {
    "none",
    "no",
    "no plane",
    "no line",
    "no such plane",
    "no separating plane",
    "there is none",
    "there is no plane",
    "there is no such plane",
    "not separable",
    "not linearly separable",
    "it is not separable",
    "it is not linearly separable",
    "it is not",
    "it is not possible",
    "inseparable",
    "non separable",
    "impossible",
    "it is impossible",
    "not possible",
}


def _says_none(said):
    """A normalised answer that says no plane exists ("No.", "impossible", "no plane exists").

    >>> [_says_none(s) for s in ("no", "impossible", "no it is not separable", "no idea")]
    [True, True, True, False]
    >>> _says_none("no it is separable")
    False
    """
    said = said.replace("it s ", "it is ").removesuffix(" exists")
    head, _, rest = said.partition(" ")
    return said in _NONE or (head == "no" and rest in _NONE)


def _judge_two_of_three(answer):
    form = 'give "none" if you think no plane exists, or four numbers (w1, w2, w3, b).'
    if isinstance(answer, str):
        said = read_words(answer)
        return None if _says_none(said) else form
    got = read_numbers(answer)
    if got is None or got.size != 4:
        return form
    w, b = got.ravel()[:3], got.ravel()[3]
    a = _CUBE @ w + b
    wrong = [
        f"<{','.join(str(int(v)) for v in p)}> (a = {_num(v)}, label {t:+d})"
        for p, v, t in zip(_CUBE, a, _TWO_OF_THREE)
        if (1 if v >= 0 else -1) != t
    ]
    return (
        f"your plane gets {', '.join(wrong)} wrong (sign(0) = +1). Write the inequality "
        "each corner puts on (w1, w2, w3, b), and see whether all eight can hold at once."
    )


EXERCISES.add(
    Exercise(
        "01-5",
        "explain",
        "your answer",
        None,
        judge=_judge_two_of_three,
        hint="",
        reasons={
            "a": "It compares the number of active inputs with a threshold, like section 1's "
            "threshold units, so one threshold unit computes it.",
            "b": "The centre of the three +1 corners, (2/3, 2/3, 2/3), is also an average of "
            "two −1 corners, 1/3·<0,0,0> + 2/3·<1,1,1>; the activation is linear, so it would "
            "have to be >= 0 and < 0 there at once.",
            "c": "It has five −1 corners and only three +1 corners, and a plane cannot leave "
            "five corners of the cube on one side.",
            "d": "Turning an input on can turn the output off (from two active to three), and a "
            "function that is not monotone in its inputs is never linearly separable.",
            "e": "The plane x1 + x2 + x3 = 2 passes through the three +1 corners and through no "
            "−1 corner, so a slight tilt or shift of it puts the +1 corners on one side and the "
            "−1 corners on the other.",
        },
        reason="b",
        reason_hints={
            "a": "a threshold unit fires from a count on; does this function stay on when a "
            "third input comes on?",
            "c": "the three-input AND (+1 only at <1,1,1>) leaves seven corners on one side: "
            "count what a plane can do before relying on it.",
            "d": "try x1 AND NOT x2 on two inputs: turning x2 on turns it off. Is it linearly "
            "separable? Look for a line.",
            "e": "on which side of the plane x1 + x2 + x3 = 2 is <0,0,0>, and on which side is "
            "<1,1,1>? Can one shift or tilt put both of them on the same side, away from the "
            "three +1 corners?",
        },
        solution="Not separable (reason b). Suppose (w, b) separated it, with sign(0) = +1. The "
        "+1 corners <1,1,0>, <1,0,1>, <0,1,1> have a >= 0; add the three: 2(w1 + w2 + w3) + "
        "3b >= 0, so the activation at their centre (2/3, 2/3, 2/3) is >= 0. The −1 corners "
        "<0,0,0> and <1,1,1> have b < 0 and w1 + w2 + w3 + b < 0; 1/3 of the first plus 2/3 of "
        "the second is the activation at the same centre, < 0. A contradiction: the convex "
        "hulls of the two classes meet, so no plane separates them (as for XOR). Option a "
        "fails because 'exactly two' is two thresholds (at least two, and not three); c fails "
        "because AND leaves seven corners on one side; d fails because x1 AND NOT x2 is not "
        "monotone yet is separable, e.g. (w1, w2, b) = (1, −1, −0.5); e fails because the "
        "−1 corners <0,0,0> and <1,1,1> lie on opposite sides of x1 + x2 + x3 = 2, so no plane "
        "near it leaves both on the −1 side.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
reveal = EXERCISES.reveal
answered = EXERCISES.answered
