"""Notebook 08's exercises: every valid form of each right answer passes, each anticipated mistake
gets its hint without the answer, the explain exercise needs its reason, and the worked solution of
the implement exercise passes it."""

import pathlib
import re
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np
from sklearn.metrics.pairwise import rbf_kernel

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "notebooks"))

from exercises.ex08 import EXERCISES, check, check_function, reveal, show_solution  # noqa: E402

from perclib import KernelPerceptron  # noqa: E402


def test_08_1_forms_and_hints():
    for form in (
        (3, -2, 1),
        [3, -2, 1],
        np.array([3, -2, 1]),
        ("3", "-2", "1"),
        (3.0, Fraction(-2), Decimal(1)),
        "3, -2, 1",
        "(3,-2,1)",
        "3 -2 1",
        "3; −2; 1",
    ):
        assert check("08-1", form), form
    for m in EXERCISES["08-1"].mistakes:
        fb = check("08-1", m.value)
        assert not fb and m.hint in fb.message and "(3, -2, 1)" not in fb.message
    assert check("08-1", ...).neutral
    assert not check("08-1", "3, -2, 0") and not check("08-1", "3, -2")


def test_08_1_hints_do_not_state_the_update_rule():
    for m in EXERCISES["08-1"].mistakes:
        assert "η y" not in m.hint and "same step" not in m.hint


def test_08_1_matches_a_real_kernel_perceptron():
    # a run whose updates are 3 on example 2 (+1) and 2 on example 5 (-1) has exactly these
    # coefficients: the dual form, from perclib's own bookkeeping
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0], [0.0, 2.0]])
    y = np.array([1, -1, 1, 1, -1, -1])
    model = KernelPerceptron(kernel="rbf", gamma=1.0, max_iter=50).fit(X, y)
    signs = np.where(y == 1, 1.0, -1.0)
    counts = np.bincount(model.update_indices_, minlength=len(y))
    assert np.allclose(model.dual_coef_, (counts * signs)[model.support_])
    assert np.isclose(model.intercept_, (counts * signs).sum())


def test_08_2_needs_the_conclusion_and_its_reason():
    for conclusion in ("no", "No.", "NO", "No, it is not", False):
        for key in ("c", "C", "(c)"):
            assert check("08-2", conclusion, because=key), (conclusion, key)
    pairs = [(c, k) for c in ("yes", "no") for k in "abcd"]
    assert sum(bool(check("08-2", c, because=k)) for c, k in pairs) == 1
    for c, k in pairs:
        fb = check("08-2", c, because=k)
        if not fb:
            assert '"c"' not in fb.message.split("Stuck?")[0] or "because=one of" in fb.message


def test_08_2_the_claim_is_true():
    # K(x, z) = x.z - 1 has a Gram matrix with a negative eigenvalue: no feature map gives it
    X = np.array([[0.0, 0.0], [1.0, 0.0]])
    assert np.linalg.eigvalsh(X @ X.T - 1).min() < 0


def test_08_3_solution_passes_and_mistakes_get_their_hint():
    code = re.search(r"```python\n(.*?)```", show_solution("08-3").text, re.S).group(1)
    ns = {"np": np}
    exec(code, ns)
    assert check_function("08-3", ns["rbf_predict"])

    def oracle(alpha_y, b, X_train, X, gamma):  # independent: scikit-learn's kernel
        a = rbf_kernel(X, X_train, gamma=gamma) @ alpha_y + b
        return np.where(a >= 0, 1, -1)

    assert check_function("08-3", oracle)
    for m in EXERCISES["08-3"].mistakes:
        fb = check_function("08-3", m.value)
        assert not fb and m.hint in fb.message
    assert check_function("08-3", lambda *args: None).neutral


def test_08_3_agrees_with_the_kernel_perceptron():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(30, 2)), rng.choice([-1, 1], size=30)
    model = KernelPerceptron(kernel="rbf", gamma=0.7, max_iter=3).fit(X, y)
    Xn = rng.normal(size=(50, 2))
    code = re.search(r"```python\n(.*?)```", show_solution("08-3").text, re.S).group(1)
    ns = {"np": np}
    exec(code, ns)
    pred = ns["rbf_predict"](model.dual_coef_, model.intercept_, model.support_vectors_, Xn, 0.7)
    assert np.array_equal(pred, model.predict(Xn))


def test_08_4_forms_and_hints():
    for form in (8.5, "8.5", "17/2", [8.5], Fraction(17, 2), Decimal("8.5")):
        assert check("08-4", form), form
    for m in EXERCISES["08-4"].mistakes:
        fb = check("08-4", m.value())
        assert not fb and m.hint in fb.message and "8.5" not in fb.message


def test_08_4_the_ratio_from_the_kernels_themselves():
    # independent: R^2 = 1 + max K(x, x) for each kernel, at a point with ||x|| = 2
    from sklearn.metrics.pairwise import polynomial_kernel

    x = np.array([[2.0, 0.0], [0.3, -1.1]])
    r2_poly = 1 + np.max(np.diag(polynomial_kernel(x, degree=2, gamma=1, coef0=0)))
    r2_rbf = 1 + np.max(np.diag(rbf_kernel(x, gamma=3.7)))
    assert check("08-4", (r2_poly / 0.25) / (r2_rbf / 0.25))


def test_08_3_the_tie_cases_have_activation_zero():
    cases = EXERCISES["08-3"].expected(np.random.default_rng(0))
    ties = [args for args, _ in cases[-2:]]
    assert any(np.any(args[0] != 0) for args in ties)  # a tie with alpha != 0
    for alpha_y, b, X_train, X, gamma in ties:
        a = rbf_kernel(X, X_train, gamma=gamma) @ alpha_y + b
        assert np.any(a == 0)


def test_reveal_is_importable():
    assert callable(reveal)
