"""MulticlassStepper, driven headlessly: move the slider, check ``state`` and the figure's data."""

import numpy as np
import pytest

from perclib import MulticlassPerceptron, widgets
from perclib.datasets import make_blobs3
from perclib.widgets.multiclass import MulticlassStepper


@pytest.fixture
def stepper():
    return MulticlassStepper()


def _replay(X, y, steps):
    """The multi-class perceptron by hand (ties to the lowest class): an oracle for W after each
    step."""
    classes, t = np.unique(y, return_inverse=True)
    W, b = np.zeros((len(classes), 2)), np.zeros(len(classes))
    out = []
    for k in range(steps):
        i = k % len(X)
        p = int(np.argmax(W @ X[i] + b))
        if p != t[i]:
            W[t[i]] += X[i]
            W[p] -= X[i]
            b[t[i]] += 1
            b[p] -= 1
        out.append((W.copy(), b.copy(), p != t[i]))
    return out


def test_exported_and_built(stepper):
    assert widgets.MulticlassStepper is MulticlassStepper
    assert "perclib-multiclass-stepper" in stepper.box._dom_classes
    X, y = make_blobs3(12, spread=0.8, random_state=0)
    np.testing.assert_array_equal(stepper.X, X)
    assert stepper.slider.max == len(stepper.history) - 1 == stepper.model.n_iter_ * 36 - 1
    assert stepper.image.value[:8] == b"\x89PNG\r\n\x1a\n"
    assert stepper.message == ""
    assert stepper._repr_mimebundle_()["text/plain"].startswith("VBox")


def test_slider_shows_each_step_as_replayed_by_hand(stepper):
    oracle = _replay(stepper.X, stepper.y, len(stepper.history))
    for k in (0, 1, 5, len(stepper.history) - 1):
        stepper.slider.value = k
        st = stepper.state
        W, b, updated = oracle[k]
        assert st["step"] == k and st["updated"] == updated
        np.testing.assert_array_equal(st["W"], W)
        np.testing.assert_array_equal(st["b"], b)
        np.testing.assert_array_equal(st["x"], stepper.X[k % len(stepper.X)])
        # the figure: the marker on x, one arrow per class ending at w_k, regions = argmax of the
        # scores
        np.testing.assert_array_equal(stepper.marker.get_xydata(), [st["x"]])
        for arrow, w in zip(stepper.arrows, W):
            assert arrow.xy == pytest.approx(tuple(w))
            assert arrow.xyann == (0, 0)
        gx, gy = stepper._grid
        expected = np.argmax(np.c_[gx.ravel(), gy.ravel()] @ W.T + b, axis=1).reshape(gx.shape)
        np.testing.assert_array_equal(stepper.regions, expected)


def test_an_update_adds_x_to_the_true_class_and_subtracts_it_from_the_predicted(stepper):
    k = next(k for k, s in enumerate(stepper.history) if s.updated)
    stepper.slider.value = k
    st = stepper.state
    assert st["y"] != st["y_hat"]
    t, p = list(stepper.classes).index(st["y"]), list(stepper.classes).index(st["y_hat"])
    delta = st["W"] - st["W_before"]
    np.testing.assert_allclose(delta[t], st["x"])
    np.testing.assert_allclose(delta[p], -st["x"])
    assert np.all(delta[[j for j in range(3) if j not in (t, p)]] == 0)
    np.testing.assert_allclose(st["b"] - st["b_before"], np.eye(3)[t] - np.eye(3)[p])
    np.testing.assert_allclose(st["scores"], st["W_before"] @ st["x"] + st["b_before"])
    assert f"update: w of {st['y']} += x" in stepper.ax.get_title()
    assert "#fbe3d6" in stepper.table.value and ">yes<" in stepper.table.value


def test_updates_only_walks_through_the_updates(stepper):
    stepper.slider.value = 20
    stepper.updates_only.value = True
    updates = [k for k, s in enumerate(stepper.history) if s.updated]
    assert stepper.slider.max == len(updates) - 1
    assert stepper.state["step"] == max(k for k in updates if k <= 20)
    before = stepper.image.value
    stepper.go(+1)
    assert stepper.state["updated"] and stepper.state["step"] == updates[stepper.slider.value]
    assert stepper.image.value != before
    stepper.next_button.click()
    stepper.next_button.click()
    stepper.go(+100)
    assert stepper.state["step"] == updates[-1]
    stepper.prev_button.click()
    assert stepper.state["step"] == updates[-2]
    stepper.updates_only.value = False
    assert stepper.state["step"] == updates[-2] and stepper.slider.max == len(stepper.history) - 1


def test_updates_only_from_the_start_and_before_any_update():
    s = MulticlassStepper(updates_only=True)
    assert s.state["updated"]
    s.updates_only.value = False
    s.slider.value = 0
    s.updates_only.value = True  # no update at or before step 0: go to the first update
    assert s.slider.value == 0 and s.state["updated"]


def test_given_data_string_labels_and_a_convergence_message():
    X, y = make_blobs3(10, spread=1.5, random_state=2)
    labels = np.array(["north", "west", "east"])[y]
    s = MulticlassStepper(X, labels, max_iter=2, order="shuffle", random_state=1)
    assert set(s.classes) == {"north", "west", "east"}
    assert "max_iter=2" in s.message and "max_iter=2" in s.status.value
    model = MulticlassPerceptron(max_iter=2, order="shuffle", random_state=1, record=True)
    with pytest.warns(UserWarning):
        model.fit(X, labels)
    s.slider.value = s.slider.max
    np.testing.assert_array_equal(s.state["W"], model.coef_)
    assert s.state["y"] in ("north", "west", "east")
    assert [t.get_text() for t in s.ax.get_legend().get_texts()][-3:] == [
        "$w$ of class east",
        "$w$ of class north",
        "$w$ of class west",
    ]


def test_display_shows_the_box(stepper, monkeypatch):
    shown = []
    import IPython.display

    monkeypatch.setattr(IPython.display, "display", lambda obj: shown.append(obj))
    stepper.display()
    assert shown == [stepper.box]


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        ((np.zeros((4, 2)),), {}, "both X and y"),
        ((np.zeros((4, 3)), [0, 1, 2, 0]), {}, "2-D data"),
        ((np.arange(20.0).reshape(10, 2), np.arange(10)), {}, "at most 8 classes"),
        ((np.zeros((4, 2)), [0, 0, 0, 0]), {}, "at least 2 classes"),
        ((), {"updates_only": "yes"}, "updates_only"),
        ((), {"eta": -1}, "eta"),
    ],
)
def test_bad_input(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        MulticlassStepper(*args, **kwargs)
