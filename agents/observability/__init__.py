"""What operators watch: Prometheus metrics, the staff operations page."""
