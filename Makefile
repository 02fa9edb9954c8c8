# Kingmaker: `make play` and `make test` are all a newcomer needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: play test lint bench clean services

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev,web,browser,lab,rl]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# The main job: the web server on the embedded SQLite default (it prints the address to open).
# `kingmaker menu` plays in the terminal instead.
play: $(STAMP)
	$(BIN)/kingmaker serve

# Services the tests need (a browser, a database server) are installed and
# started by scripts/test-services.sh when it exists; it prints what it did.
services:
	@if [ -x scripts/test-services.sh ]; then scripts/test-services.sh; fi

test: $(STAMP) services
	$(BIN)/ruff check src tests
	$(BIN)/python -m pytest -n 2 --dist loadgroup

lint: $(STAMP)
	$(BIN)/ruff check src tests

bench: $(STAMP)
	$(BIN)/kingmaker bench

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
