"""Which catalogue kind a plainly named thing is, by where it goes: "a lamp on a table" is the
catalogue's desk lamp, "a lamp" by the sofa its floor lamp (a noun's `raised` variant, used when
it is put on furniture unless it was named by one of its `exact` words: "a floor lamp on the
table" stays a floor lamp). Furniture is anything whose top stands at least RAISED high.
"""

from __future__ import annotations

from studio.planner.catalogue import CATALOGUE
from studio.planner.specs import ParsedRequest

RAISED = 0.3
"""Metres: a support at least this tall is furniture (a table, a shelf), not a rug or a step."""
ON = ("on", "stacked_on", "above")

__all__ = ["RAISED", "raised_key", "raised_variants"]


def raised_key(key: str, said: str, relation: str, target: str, height: float | None = None) -> str:
    """The catalogue key for `key` (named by the words `said`) put in `relation` with a `target`
    catalogue key (`height` in metres when stated, else the catalogue's)."""
    noun = CATALOGUE.get(key)
    said = " ".join(said.split())
    named = any(said == word or said.endswith(" " + word) for word in noun.exact) if noun else False
    if noun is None or not noun.raised or relation not in ON or named:
        return key
    support = CATALOGUE.get(target)
    if height is None:
        height = support.size[1] if support is not None else 0.0
    return noun.raised if height >= RAISED else key


def raised_variants(parsed: ParsedRequest) -> None:
    """Each plainly named object put on furniture becomes its `raised` variant (noted)."""
    for relation in parsed.relations:
        if not 0 <= relation.target < len(parsed.objects):
            continue
        spec, target = parsed.objects[relation.subject], parsed.objects[relation.target]
        if spec.upload or target.upload:
            continue
        height = target.sizes.get("height")
        key = raised_key(spec.noun, spec.said, relation.kind, target.noun, height)
        if key != spec.noun:
            exact = CATALOGUE[spec.noun].exact
            keep = f" (a {exact[0]} stays one)" if exact else ""
            what, where = spec.noun.replace("-", " "), target.noun.replace("-", " ")
            parsed.notes.append(f"{what} on the {where}: made a {key.replace('-', ' ')}{keep}")
            spec.noun = key
