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

EXERCISES = ExerciseSet(count_reasons=True)  # a reason is judged once the answer is right


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
                "1 is the best any line does on XOR. But the pocket can only keep a weight "
                "vector the run visits, and the "
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
        words={"two": 2, "one": 1, "three": 3, "four": 4, "zero": 0},
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
        "(the answer, λ)",
        ("no", -0.5),
        mistakes=(
            Mistake(
                ("no", 0.5),
                "Your λ: the set at the kink is written with a minus sign, −λ·y·x̃. Put g in "
                "exactly that form and read λ off.",
            ),
            Mistake(
                ("yes", 0.5),
                "Your λ: the set at the kink is written with a minus sign, −λ·y·x̃. Put g in "
                "exactly that form, then test the inequality that defines a subgradient.",
            ),
            Mistake(
                ("yes", -0.5),
                "Test the inequality that defines a subgradient at some w̃' away from the "
                "kink: where can its left side be smaller than its right?",
            ),
        ),
        hint='Give a pair: "yes" or "no", and the λ with g = −λ·y·x̃.',
        reasons={
            "a": "its coefficient, 0.5, lies between 0 and 1, like the points of the segment at "
            "the kink",
            "b": "at a w̃' on the correct side, y a' > 0, the subgradient inequality fails",
            "c": "a function has no subgradient at a kink, where it is not differentiable",
            "d": "it points in the direction of the perceptron's update, +y·x̃, which is how the "
            "perceptron descends",
        },
        reason="b",
        solution="The subgradient set at the kink is {−λ·y·x̃ : 0 <= λ <= 1}, with x̃ = (1, x). "
        "+0.5·y·x̃ = −(−0.5)·y·x̃ is λ = −0.5, outside [0, 1], so the answer is no, by reason "
        "(b): at a w̃' with y a' > 0 the left side of ℓ(w̃') >= ℓ(w̃) + gᵀ(w̃' − w̃) is 0 and the "
        "right side is 0 + 0.5·y·x̃ᵀw̃' = 0.5·y a' > 0 (ℓ(w̃) = 0 and y·x̃ᵀw̃ = 0 at the kink), so "
        "the inequality fails. (a) forgets the minus sign of the set; (c) is false for convex "
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
        base = float(rng.choice([2.0, np.e, 10.0, rng.uniform(1.2, 20.0)]))
        s = eta * y * _sigma(-y * (w @ x + b)) / np.log(base)  # the nats step over ln(base)
        cases.append(((w, b, x, y, eta, base), (w + s * x, b + s)))
    return cases


def _perceptron_step(w, b, x, y, eta, base):
    s = eta * y if y * (w @ x + b) <= 0 else 0.0
    return w + s * x, b + s


def _scaled(step, factor):
    """A step c(w, b, x, y, eta) applied to (w, b), times factor(base)."""

    def update(w, b, x, y, eta, base):
        c = factor(base) * step(w, b, x, y, eta)
        return w + c * x, b + c

    return update


def _nats(w, b, x, y, eta):
    return eta * y * _sigma(-y * (w @ x + b))


def _y_as_target(w, b, x, y, eta):
    return eta * (y - _sigma(w @ x + b))


def _flipped(w, b, x, y, eta):
    return eta * y * _sigma(y * (w @ x + b))


def _per_ln(base):
    return 1 / np.log(base)


_Y_AS_TARGET = (
    "For y = −1 your target is −1, but σ(a) estimates P(y = +1): the target it is compared "
    "with must be a probability too."
)

EXERCISES.add(
    Exercise(
        "05-4",
        "implement",
        "your logistic_update_base",
        _logistic_cases,
        mistakes=(
            Mistake(
                _perceptron_step,
                "That is the perceptron's step: it moves only on mistakes, by a fixed amount. "
                "The logistic step moves on every example, by an amount that depends on a.",
            ),
            Mistake(
                _scaled(_nats, lambda base: 1.0),
                "That is the step for the loss in nats, the table's, whatever the base: how does "
                "changing the base of the logarithm change the loss, and so its gradient?",
            ),
            Mistake(
                _scaled(_nats, lambda base: 1 / np.log(2)),
                "Your step is right in bits only: the base is an argument of the function.",
            ),
            Mistake(
                _scaled(_nats, np.log),
                "Your step has the right direction but the wrong size: check which way the "
                "factor between a logarithm in base β and one in nats goes.",
            ),
            Mistake(_scaled(_y_as_target, _per_ln), _Y_AS_TARGET),
            Mistake(_scaled(_y_as_target, lambda base: 1.0), _Y_AS_TARGET),
            Mistake(
                _scaled(_flipped, _per_ln),
                "Your step is large when the point is already well classified (y·a large) and "
                "small when it is badly wrong: the other way round from a loss's gradient.",
            ),
            Mistake(
                lambda w, b, x, y, eta, base: (w + _nats(w, b, x, y, eta) / np.log(base) * x, b),
                "The bias moves too: its input is the constant 1.",
            ),
        ),
        hint="Write this example's loss in base β as a function of m = y (wᵀx + b), "
        "differentiate it with respect to m, then with respect to w and to b (chain rule), and "
        "step against that gradient.",
        returns=("w", "b"),
        solution="```python\ndef logistic_update_base(w, b, x, y, eta, base):\n"
        "    m = y * (w @ x + b)\n"
        "    s = eta * y / (1 + np.exp(m)) / np.log(base)  # eta * y * sigma(-m) / ln(base)\n"
        "    return w + s * x, b + s\n```\n"
        "In base β the loss is ℓ(m) = log_β(1 + e^(−m)) = ln(1 + e^(−m)) / ln β, so "
        "dℓ/dm = −σ(−m) / ln β, and with dm/dw̃ = y·x̃ (w̃ = (b, w), x̃ = (1, x)) the gradient is "
        "−σ(−m)·y·x̃ / ln β. The step against it is (η / ln β)·y·σ(−m)·x̃: the table's nats row "
        "(η(t − σ(a))x̃, since t − σ(a) = y·σ(−y a) for t = (y + 1)/2) divided by ln β, about "
        "1.44 times larger in bits. The base changes the step size, not its direction.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
