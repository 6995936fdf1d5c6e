"""The sweep behind notebook 08's comparison with SVC, re-run on its first 3 seeds.

Times are not asserted (they depend on the machine): only that they were measured, and that the
accuracies and support vectors are the ones the notebook computes on the same splits."""

import importlib.util
from pathlib import Path

import numpy as np

_PATH = Path(__file__).resolve().parents[1] / "tools" / "sweep_08_svc.py"
_spec = importlib.util.spec_from_file_location("sweep_08_svc", _PATH)
sweep_08 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sweep_08)


def test_the_sweep_measures_the_same_models_on_the_same_splits():
    for seed in range(3):
        out = sweep_08.run(seed, repeats=1)
        assert set(out) == {"perceptron", "averaged", "SVC"}
        for acc, n_sv, *times in out.values():
            assert 0.5 < acc <= 1.0 and n_sv > 0
            assert all(np.isfinite(t) and t > 0 for t in times)
        # the averaged and the last iterate keep the same support vectors (the same updates)
        assert out["perceptron"][1] == out["averaged"][1]
