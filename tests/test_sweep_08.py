"""The sweep behind notebook 08's comparison with SVC: its accuracies and support vectors are the
numbers the notebook quotes (its stored output of the same 20 splits), its times are sane, and the
time ratios the notebook's text quotes are those stored in notebooks/sweeps/08_svc.json.

Times depend on the machine, so the recomputed ones are checked only as ranges: the kernel
perceptron (a Python loop) fits slower than SVC (compiled libsvm), and predicts 10 000 points within
a factor of 20 of it."""

import importlib.util
import json
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
_PATH = ROOT / "tools" / "sweep_08_svc.py"
_spec = importlib.util.spec_from_file_location("sweep_08_svc", _PATH)
sweep_08 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sweep_08)

_STORED = sweep_08.STORED
_NOTEBOOK = ROOT / "notebooks" / "08_kernels.ipynb"
_NAMES = {"perceptron": "last iterate", "averaged": "averaged", "SVC": "SVC"}


def _notebook_text():
    cells = json.loads(_NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    outputs = [
        "".join(o.get("text", ""))
        for c in cells
        if c["cell_type"] == "code"
        for o in c.get("outputs", [])
    ]
    markdown = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    return "\n".join(outputs), "\n".join(markdown)


def _quoted():
    """{notebook name: (mean accuracy, mean support vectors)} from the notebook's stored output."""
    outputs, _ = _notebook_text()
    found = {}
    for name in _NAMES.values():
        m = re.search(
            rf"^{re.escape(name)}\s+test accuracy ([\d.]+) ± [\d.]+, support vectors ([\d.]+)$",
            outputs,
            re.M,
        )
        assert m, f"the notebook does not quote {name}'s accuracy and support vectors"
        found[name] = (m.group(1), m.group(2))
    return found


def test_the_sweep_gives_the_numbers_the_notebook_quotes():
    runs = [sweep_08.run(seed, repeats=1) for seed in range(20)]
    quoted = _quoted()
    for key, name in _NAMES.items():
        acc = np.mean([r[key][0] for r in runs])
        n_sv = np.mean([r[key][1] for r in runs])
        # formatted as the notebook prints them
        assert f"{acc:.3f}" == quoted[name][0], (name, acc, quoted[name])
        assert f"{n_sv:.1f}" == quoted[name][1], (name, n_sv, quoted[name])
    for r in runs:
        for _acc, _n_sv, *times in r.values():
            assert all(np.isfinite(t) and t > 0 for t in times)
        # the averaged form and the last iterate keep the same support vectors (the same updates)
        assert r["perceptron"][1] == r["averaged"][1]
    # sane ranges only, on the medians over the splits (one split's time is noise on a busy
    # machine): a Python loop fits slower than libsvm; predictions are comparable
    for key in ("perceptron", "averaged"):
        fit = np.median([r[key][2] / r["SVC"][2] for r in runs])
        predict = np.median([r[key][4] / r["SVC"][4] for r in runs])
        assert fit > 1 and 0.05 < predict < 20, (key, fit, predict)


def _stored():
    return json.loads(_STORED.read_text(encoding="utf-8"))


def test_the_stored_sweep_has_its_runs_and_matches_the_notebooks_accuracies():
    stored = _stored()
    assert stored["date"] and stored["machine"] and stored["seeds"] == 20
    assert len(stored["runs"]) >= 2  # wording must hold over more than one run
    for run in stored["runs"]:
        assert set(run) == {"perceptron", "averaged"}
        for times in run.values():
            assert set(times) == set(sweep_08.TIMES.values())
            for r in times.values():
                assert 0 < r["min"] <= r["median"] <= r["max"]
    quoted = _quoted()
    for key, name in _NAMES.items():
        assert f"{stored['accuracy'][key]:.3f}" == quoted[name][0], name
        assert f"{stored['support vectors'][key]:.1f}" == quoted[name][1], name


def test_the_notebook_quotes_the_stored_time_ratios():
    _, markdown = _notebook_text()
    text = " ".join(markdown.split())
    got = sweep_08.summary(_stored())
    n_runs = len(_stored()["runs"])
    fit = got["fit"]
    p100, p10k = got["predict 100"], got["predict 10000"]
    quotes = [
        f"{n_runs} runs of the same 20 splits",
        f"fitting took a median {fit[0]:.0f} to {fit[1]:.0f} times `SVC`'s time",
        f"Predicting 10 000 points took a median {p10k[0]:.1f} to {p10k[1]:.1f} times",
        f"predicting only the 100 test points took a median {p100[0]:.1f} to {p100[1]:.1f} times",
    ]
    for quote in quotes:
        assert quote in text, quote
    # the words around the numbers hold for the whole spread of the stored runs
    assert fit[0] >= 10 and fit[1] < 200  # "tens to a hundred times slower to fit"
    assert 0.5 <= p10k[0] and p10k[1] <= 2  # "about the same"
    assert p100[0] > 1  # "slower" on 100 points


def test_the_stored_raw_seconds_give_the_stored_ratios():
    # every split's raw seconds are stored: their medians reproduce each run's ratios
    stored = _stored()
    assert len(stored["seconds"]) == len(stored["runs"])
    for seconds, run in zip(stored["seconds"], stored["runs"]):
        assert len(seconds) == stored["seeds"]
        for split in seconds:
            for times in split.values():
                assert all(len(ts) == stored["repeats"] and min(ts) > 0 for ts in times.values())
        for name, times in run.items():
            for what, r in times.items():
                ratios = [
                    np.median(split[name][what]) / np.median(split["SVC"][what])
                    for split in seconds
                ]
                # the raw seconds are stored to 4 significant digits
                assert np.isclose(np.median(ratios), r["median"], rtol=2e-3, atol=0.006), (
                    name,
                    what,
                )
