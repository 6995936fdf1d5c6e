"""The exercises of notebook 04 · Convergence.

Answers, anticipated mistakes, hints and worked solutions; the ids are "04-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex04 import check, check_function, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib import Perceptron
from perclib.datasets import make_separable
from perclib.exercises import Exercise, ExerciseSet, Mistake, blank_feedback, has_blank

EXERCISES = ExerciseSet()


EXERCISES.add(
    Exercise(
        "04-1",
        "quick",
        "the bound",
        lambda: (3 / 0.25) ** 2,
        mistakes=(
            Mistake(12.0, "That is R/γ*; Novikoff's bound is its square."),
            Mistake(0.25**2 / 9, "Upside down: the bound grows as the margin shrinks, (R/γ*)²."),
            Mistake(9 / 0.25, "Square R and γ* both: (R/γ*)² = R²/γ*²."),
        ),
        hint="Novikoff's bound is (R/γ*)², with R and γ* measured in the augmented space.",
        solution="(R/γ*)² = (3/0.25)² = 12² = 144 updates at most, whatever the order and η.",
    )
)


def _data_04():
    return make_separable(40, margin=0.1, random_state=0)


def _updates_eta(eta):
    return int(Perceptron(eta=eta).fit(*_data_04()).n_updates_)


EXERCISES.add(
    Exercise(
        "04-2",
        "predict",
        "the number of updates",
        lambda: _updates_eta(10.0),
        mistakes=(
            Mistake(
                lambda: 10 * _updates_eta(1.0),
                "η does not multiply the number of updates: from w̃ = 0 every w̃_k is η times the "
                "η = 1 one.",
            ),
            Mistake(
                lambda: max(_updates_eta(1.0) // 10, 0),
                "η does not divide the number of updates: bigger steps from zero are the same "
                "steps, scaled.",
            ),
        ),
        hint="Where did η go in the proof? Both lemmas scale with η, and it cancels in the ratio.",
        solution="From w̃ = 0 every w̃_k of the η = 10 run is 10 times that of the η = 1 run, so "
        "the same examples are mistakes: the same number of updates (η cancels in the proof: kηγ* "
        "against ηR√k).",
    )
)


EXERCISES.add(
    Exercise(
        "04-3",
        "predict",
        "the factor",
        1,
        mistakes=(
            Mistake(
                100,
                "R² does grow 100 times, but the margin of every unit vector grows 10 times too, "
                "so γ*² grows 100 times as well.",
            ),
            Mistake(10, "Both R and γ* change: compare R² with γ*², not R with the bound."),
            Mistake(0.01, "Upside down, and not only: what happens to γ* when every x̃ grows?"),
            Mistake(
                0.1, "Both R and γ* change: how does the margin y·w̃ᵀx̃ of a fixed unit w̃ scale?"
            ),
        ),
        hint="Write R and the margin of one fixed unit vector w̃ for the scaled inputs 10·x̃, "
        "then the ratio.",
        solution="Every ||10·x̃ᵢ|| = 10·||x̃ᵢ||, so R becomes 10R; for every unit w̃ the margin "
        "min yᵢ w̃ᵀ(10·x̃ᵢ) is 10 times its old value, so the best one, γ*, becomes 10γ*. The "
        "ratio R/γ* and the bound do not change: factor 1. The bound is scale-free. With a bias "
        "the constant 1 of x̃ = (1, x) is not scaled when x is, so 10·x is not 10·x̃: the "
        "geometry changes and so does the bound (by a factor that depends on the data).",
    )
)


def _margin_cases(rng):
    cases = []
    for _ in range(25):
        n, d = int(rng.integers(3, 9)), int(rng.integers(1, 5))
        X = rng.normal(size=(n, d)) * rng.uniform(0.5, 3.0)
        y = rng.permutation(np.r_[1.0, -1.0, rng.choice([-1.0, 1.0], n - 2)])
        w = rng.normal(size=d) * rng.uniform(0.5, 2.0)
        b = float(rng.normal() * 2)
        cases.append(((X, y, w, b), np.min(y * (X @ w + b)) / np.sqrt(w @ w + b * b)))
    return cases


EXERCISES.add(
    Exercise(
        "04-4",
        "implement",
        "your augmented_margin",
        _margin_cases,
        mistakes=(
            Mistake(
                lambda X, y, w, b: np.min(y * (X @ w + b)) / np.linalg.norm(w),
                "You divided by ||w||: that is the geometric distance of notebook 01. The bound's "
                "margin puts the bias inside the norm, ||(b, w)||.",
            ),
            Mistake(
                lambda X, y, w, b: np.min(y * (X @ w + b)),
                "Normalise: divide by the length ||(b, w)|| of the augmented weights.",
            ),
            Mistake(
                lambda X, y, w, b: np.min(np.abs(X @ w + b)) / np.sqrt(w @ w + b * b),
                "Keep the labels: y_i times the activation, so a point on the wrong side gives a "
                "negative margin (an absolute value hides it).",
            ),
            Mistake(
                lambda X, y, w, b: np.min(y * (X @ w)) / np.sqrt(w @ w + b * b),
                "The activation includes the bias: w.x_i + b.",
            ),
            Mistake(
                lambda X, y, w, b: np.mean(y * (X @ w + b)) / np.sqrt(w @ w + b * b),
                "The margin is the worst point's value (the minimum), not the average.",
            ),
        ),
        hint="For each point compute y_i (w.x_i + b); take the smallest; divide by sqrt(b² + "
        "||w||²).",
        solution="```python\ndef augmented_margin(X, y, w, b):\n    return np.min(y * (X @ w + "
        "b)) / np.sqrt(w @ w + b * b)\n```\nThe smallest signed activation over the points, in "
        "units of the length of the whole augmented vector (b, w): the γ of Novikoff's bound for "
        "this separator, and perclib.theory.margin.",
        seed=404,
    )
)


def _judge_stop(answer):
    if has_blank(answer):
        return blank_feedback("your answer (a, b)")
    try:
        verdict, count = answer
    except (TypeError, ValueError):
        return 'give a pair (a, b): a is "yes" or "no", b a number.'
    if not isinstance(verdict, str) or verdict.strip().lower() not in ("yes", "no"):
        return 'the first part must be "yes" or "no".'
    if verdict.strip().lower() == "yes":
        return (
            "the bound (R/γ*)² needs γ*, and nothing tells you how small γ* is: which count of "
            "updates would a separable data set be unable to reach?"
        )
    if isinstance(count, bool) or not isinstance(count, (int, float, np.integer, np.floating)):
        return "the second part must be a number of updates."
    if abs(float(count) - (2 / 0.05) ** 2) <= 1e-6:
        return None
    if abs(float(count) - 2 / 0.05) <= 1e-6:
        return "(b) that is R/γ; Novikoff's bound is its square."
    return "(b) compute Novikoff's bound with R = 2 and the promised γ* = 0.05."


EXERCISES.add(
    Exercise(
        "04-5",
        "explain",
        "your answer (a, b)",
        None,
        judge=_judge_stop,
        solution="(a) No. On separable data the perceptron stops after at most (R/γ*)² updates, "
        "but γ* can be as small as you like and you do not know it, so no count of updates, 2000 "
        "or any other, passes a bound you can compute: the data may be separable with a tiny γ*. "
        "(b) With the promise, separable data have γ* ≥ 0.05, so a run on them makes at most "
        "(R/γ*)² ≤ (2/0.05)² = 1600 updates. Under the promise, then, a run past 1600 updates "
        "proves that the data are not separable, and the colleague's 2000 updates do; without "
        'it, (a), nothing is proved. Answer ("no", 1600). Only a known lower bound on γ* turns '
        "the theorem into a test.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
