"""The exercises of notebook 01 · The perceptron model.

Answers, anticipated mistakes, hints and worked solutions; the ids are "01-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex01 import check, check_function, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib.datasets import worked_example
from perclib.exercises import Exercise, ExerciseSet, Mistake

EXERCISES = ExerciseSet()


_CREDIT_W, _CREDIT_B, _APPLICANT = np.array([0.1, 0.5, -0.3]), -5.0, np.array([50.0, 2.0, 5.0])


def _credit(bias=True, debt_sign=1.0):
    w = _CREDIT_W * np.array([1.0, 1.0, debt_sign])
    a = float(w @ _APPLICANT + (_CREDIT_B if bias else 0.0))
    return 1 if a >= 0 else -1


EXERCISES.add(
    Exercise(
        "01-1",
        "quick",
        "h(x) for this applicant",
        lambda: _credit(),
        mistakes=(
            Mistake(
                lambda: -_credit(),
                "The sign is the wrong way round: the activation decides, and h = +1 only when "
                "w.x + b >= 0. Which way did your activation come out?",
            ),
        ),
        hint="Compute the activation w.x + b term by term (remember the bias b = -5 and the "
        "negative weight of debt), then take its sign.",
        words={"deny": -1, "reject": -1, "approve": 1, "accept": 1},
        solution="w.x + b = 0.1·50 + 0.5·2 − 0.3·5 − 5 = 5 + 1 − 1.5 − 5 = −0.5 < 0, so h(x) = −1 "
        "(deny). Without the bias the score would be 4.5 and the applicant approved: the "
        "threshold matters.",
    )
)


def _misclassified(w, b, tie=1):
    X, y = worked_example()
    a = X @ np.asarray(w, dtype=float) + b
    return int(np.sum(np.where(a > 0, 1, np.where(a < 0, -1, tie)) != y))


EXERCISES.add(
    Exercise(
        "01-2",
        "predict",
        "the number of misclassified points",
        lambda: _misclassified([1, -1], 0),
        mistakes=(
            Mistake(
                lambda: _misclassified([1, -1], 0, tie=0),
                "Two points lie exactly on the line (a = 0). They are not 'no class': sign(0) = "
                "+1, so each of them is predicted +1.",
            ),
            Mistake(
                lambda: _misclassified([1, -1], 0, tie=-1) - 1,
                "Two points lie exactly on the line (a = 0), and they count: sign(0) = +1. Is +1 "
                "right for both of them?",
            ),
        ),
        hint="Work out a = x1 − x2 for each of the four points, predict sign(a) with sign(0) = "
        "+1, and compare with the labels.",
        solution="The activations x1 − x2 are 0, −1, 0, −1 for <1,1>, <1,2>, <0,0>, <−1,0>. With "
        "sign(0) = +1 the predictions are +1, −1, +1, −1 against the labels +1, +1, −1, −1: <1,2> "
        "and <0,0> are wrong, so 2 points are misclassified.",
    )
)


def _distance_cases(rng):
    cases = []
    for _ in range(25):
        d = int(rng.integers(2, 6))
        w, x = rng.normal(size=d) * rng.uniform(0.5, 3.0), rng.normal(size=d) * 2
        b = float(rng.normal() * 2)
        cases.append(((w, b, x), (w @ x + b) / np.linalg.norm(w)))
    return cases


EXERCISES.add(
    Exercise(
        "01-3",
        "quick",
        "the signed distance",
        lambda: (3 * 3 + 4 * 4 - 5) / 5,
        mistakes=(
            Mistake(
                20.0, "That is the activation w.x + b: divide by the length of w to get a distance."
            ),
            Mistake(0.8, "You divided by ||w||² = 25; the distance divides by ||w|| itself."),
            Mistake(5.0, "You left out the bias b = −5."),
            Mistake(
                -4.0, "Check the sign: the point is on the side w points to, where w.x + b > 0."
            ),
        ),
        hint="Use the signed distance (w.x + b) / ||w|| with w = (3, 4), b = −5.",
        solution="(w.x + b)/||w|| = (3·3 + 4·4 − 5)/√(3² + 4²) = 20/5 = 4: the point is 4 units "
        "from the line, on the side w points to.",
    )
)

EXERCISES.add(
    Exercise(
        "01-4",
        "implement",
        "your signed_distance",
        _distance_cases,
        mistakes=(
            Mistake(lambda w, b, x: (w @ x) / np.linalg.norm(w), "You forgot the bias b."),
            Mistake(
                lambda w, b, x: (w @ x + b) / (w @ w), "You divided by ||w||² instead of ||w||."
            ),
            Mistake(lambda w, b, x: w @ x + b, "That is the activation: divide it by ||w||."),
            Mistake(
                lambda w, b, x: abs(w @ x + b) / np.linalg.norm(w),
                "That is the distance without its sign: keep the sign, it says which side the "
                "point is on.",
            ),
            Mistake(
                lambda w, b, x: -(w @ x + b) / np.linalg.norm(w),
                "The sign is flipped: points on the side w points to have a positive distance.",
            ),
            Mistake(
                lambda w, b, x: (w @ x + b) / np.sqrt(w @ w + b * b),
                "You put b into the norm: that is the augmented quantity of notebook 04, not a "
                "distance in the plane of x.",
            ),
        ),
        hint="The signed distance of x from {w.x + b = 0} is (w.x + b) / ||w||; check each part.",
        solution="`return (w @ x + b) / np.linalg.norm(w)`. The activation w.x + b grows by ||w|| "
        "for each unit step along the unit normal w/||w||, so dividing by ||w|| turns it into a "
        "distance.",
        seed=101,
    )
)


def _judge_and(answer):
    try:
        w1, w2, b = (float(v) for v in answer)
    except (TypeError, ValueError):
        return "give three numbers (w1, w2, b), for example (1.0, 2.0, -0.5)."
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
        solution="AND is linearly separable: only <1,1> is +1, and the line x1 + x2 = 1.5 puts it "
        "alone on the + side, so (w1, w2, b) = (1, 1, −1.5) works (activations −1.5, −0.5, −0.5, "
        "0.5). Any line that cuts <1,1> off from the other three corners works too; XOR has no "
        "such line because its +1 corners are opposite each other.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
