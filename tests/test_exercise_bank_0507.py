"""Notebooks 05-07's registered exercises: right answers accepted, anticipated mistakes get their
hint, the worked solutions are right."""

import re

import numpy as np
import pytest

from perclib import AveragedPerceptron, VotedPerceptron
from perclib import evaluation as ev
from perclib.datasets import worked_example
from perclib.exercises import check, check_function, show_solution


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
    w_c0, _ = ev.lazy_average(X, y, max_iter=3, slip="c starts at 0")
    same = np.all(np.sign(X @ w_c0) == np.sign(X @ AveragedPerceptron(max_iter=3).fit(X, y).coef_))
    assert check("06-5", "no" if same else "yes", because="a positive factor keeps every sign")
    assert check("06-5", "no", because=...).neutral


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
        fb = check_function(
            "06-4", lambda X, y, e, s=slip: ev.lazy_average(X, y, max_iter=e, slip=s)
        )
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
    assert check("05-2", "no", because="t = -0.5 is outside [0, 1]")
    assert not check("05-2", "yes", because="t = -0.5 is outside [0, 1]")
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
    from perclib.exercise_bank_0507 import _multiclass_step

    X, y = make_blobs3()
    run = MulticlassPerceptron(max_iter=3, eta=0.7, record=True).fit(X, y)
    classes = list(run.classes_)
    W, b = np.zeros_like(run.coef_), np.zeros_like(run.intercept_)
    for s in run.history_:
        W, b = _multiclass_step(W, b, np.asarray(s.x, dtype=float), classes.index(s.y), 0.7)
        assert np.allclose(W, s.W) and np.allclose(b, s.b)


def test_07_values_solution_and_hints():
    assert check("07-1", 1) and "first" in check("07-1", 2).message
    x = np.array([1.0, 2.0])
    from perclib import MulticlassPerceptron

    one = MulticlassPerceptron().fit(np.array([x, -x]), [1, 0])
    assert one.n_updates_ == 1 and check("07-2", float(one.coef_[1] @ x + one.intercept_[1]))
    assert "bias" in check("07-2", 5.0).message
    assert check("07-3", 2, because="w+ gains y x and w- loses it") and not check(
        "07-3", 1, because="a b c d"
    )
    code = re.search(r"```python\n(.*?)```", show_solution("07-4").text, re.S).group(1)
    ns = {"np": np}
    exec(code, ns)
    assert check_function("07-4", ns["multiclass_update"])
