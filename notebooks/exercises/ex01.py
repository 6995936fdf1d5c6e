"""The exercises of notebook 01 · The perceptron model.

Answers, anticipated mistakes, hints and worked solutions; the ids are "01-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex01 import check, check_function, reveal, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib.datasets import worked_example
from perclib.exercises import Exercise, ExerciseSet, Mistake

EXERCISES = ExerciseSet()


# -- 1: the lowest salary approved -------------------------------------------------------------

_CREDIT_W, _CREDIT_B = np.array([0.1, 0.5, -0.3]), -5.0
_YEARS, _DEBT = 2.0, 5.0


def _lowest_salary(bias=_CREDIT_B, years_w=0.5, debt_w=-0.3):
    """The salary s with 0.1 s + years_w·2 + debt_w·5 + bias = 0 (the boundary)."""
    return -(years_w * _YEARS + debt_w * _DEBT + bias) / _CREDIT_W[0]


EXERCISES.add(
    Exercise(
        "01-1",
        "quick",
        "the lowest salary",
        lambda: _lowest_salary(),
        mistakes=(
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
        ),
        hint="Write the activation as a function of the salary s, with the other features fixed, "
        "and find where its sign changes.",
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
    if isinstance(answer, (str, bytes, dict)):
        return None
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


# -- 3: a signed distance ------------------------------------------------------------------------

EXERCISES.add(
    Exercise(
        "01-3",
        "quick",
        "the signed distance",
        lambda: (3 * 3 + 4 * 4 - 5) / 5,
        mistakes=(
            Mistake(
                20.0,
                "That is the activation w.x + b. Double w and b: the line stays, the point stays, "
                "but your number doubles, so it cannot be a distance.",
            ),
            Mistake(0.8, "You divided by the squared length of w."),
            Mistake(5.0, "Your distance is to the line 3x1 + 4x2 = 0: where is the −5?"),
            Mistake(
                -4.0, "Check the sign: is (3, 4) on the side w points to, or on the other side?"
            ),
        ),
        hint="Section 3 gives the signed distance; find w and b in the line's equation first.",
        solution="(w.x + b)/||w|| = (3·3 + 4·4 − 5)/√(3² + 4²) = 20/5 = 4: the point is 4 units "
        "from the line, on the side w points to.",
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


# -- 5: AND is linearly separable, and why ----------------------------------------------------


def _judge_and(answer):
    if isinstance(answer, str):
        if answer.strip().lower().strip(".!") in ("none", "no", "no line", "not separable"):
            return (
                "before concluding that no line exists, run section 5's XOR argument on AND: "
                "write the four inequalities a separator needs and look for the contradiction."
            )
        return 'give three numbers (w1, w2, b), or "none" if you think no line exists.'
    try:
        w1, w2, b = (float(v) for v in np.asarray(answer, dtype=object).ravel())
    except (TypeError, ValueError):
        return 'give three numbers (w1, w2, b), or "none" if you think no line exists.'
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    y = np.array([-1, -1, -1, 1])
    a = X @ [w1, w2] + b
    wrong = [f"<{int(p[0])},{int(p[1])}> (a = {v:g})" for p, v, t in zip(X, a, y) if t * v <= 0]
    if wrong:
        return (
            f"your line w.x + b = 0 does not put every point strictly on its own side: "
            f"{', '.join(wrong)}. A point with a = 0 is on the line, not on its side."
        )
    return None


EXERCISES.add(
    Exercise(
        "01-5",
        "explain",
        "your separator for AND",
        None,
        judge=_judge_and,
        hint="",
        reasons={
            "a": "Only <1,1> is +1, and a line can cut one corner of the square off from the "
            "other three.",
            "b": "The +1 corners and the −1 corners lie on opposite diagonals of the square.",
            "c": "AND has three −1 points and one +1 point, and a line always splits four points "
            "two and two.",
            "d": "Every Boolean function of two inputs is linearly separable.",
        },
        reason="a",
        reason_hints={
            "b": "check that statement against AND's own four corners: where are its +1 points?",
            "c": "a line can leave any number of the four corners on one side: try one close to "
            "a corner.",
            "d": "section 5 has a function of two inputs that is not.",
        },
        solution="AND is linearly separable (reason a): only <1,1> is +1, and the line "
        "x1 + x2 = 1.5 puts it alone on the + side, so (w1, w2, b) = (1, 1, −1.5) works "
        "(activations −1.5, −0.5, −0.5, 0.5). Any line that cuts <1,1> off from the other three "
        "corners works too. XOR has no such line because its +1 corners are opposite each other.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
reveal = EXERCISES.reveal
answered = EXERCISES.answered
