"""Self-checks: the trace checker against the lecture's hand-computed trace and a brute-force
oracle; an exercise set's checks on toy exercises of each kind (the notebooks' own exercises:
test_notebook_exercises.py)."""

import functools
import itertools
import pathlib

import numpy as np
import pytest

from perclib import Perceptron
from perclib.datasets import make_separable, worked_example
from perclib.exercises import Feedback, check_epoch, epoch_trace, trace_table

ROOT = pathlib.Path(__file__).resolve().parents[1]

# The COMP90049 lecture, epoch 1 with rule="prediction", theta = (b, w1, w2) from 0:
# (x, theta.x, y_hat, theta after)
LECTURE_EPOCH1 = [
    ((1, 1), 0, 1, (0, 0, 0)),
    ((1, 2), 0, 1, (0, 0, 0)),
    ((0, 0), 0, 1, (-2, 0, 0)),
    ((-1, 0), -2, -1, (-2, 0, 0)),
]
LECTURE_EPOCH2 = [
    ((1, 1), -2, -1, (0, 2, 2)),
    ((1, 2), 6, 1, (0, 2, 2)),
    ((0, 0), 0, 1, (-2, 2, 2)),
    ((-1, 0), -4, -1, (-2, 2, 2)),
]


def oracle(X, y, order, theta, rule, eta=1.0):
    """Brute force, written from the lecture's definitions with plain Python numbers."""
    theta = [float(t) for t in theta]
    rows = []
    for i in order:
        xa = [1.0, *map(float, X[i])]
        a = sum(t * v for t, v in zip(theta, xa))
        y_hat = 1 if a >= 0 else -1
        if rule == "prediction":
            if y_hat != y[i]:
                theta = [t + eta * (y[i] - y_hat) * v for t, v in zip(theta, xa)]
        elif y[i] * a <= 0:
            theta = [t + eta * y[i] * v for t, v in zip(theta, xa)]
        rows.append((tuple(X[i]), a, y_hat, tuple(theta)))
    return rows


def test_lecture_epoch1_is_right():
    fb = check_epoch(LECTURE_EPOCH1)
    assert fb.correct and bool(fb) and fb.step is None
    assert str(fb) == "Right: all 4 steps are correct; θ ends at (-2, 0, 0)."


def test_dict_rows():
    rows = [dict(zip(("x", "theta_x", "y_hat", "theta"), r)) for r in LECTURE_EPOCH1]
    assert check_epoch(rows).correct


def test_second_epoch_alone_from_its_start():
    fb = check_epoch(LECTURE_EPOCH2, theta0=(-2, 0, 0))
    assert fb.correct and fb.message.endswith("θ ends at (-2, 2, 2).")


@pytest.mark.parametrize("order", list(itertools.permutations(range(4))))
def test_every_order_of_epoch1(order):
    X, y = worked_example()
    truth = oracle(X, y, order, (0, 0, 0), "prediction")
    assert check_epoch(truth).correct
    # break one value at each position: the checker names exactly that step
    for k in range(4):
        for field in (1, 3):
            bad = [list(r) for r in truth]
            bad[k][field] = (
                bad[k][field] + 1 if field == 1 else tuple(np.add(bad[k][field], (1, 0, 0)))
            )
            fb = check_epoch([tuple(r) for r in bad])
            assert not fb and fb.step == k + 1, (order, k, field, fb.message)
            assert fb.message.startswith(
                f"step {k + 1} (x = <{X[order[k]][0]:g},{X[order[k]][1]:g}>, epoch 1)"
            )


def test_order_changes_the_result():
    X, y = worked_example()
    reverse = oracle(X, y, [3, 2, 1, 0], (0, 0, 0), "prediction")
    assert check_epoch(reverse).correct
    assert not check_epoch(reverse[:2] + LECTURE_EPOCH1[2:]).correct


def test_epoch_trace_matches_the_oracle_and_the_model():
    X, y = make_separable(12, margin=0.1, random_state=3)
    order = np.random.default_rng(0).permutation(12)
    for rule in ("prediction", "margin"):
        for eta in (1.0, 0.3):
            mine = epoch_trace(X, y, order, rule=rule, eta=eta, theta0=(0.1, -0.2, 0.3))
            ref = oracle(X, y, order, (0.1, -0.2, 0.3), rule, eta)
            for m, r in zip(mine, ref):
                assert m["theta_x"] == pytest.approx(r[1]) and m["y_hat"] == r[2]
                assert np.allclose(m["theta"], r[3])
    clf = Perceptron(rule="prediction", max_iter=1, record=True)
    with pytest.warns(Warning):
        clf.fit(X, y)
    mine = epoch_trace(X, y, range(12))
    assert [m["updated"] for m in mine] == [s.updated for s in clf.history_]


def test_partial_and_blank_answers():
    fb = check_epoch(LECTURE_EPOCH1[:2])
    assert not fb and fb.step is None and fb.message == "All 2 steps so far are right; 2 to go."
    assert check_epoch([]).message.startswith("Your answer has no rows yet")
    assert (
        check_epoch([(..., ..., ..., ...)]).message
        == "step 1 (epoch 1): fill in the point x you visit, then run this cell."
    )
    assert (
        check_epoch([((1, 1), ..., ..., ...)]).message
        == "step 1 (x = <1,1>, epoch 1): fill in your activation θ·x, then run this cell."
    )
    assert check_epoch([((1, 1), 0, None, ...)]).message.endswith(
        "fill in your prediction ŷ, then run this cell."
    )
    assert check_epoch([((1, 1), 0, 1, ...)]).message.endswith(
        "fill in your θ after the step, then run this cell."
    )
    # an unanswered cell is stored neutral (no red cross); a wrong one is not
    for blank in ([], [(..., ..., ..., ...)], [((1, 1), 0, 1, ...)]):
        fb = check_epoch(blank)
        assert fb.neutral and "✘" not in fb._repr_html_() and "✎" in fb._repr_html_()
    wrong = check_epoch([((1, 1), 1, 1, (0, 0, 0))])
    assert not wrong.neutral and "✘" in wrong._repr_html_()


def test_answers_that_are_not_the_data():
    assert (
        "is not one of the data points <1,1>, <1,2>, <0,0>, <-1,0>"
        in check_epoch([((2, 2), 0, 1, (0, 0, 0))]).message
    )
    fb = check_epoch([LECTURE_EPOCH1[0], LECTURE_EPOCH1[0]])
    assert fb.step == 2 and "already visited in this epoch" in fb.message
    assert (
        "should be a point with 2 coordinates"
        in check_epoch([((1, 1, 1), 0, 1, (0, 0, 0))]).message
    )
    assert (
        "should be a point with 2 coordinates"
        in check_epoch([("one-one", 0, 1, (0, 0, 0))]).message
    )
    assert "should be a number" in check_epoch([((1, 1), "zero", 1, (0, 0, 0))]).message
    assert "should be +1 or -1" in check_epoch([((1, 1), 0, 0, (0, 0, 0))]).message
    assert "should be 3 numbers" in check_epoch([((1, 1), 0, 1, (0, 0))]).message
    fb = check_epoch(LECTURE_EPOCH1 + LECTURE_EPOCH1[:1])
    assert "has 5 rows, but an epoch of 4 points has 4" in fb.message


def test_bad_input_raises():
    with pytest.raises(ValueError, match="answer must be a list of rows"):
        check_epoch("((1, 1), 0, 1, (0, 0, 0))")
    with pytest.raises(ValueError, match="Row 1 of your answer must be a tuple"):
        check_epoch([((1, 1), 0, 1)])
    with pytest.raises(ValueError, match="Row 1 of your answer lacks theta"):
        check_epoch([{"x": (1, 1), "theta_x": 0, "y_hat": 1}])
    with pytest.raises(ValueError, match="Give both X and y"):
        check_epoch(LECTURE_EPOCH1, X=np.zeros((4, 2)))
    with pytest.raises(ValueError, match="theta0 must be 3 finite numbers"):
        check_epoch(LECTURE_EPOCH1, theta0=(0, 0))
    with pytest.raises(ValueError, match="order holds the index 7"):
        epoch_trace(*worked_example(), [7])


def test_answer_is_not_modified():
    answer = [list(r) for r in LECTURE_EPOCH1]
    copy = [list(r) for r in LECTURE_EPOCH1]
    check_epoch(answer)
    assert answer == copy


def test_trace_table_is_the_lecture():
    clf = Perceptron(rule="prediction", record=True).fit(*worked_example())
    table = trace_table(clf.history_)
    assert len(table) == 12
    expected = LECTURE_EPOCH1 + LECTURE_EPOCH2
    for row, (x, a, y_hat, theta) in zip(table.rows, expected):
        assert tuple(row["x"]) == x and row["theta_x"] == a and row["y_hat"] == y_hat
        assert tuple(row["theta"]) == theta
    assert table.cells()[2] == ["1", "<0,0>", "0", "+1", "-1", "θ ← (-2, 0, 0)"]
    assert table.cells()[8][-1] == "no"
    assert len(trace_table(clf.history_, epochs=[2, 3])) == 8
    html = table._repr_html_()
    assert html.count("<tr") == 13 and "θ ← (0, 2, 2)" in html and html.count("#fbe3d6") == 3
    assert repr(table) == str(table) and str(table).splitlines()[0].split() == [
        "epoch",
        "x",
        "θ·x",
        "ŷ",
        "y",
        "update",
    ]


def test_trace_table_bad_input():
    with pytest.raises(ValueError, match="history must be a sequence"):
        trace_table(3)
    with pytest.raises(ValueError, match=r"history\[0\] is not a recorded step"):
        trace_table([{"epoch": 1}])


def test_feedback():
    ok = Feedback(True, "Right: k is 2.")
    assert ok and "✔" in ok._repr_html_() and "✘" in Feedback(False, "no")._repr_html_()
    assert repr(ok) == str(ok) == "Right: k is 2."
    assert not Feedback(False, "Fill in k.", neutral=True)


# -- an exercise set: right, wrong with a hint, blank, solution on request, implement ------------

from perclib import exercises as E  # noqa: E402


@pytest.fixture
def toy():
    """An exercise set with a toy exercise of each kind."""
    made = [
        E.Exercise(
            "zz-quick",
            "quick",
            "the answer",
            lambda: 4.0,
            mistakes=(
                E.Mistake(20.0, "Divide by the norm."),
                E.Mistake(lambda: -4.0, "Check the sign."),
            ),
            hint="Recompute it.",
            solution="SECRET WORKING: 20 / 5 = 4.",
        ),
        E.Exercise(
            "zz-impl",
            "implement",
            "your f",
            lambda rng: [((x,), 2 * x + 1) for x in rng.normal(size=(10, 3))],
            mistakes=(E.Mistake(lambda x: 2 * x, "You forgot the bias."),),
            hint="Compare with the formula.",
            solution="return 2 * x + 1",
            seed=5,
        ),
        E.Exercise(
            "zz-pick",
            "choice",
            "your point",
            None,
            judge=lambda a: None if a > 0 else "it must be positive.",
            solution="any positive number",
        ),
        E.Exercise(
            "zz-why",
            "explain",
            "your conclusion",
            "yes",
            mistakes=(E.Mistake("no", "Look at the corner (1, 1)."),),
            reasons={
                "a": "the line x1 + x2 = 1.5 separates them",
                "b": "every data set of four points is separable",
                "c": "the weights can be as large as we like",
            },
            reason="a",
            reason_hints={"b": "XOR has four points too."},
            solution="yes, because ...",
        ),
    ]
    exercises = E.ExerciseSet()
    for ex in made:
        assert exercises.add(ex) is ex
    assert len(exercises) == 4 and [ex.id for ex in exercises] == [ex.id for ex in made]
    return exercises


def test_right_answer(toy):
    fb = toy.check("zz-quick", 4)
    assert fb and fb.message == "Right: the answer is correct." and "✔" in fb._repr_html_()


def test_wrong_answer_gets_the_hint_of_its_mistake_not_the_answer(toy):
    for answer, hint in (
        (20, "Divide by the norm."),
        (-4, "Check the sign."),
        (7, "Recompute it."),
    ):
        fb = toy.check("zz-quick", answer)
        assert not fb and not fb.neutral and hint in fb.message and "✘" in fb._repr_html_()
        assert "SECRET" not in fb.message and "4" not in fb.message.replace("zz-", "")
        assert "show_solution('zz-quick')" in fb.message


def test_blank_answer_is_neutral(toy):
    for exercise_id in ("zz-quick", "zz-pick", "zz-why"):
        fb = toy.check(exercise_id, ...)
        assert not fb and fb.neutral and "then run this cell" in fb.message
        assert "✘" not in fb._repr_html_() and "#D55E00" not in fb._repr_html_()
    assert toy.check_function("zz-impl", ...).neutral
    assert toy.check_function("zz-impl", lambda x: None).neutral


def test_solution_only_on_request(toy):
    sol = toy.show_solution("zz-quick")
    assert "SECRET WORKING" in str(sol) and "SECRET WORKING" in sol._repr_markdown_()


def test_choice_grades_the_students_own_choice(toy):
    assert toy.check("zz-pick", 0.5) and toy.check("zz-pick", 17)
    fb = toy.check("zz-pick", -1)
    assert not fb and "it must be positive." in fb.message


def test_explain_needs_the_right_reason_and_checks_the_conclusion(toy):
    for because in (None, ...):  # no reason yet: the options are listed, neutrally
        fb = toy.check("zz-why", "yes", because=because)
        assert not fb and fb.neutral and "x1 + x2 = 1.5" in fb.message and '"c"' in fb.message
    assert toy.check("zz-why", "Yes ", because="a")
    assert toy.check("zz-why", "yes", because=" (A) ")
    assert toy.check("zz-why", "yes", because="The line x1 + x2 = 1.5 separates them.")
    fb = toy.check("zz-why", "no", because="a")
    assert not fb and "Look at the corner (1, 1)." in fb.message


def test_implement_checker_accepts_a_right_function_and_is_deterministic(toy):
    fb = toy.check_function("zz-impl", lambda x: 1 + x * 2)
    assert fb and "all 10 random cases" in fb.message and "seed 5" in fb.message
    bug = lambda x: 2 * x + 1 + (x[0] > 1.0)  # noqa: E731  (wrong on some cases only)
    assert toy.check_function("zz-impl", bug).message == toy.check_function("zz-impl", bug).message


@pytest.mark.parametrize(
    "bug, expect",
    [
        (lambda x: 2 * x, "You forgot the bias."),  # an anticipated mistake
        (lambda x: 2 * x + 1.001, "Compare with the formula."),  # an unanticipated one
        (lambda x: (2 * x + 1)[:2], "Compare with the formula."),  # wrong shape
        (lambda x: "two x plus one", "Compare with the formula."),  # not a number
        (lambda x: 1 / 0, "raised ZeroDivisionError"),  # it crashes
    ],
)
def test_implement_checker_catches_buggy_implementations(toy, bug, expect):
    fb = toy.check_function("zz-impl", bug)
    assert (
        not fb and not fb.neutral and expect in fb.message and "return 2 * x + 1" not in fb.message
    )


def test_implement_checker_catches_changing_the_input(toy):
    def in_place(x):
        x *= 2
        x += 1
        return x

    fb = toy.check_function("zz-impl", in_place)
    assert not fb and "changes its inputs" in fb.message


def test_wrong_entry_point_and_unknown_ids(toy):
    with pytest.raises(ValueError, match="check_function"):
        toy.check("zz-impl", 3)
    with pytest.raises(ValueError, match="check\\("):
        toy.check_function("zz-quick", abs)
    with pytest.raises(ValueError, match="no exercise 'nope'.*zz-impl, zz-pick"):
        toy.check("nope", 1)
    with pytest.raises(ValueError, match="already in this set"):
        toy.add(E.Exercise("zz-quick", "quick", "x", 1, solution=""))
    with pytest.raises(ValueError, match="kind"):
        toy.add(E.Exercise("zz-new", "essay", "x", 1, solution=""))


# -- check_epoch without reveal (the notebooks' default): hints, never the right value -------------


@pytest.mark.parametrize(
    "row, hint",
    [
        (
            ((0, 0), 1, 1, (-2, 0, 0)),
            "which is not b + w1·x1 + w2·x2 for θ = (0, 0, 0)",
        ),
        (((0, 0), 0, -1, (-2, 0, 0)), "sign(0) = +1"),
        (((0, 0), 0, 1, (0, 0, 0)), "this step is a mistake, so θ changes (ŷ ≠ y)"),
        (((0, 0), 0, 1, (2, 0, 0)), "not minus"),
        (((0, 0), 0, 1, (-1, 0, 0)), "margin rule's step"),
        (
            ((0, 0), 0, 1, (-5, 0, 0)),
            "recompute θ + η(y − ŷ)(1, x) from θ = (0, 0, 0)",
        ),
    ],
)
def test_hints_name_the_kind_of_mistake_without_the_value(row, hint):
    answer = LECTURE_EPOCH1[:2] + [row]
    fb = check_epoch(answer)
    assert not fb and fb.step == 3 and hint in fb.message
    assert "should be" not in fb.message and "(-2, 0, 0)" not in fb.message


def test_hints_for_the_bias_and_for_no_update():
    fb = check_epoch([((1, 1), 0, 1, (1, 1, 1))])
    assert "ŷ = y here, so the rule makes no update" in fb.message and "should be" not in fb.message
    fb = check_epoch([((1, 1), -2, -1, (0, 1, 1))], theta0=(0, -1, -1))  # w moved, b did not
    assert "the bias changes too" in fb.message
    fb = check_epoch(
        [((1, 1), 0, 1, (0, 0, 0))], theta0=(-2, 1, 1)
    )  # 1 + 1 - 2 = 0; left out b gives 2
    assert fb.step == 1
    fb = check_epoch([((1, 1), 2, 1, (0, 0, 0))], theta0=(-2, 1, 1))
    assert "leaves out the bias" in fb.message


# -- every valid form, form hints, explain by reasons, implement fallback, guarded reveal ---------

from decimal import Decimal  # noqa: E402
from fractions import Fraction  # noqa: E402


def _one(exercise):
    exercises = E.ExerciseSet()
    exercises.add(exercise)
    return exercises


@pytest.mark.parametrize(
    "answer",
    [2, 2.0, "2", " 2 ", "+2", "4/2", "2.0", Fraction(2), Decimal("2.0"), np.int64(2),
     np.float32(2), [2], (2,), np.array([2.0]), np.array(2)],
)  # fmt: skip
def test_every_valid_form_of_a_number_is_accepted(answer):
    exercises = _one(E.Exercise("zz-n", "quick", "k", 2, solution="", hint="METHOD HINT"))
    assert exercises.check("zz-n", answer), answer


@pytest.mark.parametrize("answer", [" -1 ", "−1", "-2/2", -1.0000004])
def test_negative_and_fraction_strings_within_tol(answer):
    exercises = _one(E.Exercise("zz-n", "quick", "k", -1, solution="", tol=5e-4))
    assert exercises.check("zz-n", answer)
    assert not exercises.check("zz-n", -1.001)  # outside the exercise's tolerance


def test_a_half_in_every_form():
    exercises = _one(E.Exercise("zz-h", "quick", "k", 0.5, solution=""))
    for answer in ("1/2", "0.5", ".5", Fraction(1, 2), Decimal("0.5"), [np.float64(0.5)]):
        assert exercises.check("zz-h", answer), answer
    assert not exercises.check("zz-h", "1/3")


def test_vectors_as_lists_tuples_arrays_and_strings():
    exercises = _one(E.Exercise("zz-v", "quick", "θ", (1.0, -2.0, 0.5), solution=""))
    for answer in ([1, -2, 0.5], (1, -2, "1/2"), np.array([1.0, -2.0, 0.5]), ["1", "-2", "0.5"]):
        assert exercises.check("zz-v", answer), answer
    assert not exercises.check("zz-v", (1, 2, 0.5))


def test_words_case_space_punctuation_blind_with_synonyms_and_yes_no():
    exercises = E.ExerciseSet()
    exercises.add(E.Exercise("zz-no", "quick", "the answer", "no", solution=""))
    exercises.add(
        E.Exercise("zz-sign", "quick", "h(x)", -1, solution="", words={"Deny": -1, "approve": 1})
    )
    exercises.add(E.Exercise("zz-rule", "quick", "the rule", "margin", solution=""))
    for answer in ("No.", " no ", "NO!", "No, it is not", False, np.False_):
        assert exercises.check("zz-no", answer), answer
    for answer in ("yes", "Yes!", True, "Yes, it is"):
        assert not exercises.check("zz-no", answer)
    for answer in ("deny", " DENY. ", -1, "-1", [-1]):
        assert exercises.check("zz-sign", answer), answer
    assert not exercises.check("zz-sign", "approve") and not exercises.check("zz-sign", "+1")
    assert exercises.check("zz-rule", " Margin! ") and not exercises.check("zz-rule", "prediction")


@pytest.mark.parametrize(
    "expected, answer, form",
    [
        (2, "a couple", "give a number"),
        (2, True, "give a number"),
        (2, [1, 2], "give a number"),
        (2, float("nan"), "give a number"),
        ((1, 2, 3), (1, 2), "give 3 numbers"),
        ((1, 2, 3), "1 2 3", "give 3 numbers"),
        ("no", "maybe", 'give "yes" or "no"'),
        ("no", 0, 'give "yes" or "no"'),
        ("margin", 3, "give a word"),
        (("no", 1600), ("no",), 'give 2 parts: "yes" or "no", a number'),
    ],
)
def test_a_wrong_form_gets_a_form_hint_never_the_method_hint(expected, answer, form):
    exercises = _one(
        E.Exercise("zz-f", "quick", "k", expected, solution="", hint="METHOD HINT",
                   mistakes=(E.Mistake(expected, "MISTAKE HINT"),))
    )  # fmt: skip
    fb = exercises.check("zz-f", answer)
    assert not fb and not fb.neutral and form in fb.message, fb.message
    assert "METHOD HINT" not in fb.message and "MISTAKE HINT" not in fb.message
    assert "show_solution" not in fb.message


def test_a_readable_wrong_answer_still_gets_the_method_hint():
    exercises = _one(E.Exercise("zz-f", "quick", "k", 2, solution="", hint="METHOD HINT"))
    assert "METHOD HINT" in exercises.check("zz-f", "3").message


def test_explain_cannot_be_passed_by_a_guess_or_filler(toy):
    assert not toy.check("zz-why", "yes", because="blah blah blah blah")
    assert "give because as one of" in toy.check("zz-why", "yes", because="blah").message
    wrong_reason = toy.check("zz-why", "yes", because="c")  # right conclusion, wrong reason
    assert not wrong_reason and not wrong_reason.neutral
    assert "does not hold here" in wrong_reason.message
    assert '"a"' not in wrong_reason.message and "reason 'a'" not in wrong_reason.message
    hinted = toy.check("zz-why", "yes", because="b")  # the option's own hint
    assert not hinted and "XOR has four points too." in hinted.message
    assert "x1 + x2 = 1.5" not in hinted.message  # the right option is not named


def test_explain_listing_the_options_does_not_grade_the_conclusion(toy):
    right, wrong = toy.check("zz-why", "yes"), toy.check("zz-why", "no")
    assert right.neutral and wrong.neutral and right.message == wrong.message


def test_explain_must_have_reasons_or_a_judge():
    exercises = E.ExerciseSet()
    with pytest.raises(ValueError, match="needs reasons"):
        exercises.add(E.Exercise("zz-e", "explain", "k", "yes", solution=""))
    with pytest.raises(ValueError, match="reason must be one of"):
        exercises.add(
            E.Exercise("zz-e", "explain", "k", "yes", solution="", reasons={"a": "x"}, reason="b")
        )
    with pytest.raises(ValueError, match="reason_hints has keys"):
        exercises.add(
            E.Exercise("zz-e", "explain", "k", "yes", solution="", reasons={"a": "x"},
                       reason="a", reason_hints={"z": "?"})
        )  # fmt: skip
    judged = E.Exercise(
        "zz-j", "explain", "your pair", None, solution="",
        judge=lambda a: None if tuple(a) == ("no", 1600) else "check the second consequence.",
    )  # fmt: skip
    exercises.add(judged)  # a second consequence instead of reasons
    assert exercises.check("zz-j", ("no", 1600))
    assert "second consequence" in exercises.check("zz-j", ("no", 40)).message


@pytest.fixture
def update_exercise():
    def step(w, b, x, y, eta):
        return (w + eta * y * x, b + eta * y)

    def cases(rng):
        return [
            ((w, 0.5, x, 1.0, 1.0), step(w, 0.5, x, 1.0, 1.0))
            for w, x in zip(rng.normal(size=(5, 2)), rng.normal(size=(5, 2)))
        ]

    exercises = _one(
        E.Exercise("zz-u", "implement", "your update", cases, solution="SECRET",
                   hint="Compare with the rule.", returns=("w", "b"))
    )  # fmt: skip
    return exercises, step


def test_implement_accepts_a_tuple_or_a_list(update_exercise):
    exercises, step = update_exercise
    assert exercises.check_function("zz-u", step)
    assert exercises.check_function("zz-u", lambda w, b, x, y, eta: list(step(w, b, x, y, eta)))


def test_implement_fallback_names_the_input_as_given_and_what_differs(update_exercise):
    exercises, step = update_exercise
    cases = exercises["zz-u"].expected(np.random.default_rng(0))
    w0 = cases[0][0][0]
    fb = exercises.check_function("zz-u", lambda w, b, x, y, eta: (step(w, b, x, y, eta)[0], b))
    assert not fb and "your b is off; your w matches" in fb.message
    assert f"w = [{E._num(w0[0])}, {E._num(w0[1])}], b = 0.5, x = [" in fb.message
    fb = exercises.check_function("zz-u", lambda w, b, x, y, eta: (np.r_[w, 0.0], b + 1))
    assert "your w has shape (3,), expected 2 entries" in fb.message
    fb = exercises.check_function("zz-u", lambda w, b, x, y, eta: (w,))
    assert "returns 1 value(s); expected 2, (w, b)" in fb.message
    fb = exercises.check_function("zz-u", lambda *args: (args[0], args[1]))  # no names to use
    assert "argument 1 = [" in fb.message
    ref_w = cases[0][1][0]
    assert E._num(ref_w[0]) not in fb.message.split("the first is")[0]  # no expected value


def test_implement_fallback_keeps_nested_inputs_nested():
    exercises = _one(
        E.Exercise("zz-m", "implement", "your f",
                   lambda rng: [((np.arange(4.0).reshape(2, 2),), 1.0)], solution="")
    )  # fmt: skip
    fb = exercises.check_function("zz-m", lambda W: 2.0)
    assert "W = [[0, 1], [2, 3]]: your result is off" in fb.message


def test_guarded_reveal_shows_only_after_a_right_answer_or_the_solution(toy, capsys):
    assert not toy.answered("zz-quick")
    note = toy.reveal("zz-quick", lambda: "THE ANSWER")
    assert note.neutral and "THE ANSWER" not in str(note) and "✘" not in note._repr_html_()
    toy.check("zz-quick", 7)  # a wrong answer reveals nothing
    assert not toy.answered("zz-quick") and toy.reveal("zz-quick", lambda: "A") != "A"
    toy.check("zz-quick", "4")
    assert toy.answered("zz-quick") and toy.reveal("zz-quick", lambda: "A") == "A"
    toy.show_solution("zz-pick")
    assert toy.answered("zz-pick")
    assert toy.check_function("zz-impl", lambda x: 2 * x + 1) and toy.answered("zz-impl")
    with pytest.raises(ValueError, match="no exercise"):
        toy.answered("nope")


def test_answered_is_per_set_not_global(toy):
    toy.check("zz-quick", 4)
    other = _one(E.Exercise("zz-quick", "quick", "k", 4, solution=""))
    assert toy.answered("zz-quick") and not other.answered("zz-quick")


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), np.nan, -np.inf])
def test_check_epoch_never_accepts_nan_or_inf(bad):
    for row in (
        ((1, 1), bad, 1, (0, 0, 0)),  # the activation
        ((1, 1), 0, 1, (bad, 0, 0)),  # θ after the step
    ):
        fb = check_epoch([row])
        assert not fb and fb.step == 1 and not fb.neutral


# -- refusing a function that reaches a library: one test per way of reaching it -----------------

import sklearn.linear_model as sk_linear  # noqa: E402
from sklearn.linear_model import Perceptron as SkPerceptron  # noqa: E402

LIBRARIES = ("sklearn", "perclib")
_MODEL = SkPerceptron()


def _own(X, y):
    return np.sign(X @ np.ones(X.shape[1]) + y.sum())


def _via_global_module(X, y):
    return sk_linear.Perceptron().fit(X, y)


def _via_global_class(X, y):
    return SkPerceptron().fit(X, y)


def _via_global_object(X, y):
    return _MODEL.fit(X, y)


def _via_import_in_body(X, y):
    import sklearn.linear_model

    return sklearn.linear_model.Perceptron().fit(X, y)


def _via_from_import_in_body(X, y):
    from perclib import Perceptron as P

    return P().fit(X, y)


def _via_helper(X, y):
    return _via_global_class(X, y)


def _via_helper_of_a_helper(X, y):
    return _via_helper(X, y)


def _via_inner_function(X, y):
    def fit(X):
        return SkPerceptron().fit(X, y)

    return fit(X)


def _closure_over(value):
    def wrapper(X, y):
        return value(X, y)

    return wrapper


def _recursive(X, y, depth=0):
    return _recursive(X, y, depth + 1) if depth < 1 else _own(X, y)


def _via_default(X, y, model=SkPerceptron):
    return model().fit(X, y)


def _via_keyword_default(X, y, *, fit=_via_global_class):
    return fit(X, y)


_PARTIAL = functools.partial(_via_global_class)


def _via_partial(X, y):
    return _PARTIAL(X, y)


_FIT = functools.partial(_MODEL.fit)


def _via_partial_default(X, y, fit=_FIT):
    return fit(X, y)


@pytest.mark.parametrize(
    "func, names",
    [
        (_via_global_module, {"sk_linear"}),
        (_via_global_class, {"SkPerceptron"}),
        (_via_global_object, {"_MODEL"}),
        (_via_import_in_body, {"sklearn.linear_model"}),
        (_via_from_import_in_body, {"perclib", "Perceptron"}),
        (_via_helper, {"SkPerceptron"}),
        (_via_helper_of_a_helper, {"SkPerceptron"}),
        (_via_inner_function, {"SkPerceptron"}),
        (lambda X, y: SkPerceptron().fit(X, y), {"SkPerceptron"}),
        (_closure_over(SkPerceptron), {"value"}),  # a closure variable bound to a library's class
        (_closure_over(_via_global_object), {"_MODEL"}),  # a closure over a helper that wraps
        (_closure_over(_own), set()),
        (_own, set()),
        (_recursive, set()),  # a function that calls itself is searched once
        (_via_default, {"model"}),  # an argument's default bound to a library's class
        (_via_keyword_default, {"SkPerceptron"}),  # a keyword-only default: a helper that wraps
        (_via_partial, {"SkPerceptron"}),  # functools.partial of a helper that wraps
        (_via_partial_default, {"fit"}),  # a partial of a library's method as a default
    ],
)
def test_library_uses_finds_each_way_of_reaching_a_library(func, names):
    found = E.library_uses(func, LIBRARIES)
    assert names <= found if names else found == set()  # an attribute named like a global counts
    assert E.library_uses(func, ("scipy",)) == set()


def test_library_uses_names_only_the_packages_asked_for():
    assert E.library_uses(_via_global_class, ("scipy",)) == set()
    assert E.library_uses(_own, ("numpy",)) == {"np"}
    assert E.library_uses(np.sum, LIBRARIES) == set()  # no Python code to read


def test_own_code_refuses_a_wrapper_but_not_an_own_loop_nor_an_anticipated_mistake():
    def total(X):
        out = 0.0
        for row in X:
            for v in row:
                out += v
        return out

    def wrapped_total(X):  # an anticipated mistake that calls a library is judged, not refused
        return float(SkPerceptron().fit(X, [1, -1, 1]).coef_.sum() * 0 + X.sum())

    exercises = _one(
        E.Exercise(
            "zz-own", "implement", "your total",
            lambda rng: [((X,), X.sum()) for X in rng.normal(size=(4, 3, 2))],
            solution="", mistakes=(E.Mistake(wrapped_total, "An anticipated slip."),),
            own_code=E.OwnCode(LIBRARIES, "Add the entries in your own loop."),
        )
    )  # fmt: skip
    assert exercises.check_function("zz-own", total)
    fb = exercises.check_function("zz-own", lambda X: _via_global_object(X, None) and X.sum())
    assert not fb and fb.message == (
        "Not yet: your function reaches a library through _MODEL. Add the entries in your own loop."
    )
    assert exercises.check_function("zz-own", wrapped_total)
    with pytest.raises(ValueError, match="own_code is for implement"):
        exercises.add(E.Exercise("zz-q", "quick", "k", 1, solution="", own_code=E.OwnCode((), "?")))


# -- the answer readers every exercise set shares -------------------------------------------------


@pytest.mark.parametrize(
    "text, count, parts",
    [
        ("no, 1/2", 2, ("no", "1/2")),
        ("(no, -0.5)", 2, ("no", "-0.5")),
        ("[3,-2,1]", 3, ("3", "-2", "1")),
        ("3 -2 1", 3, "3 -2 1"),  # spaces only with spaces=True
        ("(3, -2), 1", 3, ("3", "-2", "1")),
        ("0,8; -0,4; 0,4", 3, ("0.8", "-0.4", "0.4")),  # semicolons: decimal commas
        ("(0,8; −0,4; 0,4)", 3, ("0.8", "−0.4", "0.4")),
        ("2 eta y x, 12", 2, ("2 eta y x", "12")),  # commas before spaces
        ("no; it is not, -0.5", 2, ("no; it is not", "-0.5")),  # a comma that is not decimal
        ("3, -2", 3, "3, -2"),  # too few parts: unchanged, for the form hint
        ("3", 1, ("3",)),
    ],
)
def test_read_parts(text, count, parts):
    assert E.read_parts(text, count) == parts


def test_read_parts_by_spaces_only_when_asked():
    assert E.read_parts("3 -2 1", 3, spaces=True) == ("3", "-2", "1")
    assert E.read_parts("[3 -2] 1", 3, spaces=True) == ("3", "-2", "1")
    assert E.read_parts("2 eta y x, 12", 2, spaces=True) == ("2 eta y x", "12")


def test_read_number_takes_a_number_alone_in_a_list_and_refuses_several():
    assert E.read_number(["7"]) == E.read_number(np.array([[7]])) == E.read_number((7.0,)) == 7.0
    for bad in ([1, 2], [], [[1], [2, 3]], [True], ["x"]):
        assert E.read_number(bad) is None, bad


def test_parts_as_one_string_with_synonyms_in_any_set():
    exercises = _one(
        E.Exercise("zz-p", "quick", "the pair", (2, 0.5), solution="", words={"2yx": 2},
                   mistakes=(E.Mistake((2, -0.5), "Check the sign."),))
    )  # fmt: skip
    for answer in ("2, 1/2", "2yx, 0.5", "(2; 0,5)", ("2yx", "1/2")):
        assert exercises.check("zz-p", answer), answer
    assert "Check the sign." in exercises.check("zz-p", "2yx; -0,5").message
    assert "give 2 numbers" in exercises.check("zz-p", "2, 1, 0").message
    assert "give 2 numbers" in exercises.check("zz-p", "2 0.5").message


def test_count_reasons_judges_the_answer_first_then_counts_the_wrong_reasons(toy):
    counted = E.ExerciseSet(count_reasons=True)
    counted.add(toy["zz-why"])
    assert "Look at the corner" in counted.check("zz-why", "no", because="b").message
    first = counted.check("zz-why", "yes", because="b")
    second = counted.check("zz-why", "yes", because="c")
    assert not first and not second and "1 of 2 wrong ones" in first.message
    assert "2 of 2 wrong ones" in second.message
    assert first.message.replace("'b'", "'c'").replace("1 of", "2 of") == second.message
    assert "XOR" not in first.message  # no option's own hint tells one option from another
    right = counted.check("zz-why", "yes", because="a")
    assert right and "after 2 wrong reason(s)" in right.message and counted.answered("zz-why")
    assert "XOR" in toy.check("zz-why", "yes", because="b").message  # the default set's hint
