"""The exercises of notebook 05 · Beyond separable data.

Answers, anticipated mistakes, hints and worked solutions; the ids are "05-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex05 import check, check_function, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib import PocketPerceptron
from perclib.datasets import make_xor
from perclib.exercises import Exercise, ExerciseSet, Mistake

EXERCISES = ExerciseSet()


def _xor_pocket_mistakes():
    return PocketPerceptron(max_iter=20).fit(*make_xor()).pocket_mistakes_


EXERCISES.add(
    Exercise(
        "05-1",
        "predict",
        "the pocket's training mistakes",
        _xor_pocket_mistakes,
        mistakes=(
            Mistake(
                1,
                "1 is the best any line does on XOR (the grid search found it). But the pocket "
                "can only keep an iterate the perceptron actually visits: which weight vectors "
                "does the XOR run visit, and how many mistakes does each make?",
            ),
            Mistake(0, "No line separates XOR, so every weight vector makes at least one mistake."),
        ),
        hint="List the weight vectors the cyclic XOR run visits (it repeats the same 4 every "
        "epoch) and count the training mistakes of each.",
        solution=lambda: (
            "The run visits only 4 vectors, w̃ = (b, w1, w2) = (-1, 0, 0), (0, 0, 1), (1, 1, 1), "
            f"(0, 0, 0), over and over; the best of them makes {_xor_pocket_mistakes()} mistakes, "
            f"so the pocket keeps one with {_xor_pocket_mistakes()}, although a line with 1 "
            "mistake exists. The pocket is the best *visited* iterate, not the best line: finding "
            "the best line is NP-hard in general."
        ),
    )
)

EXERCISES.add(
    Exercise(
        "05-2",
        "explain",
        "the answer",
        "no",
        mistakes=(
            Mistake(
                "yes",
                "Write +0.5·y·x̃ in the form −t·y·x̃ (x̃ = (1, x)): which t is it, and is it in "
                "[0, 1]?",
            ),
        ),
        hint='Answer "yes" or "no".',
        reasons={  # placeholder options from the solution, to be rewritten with the notebook
            "a": "+0.5·y·x̃ is −t·y·x̃ with t = −0.5, outside [0, 1]",
            "b": "at the kink every vector is a subgradient",
            "c": "+0.5·y·x̃ is −t·y·x̃ with t = 0.5, inside [0, 1]",
            "d": "the hinge has no subgradient at its kink",
        },
        reason="a",
        solution="The subgradient set at the kink is {−t·y·x̃ : 0 <= t <= 1}, with x̃ = (1, x). "
        "+0.5·y·x̃ is t = −0.5, outside [0, 1], so it is not a subgradient: at a w̃' with y a' > "
        "0 the inequality ℓ(w̃') >= ℓ(w̃) + gᵀ(w̃' − w̃) fails (the left side is 0, the right "
        "side positive).",
    )
)

EXERCISES.add(
    Exercise(
        "05-3",
        "quick",
        "(hinge loss, perceptron loss)",
        (0.75, 0.0),
        mistakes=(
            Mistake(
                (0.0, 0.0),
                "The hinge still penalises a correct point with margin below 1: max(0, 1 − m).",
            ),
            Mistake(
                (0.75, 0.75), "The perceptron loss max(0, −m) is 0 for every correct point (m > 0)."
            ),
            Mistake((1.25, 0.0), "The hinge is max(0, 1 − m), not 1 + m."),
            Mistake(
                (0.0, 0.75),
                "Swapped: the first number is the hinge loss, the second the perceptron loss.",
            ),
        ),
        hint="Both are functions of m = y (wᵀx + b) = 0.25: hinge max(0, 1 − m), perceptron "
        "max(0, −m). Give a pair (hinge, perceptron).",
        solution="With m = 0.25: hinge max(0, 1 − 0.25) = 0.75, perceptron max(0, −0.25) = 0. The "
        "hinge keeps pushing a correct point until m >= 1; the perceptron loss is satisfied as "
        "soon as m > 0.",
    )
)


def _sigma(z):
    return 1.0 / (1.0 + np.exp(-z))


def _logistic_cases(rng):
    cases = []
    for _ in range(25):
        d = int(rng.integers(1, 5))
        w, x, b = rng.normal(size=d), rng.normal(size=d) * 2, float(rng.normal())
        y, eta = float(rng.choice([-1.0, 1.0])), float(rng.uniform(0.05, 1.0))
        s = eta * y * _sigma(-y * (w @ x + b))
        cases.append(((w, b, x, y, eta), (w + s * x, b + s)))
    return cases


def _perceptron_step(w, b, x, y, eta):
    s = eta * y if y * (w @ x + b) <= 0 else 0.0
    return w + s * x, b + s


EXERCISES.add(
    Exercise(
        "05-4",
        "implement",
        "your logistic_update",
        _logistic_cases,
        mistakes=(
            Mistake(
                _perceptron_step,
                "That is the perceptron's step (only on mistakes, full size): the logistic step "
                "is taken on every example, weighted by σ(−y·a).",
            ),
            Mistake(
                lambda w, b, x, y, eta: (
                    w + eta * y * _sigma(y * (w @ x + b)) * x,
                    b + eta * y * _sigma(y * (w @ x + b)),
                ),
                "The weight should be large when the point is badly wrong (y·a very negative): "
                "σ(−y·a), not σ(y·a).",
            ),
            Mistake(
                lambda w, b, x, y, eta: (w + eta * y * _sigma(-y * (w @ x + b)) * x, b),
                "The bias moves too: its input is the constant 1.",
            ),
        ),
        hint="The step is w ← w + η·y·σ(−y·a)·x and b ← b + η·y·σ(−y·a), with a = wᵀx + b and "
        "σ(z) = 1/(1 + e^(−z)).",
        returns=("w", "b"),
        solution="```python\ndef logistic_update(w, b, x, y, eta):\n    a = w @ x + b\n    s = "
        "eta * y / (1 + np.exp(y * a))      # eta * y * sigma(-y a)\n    return w + s * x, b + "
        "s\n```\nWith t = (y + 1)/2 this is (t − σ(a))·x̃ for w̃ = (b, w), x̃ = (1, x): the "
        "perceptron's (t − step(a))·x̃ with the step function made smooth.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
