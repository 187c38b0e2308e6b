"""Benchmark scripts (run them as plain scripts; see bench/README.md)."""
