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
        "the cyclic pocket's training mistakes",
        _xor_pocket_mistakes,
        mistakes=(
            Mistake(
                1,
                "1 is the best any line does on XOR, and a random order gets the pocket "
                "there. But the pocket can only keep a weight vector the run visits, and the "
                "cyclic run visits few: which ones (section 2), and how many mistakes does each "
                "make?",
            ),
            Mistake(0, "No line separates XOR, so every weight vector makes at least one mistake."),
            Mistake(
                4,
                "The pocket counts the mistakes of the prediction, with sign(0) = +1: a point with "
                "a = 0 is predicted +1, which is right when its label is +1.",
            ),
        ),
        hint="List the weight vectors the cyclic XOR run visits (section 2 prints them) and count "
        "the training mistakes of each, predicting +1 where a = 0.",
        solution=lambda: (
            "The cyclic run starts at w̃ = (b, w1, w2) = (0, 0, 0) and then visits (-1, 0, 0), "
            "(0, 0, 1), (1, 1, 1), (0, 0, 0), over and over. (-1, 0, 0) predicts -1 "
            "everywhere; the other three predict +1 everywhere (every activation is >= 0). "
            "Each makes "
            f"{_xor_pocket_mistakes()} mistakes, so the pocket keeps one with "
            f"{_xor_pocket_mistakes()}, although a line with 1 mistake exists. The pocket is the "
            "best *visited* iterate, and a cyclic run is deterministic: it may never visit a best "
            "line. With random picks, Gallant's theorem says the pocket reaches one with "
            "probability tending to 1 (the notebook's check: 20 of 20 seeds)."
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
                "Test the inequality that defines a subgradient at a w̃' on the correct side, "
                "y a' > 0: which side of it is larger?",
            ),
        ),
        hint='Answer "yes" or "no".',
        reasons={
            "a": "its coefficient, 0.5, lies between 0 and 1, like the points of the segment at "
            "the kink",
            "b": "written as −λ·y·x̃ it has λ = −0.5, and at a w̃' with y a' > 0 the subgradient "
            "inequality then asks 0 >= 0.5·y a'",
            "c": "a function has no subgradient at a kink, where it is not differentiable",
            "d": "it points in the direction of the perceptron's update, +y·x̃, which is how the "
            "perceptron descends",
        },
        reason="b",
        reason_hints={
            "a": "The segment at the kink is written with a minus sign, −λ·y·x̃: put g in that "
            "form before you compare its coefficient with [0, 1].",
            "c": "A convex function has subgradients at every point, kinks included: at a kink "
            "there are many (the segment in the text).",
            "d": "Descent moves against a subgradient, so the perceptron's update direction "
            "tells you about −g, not g. Test the inequality that defines a subgradient instead.",
        },
        solution="The subgradient set at the kink is {−λ·y·x̃ : 0 <= λ <= 1}, with x̃ = (1, x). "
        "+0.5·y·x̃ is λ = −0.5, outside [0, 1], so the answer is no, by reason (b): at a "
        "w̃' with y a' > 0 the left side of ℓ(w̃') >= ℓ(w̃) + gᵀ(w̃' − w̃) is 0 and the right "
        "side is 0 + 0.5·y·x̃ᵀw̃' = 0.5·y a' > 0 (ℓ(w̃) = 0 and y·x̃ᵀw̃ = 0 at the kink), so the "
        "inequality fails. (a) forgets the minus sign of the set; (c) is false for convex "
        "functions, which have subgradients everywhere; (d) confuses g with the descent "
        "direction −g.",
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
                "The hinge still penalises a correct point whose margin is below 1.",
            ),
            Mistake(
                (0.75, 0.75),
                "Your perceptron loss: does the perceptron penalise a point it classifies "
                "correctly?",
            ),
            Mistake((1.25, 0.0), "Check the sign with which m enters the hinge."),
            Mistake(
                (0.0, 0.75),
                "Swapped: the first number is the hinge loss, the second the perceptron loss.",
            ),
        ),
        hint="Both losses are functions of m = y (wᵀx + b), given here; read each off its "
        "definition in the section on related losses, and give a pair (hinge, perceptron).",
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
                "That is the perceptron's step: it moves only on mistakes, by a fixed amount. "
                "The logistic step moves on every example, by an amount that depends on a.",
            ),
            Mistake(
                lambda w, b, x, y, eta: (
                    w + eta * y * _sigma(y * (w @ x + b)) * x,
                    b + eta * y * _sigma(y * (w @ x + b)),
                ),
                "Your step is large when the point is already well classified (y·a large) and "
                "small when it is badly wrong: the other way round from a loss's gradient.",
            ),
            Mistake(
                lambda w, b, x, y, eta: (w + eta * y * _sigma(-y * (w @ x + b)) * x, b),
                "The bias moves too: its input is the constant 1.",
            ),
        ),
        hint="Differentiate the loss of this one example, ln(1 + e^(−m)) with m = y (wᵀx + b), "
        "with respect to w and to b, and step against that gradient; compare your result with "
        "the table's (t − σ(a)) form for y = +1 and for y = −1.",
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
