# The whole set-up on a fresh Debian 12 machine:
#   make demo   install missing packages, build, route and check a bundled fabric
#   make check  install missing packages, build, run every test (unit + end-to-end)
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
FUZZ_SECONDS ?= 60

.PHONY: all deps configure build demo check unit e2e bench fuzz fuzz-run install deb format clean \
	opensm-patched opensm-patched-check

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@bash scripts/demo.sh $(BUILD)/ibrt

check: build opensm-patched
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

unit: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L unit

e2e: build opensm-patched
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L e2e

# Debian packages of opensm with opensm-patches/ (docs/deploy.md, "The patched opensm"), in
# $(BUILD)/opensm-patched; rebuilt only when the patches change (under a minute here). The e2e
# test test_sa_path_selection runs them, so check and e2e build them first.
opensm-patched: deps
	@bash scripts/build-opensm-patched.sh $(BUILD)/opensm-patched

opensm-patched-check: build opensm-patched
	@cd $(BUILD) && ctest --output-on-failure -R 'test_sa_path_selection'

bench: build
	@bash scripts/bench.sh $(BUILD)

fuzz: deps
	@cmake -S . -B $(BUILD)-fuzz $(CMAKE_FLAGS) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang -DIBRT_FUZZ=ON >/dev/null
	@cmake --build $(BUILD)-fuzz -j $(JOBS) --target $(notdir $(basename $(wildcard fuzz/fuzz_*.cpp)))
	@echo "fuzz targets are in $(BUILD)-fuzz/fuzz/; e.g. $(BUILD)-fuzz/fuzz/fuzz_ibnetdiscover test-fabrics/"

# A campaign: every fuzz target in turn for FUZZ_SECONDS, from its seed corpus (scripts/fuzz-run.sh).
fuzz-run: fuzz
	@bash scripts/fuzz-run.sh $(BUILD)-fuzz $(FUZZ_SECONDS)

# Installs what a subnet-manager host needs, from a build made by `make` (docs/deploy.md,
# "Install"): no build or test package, only the runtime ones (none under DESTDIR, where a
# package is being staged), and ldconfig only for a real install by root.
#   make install [PREFIX=/usr] [DESTDIR=/tmp/stage]
PREFIX ?=
install:
	@test -f $(BUILD)/CMakeCache.txt || { echo "make install: nothing built in $(BUILD): run 'make' first (it installs the build packages)" >&2; exit 2; }
	@if [ -z "$(DESTDIR)" ]; then bash scripts/install-deps.sh --runtime; fi
	@cmake --build $(BUILD) -j $(JOBS) --target ibrt ibrt_plugin ibrt_man
	@DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --component sm-host $(if $(PREFIX),--prefix $(PREFIX))

# The sm-host parts as a Debian package in $(BUILD)/deb/ (CPack; docs/deploy.md, "Install").
deb: build
	@cmake --build $(BUILD) -j $(JOBS) --target ibrt ibrt_plugin ibrt_man
	@cd $(BUILD) && cpack -G DEB -B deb >/dev/null && ls deb/*.deb

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	@rm -rf $(BUILD) $(BUILD)-fuzz
