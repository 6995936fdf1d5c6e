"""The exercises of notebook 06 · Voting and averaging.

Answers, anticipated mistakes, hints and worked solutions; the ids are "06-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex06 import check, check_function, reveal, show_solution
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from perclib.datasets import worked_example
from perclib.exercises import Exercise, ExerciseSet, Mistake, OwnCode

EXERCISES = ExerciseSet(count_reasons=True)  # a reason is judged once the answer is right


# -- 06-1: find what a "count first" version averages ----------------------------------------------


def count_first(X, y, epochs):
    """The averaged perceptron of exercise 1: c starts at 0 and is incremented before the test."""
    w, b = np.zeros(X.shape[1]), 0.0
    u, beta, c = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(epochs):
        for x, t in zip(X, y):
            c = c + 1  # count the example first
            if t * (w @ x + b) <= 0:
                w, b = w + t * x, b + t
                u, beta = u + t * c * x, beta + t * c
    return w - u / c, b - beta / c


def iterates(X, y, epochs):
    """w_0, ..., w_T with their biases (margin rule, cyclic order, eta = 1), one row each."""
    w, rows = np.zeros(X.shape[1] + 1), [np.zeros(X.shape[1] + 1)]
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (w[:-1] @ x + w[-1]) <= 0:
                w = w + t * np.r_[x, 1.0]
            rows.append(w.copy())
    return np.array(rows)


def _averaged_range():
    """(i, j) such that count_first returns the mean of w_i, ..., w_j on the worked example."""
    X, y = worked_example()
    rows, got = iterates(X, y, 3), np.r_[count_first(X, y, 3)[0], count_first(X, y, 3)[1]]
    T = len(rows) - 1
    found = [
        (i, j)
        for i in range(T + 1)
        for j in range(i, T + 1)
        if np.allclose(rows[i : j + 1].mean(0), got)
    ]
    return found[0]


EXERCISES.add(
    Exercise(
        "06-1",
        "predict",
        "the first and last index (i, j)",
        _averaged_range,
        mistakes=(
            Mistake(
                (0, 12),
                "That is CIML's average. In this version, what is c while the first example is "
                "visited, and what is it at the return?",
            ),
            Mistake(
                (1, 12),
                "That is the average of w_1..w_12 (scikit-learn's). Write u as a sum over the "
                "updates with this version's c, then w − u/c as a sum of iterates.",
            ),
        ),
        hint="Trace c: what is it during the s-th example, and at the return? Then write "
        "w − u/c as a sum of iterates divided by that final c, as section 3 does.",
        solution="Here c is incremented before the test, so c = s during the s-th example and "
        "c = T at the end; u = Σ s Δ_s as in CIML. Section 3's identity Σ_{t=0}^{T} w_t = "
        "(T + 1) w_T − u gives T w_T − u = Σ_{t=0}^{T-1} w_t, so w − u/c = (w_0 + ... + "
        "w_{T−1})/T: the mean of w_0, ..., w_{T−1}, which leaves out the last iterate. On the "
        "worked example T = 3 · 4 = 12: (i, j) = (0, 11). The bias likewise.",
    )
)


# -- 06-2: the weighted vote, with a tie ----------------------------------------------------------

VOTE_COUNTS, VOTE_SIGNS = (1, 2, 6, 3), (-1, -1, 1, -1)


def _vote():
    s = float(np.dot(VOTE_COUNTS, VOTE_SIGNS))
    return 1 if s >= 0 else -1


EXERCISES.add(
    Exercise(
        "06-2",
        "quick",
        "the voted prediction",
        _vote,
        mistakes=(
            Mistake(
                lambda: -_vote(),
                "Weigh each vector's sign by its count c_k and add the four products exactly; "
                "then look up in section 2 which sign the vote gives to the value you found.",
            ),
        ),
        hint="The voted prediction is +1 or -1: the sign of the weighted sum of the votes.",
        words={"plus one": 1, "positive": 1, "minus one": -1, "negative": -1},
        solution="1·(−1) + 2·(−1) + 6·(+1) + 3·(−1) = 0, and sign(0) = +1: the vote predicts +1. "
        "The last vector alone says −1, and so do three of the four vectors; only the weighted "
        "sum counts, and here it is a tie.",
    )
)


# -- 06-3: what 20 epochs do to the counts on separable data ---------------------------------------


def _after_20():
    from perclib import VotedPerceptron

    run = VotedPerceptron(max_iter=20).fit(*worked_example())
    return (len(run.counts_), int(run.counts_[-1]))


EXERCISES.add(
    Exercise(
        "06-3",
        "predict",
        "(number of vectors, count of the last one)",
        _after_20,
        mistakes=(
            Mistake(
                (4, 80),
                "The last vector counts only the examples from its creation on; the others keep "
                "their counts.",
            ),
            Mistake(
                (4, 6),
                "Does `VotedPerceptron` stop after an epoch without mistakes, as `Perceptron` "
                "does? Reread section 2.",
            ),
        ),
        hint="Does the run still update once it has gone through an epoch without a mistake? "
        "And what do the counts add up to (section 2)?",
        solution="The worked example is separable and the run of 3 epochs already went through an "
        "epoch without a mistake (the last vector survived 6 examples, more than the 4 of an "
        "epoch), so no update comes later: still K + 1 = 4 vectors. The counts add up to "
        "T = 20 · 4 = 80, and the first three keep 0 + 2 + 4 = 6, so the last one has "
        "80 − 6 = 74: (4, 74).",
    )
)


# -- 06-4: the voted perceptron's survival counts --------------------------------------------------


def survival_counts(X, y, epochs, *, rule="margin", count_creation=True, stop_when_clean=False):
    """c_0, ..., c_K of a run (cyclic order, eta = 1, w_0 = 0, b_0 = 0).

    ``rule="prediction"`` treats a tie as correct; ``count_creation=False`` does not count the
    example that creates a vector; ``stop_when_clean=True`` stops after an epoch without an
    update: three variants the exercise anticipates."""
    w, b, counts = np.zeros(X.shape[1]), 0.0, [0]
    for _ in range(epochs):
        before = len(counts)
        for x, t in zip(X, y):
            a = w @ x + b
            wrong = t * a <= 0 if rule == "margin" else (1 if a >= 0 else -1) != t
            if wrong:
                w, b = w + t * x, b + t
                counts.append(1 if count_creation else 0)
            else:
                counts[-1] += 1
        if stop_when_clean and len(counts) == before:
            break  # an epoch without an update
    return np.array(counts)


def _counts_cases(rng):
    cases = []
    for _ in range(25):
        n, d = int(rng.integers(3, 7)), int(rng.integers(1, 4))
        X = np.round(rng.normal(size=(n, d)) * 2, 1)
        y = np.where(rng.random(n) < 0.5, -1, 1)
        y[0], y[1] = 1, -1  # both classes; the first example is a +1 tie
        epochs = int(rng.integers(1, 4))
        cases.append(((X, y, epochs), survival_counts(X, y, epochs)))
    return cases


EXERCISES.add(
    Exercise(
        "06-4",
        "implement",
        "your survival_counts",
        _counts_cases,
        own_code=OwnCode(  # a library's or the exercises' own survival counts are refused
            ("perclib", "sklearn", "exercises", "notebooks"),
            "This exercise asks for the loop itself: count the survivals in your own code.",
        ),
        mistakes=(
            Mistake(
                lambda X, y, e: survival_counts(X, y, e, count_creation=False),
                "Your counts add up to T minus the number of updates: reread in section 2 which "
                "examples a vector created by an update counts.",
            ),
            Mistake(
                lambda X, y, e: survival_counts(X, y, e, rule="prediction"),
                "Your run treats a tie, y(w·x + b) = 0, as correct; the exercise's run updates "
                "on it.",
            ),
            Mistake(
                lambda X, y, e: survival_counts(X, y, e, stop_when_clean=True),
                "On this case your counts add up to less than epochs · n: how many epochs does "
                "the task ask your loop to run, and does a clean epoch change that?",
            ),
        ),
        hint="Print w, b and your counts after each example of the inputs above, for one epoch: "
        "at which example does your run first differ from a hand trace?",
        solution="```python\ndef survival_counts(X, y, epochs):\n    w, b, counts = "
        "np.zeros(X.shape[1]), 0.0, [0]  # v_0 = 0, c_0 = 0\n    for _ in range(epochs):\n"
        "        for x, t in zip(X, y):\n            if t * (w @ x + b) <= 0:  # a mistake: a "
        "new vector\n                w, b = w + t * x, b + t\n                counts.append(1)"
        "  # it counts the example that created it\n            else:\n                "
        "counts[-1] += 1  # the current vector survives one more example\n    return "
        "np.array(counts)\n```\nThe loop runs all `epochs` epochs, as Freund and Schapire's does, "
        "so the counts add up to T = epochs · n; `VotedPerceptron(max_iter=epochs).fit(X, y)"
        ".counts_` gives the same numbers.",
    )
)


# -- 06-5: c <- 0, and what it does to the predictions ---------------------------------------------


def _factor_5():
    return Fraction(13, 12)


EXERCISES.add(
    Exercise(
        "06-5",
        "explain",
        "your conclusion and the factor",
        lambda: ("no", _factor_5()),
        mistakes=(
            Mistake(
                ("no", Fraction(12, 13)),
                "Upside down: which of the two versions divides by the larger count?",
            ),
            Mistake(
                ("no", Fraction(108, 100)),
                "Close: give the factor as a fraction or to three decimals.",
            ),
            Mistake(
                ("no", 1),
                "The two vectors differ (section 4's first check says so): write each as a sum "
                "of iterates divided by a count, then compare.",
            ),
        ),
        hint="Which iterates does each version sum, and what does each divide by? Then compare "
        "wᵀx + b under the two versions.",
        tol=5e-4,
        reasons={
            "a": "the difference is of order 1/T, too small to flip a prediction",
            "b": "the two vectors differ by a multiple of w_T, which points the same way as w_T",
            "c": "both return a sum of the same iterates divided by a count, so the classmate's "
            "vector and bias are one positive multiple of CIML's",
            "d": "the bias absorbs the difference between the two vectors",
        },
        reason="c",
        solution="No, and the factor is 13/12. With c ← 0 the counter is s − 1 during the s-th "
        "example and T at the end, so u′ = u − w_T and the returned vector is "
        "w_T − (u − w_T)/T = ((T + 1) w_T − u)/T = (w_0 + ... + w_T)/T: the same sum of iterates "
        "as CIML's, divided by T instead of T + 1. It is (T + 1)/T times CIML's, 13/12 for "
        "T = 12, and the same factor multiplies the bias. Reason (c): a positive factor "
        "multiplies every activation wᵀx + b without changing its sign, so every prediction is "
        "the same; only the vector (and a margin read off it) differs. (a) a small change can "
        "flip a point near the boundary, so size is not the argument; (b) the difference is "
        "CIML's average divided by T, not a multiple of w_T; (d) the bias is scaled too, it "
        "absorbs nothing.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
