"""Notebook 08's exercises: every valid form of each right answer passes, each anticipated mistake
gets its hint without the answer, the explain exercise needs its reason, and the worked solution of
the implement exercise passes it."""

import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
from exercises.ex08 import EXERCISES, check, check_function, reveal, show_solution
from sklearn.metrics.pairwise import rbf_kernel

from perclib import KernelPerceptron


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


def test_08_2_needs_the_conclusion_its_reason_and_the_radius():
    for conclusion in ("no", "No.", "NO", "No, it is not", False, "false"):
        for key in ("b", "B", "(b)"):
            forms = (1, 1.0, "1", "1.0", "1/1", "2 / 2", Fraction(1), "r = 1", "r=1")
            for radius in (*forms, np.float64(1)):
                fb = check("08-2", conclusion, because=key, radius=radius)
                assert fb, (conclusion, key, radius)
    pairs = [(c, k) for c in ("yes", "no") for k in "abcd"]
    assert sum(bool(check("08-2", c, because=k, radius=1)) for c, k in pairs) == 1
    for c, k in pairs:
        fb = check("08-2", c, because=k, radius=1)
        if not fb:
            assert '"b"' not in fb.message.split("Stuck?")[0] or "because=one of" in fb.message


def test_08_2_a_guessed_key_does_not_pass_without_the_right_radius():
    # the radius is asked for with the same neutral prompt whatever the reason picked
    prompts = {check("08-2", "no", because=k).message for k in "abcd"}
    assert len(prompts) == 1 and all(check("08-2", "no", because=k).neutral for k in "abcd")
    # the first witness anyone tries, the origin, is not an answer: a radius is asked for
    # (printed in full: a radius a hair off 1 must not read as 1 in the message)
    for radius in (0, 0.5, 0.99, 0.9999999, 1.0000001, 1.01, 2, -1, "0", "sqrt 2"):
        fb = check("08-2", "no", because="b", radius=radius)
        assert not fb and not fb.neutral, radius
        assert not re.search(r"‖x‖ < 1(?![\d.])|r = 1(?![\d.])", fb.message), radius
    for radius in (
        2,
        1.01,
        1.0000001,
        7.5,
    ):  # too large: a point inside the student's r is no witness
        fb = check("08-2", "no", because="b", radius=radius)
        point = float(re.search(r"x = \(([\d.]+)\)", fb.message).group(1))
        assert point < radius and point * point - 1 >= 0, (radius, point)  # x.x - 1: no witness
        assert "not a witness" in fb.message and "compute K(x, x)" in fb.message
        # the student computes K there: neither K's formula nor its value is given
        assert "x·x" not in fb.message and "‖x‖²" not in fb.message, fb.message
        assert f"{point * point - 1:.4g}" not in fb.message, fb.message
    fb = check("08-2", "no", because="b", radius=0.5)  # too small: not the largest
    assert "not the largest" in fb.message
    for bad in ("abc", [0, 0], np.nan):
        fb = check("08-2", "no", because="b", radius=bad)
        assert not fb and "one number" in fb.message, bad


def test_08_2_the_radius_is_where_k_x_x_changes_sign():
    # K(x, x) = x.x - 1 < 0 for points just inside the unit sphere, >= 0 on and outside it
    rng = np.random.default_rng(0)
    for d in (1, 2, 5):
        u = rng.normal(size=d)
        u /= np.linalg.norm(u)
        for r, negative in ((0.999, True), (1.0, False), (1.001, False)):
            x = r * u
            assert (x @ x - 1 < 0) == negative


def test_08_2_the_right_reason_does_not_spell_out_the_argument():
    right = EXERCISES["08-2"].reasons["b"]
    assert "‖φ" not in right and "−1" not in right and "x = 0" not in right
    yes_hint = EXERCISES["08-2"].mistakes[0].hint
    assert "K(x, x)" not in yes_hint and "never negative" not in yes_hint


def test_08_2_the_wrong_reasons_are_false_of_a_real_kernel():
    # (a) and (c) hold for the linear kernel, (d) for (x.z + 1)^2: each wrong reason is true of
    # some kernel, so it cannot decide that x.z - 1 is not one
    x = np.array([[1.0, 2.0]])
    X = np.vstack([x, -x])
    linear = X @ X.T
    assert linear.min() < 0 and np.linalg.eigvalsh(linear).min() >= -1e-12  # (a), (c)
    quadratic = (X @ X.T + 1) ** 2
    assert np.linalg.eigvalsh(quadratic).min() >= -1e-12  # (d): a constant term, still PSD
    minus_one = X @ X.T - 1  # the reason that decides: a negative diagonal entry somewhere
    zero = np.zeros((1, 2))
    assert (zero @ zero.T - 1)[0, 0] < 0 and np.allclose(minus_one, minus_one.T)


def test_08_2_the_claim_is_true():
    # K(x, z) = x.z - 1 has a Gram matrix with a negative eigenvalue: no feature map gives it
    X = np.array([[0.0, 0.0], [1.0, 0.0]])
    assert np.linalg.eigvalsh(X @ X.T - 1).min() < 0


def test_08_3_solution_passes_and_mistakes_get_their_hint():
    code = re.search(r"```python\n(.*?)```", show_solution("08-3").text, re.S).group(1)
    ns = {"np": np}
    exec(code, ns)
    right = check_function("08-3", ns["rbf_predict"])
    assert right and "all 27 cases (25 random, 2 ties)" in right.message
    for m in EXERCISES["08-3"].mistakes:
        fb = check_function("08-3", m.value)
        assert not fb and m.hint in fb.message
        assert "of 27 cases (25 random, 2 ties)" in fb.message and "random cases" not in fb.message
    assert check_function("08-3", lambda *args: None).neutral


def test_08_3_boolean_output_gets_its_own_hint():
    def booleans(alpha_y, b, X_train, X, gamma):
        d2 = ((X[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)
        return np.exp(-gamma * d2) @ alpha_y + b >= 0

    for func in (booleans, lambda *args: list(booleans(*args))):
        fb = check_function("08-3", func)
        assert not fb and "True/False" in fb.message and "not numbers" not in fb.message
    assert EXERCISES["08-3"].trials == 27  # 25 random cases and 2 ties, as the notebook says


def test_08_3_the_cases_agree_with_scikit_learn():
    # independent oracle: scikit-learn's kernel on every case of the check
    ex = EXERCISES["08-3"]
    for (alpha_y, b, X_train, X, gamma), expected in ex.expected(np.random.default_rng(ex.seed)):
        a = rbf_kernel(X, X_train, gamma=gamma) @ alpha_y + b
        assert np.array_equal(np.where(a >= 0, 1, -1), expected)


def _wraps_sklearn(alpha_y, b, X_train, X, gamma):
    a = rbf_kernel(X, X_train, gamma=gamma) @ alpha_y + b
    return np.where(a >= 0, 1, -1)


def _imports_sklearn(alpha_y, b, X_train, X, gamma):
    from sklearn.metrics import pairwise

    a = pairwise.rbf_kernel(X, X_train, gamma=gamma) @ alpha_y + b
    return np.where(a >= 0, 1, -1)


def _kernel_through_perclib(A, B, gamma):
    return KernelPerceptron(kernel="rbf", gamma=gamma)._kernel(A, B)


def _uses_a_helper(alpha_y, b, X_train, X, gamma):
    a = _kernel_through_perclib(X, X_train, gamma) @ alpha_y + b
    return np.where(a >= 0, 1, -1)


def test_08_3_refuses_library_kernels_numpy_only():
    for wrapper in (_wraps_sklearn, _imports_sklearn, _uses_a_helper):
        fb = check_function("08-3", wrapper)
        assert not fb and "NumPy only" in fb.message, wrapper.__name__
    # each would pass on its results alone: the refusal is about the library, not the labels
    ex = EXERCISES["08-3"]
    for args, expected in ex.expected(np.random.default_rng(ex.seed)):
        assert np.array_equal(_wraps_sklearn(*args), expected)

    def numpy_only(alpha_y, b, X_train, X, gamma):  # another valid form: a loop, np.linalg
        labels = []
        for x in X:
            k = np.exp(-gamma * np.linalg.norm(X_train - x, axis=1) ** 2)
            labels.append(1 if k @ alpha_y + b >= 0 else -1)
        return np.array(labels)

    assert check_function("08-3", numpy_only)


def test_08_3_a_version_that_ignores_gamma_fails():
    ex = EXERCISES["08-3"]
    cases = ex.expected(np.random.default_rng(ex.seed))
    assert all(args[4] != 1.0 for args, _ in cases[:-2])

    def no_gamma(alpha_y, b, X_train, X, gamma):
        d2 = ((X[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)
        return np.where(np.exp(-d2) @ alpha_y + b >= 0, 1, -1)

    wrong = sum(not np.array_equal(no_gamma(*args), exp) for args, exp in cases)
    assert wrong >= 5
    assert not check_function("08-3", no_gamma)


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


def test_08_4_forms_hints_and_reason():
    forms = (8.5, "8.5", "17/2", [8.5], Fraction(17, 2), Decimal("8.5"), "68/8", "68 / 8")
    ratios = ("8.5 times", "8.5x", "8.5 ×", "8,5", "68:8", "68 : 8", "8.5 Times")
    for form in forms + ratios:
        for key in ("c", "C", "(c)"):
            assert check("08-4", form, because=key), (form, key)
    for m in EXERCISES["08-4"].mistakes:
        fb = check("08-4", m.value(), because="c")
        assert not fb and m.hint in fb.message and "8.5" not in fb.message
    for key in "abd":
        fb = check("08-4", 8.5, because=key)
        assert not fb and EXERCISES["08-4"].reason_hints[key] in fb.message
        assert "= 1" not in fb.message
    assert check("08-4", 8.5).neutral


def test_08_4_the_wrong_reasons_do_not_fix_r():
    # (b) holds for the RBF kernel but is about pairs; R^2 = 1 + max K(x, x) uses the diagonal.
    # The diagonal is 1 for every data set and width, which (a), (b) and (d) do not say.
    rng = np.random.default_rng(0)
    for gamma in (0.01, 1.0, 50.0):
        X = rng.normal(scale=5.0, size=(20, 3))
        K = rbf_kernel(X, gamma=gamma)
        assert np.allclose(np.diag(K), 1.0) and np.all(K[~np.eye(20, dtype=bool)] < 1)


def test_08_4_the_ratio_from_the_kernels_themselves():
    # independent: R^2 = 1 + max K(x, x) for each kernel, at a point with ||x|| = 2
    from sklearn.metrics.pairwise import polynomial_kernel

    x = np.array([[2.0, 0.0], [0.3, -1.1]])
    r2_poly = 1 + np.max(np.diag(polynomial_kernel(x, degree=2, gamma=1, coef0=0)))
    r2_rbf = 1 + np.max(np.diag(rbf_kernel(x, gamma=3.7)))
    assert check("08-4", (r2_poly / 0.25) / (r2_rbf / 0.25), because="c")


def test_08_3_the_tie_cases_have_activation_zero():
    cases = EXERCISES["08-3"].expected(np.random.default_rng(0))
    ties = [args for args, _ in cases[-2:]]
    assert any(np.any(args[0] != 0) for args in ties)  # a tie with alpha != 0
    for alpha_y, b, X_train, X, gamma in ties:
        a = rbf_kernel(X, X_train, gamma=gamma) @ alpha_y + b
        assert np.any(a == 0)


def test_reveal_is_importable():
    assert callable(reveal)


def _student(kernel_values, labels=(1, -1)):
    """A student's rbf_predict built from a kernel-value function and a pair of output labels."""

    def rbf_predict(alpha_y, b, X_train, X, gamma):
        d2 = np.array([[np.sum((x - t) ** 2) for t in X_train] for x in X])
        a = kernel_values(d2, gamma) @ alpha_y + b
        return np.where(a >= 0, *labels)

    return rbf_predict


def test_08_3_common_slips_get_their_own_hints():
    # written as a student would (loops, not the reference's broadcasting): each slip gets a hint
    # about its kind of mistake, not the generic one, and no hint shows the kernel or the code
    slips = {
        "0 where the other label": _student(lambda d2, g: np.exp(-g * d2), labels=(1, 0)),
        "sign in the exponent": _student(lambda d2, g: np.exp(g * d2)),
        "how γ enters the exponent": _student(lambda d2, g: np.exp(-d2 / g)),
        "power of γ": _student(lambda d2, g: np.exp(-(g**2) * d2)),
    }
    generic = EXERCISES["08-3"].hint
    for words, func in slips.items():
        fb = check_function("08-3", func)
        assert not fb and words in fb.message and generic not in fb.message, words
        assert "exp(" not in fb.message and "np." not in fb.message
    assert check_function("08-3", _student(lambda d2, g: np.exp(-g * d2)))


def test_08_3_an_error_is_reported_after_the_inputs():
    def raises(alpha_y, b, X_train, X, gamma):
        raise ValueError("shapes do not match")

    fb = check_function("08-3", raises)
    assert not fb and ": your function raised ValueError: shapes do not match" in fb.message


def test_08_1_unsigned_bias_and_the_doubled_step_get_their_own_hints():
    generic = EXERCISES["08-1"].hint
    for answer, words in (((3, -2, 5), "direction"), ("6, -4, 2", "margin rule")):
        fb = check("08-1", answer)
        assert not fb and words in fb.message and generic not in fb.message, answer
        assert "(3, -2, 1)" not in fb.message and "3, −2, 1" not in fb.message
        assert "b = 1" not in fb.message and "+3" not in fb.message


def test_08_3_a_column_of_labels_is_read_like_every_other_array_answer():
    # the mechanism reads an array whose shape equals the expected one up to unit axes (as it
    # does for every exercise): a column of the right labels passes, a wrong count does not
    def as_column(alpha_y, b, X_train, X, gamma):
        d2 = ((X[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)
        return np.where(np.exp(-gamma * d2) @ alpha_y + b >= 0, 1, -1)[:, None]

    def one_too_many(alpha_y, b, X_train, X, gamma):
        d2 = ((X[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)
        return np.r_[np.where(np.exp(-gamma * d2) @ alpha_y + b >= 0, 1, -1), 1]

    assert check_function("08-3", as_column)
    fb = check_function("08-3", one_too_many)
    assert not fb and "shape" in fb.message


def test_08_4_ratio_forms_read_like_numbers_and_other_words_do_not():
    assert not check("08-4", "8,5,1", because="c") and not check("08-4", "times", because="c")
    for form in ("about 8.5", "8.5-fold", "8.5 fold", "≈ 8.5", "about 17/2"):
        assert check("08-4", form, because="c"), form
    fb = check("08-4", "16 times", because="c")  # a wrong ratio in the same form: not right
    assert not fb and "8.5" not in fb.message
    fb = check("08-4", "2:17", because="c")  # 1/8.5, written as a ratio: its own hint
    assert not fb and EXERCISES["08-4"].mistakes[4].hint in fb.message


def test_08_5_forms_and_hints():
    for form in (
        (0.8, -0.4, 0.4),
        [0.8, -0.4, 0.4],
        np.array([0.8, -0.4, 0.4]),
        (Fraction(4, 5), Fraction(-2, 5), Fraction(2, 5)),
        ("4/5", "-2/5", "2/5"),
        "4/5, -2/5, 2/5",
        "(0.8, -0.4, 0.4)",
        "0.8 -0.4 0.4",
        (Decimal("0.8"), -0.4, "0.4"),
        "0,8; -0,4; 0,4",
        "(0,8; −0,4; 0,4)",
        "0.8; -0.4; 0.4",
    ):
        assert check("08-5", form), form
    for m in EXERCISES["08-5"].mistakes:
        fb = check("08-5", m.value() if callable(m.value) else m.value)
        assert not fb and m.hint in fb.message
        assert "0.8" not in fb.message and "4/5" not in fb.message
    assert check("08-5", ...).neutral
    fb = check("08-5", (0.8, -0.4, 0.3))
    assert not fb and EXERCISES["08-5"].hint in fb.message
    assert "give 3 numbers" in check("08-5", "0.8, -0.4").message
    assert "(0.8, −0.4, 0.4)" in show_solution("08-5").text


def test_08_5_matches_a_real_averaged_kernel_perceptron():
    # four visits, one epoch: a tie at visit 1 (x_1, +1), x_2 right, a mistake at visit 3
    # (x_3, -1), x_4 right; perclib's averaged dual coefficients are the exercise's answer
    X = np.array([[1.0, 0.0], [2.0, 0.0], [0.0, 1.0], [0.0, 2.0]])
    y = np.array([1, 1, -1, -1])
    model = KernelPerceptron(kernel="linear", average=True, max_iter=1).fit(X, y)
    assert model.update_indices_.tolist() == [0, 2] and model.support_.tolist() == [0, 2]
    answer = (*model.dual_coef_, model.intercept_)
    assert np.allclose(answer, [0.8, -0.4, 0.4]) and check("08-5", answer)
    # and the average of the five iterates, written out
    iterates = [(0, 0, 0), (1, 0, 1), (1, 0, 1), (1, -1, 0), (1, -1, 0)]
    assert np.allclose(np.mean(iterates, axis=0), answer)
