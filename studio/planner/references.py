"""Which objects of the current scene a phrase means: "the table", "it", "them", "the top cube",
"the middle box", "the left one", "all the boxes", "the other chair", "crate-2", "the chair I just
moved".

It works on the scene summary a run starts with (see studio.tools.conversation): a list of
objects with name, category, size [x, y, z] and position [x, bottom y, z].
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from studio.planner.catalogue import WORDS
from studio.planner.vocabulary import COLOURS

SceneObjectView = dict[str, Any]
COPY_SUFFIX = re.compile(r"-\d+$")
PRONOUNS_ONE = {"it", "this", "that"}
PRONOUNS_MANY = {"them", "they", "these", "those", "both"}
POSITIONS = {
    "top",
    "bottom",
    "middle",
    "centre",
    "center",
    "left",
    "right",
    "front",
    "back",
    "first",
    "second",
    "third",
    "last",
    "other",
    "leftmost",
    "rightmost",
    "upper",
    "lower",
    "highest",
    "lowest",
}
BIGGER = {"big", "bigger", "biggest", "large", "larger", "largest", "tall", "taller", "tallest"}
SMALLER = {"small", "smaller", "smallest", "little", "tiny", "short", "shorter", "shortest"}
POSITIONS |= BIGGER | SMALLER
"""Size words pick one of several by size: "the big one", "the smaller box", "the tall vase"."""
LOOSE_KINDS = {
    "crate": {"cube", "box"},
    "cube": {"crate", "box"},
    "ball": {"sphere"},
    "sphere": {"ball"},
    "desk": {"table"},
    "table": {"desk", "coffee-table", "workbench"},
    "workbench": {"table", "bench"},
}
"""What people call a thing when the exact word names nothing in the scene ("the middle box")."""
ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4}
JUST_EDITED = re.compile(
    r"\bi (?:just |have just |'ve just )?"
    r"(?:moved|edited|changed|resized|turned|rotated|dragged|recoloured|recolored)\b"
)


_EXTRA: ContextVar[Mapping[str, str] | None] = ContextVar("studio_extra_nouns", default=None)


@contextmanager
def extra_nouns(words: Mapping[str, str]) -> Iterator[None]:
    """Read the workspace's uploaded meshes' names ("duck", "ducks") as nouns while planning."""
    token = _EXTRA.set({w: k for w, k in words.items() if " " not in w and "." not in w})
    try:
        yield
    finally:
        _EXTRA.reset(token)


def is_upload(word: str) -> bool:
    """Whether the word names one of the workspace's uploaded meshes (see `extra_nouns`)."""
    return word in (_EXTRA.get() or {})


def noun_key(word: str) -> str | None:
    """The catalogue noun a written word names exactly ("boxes" -> crate), else an uploaded
    mesh's noun, or None; no guessing at misspellings here, since a follow-up is full of short
    words ("it", "them")."""
    return WORDS.get(word) or (_EXTRA.get() or {}).get(word)


def phrase_key(words: Sequence[str]) -> tuple[str, str] | None:
    """The longest catalogue name ending the words ("coffee table"), with its key."""
    for start in range(len(words)):
        phrase = " ".join(words[start:])
        if phrase in WORDS:
            return WORDS[phrase], phrase
    return None


def is_plural(word: str) -> bool:
    key = WORDS.get(word, "")
    return word.endswith("s") and not key.endswith(word) and word != "glass"


@dataclass
class Scope:
    """The scene as a planner sees it, with what the conversation is about ("it")."""

    objects: list[SceneObjectView]
    focus: list[str] = field(default_factory=list)
    """Names "it" and "them" stand for: the latest user edit's, the last request's, or the only."""
    just_edited: list[str] = field(default_factory=list)
    last_named: list[str] = field(default_factory=list)
    """Every object of every kind the last request named ('a shelf with 2 bottles': all)."""

    def names(self) -> set[str]:
        return {item["name"] for item in self.objects}

    def get(self, name: str) -> SceneObjectView:
        return next(item for item in self.objects if item["name"] == name)

    def of_kind(self, word: str) -> list[SceneObjectView]:
        """Objects a noun (or its plural, alias, a word of a name, or the end of a compound
        kind: a workbench is a bench) stands for, in name order."""
        key = noun_key(word)
        found = []
        for item in self.objects:
            name = item["name"].lower()
            words = set(re.split(r"[-_ ]+", COPY_SUFFIX.sub("", name)))
            category = str(item.get("category") or "")
            if (
                word == name
                or (key and (category == key or key in words or category.endswith(key)))
                or word in words
                or word.rstrip("s") in words
            ):
                found.append(item)
        exact = [i for i in found if i.get("category") == key or _base(i["name"]) == word]
        if exact and len(exact) < len(found):  # "the desk", not the desk-lamp on it
            found = exact
        if not found and key in LOOSE_KINDS:
            found = [item for item in self.objects if item.get("category") in LOOSE_KINDS[key]]
        return found


def _base(name: str) -> str:
    return COPY_SUFFIX.sub("", name.lower())


def scope_for(
    objects: Sequence[SceneObjectView],
    *,
    previous_requests: Sequence[str] = (),
    user_edits: Sequence[dict[str, Any]] = (),
    request: str = "",
) -> Scope:
    """Decide what "it" means: a just-edited object, else what the last request named, else the
    only (or newest) object."""
    scope = Scope(list(objects))
    if user_edits:
        scope.just_edited = [n for n in user_edits[0].get("changed", []) if n in scope.names()]
    if previous_requests:
        scope.last_named = _all_named_in(scope, previous_requests[-1])
    if JUST_EDITED.search(request) and scope.just_edited:
        scope.focus = list(scope.just_edited)
        return scope
    plural = False  # a later request said "them": the copies of that request, not its host
    for back, previous in enumerate(reversed(previous_requests)):
        named = _named_in(scope, previous, newest=back == 0)
        if named:
            scope.focus = _copies_named(scope, previous) or named if plural else named
            return scope
        plural = plural or bool(PLURAL_REFERENCE.search(previous))
    if scope.objects:
        scope.focus = (
            [scope.objects[-1]["name"]] if len(scope.objects) > 1 else [scope.objects[0]["name"]]
        )
    return scope


CARRIED = {"it", "them", "they"}
"""A request whose first reference is one of these is about what the request before it was."""
NEWLY = {"a": 1, "an": 1, "another": 1, "more": 1, "extra": 1, "second": 1, "third": 1}
NEWLY |= {"fourth": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _named_in(scope: Scope, text: str, *, newest: bool = False) -> list[str]:
    """The first object kind a request names that the scene still has: all of its copies, or the
    newest `n` when the last request introduced `n` of them ("add a third chair": that one);
    none when its first reference is "it" / "them" (it spoke of the earlier request's objects)."""
    words = re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text.lower())
    for index, word in enumerate(words):
        if word in CARRIED:
            return []
        found = scope.of_kind(word) if noun_key(word) else []
        if word in scope.names() and len(found) <= 1:
            return [word]
        if found:
            count = (newest and _introduced(words[max(0, index - 3) : index])) or len(found)
            return [item["name"] for item in found[-count:]]
    return []


PLURAL_REFERENCE = re.compile(r"\b(?:them|they|those|these)\b")


def _copies_named(scope: Scope, text: str) -> list[str]:
    """Of the kinds a request names, the one with the most copies ('a counter with 3 cakes on
    it': the cakes), when one has more than one; 'make them pink' after it means those."""
    groups: dict[str, list[str]] = {}
    for name in _all_named_in(scope, text):
        item = scope.get(name)
        groups.setdefault(str(item.get("category") or name), []).append(name)
    largest = max(groups.values(), key=len, default=[])
    return largest if len(largest) > 1 else []


def _all_named_in(scope: Scope, text: str) -> list[str]:
    """The objects of every kind a request names, in the order it names them."""
    named: list[str] = []
    for word in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text.lower()):
        found = scope.of_kind(word) if noun_key(word) else []
        named += [item["name"] for item in found if item["name"] not in named]
    return named


def _introduced(before: list[str]) -> int | None:
    """How many objects words before a noun introduce ("a", "two more"), None for "the"."""
    for word in reversed(before):
        if word in ("the", "this", "that", "my", "all", "both"):
            return None
        if word in NEWLY:
            return NEWLY[word]
    return None


def resolve(
    scope: Scope, head: str, modifiers: Sequence[str] = (), plural: bool = False
) -> list[str]:
    """The names a phrase means: `head` is a noun, a scene name, a pronoun or "one"/"ones";
    `modifiers` are words before it (top, left, other, all, first...)."""
    if head in scope.names() and not (len(scope.of_kind(head)) > 1 and noun_key(head)):
        return [head]  # a scene name ("crate-2"), unless it is also the word for several
    if head in PRONOUNS_ONE or head in PRONOUNS_MANY:
        found = [scope.get(n) for n in scope.focus if n in scope.names()]
        if head in PRONOUNS_ONE and len(found) > 1 and not set(modifiers) & POSITIONS:
            return [n["name"] for n in found] if _one_group(found) else [found[-1]["name"]]
        if head in PRONOUNS_MANY and len(found) <= 1:
            found = _group_of(scope, found)
    elif head in ("one", "ones"):
        found = [scope.get(n) for n in scope.focus if n in scope.names()]
        found = _group_of(scope, found) if found else list(scope.objects)
        if set(modifiers) & ORDINAL_PICKS and not _one_group(found):
            found = _largest_group(scope) or found  # "on the last one": one of a row
    else:
        found = scope.of_kind(head)
    if not found:
        return []
    found = _coloured(found, modifiers) or found
    chosen = _select(scope, found, modifiers)
    if chosen is not None:
        return chosen
    if plural or "all" in modifiers or "both" in modifiers or "every" in modifiers:
        return [item["name"] for item in found]
    if len(found) > 1 and head not in PRONOUNS_MANY and head != "ones":
        in_focus = [item["name"] for item in found if item["name"] in scope.focus]
        return in_focus[-1:] or [found[-1]["name"]]
    return [item["name"] for item in found]


COLOUR_MATCH = 90.0
"""How far (sRGB, 0-255 a channel) an object's colour may be from a colour word to answer to it."""


def _coloured(found: list[SceneObjectView], modifiers: Sequence[str]) -> list[SceneObjectView]:
    """'the red one', 'the blue chairs': those of the objects whose colour is the one named
    (none when no colour is named or none is near it)."""
    named = [word for word in modifiers if word in COLOURS]
    if not named or len(found) < 2:
        return []
    wanted = COLOURS[named[-1]]

    def distance(item: SceneObjectView) -> float:
        code = str(item.get("color", ""))
        if not re.fullmatch(r"#[0-9a-f]{6}", code):
            return float("inf")
        rgb = [int(code[i : i + 2], 16) for i in (1, 3, 5)]
        return math.dist(rgb, wanted)

    return [item for item in found if distance(item) <= COLOUR_MATCH]


def _one_group(found: list[SceneObjectView]) -> bool:
    """'it' for three crates made together ("make it five") means the group."""
    return len({item.get("category") for item in found}) == 1


ORDINAL_PICKS = {"first", "second", "third", "fourth", "last", "middle"}


def _largest_group(scope: Scope) -> list[SceneObjectView]:
    """The copies of the kind the scene has most of (none when no kind has two)."""
    kinds: dict[str, list[SceneObjectView]] = {}
    for item in scope.objects:
        kinds.setdefault(str(item.get("category") or item["name"]), []).append(item)
    group = max(kinds.values(), key=len, default=[])
    return group if len(group) > 1 else []


def _group_of(scope: Scope, found: list[SceneObjectView]) -> list[SceneObjectView]:
    """'them' after one object: every object of its kind, or the whole scene."""
    if found and found[0].get("category"):
        same = [i for i in scope.objects if i.get("category") == found[0].get("category")]
        if len(same) > 1:
            return same
    return list(scope.objects)


def _select(
    scope: Scope, found: list[SceneObjectView], modifiers: Sequence[str]
) -> list[str] | None:
    words = set(modifiers)

    def by(axis: int, top: bool, *, bottom_of: bool = False) -> list[str]:
        def key(item: SceneObjectView) -> float:
            value = item["position"][axis]
            if axis == 1 and not bottom_of:
                value += item["size"][1] / 2
            return float(value)

        ordered = sorted(found, key=key)
        return [(ordered[-1] if top else ordered[0])["name"]]

    if words & {"top", "upper", "highest"}:
        return by(1, True)
    if words & {"bottom", "lower", "lowest"}:
        return by(1, False)
    if words & {"left", "leftmost"}:
        return by(0, False)
    if words & {"right", "rightmost"}:
        return by(0, True)
    if "front" in words:
        return by(2, True)
    if "back" in words:
        return by(2, False)
    if words & {"middle", "centre", "center"}:
        stacked = max(i["position"][1] for i in found) > min(i["position"][1] for i in found) + 0.01
        axis = 1 if stacked else 0
        ordered = sorted(found, key=lambda i: float(i["position"][axis]))
        return [ordered[len(ordered) // 2]["name"]]
    if words & (BIGGER | SMALLER) and len(found) > 1:
        tall = words & {"tall", "taller", "tallest", "short", "shorter", "shortest"}

        def size(item: SceneObjectView) -> float:
            width, height, depth = (float(v) for v in item["size"])
            return height if tall else width * height * depth

        ordered = sorted(found, key=size)
        return [(ordered[-1] if words & BIGGER else ordered[0])["name"]]
    if "other" in words:
        others = [item["name"] for item in found if item["name"] not in scope.focus]
        return others or [found[0]["name"]]
    if "last" in words:
        return [found[-1]["name"]]
    for word, index in ORDINALS.items():
        if word in words and index < len(found):
            return [found[index]["name"]]
    return None
