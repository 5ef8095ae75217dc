# The two commands of the README, and a few more. Every target installs what is missing first.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: all deps build run test bench soak fuzz deb clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	swift build

run: deps
	@bash scripts/run.sh

test: deps
	@bash scripts/test.sh

bench: deps
	@bash scripts/bench.sh

# A week in the tray, compressed: the window through faults for SOAK_MINUTES (default 15; bench/README.md, "Soak").
soak: deps
	swift build -c release
	@bash bench/soak/run.sh

fuzz: deps
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-300} bash scripts/fuzz.sh

# The Debian package, in build/deb/ (see debian/ and README, "The Debian package").
deb: deps
	@bash scripts/make-deb.sh

clean:
	rm -rf .build build bench-out
