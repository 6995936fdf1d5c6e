"""The exercises of notebook 01 · The perceptron model.

Answers, anticipated mistakes, hints and worked solutions; the ids are "01-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex01 import check, check_function, reveal, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib._format import num as _num
from perclib.datasets import worked_example
from perclib.exercises import Exercise, ExerciseSet, Mistake, _numbers, _words

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


# -- 3: the signed distance when the line's equation is rescaled -------------------------------

_P3 = np.array([3.0, 4.0])
_FORMS3 = ((np.array([3.0, 4.0]), -5.0), (np.array([-6.0, -8.0]), 10.0))  # the same line


def _distances(norm=np.linalg.norm, scale_b=True):
    """The signed distance of (3, 4) from the line in each of its two forms."""
    out = []
    for w, b in _FORMS3:
        b = b if scale_b or b < 0 else -5.0
        out.append(float((w @ _P3 + b) / norm(w)))
    return tuple(out)


EXERCISES.add(
    Exercise(
        "01-3",
        "quick",
        "the pair of signed distances",
        lambda: _distances(),
        mistakes=(
            Mistake(
                lambda: tuple(abs(v) for v in _distances()),
                "Your two numbers are equal. The line and the point did not move, but one thing "
                "in the formula did change between the two forms: which way does w point in each?",
            ),
            Mistake(
                lambda: _distances(norm=lambda w: 1.0),
                "Those are activations w.x + b, not distances: the second form doubled the "
                "equation, and a distance cannot depend on how the equation is written.",
            ),
            Mistake(
                lambda: _distances(norm=lambda w: w @ w),
                "You divided by the squared length of w.",
            ),
            Mistake(
                lambda: _distances(scale_b=False),
                "In the second form every coefficient is multiplied by −2, the constant too.",
            ),
            Mistake(
                lambda: tuple(-v for v in _distances()),
                "Check the signs: is (3, 4) on the side w points to, or on the other side, in "
                "each form?",
            ),
        ),
        hint="Read w and b off each equation, then use section 3's signed distance for each.",
        solution="First form: w = (3, 4), b = −5, ||w|| = 5, (9 + 16 − 5)/5 = 4. Second form: "
        "w = (−6, −8), b = 10, ||w|| = 10, (−18 − 32 + 10)/10 = −4. Answer (4, −4). Scaling "
        "the equation by a positive number changes nothing; by a negative one it flips w, so "
        "the + side (the side w points to) becomes the other half-plane and the signed distance "
        "changes sign. Its size, the distance itself, stays 4: it belongs to the line and the "
        "point, not to the equation.",
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
        said = _words(answer)
        return None if _says_none(said) else form
    got = _numbers(answer)
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
            "b": "It has five −1 corners and only three +1 corners, and a plane cannot leave "
            "five corners of the cube on one side.",
            "c": "The centre of the three +1 corners, (2/3, 2/3, 2/3), is also an average of "
            "two −1 corners, 1/3·<0,0,0> + 2/3·<1,1,1>; the activation is linear, so it would "
            "have to be >= 0 and < 0 there at once.",
            "d": "Turning an input on can turn the output off (from two active to three), and a "
            "function that is not monotone in its inputs is never linearly separable.",
        },
        reason="c",
        reason_hints={
            "a": "a threshold unit fires from a count on; does this function stay on when a "
            "third input comes on?",
            "b": "the three-input AND (+1 only at <1,1,1>) leaves seven corners on one side: "
            "count what a plane can do before relying on it.",
            "d": "try x1 AND NOT x2 on two inputs: turning x2 on turns it off. Is it linearly "
            "separable? Look for a line.",
        },
        solution="Not separable (reason c). Suppose (w, b) separated it, with sign(0) = +1. The "
        "+1 corners <1,1,0>, <1,0,1>, <0,1,1> have a >= 0; add the three: 2(w1 + w2 + w3) + "
        "3b >= 0, so the activation at their centre (2/3, 2/3, 2/3) is >= 0. The −1 corners "
        "<0,0,0> and <1,1,1> have b < 0 and w1 + w2 + w3 + b < 0; 1/3 of the first plus 2/3 of "
        "the second is the activation at the same centre, < 0. A contradiction: the convex "
        "hulls of the two classes meet, so no plane separates them (as for XOR). Option a "
        "fails because 'exactly two' is two thresholds (at least two, and not three); b fails "
        "because AND leaves seven corners on one side; d fails because x1 AND NOT x2 is not "
        "monotone yet is separable, e.g. (w1, w2, b) = (1, −1, −0.5).",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
reveal = EXERCISES.reveal
answered = EXERCISES.answered
