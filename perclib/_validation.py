"""Input checks for perclib's functions (the models use scikit-learn's ``validate_data``,
see ``_base``).

Every check raises a ``ValueError`` whose message says what is wrong and, where it helps, what to
do. Nothing passed in is modified: arrays are read, and copied before anything is written.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from sklearn.exceptions import ConvergenceWarning, NotFittedError

__all__ = [
    "ConvergenceWarning",
    "NotFittedError",
]  # scikit-learn's own, so its tools recognise them

ORDERS = ("cyclic", "shuffle", "random-mistake")
RULES = ("margin", "prediction")


# ---- The models' hyper-parameters, checked at the start of fit -----------------------------
# Each model lists, by parameter, the values it allows (``_params``): pairs (test, text), where
# the text says in scikit-learn's words what the test allows.


def interval(kind, low, high=math.inf, *, closed="left"):
    """Numbers of ``kind`` (``numbers.Real`` or ``numbers.Integral``) between low and high, with
    the ends included as ``closed`` says ("left", "right", "both" or "neither"). True and False
    are not numbers here: ``eta=True`` is a slip."""

    def test(v):
        if not isinstance(v, kind) or isinstance(v, (bool, np.bool_)):
            return False
        above = v >= low if closed in ("left", "both") else v > low
        below = v <= high if closed in ("right", "both") else v < high
        return bool(above and below)  # NaN: False

    real = kind is numbers.Real
    ends = [float(low) if real else low, float(high) if real or high == math.inf else high]
    left, right = (
        "[" if closed in ("left", "both") else "(",
        "]" if closed in ("right", "both") else ")",
    )
    return test, f"{'a float' if real else 'an int'} in the range {left}{ends[0]}, {ends[1]}{right}"


def options(*values):
    """One of the strings ``values``."""
    shown = ", ".join(repr(v) for v in values)
    return (lambda v: isinstance(v, str) and v in values), f"a str among {{{shown}}}"


BOOLEAN = (lambda v: isinstance(v, (bool, np.bool_))), "an instance of 'bool'"
RANDOM_STATE = [
    ((lambda v: v is None), "None"),
    interval(numbers.Integral, 0),
    ((lambda v: isinstance(v, np.random.Generator)), "an instance of 'numpy.random.Generator'"),
]


def check_params(model):
    """Check each hyper-parameter of ``model`` against its ``_params``; a ``ValueError`` says
    which one is wrong and what it may be."""
    for name, allowed in model._params.items():
        value = getattr(model, name)
        if not any(test(value) for test, _ in allowed):
            texts = [text for _, text in allowed]
            may = texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]
            raise ValueError(
                f"The {name!r} parameter of {type(model).__name__} must be {may}. "
                f"Got {value!r} instead."
            )


def check_array(X, *, name="X"):
    """Return X as a 2-D C-contiguous float64 array, or raise a clear ``ValueError``.

    The result is ``X`` itself when it already is such an array (it is only ever read).
    """
    if hasattr(X, "toarray") and not isinstance(X, np.ndarray):
        raise ValueError(
            f"{name} is a sparse matrix; pass a dense array (for example {name}.toarray())."
        )
    try:
        arr = np.asarray(X)
    except Exception as exc:  # ragged lists and the like
        raise ValueError(f"{name} could not be read as an array: {exc}") from None
    if arr.dtype == object:
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be numeric; it holds non-numeric values.") from None
    if arr.ndim != 2:
        hint = ""
        if arr.ndim == 1:
            hint = (
                f" Reshape with {name}.reshape(-1, 1) if it is one feature,"
                f" or {name}.reshape(1, -1) if it is one sample."
            )
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_samples, n_features); "
            f"got {arr.ndim} dimension(s) with shape {arr.shape}.{hint}"
        )
    if arr.dtype.kind == "c":
        raise ValueError(f"{name} must be real-valued; got complex dtype {arr.dtype}.")
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric; got dtype {arr.dtype}.")
    if arr.shape[0] < 1:
        raise ValueError(f"{name} has 0 samples; at least 1 sample is needed.")
    if arr.shape[1] < 1:
        raise ValueError(f"{name} has 0 features; at least 1 feature is needed.")
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    # A finite sum proves every entry finite without a boolean copy of X (scikit-learn's trick);
    # only when the sum is not finite (a NaN, an inf, or an overflow) look entry by entry.
    with np.errstate(over="ignore", invalid="ignore"):
        total = arr.sum()
    if not np.isfinite(total) and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinity; remove or impute those values first.")
    return arr


def check_y(y, n_samples, *, name="y"):
    """Return y as a 1-D array of length ``n_samples``, or raise a clear ``ValueError``."""
    try:
        arr = np.asarray(y)
    except Exception as exc:
        raise ValueError(f"{name} could not be read as an array: {exc}") from None
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D of shape (n_samples,); got shape {arr.shape}."
            + (
                f" Use {name}.ravel() for a column vector."
                if arr.ndim == 2 and 1 in arr.shape
                else ""
            )
        )
    if arr.shape[0] != n_samples:
        raise ValueError(
            f"X has {n_samples} samples but {name} has {arr.shape[0]}; they must match."
        )
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinity; every sample needs a label.")
    if arr.dtype.kind == "c":
        raise ValueError(f"{name} must hold class labels; got complex dtype {arr.dtype}.")
    return arr


def check_X_y(X, y):
    """Check X and y together: X 2-D numeric finite, y 1-D and as long as X."""
    X = check_array(X)
    y = check_y(y, X.shape[0])
    return X, y


def binary_classes(y, model_name):
    """The two sorted labels of y, or a ``ValueError`` when y does not hold exactly two."""
    classes = np.unique(y)
    if classes.shape[0] != 2:
        raise ValueError(
            f"{model_name} needs exactly 2 classes in y; got {classes.shape[0]} "
            f"class{'es' if classes.shape[0] != 1 else ''}: {_show(classes)}."
            + (
                " Only binary classification is supported: "
                "use MulticlassPerceptron for more than two."
                if classes.shape[0] > 2
                else ""
            )
        )
    return classes


def encode_binary(y, classes):
    """Map labels to -1.0 / +1.0, with ``classes[1]`` as +1 (scikit-learn's convention)."""
    unknown = ~np.isin(y, classes)
    if np.any(unknown):
        raise ValueError(
            f"y holds labels {_show(np.unique(y[unknown]))} "
            f"that are not in classes {_show(classes)}."
        )
    return np.where(y == classes[1], 1.0, -1.0)


def _show(values, limit=6):
    values = list(values)
    text = ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in values[:limit])
    return "[" + text + (", ..." if len(values) > limit else "") + "]"


def check_positive(value, name):
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not np.isfinite(value)
        or value <= 0
    ):
        raise ValueError(f"{name} must be a positive number; got {value!r}.")
    return float(value)


def check_max_iter(value, name="max_iter"):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1; got {value!r}.")
    return int(value)


def check_choice(value, name, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(
            f"{name} must be one of {', '.join(repr(c) for c in choices)}; got {value!r}."
        )
    return value


def check_bool(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r}.")
    return bool(value)


def check_random_state(seed):
    """A ``numpy.random.Generator`` from None, an int or a Generator."""
    if seed is None or (isinstance(seed, numbers.Integral) and not isinstance(seed, bool)):
        if seed is not None and seed < 0:
            raise ValueError(
                "random_state must be None, a non-negative integer or a numpy Generator; "
                f"got {seed!r}."
            )
        return np.random.default_rng(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    raise ValueError(
        f"random_state must be None, a non-negative integer or a numpy Generator; got {seed!r}."
    )


def check_init(coef_init, intercept_init, n_features, shape=None):
    """Copies of the initial weights, checked against the data's shape."""
    shape = (n_features,) if shape is None else shape
    if coef_init is None:
        w = np.zeros(shape)
    else:
        w = np.array(coef_init, dtype=np.float64)  # a copy: the caller's array is never touched
        if w.shape != shape:
            raise ValueError(f"coef_init must have shape {shape}; got {w.shape}.")
        if not np.all(np.isfinite(w)):
            raise ValueError("coef_init contains NaN or infinity.")
    bshape = shape[:-1]
    if intercept_init is None:
        b = np.zeros(bshape)
    else:
        b = np.array(intercept_init, dtype=np.float64)
        if b.shape != bshape and not (bshape == () and b.shape == (1,)):
            raise ValueError(
                f"intercept_init must have shape {bshape if bshape else '() (a number)'}; "
                f"got {b.shape}."
            )
        b = b.reshape(bshape)
        if not np.all(np.isfinite(b)):
            raise ValueError("intercept_init contains NaN or infinity.")
    return w, b
