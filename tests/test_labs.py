"""The graded labs (``labs/``): grades an instructor can trust.

One build of every lab, in a temporary copy of the course (the repository is never written), and
the submissions of all the labs graded in one run of ``build.autograde`` (each sandboxed, two
processes), as ``make grade`` grades a term. Each lab's set: the instructor's solution, the
untouched student version, each listed wrong variant, a wrapper around perclib for each function
it wraps, a notebook made only of answers to the visible tests, correct variants (lists, float32,
extra keys, another subgradient), a solution and a wrong variant with the seed pinned by the
student, a repeated submission (two gradings of the same notebook must agree), and the attacks on
the grader (``ATTACKS``). nbgrader runs as a plain command, with Jupyter's config, data and
runtime folders in the test's temporary folder. The table is printed (``pytest -s`` shows it) by
the same code as ``make grade``.
"""

from __future__ import annotations

import ast
import concurrent.futures
import html
import importlib.util
import json
import os
import pathlib
import pickle
import re
import shutil
import subprocess
import sys

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
LABS = ROOT / "labs"
SOLUTION = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n?", re.M)
REGION = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)\n(.*?)### END \1", re.S)
MARKERS = (
    "BEGIN SOLUTION",
    "END SOLUTION",
    "BEGIN HIDDEN TESTS",
    "END HIDDEN TESTS",
    "BEGIN MARK SCHEME",
)

# The test cells of each graded function: a slip in one function may cost only these.
FUNCTIONS = {
    "lab1": {
        "perceptron_step": {"test_step_mistake", "test_step_tie", "test_step_correct"},
        "fit": {"test_history_format", "test_fit"},
    },
    "lab2": {
        "novikoff_bound": {"test_bound"},
        "count_updates": {"test_count_updates"},
        "margin_experiment": {"test_experiment"},
        "summarize": {"test_summarize"},
    },
    "lab3": {
        "averaged_fit": {"test_averaged", "test_averaged_lazy"},
        "multiclass_step": {"test_multiclass_step"},
        "multiclass_fit": {"test_multiclass_fit"},
        "accuracy": {"test_accuracy"},
    },
    "lab4": {
        "training_mistakes": {"test_mistakes"},
        "pocket_fit": {"test_pocket"},
        "perceptron_loss": {"test_loss"},
        "perceptron_subgradient": {"test_subgradient"},
        "voted_predict": {"test_voted"},
        "averaged_predict": {"test_averaged"},
    },
    "lab5": {
        "linear_kernel": {"test_linear"},
        "polynomial_kernel": {"test_polynomial"},
        "rbf_kernel": {"test_rbf"},
        "dual_fit": {"test_dual_fit"},
        "dual_predict": {"test_dual_predict"},
    },
}

WRAPPERS = {
    "lab1": {
        "fit": """
def fit(X, y, eta=1.0, max_iter=100):
    from perclib import Perceptron
    ref = Perceptron(eta=eta, max_iter=max_iter, record=True).fit(X, y)
    keys = ("epoch", "index", "x", "y", "activation", "y_hat", "updated", "w", "b")
    return ref.coef_, ref.intercept_, [{k: getattr(s, k) for k in keys} for s in ref.history_]
"""
    },
    "lab2": {
        "novikoff_bound": """
from perclib.theory import radius, mistake_bound
def novikoff_bound(X, y):
    return radius(X), max_margin(X, y)[2], mistake_bound(X, y)
"""
    },
    "lab3": {
        "averaged_fit": """
from perclib import AveragedPerceptron
def averaged_fit(X, y, eta=1.0, max_iter=10):
    ref = AveragedPerceptron(eta=eta, max_iter=max_iter).fit(X, y)
    return ref.coef_, ref.intercept_
""",
        "multiclass_fit": """
from perclib import MulticlassPerceptron
def multiclass_fit(X, y, n_classes, eta=1.0, max_iter=10):
    ref = MulticlassPerceptron(eta=eta, max_iter=max_iter, average=True).fit(X, y)
    return ref.last_coef_, ref.last_intercept_, ref.coef_, ref.intercept_
""",
    },
    "lab4": {
        "pocket_fit": """
from perclib import PocketPerceptron
def pocket_fit(X, y, eta=1.0, max_iter=10):
    ref = PocketPerceptron(eta=eta, max_iter=max_iter).fit(X, y)
    return ref.coef_, ref.intercept_, ref.pocket_mistakes_
""",
        "perceptron_loss": """
from perclib.theory import perceptron_loss as _loss
def perceptron_loss(w, b, X, y):
    return float(np.mean(_loss(y, np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + b)))
""",
        "perceptron_subgradient": """
import perclib.theory
def perceptron_subgradient(w, b, X, y):
    g_w, g_b = perclib.theory.perceptron_subgradient(X, y, w, b)
    return g_w / len(y), g_b / len(y)
""",
        "voted_predict": """
from perclib import VotedPerceptron
def voted_predict(weights, intercepts, counts, X):
    ref = VotedPerceptron()
    ref.weights_, ref.intercepts_ = np.asarray(weights, float), np.asarray(intercepts, float)
    ref.counts_, ref.classes_ = np.asarray(counts), np.array([-1, 1])
    ref.n_features_in_ = ref.weights_.shape[1]
    return ref.predict(X)
""",
        "averaged_predict": """
from perclib import AveragedPerceptron
def averaged_predict(weights, intercepts, counts, X):
    c = np.asarray(counts, float)
    ref = AveragedPerceptron()
    ref.coef_ = c @ np.asarray(weights, float)
    ref.intercept_ = float(c @ np.asarray(intercepts, float))
    ref.classes_, ref.n_features_in_ = np.array([-1, 1]), ref.coef_.shape[0]
    return ref.predict(X)
""",
    },
    "lab5": {
        "linear_kernel": """
import sklearn.metrics.pairwise as pairwise
def linear_kernel(A, B):
    return pairwise.linear_kernel(A, B)
""",
        "polynomial_kernel": """
from sklearn.metrics.pairwise import pairwise_kernels
def polynomial_kernel(A, B, degree=2, gamma=1.0, coef0=1.0):
    return pairwise_kernels(A, B, metric="poly", degree=degree, gamma=gamma, coef0=coef0)
""",
        # No function of the student's: scikit-learn's own under the graded name.
        "rbf_kernel": """
from sklearn.metrics.pairwise import rbf_kernel
""",
        "dual_fit": """
from perclib import KernelPerceptron
def dual_fit(K, y, max_iter=10):
    ref = KernelPerceptron(kernel="precomputed", max_iter=max_iter).fit(np.asarray(K, float), y)
    alpha = np.zeros(len(y))
    alpha[ref.support_] = np.abs(ref.dual_coef_)
    return alpha, ref.intercept_, ref.n_iter_
""",
        "dual_predict": """
from perclib import KernelPerceptron
def dual_predict(alpha, b, y, K):
    K = np.asarray(K, float)
    ref = KernelPerceptron(kernel="precomputed")
    ref.support_, ref.n_features_in_ = np.arange(K.shape[1]), K.shape[1]
    ref.dual_coef_ = np.asarray(alpha, float) * np.asarray(y, float)
    ref.intercept_, ref.classes_ = float(b), np.array([-1.0, 1.0])
    return ref.predict(K)
""",
    },
}

# Wrong variants: edits of the solution cells (grade_id, old, new), the function they break, the
# test that must fail and a phrase of its hint. Any other failing test must belong to that function.
WRONG = {
    "lab1": {
        "no-eta": (
            [
                (
                    "perceptron_step",
                    "return w + eta * y * x, b + eta * y, True",
                    "return w + y * x, b + y, True",
                )
            ],
            "perceptron_step",
            "test_step_mistake",
            "multiply by the learning rate",
        ),
        "strict-less-than": (
            [("perceptron_step", "if y * a <= 0:", "if y * a < 0:")],
            "perceptron_step",
            "test_step_tie",
            "y*a = 0) is a mistake too",
        ),
        "no-bias-in-activation": (
            [("perceptron_step", "a = np.dot(w, x) + b", "a = np.dot(w, x)")],
            "perceptron_step",
            "test_step_mistake",
            "with the bias",
        ),
        "updates-correct-points": (
            [
                (
                    "perceptron_step",
                    "    if y * a <= 0:\n        return w + eta * y * x, b + eta * y, True\n"
                    "    return w.copy(), b, False",
                    "    return w + eta * y * x, b + eta * y, True",
                )
            ],
            "perceptron_step",
            "test_step_correct",
            "already classified correctly",
        ),
        "wrong-direction": (
            [("perceptron_step", "return w + eta * y * x,", "return w - eta * y * x,")],
            "perceptron_step",
            "test_step_mistake",
            "w moved the wrong way",
        ),
        "sign-convention": (
            [("fit", '"y_hat": 1.0 if a >= 0 else -1.0', '"y_hat": 1.0 if a > 0 else -1.0')],
            "fit",
            "test_history_format",
            "a point on the boundary predicts +1",
        ),
        "activation-after-step": (
            [
                (
                    "fit",
                    "            a = float(np.dot(w, X[i]) + b)\n"
                    "            w, b, updated = perceptron_step(w, b, X[i], y[i], eta)\n",
                    "            w, b, updated = perceptron_step(w, b, X[i], y[i], eta)\n"
                    "            a = float(np.dot(w, X[i]) + b)\n",
                )
            ],
            "fit",
            "test_fit",
            "after the step",
        ),
        "max-iter-minus-one": (
            [("fit", "range(1, max_iter + 1)", "range(1, max_iter)")],
            "fit",
            "test_fit",
            "max_iter - 1 epochs",
        ),
    },
    "lab2": {
        "radius-without-bias": (
            [("novikoff_bound", "np.sqrt(1.0 + np.max(", "np.sqrt(np.max(")],
            "novikoff_bound",
            "test_bound",
            "leaves out the bias coordinate",
        ),
        "bound-unsquared": (
            [("novikoff_bound", "(R / gamma) ** 2", "R / gamma")],
            "novikoff_bound",
            "test_bound",
            "your bound is R/gamma",
        ),
        "counts-epochs": (
            [("count_updates", "counts.append(clf.n_updates_)", "counts.append(clf.n_iter_)")],
            "count_updates",
            "test_count_updates",
            "you counted epochs",
        ),
        "max-is-mean": (
            [("margin_experiment", "counts.max(), counts.mean()", "counts.mean(), counts.mean()")],
            "margin_experiment",
            "test_experiment",
            "holds the mean",
        ),
        "slope-not-log": (
            [("summarize", 'np.log(table["bound"]), 1)', 'table["bound"], 1)')],
            "summarize",
            "test_summarize",
            "bound_slope is off",
        ),
    },
    "lab3": {
        "counter-on-updates-only": (
            [
                (
                    "averaged_fit",
                    "beta = beta + eta * y[i] * c\n            c += 1",
                    "beta = beta + eta * y[i] * c\n                c += 1",
                )
            ],
            "averaged_fit",
            "test_averaged",
            "your c counts updates only",
        ),
        "naive-average": (
            [
                (
                    "averaged_fit",
                    "= SOURCE",
                    """
def averaged_fit(X, y, eta=1.0, max_iter=10):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    total_w, total_b, count = w.copy(), 0.0, 1
    for _ in range(max_iter):
        for i in range(len(y)):
            if y[i] * (np.dot(w, X[i]) + b) <= 0:
                w, b = w + eta * y[i] * X[i], b + eta * y[i]
            total_w, total_b, count = total_w + w, total_b + b, count + 1
    return total_w / count, total_b / count
""",
                )
            ],
            "averaged_fit",
            "test_averaged_lazy",
            "naive O(T d) average",
        ),
        "no-demotion": (
            [("multiclass_step", "    W[y_hat] -= eta * x\n    b[y_hat] -= eta\n", "")],
            "multiclass_step",
            "test_multiclass_step",
            "did not lower the predicted class",
        ),
        "average-is-last": (
            [("multiclass_fit", "return W, b, W - U / c, b - beta / c", "return W, b, W, b")],
            "multiclass_fit",
            "test_multiclass_fit",
            "last iterate as the average",
        ),
    },
    "lab4": {
        "boundary-counts-by-sign": (
            [
                (
                    "training_mistakes",
                    "return int(np.count_nonzero(margins <= 0))",
                    "predictions = np.where(X @ np.asarray(w, dtype=float) + b >= 0, 1.0, -1.0)\n"
                    "    return int(np.count_nonzero(predictions != y))",
                )
            ],
            "training_mistakes",
            "test_mistakes",
            "a point on the boundary",
        ),
        "pocket-keeps-last": (
            [
                (
                    "pocket_fit",
                    "return pocket_w, pocket_b, pocket_mistakes",
                    "return w, b, training_mistakes(w, b, X, y)",
                )
            ],
            "pocket_fit",
            "test_pocket",
            "you returned the last iterate",
        ),
        "pocket-ties-replace": (
            [("pocket_fit", "if now < pocket_mistakes:", "if now <= pocket_mistakes:")],
            "pocket_fit",
            "test_pocket",
            "strictly fewer mistakes",
        ),
        "hinge-loss": (
            [
                (
                    "perceptron_loss",
                    "np.maximum(0.0, -y * activations)",
                    "np.maximum(0.0, 1.0 - y * activations)",
                )
            ],
            "perceptron_loss",
            "test_loss",
            "that is the hinge loss",
        ),
        "subgradient-sign": (
            [
                (
                    "perceptron_subgradient",
                    "np.where(margins <= 0, -y, 0.0)",
                    "np.where(margins <= 0, y, 0.0)",
                )
            ],
            "perceptron_subgradient",
            "test_subgradient",
            "the wrong sign",
        ),
        "voted-by-averaging": (
            [
                (
                    "voted_predict",
                    "    votes = np.where(X @ weights.T + intercepts >= 0, 1.0, -1.0)\n"
                    "    return np.where(votes @ counts >= 0, 1.0, -1.0)",
                    "    return np.where(\n"
                    "        X @ (counts @ weights) + counts @ intercepts >= 0, 1.0, -1.0\n"
                    "    )",
                )
            ],
            "voted_predict",
            "test_voted",
            "you used the averaged rule",
        ),
        "averaged-by-voting": (
            [
                (
                    "averaged_predict",
                    "    w_sum, b_sum = counts @ weights, counts @ intercepts\n"
                    "    return np.where(X @ w_sum + b_sum >= 0, 1.0, -1.0)",
                    "    votes = np.where(X @ weights.T + intercepts >= 0, 1.0, -1.0)\n"
                    "    return np.where(votes @ counts >= 0, 1.0, -1.0)",
                )
            ],
            "averaged_predict",
            "test_averaged",
            "you let the iterates vote",
        ),
    },
    "lab5": {
        "linear-transposed": (
            [("linear_kernel", "return A @ B.T", "return B @ A.T")],
            "linear_kernel",
            "test_linear",
            "returned K(B, A)",
        ),
        "poly-without-gamma": (
            [
                (
                    "polynomial_kernel",
                    "return (gamma * (A @ B.T) + coef0) ** degree",
                    "return (A @ B.T + coef0) ** degree",
                )
            ],
            "polynomial_kernel",
            "test_polynomial",
            "leaves out gamma",
        ),
        "poly-without-coef0": (
            [
                (
                    "polynomial_kernel",
                    "return (gamma * (A @ B.T) + coef0) ** degree",
                    "return (gamma * (A @ B.T)) ** degree",
                )
            ],
            "polynomial_kernel",
            "test_polynomial",
            "leaves out coef0",
        ),
        "rbf-distance-unsquared": (
            [
                (
                    "rbf_kernel",
                    "np.exp(-gamma * np.maximum(squared, 0.0))",
                    "np.exp(-gamma * np.sqrt(np.maximum(squared, 0.0)))",
                )
            ],
            "rbf_kernel",
            "test_rbf",
            "the kernel takes its square",
        ),
        "rbf-gamma-divides": (
            [
                (
                    "rbf_kernel",
                    "np.exp(-gamma * np.maximum(squared, 0.0))",
                    "np.exp(-np.maximum(squared, 0.0) / gamma)",
                )
            ],
            "rbf_kernel",
            "test_rbf",
            "it does not divide it",
        ),
        "fit-strict-less-than": (
            [("dual_fit", "if y[i] * a <= 0:", "if y[i] * a < 0:")],
            "dual_fit",
            "test_dual_fit",
            "activation exactly 0",
        ),
        "fit-no-bias": (
            [("dual_fit", "                b += y[i]\n", "")],
            "dual_fit",
            "test_dual_fit",
            "b never changed",
        ),
        "fit-no-early-stop": (
            [("dual_fit", "        if clean:\n            break\n", "")],
            "dual_fit",
            "test_dual_fit",
            "stop after the first epoch without a mistake",
        ),
        "fit-signed-alpha": (
            [
                ("dual_fit", "alpha[i] += 1", "alpha[i] += y[i]"),
                (
                    "dual_fit",
                    "a = np.dot(alpha * y, K[:, i]) + b",
                    "a = np.dot(alpha, K[:, i]) + b",
                ),
            ],
            "dual_fit",
            "test_dual_fit",
            "your alpha holds alpha_i y_i",
        ),
        "predict-np-sign": (
            [
                (
                    "dual_predict",
                    "return np.where(activations >= 0, 1.0, -1.0)",
                    "return np.sign(activations)",
                )
            ],
            "dual_predict",
            "test_dual_predict",
            "np.sign(0) is 0",
        ),
        "predict-zero-is-minus": (
            [
                (
                    "dual_predict",
                    "return np.where(activations >= 0, 1.0, -1.0)",
                    "return np.where(activations > 0, 1.0, -1.0)",
                )
            ],
            "dual_predict",
            "test_dual_predict",
            "activation exactly 0 predicts +1",
        ),
        "predict-without-labels": (
            [("dual_predict", "activations = K @ (alpha * y) + b", "activations = K @ alpha + b")],
            "dual_predict",
            "test_dual_predict",
            "leaves out the labels",
        ),
    },
}
for _lab, _wrappers in WRAPPERS.items():
    for _name, _src in _wrappers.items():
        WRONG[_lab][f"wrapper-{_name}"] = (
            [(_name, "= SOURCE", _src)],
            _name,
            sorted(FUNCTIONS[_lab][_name])[0],
            "is not available while your function is graded",
        )

# Correct work in another form: every test passes.
CORRECT = {
    "lab1": [
        (
            "perceptron_step",
            "    a = np.dot(w, x) + b\n",
            "    w, x = np.asarray(w, np.float32), np.asarray(x, np.float32)\n"
            "    a = np.dot(w, x) + np.float32(b)\n",
        ),
        (
            "perceptron_step",
            "return w + eta * y * x, b + eta * y, True",
            "return [w + eta * y * x, b + eta * y, True]",
        ),
        ("fit", '"b": float(b),\n', '"b": float(b),\n                    "margin": y[i] * a,\n'),
        ("fit", "return w, b, history", "return [w, b, tuple(history)]"),
    ],
    "lab2": [
        (
            "novikoff_bound",
            "return R, gamma, (R / gamma) ** 2",
            "return [R, gamma, (R / gamma) ** 2]",
        ),
        ("margin_experiment", "keys = (", "rows = [r + (len(r),) for r in rows]\n    keys = ("),
        ("margin_experiment", '"updates_mean")', '"updates_mean", "n_rows")'),
        ("summarize", '"max_fraction":', '"n_margins": len(log_gamma),\n        "max_fraction":'),
    ],
    "lab3": [
        (
            "averaged_fit",
            "    X = np.asarray(X, dtype=float)\n    y = np.asarray(y, dtype=float)\n",
            "    X = np.asarray(X, dtype=np.float32)\n    y = np.asarray(y, dtype=np.float32)\n",
        ),
        (
            "averaged_fit",
            "w, b = np.zeros(d), 0.0\n    u, beta = np.zeros(d), 0.0",
            "w, b = np.zeros(d, np.float32), 0.0\n    u, beta = np.zeros(d, np.float32), 0.0",
        ),
        ("multiclass_step", "return W, b, True", "return [W, b, True]"),
    ],
    "lab4": [
        (
            "training_mistakes",
            "return int(np.count_nonzero(margins <= 0))",
            "return np.sum(margins <= 0)",
        ),
        (
            "pocket_fit",
            "return pocket_w, pocket_b, pocket_mistakes",
            "return [pocket_w.astype(np.float32).tolist(), pocket_b, pocket_mistakes]",
        ),
        (
            "perceptron_loss",
            "activations = X @ np.asarray(w, dtype=float) + b",
            "X = X.astype(np.float32)\n    activations = X @ np.asarray(w, dtype=np.float32) + b",
        ),
        # Another element of the subdifferential at the kink: t = 0 (strict y*a < 0) instead of 1.
        (
            "perceptron_subgradient",
            "np.where(margins <= 0, -y, 0.0)",
            "np.where(margins < 0, -y, 0.0)",
        ),
        (
            "perceptron_subgradient",
            "return coef @ X, float(coef.sum())",
            "return list(coef @ X), coef.sum()",
        ),
        (
            "voted_predict",
            "return np.where(votes @ counts >= 0, 1.0, -1.0)",
            "return [1 if v >= 0 else -1 for v in votes @ counts]",
        ),
        (
            "averaged_predict",
            "return np.where(X @ w_sum + b_sum >= 0, 1.0, -1.0)",
            "return tuple(np.where(X @ w_sum + b_sum >= 0, 1, -1).astype(np.int8))",
        ),
    ],
    "lab5": [
        # Loops and lists instead of matrix products.
        (
            "linear_kernel",
            "= SOURCE",
            """
def linear_kernel(A, B):
    return [[sum(float(a) * float(b) for a, b in zip(r, s)) for s in B] for r in A]
""",
        ),
        (
            "polynomial_kernel",
            "return (gamma * (A @ B.T) + coef0) ** degree",
            "return ((gamma * (A @ B.T) + coef0) ** degree).astype(np.float32)",
        ),
        # scipy's squared distances (not a kernel model), by broadcasting in another order.
        (
            "rbf_kernel",
            "= SOURCE",
            """
from scipy.spatial.distance import cdist
def rbf_kernel(A, B, gamma=1.0):
    return tuple(np.exp(-gamma * cdist(np.atleast_2d(A), np.atleast_2d(B), "sqeuclidean")))
""",
        ),
        # Integer counts and bias, the activation from K's row, a list for alpha.
        ("dual_fit", "alpha, b = np.zeros(n), 0.0", "alpha, b = np.zeros(n, dtype=np.int64), 0"),
        ("dual_fit", "a = np.dot(alpha * y, K[:, i]) + b", "a = K[i] @ (alpha * y) + b"),
        ("dual_fit", "return alpha, b, n_epochs", "return [alpha.tolist(), b, np.int64(n_epochs)]"),
        (
            "dual_predict",
            "return np.where(activations >= 0, 1.0, -1.0)",
            "return [1 if a >= 0 else -1 for a in activations]",
        ),
    ],
}
# The labs TestLabs grades, each with its proof set above.
PROOF_SETS = sorted(FUNCTIONS)
PIN = "SEED = 1\nnp.random.seed(1)\nimport os; os.environ['PERCLIB_LAB_SEED'] = '1'\n"


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load_build():
    return _load("labs_build", LABS / "build.py")


def _cells(nb, kind):
    return {
        c.metadata["nbgrader"]["grade_id"]: c
        for c in nb.cells
        if c.metadata.get("nbgrader", {}).get(kind)
    }


def _solved(release_nb, source_nb, edits=(), pin=False):
    """The released notebook, answered with the instructor's solution, then edited."""
    nb = nbformat.from_dict(json.loads(json.dumps(release_nb)))
    answers = _cells(source_nb, "solution")
    for gid, cell in _cells(nb, "solution").items():
        cell.source = SOLUTION.sub("", answers[gid].source)
        if cell.cell_type == "markdown":
            cell.source = "My answer, in my own words."
    for gid, old, new in edits:
        cell = _cells(nb, "solution")[gid]
        if old == "= SOURCE":
            cell.source = new.strip("\n")
        else:
            assert cell.source.count(old) == 1, f"the edit {old!r} does not apply to {gid}"
            cell.source = cell.source.replace(old, new)
    if pin:
        first = next(c for c in _cells(nb, "solution").values() if c.cell_type == "code")
        first.source = PIN + first.source
    return nb


def _visible_only(lab, course, release_nb, source_nb, tmp):
    """A notebook made only of the visible tests' answers: each function looks its result up.

    The solution notebook runs once with every graded function wrapped to record the calls the
    visible tests make; the submission replaces each function by a lookup in those records.
    """
    script = tmp / f"record_{lab}.py"
    funcs = [f for f in FUNCTIONS[lab]]
    solved = _solved(release_nb, source_nb)
    lines = [
        "import matplotlib",
        "matplotlib.use('Agg')",  # the solution's figures: drawn off-screen
        "import pickle, functools",
        "RECORD = {}",
        "def _rec(name, f):\n    @functools.wraps(f)\n    def g(*a, **k):\n"
        "        out = f(*a, **k)\n"
        "        try:\n            key = pickle.dumps((a, sorted(k.items())))\n"
        "            if len(key) < 4000: RECORD.setdefault(name, {})[key] = out\n"
        "        except Exception:\n            pass\n        return out\n    return g",
    ]
    for cell in solved.cells:
        if cell.cell_type != "code" or "nbval-ignore-output" in cell.metadata.get("tags", []):
            continue
        src = re.sub(r"### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS", "", cell.source, flags=re.S)
        src = re.sub(r"^%.*$", "", src, flags=re.M)  # IPython's magics (%matplotlib) are not Python
        wrap = "".join(
            f"\nif '{f}' in dir() and not hasattr({f}, '__wrapped__'): {f} = _rec('{f}', {f})"
            for f in funcs
        )
        lines.append(
            f"try:\n    exec({src!r})\nexcept Exception as e:\n"
            f"    print('skipped:', type(e).__name__){wrap}"
        )
    lines.append(f"pickle.dump(RECORD, open({str(tmp / f'{lab}.pkl')!r}, 'wb'))")
    script.write_text("\n".join(lines))
    subprocess.run([sys.executable, script.name], check=True, capture_output=True, cwd=tmp)
    record = pickle.loads((tmp / f"{lab}.pkl").read_bytes())
    # Each graded function must have answers to look up: otherwise this submission would be a
    # notebook of functions returning None, which proves nothing about the hidden tests.
    missing = [f for f in funcs if not record.get(f)]
    assert not missing, f"{lab}: the visible tests' calls of {missing} were not recorded"
    edits = []
    for f in funcs:
        table = record.get(f, {})
        edits.append(
            (
                f,
                "= SOURCE",
                f"import pickle\n_{f}_answers = pickle.loads({pickle.dumps(table)!r})\n"
                f"def {f}(*args, **kwargs):\n"
                f"    return _{f}_answers.get(pickle.dumps((args, sorted(kwargs.items()))))",
            )
        )
    return _solved(release_nb, source_nb, edits)


def _secret_lines(course, lab):
    """Lines of solutions, hidden tests and rubrics of a lab's source (12 characters or more)."""
    source_nb = nbformat.read(course / "source" / lab / f"{lab}.ipynb", as_version=4)
    text = "\n".join(c.source for c in source_nb.cells)
    return {
        ln.strip()
        for m in REGION.finditer(text)
        for ln in m.group(2).splitlines()
        if len(ln.strip()) >= 12
    }


def _public_text():
    """What the course publishes anyway: the lab sources outside their secret regions, and
    notebooks/."""
    texts = []
    for path in sorted(LABS.glob("source/*/*.ipynb")):
        texts.append(
            REGION.sub("", "\n".join(c.source for c in nbformat.read(path, as_version=4).cells))
        )
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        texts.append("\n".join(c.source for c in nbformat.read(path, as_version=4).cells))
    return "\n".join(texts)


def _grader_lines():
    """Lines of the grader's code (24 characters or more) that the course does not publish
    anyway."""
    lines = set()
    for path in (LABS / "grader").rglob("*.py"):
        lines |= {
            ln.strip()
            for ln in path.read_text().splitlines()
            if len(ln.strip()) >= 24
            and not ln.strip().startswith(("#", "import ", "from ", '"""'))
            and not re.fullmatch(r'"\w+",?', ln.strip())  # a function's name: public anyway
        }
    public = _public_text()
    flat = " ".join(public.split())  # the text of the labs' markdown, whatever its line breaks
    return {ln for ln in lines if ln not in public and " ".join(ln.split()) not in flat}


def _hint_text():
    """The grader's string constants: the hints, which may state the rule they check (lab 3's
    "W[y_hat] -= eta*x and b[y_hat] -= eta") and which a failed test shows by design."""
    texts = []
    for path in (LABS / "grader").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                texts.append(node.value)
    return "\n".join(texts)


def _leaks(texts, secrets):
    """Secret lines found in the texts. A line that also appears in the public part is still a leak:
    it is how a solution reaches the student version."""
    joined = "\n".join(texts)
    return sorted(ln for ln in secrets if ln in joined)


def _course(tmp):
    """A copy of the course directory (the repository is never written)."""
    course = tmp / "course"
    shutil.copytree(
        LABS,
        course,
        ignore=shutil.ignore_patterns(
            "release",
            "submitted",
            "autograded",
            "feedback",
            "gradebook.db",
            "__pycache__",
            ".ipynb_checkpoints",
        ),
    )
    return course


@pytest.fixture(scope="session")
def build():
    """The labs' build module (labs/build.py), which runs nbgrader as a plain command."""
    return _load_build()


def _grade(tmp, build, labs):
    """Build every lab in one course, submit the whole set of submissions of each of ``labs``, and
    grade them all in one run (each submission in its own sandbox, two processes), feedback
    included.

    One course for all the labs: nbgrader starts once to build them and once to write the
    feedback, instead of twice per lab.
    """
    course = _course(tmp)
    env = build.jupyter_env(tmp / "jupyter")
    db = f"sqlite:///{tmp / 'gradebook.db'}"
    assert build.generate(course, db=db, env=env) == PROOF_SETS
    # Making a lab's set runs its solution once, in a Python process of its own: two at a time.
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda lab: _submit_proof_set(course, lab, tmp), labs))
    rows = build.autograde(course, db=db, env=env, feedback=True, release=False, jobs=2)
    print("\n" + build.format_table(rows))
    by_lab = {lab: {r["student"]: r for r in rows if r["lab"] == lab} for lab in labs}
    return {"course": course, "rows": by_lab}


def _submit_proof_set(course, lab, tmp):
    """Put a lab's proof set into ``course/submitted/<student>/<lab>/``.

    The set: the instructor's solution, the untouched student version, each listed wrong variant,
    a wrapper around perclib per wrapped function, the visible tests' answers only, the correct
    variants, the solution and the first wrong variant with the seed pinned by the student, the
    first wrong variant submitted twice (the one submission graded twice: two runs must agree),
    and the attacks on the grader.
    """
    source_nb = nbformat.read(course / "source" / lab / f"{lab}.ipynb", as_version=4)
    release_nb = nbformat.read(course / "release" / lab / f"{lab}.ipynb", as_version=4)

    def submit(student, nb):
        folder = course / "submitted" / student / lab
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{lab}.ipynb")

    submit("solution", _solved(release_nb, source_nb))
    submit("solution-pinned-seed", _solved(release_nb, source_nb, pin=True))
    submit("untouched", release_nb)
    submit("correct-variants", _solved(release_nb, source_nb, CORRECT[lab]))
    submit("visible-tests-only", _visible_only(lab, course, release_nb, source_nb, tmp))
    for student, (edits, *_) in WRONG[lab].items():
        submit(student, _solved(release_nb, source_nb, edits))
    first = next(iter(WRONG[lab]))
    submit(f"{first}-pinned-seed", _solved(release_nb, source_nb, WRONG[lab][first][0], pin=True))
    submit(f"{first}-again", _solved(release_nb, source_nb, WRONG[lab][first][0]))
    for student, (cells, edits, base) in ATTACKS.get(lab, {}).items():
        nb = (
            _solved(release_nb, source_nb, edits)
            if base == "solution"
            else nbformat.from_dict(json.loads(json.dumps(release_nb)))
        )
        for text in cells:
            text = text.replace("COURSE", str(course))
            nb.cells.insert(2, nbformat.v4.new_code_cell(text))
        submit(student, nb)
    if lab == "lab1":
        _tamper(course, lab)


def _errors(course, student, lab):
    nb = nbformat.read(course / "autograded" / student / lab / f"{lab}.ipynb", as_version=4)
    return {
        gid: "\n".join(f"{o.ename}: {o.evalue}" for o in c.outputs if o.output_type == "error")
        for gid, c in _cells(nb, "grade").items()
        if c.cell_type == "code"
    }


def _full(row):
    return row["auto_max"] > 0 and row["auto"] == row["auto_max"]


# Attacks on the grader, each a submission: (cells added at the top, edits of the solution, base:
# "solution" or "untouched"). COURSE is replaced by the course folder: the worst case, a student
# who knows where the grader runs.
ATTACKS = {
    "lab1": {
        "attack-ast-transformer": (
            [
                "import ast\n"
                "class Shield(ast.NodeTransformer):\n"
                "    def visit_Module(self, node):\n"
                "        body = node.body or [ast.Pass()]\n"
                "        handler = ast.ExceptHandler(type=ast.Name('BaseException', ast.Load()),"
                " name=None, body=[ast.Pass()])\n"
                "        node.body = [ast.Try(body=body, handlers=[handler], orelse=[],"
                " finalbody=[])]\n"
                "        return ast.fix_missing_locations(node)\n"
                "get_ipython().ast_transformers.append(Shield())"
            ],
            [],
            "untouched",
        ),
        "attack-gradebook": (
            [
                "import sqlite3\n"
                "db = sqlite3.connect('COURSE/gradebook.db')\n"
                "db.execute('UPDATE grade SET manual_score = max_score'); db.commit()"
            ],
            [],
            "untouched",
        ),
        "attack-stack-peek": (
            [],
            [
                (
                    "fit",
                    "= SOURCE",
                    "import sys\n"
                    "def fit(X, y, eta=1.0, max_iter=100):\n"
                    "    f = sys._getframe(1)\n"
                    "    while f is not None:\n"
                    "        if 'want_w' in f.f_locals:\n"
                    "            loc = f.f_locals\n"
                    "            return loc['want_w'], loc['want_b'], loc['ref']\n"
                    "        f = f.f_back\n"
                    "    return None",
                )
            ],
            "solution",
        ),
        "attack-sabotage": (
            [
                "import glob\n"
                "for p in glob.glob('COURSE/submitted/*/lab1/lab1.ipynb') + "
                "glob.glob('../../*/lab1/lab1.ipynb'):\n"
                "    open(p, 'w').write('{}')"
            ],
            [],
            "solution",
        ),
        "attack-output-flood": (["for i in range(20000):\n    print('flood', i)"], [], "solution"),
    },
    "lab2": {
        "attack-read-source": (
            [
                "import json, pathlib\n"
                "for p in [pathlib.Path('COURSE/source/lab2/lab2.ipynb'), "
                "*pathlib.Path.cwd().parents]:\n"
                "    for nb in ([p] if p.suffix else p.glob('**/source/lab2/lab2.ipynb')):\n"
                "        for c in json.loads(nb.read_text())['cells']:\n"
                "            if 'BEGIN SOLUTION' in ''.join(c['source']):\n"
                "                exec(''.join(c['source']))"
            ],
            [],
            "untouched",
        ),
        "max-margin-imported": (
            [],
            [
                (
                    "novikoff_bound",
                    "gamma = max_margin(X, y)[2]",
                    "import perclib.theory\n    gamma = perclib.theory.max_margin(X, y)[2]",
                )
            ],
            "solution",
        ),
    },
    "lab3": {
        "attack-patch-numpy": (
            [
                "import numpy as np\n"
                "np.all = np.allclose = np.isclose = np.array_equal = lambda *a, **k: True"
            ],
            [],
            "untouched",
        ),
        "lazy-augmented": (
            [],
            [
                (
                    "averaged_fit",
                    "= SOURCE",
                    """
def averaged_fit(X, y, eta=1.0, max_iter=10):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    n, d = X.shape
    v, u, c = np.zeros(d + 1), np.zeros(d + 1), 1
    for _ in range(max_iter):
        for i in range(n):
            z = np.append(X[i], 1.0)  # a new vector per example: the augmented example
            if y[i] * (v @ z) <= 0:
                v = v + eta * y[i] * z
                u = u + eta * y[i] * c * z
            c += 1
    avg = v - u / c
    return avg[:d], avg[d]
""",
                )
            ],
            "solution",
        ),
        "endless-loop": (
            [],
            [("multiclass_step", "y_hat = int(np.argmax(W @ x + b))", "while True:\n        pass")],
            "solution",
        ),
    },
    "lab4": {
        "attack-import-grader": (
            [
                "import importlib\n"
                "g = importlib.import_module('lab' + 'grader' + '.lab4')\n"
                "training_mistakes = g.ref_mistakes"
            ],
            [],
            "untouched",
        ),
        "attack-hinge": (
            [],
            [
                (
                    "perceptron_loss",
                    "= SOURCE",
                    "from sklearn.linear_model._sgd_fast import Hinge\n"
                    "def perceptron_loss(w, b, X, y):\n"
                    "    a = np.asarray(X, float) @ np.asarray(w, float) + b\n"
                    "    h = Hinge(0.0)\n"
                    "    return float(np.mean([h.py_loss(ai, yi) for ai, yi in zip(a, y)]))",
                )
            ],
            "solution",
        ),
        "attack-leak": (
            [],
            [
                (
                    "pocket_fit",
                    "= SOURCE",
                    "def pocket_fit(X, y, eta=1.0, max_iter=10):\n"
                    "    print('pocket_fit called with', np.asarray(X).tolist())\n"
                    "    raise ValueError('LEAKED ' + repr(np.asarray(X).tolist()))",
                )
            ],
            "solution",
        ),
    },
    "lab5": {
        # scikit-learn's kernel reached by a name the code-reading cannot resolve: the worker's
        # blocker stops it while rbf_kernel is graded.
        "attack-kernel-by-name": (
            [],
            [
                (
                    "rbf_kernel",
                    "= SOURCE",
                    "import importlib\n"
                    "def rbf_kernel(A, B, gamma=1.0):\n"
                    "    m = importlib.import_module('sklearn.metrics.' + 'pair' + 'wise')\n"
                    "    return m.rbf_kernel(np.asarray(A, float), np.asarray(B), gamma=gamma)",
                )
            ],
            "solution",
        ),
        "attack-grader-reference": (
            [
                "import importlib\n"
                "g = importlib.import_module('lab' + 'grader' + '.lab5')\n"
                "dual_fit = lambda K, y, max_iter=10: g.ref_dual_fit(K, y, max_iter)[:3]\n"
                "rbf_kernel, dual_predict = g.ref_rbf, g.ref_dual_predict"
            ],
            [],
            "untouched",
        ),
    },
}


def _tamper(course, lab):
    """A solution whose test cell lost its points and whose other test cell was deleted."""
    path = course / "submitted" / "solution" / lab / f"{lab}.ipynb"
    nb = nbformat.read(path, as_version=4)
    tests = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade") and
             c.cell_type == "code"]  # fmt: skip
    tests[0].metadata["nbgrader"]["points"] = 0
    nb.cells.remove(tests[1])
    folder = course / "submitted" / "tampered-metadata" / lab
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{lab}.ipynb")


@pytest.fixture(scope="class")
def graded_course(request, tmp_path_factory, build):
    """Every lab built and its proof set graded, in one course: once, for the one class that uses
    it. Only the labs of the selected tests are graded (``-k lab4``: lab 4 alone)."""
    mine = [item for item in request.session.items if getattr(item, "cls", None) is TestLabs]
    labs = sorted({item.callspec.params["lab"] for item in mine if "lab" in item.fixturenames})
    return _grade(tmp_path_factory.mktemp("graded"), build, labs)


@pytest.fixture(params=PROOF_SETS)
def lab(request):
    """Each lab in turn: a test that takes ``lab`` runs once per lab."""
    return request.param


@pytest.fixture
def graded(graded_course, lab):
    """One lab's part of the graded course: the course folder and the lab's rows by student."""
    return {"course": graded_course["course"], "rows": graded_course["rows"][lab]}


# Other submissions whose feedback must show a hint: {lab: ((student, a phrase of it), ...)}.
FEEDBACK = {"lab1": (("strict-less-than", "a point exactly on the boundary"),)}


class TestLabs:
    """The whole proof set of every lab, graded once; each test that takes ``lab`` runs per lab.

    One class: ``--dist loadscope`` keeps it on one worker, which grades (on two processes) while
    the other worker runs nbval over labs/source and the tests outside the class.
    """

    @pytest.mark.parametrize("student", ["solution", "solution-pinned-seed", "correct-variants"])
    def test_correct_work_gets_full_marks(self, graded, lab, student):
        row = graded["rows"][student]
        assert _full(row), (
            f"{lab}/{student}: {row['auto']}/{row['auto_max']}, "
            f"{_errors(graded['course'], student, lab)}"
        )

    @pytest.mark.parametrize("student", ["untouched", "visible-tests-only"])
    def test_no_work_gets_no_marks(self, graded, lab, student):
        row = graded["rows"][student]
        assert row["auto"] == 0, (
            f"{lab}/{student} scored {row['auto']}: failed only {row['failed']}"
        )

    def test_a_slip_costs_only_its_function(self, graded, lab):
        assert graded["rows"].keys() >= WRONG[lab].keys()
        for student, (_, function, must_fail, phrase) in WRONG[lab].items():
            failed = set(graded["rows"][student]["failed"])
            assert must_fail in failed, (
                f"{lab}/{student}: {must_fail} passed; failed: {sorted(failed)}"
            )
            assert failed <= FUNCTIONS[lab][function], (
                f"{lab}/{student}: a slip in {function} also failed "
                f"{sorted(failed - FUNCTIONS[lab][function])}: "
                f"{_errors(graded['course'], student, lab)}"
            )
            error = _errors(graded["course"], student, lab)[must_fail]
            assert phrase in error, (
                f"{lab}/{student}: {must_fail} should say {phrase!r}; it says {error!r}"
            )

    def test_wrappers_get_nothing_for_the_function_they_wrap(self, graded, lab):
        assert WRAPPERS[lab]
        for name in WRAPPERS[lab]:
            row = graded["rows"][f"wrapper-{name}"]
            assert set(row["failed"]) == FUNCTIONS[lab][name], (lab, name, row["failed"])

    def test_variants_are_per_student_and_grades_replay(self, graded, lab):
        """A student's SEED changes nothing; two runs of one notebook agree; each student's
        variant is recorded in the graded notebook, and two students' variants differ."""
        course = graded["course"]
        first = next(iter(WRONG[lab]))
        rows = [graded["rows"][s] for s in (first, f"{first}-pinned-seed", f"{first}-again")]
        assert all(r["failed"] == rows[0]["failed"] for r in rows), rows
        assert rows[0]["auto"] == rows[1]["auto"] == rows[2]["auto"], rows
        variants = {}
        for student in (first, "solution"):
            nb = nbformat.read(course / "autograded" / student / lab / f"{lab}.ipynb", as_version=4)
            text = [o.get("text", "") for c in _cells(nb, "grade").values()
                    if c.cell_type == "code" for o in c.outputs]  # fmt: skip
            variants[student] = graded["rows"][student]["variant"]
            assert text and all(
                f"variant {variants[student]}" in t for t in text if "[grader]" in t
            )
        assert variants[first] != variants["solution"]

    def test_attacks_earn_only_their_real_work(self, graded, lab):
        """Each attack gets what its real work earns (nothing for the untouched base; for a base
        with the solution, everything but the functions it cheats on), or is stopped and marked."""
        rows = graded["rows"]
        for student, (_, edits, base) in ATTACKS.get(lab, {}).items():
            row = rows[student]
            cheated = (
                set().union(*(FUNCTIONS[lab].get(e[0], set()) for e in edits)) if edits else set()
            )
            if base == "untouched":
                assert row["auto"] == 0, (lab, student, row)
            elif student in ("max-margin-imported", "lazy-augmented", "attack-output-flood",
                             "attack-sabotage"):  # fmt: skip
                assert _full(row), (lab, student, row)
            else:
                assert set(row["failed"]) == cheated, (lab, student, row["failed"], cheated)
        # Inputs, prints and the student's own exception text never reach the feedback (the
        # feedback shows the student's code, which names them: what must not appear is a value,
        # the message or the print rendered with a hidden input, "LEAKED [[..." or "with [[...").
        for student in ATTACKS.get(lab, {}):
            text, _ = _feedback(graded["course"], student, lab)
            assert not re.search(r"LEAKED \[|called with \[", text), (lab, student)

    def test_limits_and_tampering_are_marked(self, graded, lab):
        rows = graded["rows"]
        if lab == "lab3":
            row = rows["endless-loop"]
            assert row["status"] == "timed out", row
            assert set(row["failed"]) == {"test_multiclass_step"}, row
        if lab == "lab1":
            row = rows["tampered-metadata"]
            assert row["status"] == "tampered" and _full(row), row
            assert any("deleted" in r for r in row["reasons"]), row
            victim = graded["course"] / "submitted" / "solution" / "lab1" / "lab1.ipynb"
            assert nbformat.read(victim, as_version=4).cells, "a classmate's file was overwritten"
            assert rows["attack-gradebook"]["written"].startswith("0/"), rows["attack-gradebook"]

    def test_export_and_reports(self, graded, lab):
        course = graded["course"]
        lines = (course / "reports" / f"{lab}.csv").read_text().splitlines()
        assert lines[0].startswith("student,") and lines[0].endswith(",total,max,status,flags")
        assert len(lines) == len(graded["rows"]) + 1
        assert (course / "reports" / f"{lab}-questions.png").stat().st_size > 10_000
        pairs = (course / "reports" / f"{lab}-similarity.txt").read_text()
        # The solution and its pinned-seed copy differ only by a line: near-identical.
        assert "solution" in pairs, pairs

    def test_written_answers_await_manual_grading(self, graded, lab):
        rows = graded["rows"]
        assert rows["solution"]["written"].endswith("to grade"), rows["solution"]
        assert rows["untouched"]["written"].startswith("0/"), rows["untouched"]

    def test_feedback_shows_hints_not_hidden_tests(self, graded, lab):
        """Failed hidden tests show their hints; no feedback shows a line of a solution, a hidden
        test or the grader that the student did not write."""
        course = graded["course"]
        secrets = set().union(*(_secret_lines(LABS, name) for name in sorted(FUNCTIONS)))
        secrets |= _grader_lines()
        # The traceback of a failed hidden test shows the call to the grader: that much is public.
        secrets = {s for s in secrets if "labgrader" not in s and "_failure" not in s}
        first = next(iter(WRONG[lab]))
        for student, phrase in ((first, WRONG[lab][first][3]), *FEEDBACK.get(lab, ())):
            must_fail = WRONG[lab][student][2]
            text, _ = _feedback(course, student, lab)
            assert must_fail in text and phrase in text, (
                f"{lab}/{student}: the hint {phrase!r} of the failed hidden test is not in the "
                "feedback"
            )
        # The traceback of a failed hidden test shows its cell's lines around the failure: the call
        # to the grader and nothing else of the hidden part.
        students = sorted(graded["rows"])
        pages = (course / "feedback").glob(f"*/{lab}/*.html")
        assert sorted(p.parent.parent.name for p in pages) == students
        hints = _hint_text()
        for student in students:
            text, own = _feedback(course, student, lab)
            leaked = [ln for ln in _leaks([text], secrets) if ln not in own and ln not in hints]
            assert not leaked, (lab, student, leaked[:5])

    def test_student_pack_holds_no_solution_and_no_hidden_test(
        self, graded_course, build, tmp_path
    ):
        """The pack of the student versions that the graded course was built with."""
        labs, course = PROOF_SETS, graded_course["course"]
        files = build.student_pack(course, tmp_path / "pack", release=False)
        assert sorted(p.relative_to(tmp_path / "pack").as_posix() for p in files) == [
            f"{lab}/{lab}.ipynb" for lab in labs
        ], files
        secrets = set().union(*(_secret_lines(course, lab) for lab in labs)) | _grader_lines()
        assert len(secrets) > 100, f"too few secret lines to check ({len(secrets)})"
        total = 0
        for path in files:
            raw = path.read_text()
            nb = nbformat.reads(raw, as_version=4)
            assert not any(c.get("outputs") for c in nb.cells), (
                f"{path.name}: released with outputs"
            )
            assert "widgets" not in nb.metadata, (
                f"{path.name}: released with the instructor's widget state"
            )
            text = "\n".join(c.source for c in nb.cells)
            for marker in MARKERS:
                assert marker not in raw, f"{path.name} still holds '### {marker}'"
            assert "labgrader" not in raw, f"{path.name} names the grader"
            leaked = _leaks([raw, text], secrets)
            total += len(leaked)
            assert not leaked, f"{path.name} holds solution or hidden-test lines: {leaked[:5]}"
        checked = f"{len(secrets)} secret lines checked, {total} leaked"
        print(f"\nstudent pack: {len(files)} files, {checked}")


def _feedback(course, student, lab):
    """A feedback page's text (tags stripped, entities decoded: the code as the student reads it)
    and the lines of the student's own submission, which the page may of course show."""
    page = (course / "feedback" / student / lab / f"{lab}.html").read_text()
    text = html.unescape(re.sub(r"<[^>]*>", "", page))
    nb = nbformat.read(course / "submitted" / student / lab / f"{lab}.ipynb", as_version=4)
    return text, "\n".join(c.source for c in nb.cells)


def test_every_lab_has_its_proof_set():
    """Each lab of labs/source is graded by TestLabs: its functions, variants, wrappers."""
    labs = _load_build().assignments(LABS)
    assert labs == PROOF_SETS == sorted(WRONG) == sorted(CORRECT) == sorted(WRAPPERS)


# Lines of a lab solution that the course's notebooks teach in the open (notebook 02 starts its
# training loop with it; notebook 08 writes the linear kernel so): not a leak of the lab, listed
# here so that any other line still counts.
TAUGHT = {"w, b = np.zeros(X.shape[1]), 0.0", "return A @ B.T"}


def test_handouts_hold_no_lab_solution_or_hidden_test():
    """The handouts are built from notebooks/ and book/ (tools/build_handouts.py): check those
    inputs, and the built site when there is one."""
    secrets = (
        set().union(*(_secret_lines(LABS, lab) for lab in sorted(FUNCTIONS))) | _grader_lines()
    )
    secrets -= TAUGHT
    inputs = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
        p for p in (ROOT / "book").rglob("*") if p.is_file()
    )
    built = (
        sorted((ROOT / "_build" / "handouts").rglob("*.html"))
        if (ROOT / "_build" / "handouts").is_dir()
        else []
    )
    assert inputs
    for path in inputs + built:
        text = path.read_text(errors="replace")
        assert "labgrader" not in text and "BEGIN HIDDEN TESTS" not in text, path
        assert not _leaks([text], secrets), (path, _leaks([text], secrets)[:5])


def test_a_grader_error_is_never_the_students(monkeypatch):
    """A bug in the grader's own code (here lab 1's input maker of the step tests raises an
    IndexError) gives "failed to grade" with the reason, no hint and no points taken as the
    student's mistake, and the autograded notebook says the instructor will grade it. A data error
    that the student's own return value causes (a history of None) stays the student's hint."""
    monkeypatch.syspath_prepend(str(LABS / "grader"))
    import labgrader.lab1
    import labgrader.submission

    def broken(rng, kind):
        raise IndexError("a bug in the grader")

    monkeypatch.setattr(labgrader.lab1, "_step_case", broken)
    source = json.loads((LABS / "source" / "lab1" / "lab1.ipynb").read_text())
    for cell in source["cells"]:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "fit":
            cell["source"] = (
                "def fit(X, y, eta=1.0, max_iter=100):\n    return np.zeros(2), 0.0, [None]"
            )
    folder = pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / f"labs-grader-error-{os.getpid()}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    try:
        (folder / "lab1.ipynb").write_text(json.dumps(source))
        verdict = labgrader.submission.grade(LABS, "lab1", "alice", folder / "lab1.ipynb")
        # The autograded notebook is built on the release; the source's cells stand in for it.
        (folder / "release" / "lab1").mkdir(parents=True)
        shutil.copy(LABS / "source" / "lab1" / "lab1.ipynb", folder / "release" / "lab1")
        nb = _load_build()._autograded_notebook(folder, verdict)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    tests = verdict["tests"]
    assert verdict["status"] == "failed to grade", verdict
    steps = ("test_step_mistake", "test_step_correct")  # the tests that draw from _step_case
    assert tests["test_step_tie"]["score"] == tests["test_step_tie"]["points"], tests
    for name in steps:
        assert tests[name]["grader_error"] and tests[name]["hint"] is None, tests[name]
        assert any(name in r and "IndexError" in r for r in verdict["reasons"]), verdict["reasons"]
    assert tests["test_history_format"]["hint"], tests["test_history_format"]
    assert not tests["test_history_format"]["grader_error"], tests["test_history_format"]
    shown = {
        c["metadata"]["nbgrader"]["grade_id"]: c["outputs"]
        for c in nb["cells"]
        if c.get("metadata", {}).get("nbgrader", {}).get("grade") and c["cell_type"] == "code"
    }
    for name in steps:
        errors = [o for o in shown[name] if o["output_type"] == "error"]
        assert [o["ename"] for o in errors] == ["GraderError"], errors
        assert "your instructor will grade it" in errors[0]["evalue"], errors


@pytest.mark.parametrize("lab", ["lab2", "lab3", "lab4", "lab5"])
def test_explored_data_are_per_student_and_reproducible(lab, monkeypatch):
    """The data a student explores derive from (secret, lab, student id): the released setup cell
    holds the term's data key, one id gives the same seeds on every run, two ids different ones,
    a new secret new ones; without an id the released notebook says to set it; the source
    notebook keeps the instructor's variant (seed 0)."""
    monkeypatch.syspath_prepend(str(LABS / "grader"))
    import labgrader

    nb = nbformat.read(LABS / "source" / lab / f"{lab}.ipynb", as_version=4)
    setup = _cells(nb, "locked")["setup"].source
    body = "\n".join(ln for ln in setup.splitlines() if not ln.startswith(("%", "from perclib")))
    names = re.findall(r'my_seed\("(\w+)"\)', "\n".join(c.source for c in nb.cells))
    assert names, f"{lab} explores no data set of the student's own"

    def seeds(student, key=None):
        ns = {"STUDENT_ID": student}
        released = labgrader.personalize(body, lab, key)
        assert released != body and labgrader.data_key(lab, key) in released
        exec(released, ns)
        return [ns["my_seed"](name) for name in names]

    ns = {"STUDENT_ID": "alice"}
    exec(body, ns)
    assert [ns["my_seed"](name) for name in names] == [0] * len(names)
    assert seeds("alice") == seeds("alice")
    assert seeds("alice") != seeds("bob")
    assert seeds("alice", key="another term's secret") != seeds("alice")
    with pytest.raises(ValueError, match="STUDENT_ID"):
        seeds("")


def test_the_similarity_report_finds_renamed_copies_and_only_them(monkeypatch):
    """A copy with other names and layout is listed; code written apart is not; what the release
    notebook already holds does not count; a class of 300 of two answers gives its two groups."""
    monkeypatch.syspath_prepend(str(LABS / "grader"))
    import labgrader.reports

    fit = (
        "def fit(X, y, epochs):\n    w = [0.0] * len(X[0])\n    b = 0.0\n"
        "    for _ in range(epochs):\n        for x, t in zip(X, y):\n"
        "            a = sum(wi * xi for wi, xi in zip(w, x)) + b\n"
        "            if t * a <= 0:\n                w = [wi + t * xi for wi, xi in zip(w, x)]\n"
        "                b += t\n    return w, b\n"
    )
    renamed = fit.replace("w", "weights").replace("    ", "  ").replace("a =", "act =")
    renamed = renamed.replace("t * a", "t * act")
    other = (
        "import numpy as np\n\ndef fit(X, y, epochs):\n    X = np.asarray(X, float)\n"
        "    theta = np.zeros(X.shape[1] + 1)\n    Xa = np.c_[X, np.ones(len(X))]\n"
        "    for epoch in range(epochs):\n        for i in range(len(Xa)):\n"
        "            if y[i] * (Xa[i] @ theta) <= 0:\n                theta += y[i] * Xa[i]\n"
        "    return theta[:-1], theta[-1]\n"
    )
    verdicts = {
        "ada": {"answers": {"fit": fit}},
        "bob": {"answers": {"fit": renamed}},
        "cy": {"answers": {"fit": other}},
        "dee": {"answers": {"fit": "def fit(X, y, epochs):\n    raise NotImplementedError\n"}},
    }
    pairs = labgrader.reports.similar_pairs(verdicts, {})
    assert [(a, b) for a, b, _ in pairs] == [("ada", "bob")], pairs
    assert labgrader.reports.similar_pairs(verdicts, {"fit": fit}) == [], "release text counted"
    many = {f"s{i:03d}": {"answers": {"fit": fit if i % 2 else other}} for i in range(300)}
    assert len(labgrader.reports.similar_pairs(many, {})) == 2 * (150 * 149 // 2)


def test_the_sandboxes_bytecode_cache_is_this_environments(monkeypatch, tmp_path):
    """The cache holds compiled files under their sources' paths: filled once for another
    environment (another venv, another checkout, a venv made again at the same path) or left
    half-filled, it would hold nothing or stale files for what this one imports, and every
    sandbox would compile numpy, scikit-learn and matplotlib again."""
    monkeypatch.syspath_prepend(str(LABS / "grader"))
    import labgrader.sandbox

    monkeypatch.delenv("LABS_PYCACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(labgrader.sandbox, "WARM_IMPORTS", ("numpy",))  # enough to look for
    mine = labgrader.sandbox.bytecode_cache()
    import numpy

    source = pathlib.Path(numpy.__file__)
    compiled = (
        mine / source.parent.relative_to("/") / f"__init__.{sys.implementation.cache_tag}.pyc"
    )
    assert compiled.exists(), f"numpy is not compiled in {mine}"
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "another-venv"))
    assert labgrader.sandbox.bytecode_cache() != mine
    # a venv made again at the same path: its files are new, the compiled ones stale
    venv = tmp_path / "venv"
    venv.mkdir()
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    monkeypatch.setattr(sys, "prefix", str(venv))
    first = labgrader.sandbox.bytecode_cache()
    os.utime(venv / "pyvenv.cfg", ns=(10**18, 10**18))
    assert labgrader.sandbox.bytecode_cache() != first
    # a filling killed half-way leaves no stamp: the next call fills the folder again
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "killed"))
    monkeypatch.setattr(sys, "executable", "/bin/false")
    assert not (labgrader.sandbox.bytecode_cache() / "warm.txt").exists()
