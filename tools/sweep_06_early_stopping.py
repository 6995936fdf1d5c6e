"""The sweep behind notebook 06's early-stopping paragraph (section 6).

For each seed, the noisy 2-D task of section 6 (200 training points, labels flipped with probability
0.1) and 1000 held-out points split into 500 for validation and 500 for the test. The averaged
perceptron runs 20 shuffled epochs; the epoch with the lowest validation error is compared with the
last epoch on the test half.

Usage: PYTHONPATH=. python tools/sweep_06_early_stopping.py [n_seeds]   (default: 20)
"""

import sys

import numpy as np

from perclib import experiments as E


def one_seed(seed, max_epochs=20):
    """(epoch chosen on validation, its test error, the test error after max_epochs)."""
    Xtr, ytr, Xho, yho = E.noisy_task(200, 1000, flip=0.1)(seed=seed)
    val = E.epoch_errors(Xtr, ytr, Xho[:500], yho[:500], max_epochs=max_epochs, random_state=seed)
    tst = E.epoch_errors(Xtr, ytr, Xho[500:], yho[500:], max_epochs=max_epochs, random_state=seed)
    k = int(np.argmin(val["averaged"]))
    return k + 1, float(tst["averaged"][k]), float(tst["averaged"][-1])


def sweep(n_seeds=20):
    rows = np.array([one_seed(s) for s in range(n_seeds)])
    gain = rows[:, 2] - rows[:, 1]  # > 0: the chosen epoch did better on the test half
    return {
        "gain mean": round(float(gain.mean()), 3),
        "gain std": round(float(gain.std()), 3),
        "better": int(np.sum(gain > 0)),
        "tie": int(np.sum(gain == 0)),
        "worse": int(np.sum(gain < 0)),
        "chosen epochs": [int(e) for e in rows[:, 0]],
    }


if __name__ == "__main__":
    print(sweep(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
