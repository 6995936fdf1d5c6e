"""The course's exercises: expected answers, anticipated mistakes and worked solutions.

They live here, not in the notebooks, so a student's cell holds only the answer (see
:mod:`perclib.exercises`). Ids are "NN-k": notebook NN, exercise k. Expected values are computed from
the data and from perclib when a check runs. Notebooks 05-07 add theirs below.
"""
from __future__ import annotations

import numpy as np

from .datasets import worked_example
from .exercises import Exercise, Mistake, register

# -- 01 · The perceptron model ---------------------------------------------------------------------

_CREDIT_W, _CREDIT_B, _APPLICANT = np.array([0.1, 0.5, -0.3]), -5.0, np.array([50.0, 2.0, 5.0])


def _credit(bias=True, debt_sign=1.0):
    w = _CREDIT_W * np.array([1.0, 1.0, debt_sign])
    a = float(w @ _APPLICANT + (_CREDIT_B if bias else 0.0))
    return 1 if a >= 0 else -1


register(Exercise(
    "01-1", "quick", "h(x) for this applicant", lambda: _credit(),
    mistakes=(Mistake(lambda: -_credit(), "The sign is the wrong way round: the activation decides, and "
                      "h = +1 only when w.x + b >= 0. Which way did your activation come out?"),),
    hint="Compute the activation w.x + b term by term (remember the bias b = -5 and the negative weight of "
         "debt), then take its sign.",
    solution="w.x + b = 0.1·50 + 0.5·2 − 0.3·5 − 5 = 5 + 1 − 1.5 − 5 = −0.5 < 0, so h(x) = −1 (deny). "
             "Without the bias the score would be 4.5 and the applicant approved: the threshold matters."))


def _misclassified(w, b, tie=1):
    X, y = worked_example()
    a = X @ np.asarray(w, dtype=float) + b
    return int(np.sum(np.where(a > 0, 1, np.where(a < 0, -1, tie)) != y))


register(Exercise(
    "01-2", "predict", "the number of misclassified points", lambda: _misclassified([1, -1], 0),
    mistakes=(Mistake(lambda: _misclassified([1, -1], 0, tie=0), "Two points lie exactly on the line "
                      "(a = 0). They are not 'no class': sign(0) = +1, so each of them is predicted +1."),
              Mistake(lambda: _misclassified([1, -1], 0, tie=-1) - 1, "Two points lie exactly on the line "
                      "(a = 0), and they count: sign(0) = +1. Is +1 right for both of them?")),
    hint="Work out a = x1 − x2 for each of the four points, predict sign(a) with sign(0) = +1, and compare "
         "with the labels.",
    solution="The activations x1 − x2 are 0, −1, 0, −1 for <1,1>, <1,2>, <0,0>, <−1,0>. With sign(0) = +1 "
             "the predictions are +1, −1, +1, −1 against the labels +1, +1, −1, −1: <1,2> and <0,0> are "
             "wrong, so 2 points are misclassified."))


def _distance_cases(rng):
    cases = []
    for _ in range(25):
        d = int(rng.integers(2, 6))
        w, x = rng.normal(size=d) * rng.uniform(0.5, 3.0), rng.normal(size=d) * 2
        b = float(rng.normal() * 2)
        cases.append(((w, b, x), (w @ x + b) / np.linalg.norm(w)))
    return cases


register(Exercise(
    "01-3", "quick", "the signed distance", lambda: (3 * 3 + 4 * 4 - 5) / 5,
    mistakes=(Mistake(20.0, "That is the activation w.x + b: divide by the length of w to get a distance."),
              Mistake(0.8, "You divided by ||w||² = 25; the distance divides by ||w|| itself."),
              Mistake(5.0, "You left out the bias b = −5."),
              Mistake(-4.0, "Check the sign: the point is on the side w points to, where w.x + b > 0.")),
    hint="Use the signed distance (w.x + b) / ||w|| with w = (3, 4), b = −5.",
    solution="(w.x + b)/||w|| = (3·3 + 4·4 − 5)/√(3² + 4²) = 20/5 = 4: the point is 4 units from the line, "
             "on the side w points to."))

register(Exercise(
    "01-4", "implement", "your signed_distance", _distance_cases,
    mistakes=(Mistake(lambda w, b, x: (w @ x) / np.linalg.norm(w), "You forgot the bias b."),
              Mistake(lambda w, b, x: (w @ x + b) / (w @ w), "You divided by ||w||² instead of ||w||."),
              Mistake(lambda w, b, x: w @ x + b, "That is the activation: divide it by ||w||."),
              Mistake(lambda w, b, x: abs(w @ x + b) / np.linalg.norm(w), "That is the distance without its "
                      "sign: keep the sign, it says which side the point is on."),
              Mistake(lambda w, b, x: -(w @ x + b) / np.linalg.norm(w), "The sign is flipped: points on the "
                      "side w points to have a positive distance."),
              Mistake(lambda w, b, x: (w @ x + b) / np.sqrt(w @ w + b * b), "You put b into the norm: that is "
                      "the augmented quantity of notebook 04, not a distance in the plane of x.")),
    hint="The signed distance of x from {w.x + b = 0} is (w.x + b) / ||w||; check each part.",
    solution="`return (w @ x + b) / np.linalg.norm(w)`. The activation w.x + b grows by ||w|| for each unit "
             "step along the unit normal w/||w||, so dividing by ||w|| turns it into a distance.", seed=101))


def _judge_and(answer):
    try:
        w1, w2, b = (float(v) for v in answer)
    except (TypeError, ValueError):
        return "give three numbers (w1, w2, b), for example (1.0, 2.0, -0.5)."
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    y = np.array([-1, -1, -1, 1])
    a = X @ [w1, w2] + b
    wrong = [f"<{int(p[0])},{int(p[1])}> (a = {v:g})" for p, v, t in zip(X, a, y) if t * v <= 0]
    if wrong:
        return (f"your line w.x + b = 0 does not put every point strictly on its own side: "
                f"{', '.join(wrong)}. A point with a = 0 is on the line, not on its side.")
    return None


register(Exercise(
    "01-5", "explain", "your separator for AND", None, judge=_judge_and,
    hint="", solution="AND is linearly separable: only <1,1> is +1, and the line x1 + x2 = 1.5 puts it alone "
    "on the + side, so (w1, w2, b) = (1, 1, −1.5) works (activations −1.5, −0.5, −0.5, 0.5). Any line "
    "that cuts <1,1> off from the other three corners works too; XOR has no such line because its +1 "
    "corners are opposite each other."))


# -- 02 · The update rule --------------------------------------------------------------------------

def _ya_after(ya0=-3.0, x=(1.0, 2.0), bias=1.0, eta=1.0, square=True):
    x = np.asarray(x)
    return ya0 + eta * ((x @ x if square else np.sqrt(x @ x)) + bias)


register(Exercise(
    "02-1", "quick", "y·a after the update", lambda: _ya_after(),
    mistakes=(Mistake(lambda: _ya_after(bias=0.0), "That is the change of y·w.x alone: the bias moves too "
                      "(b ← b + y), and it adds one more to y·a."),
              Mistake(lambda: _ya_after(square=False), "The step adds the squared length ||x||², not ||x||."),
              Mistake(lambda: -_ya_after(), "y·a goes up by the update, whatever the label: check your sign."),
              Mistake(lambda: _ya_after(eta=2.0), "That is the (y − ŷ) form with its factor 2; here the rule is "
                      "the margin rule w ← w + ηyx with η = 1.")),
    hint="One update raises y·a by η(||x||² + 1) with a bias: compute ||x||² for x = (1, 2).",
    solution="y·a rises by η(||x||² + 1) = 1·(1 + 4 + 1) = 6, from −3 to 3 (y² = 1 makes the label's sign "
             "irrelevant)."))


def _updates_to_fix(w, b, x, y, eta=1.0):
    k = 0
    while y * (w @ x + b) <= 0:
        w, b, k = w + eta * y * x, b + eta * y, k + 1
    return k


_P2 = (np.array([-4.0, 0.0]), -2.0, np.array([2.0, 0.0]), 1.0)

register(Exercise(
    "02-2", "quick", "k", lambda: _updates_to_fix(*_P2),
    mistakes=(Mistake(lambda: _updates_to_fix(*_P2) - 1, "Off by one: after that many updates y·a is exactly "
                      "0, a tie, and a tie is still a mistake (y·a <= 0), so one more update comes."),
              Mistake(2.5, "That is the ratio −y·a₀ / ||x̃||²; the number of updates is a whole number, the "
                      "smallest k with y·a₀ + k·||x̃||² > 0."),
              Mistake(3.5, "With a bias the step is ||x||² + 1 = 5, not ||x||² = 4.")),
    hint="Write y·a after 0, 1, 2, ... updates (each adds ||x||² + 1) and stop at the first positive value.",
    solution="y·a₀ = −10 and each update adds ||x||² + 1 = 5: −10, −5, 0, 5. After 2 updates y·a = 0 is a "
             "tie, still a mistake, so k = 3 = ⌊10/5⌋ + 1."))

register(Exercise(
    "02-3", "predict", "the factor", lambda: 1,
    mistakes=(Mistake(100, "A smaller η makes smaller steps, but from w = 0 every (w, b) is η times the η = 1 "
                      "run, and sign ignores a positive factor."),
              Mistake(0.01, "The steps are 100 times smaller, but so is everything they are added to."),
              Mistake(1e4, "The steps are smaller, but the start is zero: nothing is there for them to fight.")),
    hint="From w = 0, b = 0, write the weights after each update as η times something.",
    solution="By induction every (w, b) of the η = 0.01 run is 0.01 times the (w, b) of the η = 1 run at the "
             "same step, and sign(0.01·a) = sign(a); so the same points are mistakes and the number of "
             "updates is the same: factor 1."))


def _update_cases(rng):
    from ._engine import activation, is_mistake, step_size
    cases = []
    for k in range(30):
        d = int(rng.integers(1, 4))
        w = rng.integers(-3, 4, d).astype(float)
        x = rng.integers(-2, 3, d).astype(float)
        y = float(rng.choice([-1.0, 1.0]))
        eta = float(rng.choice([0.5, 1.0, 2.0]))
        b = float(rng.integers(-3, 4))
        if k % 5 == 0:  # a tie: a = 0, where the margin rule still updates
            b = -float(w @ x)
        a = activation(w, b, x)
        c = step_size(y, a, eta, "margin") if is_mistake(y, a, "margin") else 0.0
        cases.append(((w, b, x, y, eta), (w + c * x, b + c)))
    return cases


def _bug_update(strict=False, bias=True, always=False, sign=1.0, prediction=False):
    def update(w, b, x, y, eta):
        a = w @ x + b
        if prediction:
            c = eta * (y - (1.0 if a >= 0 else -1.0))
            return w + c * x, b + c * bias
        mistake = True if always else (y * a < 0 if strict else y * a <= 0)
        if not mistake:
            return w, b
        return w + sign * eta * y * x, b + sign * eta * y * bias
    return update


register(Exercise(
    "02-4", "implement", "your perceptron_update", _update_cases,
    mistakes=(Mistake(_bug_update(strict=True), "A tie (a = 0, so y·a = 0) is a mistake too: the test is "
                      "y·a <= 0, not < 0."),
              Mistake(_bug_update(bias=False), "The bias must move too: b ← b + ηy."),
              Mistake(_bug_update(always=True), "Update only on a mistake (y·a <= 0); a correct point leaves "
                      "(w, b) unchanged."),
              Mistake(_bug_update(sign=-1.0), "The step has the wrong sign: move towards the point, "
                      "w ← w + ηyx."),
              Mistake(_bug_update(prediction=True), "That is the (y − ŷ) rule: it takes steps of 2η and skips "
                      "ties with y = +1. Write the margin rule.")),
    hint="The margin rule: a = w.x + b; if y·a <= 0 then w ← w + ηyx and b ← b + ηy; return (w, b).",
    solution="```python\ndef perceptron_update(w, b, x, y, eta):\n    a = w @ x + b\n    if y * a <= 0:\n"
             "        return w + eta * y * x, b + eta * y\n    return w, b\n```\nIt mirrors the two lines "
             "inside CIML's PerceptronTrain loop.", seed=202))


register(Exercise(
    "02-5", "explain", "the rule that updates", "margin",
    mistakes=(Mistake("prediction", "Under the prediction rule ŷ = sign(0) = +1 = y: no error is seen. Which "
                      "rule calls y·a = 0 a mistake?"),
              Mistake("both", "For y = −1 both update, but here y = +1: what does sign(0) predict?"),
              Mistake("neither", "One of them treats y·a = 0 as a mistake: which test is y·a <= 0?")),
    hint='Answer "margin", "prediction", "both" or "neither".',
    solution="The margin rule updates when y·a <= 0, and y·a = 0 here, so it updates. The prediction rule "
             "updates when ŷ ≠ y; ŷ = sign(0) = +1 = y, so it does not. Answer: \"margin\" (with y = −1 "
             "both would update)."))
