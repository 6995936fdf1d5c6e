"""nbgrader configuration of the course's graded labs (the instructor's: see README.md here).

The course directory is this folder (run nbgrader from here, or ``make labs`` / ``make grade``)::

    source/<lab>/<lab>.ipynb     instructor versions: solutions, hidden tests, rubrics (private)
    grader/                      the hidden tests' code and the grading seed, grading.json (private)
    release/<lab>/<lab>.ipynb    student versions, built by ``make labs`` (git-ignored)
    submitted/, autograded/, feedback/, gradebook.db   the instructor's grading (git-ignored)
"""

import os
import pathlib

c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file

c.CourseDirectory.course_id = "perceptron"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"

# What replaces each ### BEGIN SOLUTION ... ### END SOLUTION region in the student version.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.enforce_metadata = True

# A lab runs in well under a minute; the margin leaves room for a slow shared machine.
c.Execute.timeout = 300
# Once every cell of a submission has run and its outputs are in, its kernel is stopped at once
# instead of being asked to shut down and waited for (a fifth of a second per submission).
c.Execute.shutdown_kernel = "immediate"

# The hidden tests import the instructor's grader (grader/labgrader): the kernels that nbgrader
# starts (autograde, formgrader) inherit this process's environment.
_GRADER = str(pathlib.Path(__file__).resolve().parent / "grader")
if _GRADER not in os.environ.get("PYTHONPATH", "").split(os.pathsep):
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (_GRADER, os.environ.get("PYTHONPATH")) if p
    )

# Feedback shows the student's cells, the outputs and the hints, never the hidden tests' source.
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "nbgrader.preprocessors.ClearHiddenTests",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
