"""The exercises of notebook 06 · Voting and averaging.

Answers, anticipated mistakes, hints and worked solutions; the ids are "06-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex06 import check, check_function, show_solution
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from perclib import AveragedPerceptron
from perclib.datasets import worked_example
from perclib.exercises import Exercise, ExerciseSet, Mistake, blank_feedback, has_blank
from perclib.experiments import iterate_average, lazy_average

EXERCISES = ExerciseSet()


def _number(answer):
    """A number given as int, float, Fraction, Decimal, numeric string ("+1", "12/13") or [x]."""
    if isinstance(answer, (list, tuple, np.ndarray)) and np.size(answer) == 1:
        answer = np.ravel(answer)[0]
    if isinstance(answer, bool):
        return None
    if isinstance(answer, str):
        try:
            return float(Fraction(answer.strip().rstrip(".").replace(" ", "")))
        except (ValueError, ZeroDivisionError):
            return None
    try:
        return float(answer)
    except (TypeError, ValueError):
        return None


def _word(answer):
    """The first word of an answer, lower case, without punctuation ("No, it is not." -> "no")."""
    if not isinstance(answer, str):
        return None
    words = "".join(ch if ch.isalnum() else " " for ch in answer.lower()).split()
    return words[0] if words else ""


def _numeric_judge(expected, mistakes, hint, tol):
    """A judge for a number in any valid form: None if right, else the hint for the mistake."""

    def judge(answer):
        got = _number(answer)
        if got is None:
            return 'Give a number (for example 0.5, 1/2 or "0.5").'
        if abs(got - expected()) <= tol:
            return None
        for value, text in mistakes:
            if abs(got - value()) <= tol:
                return text
        return hint

    return judge


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


_VOTE_HINT = (
    "Weigh each vector's sign by its count c_k and add the four products exactly; then look up in "
    "section 2 which sign the vote gives to the value you found."
)

EXERCISES.add(
    Exercise(
        "06-2",
        "quick",
        "the voted prediction",
        lambda: _vote(),
        judge=_numeric_judge(
            lambda: _vote(),
            [(lambda: -_vote(), _VOTE_HINT)],
            "The voted prediction is +1 or -1: the sign of the weighted sum of the votes.",
            1e-9,
        ),
        hint=_VOTE_HINT,
        solution="0·(+1) + 2·(+1) + 4·(+1) + 6·(−1) = 0, and sign(0) = +1: the vote predicts +1. "
        "The last vector alone would say −1; a simple majority of vectors (3 to 1) also says +1, "
        "but for another reason.",
    )
)


def _ratio():
    X, y = worked_example()
    T = 3 * len(X)
    return T / (T + 1)


_RATIO_MISTAKES = [
    (
        lambda: 1.0,
        "The two averages differ: count the iterates each one divides by (does w_0 = 0 count?). "
        "Predictions agree, the vectors need not.",
    ),
    (
        lambda: 1 / _ratio(),
        "Upside down: which of the two averages has the larger denominator, and so is the smaller "
        "vector?",
    ),
]
_RATIO_HINT = (
    "Write both averages as a sum of the same iterates divided by a count; what are the two counts "
    "for 3 epochs of 4 points?"
)

EXERCISES.add(
    Exercise(
        "06-3",
        "predict",
        "the ratio CIML / scikit-learn",
        _ratio,
        judge=_numeric_judge(_ratio, _RATIO_MISTAKES, _RATIO_HINT, 5e-4),
        hint=_RATIO_HINT,
        solution="Both sum w_1, ..., w_T (w_0 = 0 adds nothing). CIML divides by T + 1, "
        "scikit-learn by T, so CIML / scikit-learn = T/(T + 1) = 12/13 ≈ 0.923 for T = 3·4 = 12 "
        "(any form within 0.0005 of 12/13 is accepted).",
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
        hint="Run your function by hand on the inputs above for one epoch, printing w, b, u, β "
        "and c after each example, and compare each line with section 4's pseudocode.",
        solution="```python\ndef averaged_perceptron(X, y, epochs):\n    w, b = "
        "np.zeros(X.shape[1]), 0.0\n    u, beta, c = np.zeros(X.shape[1]), 0.0, 1\n    for _ in "
        "range(epochs):\n        for x, t in zip(X, y):\n            if t * (w @ x + b) <= 0:\n   "
        "             w = w + t * x\n                b = b + t\n                u = u + t * c * "
        "x\n                beta = beta + t * c\n            c = c + 1\n    return w - u / c, b - "
        "beta / c\n```",
    )
)

# 06-5: the conclusion and the justification, chosen among the options the notebook lists.
_REASONS_5 = {
    "a": "right",
    "b": "(b) says the returned vector is the same as CIML's. Run E.lazy_average(X, y, "
    "slip=\"c starts at 0\") on section 1's data and compare it with CIML's: is it?",
    "c": "(c) says the counter cancels out of w − u/c. Write u and the final c under both starts "
    "for one update at the first example and compute w − u/c: does it cancel?",
    "d": "(d) says one more vector enters the average. Which iterates does each version sum, "
    "and what does each divide by?",
}


def _judge_5(answer):
    if has_blank(answer):
        return blank_feedback("your conclusion and its reason")
    if not isinstance(answer, tuple) or len(answer) != 2:
        return "Give the pair (answer_5, reason_5)."
    conclusion, reason = _word(answer[0]), _word(answer[1])
    if conclusion not in ("yes", "no"):
        return 'answer_5 is "yes" or "no".'
    if reason not in _REASONS_5:
        return 'reason_5 is one of "a", "b", "c", "d".'
    if conclusion == "yes":
        return (
            "Write the vector each version returns as a sum of the iterates w_1, ..., w_T divided "
            "by a count, and compare the two: what does that do to the sign of wᵀx + b?"
        )
    return None if reason == "a" else _REASONS_5[reason]


EXERCISES.add(
    Exercise(
        "06-5",
        "choice",
        "your conclusion and its reason",
        None,
        judge=_judge_5,
        solution="No. With c ← 0 the counter is s − 1 during the s-th example and T at the end, "
        "so the returned vector is w_T − (u − w_T)/T = (1/T)(w_1 + ... + w_T): the mean of "
        "w_1, ..., w_T, which is (T + 1)/T times CIML's mean of w_0, ..., w_T (w_0 = 0), and "
        "the same factor multiplies the bias. Reason (a): a positive factor multiplies every "
        "activation without changing its sign, so every prediction is the same; only the vector "
        "(and a margin read off it) differs - section 4's first check prints the two different "
        "vectors. (b) is false (the vectors differ), (c) is false (nothing cancels), (d) "
        "describes the version that also counts w_0 = 0, which adds nothing to the sum.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
