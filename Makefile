# Quick start: `make up` runs the whole system on one machine; `make test` runs every test.
# Both create the virtualenv and install the workspace on first use; `make test` also installs
# Chromium (as root; scripts/ensure-chromium.sh) for the web console's browser test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: up test test-fast test-slow lint typecheck schemas bench clean install sbom runtime-lock

$(STAMP): requirements/*.txt libs/*/pyproject.toml services/*/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements/dev.txt
	touch $(STAMP)

install: $(STAMP)

up: $(STAMP)
	$(BIN)/policypal up

test: $(STAMP)
	$(BIN)/ruff check libs services tests bench
	$(BIN)/ruff format --check libs services tests bench
	$(BIN)/mypy libs/*/policypal services/*/*/ --no-error-summary
	scripts/ensure-chromium.sh
	$(BIN)/python -m pytest

# The fast lane: unit and contract tests only (no real server, no process), about a minute. `make test`
# stays the whole suite and the CI command.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not integration and not e2e and not faults and not slow" --ignore=tests/e2e --ignore=tests/faults

# The LLM path against a real llama.cpp server with a small packaged model (tests marked slow; not in
# `make test`). The first run builds llama-cpp-python from source (~7 min on 2 cores, niced so the
# machine stays usable); pip's wheel cache keeps the built wheel, so later installs take seconds.
test-slow: $(STAMP)
	nice -n 19 $(BIN)/pip install -q -r requirements/slow.txt
	$(BIN)/pip install -q --no-deps -r requirements/slow-model.txt
	$(BIN)/python -m pytest -m slow

# The same two ruff steps `make test` starts with, so a change that passes here passes there.
lint: $(STAMP)
	$(BIN)/ruff check libs services tests bench
	$(BIN)/ruff format --check libs services tests bench

typecheck: $(STAMP)
	$(BIN)/mypy libs/*/policypal services/*/*/

schemas: $(STAMP)
	$(BIN)/python -m policypal.contracts.schemas libs/contracts/schemas

bench: $(STAMP)
	$(BIN)/pip install -q -r requirements/bench.txt
	$(BIN)/python -m bench.ingestion
	$(BIN)/python -m bench.chat_latency
	$(BIN)/python -m bench.actions_latency
	$(BIN)/python -m bench.retrieval_recall

# The software bill of materials of the service image (CycloneDX 1.6 JSON, every package of
# requirements/runtime.lock with its hashes), validated against the schema; CI makes it after the tests.
sbom: $(STAMP)
	mkdir -p build
	$(BIN)/cyclonedx-py requirements --of JSON --sv 1.6 --output-reproducible --validate \
	  -o build/sbom.cdx.json requirements/runtime.lock

# Re-resolve the image's hashed lock files after a change of requirements/constraints.txt or a pyproject.
runtime-lock:
	deploy/tools/runtime-lock.sh

clean:
	rm -rf $(VENV) .policypal .mypy_cache .ruff_cache .pytest_cache
