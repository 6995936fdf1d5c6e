"""The stepper, driven headlessly: set a control's value, then check ``state`` and the figure.

Oracle: the COMP90049 lecture's hand-computed trace of the 4-point example (rule="prediction"),
and the definition of the boundary w.x + b = 0 for the drawn artists.
"""

import warnings

import numpy as np
import pytest

from perclib import Perceptron
from perclib.datasets import make_xor, worked_example
from perclib.widgets import Stepper as ReExported
from perclib.widgets.stepper import COLUMNS, Stepper

# The lecture's trace, theta = (b, w1, w2) after each step, epochs 1-3.
LECTURE = [
    (0, 0, 0),
    (0, 0, 0),
    (-2, 0, 0),
    (-2, 0, 0),
    (0, 2, 2),
    (0, 2, 2),
    (-2, 2, 2),
    (-2, 2, 2),
    (-2, 2, 2),
    (-2, 2, 2),
    (-2, 2, 2),
    (-2, 2, 2),
]


@pytest.fixture
def lecture():
    return Stepper(*worked_example(), rule="prediction")


def on_line(seg, w, b):
    return np.allclose(seg @ np.asarray(w, float) + b, 0.0)


def test_reexported_from_widgets_package():
    assert ReExported is Stepper


def test_every_step_matches_the_lecture(lecture):
    assert lecture.slider.max == len(LECTURE) - 1
    for k, theta in enumerate(LECTURE):
        lecture.slider.value = k
        st = lecture.state
        assert st["step"] == k and st["n_steps"] == 12 and st["epoch"] == k // 4 + 1
        assert (st["b"], *st["w"]) == theta
        before = (0, 0, 0) if k == 0 else LECTURE[k - 1]
        assert (st["b_before"], *st["w_before"]) == before
        assert st["updated"] == (theta != before)


def test_state_and_table_of_the_first_update(lecture):
    lecture.slider.value = 2
    st = lecture.state
    assert (
        st["x"].tolist() == [0.0, 0.0]
        and st["y"] == -1
        and st["activation"] == 0
        and st["y_hat"] == 1
    )
    assert lecture.table_row() == ["1", "(0, 0)", "−1", "0", "+1", "yes", "(0, 0)", "-2"]
    assert all(f">{c}<" in lecture.table.value for c in COLUMNS)
    assert (
        "<td style='padding:2px 10px;text-align:center;border:1px solid #ddd'>-2</td>"
        in lecture.table.value
    )


def test_figure_follows_the_slider(lecture):
    lecture.slider.value = 2  # w stays 0: no boundary line at all, the whole box is the -1 side
    assert lecture.before_line.get_xydata().size == 0 and lecture.after_line.get_xydata().size == 0
    assert not lecture.pos_patch.get_visible() and lecture.neg_patch.get_visible()
    assert not lecture.w_arrow.get_visible()
    assert lecture.point_marker.get_xydata().tolist() == [[0.0, 0.0]]

    lecture.slider.value = 4  # epoch 2, x = (1, 1): w becomes (2, 2), b = 0
    seg = lecture.after_line.get_xydata()
    assert seg.shape == (2, 2) and on_line(seg, (2, 2), 0)
    assert lecture.before_line.get_xydata().size == 0  # before: w = 0
    assert lecture.point_marker.get_xydata().tolist() == [[1.0, 1.0]]
    assert lecture.w_arrow.get_visible()
    tip, tail = np.array(lecture.w_arrow.xy), np.array(lecture.w_arrow.xyann)
    d = tip - tail
    assert (
        np.isclose(d[0], d[1]) and d[0] > 0
    )  # the arrow points along w = (2, 2), normal to the line
    assert on_line(tail[None, :], (2, 2), 0)
    assert (
        "<caption style='text-align:left'>step 5 of 12 · epoch 2 · update</caption>"
        in lecture.table.value
    )

    lecture.slider.value = 6  # before: (w, b) = ((2, 2), 0); after: ((2, 2), -2)
    assert on_line(lecture.before_line.get_xydata(), (2, 2), 0)
    assert on_line(lecture.after_line.get_xydata(), (2, 2), -2)
    pos = lecture.pos_patch.get_xy()
    neg = lecture.neg_patch.get_xy()
    assert np.all(pos @ np.array([2.0, 2.0]) - 2 >= -1e-9) and np.all(
        neg @ np.array([2.0, 2.0]) - 2 <= 1e-9
    )
    xlim, ylim = lecture.ax.get_xlim(), lecture.ax.get_ylim()
    assert xlim == lecture.xlim and ylim == lecture.ylim


def test_image_is_a_png_that_changes_with_the_step(lecture):
    first = lecture.image.value
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    lecture.slider.value = 6
    assert lecture.image.value != first
    lecture.slider.value = 0
    assert lecture.image.value == first  # same step, same picture: the background is reused exactly
    table0 = lecture.table.value
    lecture.slider.value = 1
    assert lecture.table.value != table0


def test_play_and_buttons_move_the_slider(lecture):
    lecture.play.value = 3
    assert lecture.slider.value == 3 and lecture.state["step"] == 3
    lecture.slider.value = 5
    assert lecture.play.value == 5
    lecture.next_button.click()
    assert lecture.state["step"] == 6
    lecture.prev_button.click()
    lecture.prev_button.click()
    assert lecture.state["step"] == 4
    lecture.slider.value = 0
    lecture.prev_button.click()
    assert lecture.slider.value == 0
    lecture.slider.value = 11
    lecture.next_button.click()
    assert lecture.slider.value == 11


def test_rule_change_refits_and_keeps_the_step(lecture):
    lecture.slider.value = 11
    lecture.rule.value = "margin"
    assert lecture.model.rule == "margin" and lecture.slider.value == 11
    assert lecture.state["w"].tolist() == [1.0, 1.0] and lecture.state["b"] == -1.0
    assert on_line(lecture.after_line.get_xydata(), (1, 1), -1)


def test_eta_rescales_the_prediction_rule(lecture):
    lecture.eta.value = 0.5
    lecture.slider.value = 11
    assert lecture.state["w"].tolist() == [1.0, 1.0] and lecture.state["b"] == -1.0


def test_initial_weights_are_used(lecture):
    lecture.w1_0.value = 1.0
    lecture.w2_0.value = -1.0
    lecture.b_0.value = 0.5
    assert lecture.state["w_before"].tolist() == [1.0, -1.0] and lecture.state["b_before"] == 0.5
    ref = Perceptron(rule="prediction", max_iter=20, random_state=0, record=True).fit(
        *worked_example(), coef_init=[1.0, -1.0], intercept_init=0.5
    )
    assert len(lecture.history) == len(ref.history_)
    lecture.slider.value = lecture.slider.max
    assert np.array_equal(lecture.state["w"], ref.coef_) and lecture.state["b"] == ref.intercept_


def test_order_shuffle_is_seeded_and_history_can_shrink(lecture):
    lecture.slider.value = 11
    lecture.order.value = "shuffle"
    other = Stepper(*worked_example(), rule="prediction", order="shuffle")
    assert [s.index for s in lecture.history] == [s.index for s in other.history]
    epoch1 = [s.index for s in lecture.history if s.epoch == 1]
    assert sorted(epoch1) == [0, 1, 2, 3]
    lecture.order.value = "random-mistake"  # one step per update: a shorter history
    n = len(lecture.history)
    assert n < 12 and lecture.slider.max == n - 1 == lecture.play.max
    assert lecture.slider.value == n - 1 and lecture.state["step"] == n - 1


def test_non_separable_data_says_so_without_a_warning():
    X, y = make_xor()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = Stepper(X, y, max_iter=3)
    assert "max_iter=3" in s.message and "max_iter=3" in s.status.value
    assert len(s.history) == 12


def test_replays_a_given_history_of_dicts():
    X, y = worked_example()
    steps = [
        {
            "epoch": 0,
            "index": i,
            "x": X[i].tolist(),
            "y": int(y[i]),
            "activation": 0.0,
            "y_hat": 0,
            "updated": i == 1,
            "w": [0.5 * i, 0.0],
            "b": 0.25 * i,
        }
        for i in range(4)
    ]
    given = [dict(s) for s in steps]
    s = Stepper(X, y, history=given, w0=(3.0, 1.0), b0=-1.0, title="a student's run")
    assert given == steps  # nothing passed in is modified
    assert s.model is None and s.eta.disabled and s.rule.disabled and s.w1_0.disabled
    assert s.state["w_before"].tolist() == [3.0, 1.0] and s.state["b_before"] == -1.0
    s.slider.value = 2
    assert s.state["w_before"].tolist() == [0.5, 0.0] and s.state["w"].tolist() == [1.0, 0.0]
    assert s.table_row()[4] == "0"  # a y_hat of 0 (a student's step function) is shown as it is
    assert on_line(s.after_line.get_xydata(), (1.0, 0.0), 0.5)
    assert s.ax.get_title() == "a student's run"


def test_replays_model_history(lecture):
    ref = Perceptron(rule="margin", record=True).fit(*worked_example())
    s = Stepper(*worked_example(), history=ref.history_)
    s.slider.value = len(ref.history_) - 1
    assert np.array_equal(s.state["w"], ref.coef_) and s.state["b"] == ref.intercept_


def test_css_classes_and_display(lecture, capsys):
    assert "perclib-stepper" in lecture.box._dom_classes
    assert "perclib-stepper-slider" in lecture.slider._dom_classes
    assert "perclib-stepper-table" in lecture.table._dom_classes
    bundle = lecture._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == lecture.box.model_id
    lecture.display()
    assert "VBox" in capsys.readouterr().out


def test_inputs_are_not_modified():
    X, y = worked_example()
    X0, y0 = X.copy(), y.copy()
    s = Stepper(X, y)
    s.slider.value = 3
    assert np.array_equal(X, X0) and np.array_equal(y, y0)


def test_other_labels_work():
    X, _ = worked_example()
    s = Stepper(X, np.array(["yes", "yes", "no", "no"]), rule="prediction")
    s.slider.value = 11
    assert s.state["w"].tolist() == [2.0, 2.0]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"eta": 0}, "eta must be a positive number"),
        ({"eta": 1e6}, "eta must lie in"),
        ({"rule": "perceptron"}, "rule must be one of"),
        ({"order": "random"}, "order must be one of"),
        ({"w0": (1.0, 2.0, 3.0)}, "w0 must be 2 finite numbers"),
        ({"w0": "ab"}, "w0 must be 2 finite numbers"),
        ({"b0": float("nan")}, "b0 must be a finite number"),
        ({"b0": True}, "b0 must be a finite number"),
        ({"max_iter": 0}, "max_iter must be an integer"),
        ({"random_state": -1}, "random_state must be"),
        ({"title": 3}, "title must be a string"),
    ],
)
def test_bad_parameters(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Stepper(*worked_example(), **kwargs)


def test_bad_data():
    with pytest.raises(ValueError, match="2-D data; X has 3 features"):
        Stepper(np.zeros((4, 3)), [1, 1, -1, -1])
    with pytest.raises(ValueError, match="exactly 2 classes"):
        Stepper(np.zeros((4, 2)), [1, 1, 1, 1])
    with pytest.raises(ValueError, match="X has 4 samples but y has 3"):
        Stepper(np.zeros((4, 2)), [1, 1, -1])


def good_step(**changes):
    step = {
        "epoch": 1,
        "index": 0,
        "x": [1.0, 1.0],
        "y": 1,
        "activation": 0.0,
        "y_hat": 1,
        "updated": False,
        "w": [0.0, 0.0],
        "b": 0.0,
    }
    step.update(changes)
    return step


@pytest.mark.parametrize(
    "history, message",
    [
        ([], "history is empty"),
        ("steps", "history must be a sequence"),
        ({"epoch": 1}, "history must be a sequence"),
        (iter([good_step()]), "history must be a sequence"),
        ([good_step(), 3], r"history\[1\] must be a perclib Step or a dict"),
        ([{"epoch": 1, "x": [1, 1]}], r"history\[0\] lacks the key\(s\) index, y, activation"),
        ([good_step(x=[1.0, 2.0, 3.0])], "x and w need 2 entries"),
        ([good_step(w="ab")], "not a number"),
        ([good_step(y=0)], "y must be -1 or \\+1"),
        ([good_step(b=float("inf"))], "NaN or infinity"),
        ([good_step(x=[float("nan"), 1.0])], "NaN or infinity"),
    ],
)
def test_bad_history(history, message):
    with pytest.raises(ValueError, match=message):
        Stepper(*worked_example(), history=history)


def test_every_cell_of_the_table_matches_the_trace_table(lecture):
    """Notebook 03 says so: each step's row (x, y, activation, prediction, update, w, b) agrees with
    the lecture's table built by ``trace_table`` from an independent fit."""
    from perclib.exercises import trace_table

    ref = trace_table(
        Perceptron(rule="prediction", record=True).fit(*worked_example()).history_
    ).rows
    for k, r in enumerate(ref):
        lecture.slider.value = k
        st = lecture.state
        assert st["epoch"] == r["epoch"] and np.array_equal(st["x"], r["x"]) and st["y"] == r["y"]
        assert (
            st["activation"] == r["theta_x"]
            and st["y_hat"] == r["y_hat"]
            and st["updated"] == r["updated"]
        )
        assert (st["b"], *st["w"]) == tuple(r["theta"])
        row = lecture.table_row()
        assert row[3] == f"{r['theta_x']:g}" and row[5] == ("yes" if r["updated"] else "no")
