# The single entry point: the README's commands and CI's.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# Jupyter refuses to run as root without this flag.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
PYTEST_COV := --cov=perclib --cov-report=term-missing:skip-covered --cov-fail-under=95
NBVAL := --nbval --nbval-current-env --nbval-cell-timeout=300

.PHONY: lab test notebooks clean labs handouts test-browser bench-widgets bench

# Create .venv on first run; reinstall only when pyproject.toml changes.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[course]"
	touch $(STAMP)

lab: $(STAMP)  ## open the course in JupyterLab
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks $(ROOT_FLAG)

test: $(STAMP)  ## unit tests, doctests and nbval (strict) over the notebooks
	$(BIN)/python -m pytest tests perclib --doctest-modules $(PYTEST_COV) $(NBVAL) notebooks labs/source

notebooks: $(STAMP)  ## re-run every notebook top to bottom and store its outputs (for authors)
	$(BIN)/python tools/run_notebooks.py notebooks/[0-9]*.ipynb

labs: $(STAMP)  ## build the graded labs' student versions into labs/release (nbgrader)
	$(BIN)/python labs/build.py

# Graded labs, the instructor's side (issue 17; labs/README.md is the guide).
.PHONY: student-pack grade
student-pack: $(STAMP)  ## build what is handed out: the labs' student notebooks and data, in _build/student-pack
	$(BIN)/python labs/build.py pack

grade: $(STAMP)  ## autograde every submission in labs/submitted (nbgrader) and print the grade table
	$(BIN)/python labs/build.py grade

# Handouts (issue 7): built from the stored outputs into $(HANDOUTS), git-ignored; assets from npm.
HANDOUTS := _build/handouts
NPM_STAMP := node_modules/.package-lock.json
HANDOUT_SOURCES := $(wildcard notebooks/[0-9]*.ipynb) $(shell find book -type f) tools/build_handouts.py

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts

$(HANDOUTS)/index.html: $(STAMP) $(NPM_STAMP) $(HANDOUT_SOURCES)
	tools/ensure_chromium.sh
	$(BIN)/python tools/build_handouts.py --out $(HANDOUTS)

handouts: $(HANDOUTS)/index.html  ## offline HTML site, a PDF and reveal.js slides per notebook

test-browser: $(HANDOUTS)/index.html  ## JupyterLab and headless chromium: Stepper, handout page
	tools/ensure_chromium.sh
	PERCLIB_BROWSER_TESTS=1 $(BIN)/python -m pytest tests/browser -v --durations=0

# Back to a fresh clone's state; the instructor's grading (labs/submitted, the gradebook) stays.
clean:  ## remove .venv, node_modules, _build and the labs' student versions (labs/release)
	rm -rf $(VENV) node_modules build _build labs/release .coverage .pytest_cache .hypothesis

bench-widgets: $(STAMP)  ## redraw time of the Stepper and the BoundaryExplorer (budget 100 ms)
	$(BIN)/python benchmarks/bench_widgets.py

bench: $(STAMP)  ## time perclib against scikit-learn and the reference loop; writes benchmarks/results.md and the README table
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $(BIN)/python benchmarks/bench_fit.py
