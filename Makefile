# The two commands of the README (and bench, install).  Each one installs what is missing
# (scripts/install-deps.sh is idempotent), configures and builds keel with
# CMake in build/, then does its job.
BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=
MAKEFLAGS += --no-print-directory
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps build check demo bench install clean

all: build

deps:
	@sh scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The tests run make themselves: they must not inherit this make's
# jobserver (`make -j2 check` would make every such make warn).
check: build
	@cd $(BUILD) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ctest --output-on-failure -j $(JOBS)

demo: build
	@sh testsuite/demo.sh $(BUILD)

bench: build
	@sh bench/compile-overhead.sh $(BUILD)
	@echo
	@sh bench/decision-latency.sh $(BUILD)
	@sh bench/mca-overhead.sh $(BUILD)

# keel, keelcc, libkeelrt (+ keelrt.h, keelrt.pc), keelcc's walker module,
# man pages and bash completion under $(DESTDIR)$(PREFIX).
install: build
	@DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD)
