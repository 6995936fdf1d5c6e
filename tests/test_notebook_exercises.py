"""The notebooks' exercises (notebooks/exercises/): each right answer passes, each anticipated
mistake gets its hint, judged answers are graded on the student's own choice, the worked solutions
are right, and each notebook loads its own exercises."""

import importlib
import itertools
import json
import pathlib
import re
import sys

import numpy as np
import pytest

from perclib import AveragedPerceptron, Perceptron, VotedPerceptron
from perclib.datasets import worked_example
from perclib.exercises import epoch_trace
from perclib.experiments import lazy_average

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "notebooks"))  # where the notebooks import them from
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
        assert module.check == module.EXERCISES.check
    with pytest.raises(ValueError, match="no exercise '02-1'; the exercises are: 01-1, 01-2"):
        MODULES["01"].check("02-1", 1)


# -- each right answer passes, each anticipated mistake gets its hint ---------------------------


def test_every_exercise_has_a_solution_and_its_mistakes_are_wrong():
    assert len(EXERCISES) == 33
    for ex in EXERCISES:
        assert _value(ex.solution).strip(), ex.id
        if ex.kind in ("implement",) or ex.judge is not None:
            continue
        right = _value(ex.expected)
        assert check(ex.id, right, because=ex.reason)
        for m in ex.mistakes:
            wrong = _value(m.value)
            fb = check(ex.id, wrong, because=ex.reason)
            assert not fb and m.hint in fb.message, (ex.id, wrong)


# 06-4 is tested below: two of its anticipated mistakes (c from 0, the mean of w_1..w_T) are one
# vector, so the first one's hint is always the one given.
@pytest.mark.parametrize("exercise_id", ["01-4", "02-4", "03-4", "04-4", "05-4", "07-4"])
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


def test_01_signed_distance_and_and_separator():
    assert check_function("01-4", lambda w, b, x: (w @ x + b) / np.linalg.norm(w))
    assert check("01-5", (1, 1, -1.5), because="only <1,1> is +1, cut it off")
    assert check(
        "01-5", (2.0, 3.0, -4.0), because="only <1,1> is +1, cut it off"
    )  # another right choice
    fb = check("01-5", (1, 1, -1), because="only <1,1> is +1, cut it off")
    assert not fb and "<0,1> (a = 0)" in fb.message
    assert not check("01-5", "yes", because="only <1,1> is +1, cut it off")


def test_03_choices_are_graded_on_the_students_own_choice():
    X, y = worked_example()
    for perm in itertools.permutations(range(4)):
        order = [tuple(X[i]) for i in perm]
        ends = epoch_trace(X, y, perm)[-1]["theta"].tolist() == [-2, 0, 0]
        assert check("03-2", (order, "yes" if ends else "no"))
        assert not check("03-2", (order, "no" if ends else "yes"))
    assert not check("03-2", ([(1, 1)] * 4, "yes"))
    assert (
        check("03-2", ([..., ..., ..., ...], ...)).neutral and check("03-2", (order, ...)).neutral
    )
    blank = check("03-1", [((1, 1), ..., ..., ...)])
    assert blank.neutral
    rows = [
        (r["x"], r["theta_x"], r["y_hat"], r["theta"])
        for r in epoch_trace(X, y, range(4), theta0=(1, -1, 0))
    ]
    assert check("03-1", rows)
    assert not check("03-1", LECTURE_EPOCH1)  # the lecture's start is not this one
    assert check("03-5", 0, because="a")
    assert not check("03-5", 0, because="b")  # the right conclusion with a wrong reason
    assert "lecture's run" in check("03-5", 5, because="a").message


def test_04_exercises():
    from perclib.datasets import make_separable
    from perclib.theory import margin, mistake_bound

    # 3: the factor, reasoned; a no-bias perceptron's run is the same on 10 x~ (so is its bound)
    X, y = make_separable(40, 2, margin=0.1, random_state=0)
    X_aug = np.c_[np.ones(len(X)), X]
    runs = [Perceptron(fit_intercept=False, record=True).fit(c * X_aug, y) for c in (1, 10)]
    assert [[s.index for s in r.history_ if s.updated] for r in runs][0] == [
        s.index for s in runs[1].history_ if s.updated
    ]
    assert check("04-3", 1) and not check("04-3", 100)
    assert "γ*² grows 100 times" in check("04-3", 100).message
    # with a bias the factor is neither 1 nor 100, which is why the exercise removes the bias
    factor = mistake_bound(10 * X, y) / mistake_bound(X, y)
    assert not np.isclose(factor, 1) and not np.isclose(factor, 100)
    # 4: the reference is perclib.theory.margin, an independent implementation
    for (Xc, yc, w, b), ref in get_exercise("04-4").expected(np.random.default_rng(1)):
        assert ref == pytest.approx(margin(Xc, yc, w, b))
    assert check_function("04-4", margin)
    fb = check_function("04-4", lambda X, y, w, b: np.min(y * (X @ w + b)) / np.linalg.norm(w))
    assert not fb and "geometric distance" in fb.message
    # 5: the conclusion is checked, the argument is required, blanks are neutral
    why = "gamma* is unknown, so no count of updates exceeds a known bound"
    assert check("04-5", ("no", 1600), because=why)
    assert check("04-5", ("No ", 1600.0), because=why)
    assert "needs γ*" in check("04-5", ("yes", 1600), because=why).message
    assert "its square" in check("04-5", ("no", 40), because=why).message
    assert not check("04-5", ("no", 2000), because=why)
    assert check("04-5", ..., because=why).neutral
    assert check("04-5", ("no", ...), because=why).neutral
    assert check("04-5", ("no", 1600))  # the second consequence, 1600, is the check
    for ex in ("04-3", "04-4", "04-5"):
        sol = str(show_solution(ex))
        assert sol.strip() and ("1600" in sol if ex == "04-5" else True)


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
    X, y = worked_example()
    assert check("06-1", 1 + 3 * len(X))  # c = 1 + T, counted by hand
    assert not check("06-1", 3 * len(X))
    vp = VotedPerceptron(max_iter=3).fit(X, y)  # the counts and signs of the question
    assert vp.counts_.tolist() == [0, 2, 4, 6]
    assert np.where(vp.intercepts_ >= 0, 1, -1).tolist() == [1, 1, 1, -1]
    assert check("06-2", int(vp.predict([[0.0, 0.0]])[0]))
    assert not check("06-2", -1)
    assert check("06-3", 12 / 13) and not check("06-3", 1.0) and not check("06-3", 13 / 12)
    for form in (0.923, "0.9231", "12/13", [12 / 13]):  # the precision its solution asks for
        assert check("06-3", form)
    for form in ("+1", "1", 1.0, [1]):
        assert check("06-2", form)
    assert "sign(0)" not in check("06-2", -1).message  # the hint does not state the answer
    w_c0, _ = lazy_average(X, y, max_iter=3, slip="c starts at 0")
    same = np.all(np.sign(X @ w_c0) == np.sign(X @ AveragedPerceptron(max_iter=3).fit(X, y).coef_))
    assert same
    for form in (("no", "a"), ("No.", "(a)"), ("No, it is not", "A")):
        assert check("06-5", form)
    for wrong in (("yes", "a"), ("no", "b"), ("no", "c"), ("no", "d"), ("yes", "d")):
        assert not check("06-5", wrong)  # a right conclusion needs the right reason
    assert check("06-5", (..., ...)).neutral


def test_06_4_solution_passes_and_variants_get_their_hint():
    text = show_solution("06-4").text
    code = re.search(r"```python\n(.*)```", text, re.S).group(1)
    ns = {"np": np}
    exec(code, ns)
    assert check_function("06-4", ns["averaged_perceptron"])
    for slip, word in [
        ("c starts at 0", "starts at 0"),
        ("c counts only mistakes", "only on mistakes"),
    ]:
        fb = check_function("06-4", lambda X, y, e, s=slip: lazy_average(X, y, max_iter=e, slip=s))
        assert not fb and word in fb.message
    last = check_function("06-4", lambda X, y, e: (np.zeros(X.shape[1]), 0.0))
    assert not last and "show_solution" in last.message


def test_05_values_and_hints():
    from perclib import PocketPerceptron
    from perclib.datasets import make_xor

    X, y = make_xor()
    W = np.array(
        [[-1, 0, 0], [0, 0, 1], [1, 1, 1], [0, 0, 0]], dtype=float
    )  # the 4 vectors the run visits
    by_hand = min(int(np.sum(np.where(X @ w[1:] + w[0] >= 0, 1, -1) != y)) for w in W)
    assert by_hand == PocketPerceptron(max_iter=20).fit(X, y).pocket_mistakes_
    assert check("05-1", by_hand) and "best *visited*" not in check("05-1", 1).message
    assert "visits" in check("05-1", 1).message
    assert check("05-2", "no", because="a")
    assert not check("05-2", "yes", because="a") and not check("05-2", "no", because="c")
    m = 0.25
    assert check("05-3", (max(0, 1 - m), max(0, -m)))
    assert "Swapped" in check("05-3", (max(0, -m), max(0, 1 - m))).message


def test_05_4_solution_passes_and_mistakes_get_their_hint():
    code = re.search(r"```python\n(.*?)```", show_solution("05-4").text, re.S).group(1)
    ns = {"np": np}
    exec(code, ns)
    assert check_function("05-4", ns["logistic_update"])
    from perclib.sgd import loss_derivative

    def oracle(w, b, x, y, eta):  # independent: -eta * dl/da * (x, 1)
        s = -eta * float(loss_derivative("logistic", [y], [w @ x + b])[0])
        return w + s * x, b + s

    assert check_function("05-4", oracle)
    no_bias = check_function("05-4", lambda w, b, x, y, eta: (oracle(w, b, x, y, eta)[0], b))
    assert not no_bias and "bias" in no_bias.message


# Three epochs over overlapping blobs: the fit stops before converging, and says so.
@pytest.mark.filterwarnings("ignore:MulticlassPerceptron stopped after max_iter=3")
def test_07_reference_step_agrees_with_perclib_multiclass():
    from perclib import MulticlassPerceptron
    from perclib.datasets import make_blobs3

    _multiclass_step = MODULES["07"]._multiclass_step

    X, y = make_blobs3()
    run = MulticlassPerceptron(max_iter=3, eta=0.7, record=True).fit(X, y)
    classes = list(run.classes_)
    W, b = np.zeros_like(run.coef_), np.zeros_like(run.intercept_)
    for s in run.history_:
        W, b = _multiclass_step(W, b, np.asarray(s.x, dtype=float), classes.index(s.y), 0.7)
        assert np.allclose(W, s.W) and np.allclose(b, s.b)


def test_07_values_solution_and_hints():
    assert check("07-1", 1) and check("07-1", "1") and check("07-1", 1.0)
    assert "first" not in check("07-1", 2).message and "tie" in check("07-1", 2).message
    x = np.array([1.0, 2.0])
    from perclib import MulticlassPerceptron

    one = MulticlassPerceptron().fit(np.array([x, -x]), [1, 0])
    assert one.n_updates_ == 1 and check("07-2", float(one.coef_[1] @ x + one.intercept_[1]))
    assert "bias" in check("07-2", 5.0).message
    assert check("07-3", (2, "b")) and check("07-3", ("2", "(B)")) and check("07-3", (2.0, "b"))
    for wrong in ((1, "a"), (2, "a"), (2, "c"), (2, "d"), (-2, "b")):
        assert not check("07-3", wrong)
    code = re.search(r"```python\n(.*?)```", show_solution("07-4").text, re.S).group(1)
    ns = {"np": np}
    exec(code, ns)
    assert check_function("07-4", ns["multiclass_update"])
