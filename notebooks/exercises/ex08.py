"""The exercises of notebook 08 · Kernels: the dual perceptron.

Answers, anticipated mistakes, hints and worked solutions; the ids are "08-k", exercise k of the
notebook, and expected values are computed when a check runs. The self-check mechanism is
perclib.exercises. The notebook loads them with

    from exercises.ex08 import check, check_function, show_solution
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

import numpy as np

from perclib.exercises import (
    Exercise,
    ExerciseSet,
    Feedback,
    Mistake,
    OwnCode,
    has_blank,
    read_parts,
)


def _read_number(text):
    """One number as a student may write it: "about 8.5", "8.5-fold", "8.5 times", "8,5" (a
    decimal comma), "68:8", "r = 1"; other text is returned stripped, for the mechanism to judge."""
    text = text.strip()
    text = re.sub(r"^[a-zA-Z]\s*=\s*", "", text)  # "r = 1", "x = 0"
    text = re.sub(r"^(about|approximately|roughly|~|≈)\s*", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s*(-?\s*fold|times|x|×)\s*$", "", text, flags=re.IGNORECASE)
    text = re.sub(r"^([-+−]?\d+),(\d+)$", r"\1.\2", text)  # a decimal comma
    return re.sub(r"^(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)$", r"\1/\2", text)  # a:b


def _read_tuple(answer):
    """08-1's and 08-5's three numbers as one string, "3, -2, 1", "3 -2 1", or with semicolons and
    decimal commas, "0,8; -0,4; b = 0,4", each part between semicolons read as a number."""
    if isinstance(answer, str) and ";" in answer:
        answer = "; ".join(_read_number(p) for p in answer.strip().strip("()[]").split(";"))
    return read_parts(answer, 3, spaces=True)


def _read_ratio(answer):
    """08-4's ratio as a string a student may write: "8.5 times", "about 8.5", "8,5", "68:8"."""
    return _read_number(answer) if isinstance(answer, str) else answer


def _read_radius(radius):
    """08-2's radius as one float ("1", "r = 1", "1/1", 1.0, Fraction(1)), or None."""
    if isinstance(radius, str):
        radius = _read_number(radius)
        try:
            radius = Fraction(radius.replace(" ", ""))  # "1/1", "2 / 2"
        except (ValueError, ZeroDivisionError):
            pass
    try:
        r = float(radius)
    except (TypeError, ValueError):
        return None
    return r if np.isfinite(r) else None


class _Exercises(ExerciseSet):
    """The set of notebook 08; 08-1 and 08-5 also take their three numbers as one string, 08-2
    also asks for the radius of its witnesses, which it checks, 08-3 refuses a function that
    returns True/False, and 08-4 also reads "8.5 times", "8,5" and "68:8"."""

    def check(self, exercise_id, answer, *, because=None, radius=None):
        if exercise_id in ("08-1", "08-5"):
            answer = _read_tuple(answer)
        if exercise_id == "08-4":
            answer = _read_ratio(answer)
        if exercise_id == "08-2":
            return self._verdict(exercise_id, self._check_08_2(answer, because, radius))
        return super().check(exercise_id, answer, because=because)

    def _check_08_2(self, answer, because, radius):
        # the three parts are asked for before any is judged (a prompt for the radius must not
        # tell that the reason is right); then the conclusion and the reason, then the radius:
        # the set of points at which the reason can be seen on this K, so guessing the key (or
        # trying the origin) does not pass
        if has_blank(answer) or because is None or has_blank(because):
            return self._check("08-2", answer, because)
        if radius is None or has_blank(radius):
            return Feedback(
                False,
                "Now give your radius too: radius=..., the largest r such that every point x "
                "with ‖x‖ < r is a witness (the reason you picked can be seen there on this K); "
                "then run this cell.",
                neutral=True,
            )
        feedback = self._check("08-2", answer, because)
        if not feedback.correct:
            return feedback
        r = _read_radius(radius)
        if r is None:
            return Feedback(
                False, f"Not yet: give the radius as one number, such as 2.5; got {radius!r}."
            )
        if np.isclose(r, _WITNESS_RADIUS, rtol=0, atol=1e-9):
            return Feedback(
                True,
                "Right: the answer and its reason are correct, and every x with ‖x‖ < 1 has "
                "K(x, x) = ‖x‖² − 1 < 0: no feature vector has a negative squared length.",
            )
        if r <= 0:
            return Feedback(
                False,
                "Not yet: with r ≤ 0 no point has ‖x‖ < r, so your r describes no witness at "
                "all. Which points x have K(x, x) < 0? " + _asked_08_2(),
            )
        if r > _WITNESS_RADIUS:
            inside = (r + _WITNESS_RADIUS) / 2  # a point inside the student's r that is no witness
            # the point only, not K's value there nor K's formula: the student computes it
            return Feedback(
                False,
                f"Not yet: the point x = ({inside!r}) is inside your r (‖x‖ < {r!r}) but is "
                "not a witness: compute K(x, x) there. " + _asked_08_2(),
            )
        return Feedback(
            False,
            f"Not yet: every point with ‖x‖ < {r!r} is a witness, but so are some points a little "
            "farther out: your r is not the largest. For which ‖x‖ is K(x, x) below 0? "
            + _asked_08_2(),
        )

    def _refusal(self, ex, func):
        refusal = super()._refusal(ex, func)
        if refusal is None and ex.id == "08-3" and _returns_booleans(func):
            return Feedback(
                False,
                "Not yet: your output holds True/False: return the labels +1 and −1 instead. "
                "Stuck? show_solution('08-3') gives the worked solution.",
            )
        return refusal

    def _check_function(self, exercise_id, func):
        feedback = super()._check_function(exercise_id, func)
        if exercise_id == "08-3":  # two of the cases are fixed ties, not random ones
            n = EXERCISES["08-3"].trials
            cases = f"{n} cases ({n - 2} random, 2 ties)"
            message = feedback.message.replace(f"all {n} random cases", f"all {cases}")
            message = message.replace(f"of {n} random cases", f"of {cases}")
            message = message.replace(" your function raised ", ": your function raised ")
            feedback = dataclasses.replace(feedback, message=message)
        return feedback


def _returns_booleans(func):
    """Whether `func` returns True/False (a boolean array or list) on 08-3's first case."""
    (args, _), *_ = _rbf_cases(np.random.default_rng(EXERCISES["08-3"].seed))
    try:
        got = func(*[np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args])
    except Exception:  # the student's code: its error is reported by the full check
        return False
    if isinstance(got, (list, tuple)) and got:
        return all(isinstance(v, (bool, np.bool_)) for v in got)
    return isinstance(got, np.ndarray) and got.dtype == bool


EXERCISES = _Exercises()


_WITNESS_RADIUS = 1.0  # K(x, x) = ||x||^2 - 1 < 0 exactly when ||x|| < 1


def _asked_08_2():
    return "Stuck? show_solution('08-2') gives the worked solution."


# 08-1: a run with eta = 1 and the margin rule updated on x_2 (y = +1) three times and on
# x_5 (y = -1) twice, and on no other example.
_UPDATES = {2: (+1, 3), 5: (-1, 2)}


def _dual_coefficients():
    a2 = _UPDATES[2][0] * _UPDATES[2][1]
    a5 = _UPDATES[5][0] * _UPDATES[5][1]
    return (a2, a5, a2 + a5)


EXERCISES.add(
    Exercise(
        "08-1",
        "quick",
        "(α₂y₂, α₅y₅, b)",
        _dual_coefficients,
        mistakes=(
            Mistake(
                (3, 2, 5),
                "A mistake on an example moves w towards y·x, so each coefficient carries its "
                "example's label.",
            ),
            Mistake((3, -2, 0), "Your b is wrong: which parameters does an update change?"),
            Mistake((1, -1, 0), "α counts the mistakes made on an example, each one of them."),
            Mistake(
                (3, -2, 5),
                "Your b counts the updates but not their direction: does an update on a −1 "
                "example move b the same way as one on a +1 example?",
            ),
            Mistake(
                (6, -4, 2),
                "Check the size of one step: the exercise uses the margin rule, not the "
                "prediction rule. How far does one update under it move αᵢ?",
            ),
            Mistake(
                (1, -1, 1),
                "α counts the mistakes made on an example, each one of them, not whether there "
                "was one.",
            ),
        ),
        hint="Replay the five updates one by one from α = 0, b = 0, writing what each adds "
        "(η = 1, margin rule), then add up.",
        solution="Each update on (xᵢ, yᵢ) adds η yᵢ to αᵢyᵢ and to b. Example 2 (y = +1), three "
        "updates: α₂y₂ = +3. Example 5 (y = −1), two updates: α₅y₅ = −2. The bias got all five "
        "steps: b = 3 − 2 = 1. The activation is a(x) = 3 K(x₂, x) − 2 K(x₅, x) + 1.",
    )
)

EXERCISES.add(
    Exercise(
        "08-2",
        "explain",
        "the answer",
        "no",
        mistakes=(
            Mistake(
                "yes",
                "A kernel inherits every property a dot product of two feature vectors has, for "
                "every choice of the two points. Test x·z − 1 against those properties one by one.",
            ),
        ),
        hint='Answer "yes" or "no".',
        words={"false": "no", "true": "yes"},
        reasons={
            "a": "K(x, z) is negative for some pairs, and a dot product of feature vectors "
            "never is",
            "b": "there is a point x with K(x, x) < 0",
            "c": "its Gram matrix on the two points x and −x has a negative entry",
            "d": "it holds a constant term, and a dot product of feature vectors has none",
        },
        reason="b",
        reason_hints={
            "a": "The linear kernel x·z is negative for some pairs too, and it is a kernel "
            "(φ(x) = x): a dot product of two different vectors can be negative.",
            "c": "Which entries of a Gram matrix does positive semi-definiteness constrain by "
            "themselves, and which only together with the others? Try your reason on a kernel "
            "you know.",
            "d": "(x·z + 1)² has a constant term and is a kernel: its φ has the feature 1.",
        },
        solution="No. If K(x, z) = φ(x)·φ(z) for some feature map φ, then K(x, x) = ‖φ(x)‖² ≥ 0 "
        "for "
        "every x (this is Mercer's condition for the 1 × 1 Gram matrix of one point). Here K(x,"
        " x) = ‖x‖² − 1, which is below 0 exactly when ‖x‖ < 1 (K(0, 0) = −1, for one), so no φ"
        " exists (reason b), and the largest radius is r = 1: every x with ‖x‖ < 1 is a "
        "witness, and no x with ‖x‖ ≥ 1 is. (a) is wrong: x·z is negative for some pairs and is"
        " the linear kernel; only a dot product of a vector with itself must be ≥ 0. (c) is "
        "wrong for the same reason: a positive semi-definite matrix may have negative entries "
        "off its diagonal (the linear kernel's Gram matrix on x and −x does). Going further: "
        "the Gram matrix of x·z − 1 on the two points x and −x is [[‖x‖² − 1, −‖x‖² − 1], "
        "[−‖x‖² − 1, ‖x‖² − 1]], with eigenvalues −2 and 2‖x‖², so it fails Mercer's condition "
        "at every x ≠ 0 too, not only inside the unit ball. (d) is wrong: (x·z + 1)² has a "
        "constant term and φ(x) = (1, √2x₁, √2x₂, x₁², x₂², √2x₁x₂) gives it. (x·z + 1, with a "
        "plus, is a kernel: φ(x) = (1, x).)",
    )
)


def _rbf_predict(alpha_y, b, X_train, X, gamma):
    d2 = ((X[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)
    a = np.exp(-gamma * d2) @ alpha_y + b
    return np.where(a >= 0, 1, -1)


def _rbf_cases(rng):
    cases = []
    for _ in range(25):
        # gamma is never 1, so a function that ignores it fails several cases
        n, m, d = int(rng.integers(1, 8)), int(rng.integers(6, 12)), int(rng.integers(1, 4))
        X_train, X = rng.normal(size=(n, d)), rng.normal(size=(m, d))
        alpha_y = rng.integers(-3, 4, size=n).astype(float)
        b, gamma = float(rng.integers(-2, 3)) / 2, float(rng.choice([0.25, 0.5, 2.0, 4.0]))
        cases.append(((alpha_y, b, X_train, X, gamma), _rbf_predict(alpha_y, b, X_train, X, gamma)))
    # points where the activation is exactly 0: sign(0) = +1. Nothing learned yet, and two
    # bumps of opposite sign at equal distance from the new points (alpha != 0, b = 0).
    cases.append(((np.zeros(2), 0.0, np.eye(2), np.ones((1, 2)), 1.0), np.array([1])))
    tie = (
        np.array([2.0, -2.0]),
        0.0,
        np.array([[1.0, 0.0], [-1.0, 0.0]]),
        np.array([[0.0, 0.0], [0.0, 1.5], [1.0, 0.0]]),
        1.0,
    )
    cases.append((tie, _rbf_predict(*tie)))
    return cases


EXERCISES.add(
    Exercise(
        "08-3",
        "implement",
        "your rbf_predict",
        _rbf_cases,
        own_code=OwnCode(  # another kernel, wrapped, is refused, as the labs refuse wrappers
            ("sklearn", "scipy", "perclib"),
            "This exercise asks for NumPy only: compute the kernel values yourself.",
        ),
        trials=27,  # 25 random cases and 2 ties
        mistakes=(
            Mistake(
                lambda alpha_y, b, X_train, X, gamma: np.where(
                    _activation(alpha_y, b, X_train, X, 1.0) >= 0, 1, -1
                ),
                "Your labels do not change with γ: where does γ enter the kernel?",
            ),
            Mistake(
                lambda alpha_y, b, X_train, X, gamma: np.where(
                    _activation(alpha_y, 0.0, X_train, X, gamma) >= 0, 1, -1
                ),
                "Your labels ignore part of the activation: which term of a(x) is not a kernel "
                "value?",
            ),
            Mistake(
                lambda alpha_y, b, X_train, X, gamma: np.where(
                    np.exp(
                        -gamma * np.sqrt(((X[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2))
                    )
                    @ alpha_y
                    + b
                    >= 0,
                    1,
                    -1,
                ),
                "Check the power of the distance in the RBF kernel.",
            ),
            Mistake(
                lambda alpha_y, b, X_train, X, gamma: np.where(
                    _activation(alpha_y, b, X_train, X, gamma) > 0, 1, -1
                ),
                "Your labels differ only where the activation is exactly 0: what does the course "
                "predict there?",
            ),
            Mistake(
                lambda alpha_y, b, X_train, X, gamma: np.sign(
                    _activation(alpha_y, b, X_train, X, gamma)
                ),
                "Your output holds 0 where the activation is exactly 0: np.sign(0) is 0, but the "
                "course's sign(0) is +1.",
            ),
            Mistake(
                lambda alpha_y, b, X_train, X, gamma: _activation(alpha_y, b, X_train, X, gamma),
                "Your output holds values other than +1 and -1: the function should return labels, "
                "not activations.",
            ),
            Mistake(
                lambda alpha_y, b, X_train, X, gamma: np.where(
                    _activation(alpha_y, b, X_train, X, gamma) >= 0, 1, 0
                ),
                "Your output holds 0 where the other label belongs: which two labels does the "
                "course use?",
            ),
            Mistake(
                lambda alpha_y, b, X_train, X, gamma: _labels(
                    np.exp(gamma * _squared_distances(X_train, X)) @ alpha_y + b
                ),
                "Check the sign in the exponent: should a bump grow or shrink away from its "
                "support vector?",
            ),
            Mistake(
                lambda alpha_y, b, X_train, X, gamma: _labels(
                    np.exp(-_squared_distances(X_train, X) / gamma) @ alpha_y + b
                ),
                "Check how γ enters the exponent: in the course's RBF kernel a larger γ gives "
                "narrower bumps. Does it in yours?",
            ),
            Mistake(
                lambda alpha_y, b, X_train, X, gamma: _labels(
                    np.exp(-(gamma**2) * _squared_distances(X_train, X)) @ alpha_y + b
                ),
                "Check the power of γ in the exponent against the kernel's definition.",
            ),
        ),
        hint="Your labels differ from the expected ones on some cases. Try your function on a case "
        "you can work by hand (one or two training points, a new point on one of them and one far "
        "away) and compare each step with the definition of a(x).",
        solution="```python\ndef rbf_predict(alpha_y, b, X_train, X, gamma):\n"
        "    d2 = ((X[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)  # (m, n)\n"
        "    a = np.exp(-gamma * d2) @ alpha_y + b\n"
        "    return np.where(a >= 0, 1, -1)\n```\n"
        "Row j of the kernel matrix holds K(x_i, x) for the new point x = X[j] and every "
        "training point x_i; multiplying by the dual coefficients sums αᵢyᵢK(xᵢ, x); the bias is "
        "added, and sign(0) = +1.",
    )
)


def _squared_distances(X_train, X):
    return ((X[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)


def _labels(a):
    return np.where(a >= 0, 1, -1)


def _activation(alpha_y, b, X_train, X, gamma):
    return np.exp(-gamma * _squared_distances(X_train, X)) @ alpha_y + b


# 08-4: data with max ||x|| = 2; the kernels (x.z)^2 and RBF, both with the bias and with the
# same margin 0.5 in their feature space (bias inside the norm, as max_margin computes it). The
# answer is the ratio of their Novikoff bounds.
_MAX_NORM, _MARGIN = 2.0, 0.5


def _ratio(r2_poly, r2_rbf):
    return (r2_poly / _MARGIN**2) / (r2_rbf / _MARGIN**2)


# An explain exercise: the ratio, and the reason the RBF kernel's R does not depend on the data
# (the idea the exercise is about, so it is not only arithmetic).
EXERCISES.add(
    Exercise(
        "08-4",
        "explain",
        "the ratio of the two bounds, (x·z)² over RBF",
        lambda: _ratio(1 + _MAX_NORM**4, 2.0),
        reasons={
            "a": "the RBF feature space has infinitely many dimensions, and the bound does not "
            "depend on the dimension",
            "b": "the RBF kernel's value between two different points is below 1, whatever the "
            "data",
            "c": "K(x, x) is the same number at every point x, whatever the data and γ",
            "d": "γ rescales the data so that the longest point has length 1",
        },
        reason="c",
        reason_hints={
            "a": "The dimension indeed does not appear in the bound, but that does not fix R: "
            "which kernel values is R made of?",
            "b": "R is made of the lengths of the φ(xᵢ): a length involves one point, not two.",
            "d": "γ does not move the points: it sets how narrow the bumps are. Which kernel "
            "values is R made of?",
        },
        mistakes=(
            Mistake(
                lambda: _ratio(_MAX_NORM**4, 1.0),
                "Both perceptrons learn a bias: it is one more feature, the constant 1, in each R.",
            ),
            Mistake(
                lambda: _ratio(_MAX_NORM**4, 2.0),
                "The bias is a feature of both perceptrons, not only of the RBF one.",
            ),
            Mistake(
                lambda: _ratio(1 + _MAX_NORM**4, 1.0),
                "The bias is a feature of both perceptrons, not only of the (x·z)² one.",
            ),
            Mistake(
                lambda: _ratio(1 + _MAX_NORM**2, 2.0),
                "R is measured in feature space: the length of φ(x) comes from K(x, x), not "
                "from ‖x‖.",
            ),
            Mistake(
                lambda: 1 / _ratio(1 + _MAX_NORM**4, 2.0),
                "Check the order: the (x·z)² bound over the RBF bound.",
            ),
            Mistake(
                lambda: _ratio(1 + _MAX_NORM**4, 1 + _MAX_NORM**2),
                "What is ‖x − x‖², and so K(x, x), for the RBF kernel?",
            ),
        ),
        hint="Each bound is R²/γ*², with R measured in that kernel's feature space: what is "
        "K(x, x) for each kernel, at the longest x?",
        solution="‖φ(x)‖² = K(x, x). For (x·z)²: K(x, x) = ‖x‖⁴ ≤ 2⁴ = 16, so with the bias's "
        "constant feature R² = 1 + 16 = 17 and the bound is 17/0.25 = 68 mistakes. For the RBF "
        "kernel: K(x, x) = exp(−γ‖x − x‖²) = 1 for every x, whatever the data and γ, so R² = 2 and "
        "the bound is 2/0.25 = 8. The ratio is 68/8 = 8.5: with equal margins the RBF bound is "
        "8.5 times smaller, because every φ(x) has length 1. (Equal margins are an assumption: "
        "the margins of two kernels on the same data usually differ, and the bound compares only "
        "through R²/γ*².) The reason is (c): the RBF kernel's R² is 2 on every data set because "
        "K(x, x) = 1 at every point. (a) is true but does not fix R; (b) is about pairs of points, "
        "and R is made of lengths, one point each; (d) is false: γ sets the width of the bumps and "
        "does not move the points.",
    )
)


# 08-5: a run with average=True, eta = 1 and the margin rule: T = 4 visits, updates at visit 1
# on x_1 (y = +1) and at visit 3 on x_3 (y = -1). The answer is the average of the T + 1 iterates
# w_0 = 0, ..., w_T: an update at visit t is in the T + 1 - t iterates w_t, ..., w_T.
_T = 4
_AVG_UPDATES = ((1, +1), (3, -1))  # (visit, label) of each update, on x_1 and on x_3


def _averaged(*, iterates=_T + 1, after=lambda t: _T + 1 - t, signed=True):
    """(c_1, c_3, b) averaged over ``iterates``, an update at visit t counted in after(t) of them;
    the variants are the anticipated slips."""
    c = [(y if signed else 1) * after(t) / iterates for t, y in _AVG_UPDATES]
    return (c[0], c[1], sum(c))


def _distinct_mean():
    """The unweighted mean of the distinct vectors v_0 = 0, v_1, v_2 (notebook 06's slip 3)."""
    return (2 / 3, -1 / 3, 1 / 3)


EXERCISES.add(
    Exercise(
        "08-5",
        "quick",
        "(c̄₁, c̄₃, b̄)",
        _averaged,
        mistakes=(
            Mistake(
                (1, -1, 0),
                "These are the last iterate's coefficients: the averaged model averages every "
                "iterate of the run, from w₀ on.",
            ),
            Mistake(
                lambda: _averaged(iterates=_T),
                "Count the iterates you average: notebook 06's average includes w₀ = 0.",
            ),
            Mistake(
                lambda: _averaged(after=lambda t: _T - t),
                "Check which iterates contain an update: w_t is the weight after visit t, so is "
                "the update of visit t in it?",
            ),
            Mistake(
                _distinct_mean,
                "You averaged the distinct vectors once each: each iterate w_t counts once, so a "
                "vector that lasted several visits counts that many times.",
            ),
            Mistake(
                lambda: (*_averaged()[:2], 0),
                "Your b̄: the bias changes at each update too, and is averaged like the "
                "coefficients.",
            ),
            Mistake(
                lambda: _averaged(signed=False),
                "Each coefficient carries its example's label, and so does each step of b.",
            ),
        ),
        hint="Write the five iterates w₀, ..., w₄ (and their biases) as sums of kernel terms, "
        "one per visit, then average each coefficient over them.",
        solution="The iterates, as (coefficient of K(x₁, ·), of K(x₃, ·), b): w₀ = (0, 0, 0); "
        "visit 1 is a mistake on x₁ (y = +1): w₁ = (1, 0, 1); visit 2 changes nothing: w₂ = w₁; "
        "visit 3 is a mistake on x₃ (y = −1): w₃ = (1, −1, 0); w₄ = w₃. Their average over the "
        "T + 1 = 5 iterates: c̄₁ = 4/5 (x₁'s term is in w₁ to w₄), c̄₃ = −2/5 (in w₃ and w₄), "
        "b̄ = (0 + 1 + 1 + 0 + 0)/5 = 2/5. So (0.8, −0.4, 0.4): an update at visit t counts in "
        "the T + 1 − t iterates after it, so early updates weigh more, and b̄ = c̄₁ + c̄₃ as each "
        "step adds the same to a coefficient and to b.",
    )
)


check = EXERCISES.check
check_function = EXERCISES.check_function
show_solution = EXERCISES.show_solution
answered = EXERCISES.answered
reveal = EXERCISES.reveal
