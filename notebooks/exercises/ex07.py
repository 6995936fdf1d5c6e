"""The exercises of notebook 07 · The multi-class perceptron.

Answers, anticipated mistakes, hints and worked solutions; the ids are "07-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex07 import check, check_function, reveal, show_solution
"""

from __future__ import annotations

import numpy as np

from perclib.exercises import Exercise, ExerciseSet, Mistake, OwnCode

EXERCISES = ExerciseSet(count_reasons=True)  # a reason is judged once the answer is right

_CLASS_WORDS = {
    "class 0": 0,
    "class 1": 1,
    "class 2": 2,
    "zero": 0,
    "one": 1,
    "two": 2,
    "class zero": 0,
    "class one": 1,
    "class two": 2,
}


# -- 07-1: a tie between classes ------------------------------------------------------------------


def _predicted():
    return int(np.argmax([2.0, 5.0, 5.0]))


EXERCISES.add(
    Exercise(
        "07-1",
        "quick",
        "the predicted class",
        _predicted,
        mistakes=(
            Mistake(
                2,
                "Classes 1 and 2 share the highest score. Section 1 says how the prediction "
                "breaks a tie between classes: apply that rule.",
            ),
            Mistake(0, "Class 0 has the lowest score, 2.0: argmax picks a highest score."),
        ),
        hint="The prediction is argmax_k s_k, a class index: 0, 1 or 2.",
        words=_CLASS_WORDS,
        solution="The scores 5.0 of classes 1 and 2 tie; argmax (NumPy's and perclib's) takes the "
        "first, so the prediction is 1: a mistake, since the true class is 2. The update adds ηx "
        "to w_2 and subtracts it from w_1.",
    )
)


# -- 07-2: how many updates on one example ---------------------------------------------------------

SCORES_2, X_2, TRUE_2 = (2.0, 65.0, 5.0), (1.0, 2.0), 2


def updates_until_right(scores=SCORES_2, x=X_2, y=TRUE_2, *, bias=True, both=True, ties=True):
    """Updates on the same x (eta = 1) until argmax gives its true class y.

    The variants leave out the bias's step (``bias=False``), move only the true class
    (``both=False``), or let a tie with the true class count as right (``ties=False``)."""
    s, x = np.array(scores, dtype=float), np.array(x, dtype=float)
    step = x @ x + (1.0 if bias else 0.0)
    for n in range(1000):
        top = int(np.argmax(s))
        if top == y or (not ties and s[y] == s[top]):
            return n
        s[y] += step
        if both:
            s[top] -= step
    raise ValueError("no convergence")


EXERCISES.add(
    Exercise(
        "07-2",
        "predict",
        "the number of updates",
        lambda: updates_until_right(),
        mistakes=(
            Mistake(
                lambda: updates_until_right(ties=False),
                "Look at the scores after your last update, and at the prediction they give "
                "(section 1's rule).",
            ),
            Mistake(
                lambda: updates_until_right(bias=False),
                "Your step per update leaves out the biases: they move on an update too.",
            ),
            Mistake(
                lambda: updates_until_right(both=False),
                "In your count only the true class's score moves. What does the update do to "
                "the predicted class?",
            ),
        ),
        hint="Write the three scores after each update, the biases included, until class 2 is "
        "predicted.",
        words={"five": 5, "six": 6, "seven": 7},
        solution="The prediction is class 1 (score 65). An update adds x to w_2 and 1 to b_2, and "
        "subtracts them from class 1, so s_2 grows by ‖x‖² + 1 = 6 and s_1 falls by 6: the gap "
        "of 60 closes by 12 per update, and class 0 (score 2) stays behind. After 5 updates the "
        "scores are (2, 35, 35): a tie, which argmax gives to class 1, still a mistake. The 6th "
        "update gives (2, 29, 41): class 2 is predicted after 6 updates.",
    )
)


# -- 07-3: two classes, the multiple and its reason ------------------------------------------------

EXERCISES.add(
    Exercise(
        "07-3",
        "explain",
        "(the multiple, the rise of y(w·x + b))",
        (2, 12),
        mistakes=(
            Mistake(
                (1, 6),
                "Count the vectors that change on a mistake, and how each change enters w+ − w−.",
            ),
            Mistake(
                (-2, -12),
                "Check the sign: on a mistake on a + example, does w+ − w− move towards x or "
                "away from it?",
            ),
            Mistake(
                (2, 10),
                "Your second number: the bias b = b+ − b− moves on the mistake too, and "
                "y(w·x + b) includes it.",
            ),
            Mistake(
                (2, 2),
                "Your second number is the bias's step; the question asks how much the whole "
                "y(w·x + b) rises at this x.",
            ),
            Mistake((0, 0), "A mistake always moves the weights: which vectors change?"),
        ),
        hint="Write w+, w− and their biases after a mistake on (x, y), subtract, and compare the "
        "change with y x; then put the change into y(w·x + b) at x = ⟨1, 2⟩.",
        words={
            "two": 2,
            "2x": 2,
            "2 eta": 2,
            "2η": 2,
            "twice": 2,
            "2yx": 2,
            "2 y x": 2,
            "2xy": 2,
            "2 x y": 2,
            "2 eta y x": 2,
            "2ηyx": 2,
            "2 η y x": 2,
            "twelve": 12,
        },  # fmt: skip
        reasons={
            "a": "only the true class's vector moves, by ηx",
            "b": "both vectors move by ηx, and on a − example the two changes cancel in the "
            "difference",
            "c": "the weights move by ηyx and the bias by ηy, as in the binary perceptron",
            "d": "the true class's vector gains ηx and the predicted one, with two classes always "
            "the other class, loses ηx; in the difference both count, for the biases as well",
        },
        reason="d",
        solution="On a mistake on a + example, w+ ← w+ + ηx and w− ← w− − ηx, so w = w+ − w− ← w "
        "+ 2ηx; on a − example w ← w − 2ηx. Both are w ← w + 2η y x: the binary perceptron with "
        "step 2η, the multiple is 2 (with η = 1). The biases move the same way, b ← b + 2ηy. "
        "So y(w·x + b) rises by y·(2y x·x + 2y) = 2(‖x‖² + 1) = 2·(5 + 1) = 12 at x = ⟨1, 2⟩. "
        "Reason (d): with two classes the predicted class is the other one, so both vectors of "
        "the difference move, each by ηx. (a) the predicted class's vector moves too; (b) the "
        "changes have opposite signs, so they add in the difference; (c) is the binary step, "
        "half the true one.",
    )
)


# -- 07-4: the averaged multi-class perceptron -----------------------------------------------------


def averaged_multiclass(X, y, K, epochs, *, slip=None):
    """CIML's lazy average, class by class (cyclic order, eta = 1, ties to the lowest class).

    ``slip`` gives the variants the exercise anticipates: "c starts at 0", "c counts only
    mistakes", "last iterate", "only the true class", "ties to the highest class"."""
    W, b = np.zeros((K, X.shape[1])), np.zeros(K)
    U, beta = np.zeros_like(W), np.zeros_like(b)
    c = 0 if slip == "c starts at 0" else 1
    for _ in range(epochs):
        for x, t in zip(X, y):
            scores = W @ x + b
            k = int(np.argmax(scores))
            if slip == "ties to the highest class":
                k = K - 1 - int(np.argmax(scores[::-1]))
            if k != t:
                W[t], b[t], U[t], beta[t] = W[t] + x, b[t] + 1, U[t] + c * x, beta[t] + c
                if slip != "only the true class":
                    W[k], b[k], U[k], beta[k] = W[k] - x, b[k] - 1, U[k] - c * x, beta[k] - c
                if slip == "c counts only mistakes":
                    c += 1
            if slip != "c counts only mistakes":
                c += 1
    if slip == "last iterate":
        return W, b
    return W - U / c, b - beta / c


def _averaged_cases(rng):
    cases = []
    for _ in range(25):
        K, n, d = int(rng.integers(2, 5)), int(rng.integers(4, 8)), int(rng.integers(1, 4))
        X = np.round(rng.normal(size=(n, d)) * 2, 1)
        y = rng.integers(0, K, size=n)
        y[0] = K - 1  # the first example is a tie the last class loses: an update
        epochs = int(rng.integers(1, 4))
        cases.append(((X, y, K, epochs), averaged_multiclass(X, y, K, epochs)))
    return cases


EXERCISES.add(
    Exercise(
        "07-4",
        "implement",
        "your averaged_multiclass",
        _averaged_cases,
        own_code=OwnCode(  # a library's multi-class perceptron or the exercises' own is refused
            ("perclib", "sklearn", "exercises", "notebooks"),
            "This exercise asks for the loop itself: update and average the weights in your own "
            "code.",
        ),
        returns=("W", "b"),
        mistakes=(
            Mistake(
                lambda X, y, K, e: averaged_multiclass(X, y, K, e, slip="c starts at 0"),
                "Your average leaves out W_0 = 0 (it divides by T, not T + 1): check where your "
                "counter starts.",
            ),
            Mistake(
                lambda X, y, K, e: averaged_multiclass(X, y, K, e, slip="c counts only mistakes"),
                "Your counter grows only on mistakes: it counts visited examples.",
            ),
            Mistake(
                lambda X, y, K, e: averaged_multiclass(X, y, K, e, slip="last iterate"),
                "You return the last iterate (W, b), not the average of the iterates.",
            ),
            Mistake(
                lambda X, y, K, e: averaged_multiclass(X, y, K, e, slip="only the true class"),
                "The predicted class's vector moves too (section 2).",
            ),
            Mistake(
                lambda X, y, K, e: averaged_multiclass(
                    X, y, K, e, slip="ties to the highest class"
                ),
                "Ties go to the lowest class index (section 1).",
            ),
        ),
        hint="Print c, W and U after each example of the inputs above for one epoch, and compare "
        "them class by class with notebook 06's line-by-line algorithm.",
        solution="```python\ndef averaged_multiclass(X, y, K, epochs):\n    W, b = "
        "np.zeros((K, X.shape[1])), np.zeros(K)\n    U, beta, c = np.zeros_like(W), "
        "np.zeros_like(b), 1\n    for _ in range(epochs):\n        for x, t in zip(X, y):\n"
        "            k = int(np.argmax(W @ x + b))  # ties to the lowest class\n            "
        "if k != t:\n                W[t], b[t], W[k], b[k] = W[t] + x, b[t] + 1, W[k] - x, "
        "b[k] - 1\n                U[t], beta[t] = U[t] + c * x, beta[t] + c\n"
        "                U[k], beta[k] = U[k] - c * x, beta[k] - c\n            c += 1  # "
        "after every example\n    return W - U / c, b - beta / c\n```\nIt is notebook 06's "
        "w − u/c for every class at once; `MulticlassPerceptron(max_iter=epochs, "
        "average=True)` gives the same (W, b).",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
