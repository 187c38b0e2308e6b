"""Colour, material and lighting in a follow-up request: the material change for the words that
name one, and the set_material / set_lighting / scale_lights calls."""

from __future__ import annotations

import re
from typing import Any

from studio.planner.edit_mentions import Mention
from studio.planner.edit_plan import Call, EditPlan
from studio.planner.edit_tables import BRIGHTNESS, LIGHT_WORDS, MATERIAL_WORDS, SKY_MOODS, WARMER
from studio.planner.readers import colour_word
from studio.planner.references import Scope, noun_key, resolve
from studio.planner.vocabulary import COLOURS, LIGHT_HEAD_MOODS, MOOD_WORDS, SHADES
from studio.scene.materials import ALIASES

HEX = re.compile(r"#(?:[0-9a-f]{3}){1,2}")
SPOT_WORDS = {"spotlight", "spotlights"}
AIMING = re.compile(
    r"\b(?:add|put|shine|point|aim|place|give)\b|^(?:an?\s+)?spot\s*lights?\s+(?:on|at)\b"
)
"""A spot is added when one is put, aimed, or named first ('spotlight on the statue pls')."""
SPOT_INTENSITY = 40.0
"""Candela of a spot aimed at one object (as bright as the spot a first request builds)."""


def is_style_word(word: str) -> bool:
    """A colour (a word or a #rrggbb code), a shade, or a material."""
    return (
        bool(colour_word(word))
        or word in SHADES
        or word in MATERIAL_WORDS
        or bool(HEX.fullmatch(word))
    )


def style_words(words: list[str]) -> list[str]:
    return [w for w in words if is_style_word(w)]


def loose_style(words: list[str], mention: Mention) -> list[str]:
    """Colour or material words said after a new object, before anything else ("one, blue, on")."""
    loose = []
    for word in words[mention.end :]:
        if is_style_word(word):
            loose.append(word)
        elif word not in (",", "and", "in", "made", "of"):
            break
    return loose


def material_change(words: list[str]) -> dict[str, Any]:
    change: dict[str, Any] = {}
    shade = 1.0
    for word in words:
        if word in SHADES:
            shade = SHADES[word]
        elif word in MATERIAL_WORDS:
            change["preset"] = ALIASES.get(word, word)
        elif colour_word(word):  # "blue", "bluish", "blue-ish"
            r, g, b = (min(255, round(c * shade)) for c in COLOURS[colour_word(word)])
            change["color"] = f"#{r:02x}{g:02x}{b:02x}"
        elif HEX.fullmatch(word):  # "#8b4513", "#f80"
            digits = word[1:] if len(word) == 7 else "".join(c * 2 for c in word[1:])
            change["color"] = f"#{digits}"
    return change


def restyle(
    words: list[str], mentions: list[Mention], targets: list[str], scope: Scope, plan: EditPlan
) -> None:
    inside_new = {
        index
        for mention in mentions
        if mention.new
        for index in range(
            mention.start - len(mention.modifiers), mention.end + len(loose_style(words, mention))
        )
    }
    inside_new |= {  # "make the red one 30 in tall": 'red' says which, it changes nothing
        index
        for mention in mentions
        if not mention.new
        for index in range(mention.start - len(mention.modifiers), mention.start)
    }
    style = [
        word
        for index, word in enumerate(words)
        if index not in inside_new
        and is_style_word(word)
        and not _lighting_word_near(words, index)
        and words[index - 1 : index] != ["not"]  # "navy not green": green is what it is not
    ]
    if _each_its_own(words, mentions, inside_new, plan):
        return
    change = material_change(style)
    if not change:
        return
    for name in targets:
        described = " ".join(style)
        plan.calls.append(
            Call("set_material", {"name": name, **change}, f"made {name} {described}")
        )


def _each_its_own(
    words: list[str], mentions: list[Mention], skip: set[int], plan: EditPlan
) -> bool:
    """'make the left vase blue and the other one white': each named object takes the style
    words that follow it, up to the next one named; False unless every one has its own."""
    named = [m for m in mentions if m.names and not m.new and not m.restated]
    if len(named) < 2:
        return False
    changes = []
    for mention, following in zip(named, [*named[1:], None], strict=True):
        end = following.start - len(following.modifiers) if following else len(words)
        own = [
            w
            for i, w in enumerate(words[mention.end : end], mention.end)
            if i not in skip and is_style_word(w) and not _lighting_word_near(words, i)
        ]
        change = material_change(own)
        if not change:
            return False
        changes.append((mention.names, change, " ".join(own)))
    for names, change, described in changes:
        for name in names:
            plan.calls.append(
                Call("set_material", {"name": name, **change}, f"made {name} {described}")
            )
    return True


def _lighting_word_near(words: list[str], index: int) -> bool:
    return bool(LIGHT_WORDS & set(words[index + 1 : index + 3]))


def relight(words: list[str], plan: EditPlan) -> None:
    wordset = set(words)
    about_light = bool((LIGHT_WORDS | SKY_MOODS | set(LIGHT_HEAD_MOODS)) & wordset)
    mood = ""
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        if noun_key(following) and word not in WARMER:
            continue  # "the sun umbrella", "a night stand": part of a thing's name
        if word in WARMER:
            mood = WARMER[word]
        elif word in MOOD_WORDS and about_light and not (word == "bright" and following in COLOURS):
            mood = MOOD_WORDS[word]
        elif word in LIGHT_HEAD_MOODS and word not in MOOD_WORDS and not mood:
            mood = LIGHT_HEAD_MOODS[word]  # "now moonlight instead": the light's own mood
    if mood:
        arguments = {"mood": mood}
        side = re.search(
            r"\bfrom (?:the |its )?(left|right|above|behind|front|top|back)\b", " ".join(words)
        )
        if side:  # "cool light coming from the left": the key comes from there
            direction = {"top": "above", "back": "behind"}.get(side.group(1), side.group(1))
            arguments["direction"] = direction
        plan.calls.append(Call("set_lighting", arguments, f"set {mood} lighting"))
    for word in words:
        if word in BRIGHTNESS and (
            about_light or len(wordset - {"make", "it", "a", "bit", "little", "the", "scene"}) <= 2
        ):
            factor = BRIGHTNESS[word]
            plan.calls.append(Call("scale_lights", {"factor": factor}, f"made the lights {word}"))
            return


def spotlight(words: list[str], mentions: list[Mention], scope: Scope, plan: EditPlan) -> bool:
    """'add a spotlight on the red one': a spot above and in front of what the request names
    (else what the talk is about), aimed at its top; False when the request adds no spot."""
    text = " ".join(words)
    if not (SPOT_WORDS & set(words) or "spot light" in text) or not AIMING.search(text):
        return False
    named = [name for mention in mentions if not mention.new for name in mention.names]
    chosen = [name for name in named or scope.focus if name in scope.names()]
    if not chosen:
        return False
    item = scope.get(chosen[0])
    x, bottom, z = (float(v) for v in item["position"])
    aim = [round(x, 4), round(bottom + float(item["size"][1]), 4), round(z, 4)]
    arguments = {
        "name": f"spot-{item['name']}",
        "kind": "spot",
        "intensity": SPOT_INTENSITY,
        "position": [round(aim[0] + 0.8, 4), round(aim[1] + 2.8, 4), round(aim[2] + 0.8, 4)],
        "target": aim,
    }
    plan.calls.append(Call("add_light", arguments, f"added a spotlight on {item['name']}"))
    return True


LOOKS = {"colour", "colours", "color", "colors", "material", "materials", "finish", "finishes"}


def swap_looks(words: list[str], mentions: list[Mention], scope: Scope, plan: EditPlan) -> bool:
    """'swap their colours' / 'swap the colours of the tents': two things trade colour (and
    material, when that is what was said); False unless exactly two are meant."""
    said = LOOKS & set(words)
    if not said:
        return False
    named = list(dict.fromkeys(n for m in mentions if not m.new for n in m.names))
    if len(named) < 2:  # "swap their colours": the two the talk is about
        named = resolve(scope, "them", (), True)
    if len(named) != 2:
        plan.notes.append("I could not tell which two things should trade looks")
        return True
    first, second = (scope.get(name) for name in named)
    materials = bool(said - {"colour", "colours", "color", "colors"})
    for item, other in ((first, second), (second, first)):
        change: dict[str, Any] = {"color": other["color"]}
        if materials:
            change["preset"] = other["material"]
        plan.calls.append(
            Call(
                "set_material",
                {"name": item["name"], **change},
                f"gave {item['name']} the look of {other['name']}",
            )
        )
    return True
