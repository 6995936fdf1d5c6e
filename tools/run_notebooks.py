"""Run notebooks top to bottom, each in a fresh kernel from its own folder, and store the outputs.

Usage: python tools/run_notebooks.py notebooks/01_*.ipynb [...]

Widget state is stored in the notebook's metadata (so handouts can render the controls), and
no timing metadata is written, so that a re-run changes only what really changed.
"""

import pathlib
import sys
import time

import nbformat
from nbclient import NotebookClient


def run(path):
    path = pathlib.Path(path)
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:  # start clean: no stale outputs or counts survive a re-run
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
            cell.metadata.pop("execution", None)
    client = NotebookClient(
        nb,
        timeout=900,
        kernel_name="python3",
        record_timing=False,
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    start = time.perf_counter()
    client.execute()
    nbformat.validate(nb)
    nbformat.write(nb, path)
    print(f"{path}: ran in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        run(arg)
