"""Figures for the course
(see :mod:`perclib.plotting.core` for the conventions every figure follows).

Every helper takes ``ax=None``, draws on it or on a new axes, and returns the axes.
"""

from .convergence import *  # noqa: F403  (plot_novikoff_lemma, plot_bound_scatter, ...: see its __all__)
from .core import (
    CLASS_COLORS,
    CLASS_MARKERS,
    NEGATIVE,
    OKABE_ITO,
    POSITIVE,
    boundary_segment,
    halfplanes,
    plot_classes,
    plot_data,
    plot_decision_boundary,
    plot_decision_regions,
    plot_mistakes,
    plot_update,
)
from .display import figure_with_alt, reset_style, show_figure
from .evaluation import (
    METHOD_STYLES,
    plot_boundaries,
    plot_confusion_matrix,
    plot_error_curves,
    plot_weight_image,
)
