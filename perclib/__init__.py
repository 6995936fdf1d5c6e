"""perclib: the helper package of the perceptron course.

>>> from perclib import Perceptron
>>> from perclib.datasets import worked_example
>>> Perceptron().fit(*worked_example()).score(*worked_example())
1.0
"""

from ._validation import ConvergenceWarning, NotFittedError
from .averaged import AveragedPerceptron
from .kernel_perceptron import KernelPerceptron
from .multiclass import MulticlassPerceptron
from .perceptron import Perceptron
from .pocket import PocketPerceptron
from .voted import VotedPerceptron

# The one version number: pyproject.toml reads it ([tool.setuptools.dynamic]); CHANGELOG.md and
# CITATION.cff must name it (tests/test_release.py).
__version__ = "0.1.0"

__all__ = [
    "Perceptron",
    "PocketPerceptron",
    "VotedPerceptron",
    "AveragedPerceptron",
    "KernelPerceptron",
    "MulticlassPerceptron",
    "ConvergenceWarning",
    "NotFittedError",
    "__version__",
]
