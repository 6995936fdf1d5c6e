"""nbval over labs/source: the hidden tests import the instructor's grader (labs/grader)."""

import os
import pathlib

_GRADER = str(pathlib.Path(__file__).resolve().parent / "grader")
if _GRADER not in os.environ.get("PYTHONPATH", "").split(os.pathsep):
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (_GRADER, os.environ.get("PYTHONPATH")) if p
    )
