"""Independent oracles: plain loops written here from the notes' pseudocode, not from perclib.

Each loop uses Python floats and a left-to-right dot product (the notes' ``sum_d w_d x_d``, and
scikit-learn's order), ``sign(0) = +1`` (the course's convention), and draws its random choices
from its own ``numpy.random.default_rng(seed)`` in the order the notes describe them: one
permutation per epoch for "shuffle", one uniform pick among the current mistakes for
"random-mistake". Nothing here calls perclib's engine. The models must give the loops' results
bit for bit: the updates are the same floating-point operations, so any difference is a bug.

The data is small and integer-valued on purpose: activations of exactly 0 and pocket ties then
happen often, and each test asserts that its data did exercise the case it is about (so that it
can fail when that case is handled wrongly).
"""

import warnings

import numpy as np
import pytest
from scipy import stats

from perclib import (
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)

# Hundreds of seeds through perclib's per-sample loops: these tests run without coverage's tracer
# (conftest.py), as every line they run, a traced test runs too.

N_SEEDS = 150


def dot(w, x):
    """sum_d w_d x_d, from left to right."""
    s = 0.0
    for wd, xd in zip(w, x):
        s += wd * xd
    return s


def sign(a):
    """The course's sign: +1 for a >= 0, so sign(0) = +1."""
    return 1.0 if a >= 0 else -1.0


def as_pm1(y):
    """Labels to -1/+1, the larger label being +1 (scikit-learn's convention)."""
    return [1.0 if v == max(y) else -1.0 for v in y]


def integer_data(seed, n=12, d=2, low=-2, high=2):
    rng = np.random.default_rng(seed)
    X = rng.integers(low, high + 1, size=(n, d)).astype(float)
    y = rng.choice([-1, 1], size=n)
    y[:2] = [-1, 1]
    return X, y


def perceptron_loop(
    X,
    y,
    *,
    eta=1.0,
    epochs=10,
    order="cyclic",
    rule="margin",
    fit_intercept=True,
    seed=0,
    w0=None,
    after_update=None,
):
    """CIML's PerceptronTrain (margin rule) or the Melbourne lecture's rule (prediction rule)."""
    X, ys = X.tolist(), as_pm1(y.tolist())
    n, d = len(X), len(X[0])
    rng = np.random.default_rng(seed)
    w, b = (list(w0) if w0 is not None else [0.0] * d), 0.0
    updates = 0

    def wrong(i, a):
        return ys[i] * a <= 0 if rule == "margin" else sign(a) != ys[i]

    for _ in range(epochs):
        if order == "random-mistake":
            mistakes = [i for i in range(n) if wrong(i, dot(w, X[i]) + b)]
            if not mistakes:
                break
            visit = [mistakes[int(rng.integers(len(mistakes)))]]
        elif order == "shuffle":
            visit = rng.permutation(n).tolist()
        else:
            visit = range(n)
        clean = True
        for i in visit:
            a = dot(w, X[i]) + b
            if wrong(i, a):
                c = eta * ys[i] if rule == "margin" else eta * (ys[i] - sign(a))
                w = [wd + c * xd for wd, xd in zip(w, X[i])]
                if fit_intercept:
                    b += c
                updates += 1
                clean = False
                if after_update is not None:
                    after_update(w, b)
        if clean and order != "random-mistake":
            break
    return w, b, updates


def _fit(model, X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(X, y, **kw)


# The two paths a model can train on: the block scan (perclib.block_scan, the default) and the
# plain loop (perclib.training, with the private ``_reference`` flag). Each must give the oracle's
# result.
ENGINES = ("block scan", "plain loop")


def _fit_on(engine, model, X, y, **kw):
    model._reference = engine == "plain loop"
    return _fit(model, X, y, **kw)


@pytest.mark.parametrize("order", ["cyclic", "shuffle", "random-mistake"])
@pytest.mark.parametrize("rule", ["margin", "prediction"])
def test_perceptron_equals_the_plain_loop_in_every_order_and_rule(order, rule):
    for seed in range(N_SEEDS // 3):
        X, y = integer_data(seed)
        for eta, fit_intercept in ((1.0, True), (0.3, False)):
            w, b, updates = perceptron_loop(
                X,
                y,
                eta=eta,
                epochs=8,
                order=order,
                rule=rule,
                fit_intercept=fit_intercept,
                seed=seed,
            )
            for engine in ENGINES:
                clf = Perceptron(
                    eta=eta,
                    max_iter=8,
                    order=order,
                    rule=rule,
                    fit_intercept=fit_intercept,
                    random_state=seed,
                )
                _fit_on(engine, clf, X, y)
                assert clf.coef_.tolist() == w and clf.intercept_ == b, (seed, eta, engine)
                assert clf.n_updates_ == updates


def test_random_mistake_picks_uniformly_among_the_current_mistakes():
    """From w0 = (1, 0), b = 0 the mistakes are the rows 1, 3 and 4 (row 4 by sign(0): a = 0 on a
    +1 point is a mistake for the margin rule). One iteration updates on one of them; which one
    is read off the weights. Over 3000 seeded draws the picks must look uniform over {1, 3, 4}
    (chi-square test, seeded: the same counts on every run) and never fall on rows 0, 2, 5."""
    X = np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, 1.0], [-2.0, -1.0], [0.0, 5.0], [-3.0, 2.0]])
    y = np.array([1, -1, -1, 1, 1, -1])
    gen = np.random.default_rng(2024)
    counts = np.zeros(len(X), dtype=int)
    for _ in range(3000):
        clf = _fit(
            Perceptron(order="random-mistake", max_iter=1, random_state=gen),
            X,
            y,
            coef_init=[1.0, 0.0],
        )
        picked = [i for i in range(len(X)) if np.array_equal(clf.coef_, [1.0, 0.0] + (y[i] * X[i]))]
        assert len(picked) == 1
        counts[picked[0]] += 1
    assert counts[[0, 2, 5]].tolist() == [0, 0, 0]
    p = stats.chisquare(counts[[1, 3, 4]]).pvalue
    assert p > 1e-3, counts
    # the same draws as the plain loop's: its first pick from seed s is the model's from seed s
    for seed in range(30):
        w, _, _ = perceptron_loop(X, y, epochs=1, order="random-mistake", seed=seed, w0=[1.0, 0.0])
        clf = _fit(
            Perceptron(order="random-mistake", max_iter=1, random_state=seed),
            X,
            y,
            coef_init=[1.0, 0.0],
        )
        assert clf.coef_.tolist() == w


def training_mistakes(X, y, w, b):
    """The pocket's count: sign(w.x + b) != y, with sign(0) = +1."""
    return sum(sign(dot(w, x) + b) != t for x, t in zip(X.tolist(), as_pm1(y.tolist())))


def pocket_loop(X, y, **kw):
    """Gallant's pocket: after every update, keep the new weights if strictly fewer mistakes."""
    pocket = {"w": [0.0] * X.shape[1], "b": 0.0, "at": -1}  # at: the update that filled it
    pocket["m"] = training_mistakes(X, y, pocket["w"], 0.0)
    seen = []

    def after_update(w, b):
        m = training_mistakes(X, y, w, b)
        seen.append((m, w, b))
        if m < pocket["m"]:
            pocket.update(w=w, b=b, m=m, at=len(seen) - 1)

    w, b, _ = perceptron_loop(X, y, after_update=after_update, **kw)
    return pocket, (w, b), seen


@pytest.mark.parametrize("order", ["cyclic", "shuffle", "random-mistake"])
def test_pocket_equals_gallants_loop(order):
    ties_after_best = zero_activations = 0
    for seed in range(N_SEEDS):
        X, y = integer_data(seed)
        pocket, last, seen = pocket_loop(X, y, epochs=6, order=order, seed=seed)
        for engine in ENGINES:
            clf = PocketPerceptron(max_iter=6, order=order, random_state=seed)
            _fit_on(engine, clf, X, y)
            assert clf.coef_.tolist() == pocket["w"] and clf.intercept_ == pocket["b"], (
                seed,
                engine,
            )
            assert clf.pocket_mistakes_ == pocket["m"]
            assert clf.last_coef_.tolist() == last[0] and clf.last_intercept_ == last[1]
        # the cases the test is about did occur: a later iterate as good as the pocket, but other
        # weights (keeping it would be "<=" instead of "<"), and a +1 point with activation 0
        if any(
            m == pocket["m"] and (w, b) != (pocket["w"], pocket["b"])
            for m, w, b in seen[pocket["at"] + 1 :]
        ):
            ties_after_best += 1
        ys = as_pm1(y.tolist())
        if any(dot(w, x) + b == 0 and t == 1 for _, w, b in seen for x, t in zip(X.tolist(), ys)):
            zero_activations += 1
    assert ties_after_best >= 10 and zero_activations >= 10, (ties_after_best, zero_activations)


def test_pocket_counts_sign_zero_as_plus_one():
    """By hand, one epoch on x = 1 (label -1) and x = 0 (label +1), margin rule:
    w, b = 0, 0: both activations are 0, predicted +1: 1 mistake (row 0). The pocket holds it.
    row 0 is a mistake (y a = 0): w, b = -1, -1; activations -2, -1: 1 mistake (row 1), not fewer.
    row 1 is a mistake (a = -1): w, b = -1, 0; activations -1, 0 (sign(0) = +1): 0 mistakes.
    Counting with numpy's sign (sign(0) = 0) would leave (-1, -1) in the pocket with 1 mistake."""
    X = np.array([[1.0], [0.0]])
    y = np.array([-1, 1])
    assert training_mistakes(X, y, [0.0], 0.0) == 1
    assert training_mistakes(X, y, [-1.0], -1.0) == 1
    assert training_mistakes(X, y, [-1.0], 0.0) == 0
    for engine in ENGINES:
        clf = _fit_on(engine, PocketPerceptron(max_iter=1), X, y)
        assert clf.pocket_mistakes_ == 0, engine
        assert clf.coef_.tolist() == [-1.0] and clf.intercept_ == 0.0, engine


def test_predict_is_the_course_rule_with_sign_zero_plus_one():
    """predict(x) = classes_[1] if w.x + b >= 0 else classes_[0], on a grid through the boundary."""
    X, y = integer_data(7, n=20)
    y_named = np.where(y > 0, "spam", "ham")
    clf = _fit(Perceptron(max_iter=5), X, y_named)
    grid = np.array([[i, j] for i in range(-4, 5) for j in range(-4, 5)], dtype=float)
    w, b = clf.coef_.tolist(), clf.intercept_
    expected = ["spam" if dot(w, x) + b >= 0 else "ham" for x in grid.tolist()]
    assert clf.predict(grid).tolist() == expected
    assert sum(dot(w, x) + b == 0 for x in grid.tolist()) >= 1  # the tie is on the grid
    assert clf.score(grid, expected) == 1.0
    flipped = ["ham" if e == "spam" else "spam" for e in expected]
    assert clf.score(grid, flipped) == 0.0


def voted_loop(X, y, *, eta, epochs, order, fit_intercept, seed):
    """Freund & Schapire (1999), figure 1: k = 0, v_1 = 0, c_1 = 0; on a mistake
    v_{k+1} = v_k + y x, c_{k+1} = 1, k = k + 1; else c_k = c_k + 1 (here with eta and a bias)."""
    X, ys = X.tolist(), as_pm1(y.tolist())
    rng = np.random.default_rng(seed)
    v, bias, c = [[0.0] * len(X[0])], [0.0], [0]
    for _ in range(epochs):
        visit = rng.permutation(len(X)).tolist() if order == "shuffle" else range(len(X))
        for i in visit:
            if ys[i] * (dot(v[-1], X[i]) + bias[-1]) <= 0:
                v.append([vd + (eta * ys[i]) * xd for vd, xd in zip(v[-1], X[i])])
                bias.append(bias[-1] + eta * ys[i] if fit_intercept else bias[-1])
                c.append(1)
            else:
                c[-1] += 1
    return v, bias, c


def voted_predict(v, bias, c, x):
    s = sum(ck * sign(dot(vk, x) + bk) for vk, bk, ck in zip(v, bias, c))
    return s, sign(s)


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize(
    "eta, fit_intercept", [(1.0, True), (0.5, True), (2.0, False), (0.5, False)]
)
def test_voted_equals_freund_schapire(order, eta, fit_intercept):
    grid = np.array([[i, j] for i in range(-3, 4) for j in range(-3, 4)], dtype=float)
    zero_votes = 0
    for seed in range(N_SEEDS // 5):
        X, y = integer_data(seed)
        v, bias, c = voted_loop(
            X, y, eta=eta, epochs=4, order=order, fit_intercept=fit_intercept, seed=seed
        )
        for engine in ENGINES:
            clf = VotedPerceptron(
                eta=eta, max_iter=4, order=order, fit_intercept=fit_intercept, random_state=seed
            )
            _fit_on(engine, clf, X, y)
            assert clf.weights_.tolist() == v and clf.intercepts_.tolist() == bias, (
                seed,
                engine,
            )
            assert clf.counts_.tolist() == c
        votes = [voted_predict(v, bias, c, x) for x in grid.tolist()]
        # a tied vote predicts +1 and scores 0.5, so that the score is positive exactly there
        assert clf.decision_function(grid).tolist() == [s if s != 0 else 0.5 for s, _ in votes]
        assert clf.predict(grid).tolist() == [int(p) for _, p in votes]
        zero_votes += sum(s == 0 for s, _ in votes)
    assert zero_votes >= 1  # the outer sign(0) = +1 was exercised


def multiclass_loop(X, y, *, eta, epochs, order, fit_intercept, average, seed, ties=None):
    """The multi-class perceptron (Collins 2002; CIML ch. 6, algorithm 17): predict the first class
    with the highest score w_k.x + b_k; on a mistake (true t, predicted p) w_t += eta x and
    w_p -= eta x (and the biases). With ``average``, CIML's trick for the average of the iterates:
    sums u += (eta c) x on the same rows, a counter c that counts every visited example, and the
    average w - u / c at the end. Without averaging it stops after an epoch free of mistakes.
    ``ties``: a list to count, in ``ties[0]``, the predictions where another class had the same
    highest score."""
    X = X.tolist()
    classes = sorted(set(y.tolist()))
    t_of = [classes.index(v) for v in y.tolist()]
    K, d = len(classes), len(X[0])
    rng = np.random.default_rng(seed)
    W, b = [[0.0] * d for _ in range(K)], [0.0] * K
    U, beta, c = [[0.0] * d for _ in range(K)], [0.0] * K, 1
    for _ in range(epochs):
        visit = rng.permutation(len(X)).tolist() if order == "shuffle" else range(len(X))
        clean = True
        for i in visit:
            s = [dot(W[k], X[i]) + b[k] for k in range(K)]
            p = 0
            for k in range(1, K):
                if s[k] > s[p]:
                    p = k
            if ties is not None:
                ties[0] += sum(s[k] == s[p] for k in range(K)) > 1
            t = t_of[i]
            if p != t:
                W[t] = [w + eta * x for w, x in zip(W[t], X[i])]
                W[p] = [w - eta * x for w, x in zip(W[p], X[i])]
                U[t] = [u + (eta * c) * x for u, x in zip(U[t], X[i])]
                U[p] = [u - (eta * c) * x for u, x in zip(U[p], X[i])]
                if fit_intercept:
                    b[t], b[p] = b[t] + eta, b[p] - eta
                    beta[t], beta[p] = beta[t] + eta * c, beta[p] - eta * c
                clean = False
            c += 1
        if clean and not average:
            break
    if not average:
        return W, b
    return (
        [[w - u / c for w, u in zip(Wk, Uk)] for Wk, Uk in zip(W, U)],
        [bk - betak / c for bk, betak in zip(b, beta)],
    )


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize("average", [False, True])
def test_multiclass_equals_the_plain_loop(order, average):
    """Integer data with three or four classes: exact ties between class scores are common (the
    first class wins them), and every engine (:data:`ENGINES`) must give the loop's weights bit
    for bit."""
    ties = [0]
    for seed in range(N_SEEDS // 5):
        rng = np.random.default_rng(seed)
        X = rng.integers(-2, 3, size=(12, 2)).astype(float)
        y = rng.integers(0, 3 + seed % 2, size=12)
        for eta, fit_intercept in ((1.0, True), (0.5, False)):
            W, b = multiclass_loop(
                X, y, eta=eta, epochs=5, order=order, fit_intercept=fit_intercept,
                average=average, seed=seed, ties=ties,
            )  # fmt: skip
            for engine in ENGINES:
                clf = MulticlassPerceptron(
                    eta=eta, max_iter=5, order=order, fit_intercept=fit_intercept,
                    average=average, random_state=seed,
                )  # fmt: skip
                _fit_on(engine, clf, X, y)
                assert clf.coef_.tolist() == W and clf.intercept_.tolist() == b, (seed, engine)
    # ties beyond the first visit of each fit (all scores 0 there): 2 fits per seed
    assert ties[0] > 2 * 2 * (N_SEEDS // 5), ties


def test_pocket_on_many_rows_equals_gallants_loop():
    """700 noisy rows: the compiled pocket counts its mistakes in blocks of 512 rows, stops a
    count once it reaches the pocket's, and after every 64 updates reorders the rows with the
    pocket's mistakes first. None of that may change which weights are kept."""
    rng = np.random.default_rng(10)
    X = rng.integers(-3, 4, size=(700, 3)).astype(float)
    y = np.where(X @ [1.0, -2.0, 0.5] + rng.normal(scale=2.0, size=700) >= 0, 1, -1)
    pocket, last, seen = pocket_loop(X, y, epochs=1, order="cyclic", seed=0)
    assert len(seen) > 64 and pocket["at"] > 64  # the rows reordered, then a better pocket
    for engine in ENGINES:
        clf = _fit_on(engine, PocketPerceptron(max_iter=1), X, y)
        assert clf.coef_.tolist() == pocket["w"] and clf.intercept_ == pocket["b"], engine
        assert clf.pocket_mistakes_ == pocket["m"], engine
        assert clf.last_coef_.tolist() == last[0] and clf.last_intercept_ == last[1], engine
