"""The exercises of notebook 02 · The update rule.

Answers, anticipated mistakes, hints and worked solutions; the ids are "02-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex02 import check, check_function, reveal, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib.exercises import Exercise, ExerciseSet, Mistake

EXERCISES = ExerciseSet()


# -- 1: the learning rate that lands on a tie -------------------------------------------------

_X1, _YA1 = np.array([1.0, 2.0]), -3.0


def _eta_to_tie(step=None):
    """The eta with y·a + eta·step = 0; step = ||x||² + 1 by default."""
    return -_YA1 / (_X1 @ _X1 + 1 if step is None else step)


EXERCISES.add(
    Exercise(
        "02-1",
        "quick",
        "η",
        lambda: _eta_to_tie(),
        mistakes=(
            Mistake(
                lambda: _eta_to_tie(step=_X1 @ _X1),
                "With a bias, y·a gains more than η·||x||² in an update: b moves too.",
            ),
            Mistake(
                lambda: 1 / _eta_to_tie(),
                "Check your η: one update with it should add exactly 3 to y·a.",
            ),
            Mistake(
                lambda: -_eta_to_tie(),
                "A learning rate is positive: an update always raises y·a, whatever the label.",
            ),
            Mistake(
                lambda: _eta_to_tie(step=np.sqrt(_X1 @ _X1) + 1),
                "The update adds a squared length, not a length.",
            ),
        ),
        hint="Write y·a after one update as a function of η and solve for the tie.",
        solution="One update raises y·a by η(||x||² + 1) = η(1 + 4 + 1) = 6η (y² = 1, so the "
        "label's sign does not matter). From −3 it reaches 0 when 6η = 3: η = 1/2. The point is "
        "then on the boundary, a tie, which the margin rule still counts as a mistake.",
    )
)


# -- 2: how many updates one point forces -------------------------------------------------------


def _updates_to_fix(w, b, x, y, eta=1.0, bias_in_a=True, bias_moves=True):
    k = 0
    while y * (w @ x + b * bias_in_a) <= 0:
        w, b, k = w + eta * y * x, b + eta * y * bias_moves, k + 1
    return k


_P2 = (np.array([-5.0, -5.0]), 1.0, np.array([1.0, 1.0]), 1.0)

EXERCISES.add(
    Exercise(
        "02-2",
        "quick",
        "k",
        lambda: _updates_to_fix(*_P2),
        mistakes=(
            Mistake(
                lambda: _updates_to_fix(*_P2) - 1,
                "Off by one: after that many updates where is the point? Check y·a there, and the "
                "test for a mistake.",
            ),
            Mistake(
                lambda: _updates_to_fix(*_P2, bias_in_a=False, bias_moves=False),
                "You worked as if the model had no bias: here b = 1 is part of a, and it moves.",
            ),
            Mistake(
                lambda: _updates_to_fix(*_P2, bias_moves=False),
                "Check both parts of the bias: b is in the activation, and each update moves b as "
                "well as w.",
            ),
            Mistake(4.5, "That is not a whole number of updates: count them one by one."),
        ),
        hint="Write y·a after 0, 1, 2, ... updates and stop at the first value that is not a "
        "mistake.",
        solution="y·a₀ = −5 − 5 + 1 = −9 and each update adds ||x||² + 1 = 3: −9, −6, −3, 0, 3. "
        "After 3 updates y·a = 0 is a tie, still a mistake, so k = 4 = ⌊9/3⌋ + 1.",
    )
)


# -- 3: the learning rate from zero ---------------------------------------------------------------

EXERCISES.add(
    Exercise(
        "02-3",
        "predict",
        "the factor",
        lambda: 1,
        mistakes=(
            Mistake(
                100,
                "Smaller steps do not by themselves mean more of them. Write the weights after "
                "the first few updates as multiples of η, and ask which points are mistakes.",
            ),
            Mistake(0.01, "Fewer updates would need bigger steps, and the steps got smaller."),
            Mistake(
                1e4,
                "Smaller steps do not by themselves mean more of them. Write the weights after "
                "the first few updates as multiples of η, and ask which points are mistakes.",
            ),
        ),
        hint="From w = 0, b = 0, write the weights after each update as η times something.",
        solution="By induction every (w, b) of the η = 0.01 run is 0.01 times the (w, b) of the η "
        "= 1 run at the same step, and sign(0.01·a) = sign(a); so the same points are mistakes "
        "and the number of updates is the same: factor 1.",
    )
)


# -- 4: one step of the prediction rule ----------------------------------------------------------


def _prediction_step(w, b, x, y, eta, tie=1.0, factor=None, bias=True, sign=1.0):
    a = w @ x + b
    y_hat = 1.0 if a > 0 else (-1.0 if a < 0 else tie)
    c = sign * eta * ((y - y_hat) if factor is None else factor * y * (y_hat != y))
    return w + c * x, b + c * bias


def _update_cases(rng):
    cases = []
    for k in range(30):
        d = int(rng.integers(1, 4))
        w = rng.integers(-3, 4, d).astype(float)
        x = rng.integers(-2, 3, d).astype(float)
        y = float(rng.choice([-1.0, 1.0]))
        eta = float(rng.choice([0.5, 1.0, 2.0]))
        b = float(rng.integers(-3, 4))
        if k % 4 == 0:  # a tie, a = 0, with either label
            b = -float(w @ x)
        cases.append(((w, b, x, y, eta), _prediction_step(w, b, x, y, eta)))
    return cases


def _bug(**kw):
    return lambda w, b, x, y, eta: _prediction_step(w, b, x, y, eta, **kw)


EXERCISES.add(
    Exercise(
        "02-4",
        "implement",
        "your prediction_update",
        _update_cases,
        returns=("w", "b"),
        mistakes=(
            Mistake(
                _bug(tie=0.0),
                "Your function goes wrong on ties (a = 0): np.sign(0) is 0, which is no class. "
                "What does this course predict there?",
            ),
            Mistake(
                _bug(tie=-1.0),
                "Your function goes wrong on ties (a = 0): which class does this course's sign "
                "give at 0?",
            ),
            Mistake(
                _bug(factor=1.0),
                "Your steps have the right direction but half the length: what is y − ŷ on a "
                "mistake?",
            ),
            Mistake(_bug(bias=False), "Your w is right but your b is not: the bias moves too."),
            Mistake(
                _bug(sign=-1.0),
                "Your steps move the boundary away from the point: check the sign of the step.",
            ),
        ),
        hint="Compare your (w, b) with the failing case worked by hand: first ŷ, then y − ŷ, then "
        "the step.",
        solution="```python\ndef prediction_update(w, b, x, y, eta):\n    y_hat = 1 if w @ x + b "
        ">= 0 else -1  # sign(0) = +1\n    c = eta * (y - y_hat)  # 0, or 2·eta·y on an error\n"
        "    return w + c * x, b + c\n```\nOn a tie with y = +1, ŷ = +1 = y and nothing changes; "
        "with y = −1 the step is −2η.",
        seed=202,
    )
)


# -- 5: which rule updates on a tie ---------------------------------------------------------------

_RULES = {
    "margin": "margin",
    "margin rule": "margin",
    "the margin rule": "margin",
    "prediction": "prediction",
    "prediction rule": "prediction",
    "the prediction rule": "prediction",
    "both": "both",
    "both rules": "both",
    "neither": "neither",
    "none": "neither",
    "no rule": "neither",
}


def _rule(word):
    if not isinstance(word, str):
        return None
    return _RULES.get(" ".join(word.lower().replace("-", " ").replace('"', "").split()))


def _judge_tie(answer):
    form = 'give a pair, such as ("both", "neither"): the rule for y = +1, then for y = −1.'
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 2:
        return form
    plus, minus = (_rule(a) for a in answer)
    if plus is None or minus is None:
        return form + ' Each is "margin", "prediction", "both" or "neither".'
    if plus == "margin" and minus == "both":
        return None
    wrong = []
    if plus != "margin":
        wrong.append("y = +1")
    if minus != "both":
        wrong.append("y = −1")
    return (
        f"your answer for {' and '.join(wrong)} does not follow from the two tests. At a = 0, "
        "work out y·a for the margin rule and ŷ = sign(0) for the prediction rule."
    )


EXERCISES.add(
    Exercise(
        "02-5",
        "explain",
        "your pair",
        None,
        judge=_judge_tie,
        hint="",
        reasons={
            "a": "At a = 0 the margin rule's test y·a <= 0 holds whatever the label, while the "
            "prediction rule compares y with ŷ = sign(0) = +1.",
            "b": "A point with a = 0 lies on the boundary, so every rule counts it as a mistake.",
            "c": "sign(0) = 0, so y − ŷ = y and the prediction rule takes half a step.",
            "d": "The margin rule updates only when the prediction is wrong, as the prediction "
            "rule does.",
        },
        reason="a",
        reason_hints={
            "b": "the prediction rule does not look at where the point is, only at ŷ and y.",
            "c": "in this course sign(0) is not 0.",
            "d": "the margin rule's test is y·a <= 0, not ŷ ≠ y: do they agree when a = 0?",
        },
        solution="The margin rule updates when y·a <= 0; at a = 0, y·a = 0 for either label, so "
        "it updates for y = +1 and for y = −1. The prediction rule updates when ŷ ≠ y; ŷ = "
        'sign(0) = +1, so it updates for y = −1 only. Answer: ("margin", "both"), reason a.',
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
reveal = EXERCISES.reveal
answered = EXERCISES.answered
