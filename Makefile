# SPDX-License-Identifier: Apache-2.0
# Thin wrappers over the CMake presets. `make run` and `make test` are the quick start: both
# install what is missing, configure and build before doing their job.

PRESET ?= dev
BUILD := build/$(PRESET)
# CI builds with warnings as errors, and with line tables only for debug information: its trees are
# tested, never stepped through (docs/development.md).
ifeq ($(CI),true)
CMAKE_EXTRA := -DCCM_WERROR=ON -DCCM_DEBUG_INFO=lines
endif
# The programs `make run` shows; `make build` adds the tests.
PROGRAMS := ccm-backend ccm-designer

.PHONY: deps configure build programs run test test-system test-asan package test-package bench bench-quick bench-build clean

deps:
	@scripts/install-deps

configure: deps
	cmake --preset $(PRESET) $(CMAKE_EXTRA)

build: configure
	cmake --build --preset $(PRESET)

programs: configure
	cmake --build --preset $(PRESET) --target $(PROGRAMS)

run: programs
	@scripts/run-example $(BUILD)

test: build
	ctest --preset $(PRESET)

# The tests that change this machine (install and remove a package with the real apt): never part of
# `make test`, run only when asked. They need root and skip without it. CI asks.
test-system: build
	ctest --preset $(PRESET)-system

test-asan:
	$(MAKE) test PRESET=asan

# The Debian packages ccm-backend and ccm-designer, built from the release tree into build/release
# (docs/packaging.md). Only the programs and what the packages hold are built, not the tests.
package:
	$(MAKE) configure PRESET=release
	cmake --build build/release --target ccm-backend ccm-designer ccm_package_files
	cd build/release && cpack -G DEB

# The checks of the built packages: lintian, their contents, and the programs run from them.
test-package: package
	ctest --preset package

# Figures for the performance targets, from an optimised build. The report (ours beside the disk
# floor and the peers that scripts/install-bench-deps installs) comes last.
bench:
	$(MAKE) build PRESET=release
	cmake --build build/release --target bench
	cmake --build build/release --target bench_report

# The headline figures in under a minute of run time, each beside its target: the designer's open
# and keystrokes, the noop against the floor, the empty manifest. Builds only what it runs.
bench-quick:
	$(MAKE) configure PRESET=release
	cmake --build build/release --target bench_designer_window bench_noop_report
	@tests/bench/bench-quick build/release/tests/bench

# The benchmarks are not part of `all`; this builds them in the release tree without running them,
# so CI knows they still compile.
bench-build:
	$(MAKE) configure PRESET=release
	cmake --build build/release --target benchmarks

clean:
	rm -rf build
