"""The boundary explorer, driven headlessly. Oracle: brute force over the points, by hand."""

import numpy as np
import pytest

from perclib.datasets import make_separable, worked_example
from perclib.theory import perceptron_criterion
from perclib.widgets import BoundaryExplorer as ReExported
from perclib.widgets.boundary import BoundaryExplorer


def brute(X, y, w, b):
    wrong, loss = [], 0.0
    for i, (x, label) in enumerate(zip(X, y)):
        a = w[0] * x[0] + w[1] * x[1] + b
        if (1 if a >= 0 else -1) != label:
            wrong.append(i)
        loss += max(0.0, -label * a)
    return wrong, loss


def test_reexported():
    assert ReExported is BoundaryExplorer


def test_sliders_drive_state_like_brute_force():
    X, y = worked_example()
    ex = BoundaryExplorer(X, y)
    for w1, w2, b in [
        (1.0, 1.0, -1.0),
        (1.0, 0.5, 0.2),
        (-1.0, 0.0, 0.5),
        (0.0, 0.0, 0.0),
        (0.0, 0.0, -1.0),
        (2.0, -1.5, 1.25),
    ]:
        ex.w1.value, ex.w2.value, ex.b.value = w1, w2, b
        wrong, loss = brute(X, y, (w1, w2), b)
        assert ex.state["w"].tolist() == [w1, w2] and ex.state["b"] == b
        assert ex.state["misclassified"] == wrong
        assert ex.state["loss"] == pytest.approx(loss)
        assert ex.state["loss"] == pytest.approx(perceptron_criterion(X, y, [w1, w2], b))
        assert ex.rings.get_xydata().tolist() == X[wrong].tolist()


def test_tie_is_a_mistake_without_loss():
    ex = BoundaryExplorer(*worked_example(), w1=0.0, w2=0.0, b=0.0)
    assert ex.state["misclassified"] == [2, 3] and ex.state["loss"] == 0.0
    assert "misclassified: <b>2</b> of 4" in ex.info.value and "<b>0</b>" in ex.info.value
    assert ex.line.get_xydata().size == 0 and not ex.w_arrow.get_visible()
    assert ex.pos_patch.get_visible() and not ex.neg_patch.get_visible()


def test_figure_data_follow_the_sliders():
    ex = BoundaryExplorer(*worked_example())
    ex.w1.value, ex.w2.value, ex.b.value = 1.0, 1.0, -1.0
    seg = ex.line.get_xydata()
    assert seg.shape == (2, 2) and np.allclose(seg @ [1.0, 1.0] - 1.0, 0.0)
    assert ex.rings.get_xydata().size == 0
    tip, tail = np.array(ex.w_arrow.xy), np.array(ex.w_arrow.xyann)
    assert np.isclose(tip[0] - tail[0], tip[1] - tail[1]) and tip[0] > tail[0]
    assert np.all(ex.pos_patch.get_xy() @ [1.0, 1.0] - 1.0 >= -1e-9)
    assert np.all(ex.neg_patch.get_xy() @ [1.0, 1.0] - 1.0 <= 1e-9)
    assert "misclassified: <b>0</b> of 4" in ex.info.value and "= <b>0</b>" in ex.info.value
    before = ex.image.value
    ex.b.value = 0.5
    assert ex.image.value != before and ex.image.value[:4] == b"\x89PNG"
    assert ex.state["misclassified"] == [2]
    assert ex.rings.get_xydata().tolist() == [[0.0, 0.0]]
    assert ex.ax.get_xlim() == ex.xlim


def test_any_labels_and_inputs_untouched():
    X, y = make_separable(30, random_state=0)
    labels = np.where(y > 0, "spam", "ham")  # "spam" > "ham": spam is the +1 class
    X0 = X.copy()
    ex = BoundaryExplorer(X, labels, w1=0.3, w2=-0.2, b=0.1)
    wrong, loss = brute(X, y, (0.3, -0.2), 0.1)
    assert ex.state["misclassified"] == wrong and ex.state["loss"] == pytest.approx(loss)
    assert np.array_equal(X, X0)


def test_slider_ranges_hold_the_start_values():
    ex = BoundaryExplorer(*worked_example(), w1=5.0, w2=-4.0, b=20.0)
    assert ex.w1.value == 5.0 and ex.w2.value == -4.0 and ex.b.value == 20.0
    assert ex.w1.max >= 5 and ex.w2.min <= -4 and ex.b.max >= 20


def test_css_class_and_display(capsys):
    ex = BoundaryExplorer(*worked_example())
    assert "perclib-boundary" in ex.box._dom_classes
    assert (
        ex._repr_mimebundle_()["application/vnd.jupyter.widget-view+json"]["model_id"]
        == ex.box.model_id
    )
    ex.display()
    assert "VBox" in capsys.readouterr().out


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"w1": float("nan")}, "w1 must be a finite number"),
        ({"w2": "1"}, "w2 must be a finite number"),
        ({"b": True}, "b must be a finite number"),
    ],
)
def test_bad_parameters(kwargs, message):
    with pytest.raises(ValueError, match=message):
        BoundaryExplorer(*worked_example(), **kwargs)


def test_bad_data():
    with pytest.raises(ValueError, match="2-D data; X has 1 features"):
        BoundaryExplorer(np.zeros((2, 1)), [0, 1])
    with pytest.raises(ValueError, match="exactly 2 classes"):
        BoundaryExplorer(np.zeros((3, 2)), [0, 1, 2])
