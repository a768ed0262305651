# The two commands of the README:
#   make site   set up, compile the repo's own content/ on the offline engine, build the site
#   make test   set up, check the layer contracts (.importlinter) and run every test (what .ci/run runs)
#   make live   opt-in, never in CI: compile two chapters on a real model server (llama-cpp-python)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
GRAPH_APP := wikigen/views/graph_app

.PHONY: setup site test lint bench bench-site bench-offline bench-quality bench-search assets browser live

$(BIN)/wikigen: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@

# The graph page's bundle is built from the committed lockfile, never committed itself.
assets:
	@if [ -f $(GRAPH_APP)/package-lock.json ]; then \
	  if [ ! -f wikigen/views/assets/graph.js ] || [ -n "$$(find $(GRAPH_APP)/src $(GRAPH_APP)/package-lock.json $(GRAPH_APP)/build.mjs -newer wikigen/views/assets/graph.js 2>/dev/null)" ]; then \
	    cd $(GRAPH_APP) && npm ci --no-audit --no-fund --silent && node build.mjs; \
	  fi; \
	fi

setup: $(BIN)/wikigen assets

# Browser tests drive Debian's chromium (Playwright never downloads a browser here).
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

site: setup
	$(BIN)/wikigen compile --batch --include-deferred
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict
	@echo
	@echo "The site is in $(CURDIR)/site/. To look at it, run:"
	@echo "  $(BIN)/wikigen serve     # then open http://127.0.0.1:8000"

test: setup browser
	$(BIN)/lint-imports
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/ruff check wikigen tests scripts
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: setup
	$(BIN)/python scripts/bench_plan.py

bench-offline: setup
	$(BIN)/python scripts/bench_offline.py k8s
	$(BIN)/python scripts/bench_offline.py tldr

bench-quality: setup
	$(BIN)/python scripts/bench_quality.py

bench-search: setup
	$(BIN)/python scripts/bench_search.py

bench-site: setup
	$(BIN)/python scripts/bench_site.py
	$(BIN)/python scripts/bench_graph.py

# The HTTP engine against a real server: its own venv (.live-venv/), llama.cpp built from source the
# first time (10–20 minutes on 2 cores), SmolLM2-135M on loopback. See content/manual/engines.md.
live: $(BIN)/wikigen
	$(BIN)/python scripts/live.py
