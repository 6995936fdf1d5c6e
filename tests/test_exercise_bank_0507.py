"""Notebooks 05-07's registered exercises: right answers accepted, anticipated mistakes get their hint,
the worked solutions are right."""
import re

import numpy as np

from perclib import AveragedPerceptron, VotedPerceptron
from perclib import evaluation as ev
from perclib.datasets import worked_example
from perclib.exercises import check, check_function, show_solution


def test_06_values_are_independent_of_the_bank():
    X, y = worked_example()
    assert check("06-1", 1 + 3 * len(X))                     # c = 1 + T, counted by hand
    assert not check("06-1", 3 * len(X))
    vp = VotedPerceptron(max_iter=3).fit(X, y)               # the counts and signs of the question
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
    for slip, word in [("c starts at 0", "starts at 0"), ("c counts only mistakes", "only on mistakes")]:
        fb = check_function("06-4", lambda X, y, e, s=slip: ev.lazy_average(X, y, max_iter=e, slip=s))
        assert not fb and word in fb.message
    last = check_function("06-4", lambda X, y, e: (np.zeros(X.shape[1]), 0.0))
    assert not last and "show_solution" in last.message
