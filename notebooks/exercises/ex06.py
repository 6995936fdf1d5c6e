"""The exercises of notebook 06 · Voting and averaging.

Answers, anticipated mistakes, hints and worked solutions; the ids are "06-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex06 import check, check_function, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib import AveragedPerceptron
from perclib.datasets import worked_example
from perclib.exercises import Exercise, ExerciseSet, Mistake
from perclib.experiments import iterate_average, lazy_average

EXERCISES = ExerciseSet()


def _final_c(epochs=3):
    return AveragedPerceptron(max_iter=epochs).fit(*worked_example()).c_


EXERCISES.add(
    Exercise(
        "06-1",
        "quick",
        "the final c",
        lambda: _final_c(3),
        mistakes=(
            Mistake(
                lambda: _final_c(3) - 1,
                "That is the number of visited examples T. c starts at 1, not 0, and grows once "
                "per visited example.",
            ),
            Mistake(
                lambda: _final_c(3) + 1,
                "c grows once per visited example, not once more at the end.",
            ),
        ),
        hint="Count: where does c start (line 3), and how often does line 12 run in 3 epochs of 4 "
        "points?",
        solution="c starts at 1 (line 3) and line 12 runs once per visited example, mistake or "
        "not: 3 epochs of 4 points is 12 examples, so c = 1 + 12 = 13 = T + 1 at line 15.",
    )
)


def _vote(counts=(0, 2, 4, 6), signs=(1, 1, 1, -1)):
    s = float(np.dot(counts, signs))
    return 1 if s >= 0 else -1


EXERCISES.add(
    Exercise(
        "06-2",
        "quick",
        "the voted prediction",
        lambda: _vote(),
        mistakes=(
            Mistake(
                lambda: -_vote(),
                "Weigh each vote by its count c_k, add them up, and remember sign(0) = +1.",
            ),
        ),
        hint="Compute the weighted sum of the signs, sum_k c_k sign(w_kᵀx + b_k), then take its "
        "sign (sign(0) = +1).",
        solution="0·(+1) + 2·(+1) + 4·(+1) + 6·(−1) = 0, and sign(0) = +1: the vote predicts +1. "
        "The last vector alone would say −1; a simple majority of vectors (3 to 1) also says +1, "
        "but for another reason.",
    )
)


def _ratio():
    X, y = worked_example()
    T = 3 * len(X)
    return T / (T + 1)


EXERCISES.add(
    Exercise(
        "06-3",
        "predict",
        "the ratio CIML / scikit-learn",
        _ratio,
        mistakes=(
            Mistake(
                1.0,
                "The two averages differ: CIML divides by T + 1 (w_0 = 0 included), scikit-learn "
                "by T. Predictions agree, the vectors do not.",
            ),
            Mistake(
                lambda: 1 / _ratio(),
                "Upside down: CIML's average has the larger denominator, so it is the smaller "
                "vector.",
            ),
        ),
        hint="Write both averages as a sum of the same iterates divided by a count; what are the "
        "two counts for 3 epochs of 4 points?",
        solution="Both sum w_1, ..., w_T (w_0 = 0 adds nothing). CIML divides by T + 1, "
        "scikit-learn by T, so CIML / scikit-learn = T/(T + 1) = 12/13 ≈ 0.923 for T = 3·4 = 12.",
    )
)


def _averaged_cases(rng):
    cases = []
    for _ in range(25):
        n, d = int(rng.integers(3, 7)), int(rng.integers(1, 4))
        X = np.round(rng.normal(size=(n, d)) * 2, 1)
        y = np.where(rng.random(n) < 0.5, -1, 1)
        y[0], y[1] = 1, -1  # both classes present
        epochs = int(rng.integers(1, 4))
        cases.append(((X, y, epochs), lazy_average(X, y, max_iter=epochs)))
    return cases


EXERCISES.add(
    Exercise(
        "06-4",
        "implement",
        "your averaged_perceptron",
        _averaged_cases,
        mistakes=(
            Mistake(
                lambda X, y, e: lazy_average(X, y, max_iter=e, slip="c starts at 0"),
                "Your c starts at 0: that averages w_1..w_T (T vectors), not w_0..w_T. CIML "
                "starts c at 1.",
            ),
            Mistake(
                lambda X, y, e: lazy_average(X, y, max_iter=e, slip="c counts only mistakes"),
                "Your c grows only on mistakes: it must grow after every visited example (line 12 "
                "is outside the if).",
            ),
            Mistake(
                lambda X, y, e: iterate_average(X, y, max_iter=e, first=1),
                "You return the mean of w_1..w_T; CIML's average includes w_0 = 0 (T + 1 vectors).",
            ),
        ),
        hint="Mirror CIML's AveragedPerceptronTrain line by line (c from 1, u and β updated with "
        "c on a mistake, c + 1 after every example, return w − u/c and b − β/c).",
        returns=("w", "b"),
        solution="```python\ndef averaged_perceptron(X, y, epochs):\n    w, b = "
        "np.zeros(X.shape[1]), 0.0\n    u, beta, c = np.zeros(X.shape[1]), 0.0, 1\n    for _ in "
        "range(epochs):\n        for x, t in zip(X, y):\n            if t * (w @ x + b) <= 0:\n   "
        "             w = w + t * x\n                b = b + t\n                u = u + t * c * "
        "x\n                beta = beta + t * c\n            c = c + 1\n    return w - u / c, b - "
        "beta / c\n```",
    )
)

EXERCISES.add(
    Exercise(
        "06-5",
        "explain",
        "whether the predictions differ",
        "no",
        mistakes=(
            Mistake(
                "yes",
                "Compare the two vectors: starting c at 0 gives the mean of w_1..w_T, which is a "
                "multiple of CIML's. What does a positive factor do to the sign of an activation?",
            ),
        ),
        hint='Answer "yes" or "no".',
        reasons={  # placeholder options from the solution, to be rewritten with the notebook
            "a": "the two averages differ by a positive factor, which keeps every activation's "
            "sign",
            "b": "the two averages are the same vector",
            "c": "the two averages differ by a factor, so the margins differ, and so do the "
            "predictions",
            "d": "the bias is averaged the same way in both",
        },
        reason="a",
        solution="Starting c at 0 gives the mean of w_1, ..., w_T, which is (T + 1)/T times "
        "CIML's mean of w_0, ..., w_T (w_0 = 0). A positive factor multiplies every activation "
        "without changing its sign, so every prediction is the same; only the vector (and so a "
        "margin read off it) differs. Section 4's table shows it: the same predictions on 100% of "
        "X.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
