# Easel: the two commands a user needs are `make demo` and `make test`.
SHELL := /bin/bash
CARGO ?= cargo

.PHONY: demo test fmt lint unit doc-tests bench deps build fuzz bench-code mcp-client browser model-fetch obsidian-plugin jscg

## demo: build easel and walk through the main job on a copy of examples/vault
demo: deps build
	scripts/demo.sh

## test: everything CI runs
test: deps fmt lint unit doc-tests jscg mcp-client browser obsidian-plugin model-fetch

deps:
	scripts/install-deps.sh
	scripts/fetch-model.sh

build:
	$(CARGO) build --release -p easel-cli

fmt:
	$(CARGO) fmt --all -- --check

# --profile test: clippy then shares the test build's build scripts (llama.cpp is compiled once).
lint:
	$(CARGO) clippy --workspace --all-targets --locked --profile test -- -D warnings

unit:
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
		$(CARGO) nextest run --workspace --locked --no-fail-fast; \
	else \
		$(CARGO) test --workspace --locked --no-fail-fast; \
	fi

doc-tests:
	$(CARGO) test --workspace --locked --doc

## bench: criterion benchmarks (results go to BENCHMARKS.md by hand, with the machine noted)
bench:
	$(CARGO) bench --workspace

## fuzz: run each fuzz target for FUZZ_SECONDS (needs `cargo install cargo-fuzz`)
FUZZ_SECONDS ?= 60
fuzz:
	mkdir -p fuzz/corpus/canvas_parse fuzz/corpus/note_parse fuzz/corpus/code_graph fuzz/corpus/frontmatter fuzz/corpus/diagram_import fuzz/corpus/mcp_request
	cp fuzz/seeds/*.canvas fuzz/corpus/canvas_parse/ && cp fuzz/seeds/*.md fuzz/corpus/note_parse/
	cp fuzz/seeds/code/*.bin fuzz/corpus/code_graph/
	cp fuzz/seeds/frontmatter/*.bin fuzz/corpus/frontmatter/
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run canvas_parse -- -max_total_time=$(FUZZ_SECONDS)
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run note_parse -- -max_total_time=$(FUZZ_SECONDS)
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run code_graph -- -max_total_time=$(FUZZ_SECONDS)
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run frontmatter -- -max_total_time=$(FUZZ_SECONDS)
	cp fuzz/seeds/diagram/*.bin fuzz/corpus/diagram_import/
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run diagram_import -- -max_total_time=$(FUZZ_SECONDS)
	cp fuzz/seeds/mcp/* fuzz/corpus/mcp_request/
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run mcp_request -- -max_total_time=$(FUZZ_SECONDS)
	mkdir -p fuzz/corpus/agent_file && cp fuzz/seeds/agent_file/* fuzz/corpus/agent_file/
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run agent_file -- -max_total_time=$(FUZZ_SECONDS)
	mkdir -p fuzz/corpus/script_params && cp fuzz/seeds/script_params/* fuzz/corpus/script_params/
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run script_params -- -max_total_time=$(FUZZ_SECONDS)
	mkdir -p fuzz/corpus/doc_scan && cp fuzz/seeds/doc_scan/* fuzz/corpus/doc_scan/
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run doc_scan -- -max_total_time=$(FUZZ_SECONDS)
	mkdir -p fuzz/corpus/pdf_import && cp fuzz/seeds/pdf_import/* fuzz/corpus/pdf_import/
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run pdf_import -- -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048

## bench-code: easel code init on flask, requests, an npm package and a crate fetched now
bench-code:
	scripts/bench-code.sh

## model-fetch: `easel llm fetch` for real into a fresh cache, compared with the cached model
model-fetch:
	scripts/check-model-fetch.sh

## browser: drive `easel serve`'s web UI in headless Chromium (Debian's) with Playwright
browser:
	scripts/browser-tests.sh

## jscg: every JS/TS call-graph case's expected graph is what running it under Node records
jscg:
	scripts/jscg-oracle-check.sh

## obsidian-plugin: build the Obsidian plugin and test it against a real easel serve (Node's test runner)
obsidian-plugin:
	scripts/obsidian-plugin-tests.sh

## mcp-client: drive `easel mcp` with the official MCP Python SDK (venv in target/mcp-venv)
mcp-client:
	scripts/mcp-client-tests.sh
