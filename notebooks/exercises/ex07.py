"""The exercises of notebook 07 · The multi-class perceptron.

Answers, anticipated mistakes, hints and worked solutions; the ids are "07-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex07 import check, check_function, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib.exercises import Exercise, ExerciseSet, Mistake

EXERCISES = ExerciseSet()


EXERCISES.add(
    Exercise(
        "07-1",
        "quick",
        "the predicted class",
        lambda: int(np.argmax([2.0, 5.0, 5.0])),
        mistakes=(
            Mistake(
                2,
                "Classes 1 and 2 tie at 5.0; argmax gives a tie to the first (lowest-index) "
                "class, and the perceptron predicts with argmax.",
            ),
            Mistake(0, "Class 0 has the lowest score, 2.0: argmax picks a highest score."),
        ),
        hint="The prediction is argmax_k s_k. What happens when two scores are equal?",
        solution="The scores 5.0 of classes 1 and 2 tie; argmax (NumPy's and perclib's) takes the "
        "first, so the prediction is 1: a mistake, since the true class is 2. The update adds ηx "
        "to w_2 and subtracts it from w_1.",
    )
)


def _score_growth():
    x = np.array([1.0, 2.0])
    return float(x @ x + 1.0)


EXERCISES.add(
    Exercise(
        "07-2",
        "predict",
        "the growth of the true class's score",
        _score_growth,
        mistakes=(
            Mistake(
                5.0,
                "You left out the bias: b_y grows by η too, so the score w_yᵀx + b_y grows by "
                "η(||x||² + 1).",
            ),
            Mistake(
                3.0, "The score grows by η xᵀx (plus the bias), not by the sum of the coordinates."
            ),
            Mistake(
                12.0,
                "The true class's score grows by η(||x||² + 1); the *difference* to the predicted "
                "class grows by twice that.",
            ),
        ),
        hint="After the update w_y becomes w_y + ηx and b_y becomes b_y + η. Write the new score "
        "of the same x.",
        solution="(w_y + ηx)ᵀx + (b_y + η) = w_yᵀx + b_y + η(||x||² + 1), so the score grows by "
        "1·(1 + 4 + 1) = 6. The predicted class's score falls by as much, so the gap between them "
        "closes by 12.",
    )
)

EXERCISES.add(
    Exercise(
        "07-3",
        "explain",
        "the multiple",
        2.0,
        mistakes=(
            Mistake(
                1.0,
                "Two vectors move: w+ gains ηy x and w− loses it. What happens to their "
                "difference?",
            ),
            Mistake(-2.0, "Check the sign: on a + example the difference moves towards x."),
        ),
        hint="Write w+ and w− after a mistake on (x, y) and subtract.",
        reasons={  # placeholder options from the solution, to be rewritten with the notebook
            "a": "w+ gains ηy x and w− loses it, so their difference moves by 2ηy x",
            "b": "only the true class's vector moves, so the difference moves by ηy x",
            "c": "w+ gains ηy x and w− gains it too",
            "d": "the difference moves by −2ηy x",
        },
        reason="a",
        solution="On a mistake on a + example, w+ ← w+ + ηx and w− ← w− − ηx, so w = w+ − w− ← w "
        "+ 2ηx; on a − example w ← w − 2ηx. Both are w ← w + 2η y x: the binary perceptron with "
        "step 2η, the multiple is 2 (with η = 1).",
    )
)


def _multiclass_step(W, b, x, y, eta):
    k = int(np.argmax(W @ x + b))
    W, b = W.copy(), b.copy()
    if k != y:
        W[y] += eta * x
        b[y] += eta
        W[k] -= eta * x
        b[k] -= eta
    return W, b


def _multiclass_cases(rng):
    cases = []
    for i in range(25):
        K, d = int(rng.integers(3, 6)), int(rng.integers(2, 5))
        W, b, x = rng.normal(size=(K, d)), rng.normal(size=K), rng.normal(size=d)
        if i % 5 == 0:
            W, b = np.zeros((K, d)), np.zeros(K)  # from zero: every score ties
        y, eta = int(rng.integers(0, K)), float(rng.uniform(0.1, 1.0))
        cases.append(((W, b, x, y, eta), _multiclass_step(W, b, x, y, eta)))
    return cases


def _no_bias_step(W, b, x, y, eta):
    W2, _ = _multiclass_step(W, b, x, y, eta)
    return W2, b


def _true_only_step(W, b, x, y, eta):
    k = int(np.argmax(W @ x + b))
    W, b = W.copy(), b.copy()
    if k != y:
        W[y] += eta * x
        b[y] += eta
    return W, b


EXERCISES.add(
    Exercise(
        "07-4",
        "implement",
        "your multiclass_update",
        _multiclass_cases,
        mistakes=(
            Mistake(_no_bias_step, "The biases move too: b_y by +η, the predicted class's by −η."),
            Mistake(
                _true_only_step,
                "On a mistake the predicted class's vector also moves: w_ŷ ← w_ŷ − ηx.",
            ),
        ),
        hint="Predict ŷ = argmax_k (W x + b)_k (ties to the first class); if ŷ ≠ y, add ηx to row "
        "y of W and η to b_y, and subtract them from row ŷ and b_ŷ. Return new arrays.",
        returns=("W", "b"),
        solution="```python\ndef multiclass_update(W, b, x, y, eta):\n    y_hat = int(np.argmax(W "
        "@ x + b))\n    W, b = W.copy(), b.copy()\n    if y_hat != y:\n        W[y] += eta * x\n  "
        "      b[y] += eta\n        W[y_hat] -= eta * x\n        b[y_hat] -= eta\n    return W, "
        "b\n```",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
