"""EnsembleExplorer, driven headlessly: set a slider, check ``state`` and the figure's data."""

import warnings

import numpy as np
import pytest

from perclib import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron, widgets
from perclib.datasets import make_noisy
from perclib.widgets.ensemble import EnsembleExplorer


@pytest.fixture
def explorer():
    return EnsembleExplorer(
        n_samples=40, n_test=60, epochs=2, noise=0.1, max_epochs=8, random_state=3
    )


def _line(ax, label):
    return next(line for line in ax.lines if line.get_label() == label)


def test_exported_and_built(explorer):
    assert widgets.EnsembleExplorer is EnsembleExplorer
    assert "perclib-ensemble" in explorer.box._dom_classes
    assert explorer.epochs.value == 2 and explorer.epochs.max == 8
    assert explorer.image.value[:8] == b"\x89PNG\r\n\x1a\n"
    assert explorer._repr_mimebundle_()["text/plain"].startswith("VBox")


def test_epochs_slider_refits_the_four_models(explorer):
    before = explorer.image.value
    explorer.epochs.value = 5
    st = explorer.state
    assert st["epochs"] == 5 and st["noise"] == 0.1
    X, y = make_noisy(100, 2, 0.1, random_state=3)
    np.testing.assert_array_equal(explorer.X, X[:40])
    np.testing.assert_array_equal(explorer.y_test, y[40:])
    kw = {"max_iter": 5, "order": "shuffle", "random_state": 3}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        oracles = {
            "last": Perceptron(**kw),
            "averaged": AveragedPerceptron(**kw),
            "pocket": PocketPerceptron(**kw),
        }
        for name, model in oracles.items():
            model.fit(X[:40], y[:40])
            w, b = st["boundaries"][name]
            np.testing.assert_allclose(w, model.coef_)
            assert b == pytest.approx(model.intercept_)
            assert st["test_error"][name] == np.mean(model.predict(X[40:]) != y[40:])
            # the drawn line is the model's boundary w.x + b = 0
            label = {"last": "last iterate"}.get(name, name)
            pts = _line(explorer.ax, label).get_xydata()
            np.testing.assert_allclose(pts @ w + b, 0, atol=1e-9)
    voted = VotedPerceptron(**kw).fit(X[:40], y[:40])
    assert st["n_vectors"] == {
        "last": 1,
        "voted": voted.weights_.shape[0],
        "averaged": 1,
        "pocket": 1,
    }
    assert st["train_error"]["voted"] == np.mean(voted.predict(X[:40]) != y[:40])
    assert explorer.image.value != before
    assert f">{st['n_vectors']['voted']}<" in explorer.table.value
    assert "5 epoch(s)" in explorer.ax.get_title()


def test_noise_slider_flips_more_labels(explorer):
    y_low = explorer.y.copy()
    explorer.noise.value = 0.3
    assert explorer.state["noise"] == 0.3
    flipped = explorer.y != y_low
    assert flipped.any()
    np.testing.assert_array_equal(explorer.X, make_noisy(100, 2, 0.3, random_state=3)[0][:40])
    explorer.noise.value = 0.0
    st = explorer.state
    assert st["noise"] == 0.0
    # without noise the data is separable: the pocket keeps a perfect vector
    explorer.epochs.value = 8
    assert explorer.state["train_error"]["pocket"] == 0.0
    assert "0.00" in explorer.ax.get_title()


def test_every_answer_is_in_the_legend_and_the_table(explorer):
    labels = [t.get_text() for t in explorer.ax.get_legend().get_texts()]
    for name in ("last iterate", "voted", "averaged", "pocket"):
        assert name in labels
        assert name in explorer.table.value


def test_display_shows_the_box(explorer, monkeypatch):
    shown = []
    import IPython.display

    monkeypatch.setattr(IPython.display, "display", lambda obj: shown.append(obj))
    explorer.display()
    assert shown == [explorer.box]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_samples": 1}, "n_samples"),
        ({"n_test": 0}, "n_test"),
        ({"epochs": 0}, "epochs"),
        ({"epochs": 9, "max_epochs": 8}, "at most max_epochs"),
        ({"noise": 0.5}, "noise"),
        ({"noise": True}, "noise"),
        ({"order": "random-mistake"}, "order"),
        ({"random_state": -1}, "random_state"),
        ({"max_epochs": 2.5}, "max_epochs"),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        EnsembleExplorer(**kwargs)
