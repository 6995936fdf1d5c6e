"""Exercises of notebooks 05-07: expected answers, anticipated mistakes and worked solutions.

Registered the same way as :mod:`perclib.exercise_bank` (which imports this module), so a student's
cell holds only the answer and ``check("06-2", answer)``. Expected values are computed from perclib
when a check runs.
"""

from __future__ import annotations

import numpy as np

from . import evaluation as ev
from .datasets import worked_example
from .exercises import Exercise, Mistake, register

# -- 06 · Voting and averaging ---------------------------------------------------------------------


def _final_c(epochs=3):
    from .averaged import AveragedPerceptron

    return AveragedPerceptron(max_iter=epochs).fit(*worked_example()).c_


register(
    Exercise(
        "06-1",
        "quick",
        "the final c",
        lambda: _final_c(3),
        mistakes=(
            Mistake(
                lambda: _final_c(3) - 1,
                "That is the number of visited examples T. c starts at 1, not 0, and grows once "
                "per visited example.",
            ),
            Mistake(
                lambda: _final_c(3) + 1,
                "c grows once per visited example, not once more at the end.",
            ),
        ),
        hint="Count: where does c start (line 3), and how often does line 12 run in 3 epochs of 4 "
        "points?",
        solution="c starts at 1 (line 3) and line 12 runs once per visited example, mistake or "
        "not: 3 epochs of 4 points is 12 examples, so c = 1 + 12 = 13 = T + 1 at line 15.",
    )
)


def _vote(counts=(0, 2, 4, 6), signs=(1, 1, 1, -1)):
    s = float(np.dot(counts, signs))
    return 1 if s >= 0 else -1


register(
    Exercise(
        "06-2",
        "quick",
        "the voted prediction",
        lambda: _vote(),
        mistakes=(
            Mistake(
                lambda: -_vote(),
                "Weigh each vote by its count c_k, add them up, and remember sign(0) = +1.",
            ),
        ),
        hint="Compute the weighted sum of the signs, sum_k c_k sign(w_kᵀx + b_k), then take its "
        "sign (sign(0) = +1).",
        solution="0·(+1) + 2·(+1) + 4·(+1) + 6·(−1) = 0, and sign(0) = +1: the vote predicts +1. "
        "The last vector alone would say −1; a simple majority of vectors (3 to 1) also says +1, "
        "but for another reason.",
    )
)


def _ratio():
    X, y = worked_example()
    T = 3 * len(X)
    return T / (T + 1)


register(
    Exercise(
        "06-3",
        "predict",
        "the ratio CIML / scikit-learn",
        _ratio,
        mistakes=(
            Mistake(
                1.0,
                "The two averages differ: CIML divides by T + 1 (w_0 = 0 included), scikit-learn "
                "by T. Predictions agree, the vectors do not.",
            ),
            Mistake(
                lambda: 1 / _ratio(),
                "Upside down: CIML's average has the larger denominator, so it is the smaller "
                "vector.",
            ),
        ),
        hint="Write both averages as a sum of the same iterates divided by a count; what are the "
        "two counts for 3 epochs of 4 points?",
        solution="Both sum w_1, ..., w_T (w_0 = 0 adds nothing). CIML divides by T + 1, "
        "scikit-learn by T, so CIML / scikit-learn = T/(T + 1) = 12/13 ≈ 0.923 for T = 3·4 = 12.",
    )
)


def _averaged_cases(rng):
    cases = []
    for _ in range(25):
        n, d = int(rng.integers(3, 7)), int(rng.integers(1, 4))
        X = np.round(rng.normal(size=(n, d)) * 2, 1)
        y = np.where(rng.random(n) < 0.5, -1, 1)
        y[0], y[1] = 1, -1  # both classes present
        epochs = int(rng.integers(1, 4))
        cases.append(((X, y, epochs), ev.lazy_average(X, y, max_iter=epochs)))
    return cases


register(
    Exercise(
        "06-4",
        "implement",
        "your averaged_perceptron",
        _averaged_cases,
        mistakes=(
            Mistake(
                lambda X, y, e: ev.lazy_average(X, y, max_iter=e, slip="c starts at 0"),
                "Your c starts at 0: that averages w_1..w_T (T vectors), not w_0..w_T. CIML "
                "starts c at 1.",
            ),
            Mistake(
                lambda X, y, e: ev.lazy_average(X, y, max_iter=e, slip="c counts only mistakes"),
                "Your c grows only on mistakes: it must grow after every visited example (line 12 "
                "is outside the if).",
            ),
            Mistake(
                lambda X, y, e: ev.iterate_average(X, y, max_iter=e, first=1),
                "You return the mean of w_1..w_T; CIML's average includes w_0 = 0 (T + 1 vectors).",
            ),
        ),
        hint="Mirror CIML's AveragedPerceptronTrain line by line (c from 1, u and β updated with "
        "c on a mistake, c + 1 after every example, return w − u/c and b − β/c).",
        solution="```python\ndef averaged_perceptron(X, y, epochs):\n    w, b = "
        "np.zeros(X.shape[1]), 0.0\n    u, beta, c = np.zeros(X.shape[1]), 0.0, 1\n    for _ in "
        "range(epochs):\n        for x, t in zip(X, y):\n            if t * (w @ x + b) <= 0:\n   "
        "             w = w + t * x\n                b = b + t\n                u = u + t * c * "
        "x\n                beta = beta + t * c\n            c = c + 1\n    return w - u / c, b - "
        "beta / c\n```",
    )
)

register(
    Exercise(
        "06-5",
        "explain",
        "whether the predictions differ",
        "no",
        mistakes=(
            Mistake(
                "yes",
                "Compare the two vectors: starting c at 0 gives the mean of w_1..w_T, which is a "
                "multiple of CIML's. What does a positive factor do to the sign of an activation?",
            ),
        ),
        hint='Answer "yes" or "no".',
        solution="Starting c at 0 gives the mean of w_1, ..., w_T, which is (T + 1)/T times "
        "CIML's mean of w_0, ..., w_T (w_0 = 0). A positive factor multiplies every activation "
        "without changing its sign, so every prediction is the same; only the vector (and so a "
        "margin read off it) differs. Section 4's table shows it: the same predictions on 100% of "
        "X.",
    )
)

# -- 05 · Beyond separable data --------------------------------------------------------------------


def _xor_pocket_mistakes():
    from .datasets import make_xor
    from .pocket import PocketPerceptron

    return PocketPerceptron(max_iter=20).fit(*make_xor()).pocket_mistakes_


register(
    Exercise(
        "05-1",
        "predict",
        "the pocket's training mistakes",
        _xor_pocket_mistakes,
        mistakes=(
            Mistake(
                1,
                "1 is the best any line does on XOR (the grid search found it). But the pocket "
                "can only keep an iterate the perceptron actually visits: which weight vectors "
                "does the XOR run visit, and how many mistakes does each make?",
            ),
            Mistake(0, "No line separates XOR, so every weight vector makes at least one mistake."),
        ),
        hint="List the weight vectors the cyclic XOR run visits (it repeats the same 4 every "
        "epoch) and count the training mistakes of each.",
        solution=lambda: (
            "The run visits only 4 vectors, w̃ = (b, w1, w2) = (-1, 0, 0), (0, 0, 1), (1, 1, 1), "
            f"(0, 0, 0), over and over; the best of them makes {_xor_pocket_mistakes()} mistakes, "
            f"so the pocket keeps one with {_xor_pocket_mistakes()}, although a line with 1 "
            "mistake exists. The pocket is the best *visited* iterate, not the best line: finding "
            "the best line is NP-hard in general."
        ),
    )
)

register(
    Exercise(
        "05-2",
        "explain",
        "the answer",
        "no",
        mistakes=(
            Mistake(
                "yes",
                "Write +0.5·y·x̃ in the form −t·y·x̃ (x̃ = (1, x)): which t is it, and is it in "
                "[0, 1]?",
            ),
        ),
        hint='Answer "yes" or "no".',
        solution="The subgradient set at the kink is {−t·y·x̃ : 0 <= t <= 1}, with x̃ = (1, x). "
        "+0.5·y·x̃ is t = −0.5, outside [0, 1], so it is not a subgradient: at a w̃' with y a' > "
        "0 the inequality ℓ(w̃') >= ℓ(w̃) + gᵀ(w̃' − w̃) fails (the left side is 0, the right "
        "side positive).",
    )
)

register(
    Exercise(
        "05-3",
        "quick",
        "(hinge loss, perceptron loss)",
        (0.75, 0.0),
        mistakes=(
            Mistake(
                (0.0, 0.0),
                "The hinge still penalises a correct point with margin below 1: max(0, 1 − m).",
            ),
            Mistake(
                (0.75, 0.75), "The perceptron loss max(0, −m) is 0 for every correct point (m > 0)."
            ),
            Mistake((1.25, 0.0), "The hinge is max(0, 1 − m), not 1 + m."),
            Mistake(
                (0.0, 0.75),
                "Swapped: the first number is the hinge loss, the second the perceptron loss.",
            ),
        ),
        hint="Both are functions of m = y (wᵀx + b) = 0.25: hinge max(0, 1 − m), perceptron "
        "max(0, −m). Give a pair (hinge, perceptron).",
        solution="With m = 0.25: hinge max(0, 1 − 0.25) = 0.75, perceptron max(0, −0.25) = 0. The "
        "hinge keeps pushing a correct point until m >= 1; the perceptron loss is satisfied as "
        "soon as m > 0.",
    )
)


def _sigma(z):
    return 1.0 / (1.0 + np.exp(-z))


def _logistic_cases(rng):
    cases = []
    for _ in range(25):
        d = int(rng.integers(1, 5))
        w, x, b = rng.normal(size=d), rng.normal(size=d) * 2, float(rng.normal())
        y, eta = float(rng.choice([-1.0, 1.0])), float(rng.uniform(0.05, 1.0))
        s = eta * y * _sigma(-y * (w @ x + b))
        cases.append(((w, b, x, y, eta), (w + s * x, b + s)))
    return cases


def _perceptron_step(w, b, x, y, eta):
    s = eta * y if y * (w @ x + b) <= 0 else 0.0
    return w + s * x, b + s


register(
    Exercise(
        "05-4",
        "implement",
        "your logistic_update",
        _logistic_cases,
        mistakes=(
            Mistake(
                _perceptron_step,
                "That is the perceptron's step (only on mistakes, full size): the logistic step "
                "is taken on every example, weighted by σ(−y·a).",
            ),
            Mistake(
                lambda w, b, x, y, eta: (
                    w + eta * y * _sigma(y * (w @ x + b)) * x,
                    b + eta * y * _sigma(y * (w @ x + b)),
                ),
                "The weight should be large when the point is badly wrong (y·a very negative): "
                "σ(−y·a), not σ(y·a).",
            ),
            Mistake(
                lambda w, b, x, y, eta: (w + eta * y * _sigma(-y * (w @ x + b)) * x, b),
                "The bias moves too: its input is the constant 1.",
            ),
        ),
        hint="The step is w ← w + η·y·σ(−y·a)·x and b ← b + η·y·σ(−y·a), with a = wᵀx + b and "
        "σ(z) = 1/(1 + e^(−z)).",
        solution="```python\ndef logistic_update(w, b, x, y, eta):\n    a = w @ x + b\n    s = "
        "eta * y / (1 + np.exp(y * a))      # eta * y * sigma(-y a)\n    return w + s * x, b + "
        "s\n```\nWith t = (y + 1)/2 this is (t − σ(a))·x̃ for w̃ = (b, w), x̃ = (1, x): the "
        "perceptron's (t − step(a))·x̃ with the step function made smooth.",
    )
)

# -- 07 · The multi-class perceptron ---------------------------------------------------------------

register(
    Exercise(
        "07-1",
        "quick",
        "the predicted class",
        lambda: int(np.argmax([2.0, 5.0, 5.0])),
        mistakes=(
            Mistake(
                2,
                "Classes 1 and 2 tie at 5.0; argmax gives a tie to the first (lowest-index) "
                "class, and the perceptron predicts with argmax.",
            ),
            Mistake(0, "Class 0 has the lowest score, 2.0: argmax picks a highest score."),
        ),
        hint="The prediction is argmax_k s_k. What happens when two scores are equal?",
        solution="The scores 5.0 of classes 1 and 2 tie; argmax (NumPy's and perclib's) takes the "
        "first, so the prediction is 1: a mistake, since the true class is 2. The update adds ηx "
        "to w_2 and subtracts it from w_1.",
    )
)


def _score_growth():
    x = np.array([1.0, 2.0])
    return float(x @ x + 1.0)


register(
    Exercise(
        "07-2",
        "predict",
        "the growth of the true class's score",
        _score_growth,
        mistakes=(
            Mistake(
                5.0,
                "You left out the bias: b_y grows by η too, so the score w_yᵀx + b_y grows by "
                "η(||x||² + 1).",
            ),
            Mistake(
                3.0, "The score grows by η xᵀx (plus the bias), not by the sum of the coordinates."
            ),
            Mistake(
                12.0,
                "The true class's score grows by η(||x||² + 1); the *difference* to the predicted "
                "class grows by twice that.",
            ),
        ),
        hint="After the update w_y becomes w_y + ηx and b_y becomes b_y + η. Write the new score "
        "of the same x.",
        solution="(w_y + ηx)ᵀx + (b_y + η) = w_yᵀx + b_y + η(||x||² + 1), so the score grows by "
        "1·(1 + 4 + 1) = 6. The predicted class's score falls by as much, so the gap between them "
        "closes by 12.",
    )
)

register(
    Exercise(
        "07-3",
        "explain",
        "the multiple",
        2.0,
        mistakes=(
            Mistake(
                1.0,
                "Two vectors move: w+ gains ηy x and w− loses it. What happens to their "
                "difference?",
            ),
            Mistake(-2.0, "Check the sign: on a + example the difference moves towards x."),
        ),
        hint="Write w+ and w− after a mistake on (x, y) and subtract.",
        solution="On a mistake on a + example, w+ ← w+ + ηx and w− ← w− − ηx, so w = w+ − w− ← w "
        "+ 2ηx; on a − example w ← w − 2ηx. Both are w ← w + 2η y x: the binary perceptron with "
        "step 2η, the multiple is 2 (with η = 1).",
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
        if i % 5 == 0:
            W, b = np.zeros((K, d)), np.zeros(K)  # from zero: every score ties
        y, eta = int(rng.integers(0, K)), float(rng.uniform(0.1, 1.0))
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


register(
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
        hint="Predict ŷ = argmax_k (W x + b)_k (ties to the first class); if ŷ ≠ y, add ηx to row "
        "y of W and η to b_y, and subtract them from row ŷ and b_ŷ. Return new arrays.",
        solution="```python\ndef multiclass_update(W, b, x, y, eta):\n    y_hat = int(np.argmax(W "
        "@ x + b))\n    W, b = W.copy(), b.copy()\n    if y_hat != y:\n        W[y] += eta * x\n  "
        "      b[y] += eta\n        W[y_hat] -= eta * x\n        b[y_hat] -= eta\n    return W, "
        "b\n```",
    )
)
