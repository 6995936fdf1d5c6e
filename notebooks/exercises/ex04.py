"""The exercises of notebook 04 · Convergence.

Answers, anticipated mistakes, hints and worked solutions; the ids are "04-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex04 import check, check_function, show_solution
"""

from __future__ import annotations

import re

import numpy as np

from perclib import Perceptron
from perclib.datasets import make_separable
from perclib.exercises import (
    Exercise,
    ExerciseSet,
    Mistake,
    blank_feedback,
    read_number,
    read_words,
)
from perclib.theory import mistake_bound

EXERCISES = ExerciseSet()


def _number(value):
    """A number in any form a student may write, read as every notebook reads it (int, float,
    Fraction, Decimal, "1/2", "two", [1600]), and with thousands commas ("1,025")."""
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,3}(,\d{3})+(\.\d*)?\s*", value):
        value = value.replace(",", "")
    return read_number(value)


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


def _leading(value, known):
    """The known word a sentence starts with ("more than before" -> "more"), or None: the whole
    answer, else its first two words, else its first word."""
    if not isinstance(value, str):
        return None
    said = read_words(value).split()
    for n in (len(said), 2, 1):
        word = _word(" ".join(said[:n]))
        if word in known:
            return known[word]
    return None


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
    "d": "the angle bound √k γ*/R, which now depends on η",
}

_DIRECTIONS = {  # foreseeable wordings of the three answers to (a)
    "more": "more",
    "moreupdates": "more",
    "increase": "more",
    "increases": "more",
    "larger": "more",
    "bigger": "more",
    "higher": "more",
    "same": "same",
    "thesame": "same",
    "equal": "same",
    "unchanged": "same",
    "nochange": "same",
    "fewer": "fewer",
    "fewerupdates": "fewer",
    "less": "fewer",
    "lessupdates": "fewer",
    "decrease": "fewer",
    "decreases": "fewer",
    "smaller": "fewer",
    "lower": "fewer",
}


def _judge_start(answer):
    if answer is ... or (isinstance(answer, tuple) and any(a is ... for a in answer)):
        return blank_feedback("your answer (a, b)")
    try:
        direction, term = answer
    except (TypeError, ValueError):
        return 'give a pair (a, b): a is "more", "the same" or "fewer", b a letter.'
    word, letter = _leading(direction, _DIRECTIONS), _word(term)
    if word is None:
        return '(a) must be "more", "the same" or "fewer".'
    if letter not in _TERMS:
        return "(b) must be one of the letters a, b, c, d."
    small, big = _updates_from_flipped(0.1), _updates_from_flipped(1.0)
    truth = "more" if small > big else ("fewer" if small < big else "same")
    if word == truth and letter == "b":
        return None
    return (
        "not both parts are right (this check does not say which). Redo both lemmas from w̃_0: "
        "which terms contain η and which do not? Then test each option against your two "
        "inequalities."
    )


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


def _shifted_bound(s):
    """The bound (R/γ*)² of the pair x = 1 + s (+1), x = s − 1 (−1)."""
    return float(mistake_bound(np.array([[1.0 + s], [s - 1.0]]), np.array([1, -1])))


def _first_shift_above(limit=100.0, bound=_shifted_bound):
    return next(s for s in range(100) if bound(s) > limit)


def _band_only_bound(s):
    """The slip: γ* taken as the band's half-width 1, R right."""
    return 1.0 + (1.0 + s) ** 2


EXERCISES.add(
    Exercise(
        "04-3",
        "predict",
        "your shift",
        None,
        judge=_numeric(
            _first_shift_above,
            (
                (
                    float(_first_shift_above(bound=_band_only_bound)),
                    "You have R right, but γ* is not the half-width of the band between the "
                    "points: the bias counts in the norm of the unit vector w̃*. How does that "
                    "bias grow with s?",
                ),
                (
                    float(_first_shift_above() - 1),
                    "At that s the bound is still at most 100: recompute it for your s.",
                ),
            ),
            "Write both points as x̃ = (1, x) for a general s. R is the longer x̃; for γ*, find "
            "the unit (b, w) whose worse point has the largest y(b + wx); then evaluate the "
            "bound for s = 0, 1, 2, ... until it passes 100.",
            tol=1e-9,
        ),
        solution=lambda: (
            "x̃₊ = (1, 1 + s), x̃₋ = (1, s − 1), so R² = 1 + (1 + s)². The best unit (b, w) gives "
            "both points the same margin, b + (1 + s)w = −(b + (s − 1)w), so b = −sw: the line "
            "x = s, the middle of the gap, as for the widest band. Unit length: s²w² + w² = 1, "
            "w = 1/√(1 + s²), and the margin is b + (1 + s)w = w, so γ*² = 1/(1 + s²). The "
            "bound is (1 + (1 + s)²)(1 + s²): "
            + ", ".join(f"{_shifted_bound(k):g} at s = {k}" for k in range(5))
            + f". So s = {_first_shift_above()}: the gap never changes, yet the bound grows "
            "like s⁴. Equivalently (section 'Two maximum margins'), γ* = γ_geo/√(1 + d0²) with "
            "γ_geo = 1 and d0 = s. Taking γ* as the band's half-width 1 gives R² alone and "
            f"s = {_first_shift_above(bound=_band_only_bound)}. The bias pays for the line's "
            "distance from the origin, in the norm."
        ),
    )
)


def _allowed_ref(w0, w_star, eta, gamma, R):
    a0, n0 = float(w_star @ w0), float(w0 @ w0)
    qa, qb, qc = (eta * gamma) ** 2, 2 * a0 * eta * gamma - (eta * R) ** 2, a0**2 - n0
    return (-qb + np.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa)


def _allowed_cases(rng):
    cases = []
    for k in range(25):
        d = int(rng.integers(2, 5))  # the length of the augmented vectors (b, w)
        w_star = rng.normal(size=d)
        w_star /= np.linalg.norm(w_star)
        w0 = np.zeros(d) if k == 0 else rng.normal(size=d) * rng.uniform(0.2, 3.0)
        eta = float(rng.choice([0.1, 0.5, 1.0, 2.0]))
        gamma, R = float(rng.uniform(0.05, 0.5)), float(rng.uniform(1.0, 3.0))
        cases.append(((w0, w_star, eta, gamma, R), _allowed_ref(w0, w_star, eta, gamma, R)))
    return cases


def _allowed_bug(a0_zero=False, n0_zero=False, eta_one=False, from_zero=False):
    def allowed(w0, w_star, eta, gamma, R):
        if from_zero:
            return (R / gamma) ** 2
        w_star = np.zeros_like(w_star) if a0_zero else w_star
        w0_norm = np.zeros_like(w0) if n0_zero else w0
        a0, n0 = float(w_star @ w0), float(w0_norm @ w0_norm)
        e = 1.0 if eta_one else eta
        qa, qb, qc = (e * gamma) ** 2, 2 * a0 * e * gamma - (e * R) ** 2, a0**2 - n0
        disc = max(qb * qb - 4 * qa * qc, 0.0)
        return (-qb + np.sqrt(disc)) / (2 * qa)

    return allowed


EXERCISES.add(
    Exercise(
        "04-4",
        "implement",
        "your updates_allowed",
        _allowed_cases,
        mistakes=(
            Mistake(
                _allowed_bug(from_zero=True),
                "That is the bound from w̃_0 = 0: the start w̃_0 must appear in your result.",
            ),
            Mistake(
                _allowed_bug(a0_zero=True),
                "Your Lemma 1 starts from an alignment of 0: from w̃_0 it starts from w̃*ᵀw̃_0.",
            ),
            Mistake(
                _allowed_bug(n0_zero=True),
                "Your Lemma 2 starts from a squared norm of 0: from w̃_0 it starts from ||w̃_0||².",
            ),
            Mistake(
                _allowed_bug(eta_one=True),
                "Your result does not change with eta: from w̃_0 ≠ 0 the step size no longer "
                "cancels (exercise 2).",
            ),
        ),
        hint="Work that case out by hand: the two lemmas from w̃_0 after k updates, then the "
        "condition that the cosine bound stays at most 1, then the largest k that meets it. "
        "Which of the three does your result get wrong?",
        solution="From w̃_0, after k updates, Lemma 1 gives w̃*ᵀw̃_k >= a0 + kηγ with "
        "a0 = w̃*ᵀw̃_0, and Lemma 2 gives ||w̃_k||² <= n0 + kη²R² with n0 = ||w̃_0||². While "
        "a0 + kηγ > 0 the cosine is at least (a0 + kηγ)/√(n0 + kη²R²), and it is at most 1:\n\n"
        "(ηγ)²k² + (2a0ηγ − η²R²)k + a0² − n0 <= 0.\n\n"
        "At k = 0 this holds (|a0| <= √n0, since ||w̃*|| = 1), so the allowed k run from 0 to "
        "the larger root:\n\n```python\ndef updates_allowed(w0, w_star, eta, gamma, R):\n"
        "    a0, n0 = w_star @ w0, w0 @ w0\n"
        "    qa, qb, qc = (eta * gamma) ** 2, 2 * a0 * eta * gamma - (eta * R) ** 2, a0**2 - n0\n"
        "    return (-qb + np.sqrt(qb**2 - 4 * qa * qc)) / (2 * qa)\n```\n"
        "From w̃_0 = 0 it is (R/γ)², Novikoff's bound; from w̃_0 ≠ 0 a small η gives a large "
        "bound, the η-dependence exercise 2 found.",
        returns=("k_max",),
        seed=404,
    )
)


_WHY = {
    "a": "2000 updates is more than any perceptron can make on separable data",
    "b": "a run that has not stopped after 2000 updates never stops",
    "c": "the bound needs γ* exactly, which nobody knows, so no count of updates proves anything",
    "d": "every separable data set that keeps the promise allows at most (R/γ*)² updates with "
    "R = 32 and γ* = 1, and 2000 is more",
}


def _judge_stop(answer):
    if answer is ... or (isinstance(answer, tuple) and any(a is ... for a in answer)):
        return blank_feedback("your answer (a, b, c)")
    try:
        verdict, count, why = answer
    except (TypeError, ValueError):
        return 'give (a, b, c): a is "yes" or "no", b a number, c a letter.'
    letter, n = _word(why), _number(count)
    word = _leading(verdict, {"yes": "yes", "no": "no", "y": "yes", "n": "no", "true": "yes",
                              "false": "no"})  # fmt: skip
    if isinstance(verdict, (bool, np.bool_)):
        word = "yes" if verdict else "no"
    if word not in ("yes", "no"):
        return '(a) must be "yes" or "no".'
    if letter not in _WHY:
        return "(c) must be one of the letters a, b, c, d."
    if n is None:
        return "(b) must be a number of updates."
    if word == "yes" and letter == "d" and abs(n - ((_R5 / _GAMMA5) ** 2 + 1)) <= 1e-6:
        return None
    return (
        "not all three parts are right (this check does not say which). Go back to what the "
        "promise and the theorem say about a run on separable data, and test each of your three "
        "parts against them."
    )


_R5, _GAMMA5 = 32.0, 1.0  # the colleague's radius and the promised margin


EXERCISES.add(
    Exercise(
        "04-5",
        "explain",
        "your answer",
        None,
        judge=_judge_stop,
        solution="(a) Yes, for reason (d). With the promise, separable data have γ* >= 1, so a "
        "run on them makes at most (R/γ*)² <= (32/1)² = 1024 updates. A run that has made more "
        "than 1024 updates cannot be on separable data: the colleague's 2000 prove that the data "
        "are not separable. (b) A run of this notebook's perceptron (with a bias) on separable "
        "data that keep the promise can make exactly 1024 updates: take the 1024 rows of a "
        "Hadamard matrix H (entries ±1, rows orthogonal, first column all 1, as "
        "scipy.linalg.hadamard(1024) builds it); row i is the augmented point x̃_i = (1, x_i), so "
        "the data are x_i = the rest of row i, labelled +1 or −1 in any way. Every x̃_i has norm "
        "√1024 = 32 = R. Each point is orthogonal to every earlier update, so it is a tie when "
        "visited and the margin rule updates on every one: 1024 updates, after which every "
        "point has margin 1 under the final w̃ scaled to unit length; and no unit w̃ gives all "
        "points more (their average margin is at most ||Σ y_i x̃_i||/1024 = 1), so γ* = 1 "
        "exactly. So 1024 updates prove nothing, and the smallest count that proves it is "
        '1025. Answer ("yes", 1025, "d"). Not a: without the promise '
        "γ* can be as small as you like, and so can the bound be large. Not b: a run may stop "
        "later. Not c: that is the situation without the promise; the promise is exactly a "
        "known lower bound on γ*, which turns the theorem into a test.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
