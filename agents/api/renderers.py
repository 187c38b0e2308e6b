"""JSON Lines: one JSON document per line (`?format=jsonl` or `Accept: application/x-ndjson`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer, JSONRenderer

from agents.trajectories.build import trajectory_line


class JSONLinesRenderer(BaseRenderer):
    media_type = "application/x-ndjson"
    format = "jsonl"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        items = data if isinstance(data, list) else [data]
        return "".join(trajectory_line(item) + "\n" for item in items).encode()


TRAJECTORY_RENDERERS = [JSONRenderer, JSONLinesRenderer]
