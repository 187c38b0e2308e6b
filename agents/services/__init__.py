"""Writes: each public function does one thing to the agent models (see selectors for reads)."""
