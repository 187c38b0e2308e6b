"""What changed between two scenes, object by object and field by field."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from studio.scene.model import scene_from_dict


@dataclass
class SceneDiff:
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: dict[str, dict[str, tuple[Any, Any]]] = field(default_factory=dict)
    """object name (or "lights:<name>", "camera", "scene") -> field path -> (before, after)."""

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "removed": self.removed,
            "changed": {
                name: {path: {"before": a, "after": b} for path, (a, b) in fields.items()}
                for name, fields in self.changed.items()
            },
        }


def diff_scenes(before: dict[str, Any], after: dict[str, Any]) -> SceneDiff:
    """Compare two scenes (as stored); defaults are filled in first, so only real changes show."""
    before, after = _normalised(before), _normalised(after)
    result = SceneDiff()
    _diff_named(before.get("objects", []), after.get("objects", []), "", result)
    _diff_named(before.get("lights", []), after.get("lights", []), "lights:", result)
    camera = _flat(before.get("camera", {}), after.get("camera", {}))
    if camera:
        result.changed["camera"] = camera
    rest = {
        key: value for key, value in before.items() if key not in ("objects", "lights", "camera")
    }
    others = {
        key: value for key, value in after.items() if key not in ("objects", "lights", "camera")
    }
    scene = _flat(rest, others)
    if scene:
        result.changed["scene"] = scene
    return result


def _normalised(scene: dict[str, Any]) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(json.dumps(scene_from_dict(scene).to_dict()))
    return value


def _diff_named(
    before: list[dict[str, Any]], after: list[dict[str, Any]], prefix: str, result: SceneDiff
) -> None:
    old = {item["name"]: item for item in before}
    new = {item["name"]: item for item in after}
    result.added += [prefix + name for name in new if name not in old]
    result.removed += [prefix + name for name in old if name not in new]
    for name in old.keys() & new.keys():
        changes = _flat(old[name], new[name])
        if changes:
            result.changed[prefix + name] = changes


def _flat(before: Any, after: Any, path: str = "") -> dict[str, tuple[Any, Any]]:
    if isinstance(before, dict) and isinstance(after, dict):
        changes: dict[str, tuple[Any, Any]] = {}
        for key in sorted(before.keys() | after.keys()):
            sub = f"{path}.{key}" if path else key
            changes.update(_flat(before.get(key), after.get(key), sub))
        return changes
    if _normal(before) != _normal(after):
        return {path: (before, after)}
    return {}


def _normal(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_normal(item) for item in value]
    if isinstance(value, float):
        return round(value, 9)
    return value
