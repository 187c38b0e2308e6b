"""`manage.py render_check [--json]`: which headless GL backend renders here, and why.

Draws one small frame with the backend `studio.rendering` chooses (PYOPENGL_PLATFORM, else OSMesa
where installed, else EGL). Exits 0 when it rendered, 1 when it did not, saying why.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from studio.rendering.probe import probe_backend


class Command(BaseCommand):
    help = "Render one small frame with the chosen headless GL backend and say which it is."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        report = probe_backend()
        self.stdout.write(json.dumps(report.to_dict()) if options["json"] else report.line())
        if not report.renders:
            sys.exit(1)
