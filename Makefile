# Shortcuts for the two README commands (they work without make, too).
.PHONY: run test lint bench

run:
	python3 deploy/dev.py run

test:
	python3 deploy/dev.py test

lint:
	.venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy .

bench:
	.venv/bin/python bench/step_overhead.py
	.venv/bin/python bench/event_latency.py
