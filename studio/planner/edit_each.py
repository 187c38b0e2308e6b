"""'a chair at each desk', 'put a lamp on every table', 'a plant next to each sofa': one new thing
for every object of a kind already in the scene, each placed by its own one."""

from __future__ import annotations

import re

from studio.planner.edit_plan import Call, EditPlan
from studio.planner.references import Scope, noun_key
from studio.planner.variants import raised_key

EACH = re.compile(
    r"^(?:(?:and|now|then|also|ok|okay|pls|please)\s+)*"
    r"(?:(?:add|put|place|give|stick|set)\s+(?:me\s+)?)?(?:(?:a|an|one)\s+)?"
    r"(?P<thing>[a-z]+(?:\s+[a-z]+){0,2}?)\s+"
    r"(?P<relation>at|by|for|in\s+front\s+of|behind|next\s+to|beside|on\s+top\s+of|on|under)\s+"
    r"(?:each|every)\s+(?:one\s+of\s+the\s+|of\s+the\s+)?(?P<kind>[a-z]+)\b"
)
RELATIONS = {
    "at": "in_front_of", "for": "in_front_of", "in front of": "in_front_of", "by": "next_to",
    "next to": "next_to", "beside": "next_to", "behind": "behind", "on top of": "on", "on": "on",
    "under": "under",
}  # fmt: skip
"""How the thing stands by each one ('a chair at each desk': in front of it, where one sits)."""


def one_each(text: str, scope: Scope, plan: EditPlan) -> bool:
    """One thing per object of the named kind; False when the request says no such thing."""
    found = EACH.search(text)
    if found is None:
        return False
    said = found["thing"].split()
    targets = scope.of_kind(found["kind"])
    key = noun_key(said[-1])
    if not targets or key is None:
        return False
    relation = RELATIONS[" ".join(found["relation"].split())]
    for target in targets:
        size = target.get("size")
        height = float(size[1]) if isinstance(size, list | tuple) and len(size) == 3 else None
        category = str(target.get("category") or "")
        kind = raised_key(key, " ".join(said), relation, category, height)  # a desk lamp
        description = " ".join(["a", *said[:-1], kind.replace("-", " ")])
        arguments = {"description": description, "relation": relation, "target": target["name"]}
        says = f"added {description} {relation.replace('_', ' ')} {target['name']}"
        plan.calls.append(Call("add_described", arguments, says))
    return True
