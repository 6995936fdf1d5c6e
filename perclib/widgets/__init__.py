"""Interactive widgets for the course, built on :mod:`perclib.plotting` and the models.

Widgets depend on plotting and algorithms, never the other way round. Each widget keeps its logic
in plain methods (``update``, ``state``) so that tests can drive it headlessly: set a control's
value, then check the state and the figure's data.
"""

from .boundary import BoundaryExplorer
from .convergence import MarginExplorer
from .ensemble import EnsembleExplorer
from .kernel import KernelStepper
from .losses import SGDExplorer
from .multiclass import MulticlassStepper
from .stepper import Stepper
