"""The project's configuration package. The Celery app (`config.celery`) loads on first use, by
the worker (`celery -A config` imports `config.celery`) and by whatever sends a task, so a web
process or `manage.py` does not pay for importing Celery at start-up."""

from typing import Any

__all__ = ("celery_app",)


def __getattr__(name: str) -> Any:
    if name == "celery_app":
        from config.celery import app

        return app
    raise AttributeError(f"module 'config' has no attribute {name!r}")
