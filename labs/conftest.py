"""nbval over labs/source: the hidden tests import the instructor's grader (labs/grader)."""

import os
import pathlib

_GRADER = str(pathlib.Path(__file__).resolve().parent / "grader")
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (_GRADER, os.environ.get("PYTHONPATH")) if p)
