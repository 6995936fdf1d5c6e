"""The kernel stepper, driven headlessly: set a control, then check ``state`` and what was drawn.

Oracles: ``KernelPerceptron.decision_function`` for the drawn activation at the last step, its
``support_`` for the ringed points, and the definition of the dual form for the steps between.
"""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_moons

from perclib import KernelPerceptron
from perclib.datasets import make_xor
from perclib.widgets import KernelStepper as ReExported
from perclib.widgets.kernel import COLUMNS, KernelStepper


@pytest.fixture
def moons():
    return make_moons(40, noise=0.2, random_state=0)


def test_reexported_from_widgets_package():
    assert ReExported is KernelStepper


@pytest.mark.parametrize(
    "params",
    [{"kernel": "rbf", "gamma": 1.0}, {"kernel": "rbf", "gamma": 10.0}, {"kernel": "poly"}],
)
def test_the_last_step_is_the_fitted_model(moons, params):
    s = KernelStepper(*moons, **params)
    s.slider.value = s.slider.max
    model = KernelPerceptron(
        kernel=params["kernel"], gamma=params.get("gamma", 1.0), degree=2, coef0=1.0, max_iter=10
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(*moons)
    assert s.state["support"] == model.support_.tolist()
    assert np.allclose(s.state["grid_activation"], model.decision_function(s.grid))
    assert np.allclose(s.state["alpha_y"][model.support_], model.dual_coef_)
    rings = s.support_rings.get_data()
    assert np.allclose(np.array(rings), moons[0][model.support_].T)


def test_every_step_is_the_sum_of_its_updates(moons):
    s = KernelStepper(*moons, gamma=3.0)
    signs = np.where(moons[1] == 1, 1.0, -1.0)
    for k in range(s.slider.max + 1):
        s.slider.value = k
        rows = s.model.update_indices_[:k]
        expected = np.bincount(rows, weights=signs[rows], minlength=len(signs))
        assert np.array_equal(s.state["alpha_y"], expected)
        assert s.state["b"] == signs[rows].sum()
        assert s.state["index"] == (int(rows[-1]) if k else None)
        ring = s.update_ring.get_data()
        assert len(ring[0]) == (1 if k else 0)
        assert s.state["support"] == sorted(set(rows.tolist()))


def test_step_zero_predicts_plus_one_everywhere_and_has_no_boundary(moons):
    s = KernelStepper(*moons)
    s.slider.value = 0
    assert s.state["support"] == [] and s._contour is None
    assert np.all(s.shade.get_array() == 2.0)
    assert s.state["training_mistakes"] == int(np.sum(moons[1] == 0))
    assert s.table_row()[0] == "0 (start)"


def test_a_boundary_is_drawn_where_the_activation_changes_sign(moons):
    s = KernelStepper(*moons)
    s.slider.value = s.slider.max
    assert s._contour is not None and s._contour in s._blit.dynamic
    drawn = np.vstack([p.vertices for p in s._contour.get_paths() if len(p.vertices)])
    # every vertex lies between two grid points of opposite sign: near the zero set
    model_a = s.model.decision_function(drawn)
    scale = np.abs(s.state["grid_activation"]).max()
    assert np.all(np.abs(model_a) < 0.2 * scale)


def test_changing_the_kernel_or_gamma_refits_and_keeps_the_step(moons):
    s = KernelStepper(*moons, gamma=1.0)
    s.slider.value = 2
    s.gamma.value = 10.0
    assert s.model.gamma == pytest.approx(10.0) and s.slider.value == 2
    s.kernel.value = "poly"
    s.degree.value = 3
    assert s.model.kernel == "poly" and s.model.degree == 3
    assert s.slider.max == s.model.n_updates_


def test_xor_needs_a_curve_not_a_line():
    s = KernelStepper(*make_xor(), kernel="linear")
    assert s.message  # no line separates XOR: the stepper says so
    s.kernel.value = "poly"
    s.slider.value = s.slider.max
    assert s.message == "" and s.state["training_mistakes"] == 0


def test_table_and_image(moons):
    s = KernelStepper(*moons)
    s.slider.value = 1
    assert len(s.table_row()) == len(COLUMNS)
    assert "update 1 of" in s.table.value
    first = s.image.value
    s.slider.value = s.slider.max
    assert first[:8] == b"\x89PNG\r\n\x1a\n" and s.image.value != first


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kernel": "sigmoid"}, "kernel"),
        ({"gamma": 0.001}, "gamma"),
        ({"gamma": -1.0}, "gamma"),
        ({"degree": 7}, "degree"),
        ({"degree": 2.5}, "degree"),
        ({"max_iter": 0}, "max_iter"),
    ],
)
def test_bad_parameters(moons, kwargs, message):
    with pytest.raises(ValueError, match=message):
        KernelStepper(*moons, **kwargs)


def test_inputs_are_not_modified(moons):
    X, y = moons[0].copy(), moons[1].copy()
    KernelStepper(X, y)
    assert np.array_equal(X, moons[0]) and np.array_equal(y, moons[1])


def test_controls_a_kernel_does_not_use_are_disabled(moons):
    s = KernelStepper(*moons, kernel="linear")
    assert s.gamma.disabled and s.degree.disabled
    s.kernel.value = "rbf"
    assert not s.gamma.disabled and s.degree.disabled
    s.kernel.value = "poly"
    assert not s.gamma.disabled and not s.degree.disabled


def test_the_legend_names_both_predicted_regions(moons):
    s = KernelStepper(*moons)
    labels = [t.get_text() for t in s.ax.get_legend().get_texts()]
    assert "predicted +1" in labels and "predicted −1" in labels
