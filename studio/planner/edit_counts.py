"""How many of a kind a follow-up request wants: 'make it five', 'actually only 3 chairs', 'two
more like that'; copies added after the last one, or the last ones removed."""

from __future__ import annotations

import re

from studio.planner.edit_hosts import copy_place
from studio.planner.edit_plan import Call, EditPlan
from studio.planner.edit_tables import COUNTS, UNITS_M
from studio.planner.references import SceneObjectView, Scope, noun_key
from studio.scene.model import free_name


def next_name(scope: Scope, base: str) -> str:
    """The name the tools will give a new `base` object in this scene (`free_name`)."""
    return free_name(scope.names(), base)


def number_of(word: str) -> int | None:
    """The count a word says: a number word ('five') or digits ('5'), else None."""
    if word in COUNTS:
        return COUNTS[word]
    return int(word) if word.isdigit() else None


def recount(text: str, words: list[str], scope: Scope, plan: EditPlan) -> None:
    """'make it five' / 'actually four' / 'make that 2 of them' about a group of copies: add or
    remove copies. A percentage ('20% taller') is no count."""
    for index, word in enumerate(words):
        wanted = number_of(word)
        if wanted is None or word in ("a", "an", "one", "single", "pair", "couple"):
            continue
        if re.search(rf"(?<![\d.]){re.escape(word)}\s*(?:%|per\s*cent|percent)", text):
            continue
        following = words[index + 1] if index + 1 < len(words) else ""
        before = words[index - 1] if index else ""
        again = following == "more" or (before == "another" and following in ("", "like", "of"))
        if again and not _names_thing(words[index + 2 : index + 3], scope):
            _copy_focus(wanted, scope, plan)  # "add two more": copies of what it is about
            return
        them = following == "of" and words[index + 2 : index + 3] in (["them"], ["those"])
        named = following in UNITS_M or noun_key(following) or following in ("more", "times", "of")
        if named and not them:  # "make that 2 of them" is a count; "2 of the chairs" names some
            continue
        if wanted < 1 or wanted > 20:
            continue
        _resize_group(
            [scope.get(n) for n in scope.focus if n in scope.names()], wanted, scope, plan
        )
        return


ONLY = ("only", "just")
MAKE_THAT = (
    ["make", "that"],
    ["make", "it"],
    ["make", "them"],
    ["make", "those"],
    ["change", "that"],
)
"""'make that three bottles': the count a kind already in the scene should have."""


def set_count(words: list[str], scope: Scope, plan: EditPlan) -> bool:
    """'actually only 3 chairs' / 'just two lamps' / 'make that three bottles' about a kind
    already in the scene: that many of them, copies added or the last ones removed (not three
    more)."""
    for index, word in enumerate(words[1:-1], start=1):
        wanted = number_of(word)
        group = scope.of_kind(words[index + 1])
        said = words[index - 1] in ONLY or words[max(index - 2, 0) : index] in MAKE_THAT
        if said and wanted is not None and 0 < wanted <= 20 and group:
            _resize_group(list(group), wanted, scope, plan)
            return True
    return False


def _resize_group(group: list[SceneObjectView], wanted: int, scope: Scope, plan: EditPlan) -> None:
    """Copies of the group's first added after its last, or its last ones removed, until there
    are `wanted`."""
    if not group:
        return
    have = len(group)
    last = group[-1]
    for _ in range(wanted - have):
        new_name = next_name(scope, last.get("category") or last["name"])
        arguments = {"name": group[0]["name"], "new_name": new_name}
        arguments |= copy_place(last, scope)  # on the counter the cakes stand on, or beside
        plan.calls.append(Call("duplicate_object", arguments, f"added {new_name}"))
        last = {**last, "name": new_name}
        scope.objects.append(last)
    for extra in group[wanted:]:
        plan.calls.append(
            Call("delete_object", {"name": extra["name"]}, f"removed {extra['name']}")
        )


def _names_thing(words: list[str], scope: Scope) -> bool:
    return any(noun_key(w) or w in scope.names() or w in ("of", "one", "ones") for w in words)


def copied_group(scope: Scope) -> list[SceneObjectView]:
    """What 'another one' / 'two more like that' copies: of the things the conversation is
    about, the kind with the most of them ('a shelf with 2 bottles': the bottles), on a tie the
    one standing on another ('a table with a cup on it': the cup), else the last."""
    meant = scope.focus if set(scope.focus) & set(scope.just_edited) else scope.last_named
    focus = [scope.get(n) for n in meant or scope.focus if n in scope.names()]
    kinds: dict[str, list[SceneObjectView]] = {}
    for item in focus:
        kinds.setdefault(str(item.get("category") or item["name"]), []).append(item)
    if not kinds:
        return []

    def weight(group: list[SceneObjectView]) -> tuple[int, float]:
        return len(group), max(float(item.get("position", [0, 0, 0])[1]) for item in group)

    return max(reversed(list(kinds.values())), key=weight)


def _copy_focus(count: int, scope: Scope, plan: EditPlan) -> None:
    """`count` more of what the conversation is about, each beside the last."""
    group = copied_group(scope)
    if not group or count < 1 or count > 20:
        return
    last = group[-1]
    for _ in range(count):
        new_name = next_name(scope, last.get("category") or last["name"])
        arguments = {"name": group[-1]["name"], "new_name": new_name}
        arguments |= copy_place(last, scope)
        plan.calls.append(Call("duplicate_object", arguments, f"added {new_name}"))
        last = {**last, "name": new_name}
        scope.objects.append(last)
