"""Experiments that compare the perceptron's answers: last iterate, voted, averaged and pocket.

The loops here are longer than a notebook cell should hold, so they live in perclib, with tests:

- :func:`iterate_average` (the naive average of the iterates) and :func:`lazy_average` (CIML's
  AveragedPerceptronTrain, optionally with one of three variants that give another vector);
- :func:`epoch_errors` and :func:`error_curves`: the test error of the four answers after every
  epoch, for one run or as mean and standard deviation over many seeds;
- :func:`noisy_task` and :func:`split_task`: seeded train/test splits for those experiments;
- :func:`prediction_cost`: what one prediction costs (K vectors for the voted perceptron, one for
  the others);
- :func:`confusion_matrix`: counts of (true, predicted) pairs, as scikit-learn's.

All four answers come from one perceptron run (margin rule, the same visiting order), so their
differences are differences of *answer*, not of training. The tests check each of them against the
corresponding perclib model (:class:`~perclib.Perceptron`, :class:`~perclib.VotedPerceptron`,
:class:`~perclib.AveragedPerceptron`, :class:`~perclib.PocketPerceptron`) fitted for the same number
of epochs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validation as V
from .training import predict_sign, row_norms, scores, train

#: The four answers compared in notebook 06, in the order they are drawn.
METHODS = ("last", "voted", "averaged", "pocket")

#: Variants of CIML's AveragedPerceptronTrain (each gives another vector; notebook 06 section 4).
SLIPS = ("c starts at 0", "returns w - c*u", "c counts only mistakes")


def _binary_data(X, y, name):
    X, y = V.check_X_y(X, y)
    classes = V.binary_classes(y, name)
    return X, V.encode_binary(y, classes), classes


def iterate_average(X, y, *, max_iter=10, eta=1.0, first=0):
    """The naive average of the perceptron's iterates: keep every w_t, then average them.

    The perceptron (margin rule, cyclic order, w_0 = 0, b_0 = 0) runs ``max_iter`` epochs; w_t is
    the weight vector after t visited examples, t = 0, 1, ..., T with T = max_iter * n_samples.
    ``first=0`` averages w_0, ..., w_T (CIML's average, T + 1 vectors); ``first=1`` averages
    w_1, ..., w_T (scikit-learn's ``SGDClassifier(average=True)``, T vectors).

    Returns
    -------
    w : ndarray of shape (n_features,)
    b : float

    Examples
    --------
    >>> from perclib.datasets import worked_example
    >>> w, b = iterate_average(*worked_example(), max_iter=3)
    >>> w.round(4), round(b, 4)
    (array([0.9231, 0.9231]), -0.3077)
    """
    X, y, _ = _binary_data(X, y, "iterate_average")
    max_iter = V.check_max_iter(max_iter)
    eta = V.check_positive(eta, "eta")
    if first not in (0, 1) or isinstance(first, bool):
        raise ValueError(
            f"first must be 0 (average w_0..w_T) or 1 (average w_1..w_T); got {first!r}."
        )
    # The perceptron's reference loop runs; at each update the hook keeps the iterate that was
    # replaced and how many of w_0, ..., w_T it is (the same vector, once per visited example).
    n, d = X.shape
    kept, runs = [], []  # the distinct iterates (w, b) and how many of the w_t each one is
    last = {"w": np.zeros(d), "b": 0.0, "t": 0}  # w_t for t from last["t"] on

    def on_update(w, b, t, i, step):  # the example visited t-th (from 0) made w_(t+1)
        kept.append((last["w"], last["b"]))
        runs.append(t + 1 - last["t"])
        last.update(w=w.copy(), b=b, t=t + 1)

    w = np.zeros(d)
    b, *_ = train(
        X, y, w, 0.0, eta=eta, max_iter=max_iter, order="cyclic", rule="margin",
        fit_intercept=True, rng=None, on_update=on_update, stop_when_clean=False,
    )  # fmt: skip
    kept.append((w, b))
    runs.append(max_iter * n + 1 - last["t"])  # w_T is the last of the w_t
    runs[0] -= first  # first=1 leaves w_0 out
    weights = np.array(runs, dtype=np.float64)
    return (
        np.average(np.array([v for v, _ in kept]), axis=0, weights=weights),
        float(np.average([c for _, c in kept], weights=weights)),
    )


def lazy_average(X, y, *, max_iter=10, eta=1.0, slip=None):
    """CIML's AveragedPerceptronTrain (cyclic order), or a variant of it.

    ``slip=None`` is the algorithm as in CIML (c starts at 1, c grows after every example, and the
    answer is w - u/c, b - beta/c); it equals ``iterate_average(first=0)``. The variants (see
    :data:`SLIPS`) are:

    - ``"c starts at 0"``: the answer is then the average of w_1, ..., w_T (scikit-learn's), which
      is (T + 1)/T times CIML's: a different vector, the same predictions;
    - ``"returns w - c*u"``: a vector of no meaning;
    - ``"c counts only mistakes"``: c grows only on updates, so w - u/c is the *unweighted* mean of
      the K + 1 distinct iterates w_0 = 0, w_1, ..., w_K (numerically the plain mean of the voted
      perceptron's vectors): how many examples each survived no longer counts.

    Returns
    -------
    w : ndarray of shape (n_features,)
    b : float

    Examples
    --------
    >>> from perclib.datasets import worked_example
    >>> w, b = lazy_average(*worked_example(), max_iter=3)
    >>> w.round(4), round(b, 4)
    (array([0.9231, 0.9231]), -0.3077)
    """
    X, y, _ = _binary_data(X, y, "lazy_average")
    max_iter = V.check_max_iter(max_iter)
    eta = V.check_positive(eta, "eta")
    if slip is not None and slip not in SLIPS:
        raise ValueError(
            f"slip must be None or one of {', '.join(repr(s) for s in SLIPS)}; got {slip!r}."
        )
    # The perceptron's reference loop does lines 1 and 4-8 and 12 (visit, decide, update w and b);
    # the hook does lines 9-10 at each update, with c as the slip counts it.
    n, d = X.shape
    u, sums = np.zeros(d), {"beta": 0.0, "updates": 0}  # line 2

    def counter(t):  # c at the visit of the t-th example (t from 0), after t visits
        if slip == "c starts at 0":  # line 3: c = 0
            return t
        if slip == "c counts only mistakes":
            return 1 + sums["updates"]
        return 1 + t  # line 3: c = 1, line 12: c = c + 1 after every example

    def on_update(w, b, t, i, step):
        c = counter(t)
        u[:] = u + (step * c) * X[i]  # line 9: u = u + eta y c x
        sums["beta"] += step * c  # line 10: beta = beta + eta y c
        sums["updates"] += 1

    w = np.zeros(d)  # line 1
    b, *_ = train(
        X, y, w, 0.0, eta=eta, max_iter=max_iter, order="cyclic", rule="margin",
        fit_intercept=True, rng=None, on_update=on_update, stop_when_clean=False,
    )  # fmt: skip
    c, beta = counter(max_iter * n), sums["beta"]
    if slip == "returns w - c*u":
        return w - c * u, float(b - c * beta)
    return w - u / c, float(b - beta / c)  # line 15


def epoch_errors(
    X_train, y_train, X_test, y_test, *, max_epochs=20, eta=1.0, order="shuffle", random_state=None
):
    """The test error of the four answers after each epoch of one perceptron run.

    One run of the perceptron (margin rule, w and b from 0) over ``X_train`` keeps, at once:
    the last iterate (w, b); the voted perceptron's iterates and survival counts; CIML's running
    sums u, beta, c for the average; and the pocket weights (fewest training mistakes so far). After
    each epoch the test error of each answer is recorded. The answer after e epochs is the one the
    corresponding perclib model gives with ``max_iter=e`` (same ``order`` and ``random_state``).

    Parameters
    ----------
    X_train, y_train : the training data (two classes; ``classes[1]`` is +1).
    X_test, y_test : the test data, with labels among the training labels.
    max_epochs : int, default=20
    eta : float, default=1.0
    order : {"cyclic", "shuffle"}, default="shuffle"
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    dict
        For each name in :data:`METHODS`, an array of shape (max_epochs,): the test error rate after
        epochs 1, 2, ..., max_epochs.

    Examples
    --------
    >>> from perclib.datasets import worked_example
    >>> X, y = worked_example()
    >>> errors = epoch_errors(X, y, X, y, max_epochs=3, order="cyclic")
    >>> errors["last"].tolist(), errors["voted"].tolist()
    ([0.25, 0.0, 0.0], [0.5, 0.25, 0.25])
    """
    X, y, classes = _binary_data(X_train, y_train, "epoch_errors")
    Xt = V.check_array(X_test, name="X_test")
    yt = V.check_y(y_test, Xt.shape[0], name="y_test")
    if Xt.shape[1] != X.shape[1]:
        raise ValueError(
            f"X_test has {Xt.shape[1]} features but X_train has {X.shape[1]}; they must match."
        )
    yt = V.encode_binary(yt, classes)
    max_epochs = V.check_max_iter(max_epochs, "max_epochs")
    eta = V.check_positive(eta, "eta")
    V.check_choice(order, "order", V.ORDERS[:2])
    rng = V.check_random_state(random_state)
    n, d = X.shape
    x_norms = row_norms(X)

    def training_mistakes(w, b):
        return int(np.count_nonzero(predict_sign(scores(X, w, b, x_norms)) != y))

    def test_error(signs):
        return float(np.mean(signs != yt))

    # The perceptron's reference loop runs one epoch at a time; at each update the hook keeps the
    # voted perceptron's votes, CIML's sums for the average and the pocket.
    w = np.zeros(d)  # the last iterate (w, b), updated in place by the loop
    s = {
        "b": 0.0,
        "u": np.zeros(d), "beta": 0.0,  # averaged: CIML's sums (c = 1 + examples visited)
        "signs": predict_sign(Xt @ w + 0.0), "since": 0,  # voted: the iterate's votes, its start
        "pocket": (w.copy(), 0.0, training_mistakes(w, 0.0)),
    }  # fmt: skip
    vote = np.zeros(Xt.shape[0])  # the votes of the finished iterates
    visits = 0  # examples visited before this epoch

    def on_update(w, b, t, i, step):
        t += visits
        vote[:] += (t - s["since"]) * s["signs"]  # the replaced iterate survived t - since visits
        s["signs"], s["since"] = predict_sign(Xt @ w + b), t
        s["u"] += (step * (1 + t)) * X[i]
        s["beta"] += step * (1 + t)
        m = training_mistakes(w, b)
        if m < s["pocket"][2]:
            s["pocket"] = (w.copy(), float(b), m)

    errors = {m: np.empty(max_epochs) for m in METHODS}
    for epoch in range(max_epochs):
        s["b"], *_ = train(
            X, y, w, s["b"], eta=eta, max_iter=1, order=order, rule="margin", fit_intercept=True,
            rng=rng, on_update=on_update,
        )  # fmt: skip
        visits += n
        b, c = s["b"], 1 + visits
        pocket_w, pocket_b, _ = s["pocket"]
        last_signs = predict_sign(Xt @ w + b)
        errors["last"][epoch] = test_error(last_signs)
        errors["voted"][epoch] = test_error(predict_sign(vote + (visits - s["since"]) * last_signs))
        errors["averaged"][epoch] = test_error(
            predict_sign(Xt @ (w - s["u"] / c) + (b - s["beta"] / c))
        )
        errors["pocket"][epoch] = test_error(predict_sign(Xt @ pocket_w + pocket_b))
    return errors


def _check_fraction(value, name):
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float, np.floating))
        or not 0 < value < 1
    ):
        raise ValueError(f"{name} must be a number strictly between 0 and 1; got {value!r}.")
    return float(value)


def noisy_task(n_train=200, n_test=1000, *, n_features=2, flip=0.1, margin=0.0):
    """A seeded task: ``task(seed)`` draws noisy separable data and splits it into train and test.

    Train and test come from one call of :func:`perclib.datasets.make_noisy` (one target
    hyperplane), so each label is flipped with probability ``flip`` in both: no classifier can
    expect a test error much below ``flip``.

    >>> X_train, y_train, X_test, y_test = noisy_task(50, 20)(seed=0)
    >>> X_train.shape, X_test.shape
    ((50, 2), (20, 2))
    """
    from .datasets import _check_count, make_noisy

    n_train = _check_count(n_train, "n_train", 2)
    n_test = _check_count(n_test, "n_test")
    make_noisy(2, n_features, flip, margin=margin, random_state=0)  # check the parameters now

    def task(seed):
        X, y = make_noisy(n_train + n_test, n_features, flip, margin=margin, random_state=seed)
        return X[:n_train], y[:n_train], X[n_train:], y[n_train:]

    return task


def split_task(X, y, *, test_size=0.3, standardize=True):
    """A seeded task: ``task(seed)`` splits (X, y) at random into train and test.

    With ``standardize`` each feature is centred and scaled by the training part's mean and standard
    deviation (features constant on the training part are only centred).
    The inputs are not modified.

    >>> from perclib.datasets import load_breast_cancer
    >>> X_train, y_train, X_test, y_test = split_task(*load_breast_cancer())(seed=0)
    >>> X_train.shape, X_test.shape
    ((398, 30), (171, 30))
    """
    X, y = V.check_X_y(X, y)
    test_size = _check_fraction(test_size, "test_size")
    n = X.shape[0]
    n_test = int(np.ceil(test_size * n))
    if n_test >= n:
        raise ValueError(f"test_size={test_size} leaves no training data out of {n} samples.")
    standardize = V.check_bool(standardize, "standardize")

    def task(seed):
        perm = np.random.default_rng(seed).permutation(n)
        test, train = perm[:n_test], perm[n_test:]
        X_train, X_test = X[train], X[test]
        if standardize:
            mean = X_train.mean(axis=0)
            std = X_train.std(axis=0)
            std[std == 0] = 1.0
            X_train, X_test = (X_train - mean) / std, (X_test - mean) / std
        return X_train, y[train].copy(), X_test, y[test].copy()

    return task


@dataclass
class ErrorCurves:
    """Test errors of the four answers over epochs, for many seeds (see :func:`error_curves`).

    Attributes
    ----------
    epochs : ndarray of shape (max_epochs,)
        1, 2, ..., max_epochs.
    errors : dict
        For each method, an array of shape (n_seeds, max_epochs).
    """

    epochs: np.ndarray
    errors: dict

    @property
    def methods(self):
        return tuple(self.errors)

    @property
    def n_seeds(self):
        return next(iter(self.errors.values())).shape[0]

    def mean(self):
        """For each method, the mean test error over seeds after each epoch."""
        return {m: e.mean(axis=0) for m, e in self.errors.items()}

    def std(self):
        """For each method, the standard deviation over seeds (ddof=0) after each epoch."""
        return {m: e.std(axis=0) for m, e in self.errors.items()}

    def summary(self, epoch=None):
        """One line per method: mean ± std of the test error after ``epoch`` (default: the last)."""
        epoch = int(self.epochs[-1]) if epoch is None else epoch
        if epoch not in self.epochs:
            raise ValueError(f"epoch must be one of 1..{int(self.epochs[-1])}; got {epoch!r}.")
        j = int(epoch) - 1
        mean, std = self.mean(), self.std()
        return "\n".join(f"{m:>9}: {mean[m][j]:.3f} ± {std[m][j]:.3f}" for m in self.errors)


def error_curves(task, *, n_seeds=20, max_epochs=20, eta=1.0, order="shuffle", first_seed=0):
    """Run :func:`epoch_errors` on ``task(seed)`` for ``n_seeds`` seeds;
    return :class:`ErrorCurves`.

    Seed s draws the data (``task(s)``) and the visiting order (``random_state=s``), for
    s = first_seed, ..., first_seed + n_seeds - 1.

    >>> curves = error_curves(noisy_task(40, 40), n_seeds=3, max_epochs=5)
    >>> curves.errors["averaged"].shape
    (3, 5)
    """
    if not callable(task):
        raise ValueError(
            "task must be a function of a seed returning (X_train, y_train, X_test, y_test), "
            "for example noisy_task() or split_task(X, y)."
        )
    n_seeds = V.check_max_iter(n_seeds, "n_seeds")
    max_epochs = V.check_max_iter(max_epochs, "max_epochs")
    if (
        isinstance(first_seed, bool)
        or not isinstance(first_seed, (int, np.integer))
        or first_seed < 0
    ):
        raise ValueError(f"first_seed must be an integer >= 0; got {first_seed!r}.")
    runs = []
    for seed in range(first_seed, first_seed + n_seeds):
        X_train, y_train, X_test, y_test = task(seed)
        runs.append(
            epoch_errors(
                X_train,
                y_train,
                X_test,
                y_test,
                max_epochs=max_epochs,
                eta=eta,
                order=order,
                random_state=seed,
            )
        )
    errors = {m: np.array([r[m] for r in runs]) for m in METHODS}
    return ErrorCurves(np.arange(1, max_epochs + 1), errors)


def prediction_cost(model):
    """What predicting one example costs a fitted binary model:
    vectors, multiplications, numbers kept.

    A voted perceptron keeps K weight vectors (with biases and counts) and computes K dot products
    and K count-times-sign products per prediction; a linear model (last iterate, averaged, pocket)
    keeps one vector and computes one dot product.

    >>> from perclib import AveragedPerceptron, VotedPerceptron
    >>> from perclib.datasets import worked_example
    >>> X, y = worked_example()
    >>> prediction_cost(VotedPerceptron(max_iter=3).fit(X, y))
    {'vectors': 4, 'multiplications': 12, 'numbers_stored': 16}
    >>> prediction_cost(AveragedPerceptron(max_iter=3).fit(X, y))
    {'vectors': 1, 'multiplications': 2, 'numbers_stored': 3}
    """
    fitted = getattr(model, "__dict__", {})
    if "classes_" not in fitted:
        raise ValueError("prediction_cost needs a fitted model: call fit(X, y) first.")
    d = int(model.n_features_in_)
    if "weights_" in fitted and "counts_" in fitted:
        K = int(model.weights_.shape[0])
        return {"vectors": K, "multiplications": K * d + K, "numbers_stored": K * (d + 2)}
    coef = np.asarray(fitted.get("coef_"))
    if coef.ndim != 1:
        raise ValueError(
            f"prediction_cost handles binary models (voted or with a 1-D coef_); "
            f"got {type(model).__name__}."
        )
    return {"vectors": 1, "multiplications": d, "numbers_stored": d + 1}


def confusion_matrix(y_true, y_pred, *, labels=None):
    """Counts C[i, j] of examples of true class ``labels[i]`` predicted as ``labels[j]``.

    As ``sklearn.metrics.confusion_matrix``: ``labels`` defaults to the sorted union of the labels
    in ``y_true`` and ``y_pred``; pairs with a label outside ``labels`` are not counted.

    >>> confusion_matrix([0, 1, 2, 2], [0, 2, 2, 2])
    array([[1, 0, 0],
           [0, 0, 1],
           [0, 0, 2]])
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.ndim != 1 or y_pred.ndim != 1 or y_true.shape != y_pred.shape:
        raise ValueError(
            f"y_true and y_pred must be 1-D and of the same length; "
            f"got shapes {y_true.shape} and {y_pred.shape}."
        )
    if labels is None:
        labels = np.unique(np.concatenate([y_true, y_pred]))
    else:
        labels = np.asarray(labels)
        if labels.ndim != 1 or labels.size == 0:
            raise ValueError("labels must be a non-empty 1-D list of class labels.")
        if np.unique(labels).size != labels.size:
            raise ValueError(f"labels must not repeat a label; got {V._show(labels)}.")
        if not np.any(np.isin(y_true, labels)):
            raise ValueError("At least one label in labels must appear in y_true.")
    index = {label: k for k, label in enumerate(labels.tolist())}
    C = np.zeros((labels.size, labels.size), dtype=np.int64)
    for t, p in zip(y_true.tolist(), y_pred.tolist()):
        if t in index and p in index:
            C[index[t], index[p]] += 1
    return C
