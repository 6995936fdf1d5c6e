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
from perclib.exercises import Exercise, ExerciseSet, Mistake, blank_feedback
from perclib.theory import mistake_bound

EXERCISES = ExerciseSet()


def _number(value):
    """A number in any form a student may write: int, float, Fraction, Decimal, "1600", [1600]."""
    if isinstance(value, (list, tuple, np.ndarray)) and np.size(value) == 1:
        value = np.ravel(value)[0]
    if isinstance(value, bool):
        return None
    try:
        return float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError, AttributeError):
        return None


def _numeric(expected, mistakes, hint, tol=1e-6):
    """A judge for a number: every numeric form accepted, anticipated mistakes get their hint."""

    def judge(answer):
        n = _number(answer)
        if n is None:
            return 'give one number (as 7, 7.0, "7" or Fraction(7), for example).'
        if abs(n - expected()) <= tol:
            return None
        for value, why in mistakes:
            if abs(n - value) <= tol:
                return why
        return hint

    return judge


def _word(value):
    """A word answer, case-, space- and punctuation-blind."""
    if not isinstance(value, str):
        return None
    return "".join(ch for ch in value.lower() if ch.isalnum())


EXERCISES.add(
    Exercise(
        "04-1",
        "quick",
        "your bound",
        None,
        judge=_numeric(
            lambda: (3 / 0.25) ** 2,
            (
                (12.0, "That is R/γ*: look again at the bound's exponent."),
                (0.25**2 / 9, "Upside down: the bound grows as the margin shrinks."),
                (9 / 0.25, "You squared only one of R and γ*."),
            ),
            "Recompute the bound of the theorem from the two numbers given.",
        ),
        solution="(R/γ*)² = (3/0.25)² = 12² = 144 updates at most, whatever the order and η.",
    )
)


def _data_04():
    return make_separable(40, margin=0.1, random_state=0)


def _updates_from_flipped(eta):
    """Updates of a run with step eta started from minus the final weights of the eta = 1 run."""
    X, y = _data_04()
    plain = Perceptron().fit(X, y)
    run = Perceptron(eta=eta).fit(X, y, coef_init=-plain.coef_, intercept_init=-plain.intercept_)
    return int(run.n_updates_)


_TERMS = {
    "a": "Lemma 1's increment ηγ* per update",
    "b": "the start's terms w̃*ᵀw̃_0 and ||w̃_0||², which do not scale with η",
    "c": "Lemma 2's middle term 2ηy w̃ᵀx̃, which is no longer <= 0 on a mistake",
    "d": "the radius R, which grows with η",
}


def _judge_start(answer):
    if answer is ... or (isinstance(answer, tuple) and any(a is ... for a in answer)):
        return blank_feedback("your answer (a, b)")
    try:
        direction, term = answer
    except (TypeError, ValueError):
        return 'give a pair (a, b): a is "more", "same" or "fewer", b a letter.'
    word, letter = _word(direction), _word(term)
    if word not in ("more", "same", "fewer", "less"):
        return '(a) must be "more", "the same" or "fewer".'
    if letter not in _TERMS:
        return "(b) must be one of the letters a, b, c, d."
    small, big = _updates_from_flipped(0.1), _updates_from_flipped(1.0)
    truth = "more" if small > big else ("fewer" if small < big else "same")
    if word == "less":
        word = "fewer"
    if word != truth:
        if word == "same":
            return (
                "(a) from w̃_0 = 0 every w̃_k is η times the η = 1 one; is that still so when "
                "w̃_0 is not 0?"
            )
        return "(a) compare the size of one step, η·x̃, with the size of the start w̃_0."
    if letter != "b":
        return (
            f"(a) is right, but (b) is not: {_TERMS[letter]} is not what changes here. Redo "
            "Lemma 1 and 2 from w̃_0 instead of 0: which terms appear?"
        )
    return None


EXERCISES.add(
    Exercise(
        "04-2",
        "choice",
        "your answer",
        None,
        judge=_judge_start,
        solution=lambda: (
            "From w̃_0 ≠ 0 the lemmas read w̃*ᵀw̃_k >= w̃*ᵀw̃_0 + kηγ* and "
            "||w̃_k||² <= ||w̃_0||² + kη²R² (Lemma 2's middle term is still <= 0 on a mistake). "
            "The start's terms do not scale with η, so η no longer cancels: a small η needs "
            "many updates to undo a bad start, a large η makes the start negligible. Here, from "
            f"minus the η = 1 run's final weights: {_updates_from_flipped(1.0)} updates with "
            f"η = 1, {_updates_from_flipped(0.1)} with η = 0.1. Answer (more, b)."
        ),
    )
)


def _translated_bound():
    return float(mistake_bound(np.array([[3.0], [1.0]]), np.array([1, -1])))


EXERCISES.add(
    Exercise(
        "04-3",
        "predict",
        "your bound",
        None,
        judge=_numeric(
            _translated_bound,
            (
                (
                    2.0,
                    "That is the bound of the centred pair. Moving the points moves the best line "
                    "away from the origin: what does that do to its bias, and to the norm of w̃?",
                ),
                (
                    10.0,
                    "You have R² right, but γ* is not the half-width of the band: the bias counts "
                    "in the norm of the unit vector w̃*.",
                ),
                (
                    9.0,
                    "R is measured on x̃ = (1, x), not on x, and γ* is not the half-width of the "
                    "band.",
                ),
                (45.0, "γ* is right, but R is measured on the augmented x̃ = (1, x), not on x."),
            ),
            "Write both points as x̃ = (1, x). R is the longest x̃; for γ*, find the unit (b, w) "
            "whose worse point has the largest y(b + wx).",
            tol=1e-3,
        ),
        solution=lambda: (
            "x̃₊ = (1, 3), x̃₋ = (1, 1), so R² = 10. The best unit (b, w) gives both points the "
            "same margin, b + 3w = −(b + w), so b = −2w: the line x = 2, the middle of the gap, "
            "as for the widest band. Unit length: 4w² + w² = 1, w = 1/√5, and the margin is "
            "b + 3w = w = 1/√5, so γ*² = 1/5. The bound is R²/γ*² = 10·5 = 50, against 2 for "
            "the centred pair: the same gap, 25 times the bound. Equivalently (section 'Two "
            "maximum margins'), γ* = γ_geo/√(1 + d0²) with γ_geo = 1 and d0 = 2. The bias pays "
            "for the line's distance from the origin, in the norm."
        ),
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
                "You divided by ||w||: that is the geometric distance of notebook 01, not the "
                "bound's margin, whose norm is that of the augmented weights.",
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
        hint="Work that case out by hand: the signed value of each point, then which point "
        "decides, then the units. Which of the three does your result get wrong?",
        solution="```python\ndef augmented_margin(X, y, w, b):\n    return np.min(y * (X @ w + "
        "b)) / np.sqrt(w @ w + b * b)\n```\nThe smallest signed activation over the points, in "
        "units of the length of the whole augmented vector (b, w): the γ of Novikoff's bound for "
        "this separator, and perclib.theory.margin.",
        seed=404,
    )
)


_WHY = {
    "a": "2000 updates is more than any perceptron can make on separable data",
    "b": "the bound needs γ*, which nobody knows, and γ* can be as small as you like",
    "c": "the data are not separable, since the bound (R/γ*)² has already been passed",
    "d": "the run has not converged yet, so the data are not separable",
}


def _judge_stop(answer):
    if answer is ... or (isinstance(answer, tuple) and any(a is ... for a in answer)):
        return blank_feedback("your answer (a, b, c)")
    try:
        verdict, count, why = answer
    except (TypeError, ValueError):
        return 'give (a, b, c): a is "yes" or "no", b a number, c a letter.'
    word = _word(verdict)
    if word not in ("yes", "no"):
        return '(a) must be "yes" or "no".'
    if word == "yes":
        return (
            "(a) which count of updates would a separable data set be unable to reach, if "
            "you do not know its γ*?"
        )
    letter = _word(why)
    if letter not in _WHY:
        return "(c) must be one of the letters a, b, c, d."
    if letter != "b":
        return f"(a) is right, but (c) is not: is it true that {_WHY[letter]}?"
    n = _number(count)
    if n is None:
        return "(b) must be a number of updates."
    if abs(n - (2 / 0.05) ** 2) <= 1e-6:
        return None
    if abs(n - 2 / 0.05) <= 1e-6:
        return "(b) that is R/γ: look again at the bound's exponent."
    return "(b) the promise bounds γ* from below: which bound does that give, and which way?"


EXERCISES.add(
    Exercise(
        "04-5",
        "choice",
        "your answer",
        None,
        judge=_judge_stop,
        solution="(a) No, for reason (b). On separable data the perceptron stops after at most "
        "(R/γ*)² updates, but γ* can be as small as you like and you do not know it, so no count "
        "of updates, 2000 or any other, passes a bound you can compute: the data may be "
        "separable with a tiny γ*. (b) With the promise, separable data have γ* >= 0.05, so a "
        "run on them makes at most (R/γ*)² <= (2/0.05)² = 1600 updates. Under the promise, then, "
        "a run past 1600 updates proves that the data are not separable, and the colleague's "
        '2000 updates do; without it, nothing is proved. Answer ("no", 1600, "b"). Only a '
        "known lower bound on γ* turns the theorem into a test.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
