"""A follow-up request in a workspace that has a scene, turned into edits of that scene.

`plan_edits` reads the request against the scene summary the run starts with and returns the tool
calls that make the change (each one visible in the trajectory), a direct answer for a question,
or a request to build from scratch when (and only when) the person asked to start over. Objects
the request does not mention are never in a call, so they keep their name, size, material and
place.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from agents.registry import CONTEXT_NAME
from studio.planner.numbers import unit_metres
from studio.planner.references import (
    POSITIONS,
    PRONOUNS_MANY,
    PRONOUNS_ONE,
    Scope,
    extra_nouns,
    is_plural,
    is_upload,
    noun_key,
    resolve,
    scope_for,
)
from studio.planner.vocabulary import COLOURS, MOOD_WORDS, RELATIONS, SHADES
from studio.scene.materials import ALIASES, PRESETS

COUNTS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "dozen": 12,
    "pair": 2,
    "couple": 2,
}
UNIT_WORDS: tuple[str, ...] = ("mm", "cm", "m", "metre", "metres", "meter", "meters")
UNIT_WORDS += ("in", "inch", "inches", "ft", "foot", "feet")
# The lengths come from the one unit reader the request grammar uses (pint underneath).
UNITS_M = {word: metres for word in UNIT_WORDS if (metres := unit_metres(word)) is not None}
STATE_LABEL = f"{CONTEXT_NAME}-state"
"""The name of the message holding the scene summary (see studio.tools.conversation)."""
UPLOADS_LABEL = f"{CONTEXT_NAME}-uploads"
"""The name of the message listing the workspace's uploaded meshes."""

TOKEN = re.compile(r"#[0-9a-f]{6}\b|\d+(?:\.\d+)?|[a-z][a-z0-9]*(?:-[a-z0-9]+)*|[,;.?!:]")
START_OVER = re.compile(
    r"\b(?:start(?:ing)?\s+(?:(?:over|again|afresh|anew)\s+)?(?:from\s+scratch|with)|"
    r"start(?:ing)?\s+(?:over|again|afresh|anew)|from\s+scratch|"
    r"(?:a\s+)?(?:new|fresh)\s+scene(?:\s+with)?|clear\s+(?:the\s+scene|everything)|"
    r"scrap\s+(?:it|that|this|everything)|instead\s*,?\s*(?:build|make|create|give\s+me)|"
    r"replace\s+(?:it|everything)\s+with)\b"
)
UNDO = re.compile(
    r"\b(?:undo|go(?:ing)?\s+back|revert|roll\s*back|back\s+to|restore|previous\s+(?:version|revision))\b"
)
REVISION_NUMBER = re.compile(r"\b(?:revision|version|rev|r)\s*#?\s*(\d+)\b")
REMOVE = re.compile(
    r"\b(?:remove|delete|get\s+rid\s+of|take\s+away|take\s+out|lose|erase|drop)\b|\bno\s+more\b"
)
QUESTION_START = re.compile(r"^\s*(?:how|what|which|where|is|are|does|do|why|who)\b")
EDIT_VERBS = re.compile(
    r"\b(?:make|change|turn|add|put|move|set|paint|colou?r|resize|scale|remove|delete|rotate)\b"
)
EACH_SIDE = re.compile(r"\b(?:on\s+)?(?:each|either|both)\s+sides?\s+of\b")
STACK = re.compile(r"\b(?:stack|pile)\b|\bon\s+top\s+of\s+each\s+other\b")
FACE = re.compile(r"\b(?:to\s+)?face\b|\btowards?\b|\blooking\s+at\b")
LIGHT_WORDS = {"light", "lights", "lighting", "lit", "mood", "atmosphere", "ambience"}
SKY_MOODS = {"sunset", "evening", "dusk", "night", "daylight", "dramatic", "moody", "sunny"}
WARMER = {"warmer": "warm", "cooler": "cool", "colder": "cool"}
BRIGHTNESS = {
    "brighter": 1.5,
    "brighten": 1.5,
    "darker": 0.6,
    "darken": 0.6,
    "dimmer": 0.6,
    "dim": 0.6,
}
MODALS = {"can", "could", "would", "will"}  # "can you ...": not a tin can
SUBJECTS = {"you", "u", "i", "we"}
ALL_BUT = re.compile(r"\b(?:everything|all)\s+(?:but|except)\b")
SWAP = re.compile(r"\b(?:swap|replace|exchange)\b")
ADD_WORDS = {"add", "another", "more", "extra", "new", "second", "also", "too", "additional"}
INDEFINITE = {"a", "an", "another", "some", "new", "extra", "additional", *COUNTS}
DEFINITE = {"the", "this", "that", "these", "those", "my", "all", "both", "every", "each"}
MATERIAL_WORDS = {*PRESETS, *ALIASES}
ROLE_WORDS = {
    "tall": "height",
    "high": "height",
    "height": "height",
    "wide": "width",
    "width": "width",
    "long": "length",
    "length": "length",
    "deep": "depth",
    "depth": "depth",
    "across": "diameter",
    "diameter": "diameter",
    "thick": "depth",
}
COMPARATIVES = {
    "bigger": ("size", 1.25),
    "larger": ("size", 1.25),
    "smaller": ("size", 0.8),
    "taller": ("height", 1.25),
    "higher": ("height", 1.25),
    "shorter": ("height", 0.8),
    "wider": ("width", 1.25),
    "broader": ("width", 1.25),
    "narrower": ("width", 0.8),
    "thinner": ("width", 0.8),
    "longer": ("length", 1.25),
    "deeper": ("depth", 1.25),
    "shallower": ("depth", 0.8),
}
ADJECTIVES = {"big": "size", "large": "size", "tall": "height", "wide": "width", "long": "length"}
HEDGES = {"bit": 0.4, "little": 0.4, "slightly": 0.4, "tad": 0.4, "much": 2.0, "lot": 2.0}
DIRECTION_VECTORS = {
    "left": (-1.0, 0.0, 0.0),
    "right": (1.0, 0.0, 0.0),
    "forward": (0.0, 0.0, 1.0),
    "forwards": (0.0, 0.0, 1.0),
    "backward": (0.0, 0.0, -1.0),
    "backwards": (0.0, 0.0, -1.0),
    "back": (0.0, 0.0, -1.0),
    "up": (0.0, 1.0, 0.0),
}
DEFAULT_STEP = 0.5  # metres a move goes when the person gives no distance


@dataclass
class Call:
    tool: str
    arguments: dict[str, Any]
    says: str
    """What the change is, in the words of the final answer."""


@dataclass
class EditPlan:
    calls: list[Call] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    answer: str = ""
    """A reply that needs no change (a question about the scene)."""
    rebuild: str | None = None
    """Set when the person asked to start over: the request to build the new scene from."""


@dataclass
class Mention:
    start: int
    head: str
    determiner: str
    modifiers: list[str]
    new: bool
    plural: bool
    names: list[str] = field(default_factory=list)
    restated: bool = False
    """'a red ball' said again of the ball already there: neither added nor changed."""

    @property
    def end(self) -> int:
        return self.start + 1


def words_of(text: str) -> list[str]:
    return TOKEN.findall(text.lower().replace("\u2019", "'"))


def plan_edits(
    request: str,
    state: dict[str, Any],
    previous_requests: list[str],
    uploads: Mapping[str, str] | None = None,
) -> EditPlan:
    """The edits a follow-up request asks for on the scene described by `state`; `uploads` maps
    the workspace's uploaded meshes' word forms to their nouns ("bunnies" -> "bunny")."""
    with extra_nouns(uploads or {}):
        return _plan_edits(request, state, previous_requests)


def _plan_edits(request: str, state: dict[str, Any], previous_requests: list[str]) -> EditPlan:
    text = " ".join(request.lower().split())
    if over := START_OVER.search(text):
        rest = (text[: over.start()] + " " + text[over.end() :]).strip(" ,:;.-!")
        rest = re.sub(r"^(?:(?:and|with|now|then|ok|okay|please|let's|lets)\b[\s,:]*)+", "", rest)
        if rest.strip():
            return EditPlan(rebuild=rest.strip())
        names = [item["name"] for item in state.get("objects", [])]
        cleared = [Call("delete_object", {"name": name}, f"removed {name}") for name in names]
        return EditPlan(cleared, ["Say what the new scene should have and I will build it"])
    scope = scope_for(
        state.get("objects", []),
        previous_requests=previous_requests,
        user_edits=state.get("user_edits", []),
        request=text,
    )
    if UNDO.search(text) and not REMOVE.search(text):
        return _undo(text, state)
    words = words_of(text)
    if QUESTION_START.search(text) and text.rstrip().endswith("?") and not EDIT_VERBS.search(text):
        return EditPlan(answer=_describe(scope, _mentions(words, scope)))
    plan = EditPlan()
    mentions = _mentions(words, scope)
    _lighting(words, plan)
    if SWAP.search(text) and any(m.new for m in mentions) and any(m.names for m in mentions):
        _swap(words, mentions, scope, plan)
        return plan
    if REMOVE.search(text) or _no_object(words, scope):
        _remove(text, mentions, scope, plan)
        return plan
    if EACH_SIDE.search(text):
        _each_side(words, mentions, scope, plan)
        return plan
    targets = _targets(words, mentions, scope, plan)
    if STACK.search(text):
        _stack(targets or scope.focus, plan)
        return plan
    _recount(words, scope, plan)
    _rotate(text, words, mentions, targets, scope, plan)
    _move(text, words, mentions, targets, scope, plan)
    _resize(text, words, targets, scope, plan)
    _restyle(words, mentions, targets, scope, plan)
    _missing_uploads(words, scope, plan)
    return plan


def _missing_uploads(words: list[str], scope: Scope, plan: EditPlan) -> None:
    """'my teapot' where no teapot was uploaded (nor is one in the scene): said plainly."""
    for before, word in itertools.pairwise(words):
        if before not in ("my", "uploaded") or not word.isalpha() or is_upload(word):
            continue
        if noun_key(word) or word in scope.names() or scope.of_kind(word):
            continue
        plan.notes.append(f"there is no uploaded mesh named {word!r} in this workspace")


# --- mentions: which words name objects, and whether each is new or already there -------------


def _mentions(words: list[str], scope: Scope) -> list[Mention]:
    found: list[Mention] = []
    adding = bool(ADD_WORDS & set(words))
    for index, word in enumerate(words):
        before = words[index - 1] if index else ""
        is_one = word in ("one", "ones") and (
            before in INDEFINITE | DEFINITE | POSITIONS or before in COLOURS
        )
        if word in COUNTS and not is_one:
            continue
        if word in MODALS and index + 1 < len(words) and words[index + 1] in SUBJECTS:
            continue
        if not (
            word in scope.names()
            or noun_key(word)
            or word in PRONOUNS_ONE
            or word in PRONOUNS_MANY
            or is_one
        ):
            continue
        if word in ("that", "this") and index + 1 < len(words) and noun_key(words[index + 1]):
            continue  # "that chair": the determiner of the next word
        determiner, modifiers = "", cast(list[str], [])
        for back in range(index - 1, max(index - 5, -1), -1):
            token = words[back]
            if token in INDEFINITE or token in DEFINITE:
                determiner = token
                break
            if token in (",", ";", ".", ":") or RELATIONS.get((token,)) or token in ADD_WORDS:
                if token in ADD_WORDS and (token in INDEFINITE or token == "more"):
                    determiner = token
                break
            modifiers.insert(0, token)
        existing = word in scope.names() or word in PRONOUNS_ONE | PRONOUNS_MANY
        kind = noun_key(word)
        there = bool(scope.of_kind(word)) if kind else existing
        new = False
        mine = determiner in ("my", "uploaded") or "uploaded" in modifiers
        if not existing and (kind or is_one):
            if determiner in ("another", "more", "extra", "new", "additional") or (
                is_one and determiner in INDEFINITE
            ):
                new = True
            elif mine and is_upload(word) and not there:
                new = True  # "add my bunny": the upload, not yet in the scene
            elif determiner in INDEFINITE or not determiner:
                several = determiner in COUNTS and determiner not in ("a", "an")
                new = not there or adding or several
        # 'a red ball' said again of the ball already there
        restated = not new and determiner in ("a", "an") and not adding and (kind or existing)
        restated = restated and word not in PRONOUNS_ONE | PRONOUNS_MANY
        plural = is_plural(word) or word in PRONOUNS_MANY
        found.append(Mention(index, word, determiner, modifiers, new, plural, restated=restated))
    for mention in found:
        if not mention.new:
            mention.names = resolve(scope, mention.head, mention.modifiers, mention.plural)
    return found


def _relation_between(words: list[str], start: int, end: int) -> str:
    """The relation phrase (on, next to, left of...) in words[start:end], or ""."""
    for index in range(start, end):
        for phrase in sorted(RELATIONS, key=len, reverse=True):
            if tuple(words[index : index + len(phrase)]) == phrase and index + len(phrase) <= end:
                return RELATIONS[phrase]
    return ""


def _pairs(words: list[str], mentions: list[Mention]) -> list[tuple[Mention, str, Mention]]:
    """(subject, relation, target) for neighbouring mentions joined by a relation phrase."""
    pairs = []
    for first, second in itertools.pairwise(mentions):
        relation = _relation_between(words, first.end, second.start)
        if relation and second.names:
            pairs.append((first, relation, second))
    return pairs


def _targets(words: list[str], mentions: list[Mention], scope: Scope, plan: EditPlan) -> list[str]:
    """Existing objects the request changes; new objects are added here, as they are read."""
    relation_targets = {id(target) for _, _, target in _pairs(words, mentions)}
    pairs = {
        id(subject): (relation, target) for subject, relation, target in _pairs(words, mentions)
    }
    targets: list[str] = []
    for mention in mentions:
        if mention.new:
            _add(words, mention, pairs.get(id(mention)), scope, plan)
        elif id(mention) not in relation_targets and not mention.restated:
            targets += [name for name in mention.names if name not in targets]
    if not targets and not any(m.new or m.restated for m in mentions):
        targets = list(scope.focus)
    return targets


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
    loose = _loose_style(words, mention)
    kind = noun_key(mention.head) if mention.head not in ("one", "ones") else None
    like = scope.of_kind(mention.head) if kind else [scope.get(n) for n in scope.focus[-1:]]
    copying = mention.determiner in ("another", "more", "extra") or mention.head in ("one", "ones")
    if like and copying and not _style_words(mention.modifiers):
        source = like[-1]["name"]
        chain = source
        for _ in range(count):
            arguments: dict[str, Any] = {"name": source}
            material = _material_change(loose)
            if material:
                arguments["material"] = material
            placed = where or {"relation": "right_of", "target": chain}
            new_name = _next_name(scope, like[-1].get("category") or source)
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
    article = str(count) if count > 1 else "a"
    if is_upload(mention.head):  # "my bunny": the upload wins over a catalogue noun
        article = f"{count} of my" if count > 1 else "my"
    description = " ".join([article, *loose, *_style_words(mention.modifiers), noun])
    arguments = {"description": description, **where}
    says = f"added {description}" + (
        f" {where['relation'].replace('_', ' ')} {where['target']}" if where else ""
    )
    plan.calls.append(Call("add_described", arguments, says))
    for _ in range(count):
        scope.objects.append({"name": _next_name(scope, noun), "category": noun})


def _next_name(scope: Scope, base: str) -> str:
    """The builder's naming: `base`, then base-2, base-3...; after base-1..N, base-(N+1)."""
    names = scope.names()
    copies = [int(n.rsplit("-", 1)[1]) for n in names if re.fullmatch(rf"{re.escape(base)}-\d+", n)]
    if base not in names and not copies:
        return base
    number = max(copies, default=1) + 1
    while f"{base}-{number}" in names:
        number += 1
    return f"{base}-{number}"


def _count_of(mention: Mention, words: list[str]) -> int:
    if mention.determiner in COUNTS:
        return max(1, COUNTS[mention.determiner])
    if mention.determiner.isdigit():
        return max(1, min(int(mention.determiner), 20))
    before = words[mention.start - 2] if mention.start >= 2 else ""
    if words[mention.start - 1 : mention.start] == ["more"] and before in COUNTS:
        return COUNTS[before]
    return 1


def _style_words(words: list[str]) -> list[str]:
    return [w for w in words if w in COLOURS or w in SHADES or w in MATERIAL_WORDS]


def _loose_style(words: list[str], mention: Mention) -> list[str]:
    """Colour or material words said after a new object, before anything else ("one, blue, on")."""
    loose = []
    for word in words[mention.end :]:
        if word in COLOURS or word in MATERIAL_WORDS or word in SHADES:
            loose.append(word)
        elif word not in (",", "and", "in", "made", "of"):
            break
    return loose


def _material_change(words: list[str]) -> dict[str, Any]:
    change: dict[str, Any] = {}
    shade = 1.0
    for word in words:
        if word in SHADES:
            shade = SHADES[word]
        elif word in MATERIAL_WORDS:
            change["preset"] = ALIASES.get(word, word)
        elif word in COLOURS:
            r, g, b = (min(255, round(c * shade)) for c in COLOURS[word])
            change["color"] = f"#{r:02x}{g:02x}{b:02x}"
    return change


# --- removal, counts, stacks ----------------------------------------------------------------


def _no_object(words: list[str], scope: Scope) -> bool:
    """'no coffee table', 'without the lamp': the object is not wanted."""
    for index, word in enumerate(words[:-1]):
        if word in ("no", "without"):
            following = [w for w in words[index + 1 : index + 4] if w not in ("the", "a", "an")]
            if any(scope.of_kind(w) for w in following if noun_key(w) or w in scope.names()):
                return True
    return False


def _remove(text: str, mentions: list[Mention], scope: Scope, plan: EditPlan) -> None:
    names: list[str] = []
    for mention in mentions:
        resolved = mention.names or resolve(scope, mention.head, mention.modifiers, mention.plural)
        names += [name for name in resolved if name not in names]
    if ALL_BUT.search(text):  # "remove everything but the table"
        names = [item["name"] for item in scope.objects if item["name"] not in names]
    elif not names:
        names = list(scope.focus)
    for name in names:
        plan.calls.append(Call("delete_object", {"name": name}, f"removed {name}"))


def _swap(words: list[str], mentions: list[Mention], scope: Scope, plan: EditPlan) -> None:
    """'swap the ball for a cube': the new object where the old one was, the old one removed."""
    old = next(m for m in mentions if m.names)
    new = next(m for m in mentions if m.new)
    noun = noun_key(new.head) or new.head
    description = " ".join(["a", *_style_words(new.modifiers), noun])
    for name in old.names:
        arguments = {"description": description, "relation": "next_to", "target": name}
        plan.calls.append(Call("add_described", arguments, f"added {description}"))
        plan.calls.append(Call("delete_object", {"name": name}, f"removed {name}"))


def _each_side(words: list[str], mentions: list[Mention], scope: Scope, plan: EditPlan) -> None:
    subject = next((m for m in mentions if m.new), None)
    target = next((m for m in mentions if not m.new and m.names), None)
    if subject is None or target is None:
        plan.notes.append("I could not tell what goes on each side of what")
        return
    noun = noun_key(subject.head) or subject.head
    count = max(2, _count_of(subject, words))
    style = _style_words(subject.modifiers)
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


def _stack(names: list[str], plan: EditPlan) -> None:
    ordered = sorted(names)
    for below, above in itertools.pairwise(ordered):
        arguments = {"name": above, "relation": "on", "target": below}
        plan.calls.append(Call("place_object", arguments, f"stacked {above} on {below}"))


def _recount(words: list[str], scope: Scope, plan: EditPlan) -> None:
    """'make it five' / 'actually four' about a group of copies: add or remove copies."""
    for index, word in enumerate(words):
        if word not in COUNTS or word in ("a", "an", "one", "single", "pair", "couple"):
            continue
        following = words[index + 1] if index + 1 < len(words) else ""
        if following in UNITS_M or noun_key(following) or following in ("more", "times", "of"):
            continue
        group = [scope.get(n) for n in scope.focus if n in scope.names()]
        if not group:
            return
        wanted, have = COUNTS[word], len(group)
        last = group[-1]
        for _ in range(wanted - have):
            new_name = _next_name(scope, last.get("category") or last["name"])
            arguments = {"name": group[0]["name"], "new_name": new_name}
            arguments |= {"relation": "right_of", "target": last["name"]}
            plan.calls.append(Call("duplicate_object", arguments, f"added {new_name}"))
            last = {**last, "name": new_name}
            scope.objects.append(last)
        for extra in group[wanted:]:
            plan.calls.append(
                Call("delete_object", {"name": extra["name"]}, f"removed {extra['name']}")
            )
        return


# --- moves and turns -------------------------------------------------------------------------


def _rotate(
    text: str,
    words: list[str],
    mentions: list[Mention],
    targets: list[str],
    scope: Scope,
    plan: EditPlan,
) -> None:
    if not re.search(r"\b(?:turn|rotate|spin|face|facing)\b", text):
        return
    if re.search(r"\bturn\b.*\b(?:into|to be|red|blue|green)\b", text) and not FACE.search(text):
        return
    subjects = [n for n in targets if n in scope.names()]
    if FACE.search(text):
        face = [m for m in mentions if m.names and not set(m.names) & set(subjects[:1])]
        goal = face[-1].names[0] if face else ""
        subjects = [n for n in subjects if n != goal]
        for name in subjects:
            plan.calls.append(
                Call("turn_object", {"name": name, "face": goal}, f"turned {name} to face {goal}")
            )
        return
    degrees = re.search(r"(-?\d+(?:\.\d+)?)\s*(?:degrees|deg|°)", text)
    angle = float(degrees.group(1)) if degrees else (180.0 if "around" in words else 90.0)
    for name in subjects:
        plan.calls.append(
            Call("turn_object", {"name": name, "degrees": angle}, f"turned {name} by {angle:g}°")
        )


def _move(
    text: str,
    words: list[str],
    mentions: list[Mention],
    targets: list[str],
    scope: Scope,
    plan: EditPlan,
) -> None:
    placed = False
    for subject, relation, target in _pairs(words, mentions):
        if subject.new or subject.restated or FACE.search(text):
            continue
        for name in subject.names:
            if name in target.names:
                continue
            goal = target.names[0]
            arguments = {"name": name, "relation": relation, "target": goal}
            says = f"moved {name} {relation.replace('_', ' ')} {goal}"
            plan.calls.append(Call("place_object", arguments, says))
            placed = True
    if placed or not re.search(
        r"\b(?:move|shift|push|slide|nudge|put|bring|closer|further|farther|apart)\b", text
    ):
        return
    distance = _length(text) or DEFAULT_STEP
    if re.search(r"\b(?:closer|nearer)\b|\btowards?\b", text) or re.search(
        r"\b(?:further|farther|apart|away)\b", text
    ):
        _closer(text, mentions, targets, scope, plan)
        return
    if re.search(r"\b(?:to|on(?:to)?)\s+the\s+(?:floor|ground)\b", text):
        for name in targets:
            bottom = float(scope.get(name)["position"][1])
            plan.calls.append(
                Call(
                    "move_object", {"name": name, "by": [0, -bottom, 0]}, f"put {name} on the floor"
                )
            )
        return
    direction = next((DIRECTION_VECTORS[w] for w in words if w in DIRECTION_VECTORS), None)
    if direction is None:
        return
    by = [round(component * distance, 4) for component in direction]
    for name in targets:
        plan.calls.append(Call("move_object", {"name": name, "by": by}, f"moved {name} by {by} m"))


def _closer(
    text: str, mentions: list[Mention], targets: list[str], scope: Scope, plan: EditPlan
) -> None:
    away = bool(re.search(r"\b(?:further|farther|apart|away)\b", text))
    movers = targets[:1]
    if not movers:
        return
    mover = scope.get(movers[0])
    others = [m.names[0] for m in mentions if m.names and m.names[0] != mover["name"]]
    if not others:
        rest = [i for i in scope.objects if i["name"] != mover["name"] and "position" in i]
        if not rest:
            return
        nearest = min(rest, key=lambda i: _distance(i, mover))
        others = [nearest["name"]]
    other = scope.get(others[0])
    dx = other["position"][0] - mover["position"][0]
    dz = other["position"][2] - mover["position"][2]
    gap = _distance(other, mover)
    if gap < 1e-6:
        return
    clear = max(gap - (other["size"][0] + mover["size"][0]) / 2, 0.0)
    step = (_length(text) or clear / 2) * (-1 if away else 1)
    by = [round(dx / gap * step, 4), 0.0, round(dz / gap * step, 4)]
    word = "away from" if away else "closer to"
    plan.calls.append(
        Call(
            "move_object",
            {"name": mover["name"], "by": by},
            f"moved {mover['name']} {word} {other['name']}",
        )
    )


def _distance(a: dict[str, Any], b: dict[str, Any]) -> float:
    return float(
        ((a["position"][0] - b["position"][0]) ** 2 + (a["position"][2] - b["position"][2]) ** 2)
        ** 0.5
    )


def _length(text: str) -> float | None:
    match = re.search(
        r"(\d+(?:\.\d+)?)\s*(mm|cm|m|in|inch|inches|ft|foot|feet|metres?|meters?)\b", text
    )
    if not match:
        return None
    unit = match.group(2).rstrip("s") if match.group(2) not in ("inches",) else "inches"
    return float(match.group(1)) * UNITS_M.get(unit, UNITS_M.get(match.group(2), 1.0))


# --- size -----------------------------------------------------------------------------------


def _resize(text: str, words: list[str], targets: list[str], scope: Scope, plan: EditPlan) -> None:
    absolute = _absolute_sizes(text)
    relative = _relative_sizes(text, words)
    if not absolute and not relative:
        return
    for name in targets:
        item = scope.get(name)
        if "size" not in item:
            continue
        size = [float(v) for v in item["size"]]
        new = list(size)
        uniform = item.get("shape") in ("sphere", "torus")
        for role, value in absolute:
            _set(new, size, role, value, uniform)
        for role, factor, delta in relative:
            axis_size = _axis_value(new, role)
            target = axis_size * factor + delta
            if target <= 0:
                plan.notes.append(f"{name} cannot be made {abs(delta):g} m smaller")
                continue
            _set(new, new, role, target, uniform)
        if all(abs(a - b) < 1e-6 for a, b in zip(new, size, strict=True)):
            continue
        rounded = [round(v, 4) for v in new]
        says = f"resized {name} to {_dims(rounded)} m (was {_dims(size)} m)"
        plan.calls.append(Call("resize_object", {"name": name, "size": rounded}, says))


def _dims(size: list[float]) -> str:
    return " x ".join(f"{v:.3g}" for v in size)


def _axis_value(size: list[float], role: str) -> float:
    if role == "height":
        return size[1]
    if role == "width":
        return size[0]
    if role == "depth":
        return size[2]
    if role in ("length", "diameter"):
        return max(size[0], size[2])
    return max(size)


def _set(new: list[float], base: list[float], role: str, value: float, uniform: bool) -> None:
    """Set one dimension (or all, for a bare size or a round object) to `value` metres."""
    current = _axis_value(base, role)
    if role == "size" or (uniform and role in ("diameter", "width", "height", "depth", "length")):
        factor = value / current
        new[:] = [v * factor for v in base]
    elif role == "height":
        new[1] = value
    elif role == "width":
        new[0] = value
    elif role == "depth":
        new[2] = value
    elif role == "length":
        new[0 if base[0] >= base[2] else 2] = value
    elif role == "diameter":
        new[0], new[2] = value, value


def _absolute_sizes(text: str) -> list[tuple[str, float]]:
    found = []
    units = "|".join(sorted((re.escape(u) for u in UNITS_M if u.isalpha()), key=len, reverse=True))
    pattern = rf"(\d+(?:\.\d+)?)\s*({units})\b\s*(?:in\s+)?([a-z]+)?"
    for match in re.finditer(pattern, text):
        role = ROLE_WORDS.get(match.group(3) or "", "")
        after = match.group(3) or ""
        by = text[: match.start()].split()[-1:] == ["by"]
        if (
            by
            or after in COMPARATIVES
            or after
            in (
                "closer",
                "further",
                "to",
                "left",
                "right",
                "up",
                "down",
                "away",
            )
        ):
            continue
        before = text[: match.start()].split()[-1:] or [""]
        role = role or ROLE_WORDS.get(before[0], "size")
        found.append((role, float(match.group(1)) * UNITS_M[match.group(2)]))
    return found


def _relative_sizes(text: str, words: list[str]) -> list[tuple[str, float, float]]:
    found: list[tuple[str, float, float]] = []
    multiple = re.search(
        r"\b(twice|double|two times|three times|triple|half|(\d+(?:\.\d+)?)\s*(?:times|x))\b"
        r"(?:\s+(?:as|the))?\s+(big|large|tall|wide|long|size|height|width|length|bigger|larger)?",
        text,
    )
    if multiple:
        word = multiple.group(1)
        factor = {
            "twice": 2.0,
            "double": 2.0,
            "two times": 2.0,
            "three times": 3.0,
            "triple": 3.0,
            "half": 0.5,
        }.get(word, float(multiple.group(2) or 1.0))
        adjective = multiple.group(3) or "size"
        role = ADJECTIVES.get(
            adjective,
            {"height": "height", "width": "width", "length": "length"}.get(adjective, "size"),
        )
        found.append((role, factor, 0.0))
        return found
    percent = re.search(
        r"(\d+(?:\.\d+)?)\s*%\s*(bigger|larger|smaller|taller|shorter|wider|narrower|longer)", text
    )
    if percent:
        role, base = COMPARATIVES[percent.group(2)]
        sign = 1 if base > 1 else -1
        found.append((role, 1 + sign * float(percent.group(1)) / 100, 0.0))
        return found
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        if word == "lower" and following in {"the", "it", "them", "this", "that"}:
            role, factor = "height", 0.8  # "lower the table": a verb, not "the lower cube"
        elif word in COMPARATIVES:
            role, factor = COMPARATIVES[word]
        else:
            continue
        if word in ("higher",) and re.search(r"\b(?:move|lift|raise)\b", text):
            continue
        delta_match = re.search(
            rf"(\d+(?:\.\d+)?)\s*(mm|cm|m|in|ft)\s+{word}\b", text
        ) or re.search(rf"\b{word}\b.*?\bby\s+(\d+(?:\.\d+)?)\s*(mm|cm|m|in|ft)\b", text)
        if delta_match:
            delta = float(delta_match.group(1)) * UNITS_M[delta_match.group(2)]
            found.append((role, 1.0, delta if factor > 1 else -delta))
            continue
        hedge = next((HEDGES[w] for w in words[max(0, index - 3) : index] if w in HEDGES), 1.0)
        found.append((role, 1 + (factor - 1) * hedge, 0.0))
    return found


# --- colour, material, lighting --------------------------------------------------------------


def _restyle(
    words: list[str], mentions: list[Mention], targets: list[str], scope: Scope, plan: EditPlan
) -> None:
    inside_new = {
        index
        for mention in mentions
        if mention.new
        for index in range(
            mention.start - len(mention.modifiers), mention.end + len(_loose_style(words, mention))
        )
    }
    style = [
        word
        for index, word in enumerate(words)
        if index not in inside_new
        and (word in COLOURS or word in MATERIAL_WORDS or word in SHADES)
        and not _lighting_word_near(words, index)
    ]
    change = _material_change(style)
    if not change:
        return
    for name in targets:
        described = " ".join(style)
        plan.calls.append(
            Call("set_material", {"name": name, **change}, f"made {name} {described}")
        )


def _lighting_word_near(words: list[str], index: int) -> bool:
    return bool(LIGHT_WORDS & set(words[index + 1 : index + 3]))


def _lighting(words: list[str], plan: EditPlan) -> None:
    wordset = set(words)
    about_light = bool(LIGHT_WORDS & wordset) or bool(SKY_MOODS & wordset)
    mood = ""
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        if word in WARMER:
            mood = WARMER[word]
        elif word in MOOD_WORDS and about_light and not (word == "bright" and following in COLOURS):
            mood = MOOD_WORDS[word]
    if mood:
        plan.calls.append(Call("set_lighting", {"mood": mood}, f"set {mood} lighting"))
    for word in words:
        if word in BRIGHTNESS and (
            about_light or len(wordset - {"make", "it", "a", "bit", "little", "the", "scene"}) <= 2
        ):
            factor = BRIGHTNESS[word]
            plan.calls.append(Call("scale_lights", {"factor": factor}, f"made the lights {word}"))
            return


# --- undo, questions ------------------------------------------------------------------------


def _undo(text: str, state: dict[str, Any]) -> EditPlan:
    revisions = state.get("revisions", [])
    number = REVISION_NUMBER.search(text)
    if number:
        wanted = int(number.group(1))
        return EditPlan(
            calls=[Call("revert_scene", {"revision": wanted}, f"went back to revision {wanted}")]
        )
    if not revisions:
        return EditPlan(answer="There is no earlier revision to go back to.")
    latest = revisions[-1]
    if latest.get("run") is None:
        earlier = [r for r in revisions if r["number"] < latest["number"]]
    else:
        earlier = [r for r in revisions if r.get("run") != latest.get("run")]
    if not earlier:
        return EditPlan(answer="There is no earlier revision to go back to in the recent history.")
    wanted = earlier[-1]["number"]
    return EditPlan(
        calls=[
            Call(
                "revert_scene",
                {"revision": wanted},
                f"undid the last change (back to revision {wanted})",
            )
        ]
    )


def _describe(scope: Scope, mentions: list[Mention]) -> str:
    names = [n for m in mentions for n in m.names] or scope.focus
    parts = []
    for name in dict.fromkeys(names):
        item = scope.get(name)
        width, height, depth = item["size"]
        parts.append(
            f"{name} is {height:.2f} m tall, {width:.2f} m wide and {depth:.2f} m deep "
            f"({item.get('material', '')})"
        )
    return ("; ".join(parts) or "The scene is empty") + ". Nothing was changed."
