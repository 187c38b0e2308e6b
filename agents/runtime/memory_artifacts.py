"""An in-memory artifact store, for tests and runs that keep nothing."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class MemoryArtifacts:
    items: dict[str, str] = field(default_factory=dict)

    def put(self, *, name: str, content: str, media_type: str = "text/plain") -> str:
        ref = f"mem-{len(self.items) + 1}-{name}"
        self.items[ref] = content
        return ref

    def read(self, ref: str) -> str:
        return self.items[ref]
