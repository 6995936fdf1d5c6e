"""The exercises of notebook 03 · The worked example.

Answers, anticipated mistakes, hints and worked solutions; the ids are "03-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex03 import answered, check, check_function, show_solution
"""

from __future__ import annotations

import itertools

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
    read_number,
    read_numbers,
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
    if isinstance(answer, (list, tuple)):
        answer = [_plain_row(r) for r in answer]
    feedback = check_epoch(answer, theta0=_START_31)
    for old, new in _WORDING:
        feedback.message = feedback.message.replace(old, new)
    return feedback


EXERCISES.add(
    Exercise(
        "03-1",
        "choice",
        "your trace",
        None,
        judge=_judge_trace_31,
        solution=lambda: (
            "From θ = (1, −1, 0), the prediction rule, in section 1's order:\n\n"
            + _trace_text(range(4), _START_31)
            + "\n\nTwo updates: <0,0> has θ·x = 1 (the bias alone) and label −1; "
            "then <−1,0> is a tie, θ·x = 0, predicted +1 but labelled −1."
        ),
    )
)


_COURSE_END_1 = (-2.0, 0.0, 0.0)  # θ after epoch 1 in the course's order


def _vector(value):
    """Numbers in any form: a list, tuple or array of numbers (each as str, Fraction, Decimal,
    ...), or one string such as "(-3, 1, 0)", "<1,2>" or "0,0"; None if unreadable."""
    if isinstance(value, str):
        text = value.strip().strip("()[]<>⟨⟩ ")
        parts = [t for t in text.replace(";", ",").split(",")]
        if len(parts) < 2:
            parts = text.split()
        numbers = [read_number(t) for t in parts]
        return None if any(v is None for v in numbers) else np.array(numbers)
    arr = read_numbers(value)
    return None if arr is None or arr.ndim != 1 else arr


def _plain_row(row):
    """A trace row with every entry read in any valid number form (str, Fraction, Decimal,
    "(-3, 1, 0)"), so that the hand-trace checker sees plain floats; unreadable entries are left
    as given, for the checker's own form message."""
    if not isinstance(row, (tuple, list)) or len(row) != 4:
        return row
    x, a, y_hat, theta = row
    out = []
    for value, vector in ((x, True), (a, False), (y_hat, False), (theta, True)):
        if value is ... or value is None:
            out.append(value)
            continue
        read = _vector(value) if vector else read_number(value)
        out.append(value if read is None else (tuple(read.tolist()) if vector else read))
    return tuple(out)


_WORDING = (  # the hand-trace checker's hints, worded for this notebook without a formula or value
    (
        "you took the margin rule's step ηy(1, x); the prediction rule adds "
        "η(y − ŷ)(1, x), which is twice that on a mistake",
        "your step is the margin rule's; compare the two rules' steps in sections 1 and 3",
    ),
    (" A tie θ·x = 0 is predicted +1: sign(0) = +1.", " How does it predict a tie?"),
    ("ŷ = +1 when θ·x >= 0, else -1.", "look again at section 1's prediction rule."),
    ("recompute θ + η(y − ŷ)(1, x) from", "recompute θ after the step with section 1's rule, from"),
    ("(b, w1, ..., w2)", "(b, w1, w2)"),
)


def _orders_ending_at(theta):
    X, y = worked_example()
    return sum(
        np.array_equal(epoch_trace(X, y, order)[-1]["theta"], theta)
        for order in itertools.permutations(range(4))
    )


def _judge_order(answer):
    if has_blank(answer):
        return blank_feedback("your order, your θ and your count")
    try:
        points, theta_end, count = answer
        points = [tuple(_vector(p).tolist()) for p in points]
        theta_end = _vector(theta_end)
        if theta_end is None:
            raise ValueError
    except (TypeError, ValueError, AttributeError):
        return (
            "give (my_order, my_theta, how_many): the four points in your order, θ after your "
            "epoch 1 as three numbers, and a count of orders."
        )
    X, y = worked_example()
    where = {tuple(p): i for i, p in enumerate(X.tolist())}
    if sorted(points) != sorted(where) or len(points) != 4:
        return "my_order must list each of the four points <1,1>, <1,2>, <0,0>, <−1,0> once."
    if theta_end.shape != (3,):
        return "my_theta is θ = (b, w1, w2) after your epoch 1: three numbers."
    visit = [where[p] for p in points]
    if visit in ([0, 1, 2, 3], [3, 2, 1, 0]):
        return (
            "that order is traced in this notebook already (section 2's order or exercise 2's "
            "reversed one): pick an order not traced above, and trace it yourself."
        )
    rows = epoch_trace(X, y, visit)
    if not np.allclose(theta_end, rows[-1]["theta"]):
        return (
            "θ after your epoch 1 is not right for your order. Trace it row by row from "
            "θ = (0, 0, 0): at each point, θ·x, then ŷ (a tie θ·x = 0 gives +1), then θ."
        )
    n = read_number(count)
    if n is None:
        return "how_many is a count of orders, a whole number from 0 to 24."
    if n == _orders_ending_at(_COURSE_END_1):
        return None
    if n == 4:
        return (
            "your θ is right, but the count is not: does the first −1 point visited always "
            "leave θ at the same value? Try an order where <−1,0> is the first −1 point."
        )
    return (
        "your θ is right, but the count is not. Sort the orders by which point is the first −1 "
        "point visited, and follow θ from there: which points visited after it update?"
    )


EXERCISES.add(
    Exercise(
        "03-3",
        "choice",
        "your answer",
        None,
        judge=_judge_order,
        solution=lambda: (
            "From θ = 0 every point is first a tie, θ·x = 0, predicted +1: the +1 points "
            "visited first make no update. The first −1 point visited is the first update, "
            "θ ← 0 − 2·(1, x): at <0,0> it gives (−2, 0, 0), at <−1,0> it gives (−2, 2, 0).\n\n"
            "- After (−2, 0, 0) every point has θ·x = −2, predicted −1: a +1 point visited later "
            "updates again, <−1,0> does not. So the epoch ends at (−2, 0, 0) only if both +1 "
            "points come first, then <0,0>, then <−1,0>: 2 orders (the two orders of the +1 "
            "points, the course's among them).\n"
            "- After (−2, 2, 0), θ·x = 2x1 − 2 is 0 at <1,1> and <1,2> (ties, predicted +1, "
            "right) and −2 at <0,0> (right): no more updates; the epoch ends at (−2, 2, 0). "
            "That is 12 of the 24 orders.\n\n"
            f"So {_orders_ending_at(_COURSE_END_1)} of the 24 orders end epoch 1 where the "
            "course's order does. For your own order, compare your rows with a trace: "
            "θ after epoch 1 is the θ of your last row."
        ),
    )
)


def _updates(order_reversed=True, rule="prediction"):
    X, y = worked_example()
    if order_reversed:
        X, y = X[::-1], y[::-1]
    return int(Perceptron(rule=rule).fit(X, y).n_updates_)


EXERCISES.add(
    Exercise(
        "03-2",
        "predict",
        "the number of updates",
        lambda: _updates(),
        mistakes=(
            Mistake(
                lambda: _updates(False),
                "That is the count in section 2's order. The first point visited is now <−1,0>, "
                "a tie labelled −1: what does that first update do to all the other points?",
            ),
        ),
        hint="Trace the first epoch in the reversed order (start θ = 0, sign(0) = +1), then see "
        "whether the second epoch makes any update.",
        solution="Reversed, the first point is <−1,0>: θ·x = 0, ŷ = +1, y = −1, so θ ← (−2, 2, "
        "0). Now <0,0> has θ·x = −2 (right), <1,2> has 0 → +1 (right), <1,1> has 0 → +1 (right). "
        "Epoch 2 makes no update: 1 update in all, against 3 in section 2's order. The order "
        "matters.",
    )
)


def _first_break(thetas, X, y, tie=1.0, bias=True, was_right=True, fixed=False, shift=0):
    """(k, i): the first step k whose θ (thetas[k]) predicts wrong a point i that thetas[k - 1]
    predicted right, the smallest such i; (0, -1) when no step breaks a point.

    The keywords make the anticipated bugs: a tie predicted −1, the bias left out, every point
    wrong after (whether or not it was right before), the points fixed instead of broken, the
    step counted from 0.
    """
    Z = np.c_[np.ones(len(X)) if bias else np.zeros(len(X)), X]

    def right(theta):
        a = Z @ theta
        return np.where(a > 0, 1.0, np.where(a < 0, -1.0, tie)) == y

    for k in range(1, len(thetas)):
        before, after = right(thetas[k - 1]), right(thetas[k])
        changed = (~before & after) if fixed else ((before | (not was_right)) & ~after)
        if changed.any():
            return (k - shift, int(np.flatnonzero(changed)[0]))
    return (0, -1)


def _break_cases(rng):
    """Runs of the prediction rule on small integer data, many with ties, as the trace has."""
    cases = []
    while len(cases) < 25:
        n = int(rng.integers(3, 7))
        X = rng.integers(-2, 3, (n, 2)).astype(float)
        y = rng.choice([-1.0, 1.0], n)
        thetas = [rng.integers(-2, 3, 3).astype(float)]
        for i in rng.integers(0, n, int(rng.integers(2, 6))):  # visit a few points
            z = np.r_[1.0, X[i]]
            y_hat = 1.0 if thetas[-1] @ z >= 0 else -1.0
            thetas.append(thetas[-1] + (y[i] - y_hat) * z)
        thetas = np.array(thetas)
        cases.append(((thetas, X, y), _first_break(thetas, X, y)))
    return cases


EXERCISES.add(
    Exercise(
        "03-4",
        "implement",
        "your first_break",
        _break_cases,
        returns=("step", "point"),
        mistakes=(
            Mistake(
                lambda T, X, y: _first_break(T, X, y, tie=-1.0),
                "Your answer differs where a point has θ·x = 0: which class does this course "
                "predict for a tie?",
            ),
            Mistake(
                lambda T, X, y: _first_break(T, X, y, was_right=False),
                "You counted a point that was already wrong before the step: the question is "
                "which point a step made wrong.",
            ),
            Mistake(
                lambda T, X, y: _first_break(T, X, y, fixed=True),
                "You found a point a step fixed, not one it broke.",
            ),
            Mistake(
                lambda T, X, y: _first_break(T, X, y, bias=False),
                "Your activations leave out θ's first entry, the bias: θ·x is taken with the "
                "augmented x.",
            ),
            Mistake(
                lambda T, X, y: _first_break(T, X, y, shift=1),
                "Your step is one too small: step k is the one that left θ = thetas[k].",
            ),
        ),
        hint="Work that case out by hand: for each step, each point's prediction under θ before "
        "and after it, and whether each is right. At which step does your function go wrong?",
        solution="```python\ndef first_break(thetas, X, y):\n"
        "    Z = np.c_[np.ones(len(X)), X]  # the augmented points\n"
        "    right = [np.where(Z @ t >= 0, 1, -1) == y for t in thetas]  # sign(0) = +1\n"
        "    for k in range(1, len(thetas)):\n"
        "        broken = np.flatnonzero(right[k - 1] & ~right[k])\n"
        "        if len(broken):\n"
        "            return k, int(broken[0])\n"
        "    return 0, -1\n```\n"
        "For section 2's run (thetas = θ = (0, 0, 0) and the θ after each of its 12 steps) it "
        "returns (3, 0): step 3 breaks <1,1> (and <1,2>), as section 4 found. For exercise 5 "
        "run it on the margin rule's steps in the reverse order.",
        seed=303,
    )
)


def _broken(rule, order):
    """{step: points made wrong} for each update of a run, the points visited in ``order``."""
    X, y = worked_example()
    fit = Perceptron(rule=rule, record=True).fit(X[order], y[order])
    w, b, broken = np.zeros(2), 0.0, {}
    for k, s in enumerate(fit.history_):
        if s.updated:
            before = np.where(X @ w + b >= 0, 1, -1) == y
            after = np.where(X @ s.w + s.b >= 0, 1, -1) == y
            broken[k + 1] = [tuple(X[i].tolist()) for i in np.flatnonzero(before & ~after)]
        w, b = np.array(s.w, dtype=float), float(s.b)
    return broken


_REVERSED = [3, 2, 1, 0]


def _point_of(value):
    """A point in any form: (0, 0), [0, 0], np.array, "<0,0>", "(0, 0)", "0,0"; else None."""
    if isinstance(value, str) and _words_only(value) == "none":
        return "none"
    v = _vector(value)
    return None if v is None or v.shape != (2,) else tuple(float(t) for t in v)


def _words_only(text):
    return "".join(ch for ch in text.lower() if ch.isalpha())


_BREAKS_HINT = (
    "list each point's prediction (sign(0) = +1) before and after each update of this run, "
    "step by step from θ = (0, 0, 0): the first update after which a point that was right is "
    "wrong gives the step and the point."
)


def _judge_breaks(answer):
    if answer is ... or (isinstance(answer, tuple) and any(a is ... for a in answer)):
        return blank_feedback("your step and your point")
    try:
        step, point = answer
    except (TypeError, ValueError):
        return 'give (step, point): a step number, or 0, and the point it breaks, or "none".'
    n = read_number(step)
    if n is None or n != int(n) or not 0 <= n <= 12:
        return "the step is a whole number: 1 for the first point visited, or 0 for none."
    p = _point_of(point)
    if p is None:
        return 'the point is two coordinates, written (0, 1), [0, 1], "<0,1>" or "0,1", or "none".'
    breaking = {k: pts for k, pts in _broken("margin", _REVERSED).items() if pts}
    first = min(breaking)
    if int(n) == first and p in breaking[first]:
        return None
    return _BREAKS_HINT


_WHY_BREAK = {
    "a": "the margin rule's step is twice as large as the prediction rule's, so it overshoots",
    "b": "the broken point was already on the line before the update, and the update pushes it "
    "across",
    "c": "the update is made on a +1 tie that sign(0) = +1 already predicts right, and moving "
    "the line for that point brings a −1 point onto it",
    "d": "in the reverse order every update of the margin rule makes some correct point wrong",
}


EXERCISES.add(
    Exercise(
        "03-5",
        "explain",
        "your step and point",
        None,
        judge=_judge_breaks,
        reasons=_WHY_BREAK,
        reason="c",
        reason_hints={
            "a": "compare the two rules' steps on a mistake in section 1 and 3: which is larger?",
            "b": "compute the broken point's activation just before that update: is it 0?",
            "d": "look at the run's first update: which point does it make wrong?",
        },
        solution=lambda: (
            "The margin rule in the reverse order, from θ = 0 (predictions ŷ = +1 if θ·x >= 0):\n\n"
            + _trace_text(_REVERSED, rule="margin")
            + "\n\nBefore step 3, θ = (−1, 1, 0) predicts <1,1> and <1,2> +1 (θ·x = 0, a tie), "
            "<0,0> and <−1,0> −1: all four right. Yet the margin rule updates at <1,2>, "
            "because y·θ·x = 0 counts as a mistake. The new θ = (0, 2, 2) gives <0,0> θ·x = 0, "
            "predicted +1: wrong. So step 3 breaks <0,0> (answer (3, (0, 0)), reason c: an "
            "update on a tie that was already predicted right); epoch 2 fixes it. Not a: the "
            "margin rule's step ηy(1, x) is half the prediction rule's. Not b: before step 3, "
            "<0,0> has θ·x = −1, off the line. Not d: step 1 breaks nothing. "
            "In the course's order the margin rule's updates, at steps "
            + _steps_text(_broken("margin", [0, 1, 2, 3]))
            + ", make no point go from right to wrong: whether an update breaks a point depends "
            "on the order, not on the rule alone."
        ),
    )
)


def _steps_text(broken):
    steps = [str(k) for k in sorted(broken)]
    assert not any(broken.values())
    return ", ".join(steps[:-1]) + " and " + steps[-1]


def check(exercise_id, answer, *, because=None):
    """Check your answer to an exercise of this notebook (see perclib.exercises' check).

    An explain exercise lists its reasons only once the step and the point are right: the
    options say what kind of update breaks what kind of point, which would narrow the search.
    """
    ex = EXERCISES[exercise_id]
    if ex.reasons and ex.judge is not None and has_blank(because):
        if has_blank(answer):
            return blank_feedback(ex.what)
        if ex.judge(answer) is not None:  # judged as with any reason: the trace hint
            return EXERCISES.check(exercise_id, answer, because="?")
    return EXERCISES.check(exercise_id, answer, because=because)


check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
