"""The exercises of notebook 02 · The update rule.

Answers, anticipated mistakes, hints and worked solutions; the ids are "02-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex02 import check, check_function, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib._engine import activation, is_mistake, step_size
from perclib.exercises import Exercise, ExerciseSet, Mistake

EXERCISES = ExerciseSet()


def _ya_after(ya0=-3.0, x=(1.0, 2.0), bias=1.0, eta=1.0, square=True):
    x = np.asarray(x)
    return ya0 + eta * ((x @ x if square else np.sqrt(x @ x)) + bias)


EXERCISES.add(
    Exercise(
        "02-1",
        "quick",
        "y·a after the update",
        lambda: _ya_after(),
        mistakes=(
            Mistake(
                lambda: _ya_after(bias=0.0),
                "That is the change of y·w.x alone: the bias moves too (b ← b + y), and it adds "
                "one more to y·a.",
            ),
            Mistake(
                lambda: _ya_after(square=False),
                "The step adds the squared length ||x||², not ||x||.",
            ),
            Mistake(
                lambda: -_ya_after(),
                "y·a goes up by the update, whatever the label: check your sign.",
            ),
            Mistake(
                lambda: _ya_after(eta=2.0),
                "That is the (y − ŷ) form with its factor 2; here the rule is the margin rule w ← "
                "w + ηyx with η = 1.",
            ),
        ),
        hint="One update raises y·a by η(||x||² + 1) with a bias: compute ||x||² for x = (1, 2).",
        solution="y·a rises by η(||x||² + 1) = 1·(1 + 4 + 1) = 6, from −3 to 3 (y² = 1 makes the "
        "label's sign irrelevant).",
    )
)


def _updates_to_fix(w, b, x, y, eta=1.0):
    k = 0
    while y * (w @ x + b) <= 0:
        w, b, k = w + eta * y * x, b + eta * y, k + 1
    return k


_P2 = (np.array([-4.0, 0.0]), -2.0, np.array([2.0, 0.0]), 1.0)

EXERCISES.add(
    Exercise(
        "02-2",
        "quick",
        "k",
        lambda: _updates_to_fix(*_P2),
        mistakes=(
            Mistake(
                lambda: _updates_to_fix(*_P2) - 1,
                "Off by one: after that many updates y·a is exactly 0, a tie, and a tie is still "
                "a mistake (y·a <= 0), so one more update comes.",
            ),
            Mistake(
                2.5,
                "That is the ratio −y·a₀ / ||x̃||²; the number of updates is a whole number, the "
                "smallest k with y·a₀ + k·||x̃||² > 0.",
            ),
            Mistake(3.5, "With a bias the step is ||x||² + 1 = 5, not ||x||² = 4."),
        ),
        hint="Write y·a after 0, 1, 2, ... updates (each adds ||x||² + 1) and stop at the first "
        "positive value.",
        solution="y·a₀ = −10 and each update adds ||x||² + 1 = 5: −10, −5, 0, 5. After 2 updates "
        "y·a = 0 is a tie, still a mistake, so k = 3 = ⌊10/5⌋ + 1.",
    )
)

EXERCISES.add(
    Exercise(
        "02-3",
        "predict",
        "the factor",
        lambda: 1,
        mistakes=(
            Mistake(
                100,
                "A smaller η makes smaller steps, but from w = 0 every (w, b) is η times the η = "
                "1 run, and sign ignores a positive factor.",
            ),
            Mistake(
                0.01, "The steps are 100 times smaller, but so is everything they are added to."
            ),
            Mistake(
                1e4,
                "The steps are smaller, but the start is zero: nothing is there for them to fight.",
            ),
        ),
        hint="From w = 0, b = 0, write the weights after each update as η times something.",
        solution="By induction every (w, b) of the η = 0.01 run is 0.01 times the (w, b) of the η "
        "= 1 run at the same step, and sign(0.01·a) = sign(a); so the same points are mistakes "
        "and the number of updates is the same: factor 1.",
    )
)


def _update_cases(rng):
    cases = []
    for k in range(30):
        d = int(rng.integers(1, 4))
        w = rng.integers(-3, 4, d).astype(float)
        x = rng.integers(-2, 3, d).astype(float)
        y = float(rng.choice([-1.0, 1.0]))
        eta = float(rng.choice([0.5, 1.0, 2.0]))
        b = float(rng.integers(-3, 4))
        if k % 5 == 0:  # a tie: a = 0, where the margin rule still updates
            b = -float(w @ x)
        a = activation(w, b, x)
        c = step_size(y, a, eta, "margin") if is_mistake(y, a, "margin") else 0.0
        cases.append(((w, b, x, y, eta), (w + c * x, b + c)))
    return cases


def _bug_update(strict=False, bias=True, always=False, sign=1.0, prediction=False):
    def update(w, b, x, y, eta):
        a = w @ x + b
        if prediction:
            c = eta * (y - (1.0 if a >= 0 else -1.0))
            return w + c * x, b + c * bias
        mistake = True if always else (y * a < 0 if strict else y * a <= 0)
        if not mistake:
            return w, b
        return w + sign * eta * y * x, b + sign * eta * y * bias

    return update


EXERCISES.add(
    Exercise(
        "02-4",
        "implement",
        "your perceptron_update",
        _update_cases,
        mistakes=(
            Mistake(
                _bug_update(strict=True),
                "A tie (a = 0, so y·a = 0) is a mistake too: the test is y·a <= 0, not < 0.",
            ),
            Mistake(_bug_update(bias=False), "The bias must move too: b ← b + ηy."),
            Mistake(
                _bug_update(always=True),
                "Update only on a mistake (y·a <= 0); a correct point leaves (w, b) unchanged.",
            ),
            Mistake(
                _bug_update(sign=-1.0),
                "The step has the wrong sign: move towards the point, w ← w + ηyx.",
            ),
            Mistake(
                _bug_update(prediction=True),
                "That is the (y − ŷ) rule: it takes steps of 2η and skips ties with y = +1. Write "
                "the margin rule.",
            ),
        ),
        hint="The margin rule: a = w.x + b; if y·a <= 0 then w ← w + ηyx and b ← b + ηy; return "
        "(w, b).",
        returns=("w", "b"),
        solution="```python\ndef perceptron_update(w, b, x, y, eta):\n    a = w @ x + b\n    if y "
        "* a <= 0:\n        return w + eta * y * x, b + eta * y\n    return w, b\n```\nIt mirrors "
        "the two lines inside CIML's PerceptronTrain loop.",
        seed=202,
    )
)


EXERCISES.add(
    Exercise(
        "02-5",
        "explain",
        "the rule that updates",
        "margin",
        mistakes=(
            Mistake(
                "prediction",
                "Under the prediction rule ŷ = sign(0) = +1 = y: no error is seen. Which rule "
                "calls y·a = 0 a mistake?",
            ),
            Mistake("both", "For y = −1 both update, but here y = +1: what does sign(0) predict?"),
            Mistake("neither", "One of them treats y·a = 0 as a mistake: which test is y·a <= 0?"),
        ),
        hint='Answer "margin", "prediction", "both" or "neither".',
        reasons={  # placeholder options from the solution, to be rewritten with the notebook
            "a": "the margin rule updates when y·a <= 0, and y·a = 0 here; ŷ = sign(0) = +1 = y",
            "b": "both rules update whenever the activation is 0",
            "c": "the prediction rule updates when ŷ ≠ y, and sign(0) = −1 here",
            "d": "neither rule updates on a point that lies on the line",
        },
        reason="a",
        solution="The margin rule updates when y·a <= 0, and y·a = 0 here, so it updates. The "
        "prediction rule "
        'updates when ŷ ≠ y; ŷ = sign(0) = +1 = y, so it does not. Answer: "margin" (with y = −1 '
        "both would update).",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
