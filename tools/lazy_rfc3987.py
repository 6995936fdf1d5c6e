"""A pytest plugin that `make test` loads first (``-p tools.lazy_rfc3987``): rfc3987_syntax imports
only when it is used.

nbval, a plugin of every test process, imports nbformat, which imports jsonschema, which imports
rfc3987_syntax for its "iri" format checks; rfc3987_syntax builds three Lark parsers of RFC 3987's
grammar as it is imported: 0.7 s of each process's start (pytest's first process, alone on the
machine then, and each xdist worker), for checks that no test process makes (nbformat and nbgrader
validate notebooks without format checks). Here the module is a stand-in until then: the first
use imports the real one and hands it over, so the checks answer as they would have.

Loaded by ``-p``, it runs before the plugins that pytest finds in the installed packages, nbval
among them. A bare ``pytest`` does without it and starts 0.7 s later.
"""

import importlib
import importlib.util
import sys
import types

NAME = "rfc3987_syntax"


class _StandIn(types.ModuleType):
    """rfc3987_syntax until it is used: any other public attribute is the real module's. Not the
    private ones: a look at every module's ``__file__`` (coverage's, as it starts) or at every
    object's ``_mock_name`` (pytest's, in each plugin) must not import it."""

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        return getattr(real(), attr)


def real():
    """The real rfc3987_syntax, imported on first use in place of the stand-in."""
    module = sys.modules.get(NAME)
    if isinstance(module, _StandIn):
        del sys.modules[NAME]
        try:
            module = importlib.import_module(NAME)
        except BaseException:
            sys.modules[NAME] = _stand_in  # as it was: the next use tries again
            raise
    return module


def is_valid_syntax(term, value):
    """rfc3987_syntax.is_valid_syntax, the function jsonschema imports from it."""
    return real().is_valid_syntax(term, value)


_stand_in = _StandIn(NAME, "rfc3987_syntax, imported on first use (tools/lazy_rfc3987.py)")
_stand_in.is_valid_syntax = is_valid_syntax


def install():
    """Put the stand-in in place, where rfc3987_syntax is installed and not yet imported."""
    if NAME not in sys.modules and importlib.util.find_spec(NAME) is not None:
        sys.modules[NAME] = _stand_in
    return sys.modules.get(NAME)


install()
