"""The graded labs: an instructor's sources (labs/source), the grader (labs/grader) and the build.

A package so that labs/conftest.py (nbval's set-up for the labs' notebooks) is imported as
``labs.conftest`` and never clashes with tests/conftest.py.
"""
