"""nbgrader configuration of the course's graded labs.

The course directory is this folder (run nbgrader from here, or use ``make labs``)::

    source/<lab>/<lab>.ipynb     instructor versions: solutions and hidden tests (tracked)
    release/<lab>/<lab>.ipynb    student versions, built by ``make labs`` (git-ignored)
    submitted/, autograded/, feedback/, gradebook.db   the instructor's grading (git-ignored)
"""
c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file

c.CourseDirectory.course_id = "perceptron"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"

# What replaces each ### BEGIN SOLUTION ... ### END SOLUTION region in the student version.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.enforce_metadata = True

# A lab runs in well under 20 s; the margin leaves room for a slow shared machine.
c.Execute.timeout = 120
