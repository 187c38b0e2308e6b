"""`manage.py check_model`: is the model server usable by the agents, and how fast is it?"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.model_settings import model_config
from agents.runtime.model.config import ModelConfig
from agents.runtime.model.health import check_tool_call, probe


class Command(BaseCommand):
    help = "List the server's models, run one streamed tool call, report TTFT and tokens/s."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--base-url", help="Overrides MODEL_BASE_URL, e.g. http://gpu:8000/v1")
        parser.add_argument("--model", help="Overrides MODEL_NAME.")
        parser.add_argument("--api-key", help="Overrides MODEL_API_KEY.")
        parser.add_argument("--timeout", type=float, default=10.0, help="Seconds per request.")

    def handle(self, *args: Any, **options: Any) -> None:
        config = self._config(options)
        self.stdout.write(f"server: {config.base_url}\nmodel:  {config.model}")
        health = probe(config, timeout=options["timeout"])
        if health.models:
            self.stdout.write(f"served: {', '.join(health.models)}")
        if not health.ok:
            raise CommandError(health.detail)
        check = check_tool_call(config)
        if check.ttft_ms:
            self.stdout.write(
                f"time to first token: {check.ttft_ms:.0f} ms, {check.tokens_per_s:.1f} tokens/s"
            )
        if not check.ok:
            raise CommandError(check.detail)
        self.stdout.write(self.style.SUCCESS(f"tool call ok: {check.detail}"))

    def _config(self, options: dict[str, Any]) -> ModelConfig:
        base = model_config() or ModelConfig(base_url="", model="")
        config = replace(
            base,
            base_url=options["base_url"] or base.base_url,
            model=options["model"] or base.model,
            api_key=options["api_key"] or base.api_key,
            read_timeout=options["timeout"],
        )
        if not config.base_url or not config.model:
            raise CommandError(
                "No model server configured: set MODEL_BASE_URL and MODEL_NAME, "
                "or pass --base-url and --model."
            )
        return config
