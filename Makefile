# The two commands of the README, and a few more. Every target installs what is missing first.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: all deps build run test bench fuzz clean

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

fuzz: deps
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-300} bash scripts/fuzz.sh

clean:
	rm -rf .build build bench-out
