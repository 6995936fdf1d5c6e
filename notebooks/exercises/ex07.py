"""The exercises of notebook 07 · The multi-class perceptron.

Answers, anticipated mistakes, hints and worked solutions; the ids are "07-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex07 import check, check_function, show_solution
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from perclib.exercises import Exercise, ExerciseSet, Mistake, blank_feedback, has_blank

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


def _predicted():
    return int(np.argmax([2.0, 5.0, 5.0]))


_TIE_HINT = (
    "Classes 1 and 2 share the highest score. Section 1 says how the prediction breaks a tie "
    "between classes: apply that rule."
)

EXERCISES.add(
    Exercise(
        "07-1",
        "quick",
        "the predicted class",
        _predicted,
        judge=_numeric_judge(
            _predicted,
            [
                (lambda: 2, _TIE_HINT),
                (lambda: 0, "Class 0 has the lowest score, 2.0: argmax picks a highest score."),
            ],
            "The prediction is argmax_k s_k, a class index: 0, 1 or 2.",
            1e-9,
        ),
        solution="The scores 5.0 of classes 1 and 2 tie; argmax (NumPy's and perclib's) takes the "
        "first, so the prediction is 1: a mistake, since the true class is 2. The update adds ηx "
        "to w_2 and subtracts it from w_1.",
    )
)


def _score_growth():
    x = np.array([1.0, 2.0])
    return float(x @ x + 1.0)


_GROWTH_HINT = (
    "After the update w_y becomes w_y + ηx and b_y becomes b_y + η. Write the new score of the "
    "same x and subtract the old one."
)

EXERCISES.add(
    Exercise(
        "07-2",
        "predict",
        "the growth of the true class's score",
        _score_growth,
        judge=_numeric_judge(
            _score_growth,
            [
                (lambda: 5.0, "You left out the bias: b_y moves on an update too."),
                (
                    lambda: 3.0,
                    "The score is a dot product with x: add up coordinate times "
                    "coordinate, not the coordinates.",
                ),
                (
                    lambda: 12.0,
                    "That is the change of the gap between the true and the predicted "
                    "class; the question asks for the true class's score alone.",
                ),
            ],
            _GROWTH_HINT,
            1e-6,
        ),
        hint=_GROWTH_HINT,
        solution="(w_y + ηx)ᵀx + (b_y + η) = w_yᵀx + b_y + η(||x||² + 1), so the score grows by "
        "1·(1 + 4 + 1) = 6. The predicted class's score falls by as much, so the gap between them "
        "closes by 12.",
    )
)

# 07-3: the multiple and its reason, chosen among the options the notebook lists.
_REASONS_3 = {
    "b": "right",
    "a": "(a) says only one vector moves. Reread section 2's update: which vectors change on a "
    "mistake?",
    "c": "(c) puts the bias into the weights' step. The bias has its own update; what does the "
    "update do to w+ and to w−, and so to their difference?",
    "d": "(d) says the step is a definition. It follows from the update of section 2: write w+ "
    "and w− after a mistake and subtract.",
}


def _judge_3(answer):
    if has_blank(answer):
        return blank_feedback("the multiple and its reason")
    if not isinstance(answer, tuple) or len(answer) != 2:
        return "Give the pair (answer_3, reason_3)."
    multiple, reason = _number(answer[0]), _word(answer[1])
    if multiple is None:
        return "answer_3 is a number."
    if reason not in _REASONS_3:
        return 'reason_3 is one of "a", "b", "c", "d".'
    if multiple < 0:
        return "Check the sign: on a mistake on a + example, does w+ − w− move towards x or away?"
    if abs(multiple - 2.0) > 1e-9:
        return (
            "Write w+ and w− after a mistake on (x, y), subtract, and compare the change with y x."
        )
    return None if reason == "b" else _REASONS_3[reason]


EXERCISES.add(
    Exercise(
        "07-3",
        "choice",
        "your multiple and its reason",
        None,
        judge=_judge_3,
        solution="On a mistake on a + example, w+ ← w+ + ηx and w− ← w− − ηx, so w = w+ − w− ← w "
        "+ 2ηx; on a − example w ← w − 2ηx. Both are w ← w + 2η y x: the binary perceptron with "
        "step 2η, the multiple is 2 (with η = 1). Reason (b): with two classes the predicted class "
        "is the other one, so both vectors of the difference move, each by ηx. (a) would give 1; "
        "(c) mixes the bias (it moves by 2ηy too, separately) into the weights; (d) is not a "
        "definition but this consequence of the update.",
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
        y, eta = int(rng.integers(0, K)), float(rng.uniform(0.1, 1.0))
        if i % 5 == 0:  # from zero every score ties; the true class is never the first, so a
            W, b = np.zeros((K, d)), np.zeros(K)  # tie with it (mistake or not) never decides
            y = int(rng.integers(1, K))
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
        hint="Print the rows of W and the entries of b your function returns next to those it "
        "was given, for the inputs above: which rows should have changed, and by how much?",
        solution="```python\ndef multiclass_update(W, b, x, y, eta):\n    y_hat = int(np.argmax(W "
        "@ x + b))\n    W, b = W.copy(), b.copy()\n    if y_hat != y:\n        W[y] += eta * x\n  "
        "      b[y] += eta\n        W[y_hat] -= eta * x\n        b[y_hat] -= eta\n    return W, "
        "b\n```",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
