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
WHEELS := $(TREATY_CACHE_DIR)/wheels
LLAMA_VERSION := 0.3.36
UV_VERSION := 0.13.9
# A default llama.cpp build (-march=native) crashes on these CPUs; see ../shared/MODELS.md.
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON

.PHONY: install models index run test bench eval browser clean-index

# torch: the CPU build that lies on this machine's disk (pip finds it through the machine's pip config);
# uv then installs the pinned rest from its cache in seconds.
$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q torch==2.13.0 uv==$(UV_VERSION)
	@if ! ls $(WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl >/dev/null 2>&1; then \
	  echo "[install] a compilar llama-cpp-python $(LLAMA_VERSION) (portável, ~5 min, uma só vez)"; \
	  mkdir -p $(WHEELS) && CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" CMAKE_BUILD_PARALLEL_LEVEL=2 \
	    $(PY) -m pip wheel --no-deps llama-cpp-python==$(LLAMA_VERSION) -w $(WHEELS); fi
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(VENV)/bin/uv pip install --python $(PY) -q --find-links $(WHEELS) \
	  -r requirements.txt
	@touch $(STAMP)

install: $(STAMP)

models: install
	$(PY) -m modelstore

index: models
	$(PY) -m ingest

# Debian's chromium for the browser test (Playwright drives it; no browser download).
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

run: index
	@if [ -f app.py ]; then $(PY) -m streamlit run app.py --server.headless true \
	  --server.port $${TREATY_APP_PORT:-8501} --browser.gatherUsageStats false --server.fileWatcherType none; \
	else echo 'Índice pronto. Pergunte: .venv/bin/python -m assistant ask "Sou residente em Portugal e recebo dividendos do Brasil"'; fi

test: index browser
	$(PY) -m pytest -q

bench: index
	$(PY) -m eval.bench

eval: index
	$(PY) -m eval.run

clean-index:
	rm -rf .index
