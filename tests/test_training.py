"""perclib.training, the plain loops: ties decided as scikit-learn's left-to-right sum decides
them, one loop that every binary trainer runs, and the hooks the block scan calls alike."""

import warnings

import experiments
import numpy as np
import pytest
import scipy.sparse as sp

import perclib.training as engine
from perclib import (
    ConvergenceWarning,
    MulticlassPerceptron,
    Perceptron,
    block_scan,
    training,
)
from perclib.datasets import make_blobs3, make_separable, make_sparse_text, worked_example
from perclib.exercises import epoch_trace
from perclib.sgd import LinearSGD
from perclib.training import _seq_dot, activation, scores


def test_activation_settles_near_ties_with_the_left_to_right_sum():
    rng = np.random.default_rng(0)
    differ = 0
    for _ in range(2000):
        d = int(rng.integers(2, 200))
        w, x = rng.normal(size=d), rng.normal(size=d)
        b = -_seq_dot(w, x)  # the left-to-right activation is exactly 0
        differ += float(np.dot(w, x)) + b != 0.0  # numpy's own order often is not
        assert activation(w, b, x) == 0.0
        X = np.vstack([x, rng.normal(size=d)])
        a = scores(X, w, b, np.linalg.norm(X, axis=1))
        assert a[0] == 0.0  # the same tie, found by the vectorised scan
        assert scores(X[:1], w, b, np.linalg.norm(X[:1], axis=1))[0] == 0.0  # and in one row alone
        assert np.sign(a[1]) == np.sign(_seq_dot(w, X[1]) + b)
    assert differ > 100  # the fallback mattered, not just ran


def _plain_scores(W, b, x):
    """The multi-class scores w_k.x + b_k summed from left to right in Python floats, and the first
    class with the highest score: the notes' rule, written here without perclib."""
    s = []
    for wk, bk in zip(W.tolist(), b.tolist()):
        a = 0.0
        for wj, xj in zip(wk, x.tolist()):
            a += wj * xj
        s.append(a + bk)
    p = 0
    for k in range(1, len(s)):
        if s[k] > s[p]:
            p = k
    return s, p


def large_near_tie(rng, d):
    """(W, b, x): three classes whose scores on x are equal in exact arithmetic, large (a common
    part v.x) and with biases that differ: W = [v, v + z - beta x/|x|^2, v - z + beta x/|x|^2],
    b = [0, beta, -beta], z orthogonal to x up to rounding, the rows in a random order. Which score
    is highest is decided by rounding alone, and depends on the order of summation."""
    x, z = rng.normal(size=d), rng.normal(size=d)
    z -= (z @ x) / (x @ x) * x
    v = rng.normal(size=d) * 10.0 ** rng.uniform(0, 4)
    beta = float(rng.normal())
    order = rng.permutation(3)
    W = np.vstack([v, v + z - beta * x / (x @ x), v - z + beta * x / (x @ x)])
    return W[order], np.array([0.0, beta, -beta])[order], x


def test_class_scores_pick_the_left_to_right_winner_among_near_ties():
    """Large near ties (:func:`large_near_tie`): the predicted class must be the first highest of
    the left-to-right sums (the plain loop above), whatever numpy's blocked product says."""
    rng = np.random.default_rng(4)
    numpy_differs = 0
    for _ in range(400):
        W, b, x = large_near_tie(rng, int(rng.integers(3, 60)))
        _, expected = _plain_scores(W, b, x)
        s, p = engine.class_scores(W, b, x, np.linalg.norm(x), np.linalg.norm(W, axis=1))
        assert p == expected
        numpy_differs += int(np.argmax(W @ x + b)) != expected
    assert numpy_differs > 40  # numpy's order alone would have picked another class that often


def test_the_reference_loops_at_an_overflowing_scale_warn_nothing():
    """At 1e200 the scores w.x overflow to inf (and inf - inf is NaN); the reference loops decide
    those cases by the left-to-right sum, silently: no RuntimeWarning reaches the user."""
    X2, y2 = worked_example()
    X3, y3 = make_blobs3(10, random_state=0)
    models = [
        (Perceptron(record=True, max_iter=5), X2, y2),
        (Perceptron(record=True, max_iter=5, order="random-mistake", random_state=0), X2, y2),
        (MulticlassPerceptron(record=True, max_iter=5), X3, y3),
        # the second row's scores are 1e400 - 1e400 after the first update: inf - inf, NaN
        (MulticlassPerceptron(record=True, max_iter=5), [[1, 1], [1, -1], [-1, 1]], [1, 0, 2]),
    ]
    for model, X, y in models:
        X = np.asarray(X, dtype=float)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            warnings.simplefilter("error", RuntimeWarning)
            model.fit(X * 1e200, y)
        # the regime is reached: the products w_j x_j of the learned weights overflow
        assert float(np.max(np.abs(model.coef_))) * float(np.max(np.abs(X * 1e200))) == np.inf


def test_far_from_ties_numpy_dot_is_kept():
    w, x = np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0, 1.0])
    assert activation(w, 0.5, x) == 6.5


# ---- One plain loop: every binary trainer runs training.train, and the block scan calls the
# ---- same hook with the same arguments.


def _noisy(seed, n=60, d=4):
    X, y = make_separable(n, d, margin=0.05, random_state=seed)
    flip = np.random.default_rng(seed).random(n) < 0.15
    return X, np.where(flip, -y, y).astype(np.float64)


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize("rule", ["margin", "prediction"])
@pytest.mark.parametrize("sparse", [False, True])
def test_the_block_scan_calls_the_hook_as_the_plain_loop_does(order, rule, sparse):
    for seed in range(5):
        X, y = _noisy(seed)
        X = sp.csr_matrix(X) if sparse else X
        calls = {}
        for name, loop in (("reference", engine.train), ("numpy", block_scan.train)):
            seen = calls[name] = []
            loop(
                X,
                y,
                np.zeros(X.shape[1]),
                0.0,
                eta=0.5,
                max_iter=12,
                order=order,
                rule=rule,
                fit_intercept=True,
                rng=np.random.default_rng(seed),
                stop_when_clean=False,
                on_update=lambda w, b, t, i, c, seen=seen: seen.append((t, i, c, w.copy(), b)),
            )
        ref, fast = calls["reference"], calls["numpy"]
        assert len(ref) > 5 and len(ref) == len(fast)
        for (t, i, c, w, b), (t2, i2, c2, w2, b2) in zip(ref, fast):
            assert (t, i, c, b) == (t2, i2, c2, b2) and np.array_equal(w, w2)
        n = X.shape[0]  # t counts the visits: example i is visited at t
        assert all(i == t % n for t, i, *_ in ref) or order == "shuffle"
        assert len({t for t, *_ in ref}) == len(ref)  # one update per visit at most


def test_every_binary_trainer_runs_the_one_plain_loop(monkeypatch):
    """The pocket, averaged and voted perceptrons, a recorded Perceptron, LinearSGD, the
    notebooks' experiments, the sparse averaging demo and the exercises' trace all train through
    training.train: no copy. The spy sits in the loop's per-example call of ``activation`` and
    reads the loop's own locals."""
    import sys

    runs = []
    real = engine.activation

    def spy(*args, **kwargs):
        loop = sys._getframe(1)
        if loop.f_code is engine.train.__code__:
            plugged = [loop.f_locals[k] for k in ("on_update", "record", "step_of")]
            runs.append(any(p is not None for p in plugged))  # a hook, a recorder or SGD's step
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "activation", spy)
    X, y = _noisy(0)
    Xs, ys = make_sparse_text(40, 60, words=4, random_state=0)
    trainers = {
        "pocket": lambda: training.pocket(
            X, y, eta=1.0, max_iter=2, order="cyclic", rule="margin", fit_intercept=True, rng=None
        ),
        "averaged": lambda: training.averaged(
            X,
            y,
            training.averaged_start(4),
            eta=1.0,
            max_iter=2,
            order="cyclic",
            fit_intercept=True,
            rng=None,
        ),
        "voted": lambda: training.voted(
            X,
            y,
            training.voted_start(4),
            eta=1.0,
            max_iter=2,
            order="cyclic",
            fit_intercept=True,
            rng=None,
        ),
        "recorded perceptron": lambda: Perceptron(record=True).partial_fit(X, y, classes=[-1, 1]),
        "sgd": lambda: LinearSGD(loss="hinge", max_iter=2).fit(X, y),
        "iterate_average": lambda: experiments.iterate_average(X, y, max_iter=2),
        "lazy_average": lambda: experiments.lazy_average(X, y, max_iter=2),
        "epoch_errors": lambda: experiments.epoch_errors(X, y, X, y, max_epochs=2, order="cyclic"),
        "averaged_sparse": lambda: experiments.averaged_sparse(Xs, ys, max_iter=2),
        "epoch_trace": lambda: epoch_trace(X, y, [0, 1, 2]),
    }
    for name, run in trainers.items():
        runs.clear()
        run()
        assert runs, f"{name} trains without the reference loop"
        assert any(runs), f"{name} plugs nothing into the loop: a copy?"


@pytest.mark.parametrize("average", [False, True])
def test_the_multiclass_block_scan_leaves_the_plain_loops_state(average):
    """W, b, CIML's sums U, beta and the counter c: the block scan's state after each call is the
    plain loop's, bit for bit, with and without averaging, over two calls (as partial_fit runs)."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(30, 3))
    t = np.arange(30) % 3
    states = [training.multiclass_start(3, 3) for _ in range(2)]
    for _ in range(2):
        outs = [
            loop(
                X,
                t,
                state,
                eta=1.0,
                max_iter=2,
                order="cyclic",
                fit_intercept=True,
                rng=None,
                stop_when_clean=not average,
            )
            for loop, state in zip((training.multiclass, block_scan.multiclass), states)
        ]
        assert np.array_equal(outs[0][0], outs[1][0]) and outs[0][1] == outs[1][1]
        for key in ("W", "b", "U", "beta", "c"):
            assert np.array_equal(states[0][key], states[1][key]), key
    assert np.count_nonzero(states[0]["U"]) > 0 and states[0]["c"] == 1 + 4 * 30


def test_the_block_scan_refuses_to_record():
    X, t = make_blocks()
    with pytest.raises(TypeError, match="history"):
        block_scan.multiclass(
            X,
            t,
            training.multiclass_start(3, 2),
            eta=1.0,
            max_iter=1,
            order="cyclic",
            fit_intercept=True,
            rng=None,
            stop_when_clean=True,
            history=[],
        )
    with pytest.raises(TypeError, match="record"):  # the binary scan has no such argument
        block_scan.train(
            X,
            np.ones(X.shape[0]),
            np.zeros(2),
            0.0,
            eta=1.0,
            max_iter=1,
            order="cyclic",
            rule="margin",
            fit_intercept=True,
            rng=None,
            record=[],
        )


def make_blocks():
    X, y = make_blobs3(5, random_state=0)
    return X, y.astype(np.int64)
