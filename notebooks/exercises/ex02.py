"""The exercises of notebook 02 · The update rule.

Answers, anticipated mistakes, hints and worked solutions; the ids are "02-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex02 import check, check_function, reveal, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib.exercises import (
    Exercise,
    ExerciseSet,
    Feedback,
    Mistake,
    blank_feedback,
    has_blank,
    read_numbers,
    read_words,
)

EXERCISES = ExerciseSet()


# -- 1: the learning rate from zero ---------------------------------------------------------------

EXERCISES.add(
    Exercise(
        "02-1",
        "predict",
        "the factor",
        lambda: 1,
        words={
            "same": 1,
            "the same": 1,
            "same number": 1,
            "the same number": 1,
            "same number of updates": 1,
            "the same number of updates": 1,
            "no change": 1,
            "unchanged": 1,
            "as many": 1,
            "equal": 1,
            "1x": 1,
            "1 x": 1,
            "x1": 1,
            "1 times": 1,
            "once": 1,
        },
        mistakes=(
            Mistake(
                100,
                "Smaller steps do not by themselves mean more of them. Write the weights after "
                "the first few updates as multiples of η, and ask which points are mistakes.",
            ),
            Mistake(0.01, "Fewer updates would need bigger steps, and the steps got smaller."),
            Mistake(
                1e4,
                "Smaller steps do not by themselves mean more of them. Write the weights after "
                "the first few updates as multiples of η, and ask which points are mistakes.",
            ),
        ),
        hint="From w = 0, b = 0, write the weights after each update as η times something.",
        solution="By induction every (w, b) of the η = 0.01 run is 0.01 times the (w, b) of the η "
        "= 1 run at the same step, and sign(0.01·a) = sign(a); so the same points are mistakes "
        "and the number of updates is the same: factor 1.",
    )
)


# -- 2: which rule updates on a tie ---------------------------------------------------------------

_RULES = {
    "margin": "margin",
    "margin only": "margin",
    "prediction": "prediction",
    "prediction only": "prediction",
    "both": "both",
    "margin and prediction": "both",
    "prediction and margin": "both",
    "either": "both",
    "each": "both",
    "neither": "neither",
    "none": "neither",
    "no": "neither",
    "nothing": "neither",
}
_FILLER = {"the", "rule", "rules", "only", "one", "s"}


def _rule(word):
    """A rule named in any wording: "The margin rule.", "only the margin rule", "margin-rule"."""
    if not isinstance(word, str):
        return None
    said = " ".join(t for t in read_words(word).split() if t not in _FILLER)
    return _RULES.get(said, _RULES.get(said.replace(" only", "")))


def _judge_tie(answer):
    form = 'give a pair, such as ("both", "neither"): the rule for y = +1, then for y = −1.'
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 2:
        return form
    plus, minus = (_rule(a) for a in answer)
    if plus is None or minus is None:
        return form + ' Each is "margin", "prediction", "both" or "neither".'
    if plus == "margin" and minus == "both":
        return None
    return (
        "at least one of your two answers does not follow from the two tests. At a = 0, "
        "work out y·a for the margin rule and ŷ = sign(0) for the prediction rule."
    )


EXERCISES.add(
    Exercise(
        "02-2",
        "explain",
        "your pair",
        None,
        judge=_judge_tie,
        hint="",
        reasons={
            "a": "At a = 0 the prediction rule takes ŷ = np.sign(0), which is +1, so it updates "
            "for y = −1 only; the margin rule's test y·a <= 0 holds for both labels.",
            "b": "At a = 0 the margin rule updates for both labels because y·a = 0 falls short "
            "of the margin of 1 it asks of every point; the prediction rule compares y with "
            "ŷ = sign(0) = +1.",
            "c": "The two rules are the same rule up to the factor 2 in the step, so they "
            "update on the same points, ties included.",
            "d": "At a = 0 the margin rule's test y·a <= 0 holds whatever the label, while the "
            "prediction rule compares y with ŷ = sign(0) = +1.",
        },
        reason="d",
        reason_hints={
            "a": "run np.sign(0.0). What does it return, and would a rule built on it skip "
            "a tie with y = +1?",
            "b": "write the margin rule's test as section 1 gives it: which number does it "
            "compare y·a with? Would it update a point with y·a = 0.5?",
            "c": "section 6 shows the factor 2 away from ties; a tie is exactly where the two "
            "tests can disagree. Write both tests at a = 0.",
        },
        solution="The margin rule updates when y·a <= 0; at a = 0, y·a = 0 for either label, so "
        "it updates for y = +1 and for y = −1. The prediction rule updates when ŷ ≠ y; ŷ = "
        'sign(0) = +1, so it updates for y = −1 only. Answer: ("margin", "both"), reason d. '
        "So from w = 0, b = 0, where the first activation is always a tie, the two rules part "
        "at the first step exactly when the first label is +1. Reasons a and b reach the "
        "same pair by a wrong route: np.sign(0) is 0, not +1 (sign(0) = +1 is this course's "
        "own convention, and a rule built on np.sign would update a tie for both labels), and "
        "the margin rule's test is y·a <= 0, with no margin of 1.",
    )
)


# -- 3: the learning rate that lands on a tie -------------------------------------------------

_X1, _YA1 = np.array([1.0, 2.0]), -3.0


def _eta_to_tie(step=None):
    """The eta with y·a + eta·step = 0; step = ||x||² + 1 by default."""
    return -_YA1 / (_X1 @ _X1 + 1 if step is None else step)


EXERCISES.add(
    Exercise(
        "02-3",
        "quick",
        "η",
        lambda: _eta_to_tie(),
        words={"half": 0.5, "one half": 0.5, "a half": 0.5, "one-half": 0.5},
        mistakes=(
            Mistake(
                lambda: _eta_to_tie(step=_X1 @ _X1),
                "With a bias, y·a gains more than η·||x||² in an update: b moves too.",
            ),
            Mistake(
                lambda: 1 / _eta_to_tie(),
                "Check your η: one update with it should add exactly 3 to y·a.",
            ),
            Mistake(
                lambda: -_eta_to_tie(),
                "A learning rate is positive: an update always raises y·a, whatever the label.",
            ),
            Mistake(
                lambda: _eta_to_tie(step=np.sqrt(_X1 @ _X1) + 1),
                "The update adds a squared length, not a length.",
            ),
        ),
        hint="Write y·a after one update as a function of η and solve for the tie.",
        solution="One update raises y·a by η(||x||² + 1) = η(1 + 4 + 1) = 6η (y² = 1, so the "
        "label's sign does not matter). From −3 it reaches 0 when 6η = 3: η = 1/2. The point is "
        "then on the boundary, a tie, which the margin rule still counts as a mistake.",
    )
)


# -- 4: how many updates one point forces -------------------------------------------------------


_W2, _X2, _Y2 = np.array([-5.0, -5.0]), np.array([1.0, 1.0]), 1.0


def _biases_with_two(bias_in_a=True, bias_moves=True, tie_is_mistake=True):
    """The smallest and largest whole b in -20..20 for which the point needs exactly 2 updates."""
    found = []
    for b in range(-20, 21):
        w, bb, k = _W2, float(b), 0
        while (_Y2 * (w @ _X2 + bb * bias_in_a)) < (1e-12 if tie_is_mistake else 0) and k < 99:
            w, bb, k = w + _Y2 * _X2, bb + _Y2 * bias_moves, k + 1
        if k == 2:
            found.append(b)
    return (min(found), max(found))


EXERCISES.add(
    Exercise(
        "02-4",
        "predict",
        "your pair (smallest b, largest b)",
        lambda: _biases_with_two(),
        mistakes=(
            Mistake(
                lambda: _biases_with_two(tie_is_mistake=False),
                "Check the ends of your range: at one of them an update leaves the point exactly "
                "on the boundary. Is that a mistake for the margin rule?",
            ),
            Mistake(
                lambda: _biases_with_two(bias_moves=False),
                "Each update moves b as well as w: by how much does y·a rise per update here?",
            ),
            Mistake(
                lambda: (_biases_with_two()[0], _biases_with_two()[1] - 1),
                "Your smallest b is right; check the top of your range. Where an update leaves "
                "the point exactly on the boundary (y·a = 0), is that a mistake for the margin "
                "rule, and so how many updates does that b need?",
            ),
            Mistake(
                lambda: (_biases_with_two()[0] - 1, _biases_with_two()[1]),
                "Your largest b is right; do the updates for your smallest b one by one.",
            ),
        ),
        hint="Write y·a after 0, 1 and 2 updates as a function of b, and say which of them must be "
        "mistakes and which must not.",
        solution="y·a₀ = −5 − 5 + b = b − 10, and each update adds ||x||² + 1 = 3. Exactly 2 "
        "updates means: after one update still a mistake, b − 7 <= 0 (a tie counts), and after "
        "two not, b − 4 > 0. So 4 < b <= 7: the whole numbers 5, 6, 7, answer (5, 7). At b = 7 "
        "the first update lands on a tie, y·a = 0, and the second one is needed; at b = 4 the "
        "second lands on a tie and a third is needed. The formula k* = ⌊r⌋ + 1 says the same: "
        "r = (10 − b)/3 must be in [1, 2).",
    )
)


# -- 5: one epoch of the prediction rule, with its count ----------------------------------------


def _prediction_epoch(w, b, X, y, eta, tie=1.0, factor=None, bias=True, sign=1.0, count="update"):
    """One pass of the prediction rule over the rows of X in order: (w, b, number of updates).

    The keywords make the anticipated bugs: the class of a tie, a step of η·y instead of
    η(y − ŷ), no bias step, the wrong sign, counting ties as the margin rule does."""
    k = 0
    for x_i, y_i in zip(X, y):
        a = w @ x_i + b
        y_hat = 1.0 if a > 0 else (-1.0 if a < 0 else tie)
        c = sign * eta * ((y_i - y_hat) if factor is None else factor * y_i * (y_hat != y_i))
        if count == "margin":
            k += int(y_i * a <= 0)
        elif c != 0:
            k += 1
        w, b = w + c * x_i, b + c * bias
    return w, b, k


def _perclib_epoch(w, b, X, y, eta):
    """The same epoch from perclib's estimator: one epoch of Perceptron(rule="prediction")."""
    import warnings

    from perclib import ConvergenceWarning, Perceptron

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # one epoch need not converge
        fit = Perceptron(rule="prediction", eta=eta, max_iter=1).fit(
            X, y, coef_init=w, intercept_init=b
        )
    return fit.coef_, float(fit.intercept_), int(fit.n_updates_)


def _epoch_cases(rng):
    cases = []
    while len(cases) < 30:
        n, d = int(rng.integers(3, 7)), int(rng.integers(1, 4))
        X = rng.integers(-2, 3, (n, d)).astype(float)
        if np.any(np.all(X == 0, axis=1)):  # no zero inputs: with x = 0 only b can move
            continue
        y = rng.choice([-1.0, 1.0], n)
        if len(set(y)) < 2:
            continue
        w = rng.integers(-3, 4, d).astype(float)
        b = -float(w @ X[0]) if len(cases) % 3 == 0 else float(rng.integers(-3, 4))  # a tie
        eta = float(rng.choice([0.5, 1.0, 2.0]))
        cases.append(((w, b, X, y, eta), _perclib_epoch(w, b, X, y, eta)))
    return cases


def _bug(**kw):
    return lambda w, b, X, y, eta: _prediction_epoch(w, b, X, y, eta, **kw)


EXERCISES.add(
    Exercise(
        "02-5",
        "implement",
        "your prediction_epoch",
        _epoch_cases,
        returns=("w", "b", "k"),
        mistakes=(
            Mistake(
                _bug(tie=0.0),
                "Your function goes wrong on ties (a = 0): np.sign(0) is 0, which is no class. "
                "What does this course predict there?",
            ),
            Mistake(
                _bug(tie=-1.0),
                "Your function goes wrong on ties (a = 0): which class does this course's sign "
                "give at 0?",
            ),
            Mistake(
                _bug(factor=1.0),
                "Your steps have the right direction but half the length: what is y − ŷ on a "
                "mistake?",
            ),
            Mistake(_bug(bias=False), "Your w is right but your b is not: the bias moves too."),
            Mistake(
                _bug(sign=-1.0),
                "Your steps move the boundary away from the point: check the sign of the step.",
            ),
            Mistake(
                _bug(count="margin"),
                "Your w and b are right but your count is not: you counted a point the prediction "
                "rule does not update on. Count the updates, not the ties.",
            ),
        ),
        hint="Take the failing case and work its epoch by hand, one row at a time: ŷ, then "
        "y − ŷ, then the step and the count. Compare after each row.",
        solution="```python\ndef prediction_epoch(w, b, X, y, eta):\n    k = 0\n    for x_i, "
        "y_i in zip(X, y):\n        y_hat = 1 if w @ x_i + b >= 0 else -1  # sign(0) = +1\n"
        "        if y_hat != y_i:\n            c = eta * (y_i - y_hat)  # 2·eta·y_i\n"
        "            w, b, k = w + c * x_i, b + c, k + 1\n    return w, b, k\n```\nThe "
        "updates are made in order, each on the weights the previous ones left; on a tie with "
        "y = +1, ŷ = +1 = y and nothing changes (the margin rule would update there); with "
        "y = −1 the step is −2η.",
        seed=202,
    )
)


def _every_b(answer):
    """02-4 answered with every whole b that works ([5, 6, 7]): as (smallest, largest), or None
    when the list is not a run of consecutive whole numbers."""
    got = read_numbers(answer)
    if got is None or got.ndim != 1 or got.size < 3:
        return answer
    run = np.sort(got)
    if np.all(run == np.round(run)) and np.all(np.diff(run) == 1):
        return (float(run[0]), float(run[-1]))
    return None


def check(exercise_id, answer, *, because=None):
    """Check your answer to an exercise of this notebook (see perclib.exercises' check).

    An explain exercise lists its reasons only once the conclusion is right: the options speak of
    what each rule does, so seen beside a wrong conclusion they would give the right one away.
    """
    ex = EXERCISES[exercise_id]
    if exercise_id == "02-4" and not has_blank(answer):
        answer = _every_b(answer)
        if answer is None:
            return Feedback(
                False,
                "Not yet: give the smallest and the largest b as a pair, or list every whole b "
                "that works, with none missing between them.",
            )
    if ex.reasons and ex.judge is not None and has_blank(because):
        if has_blank(answer):
            return blank_feedback(ex.what)
        if ex.judge(answer) is not None:  # judged as with any reason: the pair's hint
            return EXERCISES.check(exercise_id, answer, because="?")
    return EXERCISES.check(exercise_id, answer, because=because)


check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
reveal = EXERCISES.reveal
answered = EXERCISES.answered
