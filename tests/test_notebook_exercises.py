"""The notebooks' exercises (notebooks/exercises/): each right answer passes, each anticipated
mistake gets its hint, judged answers are graded on the student's own choice, the worked solutions
are right, and each notebook loads its own exercises."""

import importlib
import itertools
import json
import pathlib
import re

import numpy as np
import pytest
from experiments import lazy_average

from perclib import Perceptron, VotedPerceptron
from perclib.datasets import worked_example
from perclib.exercises import epoch_trace

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("0*_*.ipynb"))
MODULES = {nb[:2]: importlib.import_module(f"exercises.ex{nb[:2]}") for nb in NOTEBOOKS}
EXERCISES = [ex for module in MODULES.values() for ex in module.EXERCISES]

# The lecture's epoch 1 (rule="prediction", θ from 0): (x, θ·x, ŷ, θ after)
LECTURE_EPOCH1 = [
    ((1, 1), 0, 1, (0, 0, 0)),
    ((1, 2), 0, 1, (0, 0, 0)),
    ((0, 0), 0, 1, (-2, 0, 0)),
    ((-1, 0), -2, -1, (-2, 0, 0)),
]


def check(exercise_id, answer, **kwargs):
    """The check of the notebook that asks the exercise ("01-2": notebook 01's)."""
    return MODULES[exercise_id[:2]].check(exercise_id, answer, **kwargs)


def check_function(exercise_id, func):
    return MODULES[exercise_id[:2]].check_function(exercise_id, func)


def show_solution(exercise_id):
    return MODULES[exercise_id[:2]].show_solution(exercise_id)


def get_exercise(exercise_id):
    return MODULES[exercise_id[:2]].EXERCISES[exercise_id]


def _value(v):
    return v() if callable(v) else v


def test_each_notebook_has_its_own_exercises():
    for nb, module in MODULES.items():
        ids = [ex.id for ex in module.EXERCISES]
        assert ids and all(re.fullmatch(rf"{nb}-\d", i) for i in ids), (nb, ids)
        # the set's check, or the notebook's own check built on it (02 orders its prompts)
        assert module.check == module.EXERCISES.check or module.check.__module__ == module.__name__
        assert module.check_function == module.EXERCISES.check_function
    with pytest.raises(ValueError, match="no exercise '02-1'; the exercises are: 01-1, 01-2"):
        MODULES["01"].check("02-1", 1)


# -- each right answer passes, each anticipated mistake gets its hint ---------------------------


def test_every_exercise_has_a_solution_and_its_mistakes_are_wrong():
    assert len(EXERCISES) == 38  # 08: 5
    for ex in EXERCISES:
        assert _value(ex.solution).strip(), ex.id
        if ex.kind in ("implement",) or ex.judge is not None:
            continue
        right = _value(ex.expected)
        # 08-2 asks for a radius too: K(x, x) = x.x - 1 < 0 exactly when ||x|| < 1
        extra = {"radius": 1} if ex.id == "08-2" else {}
        assert check(ex.id, right, because=ex.reason, **extra)
        for m in ex.mistakes:
            wrong = _value(m.value)
            fb = check(ex.id, wrong, because=ex.reason, **extra)
            assert not fb and m.hint in fb.message, (ex.id, wrong)


@pytest.mark.parametrize("exercise_id", ["01-4", "02-5", "03-4", "04-4", "05-4", "06-4", "07-4"])
def test_implement_exercises_catch_their_anticipated_bugs(exercise_id):
    ex = get_exercise(exercise_id)
    assert check_function(exercise_id, lambda *args: None).neutral
    reference = {args_key(a): r for a, r in ex.expected(np.random.default_rng(ex.seed))}
    assert check_function(exercise_id, lambda *a: reference[args_key(a)])
    for m in ex.mistakes:
        fb = check_function(exercise_id, m.value)
        assert not fb and m.hint in fb.message, m.hint


def args_key(args):
    return tuple(np.asarray(a, dtype=float).tobytes() for a in args)


def test_01_exercises_accept_every_valid_form_and_hint_without_the_answer():
    from decimal import Decimal
    from fractions import Fraction

    for form in (55, 55.0, "55", Fraction(55), Decimal("55"), [55], "55k", "$55k", "$55,000"):
        assert check("01-1", form), form
    assert check("01-1", 55000)  # in dollars
    assert "approved or denied" in check("01-1", 56).message
    assert "approved or denied" in check("01-1", "56k").message
    assert "bias" in check("01-1", 5).message and not check("01-1", "lots")
    right = [(1, 2), (0, 0)]
    for form in (right, right[::-1], np.array(right), [[0, 0], [1, 2]], ((1.0, 2.0), (0, 0))):
        assert check("01-2", form), form
    assert "sign give at 0" in check("01-2", [(1, 1), (1, 2)]).message  # sign(0) = -1
    assert "no class" in check("01-2", [(1, 1), (1, 2), (0, 0)]).message  # np.sign
    assert "prediction too" in check("01-2", [(1, 2)]).message  # ties left out
    assert not check("01-2", [(1, 2), (0, 0), (5, 5)])
    assert check("01-2", "[(1,2),(0,0)]") and not check("01-2", "[(1, 2)]")
    # 01-3: any equation of the line with the asked property, in any valid form
    for form in (
        ((-3, -4, 5), (0.15, 0.2, -0.25)),
        [[-6, -8, 10], ["3/20", "1/5", "-1/4"]],
        np.array([[-0.3, -0.4, 0.5], [0.15, 0.2, -0.25]]),
        ((Fraction(-1), Decimal("-4") / 3, Fraction(5, 3)), (Fraction(3, 20), 0.2, -0.25)),
        "((-3, -4, 5), (0.15, 0.2, -0.25))",
        "-3, -4, 5, 0.15, 0.2, -0.25",
    ):
        assert check("01-3", form), form
    fb = check("01-3", ((3, 4, -5), (0.15, 0.2, -0.25)))  # w still points towards (3, 4)
    assert not fb and "which way does w point" in fb.message.lower()
    fb = check("01-3", ((-3, -4, 5), (-3, -4, 5)))  # the activation is not scale-free
    assert not fb and "activation at (3, 4) is -20" in fb.message and "1/20" not in fb.message
    assert "not the line" in check("01-3", ((-3, -4, 4), (0.15, 0.2, -0.25))).message
    assert "not the equation of a line" in check("01-3", ((0, 0, 0), (3, 4, -5))).message
    assert "give two equations" in check("01-3", (4, -4)).message
    assert check("01-2", {(1, 2), (0, 0)}) and check("01-2", frozenset({(0, 0), (1, 2)}))
    mirror = lambda w, b, x: x - 2 * (w @ x + b) / (w @ w) * w  # noqa: E731
    assert check_function("01-4", mirror)
    assert check_function("01-4", lambda w, b, x: list(mirror(w, b, x)))  # a list is fine
    for form in ("none", "None.", "no plane", "No, it is not separable", "No.", "impossible"):
        assert check("01-5", form, because="b"), form
    for form in ("It is not separable", "no such plane exists", "It's not linearly separable"):
        assert check("01-5", form, because="b"), form
    for form in ("No idea", "no, it is separable"):  # not an answer: the form hint
        assert "four numbers" in check("01-5", form, because="b").message, form
    assert check("01-5", "none", because="(B)")
    for key in "acde":  # a wrong reason is wrong, and its hint does not name the right key
        fb = check("01-5", "none", because=key)
        assert not fb and '"b"' not in fb.message
    # a plane, in any number form, is tested on the eight corners
    fb = check("01-5", ("1", "1", "1", "-3/2"), because="e")
    assert not fb and "<1,1,1> (a = 1.5, label -1)" in fb.message and "none" not in fb.message
    assert "four numbers" in check("01-5", "yes", because="b").message
    assert check("01-5", "none", because=...).neutral


def test_02_exercises_accept_every_valid_form_and_hint_without_the_answer():
    from fractions import Fraction

    # numbered in reading order: 1 in section 5, 2 in section 6, then 3-5 at the end
    for form in (0.5, "0.5", Fraction(1, 2), [0.5], "1/2", "one half", "Half"):
        assert check("02-3", form), form
    for form in ((5, 7), ["5", "7"], np.array([5, 7]), "5, 7", "(5,7)", ("five", "seven")):
        assert check("02-4", form), form
    for form in ([5, 6, 7], (7, 5, 6), "5, 6, 7", np.array([5.0, 6.0, 7.0])):  # every b that works
        assert check("02-4", form), form
    assert str(check("02-4", (5, 7))).startswith("Right: your pair")
    for wrong in ([5, 7, 9], [4, 6, 7]):  # not a run of whole numbers: a form hint, no value
        fb = check("02-4", wrong)
        assert not fb and "5" not in fb.message and "7" not in fb.message
    assert "exactly on the boundary" in check("02-4", [4, 5, 6]).message  # read as (4, 6)
    # a tie not counted as a mistake, or b not moving, gives another range (and its own hint)
    assert "exactly on the boundary" in check("02-4", (4, 6)).message
    assert "moves b" in check("02-4", (7, 8)).message
    fb = check("02-4", (5, 6))  # the upper end one short: a hint that names no value
    assert not fb and "y·a = 0" in fb.message and "7" not in fb.message and "+ 1" not in fb.message
    for form in (1, "1", "same", "The same.", "no change", "unchanged", "one", "One", "1x"):
        assert check("02-1", form), form
    for form in ("same number", "The same number.", "the same number of updates"):
        assert check("02-1", form), form
    from exercises.ex02 import _perclib_epoch, _prediction_epoch

    epoch = lambda w, b, X, y, eta: _prediction_epoch(w, b, X, y, eta)  # noqa: E731
    assert check_function("02-5", epoch)
    assert check_function("02-5", lambda *a: list(epoch(*a)))  # [w, b, k] is fine too
    rng = np.random.default_rng(5)  # the reference is perclib's own epoch
    for _ in range(200):
        X = rng.integers(-2, 3, (5, 2)).astype(float)
        y = np.array([1.0, -1.0, *rng.choice([-1.0, 1.0], 3)])
        w, b = rng.integers(-2, 3, 2).astype(float), float(rng.integers(-2, 3))
        ours, theirs = _prediction_epoch(w, b, X, y, 0.5), _perclib_epoch(w, b, X, y, 0.5)
        assert np.allclose(ours[0], theirs[0]) and ours[1:] == theirs[1:]
    for form in (
        ("margin", "both"),
        ["Margin rule", "both rules"],
        ("the margin rule.", "both."),
        ("only the margin rule", "margin and prediction"),
        ("margin only", "either"),
    ):
        assert check("02-2", form, because="d"), form
    for key in "abc":
        fb = check("02-2", ("margin", "both"), because=key)
        assert not fb and '"d"' not in fb.message
    # reasons a and b are consistent with the right pair, so the reason step can fail: check
    # the facts that make them wrong
    assert np.sign(0.0) == 0
    fb = check("02-2", ("both", "both"), because="d")
    assert not fb and "one of your two answers" in fb.message  # not which one
    assert "y = +1" not in fb.message.split("At a = 0")[0]
    # the options speak of what each rule does: they are listed only once the pair is right
    listed = check("02-2", ("margin", "both"), because=...)
    assert listed.neutral and all(f'"{k}"' in listed.message for k in "abcd")
    for wrong in (("both", "prediction"), ("both", "both"), ("prediction", "margin")):
        for because in (..., None):
            fb = check("02-2", wrong, because=because)
            assert not fb and not fb.neutral and '"a"' not in fb.message
            assert "labels" not in fb.message and "y = −1 only" not in fb.message
    assert check("02-2", (..., ...), because=...).neutral
    assert '"a"' not in check("02-2", (..., ...), because=...).message


def test_02_guarded_claims_hold():
    """What notebook 02's guarded cells show once exercises 1 and 2 are answered."""
    from perclib.datasets import make_separable

    X, y = make_separable(40, margin=0.1, random_state=0)
    base = Perceptron(eta=1.0).fit(X, y)
    for eta in (0.01, 0.1, 10.0):  # from 0: the same mistakes, (w, b) times eta
        fit = Perceptron(eta=eta).fit(X, y)
        assert fit.n_updates_ == base.n_updates_
        assert np.array_equal(fit.mistakes_, base.mistakes_)
        assert np.allclose(fit.coef_, eta * base.coef_)
        assert np.isclose(fit.intercept_, eta * base.intercept_)
    X_small, y_small = make_separable(10, margin=0.15, random_state=2)
    for data, both in ((worked_example(), False), ((X_small, y_small), True)):
        first = {
            r: Perceptron(rule=r, record=True).fit(*data).history_[0]
            for r in ("margin", "prediction")
        }
        assert first["margin"].activation == 0 and first["margin"].updated
        assert first["prediction"].updated is both  # y = -1 on the 10 points, +1 on the example


def test_03_choices_are_graded_on_the_students_own_choice():
    from decimal import Decimal
    from fractions import Fraction

    X, y = worked_example()
    # brute force over the 24 visiting orders: 2 end epoch 1 where the course's order does
    ends = {
        perm: tuple(epoch_trace(X, y, perm)[-1]["theta"].tolist())
        for perm in itertools.permutations(range(4))
    }
    assert sum(e == (-2, 0, 0) for e in ends.values()) == 2
    assert sum(e == (-2, 2, 0) for e in ends.values()) == 12
    solution = str(show_solution("03-3"))
    assert "2 orders" in solution and "So 2 of the 24" in solution and "4 of the 24" not in solution
    traced = [(0, 1, 2, 3), (3, 2, 1, 0)]  # section 2's order and exercise 2's, printed above
    for perm in traced:
        fb = check("03-3", ([tuple(X[i]) for i in perm], ends[perm], 2))
        assert not fb and "not traced above" in fb.message
    for perm, end in ends.items():
        if perm in traced:
            continue
        order = [tuple(X[i]) for i in perm]
        assert check("03-3", (order, end, 2))
        assert check("03-3", (order, list(end), "2"))  # other valid forms
        assert check("03-3", (order, str(end), Decimal(2)))
        assert check("03-3", (order, end, "two"))  # a number word
        assert not check("03-3", (order, end, 4))  # the old, wrong count
        assert not check("03-3", (order, (-2, 0, 0) if end != (-2, 0, 0) else (-2, 2, 0), 2))
    # a guess does not pass: "no" (the old answer form) and a fixed theta fail on most orders
    assert not check("03-3", ([tuple(X[i]) for i in (3, 2, 1, 0)], "no", 2))
    assert sum(bool(check("03-3", ([tuple(X[i]) for i in p], (-2, 2, 0), 2))) for p in ends) == 11
    assert not check("03-3", ([(1, 1)] * 4, (-2, 0, 0), 2))
    assert check("03-3", ([..., ..., ..., ...], ..., ...)).neutral
    # 2: the reversed run, every numeric form
    for form in (1, "1", 1.0, [1], Fraction(1), Decimal("1"), "one", "One."):
        assert check("03-2", form)
    assert not check("03-2", 3)
    assert not check("03-2", "three")
    blank = check("03-1", [((1, 1), ..., ..., ...)])
    assert blank.neutral
    rows = [
        (r["x"], r["theta_x"], r["y_hat"], r["theta"])
        for r in epoch_trace(X, y, range(4), theta0=(1, -1, 0))
    ]
    assert check("03-1", rows)
    # numbers as strings, Decimal and Fraction, θ as a string
    as_text = [
        (str(x.tolist()), str(a), Decimal(str(p)), str(tuple(t.tolist()))) for x, a, p, t in rows
    ]
    assert check("03-1", as_text)
    assert not check("03-1", LECTURE_EPOCH1)  # the course's start is not this one
    # hints name the kind of slip, never the formula or the value: a margin-rule step, a tie as -1
    margin_step = [rows[0], rows[1], (rows[2][0], rows[2][1], rows[2][2], (0, -1, 0))]
    tie_minus = rows[:3] + [(rows[3][0], rows[3][1], -1, rows[3][3])]
    for slip in (margin_step, tie_minus):
        message = check("03-1", slip).message
        assert not any(s in message for s in ("η(y", "ηy", "twice", "sign(0)", "predicted +1"))
    assert "margin rule" in check("03-1", margin_step).message
    assert "tie" in check("03-1", tie_minus).message
    # no reason of 03-5 names the point it asks for
    assert not any("0,0" in text for text in get_exercise("03-5").reasons.values())
    # 5: the margin rule in reverse order breaks <0,0> at step 3, for reason c; guesses fail
    for point in ((0, 0), [0.0, 0.0], np.array([0, 0]), "<0,0>", "(0, 0)", "0,0"):
        assert check("03-5", (3, point), because="c"), point
    assert check("03-5", ("3", [0.0, 0.0]), because="(C)")
    assert not check("03-5", (3, (0, 0)), because="b")
    hints = set()
    for wrong in ((0, "none"), (1, (1, 1)), (3, (1, 1)), (6, (0, 0)), (5, (0, 0))):
        fb = check("03-5", wrong, because="c")
        assert not fb
        hints.add(fb.message)
    assert len(hints) == 1  # one hint for every wrong (step, point): no step is confirmed
    assert check("03-5", (..., ...)).neutral
    assert "your step and point" in check("03-5", ..., because=...).message  # the first prompt
    # the options narrow the search: they are listed only once the step and point are right
    listed = check("03-5", (3, (0, 0)), because=...)
    assert listed.neutral and all(f'"{k}"' in listed.message for k in "abcd")
    for wrong in ((1, (0, 0)), (3, (1, 1)), (0, "none")):
        fb = check("03-5", wrong, because=...)
        assert not fb and not fb.neutral and "tie" not in fb.message and '"c"' not in fb.message
    assert '"c"' not in check("03-5", (..., ...), because=...).message
    # 4: the worked solution's first_break passes, and finds section 4's first break
    code = str(show_solution("03-4")).split("```python\n")[1].split("```")[0]
    space = {"np": np}
    exec(code, space)
    first_break = space["first_break"]
    assert check_function("03-4", first_break)
    assert check_function("03-4", lambda *a: list(first_break(*a)))  # a list too
    run = Perceptron(rule="prediction", record=True).fit(X, y)
    thetas = np.array([np.zeros(3)] + [np.r_[s.b, s.w] for s in run.history_])
    assert first_break(thetas, X, y) == (3, 0)  # step 3 breaks <1,1> and <1,2>
    assert first_break(thetas[3:], X, y) == (2, 2)  # from step 3 on: step 5 breaks <0,0>
    assert first_break(thetas[5:], X, y) == (0, -1)  # step 7 breaks nothing
    # and on exercise 5's run it gives exercise 5's answer: step 3, <0,0>
    rev = Perceptron(rule="margin", record=True).fit(X[::-1], y[::-1])
    thetas = np.array([np.zeros(3)] + [np.r_[s.b, s.w] for s in rev.history_])
    assert first_break(thetas, X, y) == (3, 2)
    # section 4's code is not the answer: it lists the points one update breaks
    cells = json.loads((ROOT / "notebooks" / "03_worked_example.ipynb").read_text())["cells"]
    above = [
        c for c in cells[: cells.index(next(c for c in cells if "**4 (" in "".join(c["source"])))]
    ]
    assert "first_break" not in "".join("".join(c["source"]) for c in above)


def test_03_reversed_run_stops_on_a_line_that_does_not_separate_strictly():
    X, y = worked_example()
    run = Perceptron(rule="prediction").fit(X[::-1], y[::-1])
    ya = np.where(y == 1, 1, -1) * (X @ run.coef_ + run.intercept_)
    assert run.converged_ and run.n_updates_ == 1
    assert ya.min() == 0 and [tuple(p) for p in X[ya == 0]] == [(1, 1), (1, 2)]
    not_strict = 0
    for perm in itertools.permutations(range(4)):
        p = list(perm)
        fit = Perceptron(rule="prediction").fit(X[p], y[p])
        not_strict += bool(np.any(np.where(y == 1, 1, -1) * (X @ fit.coef_ + fit.intercept_) <= 0))
        strict = Perceptron(rule="margin").fit(X[p], y[p])
        assert np.all(np.where(y == 1, 1, -1) * (X @ strict.coef_ + strict.intercept_) > 0)
    assert not_strict == 12  # the count notebook 03 states


def test_04_exercises():
    from decimal import Decimal
    from fractions import Fraction

    from perclib.datasets import make_separable
    from perclib.theory import margin, mistake_bound

    # 1: every numeric form
    for form in (144, 144.0, "144", [144], Fraction(144), Decimal("144"), "288/2", "144.0"):
        assert check("04-1", form)
    assert not check("04-1", 12) and "144" not in check("04-1", 12).message
    # 2: from a bad start eta matters: more updates with a smaller step, for reason b
    X, y = make_separable(40, 2, margin=0.1, random_state=0)
    plain = Perceptron().fit(X, y)
    runs = {
        eta: Perceptron(eta=eta)
        .fit(X, y, coef_init=-plain.coef_, intercept_init=-plain.intercept_)
        .n_updates_
        for eta in (0.1, 1.0)
    }
    assert runs[0.1] > runs[1.0]
    assert check("04-2", ("more", "b")) and check("04-2", ("More.", "(B)"))
    assert check("04-2", ("more updates", "b")) and check("04-2", ("increase", "b"))
    assert check("04-2", ("more than before", "b")) and check("04-2", ("More, by far.", "b"))
    assert not check("04-2", ("the same as before", "b")) and not check("04-2", ("fewer now", "b"))
    assert "must be" not in check("04-2", ("the same", "b")).message  # a valid form, judged
    hints = set()
    for wrong in (("same", "b"), ("fewer", "b"), ("more", "a"), ("more", "c"), ("more", "d")):
        assert not check("04-2", wrong)
        hints.add(check("04-2", wrong).message)
    assert len(hints) == 1  # the parts are judged together
    (hint,) = hints  # neutral: it rules out no option
    assert not any(w in hint for w in ("no longer", "middle term", "size of one step"))
    assert check("04-2", (..., ...)).neutral
    # 3: the pair moved by s: the bound is (1 + (1 + s)^2)(1 + s^2), first above 100 at s = 3
    for shift, bound in ((0, 2), (1, 10), (2, 50), (3, 170)):
        pair = np.array([[1.0 + shift], [shift - 1.0]])
        assert mistake_bound(pair, np.array([1, -1])) == pytest.approx(bound)
    for form in (3, 3.0, "3", [3], Fraction(3), Decimal("3"), "three", "6/2"):
        assert check("04-3", form), form
    for wrong, words in ((9, "half-width"), (2, "at most 100")):
        fb = check("04-3", wrong)
        assert not fb and words in fb.message and "3" not in fb.message.split("Stuck?")[0]
    assert not check("04-3", 4) and not check("04-3", 50)  # the old question's answer
    # 4: from w0 = 0 the allowed updates are Novikoff's bound; margin is not the answer
    for (w0, _w_star, _eta, g, R), ref in get_exercise("04-4").expected(np.random.default_rng(1)):
        if not np.any(w0):
            assert ref == pytest.approx((R / g) ** 2)
        assert ref >= 0
    assert not check_function("04-4", lambda w0, w_star, eta, g, R: margin(w0, w_star, eta, g))
    fb = check_function("04-4", lambda w0, w_star, eta, g, R: (R / g) ** 2)
    assert not fb and "from w̃_0 = 0" in fb.message
    # 5: the conclusion, the number and the reason, every valid form; guesses fail
    for form in (("yes", 1025, "d"), ("Yes ", 1025.0, "D"), ("yes", Fraction(1025), "(d)")):
        assert check("04-5", form)
    assert check("04-5", ("yes", Decimal("1025"), "d")) and check("04-5", ("yes", "1025", "d"))
    assert check("04-5", ("y", 1025, "d")) and check("04-5", (True, 1025, "d"))
    assert check("04-5", ("yes, it does", 1025, "d")) and check("04-5", ("Yes.", "1,025", "(d)"))
    assert not check("04-5", ("no, it does not", 1025, "d"))
    assert not check("04-5", ("yes", "1,024", "d")) and not check("04-5", ("yes", "10,25", "d"))
    assert not check("04-5", (False, 1025, "d")) and not check("04-5", ("n", 1025, "d"))
    assert not any("1024" in text or "1)²" in text for text in MODULES["04"]._WHY.values())
    hints = set()
    for wrong in (("no", 1025, "d"), ("yes", 1024, "d"), ("yes", 1025, "c"), ("no", 1024, "c")):
        assert not check("04-5", wrong)
        hints.add(check("04-5", wrong).message)
    assert len(hints) == 1  # the parts are judged together
    assert not check("04-5", ("yes", 1025, "blah blah blah blah"))
    assert check("04-5", ...).neutral and check("04-5", ("yes", ..., "d")).neutral


def test_04_5_the_bound_1024_is_reached_with_a_bias_under_the_promise():
    """The solution's construction: the rows of a 1024 x 1024 Hadamard matrix are the augmented
    points (first column all 1); the perceptron with a bias makes 1024 updates, R = 32, γ* = 1."""
    from scipy.linalg import hadamard

    n = 1024
    H = hadamard(n).astype(float)
    assert np.all(H[:, 0] == 1)
    X = H[:, 1:]  # the points; the bias trick puts the 1 back
    y = np.random.default_rng(0).choice([-1, 1], n)  # any labels
    run = Perceptron().fit(X, y)  # with a bias, from 0, in the given order
    assert run.converged_ and run.n_updates_ == n == (32 / 1) ** 2
    Xt = np.c_[np.ones(n), X]
    assert np.max(np.linalg.norm(Xt, axis=1)) == 32.0  # R in the augmented space
    # gamma* = 1: the final weights, at unit length, give every point margin 1, and no unit
    # vector gives all points more (their average margin is at most ||sum y_i x~_i|| / n = 1)
    w = np.r_[run.intercept_, run.coef_]
    w = w / np.linalg.norm(w)
    assert np.allclose(y * (Xt @ w), 1.0)
    assert np.linalg.norm(y @ Xt) / n == pytest.approx(1.0)
    assert "Hadamard" in _value(get_exercise("04-5").solution)
    for ex in ("04-2", "04-3", "04-4", "04-5"):
        sol = str(show_solution(ex))
        assert sol.strip() and ("1025" in sol if ex == "04-5" else True)
    assert "170 at s = 3" in str(show_solution("04-3"))


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=str)
def test_a_notebook_that_offers_solutions_imports_show_solution(notebook):
    """The text says "run show_solution(...)": the set-up imports it from the notebook's own
    exercises, or the call is a NameError (or another notebook's exercise)."""
    nb = json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"])
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    if "show_solution(" in text:
        pattern = rf"^from exercises\.ex{notebook[:2]} import .*\bshow_solution\b"
        assert re.search(pattern, code, re.M)


# -- notebooks 05-07 ----------------------------------------------------------------------


def test_06_values_are_independent_of_the_bank():
    from decimal import Decimal
    from fractions import Fraction

    ex06 = MODULES["06"]
    X, y = worked_example()
    rows = ex06.iterates(X, y, 3)  # w_0 .. w_12 with the bias, by a plain loop
    got = np.r_[ex06.count_first(X, y, 3)]
    assert np.allclose(rows[:12].mean(axis=0), got)  # the mean of w_0 .. w_11
    assert not np.allclose(rows.mean(axis=0), got)
    for form in ((0, 11), [0, 11], np.array([0, 11]), ("0", "11"), "0, 11", "(0,11)", "[0, 11]"):
        assert check("06-1", form), form
    assert not check("06-1", (0, 12)) and not check("06-1", (1, 12))
    assert not check("06-1", "0, 12") and "CIML" in check("06-1", "0, 12").message
    # 06-2: the vote, counted by hand: 1(-1) + 2(-1) + 6(+1) + 3(-1) = 0, and sign(0) = +1
    assert check("06-2", 1) and not check("06-2", -1)
    for form in ("+1", "1", 1.0, [1], "plus one", "Positive"):
        assert check("06-2", form), form
    assert "sign(0)" not in check("06-2", -1).message  # the hint does not state the answer
    vp = VotedPerceptron(max_iter=20).fit(X, y)
    assert check("06-3", (len(vp.counts_), vp.counts_[-1])) and vp.counts_[:3].tolist() == [0, 2, 4]
    assert not check("06-3", (4, 80)) and not check("06-3", (27, 80))
    for form in ("4, 74", "(4, 74)", ("4", "74")):
        assert check("06-3", form), form
    assert not check("06-3", "4, 80")
    stopped = check("06-3", (4, 6))  # the counts of a run that stops at a clean epoch
    assert not stopped and "stop after an epoch without mistakes" in stopped.message
    # 06-5: c <- 0 returns (T + 1)/T times CIML's vector, and the same predictions
    w_c0, b_c0 = lazy_average(X, y, max_iter=3, slip="c starts at 0")
    w_c1, b_c1 = lazy_average(X, y, max_iter=3)
    assert np.allclose(w_c0, 13 / 12 * w_c1) and np.isclose(b_c0, 13 / 12 * b_c1)
    for form, because in (
        (("no", Fraction(13, 12)), "c"),
        (("No.", "13/12"), "(c)"),
        (("No, it is not", 1.083), "C"),
        (("no", Decimal("1.0833")), "c)"),
        ("no, 13/12", "c"),
        ("(No, 1.083)", "c"),
    ):
        assert check("06-5", form, because=because), form
    for wrong, because in (
        (("yes", 13 / 12), "c"),
        (("no", 12 / 13), "c"),
        (("no", 1), "c"),
        (("no", 13 / 12), "a"),
        (("no", 13 / 12), "b"),
        (("no", 13 / 12), "d"),
    ):
        assert not check("06-5", wrong, because=because), wrong
    assert "prints" not in check("06-5", ("no", 1), because="c").message  # c20 prints True/False
    assert check("06-5", (..., ...)).neutral
    assert check("06-5", ("no", 13 / 12)).neutral  # the options are listed, nothing is graded


def test_06_4_solution_passes_and_agrees_with_voted_perceptron():
    ex06 = MODULES["06"]
    text = show_solution("06-4").text
    code = re.search(r"```python\n(.*)```", text, re.S).group(1)
    ns = {"np": np}
    exec(code, ns)
    assert check_function("06-4", ns["survival_counts"])
    for (X, y, epochs), ref in ex06._counts_cases(np.random.default_rng(1)):
        assert np.array_equal(VotedPerceptron(max_iter=epochs).fit(X, y).counts_, ref)
    assert not check_function("06-4", lambda X, y, e: ex06.survival_counts(X, y, e)[1:])


def test_06_4_refuses_wrappers_and_points_at_early_stopping():
    ex06 = MODULES["06"]

    def wraps(X, y, epochs):
        return VotedPerceptron(max_iter=epochs).fit(X, y).counts_

    def imports(X, y, epochs):
        from perclib import VotedPerceptron as V

        return V(max_iter=epochs).fit(X, y).counts_

    def helper(X, y, epochs):  # a notebook helper that wraps the reference
        return wraps(X, y, epochs)

    for wrapper in (wraps, imports, helper, lambda X, y, e: ex06.survival_counts(X, y, e)):
        fb = check_function("06-4", wrapper)
        assert not fb and "loop itself" in fb.message, wrapper
    assert all(  # each would pass on its results alone: the refusal is about the wrapping
        np.array_equal(wraps(*args), ref)
        for args, ref in ex06._counts_cases(np.random.default_rng(0))
    )

    def stops_early(X, y, epochs):  # the course's Perceptron stops at a clean epoch
        w, b, counts = np.zeros(X.shape[1]), 0.0, [0]
        for _ in range(epochs):
            clean = True
            for x, t in zip(X, y):
                if t * (w @ x + b) <= 0:
                    w, b, clean = w + t * x, b + t, False
                    counts.append(1)
                else:
                    counts[-1] += 1
            if clean:
                break
        return np.array(counts)

    fb = check_function("06-4", stops_early)
    assert not fb and "clean epoch" in fb.message and "Print w" not in fb.message


def test_05_values_and_hints():
    from decimal import Decimal
    from fractions import Fraction

    from perclib import PocketPerceptron
    from perclib.datasets import make_xor

    X, y = make_xor()
    W = np.array(
        [[-1, 0, 0], [0, 0, 1], [1, 1, 1], [0, 0, 0]], dtype=float
    )  # the 4 vectors the run visits
    by_hand = min(int(np.sum(np.where(X @ w[1:] + w[0] >= 0, 1, -1) != y)) for w in W)
    assert by_hand == PocketPerceptron(max_iter=20).fit(X, y).pocket_mistakes_
    for form in (by_hand, str(by_hand), f"{by_hand}.", [by_hand], float(by_hand), "two", "Two."):
        assert check("05-1", form), form
    assert not check("05-1", "one") and "visits" in check("05-1", "one").message
    assert check("05-1", Fraction(by_hand)) and check("05-1", Decimal(by_hand))
    assert "visits" in check("05-1", 1).message and not check("05-1", 1)
    assert "sign(0)" in check("05-1", 4).message
    assert check("05-1", ...).neutral
    assert (
        "Stuck?" in check("05-1", 3).message
        and f"{by_hand} mistakes" not in check("05-1", 3).message
    )


def test_05_2_needs_the_conclusion_lambda_and_reason():
    from fractions import Fraction

    for conclusion in ("no", "No.", "No, it is not", "NO", False):
        for lam in (-0.5, "-1/2", Fraction(-1, 2), [-0.5]):
            for key in ("b", "B", "(b)"):
                assert check("05-2", (conclusion, lam), because=key), (conclusion, lam, key)
    # a guess fails: 1 of the 16 triples of a conclusion, a sign of lambda and a reason passes
    triples = [(c, s * 0.5, k) for c in ("yes", "no") for s in (1, -1) for k in "abcd"]
    assert sum(bool(check("05-2", (c, lam), because=k)) for c, lam, k in triples) == 1
    for c, lam, k in triples:
        fb = check("05-2", (c, lam), because=k)
        if not fb:  # no hint names the right reason or the right lambda
            before = fb.message.split("Stuck?")[0]
            assert "(b)" not in before and '"b"' not in before and "-0.5" not in before
    assert "minus sign" in check("05-2", ("no", 0.5), because="b").message
    assert not check("05-2", "no", because="b")  # the lambda is needed too
    for form in ("no, -0.5", "No, −1/2", "(no, -0.5)"):
        assert check("05-2", form, because="b"), form
    assert not check("05-2", "no, 0.5", because="b")
    assert check("05-2", (..., ...), because="b").neutral


def test_05_3_forms_and_hints():
    from decimal import Decimal
    from fractions import Fraction

    m = 0.25
    right = (max(0, 1 - m), max(0, -m))
    for form in (right, list(right), np.array(right), (Fraction(3, 4), Decimal(0)), ("3/4", "0")):
        assert check("05-3", form), form
    for form in ("0.75, 0", "(0.75, 0)", "3/4, 0", "[0.75,0.0]"):
        assert check("05-3", form), form
    assert "Swapped" in check("05-3", "0, 0.75").message
    assert "Swapped" in check("05-3", (max(0, -m), max(0, 1 - m))).message
    for wrong in ((0.0, 0.0), (0.75, 0.75), (1.25, 0.0), (0.5, 0.5)):
        fb = check("05-3", wrong)
        assert not fb and "0.75" not in fb.message


def test_05_4_solution_passes_and_mistakes_get_their_hint():
    code = re.search(r"```python\n(.*?)```", show_solution("05-4").text, re.S).group(1)
    ns = {"np": np}
    exec(code, ns)
    assert check_function("05-4", ns["logistic_update_base"])
    from perclib.sgd import loss_derivative

    def oracle(
        w, b, x, y, eta, base
    ):  # independent: -eta * dl/da * (x, 1), the nats loss / ln base
        s = -eta * float(loss_derivative("logistic", [y], [w @ x + b])[0]) / np.log(base)
        return w + s * x, b + s

    assert check_function("05-4", oracle)
    no_bias = check_function(
        "05-4", lambda w, b, x, y, eta, base: (oracle(w, b, x, y, eta, base)[0], b)
    )
    assert not no_bias and "bias" in no_bias.message

    def nats_step(w, b, x, y, eta, base):  # the table's step, in nats
        return oracle(w, b, x, y, eta, np.e)

    def bits_step(w, b, x, y, eta, base):  # right in bits only
        return oracle(w, b, x, y, eta, 2.0)

    nats = check_function("05-4", nats_step)
    assert not nats and "nats" in nats.message
    bits = check_function("05-4", bits_step)
    assert not bits and "base is an argument" in bits.message
    assert any(
        base not in (2.0, np.e)
        for (*_, base), _ in MODULES["05"]._logistic_cases(np.random.default_rng(0))
    )


def test_07_values_solution_and_hints():
    from fractions import Fraction

    from perclib import MulticlassPerceptron

    ex07 = MODULES["07"]
    for form in (1, "1", 1.0, [1], "class 1", "One"):
        assert check("07-1", form), form
    assert "first" not in check("07-1", 2).message and "tie" in check("07-1", 2).message
    # 07-2 by a plain replay of the update from scores (2, 65, 5), true class 2, x = <1, 2>
    s, updates = np.array([2.0, 65.0, 5.0]), 0
    while np.argmax(s) != 2:
        k = int(np.argmax(s))
        s[2], s[k], updates = s[2] + 6, s[k] - 6, updates + 1
    assert updates == 6 and check("07-2", updates) and check("07-2", "six")
    hint_5 = check("07-2", 5).message  # points at the last scores, without naming the tie
    assert "prediction they give" in hint_5 and "tie" not in hint_5 and "level" not in hint_5
    assert "bias" in check("07-2", 7).message
    # 07-3: w+ - w- moves by 2 y x and b+ - b- by 2 y, so y(w.x + b) rises by 2(|x|^2 + 1)
    x = np.array([1.0, 2.0])
    rise = int(2 * (x @ x + 1))
    assert rise == 12
    for form, because in (
        ((2, rise), "d"), (("2", "12"), "(D)"), ((Fraction(2), 12.0), "d)"), ("2, 12", "D"),
        (("2yx", "twelve"), "d"), ("(2, 12)", "d"), (["2ηyx", 12], "d"),
    ):  # fmt: skip
        assert check("07-3", form, because=because), form
    for wrong, because in (
        ((1, 6), "d"), ((-2, -12), "d"), ((2, 10), "d"), ((2, 2), "d"), ((2, 12), "a"),
        ((2, 12), "b"), ((2, 12), "c"), (2, "d"),
    ):  # fmt: skip
        assert not check("07-3", wrong, because=because), wrong
    assert "bias" in check("07-3", (2, 10), because="d").message
    # a guess of the reason alone no longer passes: each option implies its own pair
    guesses = [(m, r, k) for m in (0, 1, 2) for r in (0, 5, 6, 10, 12) for k in "abcd"]
    assert sum(bool(check("07-3", (m, r), because=k)) for m, r, k in guesses) == 1
    code = re.search(r"```python\n(.*?)```", show_solution("07-4").text, re.S).group(1)
    ns = {"np": np}
    exec(code, ns)
    assert check_function("07-4", ns["averaged_multiclass"])
    for words in ("predicted class's vector moves too", "lowest class index"):
        (slip,) = [m.value for m in get_exercise("07-4").mistakes if words in m.hint]
        fb = check_function("07-4", slip)
        assert not fb and words in fb.message, words
    for wrapper in (  # the library's loop or the exercises' own reference is refused
        lambda X, y, K, e: ex07.averaged_multiclass(X, y, K, e),
        lambda X, y, K, e: MulticlassPerceptron(max_iter=e, average=True).fit(X, y).coef_,
    ):
        fb = check_function("07-4", wrapper)
        assert not fb and "the loop itself" in fb.message
    for (X, y, K, epochs), (W, b) in ex07._averaged_cases(np.random.default_rng(1)):
        if len(set(y.tolist())) == K:  # perclib learns the classes it sees
            run = MulticlassPerceptron(max_iter=epochs, average=True).fit(X, y)
            assert np.allclose(run.coef_, W) and np.allclose(run.intercept_, b)


def test_exercise_modules_share_only_perclib_exercises_public_names():
    import ast

    for path in sorted((ROOT / "notebooks" / "exercises").glob("ex*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 0 and not node.module.startswith("exercises"), path.name
                if node.module == "perclib.exercises":
                    private = [a.name for a in node.names if a.name.startswith("_")]
                    assert not private, (path.name, private)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("exercises") for a in node.names), path.name
