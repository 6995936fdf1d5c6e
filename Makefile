# The single entry point: the README's commands and CI's. `make help` lists the targets.
# The Python the venv is made with: make test PYTHON=/path/to/python3.12 (CI: .ci/run).
PYTHON ?= python3
# One venv per Python if several are tested side by side: make test PYTHON=... VENV=.venv-3.12
VENV   ?= .venv
BIN    := $(VENV)/bin
# pytest-xdist workers: `auto` is one per core; `make test JOBS=0` runs in one process.
JOBS   ?= auto
# Extra flags for JupyterLab, e.g. make lab LAB_ARGS="--no-browser --port=8899".
LAB_ARGS ?=
# Jupyter refuses to run as root without this flag.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check
PYTEST := $(BIN)/python -m pytest -n $(JOBS)
COV    := --cov=perclib --cov-report=term-missing:skip-covered --cov-fail-under=95
# nbval needs every cell of a notebook on one worker (nbval's README).
KERNELS := --dist loadscope
LINT_PATHS := perclib tests tools labs notebooks benchmarks conftest.py

.DEFAULT_GOAL := help
.PHONY: help lab test quick test-notebooks test-labs lint notebooks labs grade student-pack \
	handouts test-browser release bench bench-widgets mutation fresh-machine-check clean \
	system-handouts system-test-browser system-sandbox

help:  ## list the targets
	@awk 'BEGIN {FS = ":.*##"} /^[a-z][a-z-]*:.*## / {printf "  make %-15s %s\n", $$1, $$2}' \
	$(MAKEFILE_LIST)

# The venv counts as made once pip runs in it: the stamp is written last, and a venv without it
# (a first run that failed half-way, e.g. before python3-venv was installed) is removed and made
# again. The stamp names the Python's version, so another PYTHON makes the venv again too.
PY_VERSION := $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
MADE := $(VENV)/.made-python$(PY_VERSION)
$(MADE):
	@[ -n "$(PY_VERSION)" ] || { echo "$(PYTHON) not found: the course needs Python 3.10 or newer" \
	"(on Debian or Ubuntu, as root: apt-get install -y python3 python3-venv make)"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' || { echo "$(PYTHON) is" \
	"Python $(PY_VERSION): the course needs 3.10 or newer (make ... PYTHON=python3.12 picks one)"; \
	exit 1; }
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV) || { echo "No venv made: on Debian or Ubuntu, as root:" \
	"apt-get install -y python3-venv (python$(PY_VERSION)-venv), then make again"; exit 1; }
	$(BIN)/python -m pip --version || { echo "The venv has no pip: on Debian or Ubuntu, as" \
	"root: apt-get install -y python$(PY_VERSION)-venv, then make again"; exit 1; }
	touch $@

# One stamp per set of extras (pyproject.toml), written once pip has installed them all;
# installed again when pyproject.toml changes.
comma := ,
$(VENV)/.installed-%: pyproject.toml | $(MADE)
	$(PIP) -e ".[$(subst +,$(comma),$*)]"
	touch $@

STUDENT  := $(VENV)/.installed-student
TESTING  := $(VENV)/.installed-student+labs+test
HANDOUTS_SET := $(VENV)/.installed-student+handouts+test
RELEASE_SET  := $(VENV)/.installed-student+test+release

lab: $(STUDENT)  ## set up on first run (the student set only), then open the course in JupyterLab
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks $(ROOT_FLAG) $(LAB_ARGS)

test: system-sandbox lint quick  ## lint, then the unit, notebook and lab tiers (not browser, not release)
	$(PYTEST) $(KERNELS) -m "notebooks or labs"

quick: $(TESTING)  ## unit tests and doctests, with coverage (>= 95% of perclib)
	$(PYTEST) -m unit $(COV) tests perclib

test-notebooks: $(TESTING)  ## nbval (strict) over notebooks/
	$(PYTEST) $(KERNELS) -m notebooks notebooks tests/test_notebook_env.py

test-labs: $(TESTING) system-sandbox  ## lab grading: nbgrader over the proof sets, nbval over labs/source
	$(PYTEST) $(KERNELS) -m labs tests/test_labs.py labs/source

lint: $(TESTING)  ## ruff: lint and format check
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)

notebooks: $(STUDENT)  ## re-run every notebook top to bottom and store its outputs
	$(BIN)/python tools/run_notebooks.py notebooks/[0-9]*.ipynb

labs: $(TESTING)  ## the labs' student versions, into labs/release (nbgrader)
	$(BIN)/python labs/build.py

student-pack: $(TESTING)  ## what is handed out to students, into _build/student-pack
	$(BIN)/python labs/build.py pack

grade: $(TESTING) system-sandbox  ## autograde every submission in labs/submitted and print the grades
	$(BIN)/python labs/build.py grade

# What a target needs from the system (Node.js, npm, chromium, poppler-utils), checked before
# anything else: installed as root, or the one apt-get line to run printed (tools/system_packages.sh).
system-handouts system-test-browser:
	@tools/system_packages.sh $(@:system-%=%)

# The lab grader's sandbox: bubblewrap, fetched into the venv when it cannot be installed.
system-sandbox: | $(MADE)
	@tools/system_packages.sh sandbox $(VENV)

# Built from the stored outputs; MathJax, reveal.js and the widget renderer come from npm.
NPM_STAMP := node_modules/.package-lock.json
$(NPM_STAMP): package.json package-lock.json | system-handouts
	npm ci --no-audit --no-fund --ignore-scripts

HANDOUT_SOURCES := $(wildcard notebooks/[0-9]*.ipynb docs/*.md) $(shell find book -type f) \
	tools/build_handouts.py
_build/handouts/index.html: $(NPM_STAMP) $(HANDOUTS_SET) $(HANDOUT_SOURCES) | system-handouts
	$(BIN)/python tools/build_handouts.py --out _build/handouts

handouts: system-handouts _build/handouts/index.html  ## HTML, PDFs, slides (Node.js, chromium)

test-browser: system-test-browser _build/handouts/index.html  ## JupyterLab, handouts in Chromium
	$(BIN)/python -m pytest -m browser tests/browser -v

# Each test file on one worker: the release tests share one build of the checkout.
release: $(RELEASE_SET)  ## wheel and sdist into dist/, checked and installed in fresh venvs
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	$(BIN)/python -m twine check --strict dist/*
	$(PYTEST) --dist loadfile -m release tests/test_release.py tests/test_binder.py -v

bench: $(TESTING)  ## time perclib against scikit-learn; writes benchmarks/results.md
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $(BIN)/python benchmarks/bench_grid.py
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $(BIN)/python benchmarks/bench_fit.py

bench-widgets: $(STUDENT)  ## redraw time of the widgets
	$(BIN)/python benchmarks/bench_widgets.py

# Mutation testing (mutmut, [tool.mutmut] in pyproject.toml) in a venv of its own. Slow: not in
# `make test` or CI. One module: make mutation MUTANTS='perclib.voted.*'.
MUTANTS ?=
MVENV := .venv-mutation
$(MVENV)/.made:
	rm -rf $(MVENV)
	$(PYTHON) -m venv $(MVENV)
	$(MVENV)/bin/python -m pip install --quiet -e ".[student,test,mutation]"
	touch $@

mutation: $(MVENV)/.made  ## mutation score of perclib (slow); the table for tests/MUTATION.md
	rm -rf mutants
	env -u PYTHONPATH $(MVENV)/bin/mutmut run --max-children 2 $(MUTANTS)
	env -u PYTHONPATH $(MVENV)/bin/python tools/mutation_table.py

# The README's Quick start on a freshly built Debian system (debootstrap, chroot; needs root):
# make fresh-machine-check SUITE=trixie. Not part of make test or CI: it takes long.
SUITE ?= trixie
fresh-machine-check:  ## the Quick start on a fresh Debian (root, debootstrap; slow)
	tools/fresh_machine_check.sh $(SUITE)

# --one-file-system: never into a fresh-machine check's /proc, /sys or /dev left mounted.
clean:  ## remove the venvs, node_modules and what was built (labs/submitted stays)
	rm -rf --one-file-system $(VENV) .venv-3.* $(MVENV) node_modules build dist _build \
	labs/release mutants .coverage .pytest_cache .hypothesis
