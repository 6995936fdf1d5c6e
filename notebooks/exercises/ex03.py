"""The exercises of notebook 03 · The worked example.

Answers, anticipated mistakes, hints and worked solutions; the ids are "03-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex03 import check, check_function, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib import Perceptron
from perclib.datasets import worked_example
from perclib.exercises import (
    Exercise,
    ExerciseSet,
    Mistake,
    blank_feedback,
    check_epoch,
    epoch_trace,
    has_blank,
)

EXERCISES = ExerciseSet()


def _trace_text(order, theta0=(0.0, 0.0, 0.0), rule="prediction"):
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
    return check_epoch(answer, theta0=_START_31)


EXERCISES.add(
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
    if has_blank(answer):
        return blank_feedback("your order and your answer")
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


EXERCISES.add(
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
    X, y = worked_example()
    if order_reversed:
        X, y = X[::-1], y[::-1]
    return int(Perceptron(rule=rule).fit(X, y).n_updates_)


EXERCISES.add(
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


EXERCISES.add(
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
        returns=("theta_x", "y_hat", "theta_after"),
        solution="```python\ndef lecture_step(theta, x, y, eta):\n    z = np.r_[1.0, x]           "
        " # the augmented x\n    a = theta @ z\n    y_hat = 1.0 if a >= 0 else -1.0\n    return "
        "a, y_hat, theta + eta * (y - y_hat) * z\n```",
        seed=303,
    )
)


def _breaking_steps(rule):
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


EXERCISES.add(
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
        reasons={  # placeholder options from the solution, to be rewritten with the notebook
            "a": "the margin rule's updates only fix <−1,0> and <0,0>: no point that was right "
            "turns wrong",
            "b": "the convergence proof shows that every update only helps",
            "c": "the margin rule makes fewer updates than the lecture's rule",
            "d": "an update always breaks the point visited just before it",
        },
        reason="a",
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


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
