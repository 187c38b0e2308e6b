"""Objects a follow-up request adds, copies, removes, swaps or stacks, and the existing objects it
changes (its targets); how many of a kind it wants is edit_counts'."""

from __future__ import annotations

import itertools
from typing import Any

from studio.planner.catalogue import CATALOGUE
from studio.planner.edit_between import between_flanks, fits_between, kind_phrase
from studio.planner.edit_counts import copied_group, next_name, number_of
from studio.planner.edit_mentions import Mention, related_pairs, size_words
from studio.planner.edit_places import implied_place
from studio.planner.edit_plan import Call, EditPlan
from studio.planner.edit_styles import loose_style, material_change, style_words
from studio.planner.edit_tables import COUNTS
from studio.planner.edit_verbs import ALL_BUT, REMOVE, words_of
from studio.planner.references import (
    PRONOUNS_MANY,
    PRONOUNS_ONE,
    SceneObjectView,
    Scope,
    is_upload,
    noun_key,
    resolve,
)
from studio.planner.variants import raised_key


def edit_targets(
    words: list[str], mentions: list[Mention], scope: Scope, plan: EditPlan
) -> list[str]:
    """Existing objects the request changes; new objects are added here, as they are read."""
    relation_targets = {id(target) for _, _, target in related_pairs(words, mentions)}
    pairs = {
        id(subject): (relation, target)
        for subject, relation, target in related_pairs(words, mentions)
    }
    for first, second in reversed(list(itertools.pairwise(mentions))):
        joined = set(words[first.end : second.start - len(second.modifiers)]) <= LIST_WORDS
        if first.new and second.new and id(first) not in pairs and joined and id(second) in pairs:
            pairs[id(first)] = pairs[id(second)]  # "a teapot and two cups on the table": both
    targets: list[str] = []
    for mention in mentions:
        if mention.new:
            _add(words, mention, pairs.get(id(mention)), scope, plan)
        elif id(mention) not in relation_targets and not mention.restated:
            targets += [name for name in mention.names if name not in targets]
    if not targets and not any(m.new or m.restated for m in mentions):
        targets = list(scope.focus)
    return targets


LIST_WORDS = {"and", ",", "a", "an", "some", "plus", *COUNTS}


def _add(
    words: list[str],
    mention: Mention,
    relation: tuple[str, Mention] | None,
    scope: Scope,
    plan: EditPlan,
) -> None:
    count = _count_of(mention, words)
    where: dict[str, Any] = {}
    if relation is not None:
        where = {"relation": relation[0], "target": relation[1].names[-1]}
        if relation[0] == "between":  # no two-target tool: beside them, on what they stand on
            where = {"relation": "next_to", "target": relation[1].names[0]}
            flanks = between_flanks(relation[1].names, scope)
            if flanks:  # right of the left one; the right one then stands right of it
                where = {"relation": "right_of", "target": flanks[0]}
    loose = loose_style(words, mention)
    kind = noun_key(mention.head) if mention.head not in ("one", "ones") else None
    like = scope.of_kind(mention.head) if kind else copied_group(scope)
    if not where:  # "one more chair on the other side", "a third box on top"
        where = implied_place(" ".join(words), like, scope)
    copying = mention.determiner in ("another", "more", "extra") or mention.head in ("one", "ones")
    if like and copying and not style_words(mention.modifiers):
        source = like[-1]["name"]
        chain = source
        for _ in range(count):
            arguments: dict[str, Any] = {"name": source}
            material = material_change(loose)
            if material:
                arguments["material"] = material
            placed = where or {"relation": "right_of", "target": chain}
            new_name = next_name(scope, like[-1].get("category") or source)
            arguments |= placed | {"new_name": new_name}
            plan.calls.append(
                Call("duplicate_object", arguments, f"added {new_name} (a copy of {source})")
            )
            scope.objects.append({**like[-1], "name": new_name})
            chain = new_name
        return
    noun = kind or (like[-1].get("category") if like else "")
    if not noun:
        plan.notes.append(f"I did not know what to add for {mention.head!r}")
        return
    if where and kind:  # "add a lamp on the desk": the desk lamp
        target = scope.get(where["target"])
        said = " ".join([*mention.modifiers, mention.head])
        category = str(target.get("category") or "")
        noun = raised_key(noun, said, where["relation"], category, _height(target))
    if where.get("relation") == "around":  # no ring tool: one on each side in turn
        _around(noun, count, where["target"], scope, plan)
        return
    article = str(count) if count > 1 else "a"
    if is_upload(mention.head):  # "my bunny": the upload wins over a catalogue noun
        article = f"{count} of my" if count > 1 else "my"
    said = noun.replace("-", " ") if noun in CATALOGUE else noun  # "desk-lamp": "desk lamp"
    named, key = kind_phrase(mention.modifiers, mention.head, noun)  # "a bean bag": not a bag
    said, noun = (named, key) if key != noun else kind_phrase(mention.modifiers, said, noun)
    sizes = size_words(mention.modifiers)
    description = " ".join([article, *sizes, *loose, *style_words(mention.modifiers), said])
    arguments = {"description": description, **where}
    says = f"added {description}" + (
        f" {where['relation'].replace('_', ' ')} {where['target']}" if where else ""
    )
    plan.calls.append(Call("add_described", arguments, says))
    added = []
    for _ in range(count):
        added.append(next_name(scope, noun))
        scope.objects.append({"name": added[-1], "category": noun})
    if relation is not None and relation[0] == "between" and where["relation"] == "right_of":
        left, right = between_flanks(relation[1].names, scope)
        if fits_between(scope, left, right, noun):
            return
        arguments = {"name": right, "relation": "right_of", "target": added[-1]}
        plan.calls.append(Call("place_object", arguments, f"moved {right} right of {added[-1]}"))


def _height(item: SceneObjectView) -> float | None:
    """An object's height in the scene (its size's middle value), when the state says."""
    size = item.get("size")
    return float(size[1]) if isinstance(size, list | tuple) and len(size) == 3 else None


def _some_of(words: list[str], mention: Mention) -> int | None:
    """How many of the named objects a removal means: 'one of the mugs', '2 of those', 'two
    chairs', 'a chair'; None when it names them all ('the mugs')."""
    before = words[max(0, mention.start - 3) : mention.start]
    if len(before) == 3 and before[1] == "of" and before[2] in ("the", "those", "these", "my"):
        return number_of(before[0])
    if mention.determiner in ("a", "an"):
        return 1
    return number_of(mention.determiner) if mention.determiner else None


def _count_of(mention: Mention, words: list[str]) -> int:
    if mention.determiner in COUNTS:
        return max(1, COUNTS[mention.determiner])
    if mention.determiner.isdigit():
        return max(1, min(int(mention.determiner), 20))
    before = words[mention.start - 2] if mention.start >= 2 else ""
    if words[mention.start - 1 : mention.start] == ["more"] and number_of(before):
        return max(1, min(number_of(before) or 1, 20))  # "two more chairs", "add 2 more chairs"
    return 1


# --- removal, counts, stacks ----------------------------------------------------------------


def no_object(words: list[str], scope: Scope) -> bool:
    """'no coffee table', 'without the lamp': the object is not wanted."""
    for index, word in enumerate(words[:-1]):
        if word in ("no", "without"):
            following = [w for w in words[index + 1 : index + 4] if w not in ("the", "a", "an")]
            if any(scope.of_kind(w) for w in following if noun_key(w) or w in scope.names()):
                return True
    return False


def remove(text: str, mentions: list[Mention], scope: Scope, plan: EditPlan) -> None:
    names: list[str] = []
    missing: list[str] = []
    words = words_of(text)
    for mention in mentions:
        said = [*mention.modifiers, *mention.placed]
        resolved = mention.names or resolve(scope, mention.head, said, mention.plural)
        resolved = _standing_where_said(words, mention, resolved, scope)
        if not resolved and noun_key(mention.head):
            missing.append(mention.head)
        some = _some_of(words, mention)
        if some is not None and some < len(resolved):  # "remove one of the mugs": the last one
            resolved = resolved[len(resolved) - some :]
        names += [name for name in resolved if name not in names]
    if ALL_BUT.search(text):  # "remove everything but the table"
        names = [item["name"] for item in scope.objects if item["name"] not in names]
    elif not names and (missing or not _points_back(words, mentions)):
        # "remove the tv" with no tv: said, and nothing else removed in its place
        wanted = " or ".join(missing) or _what_follows(text)
        plan.notes.append(f"there is no {wanted} in the scene, so nothing was removed")
    elif not names:
        names = list(scope.focus)
    for name in names:
        plan.calls.append(Call("delete_object", {"name": name}, f"removed {name}"))


POINTING = PRONOUNS_ONE | PRONOUNS_MANY | {"one", "ones", "last", "everything", "all"}


def _points_back(words: list[str], mentions: list[Mention]) -> bool:
    """Whether the request points at something already meant ('remove it', 'drop the last one')
    rather than naming a thing the scene lacks ('get rid of the ironing board')."""
    return any(m.head in POINTING for m in mentions) or bool(POINTING & set(words))


def _what_follows(text: str) -> str:
    """What the request asks to remove, in its own words ('the ironing board')."""
    found = REMOVE.search(text)
    rest = text[found.end() :] if found else text
    return rest.strip(" ,.!?").removeprefix("the ").strip() or "such thing"


FLOOR = (["on", "the", "floor"], ["on", "the", "ground"])


def _standing_where_said(
    words: list[str], mention: Mention, names: list[str], scope: Scope
) -> list[str]:
    """'the bags on the floor': those of the named objects standing on the floor (all of them
    when none is, or when no floor is said)."""
    if words[mention.end : mention.end + 3] not in FLOOR:
        return names
    grounded = [n for n in names if float(scope.get(n).get("position", [0, 0, 0])[1]) < FLOORED]
    return grounded or names


FLOORED = 0.02
"""Metres above the floor an object's bottom may be and still stand on it."""


def swap(words: list[str], mentions: list[Mention], scope: Scope, plan: EditPlan) -> None:
    """'swap the ball for a cube': the new object where the old one was, the old one removed."""
    old = next(m for m in mentions if m.names)
    new = next(m for m in mentions if m.new)
    noun = noun_key(new.head) or new.head
    description = " ".join(["a", *style_words(new.modifiers), noun])
    for name in old.names:
        arguments = {"description": description, "relation": "next_to", "target": name}
        plan.calls.append(Call("add_described", arguments, f"added {description}"))
        plan.calls.append(Call("delete_object", {"name": name}, f"removed {name}"))


def each_side(words: list[str], mentions: list[Mention], scope: Scope, plan: EditPlan) -> None:
    subject = next((m for m in mentions if m.new), None)
    existing = [m for m in mentions if not m.new and m.names]
    side_of = _side_word(words)  # "on the desk, one each side of the monitor": the monitor
    target = next((m for m in existing if m.start > side_of), existing[0] if existing else None)
    if subject is None or target is None:
        plan.notes.append("I could not tell what goes on each side of what")
        return
    noun = noun_key(subject.head) or subject.head
    count = max(2, _count_of(subject, words))
    style = style_words(subject.modifiers)
    for index in range(count):
        side = ("left_of", "right_of")[index % 2]
        description = " ".join(["a", *style, noun])
        arguments = {"description": description, "relation": side, "target": target.names[0]}
        plan.calls.append(
            Call(
                "add_described",
                arguments,
                f"added {description} {side.replace('_', ' ')} {target.names[0]}",
            )
        )


AROUND = ("left_of", "right_of", "in_front_of", "behind")


def _around(noun: str, count: int, target: str, scope: Scope, plan: EditPlan) -> None:
    """'put 3 logs around the fire': one on each side of it in turn, left, right, front, behind;
    three stand left, right and in front with the side ones drawn back, a third of a turn apart."""
    said = noun.replace("-", " ")
    added = []
    for index in range(count):
        side = AROUND[index % len(AROUND)]
        arguments = {"description": f"a {said}", "relation": side, "target": target}
        says = f"added a {said} {side.replace('_', ' ')} {target}"
        plan.calls.append(Call("add_described", arguments, says))
        added.append(next_name(scope, noun))
        scope.objects.append({"name": added[-1], "category": noun})
    if count == 3:
        back = round(float(scope.get(target)["size"][2]) / 4, 4)
        for name in added[:2]:
            plan.calls.append(
                Call(
                    "move_object",
                    {"name": name, "by": [0.0, 0.0, -back]},
                    f"moved {name} back a little",
                )
            )


def _side_word(words: list[str]) -> int:
    """Where 'side'/'sides' is said (the thing each side of follows it); -1 when it is not."""
    return next((i for i, w in enumerate(words) if w in ("side", "sides")), -1)


def stack(names: list[str], plan: EditPlan) -> None:
    ordered = sorted(names)
    for below, above in itertools.pairwise(ordered):
        arguments = {"name": above, "relation": "on", "target": below}
        plan.calls.append(Call("place_object", arguments, f"stacked {above} on {below}"))
