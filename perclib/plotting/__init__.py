"""Figures for the course (see :mod:`perclib.plotting.core` for the conventions every figure follows).

Every helper takes ``ax=None``, draws on it or on a new axes, and returns the axes.
"""
from .core import (CLASS_COLORS, CLASS_MARKERS, NEGATIVE, OKABE_ITO, POSITIVE, boundary_segment,
                   plot_classes, plot_data, plot_decision_boundary, plot_decision_regions, plot_mistakes,
                   plot_update)
from .evaluation import (METHOD_STYLES, plot_boundaries, plot_confusion_matrix, plot_error_curves, plot_weight_image, plot_weight_images)
from .convergence import *  # noqa: F401,F403  (plot_novikoff_lemma, plot_bound_scatter, ...: see its __all__)
from .core import halfplanes  # noqa: E402  (exact half-plane polygons, for shading and widgets)
from .display import figure_with_alt, reset_style, show_figure  # noqa: E402  (figures with alt text)
