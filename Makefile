# The course's two commands (README "Quickstart"): `make course` and `make test`.
# Both create or reuse the virtual environment .venv; the pinned requirements are
# installed again only when requirements.txt or pyproject.toml changed (the stamp
# file holds the sha256 of the two files as last installed).

PYTHON ?= python3
VENV ?= .venv
VENV_PY := $(VENV)/bin/python
# The commands below run with bytecode caching on, whatever the environment says
# (PYTHONDONTWRITEBYTECODE=1 in some containers): otherwise every kernel compiles the course
# package again and every pytest worker rewrites and compiles every test module again (about
# 8 s of CPU per worker). The caches go to __pycache__ folders, which git ignores.
RUN := PYTHONDONTWRITEBYTECODE= $(VENV_PY)
STAMP := $(VENV)/.requirements.stamp
REQUIREMENTS := requirements.txt pyproject.toml
# Extra arguments, e.g. make course ARGS="--only 01 -p max_rounds 3", make test ARGS="tests -x"
ARGS ?=

.DEFAULT_GOAL := help
.PHONY: help venv course test slow notebooks fuzz bench soak clean distclean

help: ## list the targets
	@echo "usage: make TARGET [ARGS=...]"
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  %-10s %s\n", $$1, $$2}'

venv: ## create .venv if needed; install the pinned requirements when they changed
	@test -x $(VENV_PY) || { \
		$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
			|| { echo "error: the course needs Python 3.11 or newer; run make PYTHON=python3.11 ..." >&2; exit 1; }; \
		echo "Creating $(VENV) with $(PYTHON)"; \
		$(PYTHON) -m venv $(VENV); \
	}
	@hash=$$(cat $(REQUIREMENTS) | $(VENV_PY) -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())'); \
	if [ "$$hash" != "$$(cat $(STAMP) 2>/dev/null)" ]; then \
		echo "Installing the pinned requirements into $(VENV) (a first install takes a few minutes)"; \
		$(VENV_PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt \
			&& echo "$$hash" > $(STAMP); \
	fi

course: venv ## run every notebook headless on the offline default; copies go to build/
	$(RUN) -m conductor course $(ARGS)

test: venv ## run the unit tests and strict nbval over notebooks/ and demos/
	$(RUN) -m pytest $(ARGS)

slow: venv ## the slow volume make test skips (every notebook on Chat Completions and Messages); CI runs it
	$(RUN) -m pytest --slow -m slow $(ARGS)

notebooks: venv ## re-execute the notebooks in place on the offline default (before committing them)
	$(RUN) -m conductor refresh $(ARGS)

fuzz: venv ## the hypothesis tests on fresh random examples (make test repeats the same ones)
	HYPOTHESIS_PROFILE=explore $(VENV_PY) -m pytest -q -p no:cacheprovider $$(grep -l "from hypothesis" tests/test_*.py) $(ARGS)

bench: venv ## one table of every benchmark's ratio against its bar (python -m conductor bench)
	$(VENV_PY) -m conductor bench

soak: venv ## 10,000 random offline conversations with faults; exits 1 when a promise breaks
	$(VENV_PY) -m conductor soak --conversations 10000 $(ARGS)

clean: ## remove build/ and test caches
	rm -rf build .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +

distclean: clean ## also remove the virtual environment
	rm -rf $(VENV)
