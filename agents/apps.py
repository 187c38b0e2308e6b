from importlib import import_module

from django.apps import AppConfig
from django.conf import settings


class AgentsConfig(AppConfig):
    name = "agents"
    verbose_name = "Agent runs"

    def ready(self) -> None:
        for module in settings.AGENT_PLUGINS:
            import_module(module)
