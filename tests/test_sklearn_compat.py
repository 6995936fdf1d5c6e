"""perclib's models are scikit-learn estimators: its checks pass, and its tools take them as they
are."""

import pickle
import warnings

import joblib
import numpy as np
import pytest
import scipy.sparse as sp
from joblib.externals.loky import get_reusable_executor
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.inspection import DecisionBoundaryDisplay
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.model_selection import GridSearchCV, RandomizedSearchCV, cross_val_score
from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from perclib import (
    AveragedPerceptron,
    ConvergenceWarning,
    KernelPerceptron,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from perclib.datasets import make_blobs3, make_noisy, make_separable
from perclib.sgd import LinearSGD

BINARY = [Perceptron, PocketPerceptron, VotedPerceptron, AveragedPerceptron, LinearSGD]
ALL = BINARY + [MulticlassPerceptron]
ONLINE = [Perceptron, VotedPerceptron, AveragedPerceptron, MulticlassPerceptron, LinearSGD]
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


# scikit-learn's own Perceptron fails none of these checks either (it fails only the two
# sample_weight checks, which need fit(sample_weight=...), a parameter perclib's models do not
# have, so those checks are not run for them). No check is expected to fail. KernelPerceptron
# is checked in each of its prediction modes (last iterate, vote, average) and with a named
# kernel other than the default.
@parametrize_with_checks(
    [M() for M in ALL]
    + [
        KernelPerceptron(),
        KernelPerceptron(vote=True),
        KernelPerceptron(average=True),
        KernelPerceptron(kernel="poly"),
    ]
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def _breast_cancer():
    return load_breast_cancer(return_X_y=True)


# -- model selection, pipelines, meta-estimators ---------------------------------------------------


@pytest.mark.parametrize("model", BINARY, ids=lambda m: m.__name__)
def test_cross_val_score_of_a_pipeline(model):
    X, y = _breast_cancer()
    scores = cross_val_score(
        make_pipeline(StandardScaler(), model(max_iter=5)), X, y, cv=3, error_score="raise"
    )
    assert scores.shape == (3,) and np.all(np.isfinite(scores)) and scores.min() > 0.85


def test_a_fitted_pipeline_scores_as_its_predictions_say():
    X, y = _breast_cancer()
    pipe = make_pipeline(StandardScaler(), Perceptron(max_iter=5)).fit(X, y)
    assert pipe.score(X, y) == np.mean(pipe.predict(X) == y) > 0.9


def test_grid_and_randomized_search_over_perclib_parameters():
    X, y = _breast_cancer()
    pipe = make_pipeline(StandardScaler(), Perceptron())
    grid = GridSearchCV(
        pipe,
        {
            "perceptron__max_iter": [1, 5],
            "perceptron__order": ["cyclic", "shuffle"],
            "perceptron__random_state": [0],
        },
        cv=3,
    ).fit(X, y)
    assert len(grid.cv_results_["params"]) == 4 and np.all(
        np.isfinite(grid.cv_results_["mean_test_score"])
    )
    best = grid.best_params_
    refit = make_pipeline(
        StandardScaler(),
        Perceptron(
            max_iter=best["perceptron__max_iter"], order=best["perceptron__order"], random_state=0
        ),
    ).fit(X, y)
    assert np.array_equal(grid.best_estimator_[-1].coef_, refit[-1].coef_)
    rand = RandomizedSearchCV(
        make_pipeline(StandardScaler(), AveragedPerceptron()),
        {"averagedperceptron__max_iter": [1, 2, 3, 4], "averagedperceptron__eta": [0.5, 1.0]},
        n_iter=3,
        cv=3,
        random_state=0,
    ).fit(X, y)
    assert len(rand.cv_results_["params"]) == 3 and rand.best_score_ > 0.9


@pytest.mark.parametrize("model", BINARY, ids=lambda m: m.__name__)
def test_one_vs_rest_and_one_vs_one_around_binary_models(model):
    X, y = load_iris(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    ovr = OneVsRestClassifier(model(max_iter=5)).fit(X, y)
    # the same as three binary models written out by hand: class k against the rest, highest
    # score wins
    scores = np.column_stack(
        [model(max_iter=5).fit(X, y == k).decision_function(X) for k in range(3)]
    )
    assert np.array_equal(ovr.decision_function(X), scores)
    # Where two classes share the highest score, scikit-learn does not say which one wins (1.7
    # takes the last, later versions the first, as np.argmax does): the prediction is compared
    # with np.argmax where the highest score is one class's alone, and is one of the tied
    # classes where it is not. VotedPerceptron's integer scores tie on one row of iris (row 58,
    # -130 for classes 1 and 2); nearly every row is still compared.
    predicted, best = ovr.predict(X), scores.max(axis=1)
    tied = (scores == best[:, None]).sum(axis=1) > 1
    assert tied.sum() <= 2
    assert np.array_equal(predicted[~tied], np.argmax(scores, axis=1)[~tied])
    assert np.array_equal(scores[np.arange(len(y)), predicted][tied], best[tied])
    ovo = OneVsOneClassifier(model(max_iter=5)).fit(X, y)
    assert len(ovo.estimators_) == 3 and ovo.score(X, y) > 0.7


# -- copies, persistence, parallel jobs ------------------------------------------------------------


@pytest.mark.parametrize("model", ALL, ids=lambda m: m.__name__)
def test_clone_pickle_and_joblib(model, tmp_path):
    X, y = (
        make_blobs3(10, random_state=0)
        if model is MulticlassPerceptron
        else make_noisy(60, 2, 0.1, random_state=0)
    )
    clf = model(eta=0.5, order="shuffle", random_state=3).fit(X, y)
    copy = clone(clf)
    assert copy.get_params() == clf.get_params() and not hasattr(copy, "classes_")
    assert np.array_equal(
        copy.fit(X, y).decision_function(X), clf.decision_function(X)
    )  # same seed, same fit
    for restored in (pickle.loads(pickle.dumps(clf)), _joblib_round_trip(clf, tmp_path)):
        assert sorted(vars(restored)) == sorted(vars(clf))
        assert np.array_equal(restored.decision_function(X), clf.decision_function(X))


def _joblib_round_trip(clf, tmp_path):
    joblib.dump(clf, tmp_path / "model.joblib")
    return joblib.load(tmp_path / "model.joblib")


def test_n_jobs_2_gives_the_same_scores_as_one_job():
    X, y = _breast_cancer()
    pipe = make_pipeline(StandardScaler(), Perceptron(max_iter=5))
    try:
        two = cross_val_score(pipe, X, y, cv=4, n_jobs=2)
    finally:
        # joblib keeps its two worker processes (loky's) for the next parallel call; there is
        # none. Left running, they were only stopped as this test process exited, after its last
        # test, where the whole run waited for them (about half a second).
        get_reusable_executor().shutdown(wait=True, kill_workers=True)
    assert np.array_equal(two, cross_val_score(pipe, X, y, cv=4, n_jobs=1))


# -- plots, DataFrames, labels ---------------------------------------------------------------------


@pytest.mark.parametrize("model", [Perceptron, MulticlassPerceptron], ids=lambda m: m.__name__)
def test_decision_boundary_display(model):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X, y = (
        make_blobs3(10, random_state=0)
        if model is MulticlassPerceptron
        else make_separable(40, 2, 0.1, random_state=0)
    )
    clf = model().fit(X, y)
    disp = DecisionBoundaryDisplay.from_estimator(clf, X, grid_resolution=30)  # decision_function
    grid = np.c_[disp.xx0.ravel(), disp.xx1.ravel()]
    scores = clf.decision_function(grid)  # several classes: the display keeps every class's score
    assert np.array_equal(disp.response.reshape(scores.shape), scores) and disp.surface_ is not None
    plt.close("all")


@pytest.mark.parametrize("model", ALL, ids=lambda m: m.__name__)
def test_pandas_dataframes_keep_feature_names(model):
    pd = pytest.importorskip("pandas")
    X, y = (
        make_blobs3(10, random_state=0)
        if model is MulticlassPerceptron
        else make_noisy(60, 2, 0.1, random_state=0)
    )
    df = pd.DataFrame(X, columns=["petal length", "petal width"])
    before = df.copy()
    clf = model().fit(df, pd.Series(y))
    assert (
        clf.feature_names_in_.tolist() == ["petal length", "petal width"]
        and clf.n_features_in_ == 2
    )
    plain = model().fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # predicting on the same columns warns nothing
        assert np.array_equal(clf.predict(df), plain.predict(X))
    with pytest.raises(ValueError, match="feature names"):
        clf.predict(df.rename(columns={"petal width": "sepal width"}))
    assert df.equals(before)
    assert not hasattr(model().fit(X, y), "feature_names_in_")


@pytest.mark.parametrize("model", BINARY, ids=lambda m: m.__name__)
def test_string_labels(model):
    X, y = make_noisy(60, 2, 0.1, random_state=1)
    words = np.where(
        y == 1, "spam", "ham"
    )  # sorted: "ham" is classes_[0] (-1), "spam" classes_[1] (+1)
    clf = model().fit(X, words)
    assert clf.classes_.tolist() == ["ham", "spam"]
    signed = model().fit(X, y)
    assert np.array_equal(clf.decision_function(X), signed.decision_function(X))
    assert np.array_equal(clf.predict(X), np.where(signed.predict(X) == 1, "spam", "ham"))


# -- a refit forgets the previous fit --------------------------------------------------------------

REFITS = [
    (Perceptron, {"record": True}, {"record": False}),
    (PocketPerceptron, {"max_iter": 3}, {"max_iter": 5}),
    (VotedPerceptron, {"max_iter": 3}, {"max_iter": 2}),
    (AveragedPerceptron, {"max_iter": 3}, {"max_iter": 2}),
    (MulticlassPerceptron, {"record": True}, {"record": False}),
    (LinearSGD, {"record": True}, {"record": False, "loss": "hinge"}),
]


@pytest.mark.parametrize("model, first, then", REFITS, ids=lambda v: getattr(v, "__name__", ""))
def test_a_refit_after_set_params_leaves_nothing_of_the_previous_fit(model, first, then):
    pd = pytest.importorskip("pandas")
    X, y = (
        make_blobs3(10, random_state=0)
        if model is MulticlassPerceptron
        else make_noisy(60, 3, 0.1, random_state=0)
    )
    df = pd.DataFrame(X, columns=["a", "b", "c"][: X.shape[1]])
    clf = model(**first).fit(df, y)  # feature names, history
    if hasattr(clf, "partial_fit"):
        clf.partial_fit(df, y)  # and, for the online models, the state partial_fit carries on
    clf.set_params(**then).fit(X[:, :2], y)
    fresh = model(**first).set_params(**then).fit(X[:, :2], y)
    assert sorted(vars(clf)) == sorted(
        vars(fresh)
    )  # no attribute left behind (history_, feature_names_in_)
    assert "history_" not in vars(clf) and "feature_names_in_" not in vars(clf)
    for name, value in vars(fresh).items():
        if name.endswith("_") and isinstance(value, np.ndarray):
            assert np.array_equal(getattr(clf, name), value), name


# -- partial_fit: the perceptron is an online algorithm -------------------------------------------


@pytest.mark.parametrize("model", ONLINE, ids=lambda m: m.__name__)
@pytest.mark.parametrize("seed", range(5))
def test_streaming_one_example_at_a_time_is_one_epoch_of_fit(model, seed):
    if model is MulticlassPerceptron:
        X, y = make_blobs3(15, random_state=seed)
    else:
        X, y = make_noisy(50, 3, 0.2, random_state=seed)
    classes = np.unique(y)
    stream = model()
    for i in range(X.shape[0]):
        stream.partial_fit(X[i : i + 1], y[i : i + 1], classes=classes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        batch = model(max_iter=1).fit(X, y)
    for name in ("coef_", "intercept_", "weights_", "intercepts_", "counts_"):
        if hasattr(batch, name):
            assert np.array_equal(getattr(stream, name), getattr(batch, name)), name
    assert stream.n_updates_ == batch.n_updates_ and stream.n_iter_ == X.shape[0]


def test_averaged_partial_fit_passes_equal_fit_epochs():
    X, y = make_noisy(80, 4, 0.2, random_state=2)
    online = AveragedPerceptron()
    for _ in range(3):
        online.partial_fit(X, y, classes=[-1, 1])
    batch = AveragedPerceptron(max_iter=3).fit(X, y)
    assert np.array_equal(online.coef_, batch.coef_) and online.intercept_ == batch.intercept_
    assert (
        online.c_ == batch.c_ == 3 * 80 + 1
        and online.mistakes_.tolist() == batch.mistakes_.tolist()
    )
    with pytest.raises(ValueError, match="not in classes"):
        online.partial_fit(X, np.where(y == 1, 2, -1))


# -- sparse input ----------------------------------------------------------------------------------


def _text_like(n=300, d=2000, density=0.01, seed=0):
    """Bag-of-words-like counts: most features zero, the label set by a few of them (with noise)."""
    rng = np.random.default_rng(seed)
    X = sp.random(
        n,
        d,
        density=density,
        format="csr",
        random_state=seed,
        data_rvs=lambda k: rng.integers(1, 4, size=k).astype(float),
    )
    w = np.zeros(d)
    k = min(40, d)
    w[rng.choice(d, k, replace=False)] = rng.normal(size=k)
    y = np.where(X @ w + 0.1 * rng.normal(size=n) >= 0, 1, -1)
    return X, y


@pytest.mark.parametrize("model", [Perceptron, AveragedPerceptron], ids=lambda m: m.__name__)
@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize("seed", range(3))
def test_sparse_input_gives_the_dense_weights_bit_for_bit(model, order, seed):
    X, y = _text_like(seed=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sparse = model(max_iter=5, order=order, random_state=seed).fit(X, y)
        dense = model(max_iter=5, order=order, random_state=seed).fit(X.toarray(), y)
    assert sparse.n_updates_ > 0 and sparse.mistakes_.tolist() == dense.mistakes_.tolist()
    assert np.array_equal(sparse.coef_, dense.coef_) and sparse.intercept_ == dense.intercept_
    assert np.array_equal(sparse.predict(X), dense.predict(X.toarray()))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_sparse_perceptron_is_scikit_learns_dense_perceptron_bit_for_bit():
    X, y = _text_like(seed=4)
    ours = Perceptron(max_iter=4).fit(X, y)
    sk_dense = SkPerceptron(shuffle=False, tol=None, max_iter=4).fit(X.toarray(), y)
    assert (
        np.array_equal(ours.coef_, sk_dense.coef_.ravel())
        and ours.intercept_ == sk_dense.intercept_[0]
    )
    # scikit-learn's own sparse path is not its dense one: it damps each intercept step by 0.01
    # (SPARSE_INTERCEPT_DECAY in sklearn/linear_model/_base.py), so it ends elsewhere.
    sk_sparse = SkPerceptron(shuffle=False, tol=None, max_iter=4).fit(X, y)
    assert not np.array_equal(sk_sparse.coef_, sk_dense.coef_)
    # Without an intercept the three runs are the same run.
    ours = Perceptron(max_iter=4, fit_intercept=False).fit(X, y)
    sk_sparse = SkPerceptron(shuffle=False, tol=None, max_iter=4, fit_intercept=False).fit(X, y)
    assert ours.n_updates_ > 0 and np.array_equal(ours.coef_, sk_sparse.coef_.ravel())


def test_the_prediction_rule_on_sparse_input_too():
    X, y = _text_like(seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sparse = Perceptron(max_iter=3, rule="prediction").fit(X, y)
        dense = Perceptron(max_iter=3, rule="prediction").fit(X.toarray(), y)
    assert np.array_equal(sparse.coef_, dense.coef_) and sparse.intercept_ == dense.intercept_


def test_the_lazy_average_touches_only_the_features_a_mistake_has():
    # The cached-weights trick: an update changes w and u only where x is nonzero, so on text-like
    # data the averaged perceptron's cost is the nonzeros of the mistakes, and the average of all
    # iterates still comes out exactly (here: against the dense run, and against features never
    # seen).
    X, y = _text_like(n=200, d=5000, density=0.002, seed=6)
    clf = AveragedPerceptron(max_iter=4).fit(X, y)
    never_seen = np.asarray(X.getnnz(axis=0) == 0)
    assert (
        never_seen.sum() > 1000
        and np.all(clf.coef_[never_seen] == 0)
        and np.any(clf.coef_[~never_seen] != 0)
    )
    dense = AveragedPerceptron(max_iter=4).fit(X.toarray(), y)
    assert np.array_equal(clf.coef_, dense.coef_) and clf.intercept_ == dense.intercept_


def test_sparse_input_is_never_changed_and_any_format_is_read():
    X, y = _text_like(n=100, d=300, density=0.05, seed=7)
    # Each row's entries reversed (unsorted columns), and each entry split in two halves stored
    # side by side (duplicate columns: their sum is the value). Built from (data, indices, indptr),
    # which keeps them as they are (a COO constructor would sum the duplicates).
    rows = [(X.indices[a:b][::-1], X.data[a:b][::-1]) for a, b in zip(X.indptr, X.indptr[1:])]
    messy = sp.csr_matrix(
        (
            np.concatenate([np.repeat(v / 2, 2) for _, v in rows]),
            np.concatenate([np.repeat(j, 2) for j, _ in rows]),
            np.r_[0, np.cumsum([2 * j.size for j, _ in rows])],
        ),
        shape=X.shape,
    )
    assert not messy.has_canonical_format and messy.nnz == 2 * X.nnz
    assert np.array_equal(messy.toarray(), X.toarray())  # the same matrix, written messily
    copies = [m.copy() for m in (X, X.tocsc(), messy)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fits = [Perceptron(max_iter=3).fit(m, y) for m in (X, X.tocsc(), messy)]
        dense = Perceptron(max_iter=3).fit(messy.toarray(), y)
    assert np.array_equal(fits[0].coef_, fits[1].coef_)
    assert np.array_equal(fits[2].coef_, dense.coef_)
    for m, c in zip((X, X.tocsc(), messy), copies):
        assert (
            (m != c).nnz == 0
            and np.array_equal(m.data, c.data)
            and np.array_equal(m.indices, c.indices)
        )


@pytest.mark.parametrize(
    "model",
    [PocketPerceptron, VotedPerceptron, MulticlassPerceptron, LinearSGD],
    ids=lambda m: m.__name__,
)
def test_models_without_a_sparse_loop_say_so(model):
    X, y = _text_like(n=30, d=20, density=0.3)
    with pytest.raises(
        ValueError, match=r"X is a sparse matrix; .* needs a dense array \(for example X.toarray"
    ):
        model().fit(X, y)


def test_sparse_with_the_options_that_need_dense_rows():
    X, y = _text_like(n=30, d=20, density=0.3)
    for params in ({"order": "random-mistake"}, {"record": True}):
        with pytest.raises(ValueError) as info:
            Perceptron(**params).fit(X, y)
        assert str(info.value) == (
            "order='random-mistake' and record=True need a dense X (for example X.toarray()); "
            "sparse X runs the cyclic or shuffled epochs."
        )


@pytest.mark.parametrize(
    "model, defaults",
    [
        (
            Perceptron,
            dict(eta=1.0, max_iter=100, order="cyclic", rule="margin", fit_intercept=True),
        ),
        (
            PocketPerceptron,
            dict(eta=1.0, max_iter=100, order="cyclic", rule="margin", fit_intercept=True),
        ),
        (AveragedPerceptron, dict(eta=1.0, max_iter=10, order="cyclic", fit_intercept=True)),
        (VotedPerceptron, dict(eta=1.0, max_iter=10, order="cyclic", fit_intercept=True)),
        (
            MulticlassPerceptron,
            dict(eta=1.0, max_iter=100, order="cyclic", fit_intercept=True, average=False),
        ),
    ],
)
def test_the_documented_defaults(model, defaults):
    params = model().get_params()
    assert {k: params[k] for k in defaults} == defaults and params["random_state"] is None
    assert params.get("record", False) is False
    assert type(params["eta"]) is float and type(params["max_iter"]) is int
