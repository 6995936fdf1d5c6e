# The single entry point: the README's commands and CI's.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# Jupyter refuses to run as root without this flag.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
PYTEST_COV := --cov=perclib --cov-report=term-missing:skip-covered --cov-fail-under=95
NBVAL := --nbval --nbval-current-env --nbval-cell-timeout=300

.PHONY: lab test notebooks clean labs

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

clean:
	rm -rf $(VENV) build _build release handouts .coverage
