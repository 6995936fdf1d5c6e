"""Figures for the course
(see :mod:`perclib.plotting.core` for the conventions every figure follows).

Every helper takes ``ax=None``, draws on it or on a new axes, and returns the axes.
"""

from .core import (
    CLASS_COLORS,
    CLASS_MARKERS,
    METHOD_STYLES,
    NEGATIVE,
    OKABE_ITO,
    POSITIVE,
    boundary_segment,
    halfplanes,
    plot_boundaries,
    plot_classes,
    plot_data,
    plot_decision_boundary,
    plot_decision_regions,
    plot_margin_band,
    plot_mistakes,
    plot_update,
)
from .display import figure_with_alt, reset_style, show_figure
