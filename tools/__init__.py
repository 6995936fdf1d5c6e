"""The course's build and test tools: scripts run by the Makefile (and imported by their tests as
``tools.<name>``), and tools.lazy_rfc3987, a pytest plugin (``-p tools.lazy_rfc3987``). A package,
so that no installed ``tools`` module hides them."""
