"""The course's exercises: expected answers, anticipated mistakes and worked solutions.

They live here, not in the notebooks, so a student's cell holds only the answer (see
:mod:`perclib.exercises`). Ids are "NN-k": notebook NN, exercise k. Expected values are computed
from the data and from perclib when a check runs. Notebooks 05-07 add theirs below.
"""

from __future__ import annotations

import numpy as np

from . import exercise_bank_0507  # noqa: F401  (notebooks 05-07 register theirs there)
from .datasets import worked_example
from .exercises import Exercise, Mistake, register

# -- 01 · The perceptron model ---------------------------------------------------------------------

_CREDIT_W, _CREDIT_B, _APPLICANT = np.array([0.1, 0.5, -0.3]), -5.0, np.array([50.0, 2.0, 5.0])


def _credit(bias=True, debt_sign=1.0):
    w = _CREDIT_W * np.array([1.0, 1.0, debt_sign])
    a = float(w @ _APPLICANT + (_CREDIT_B if bias else 0.0))
    return 1 if a >= 0 else -1


register(
    Exercise(
        "01-1",
        "quick",
        "h(x) for this applicant",
        lambda: _credit(),
        mistakes=(
            Mistake(
                lambda: -_credit(),
                "The sign is the wrong way round: the activation decides, and h = +1 only when "
                "w.x + b >= 0. Which way did your activation come out?",
            ),
        ),
        hint="Compute the activation w.x + b term by term (remember the bias b = -5 and the "
        "negative weight of debt), then take its sign.",
        solution="w.x + b = 0.1·50 + 0.5·2 − 0.3·5 − 5 = 5 + 1 − 1.5 − 5 = −0.5 < 0, so h(x) = −1 "
        "(deny). Without the bias the score would be 4.5 and the applicant approved: the "
        "threshold matters.",
    )
)


def _misclassified(w, b, tie=1):
    X, y = worked_example()
    a = X @ np.asarray(w, dtype=float) + b
    return int(np.sum(np.where(a > 0, 1, np.where(a < 0, -1, tie)) != y))


register(
    Exercise(
        "01-2",
        "predict",
        "the number of misclassified points",
        lambda: _misclassified([1, -1], 0),
        mistakes=(
            Mistake(
                lambda: _misclassified([1, -1], 0, tie=0),
                "Two points lie exactly on the line (a = 0). They are not 'no class': sign(0) = "
                "+1, so each of them is predicted +1.",
            ),
            Mistake(
                lambda: _misclassified([1, -1], 0, tie=-1) - 1,
                "Two points lie exactly on the line (a = 0), and they count: sign(0) = +1. Is +1 "
                "right for both of them?",
            ),
        ),
        hint="Work out a = x1 − x2 for each of the four points, predict sign(a) with sign(0) = "
        "+1, and compare with the labels.",
        solution="The activations x1 − x2 are 0, −1, 0, −1 for <1,1>, <1,2>, <0,0>, <−1,0>. With "
        "sign(0) = +1 the predictions are +1, −1, +1, −1 against the labels +1, +1, −1, −1: <1,2> "
        "and <0,0> are wrong, so 2 points are misclassified.",
    )
)


def _distance_cases(rng):
    cases = []
    for _ in range(25):
        d = int(rng.integers(2, 6))
        w, x = rng.normal(size=d) * rng.uniform(0.5, 3.0), rng.normal(size=d) * 2
        b = float(rng.normal() * 2)
        cases.append(((w, b, x), (w @ x + b) / np.linalg.norm(w)))
    return cases


register(
    Exercise(
        "01-3",
        "quick",
        "the signed distance",
        lambda: (3 * 3 + 4 * 4 - 5) / 5,
        mistakes=(
            Mistake(
                20.0, "That is the activation w.x + b: divide by the length of w to get a distance."
            ),
            Mistake(0.8, "You divided by ||w||² = 25; the distance divides by ||w|| itself."),
            Mistake(5.0, "You left out the bias b = −5."),
            Mistake(
                -4.0, "Check the sign: the point is on the side w points to, where w.x + b > 0."
            ),
        ),
        hint="Use the signed distance (w.x + b) / ||w|| with w = (3, 4), b = −5.",
        solution="(w.x + b)/||w|| = (3·3 + 4·4 − 5)/√(3² + 4²) = 20/5 = 4: the point is 4 units "
        "from the line, on the side w points to.",
    )
)

register(
    Exercise(
        "01-4",
        "implement",
        "your signed_distance",
        _distance_cases,
        mistakes=(
            Mistake(lambda w, b, x: (w @ x) / np.linalg.norm(w), "You forgot the bias b."),
            Mistake(
                lambda w, b, x: (w @ x + b) / (w @ w), "You divided by ||w||² instead of ||w||."
            ),
            Mistake(lambda w, b, x: w @ x + b, "That is the activation: divide it by ||w||."),
            Mistake(
                lambda w, b, x: abs(w @ x + b) / np.linalg.norm(w),
                "That is the distance without its sign: keep the sign, it says which side the "
                "point is on.",
            ),
            Mistake(
                lambda w, b, x: -(w @ x + b) / np.linalg.norm(w),
                "The sign is flipped: points on the side w points to have a positive distance.",
            ),
            Mistake(
                lambda w, b, x: (w @ x + b) / np.sqrt(w @ w + b * b),
                "You put b into the norm: that is the augmented quantity of notebook 04, not a "
                "distance in the plane of x.",
            ),
        ),
        hint="The signed distance of x from {w.x + b = 0} is (w.x + b) / ||w||; check each part.",
        solution="`return (w @ x + b) / np.linalg.norm(w)`. The activation w.x + b grows by ||w|| "
        "for each unit step along the unit normal w/||w||, so dividing by ||w|| turns it into a "
        "distance.",
        seed=101,
    )
)


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
        return (
            f"your line w.x + b = 0 does not put every point strictly on its own side: "
            f"{', '.join(wrong)}. A point with a = 0 is on the line, not on its side."
        )
    return None


register(
    Exercise(
        "01-5",
        "explain",
        "your separator for AND",
        None,
        judge=_judge_and,
        hint="",
        solution="AND is linearly separable: only <1,1> is +1, and the line x1 + x2 = 1.5 puts it "
        "alone on the + side, so (w1, w2, b) = (1, 1, −1.5) works (activations −1.5, −0.5, −0.5, "
        "0.5). Any line that cuts <1,1> off from the other three corners works too; XOR has no "
        "such line because its +1 corners are opposite each other.",
    )
)


# -- 02 · The update rule --------------------------------------------------------------------------


def _ya_after(ya0=-3.0, x=(1.0, 2.0), bias=1.0, eta=1.0, square=True):
    x = np.asarray(x)
    return ya0 + eta * ((x @ x if square else np.sqrt(x @ x)) + bias)


register(
    Exercise(
        "02-1",
        "quick",
        "y·a after the update",
        lambda: _ya_after(),
        mistakes=(
            Mistake(
                lambda: _ya_after(bias=0.0),
                "That is the change of y·w.x alone: the bias moves too (b ← b + y), and it adds "
                "one more to y·a.",
            ),
            Mistake(
                lambda: _ya_after(square=False),
                "The step adds the squared length ||x||², not ||x||.",
            ),
            Mistake(
                lambda: -_ya_after(),
                "y·a goes up by the update, whatever the label: check your sign.",
            ),
            Mistake(
                lambda: _ya_after(eta=2.0),
                "That is the (y − ŷ) form with its factor 2; here the rule is the margin rule w ← "
                "w + ηyx with η = 1.",
            ),
        ),
        hint="One update raises y·a by η(||x||² + 1) with a bias: compute ||x||² for x = (1, 2).",
        solution="y·a rises by η(||x||² + 1) = 1·(1 + 4 + 1) = 6, from −3 to 3 (y² = 1 makes the "
        "label's sign irrelevant).",
    )
)


def _updates_to_fix(w, b, x, y, eta=1.0):
    k = 0
    while y * (w @ x + b) <= 0:
        w, b, k = w + eta * y * x, b + eta * y, k + 1
    return k


_P2 = (np.array([-4.0, 0.0]), -2.0, np.array([2.0, 0.0]), 1.0)

register(
    Exercise(
        "02-2",
        "quick",
        "k",
        lambda: _updates_to_fix(*_P2),
        mistakes=(
            Mistake(
                lambda: _updates_to_fix(*_P2) - 1,
                "Off by one: after that many updates y·a is exactly 0, a tie, and a tie is still "
                "a mistake (y·a <= 0), so one more update comes.",
            ),
            Mistake(
                2.5,
                "That is the ratio −y·a₀ / ||x̃||²; the number of updates is a whole number, the "
                "smallest k with y·a₀ + k·||x̃||² > 0.",
            ),
            Mistake(3.5, "With a bias the step is ||x||² + 1 = 5, not ||x||² = 4."),
        ),
        hint="Write y·a after 0, 1, 2, ... updates (each adds ||x||² + 1) and stop at the first "
        "positive value.",
        solution="y·a₀ = −10 and each update adds ||x||² + 1 = 5: −10, −5, 0, 5. After 2 updates "
        "y·a = 0 is a tie, still a mistake, so k = 3 = ⌊10/5⌋ + 1.",
    )
)

register(
    Exercise(
        "02-3",
        "predict",
        "the factor",
        lambda: 1,
        mistakes=(
            Mistake(
                100,
                "A smaller η makes smaller steps, but from w = 0 every (w, b) is η times the η = "
                "1 run, and sign ignores a positive factor.",
            ),
            Mistake(
                0.01, "The steps are 100 times smaller, but so is everything they are added to."
            ),
            Mistake(
                1e4,
                "The steps are smaller, but the start is zero: nothing is there for them to fight.",
            ),
        ),
        hint="From w = 0, b = 0, write the weights after each update as η times something.",
        solution="By induction every (w, b) of the η = 0.01 run is 0.01 times the (w, b) of the η "
        "= 1 run at the same step, and sign(0.01·a) = sign(a); so the same points are mistakes "
        "and the number of updates is the same: factor 1.",
    )
)


def _update_cases(rng):
    from .training import activation, is_mistake, step_size

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


register(
    Exercise(
        "02-4",
        "implement",
        "your perceptron_update",
        _update_cases,
        mistakes=(
            Mistake(
                _bug_update(strict=True),
                "A tie (a = 0, so y·a = 0) is a mistake too: the test is y·a <= 0, not < 0.",
            ),
            Mistake(_bug_update(bias=False), "The bias must move too: b ← b + ηy."),
            Mistake(
                _bug_update(always=True),
                "Update only on a mistake (y·a <= 0); a correct point leaves (w, b) unchanged.",
            ),
            Mistake(
                _bug_update(sign=-1.0),
                "The step has the wrong sign: move towards the point, w ← w + ηyx.",
            ),
            Mistake(
                _bug_update(prediction=True),
                "That is the (y − ŷ) rule: it takes steps of 2η and skips ties with y = +1. Write "
                "the margin rule.",
            ),
        ),
        hint="The margin rule: a = w.x + b; if y·a <= 0 then w ← w + ηyx and b ← b + ηy; return "
        "(w, b).",
        solution="```python\ndef perceptron_update(w, b, x, y, eta):\n    a = w @ x + b\n    if y "
        "* a <= 0:\n        return w + eta * y * x, b + eta * y\n    return w, b\n```\nIt mirrors "
        "the two lines inside CIML's PerceptronTrain loop.",
        seed=202,
    )
)


register(
    Exercise(
        "02-5",
        "explain",
        "the rule that updates",
        "margin",
        mistakes=(
            Mistake(
                "prediction",
                "Under the prediction rule ŷ = sign(0) = +1 = y: no error is seen. Which rule "
                "calls y·a = 0 a mistake?",
            ),
            Mistake("both", "For y = −1 both update, but here y = +1: what does sign(0) predict?"),
            Mistake("neither", "One of them treats y·a = 0 as a mistake: which test is y·a <= 0?"),
        ),
        hint='Answer "margin", "prediction", "both" or "neither".',
        solution="The margin rule updates when y·a <= 0, and y·a = 0 here, so it updates. The "
        "prediction rule "
        'updates when ŷ ≠ y; ŷ = sign(0) = +1 = y, so it does not. Answer: "margin" (with y = −1 '
        "both would update).",
    )
)


# -- 03 · The worked example -----------------------------------------------------------------------


def _trace_text(order, theta0=(0.0, 0.0, 0.0), rule="prediction"):
    from .exercises import epoch_trace

    X, y = worked_example()
    rows = epoch_trace(X, y, order, theta0=theta0, rule=rule)
    fmt = lambda v: "(" + ", ".join(f"{t:g}" for t in v) + ")"  # noqa: E731
    lines = [
        f"- x = <{r['x'][0]:g},{r['x'][1]:g}>: θ·x = {r['theta_x']:g}, ŷ = {r['y_hat']:+g}, y = "
        f"{r['y']:+g}, "
        f"θ after = {fmt(r['theta'])}" + (" (update)" if r["updated"] else "")
        for r in rows
    ]
    return "\n".join(lines)


_START_31 = (1.0, -1.0, 0.0)


def _judge_trace_31(answer):
    from .exercises import check_epoch

    return check_epoch(answer, theta0=_START_31)


register(
    Exercise(
        "03-1",
        "choice",
        "your trace",
        None,
        judge=_judge_trace_31,
        solution=lambda: (
            "From θ = (1, −1, 0), the lecture's rule, in the lecture's order:\n\n"
            + _trace_text(range(4), _START_31)
            + "\n\nTwo updates: <0,0> has θ·x = 1 (the bias alone) and label −1; "
            "then <−1,0> is a tie, θ·x = 0, predicted +1 but labelled −1."
        ),
    )
)


def _judge_order(answer):
    from .exercises import _blank_feedback, _has_blank, epoch_trace

    if _has_blank(answer):
        return _blank_feedback("your order and your answer")
    try:
        points, same_end = answer
        points = [tuple(float(v) for v in p) for p in points]
    except (TypeError, ValueError):
        return (
            'give (my_order, same_end): my_order lists the four points, same_end is "yes" or "no".'
        )
    if (
        same_end is Ellipsis
        or not isinstance(same_end, str)
        or same_end.strip().lower() not in ("yes", "no")
    ):
        return 'same_end must be "yes" or "no".'
    X, y = worked_example()
    where = {tuple(p): i for i, p in enumerate(X.tolist())}
    if sorted(points) != sorted(where) or len(points) != 4:
        return (
            "my_order must list each of the four points <1,1>, <1,2>, <0,0>, <−1,0> exactly once."
        )
    end = epoch_trace(X, y, [where[p] for p in points])[-1]["theta"]
    truth = "yes" if np.array_equal(end, [-2.0, 0.0, 0.0]) else "no"
    if same_end.strip().lower() != truth:
        return (
            "for your order, compare θ at the end of your last row (checked above) with the "
            "lecture's "
            "(−2, 0, 0)."
        )
    return None


register(
    Exercise(
        "03-2",
        "choice",
        "your answer for your order",
        None,
        judge=_judge_order,
        solution="It depends on the order. From θ = 0 every point is first a tie, predicted +1, "
        "so the first −1 point visited triggers θ ← (−2, 0, 0); after that w = 0 and every point "
        "has θ·x = −2, predicted −1, so a +1 point visited later triggers a second update and a "
        "−1 point none. Epoch 1 ends at (−2, 0, 0) exactly when both +1 points come before both "
        "−1 points (4 of the 24 orders, the lecture's among them); every other order ends "
        "elsewhere.",
    )
)


def _updates(order_reversed=True, rule="prediction"):
    from .perceptron import Perceptron

    X, y = worked_example()
    if order_reversed:
        X, y = X[::-1], y[::-1]
    return int(Perceptron(rule=rule).fit(X, y).n_updates_)


register(
    Exercise(
        "03-3",
        "predict",
        "the number of updates",
        lambda: _updates(),
        mistakes=(
            Mistake(
                lambda: _updates(False),
                "That is the count in the lecture's order. The first point visited is now <−1,0>, "
                "a tie labelled −1: what does that first update do to all the other points?",
            ),
        ),
        hint="Trace the first epoch in the reversed order (start θ = 0, sign(0) = +1), then see "
        "whether the second epoch makes any update.",
        solution="Reversed, the first point is <−1,0>: θ·x = 0, ŷ = +1, y = −1, so θ ← (−2, 2, "
        "0). Now <0,0> has θ·x = −2 (right), <1,2> has 0 → +1 (right), <1,1> has 0 → +1 (right). "
        "Epoch 2 makes no update: 1 update in all, against 3 in the lecture's order. The order "
        "matters.",
    )
)


def _lecture_step_ref(theta, x, y, eta):
    z = np.concatenate([[1.0], x])
    a = float(theta @ z)
    y_hat = 1.0 if a >= 0 else -1.0
    return a, y_hat, theta + eta * (y - y_hat) * z


def _step_cases(rng):
    cases = []
    for k in range(30):
        theta = rng.integers(-3, 4, 3).astype(float)
        x = rng.integers(-2, 3, 2).astype(float)
        if k % 4 == 0:  # a tie
            theta[0] = -float(theta[1:] @ x)
        y = float(rng.choice([-1.0, 1.0]))
        eta = float(rng.choice([0.5, 1.0]))
        cases.append(((theta, x, y, eta), _lecture_step_ref(theta, x, y, eta)))
    return cases


def _bug_step(tie=1.0, margin=False, no_one=False):
    def step(theta, x, y, eta):
        z = np.concatenate([[0.0 if no_one else 1.0], x])
        a = float(theta @ np.concatenate([[1.0], x]))
        y_hat = 1.0 if a > 0 else (-1.0 if a < 0 else tie)
        if margin:
            return a, y_hat, theta + eta * y * z if y * a <= 0 else theta
        return a, y_hat, theta + eta * (y - y_hat) * z

    return step


register(
    Exercise(
        "03-4",
        "implement",
        "your lecture_step",
        _step_cases,
        mistakes=(
            Mistake(
                _bug_step(tie=-1.0), "A tie θ·x = 0 is predicted +1 in this course: sign(0) = +1."
            ),
            Mistake(
                _bug_step(margin=True),
                "That is the margin rule; the lecture's rule adds η(y − ŷ)(1, x) when ŷ ≠ y.",
            ),
            Mistake(
                _bug_step(no_one=True),
                "θ's first entry is the bias: the augmented x starts with 1, so the bias moves "
                "too.",
            ),
        ),
        hint="θ·x = θ0 + θ1·x1 + θ2·x2; ŷ = +1 if θ·x >= 0 else −1; θ ← θ + η(y − ŷ)(1, x1, x2).",
        solution="```python\ndef lecture_step(theta, x, y, eta):\n    z = np.r_[1.0, x]           "
        " # the augmented x\n    a = theta @ z\n    y_hat = 1.0 if a >= 0 else -1.0\n    return "
        "a, y_hat, theta + eta * (y - y_hat) * z\n```",
        seed=303,
    )
)


def _breaking_steps(rule):
    from .perceptron import Perceptron

    X, y = worked_example()
    fit = Perceptron(rule=rule, record=True).fit(X, y)
    w, b, steps = np.zeros(2), 0.0, []
    for k, s in enumerate(fit.history_):
        if s.updated:
            before = np.where(X @ w + b >= 0, 1, -1) == y
            after = np.where(X @ s.w + s.b >= 0, 1, -1) == y
            if np.any(before & ~after):
                steps.append(k + 1)
        w, b = np.array(s.w, dtype=float), float(s.b)
    return steps


register(
    Exercise(
        "03-5",
        "explain",
        "your step",
        lambda: (_breaking_steps("margin") or [0])[0],
        mistakes=tuple(
            Mistake(
                k,
                f"At step {k} the margin rule updates, but list each point's prediction before "
                f"and after it: was any of the points it gets wrong right before?",
            )
            for k in (1, 3, 7)
        )
        + (
            Mistake(
                5,
                "Step 5 breaks <0,0> in the lecture's run; this question is about the margin "
                "rule's run of section 3.",
            ),
        ),
        hint="Answer with a step number of the margin-rule run, or 0 if no update breaks a "
        "correct point.",
        solution=lambda: (
            "Under the margin rule the updates are at steps 1, 3 and 7. Before step 1 all "
            "points are "
            "predicted +1 and after it <−1,0> is still a tie (+1): nothing that was right turns "
            "wrong; steps 3 and 7 "
            "only fix <−1,0> and <0,0>. So the answer is 0: on this data no margin-rule update "
            "breaks a correct point, "
            f"while the lecture's rule does it at steps "
            f"{', '.join(map(str, _breaking_steps('prediction')))}. The "
            "convergence proof never claims that updates only help."
        ),
    )
)


# -- 04 · Convergence ------------------------------------------------------------------------------

register(
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
    from .datasets import make_separable

    return make_separable(40, margin=0.1, random_state=0)


def _updates_eta(eta):
    from .perceptron import Perceptron

    return int(Perceptron(eta=eta).fit(*_data_04()).n_updates_)


register(
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


register(
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


register(
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
    from .exercises import _blank_feedback, _has_blank

    if _has_blank(answer):
        return _blank_feedback("your answer (a, b)")
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


register(
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
