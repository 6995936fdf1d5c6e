# The single entry point: the README's commands and CI's. `make help` lists the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# pytest-xdist workers: `auto` is one per core; `make test JOBS=1` runs in one process.
JOBS   ?= auto
# Extra flags for JupyterLab, e.g. make lab LAB_ARGS="--no-browser --port=8899".
LAB_ARGS ?=
# Jupyter refuses to run as root without this flag.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
# pytest from the venv; first of its plugins, tools/lazy_rfc3987.py (0.7 s of each test process's
# start, otherwise). `python -m` puts this folder on sys.path, where `tools` is found.
PYTEST := $(BIN)/python -m pytest -p tools.lazy_rfc3987
PYTEST_COV := --cov=perclib --cov-report=term-missing:skip-covered --cov-fail-under=95
# nbval needs every cell of a notebook on one worker: --dist loadscope (nbval's README).
# The scopes go out in collection order, the longest first (_FIRST in conftest.py).
XDIST := -n $(JOBS) --dist loadscope --no-loadscope-reorder
# What ruff checks (`make lint`): the package, the tests, the tools, the labs and the notebooks.
LINT_PATHS := perclib tests tools labs notebooks benchmarks conftest.py
# `make test` runs the linter first: ruff check and ruff format --check are clean over LINT_PATHS.
TEST_LINT := lint

.DEFAULT_GOAL := help
.PHONY: help lab test quick lint notebooks clean labs handouts test-browser bench-widgets bench

help:  ## list the targets
	@awk 'BEGIN {FS = ":.*##"} /^[a-z][a-z-]*:.*## / {printf "  make %-14s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# One virtualenv; each target installs the extras it uses (pyproject.toml), each set once, and
# again only when pyproject.toml changes. A student's `make lab` gets the light "student" set.
STUDENT_ENV  := $(VENV)/.installed-student
TEST_ENV     := $(VENV)/.installed-student+labs+test+fast
FAST_ENV     := $(VENV)/.installed-fast
LABS_ENV     := $(VENV)/.installed-labs
HANDOUTS_ENV := $(VENV)/.installed-student+handouts+test
RELEASE_ENV  := $(VENV)/.installed-student+test+release
# Python writes the bytecode (.pyc) of each module the first time a process imports it, and every
# later process (each xdist worker, each Jupyter kernel that nbval or nbgrader starts) reads it.
# Where PYTHONDONTWRITEBYTECODE is set, as in many containers, nothing is written and every kernel
# compiles scikit-learn, scipy and IPython again from source (3-4 s of CPU each): the targets
# below run without it. Compiling everything at install time instead would add 142 MB of .pyc to
# a student's environment (tests of scipy, numpy, ... included), over its 650 MB budget.
unexport PYTHONDONTWRITEBYTECODE
PIP_INSTALL  := $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile
# uv (from PyPI, into the venv) installs the same packages as pip, several times faster (parallel
# downloads, a shared cache): a first `make test` spends about 15 s installing instead of 90 s.
# Where uv cannot be installed, pip does the work. uv installs pip too, with each set, for the
# user's own `pip install`: the venv is made without it (below).
UV_INSTALL   := $(BIN)/uv pip install --quiet --python $(BIN)/python pip
# Nothing is compiled to bytecode at install (uv's default; pip's --no-compile): each module is
# compiled by the first process that imports it, and only what some process imports is (3,369 of
# the test set's 9,612 files). Compiling the whole test set at install (compileall, on every core,
# the packages' own tests left out) ran beside numba's compile and slowed it: on fresh clones of a
# 2-core machine, the set-up took 27.5 s with it and 18.1 s without, the tests 103 s and 104 s.
# But the processes of a test run start together (pytest, its two workers, the two warm kernel
# servers; then an nbgrader server per worker), and on a fresh clone each compiled the modules
# they share: the run's start, up to its first test, took 16.7 s instead of 7.1 s with bytecode.
# So once the test set is installed, `make test` compiles the packages those processes import as
# they start (tools/bytecode.py: 2,300 files, 3.3 s on 2 idle cores), at the lowest priority
# (nice), in what numba's compile leaves of the cores. Fresh clones, without and with this step,
# alternately: `make test` 122.1 / 116.0 s, then 119.3 / 116.7 s (set-up 17.3-17.5 / 18.4-18.8 s,
# tests 101.7-104.8 / 97.6-97.9 s). Not pytest's plugins (hypothesis, xdist, anyio, nbval), whose
# modules pytest compiles itself, with their asserts rewritten.
BYTECODE_PACKAGES := perclib sklearn pandas matplotlib contourpy IPython executing stack_data \
	debugpy ipykernel ipywidgets anywidget jupyter_client zmq tornado traitlets nbformat \
	jsonschema fastjsonschema _pytest pluggy execnet nbgrader sqlalchemy alembic mako nbconvert \
	mistune jinja2 bleach bs4 dateutil platformdirs attr isoduration arrow pyparsing
BYTECODE := $(VENV)/.bytecode

# The venv without pip, then uv installed by the pip wheel that Python ships (tools/get_uv.py):
# `python3 -m venv` first installs that pip into the venv, 2 s of a first run. Where that fails
# (no wheel, say), the venv is made again the usual way, with pip, which then installs uv.
$(BIN)/python:
	$(PYTHON) -m venv --without-pip $(VENV) && $(BIN)/python tools/get_uv.py || { \
	rm -rf $(VENV); $(PYTHON) -m venv $(VENV) && { $(PIP_INSTALL) uv || :; }; }

# The "fast" set, as `make test` installs it first: numba and the numeric packages that compiling
# the loops imports, with pyproject.toml's bounds (tools/compile_requirements.py), and not perclib:
# `python -m perclib._kernel` imports it from this folder. Where tomllib is missing (Python 3.10)
# or uv is, the "fast" set whole.
$(FAST_ENV): pyproject.toml tools/compile_requirements.py | $(BIN)/python
	if [ -x $(BIN)/uv ] && reqs=$$($(BIN)/python tools/compile_requirements.py); then \
	$(UV_INSTALL) $$reqs; \
	else $(PIP_INSTALL) -e ".[fast]"; fi
	touch $@

$(VENV)/.installed-%: pyproject.toml | $(BIN)/python
	if [ -x $(BIN)/uv ]; then $(UV_INSTALL) -e ".[$(subst +,$(comma),$*)]"; \
	else $(PIP_INSTALL) -e ".[$(subst +,$(comma),$*)]"; fi
	touch $@
comma := ,

# numba compiles perclib's loops once into its cache (perclib/__pycache__), again when _kernel.py
# changes: before the tests, so that no test, notebook or graded lab kernel waits for the compiler.
# Each version the models need is compiled here (dense X, seen read-only; CSR X), in two
# processes at once: the binary models' loops; the multi-class loop and the sparse versions
# (perclib._kernel.warm). Else both test processes would compile what their tests need.
# It needs numba and the numeric set only (FAST_ENV): `make test` compiles while the rest installs.
COMPILED := $(VENV)/.compiled-kernel
$(COMPILED): perclib/_kernel.py perclib/_engine.py $(FAST_ENV)
	$(BIN)/python -m perclib._kernel binary & binary=$$!; \
	$(BIN)/python -m perclib._kernel multiclass sparse && wait $$binary
	touch $@

lab: $(STUDENT_ENV)  ## open the course in JupyterLab (installs the student set only)
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks $(ROOT_FLAG) $(LAB_ARGS)

# numba and the numeric set first; then numba compiles while the rest of the test set installs
# (two jobs at once: the compile imports only the fast set, which the installer leaves as it is)
# and ruff checks.
test: $(FAST_ENV)  ## unit tests, doctests and nbval (strict) over notebooks and labs, coverage >= 95%
	@$(MAKE) --no-print-directory -j2 test-setup
	$(PYTEST) $(XDIST) $(PYTEST_COV)

.PHONY: test-setup
test-setup: $(TEST_ENV) $(COMPILED) $(BYTECODE) $(TEST_LINT)
	@:

$(BYTECODE): $(TEST_ENV) tools/bytecode.py
	nice -n 19 $(BIN)/python tools/bytecode.py $(BYTECODE_PACKAGES)
	touch $@

quick: $(TEST_ENV) $(COMPILED)  ## unit tests and doctests only: no Jupyter kernels (no nbval, no lab grading)
	$(PYTEST) $(XDIST) tests perclib --ignore=tests/test_labs.py --ignore=tests/test_notebook_env.py

lint: $(TEST_ENV)  ## ruff: lint and format check (make test runs it first)
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)

notebooks: $(STUDENT_ENV)  ## re-run every notebook top to bottom and store its outputs (for authors)
	$(BIN)/python tools/run_notebooks.py notebooks/[0-9]*.ipynb

labs: $(LABS_ENV)  ## build the graded labs' student versions into labs/release (nbgrader)
	$(BIN)/python labs/build.py

# Graded labs, the instructor's side (issue 17; labs/README.md is the guide).
.PHONY: student-pack grade
student-pack: $(LABS_ENV)  ## build what is handed out: the labs' student notebooks and data, in _build/student-pack
	$(BIN)/python labs/build.py pack

grade: $(LABS_ENV)  ## autograde every submission in labs/submitted (nbgrader) and print the grade table
	$(BIN)/python labs/build.py grade

# Handouts (issue 7): built from the stored outputs into $(HANDOUTS), git-ignored; assets from npm.
HANDOUTS := _build/handouts
NPM_STAMP := node_modules/.package-lock.json
HANDOUT_SOURCES := $(wildcard notebooks/[0-9]*.ipynb docs/*.md) $(shell find book -type f) tools/build_handouts.py

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts

$(HANDOUTS)/index.html: $(HANDOUTS_ENV) $(NPM_STAMP) $(HANDOUT_SOURCES)
	tools/ensure_chromium.sh
	$(BIN)/python tools/build_handouts.py --out $(HANDOUTS)

handouts: $(HANDOUTS)/index.html  ## offline HTML site, a PDF and reveal.js slides per notebook

# JupyterLab starts its kernels from its own Jupyter folders, with ipykernel's spec: the tests'
# warm servers (../conftest.py) would serve none of them, so none are started.
test-browser: $(HANDOUTS)/index.html  ## JupyterLab and headless chromium: Stepper, handout page
	tools/ensure_chromium.sh
	PERCLIB_WARM_SERVERS=0 PERCLIB_BROWSER_TESTS=1 $(PYTEST) tests/browser -v --durations=0

# CI (.ci/run) installs every set first, one after the other (they share .venv), then runs
# make test, make test-browser and make release side by side. The "fast" set comes first; then
# numba compiles while the other sets install, as in `make test`. npm's assets and chromium come
# from other registries into other folders: they are fetched meanwhile.
.PHONY: ci-setup
ci-setup:  ## what CI installs before its three runs: every extra, the compiled loops, npm's assets, chromium
	$(MAKE) --no-print-directory $(NPM_STAMP) & npm=$$!; \
	tools/ensure_chromium.sh & chromium=$$!; \
	$(MAKE) --no-print-directory $(FAST_ENV) && { \
	    $(MAKE) --no-print-directory $(COMPILED) & compiled=$$!; \
	    $(MAKE) --no-print-directory $(TEST_ENV) $(BYTECODE) $(HANDOUTS_ENV) $(RELEASE_ENV); sets=$$?; \
	    wait $$compiled && [ $$sets -eq 0 ]; }; \
	python=$$?; wait $$npm && wait $$chromium && exit $$python

# Back to a fresh clone's state; the instructor's grading (labs/submitted, the gradebook) stays.
clean:  ## remove .venv, .venv-mutation, node_modules, _build and the labs' student versions (labs/release)
	rm -rf $(VENV) $(MVENV) node_modules build _build labs/release .coverage .pytest_cache .hypothesis

bench-widgets: $(STUDENT_ENV)  ## redraw time of the Stepper and the BoundaryExplorer (budget 100 ms)
	$(BIN)/python benchmarks/bench_widgets.py

# The grid (workload kinds x models, with and without the accelerator), then the fit details; each
# writes its own section of benchmarks/results.md and of the README's table (benchmarks/_report.py).
bench: $(TEST_ENV) $(COMPILED)  ## time perclib against scikit-learn (a grid of workloads, with and without the accelerator); writes benchmarks/results.md and the README tables
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $(BIN)/python benchmarks/bench_grid.py
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $(BIN)/python benchmarks/bench_fit.py

# Mutation testing (issue 18): mutmut over perclib's models, training engine, theory, losses,
# _validation and datasets ([tool.mutmut] in pyproject.toml). Not part of `make test` or CI: it
# takes long.
# It runs in a virtualenv of its own, without numba: mutmut wraps each mutated function in a
# trampoline that numba cannot compile, and without numba perclib's compiled loops (_kernel) run as
# plain Python, where mutmut can reach them.
# One module: make mutation MUTANTS='perclib._engine.*'. Survivors: $(MBIN)/mutmut show NAME.
MUTANTS ?=
MVENV := .venv-mutation
MBIN  := $(MVENV)/bin
MUTATION_ENV := $(MVENV)/.installed-student+test+mutation
$(MBIN)/python:
	$(PYTHON) -m venv $(MVENV)
	-$(MBIN)/python -m pip install --quiet --disable-pip-version-check uv
$(MUTATION_ENV): pyproject.toml | $(MBIN)/python
	if [ -x $(MBIN)/uv ]; then $(MBIN)/uv pip install --quiet --python $(MBIN)/python -e ".[student,test,mutation]"; \
	else $(MBIN)/python -m pip install --quiet --disable-pip-version-check -e ".[student,test,mutation]"; fi
	! $(MBIN)/python -c "import numba" 2>/dev/null  # no numba here (see above)
	touch $@
.PHONY: mutation
mutation: $(MUTATION_ENV)  ## mutation score of perclib's core modules (slow; its own venv, without numba; results in mutants/)
	rm -rf mutants  # start afresh: mutmut 3 otherwise keeps the verdicts of earlier runs
	env -u PYTHONPATH $(MBIN)/mutmut run --max-children 2 $(MUTANTS)
	$(MBIN)/mutmut results
	env -u PYTHONPATH $(MBIN)/python tools/mutation_table.py  # the README's table, per module

# Release (issue 21): wheel and sdist built, `twine check`ed, installed in a fresh venv and fitted;
# environment.yml (Binder) resolved with pip and built into a fresh venv.
.PHONY: release
# Its tests start no Jupyter kernel: no warm kernel servers (PERCLIB_WARM_SERVERS=0, conftest.py).
release: $(RELEASE_ENV)  ## wheel and sdist into dist/, twine check, fresh-venv installs (1-4 min)
	rm -rf dist
	$(BIN)/python -m build $$([ -x $(BIN)/uv ] && echo --installer=uv) --outdir dist .
	$(BIN)/python -m twine check --strict dist/*
	PERCLIB_WARM_SERVERS=0 PERCLIB_RELEASE_TESTS=1 PERCLIB_DIST=dist $(PYTEST) tests/test_release.py tests/test_binder.py -v -p no:randomly -n 2
