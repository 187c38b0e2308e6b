"""Ways of saying a relation the grammar reads in another form, rewritten before it reads them.

Typed shorthands and accents become the plain words first (`plain_text`):

    "a stool infront", "a sink nxt to it"  -> "a stool in front", "a sink next to it"
    "a table w/ a cup", "a cosy café"      -> "a table with a cup", "a cosy cafe"

    "a bowl holding three oranges"     -> "a bowl with three oranges in it"
    "a box containing two balls"       -> "a box with two balls in it"
    "a basket filled with apples"      -> "a basket with apples in it"

The container comes first and what it holds after, the reverse of "three oranges in a bowl";
the with-phrase already hangs what follows on the thing before it.

A table for a number of people is a table with that many chairs around it:

    "a dining table set for four"      -> "a dining table with four chairs around it"
    "a round table for 6 people"       -> "a round table with 6 chairs around it"

Heights measured against a standing adult become lengths:

    "a waist high table"               -> "a 1.0 m tall table"
    "a knee-high wall"                 -> "a 0.5 m tall wall"
"""

from __future__ import annotations

import re
import unicodedata

from studio.planner.numbers import read_number

SHORTHANDS = {
    "infront": "in front",
    "ontop": "on top",
    "nxt": "next",
    "nextto": "next to",
    "w/": "with ",
    "w/o": "without ",
    "b/w": "between ",
}
"""Words run together or cut short as people type them, and what they stand for."""
SHORTHAND = re.compile(
    r"(?<![\w/])("
    + "|".join(
        re.escape(word) + ("" if word.endswith("/") else r"\b")
        for word in sorted(SHORTHANDS, key=len, reverse=True)
    )
    + ")",
    re.IGNORECASE,
)

SETTINGS = (
    ("shop", "window", "display"),
    ("shop", "window"),
    ("store", "window"),
    ("display", "window"),
    ("window", "display"),
    ("shop", "display"),
    ("store", "display"),
)
"""Phrases that name where a scene is, not a thing in it (longest first): a shop window is a
display, not a window frame to build."""
HOLDING = {
    ("holding",): "in",
    ("containing",): "in",
    ("filled", "with"): "in",
    ("full", "of"): "in",
}
BODY_HEIGHTS = {"ankle": 0.1, "knee": 0.5, "thigh": 0.7, "hip": 0.9, "waist": 1.0, "chest": 1.3,
                "shoulder": 1.45, "eye": 1.6, "head": 1.75}  # fmt: skip
"""Metres from the floor to each part of a standing adult."""
BODY_ROLES = {"high", "height", "tall"}
"""'waist high' is a size; 'at waist height' is where a thing is, and stays as said."""
SEATED = {"table", "tables", "desk"}
"""Things people sit at: 'for N' after them is how many sit there."""
SET_WORDS = {"set", "laid", "seating", "seats", "that", "which", "sits"}
PEOPLE = {"people", "persons", "guests", "diners", "adults", "kids", "children"}
ENDS = {",", ";", ".", ":", "!", "?", "-", "and", "with", "under", "on", "next", "beside"}
CLAUSE_ENDS = {",", ";", ".", ":", "!", "?", "and"}


def plain_text(text: str) -> str:
    """The request with accents dropped ("café" -> "cafe") and typed shorthands spelled out
    ("infront" -> "in front", "w/" -> "with")."""
    decomposed = unicodedata.normalize("NFD", text)
    text = "".join(char for char in decomposed if not unicodedata.combining(char))
    return SHORTHAND.sub(lambda m: SHORTHANDS[m.group(1).lower()], text)


def rewrite(words: list[str]) -> list[str]:
    """The words with every holding phrase turned into a with-phrase ('with <things> in it'),
    every height against the body ('waist high') into metres, and settings left out."""
    out: list[str] = []
    index = 0
    while index < len(words):
        setting = next((p for p in SETTINGS if tuple(words[index : index + len(p)]) == p), None)
        if setting is not None:
            index += len(setting)
            continue
        phrase = next(
            (p for p in HOLDING if tuple(words[index : index + len(p)]) == p),
            None,
        )
        body = words[index] in BODY_HEIGHTS and words[index + 1 : index + 2] in [
            [w] for w in BODY_ROLES
        ]
        if body and words[index - 1 : index] != ["at"]:
            out += [f"{BODY_HEIGHTS[words[index]]:g}", "m", "tall"]
            index += 2
            continue
        if words[index : index + 2] == ["each", "with"]:  # "3 plinths, each with a vase on top"
            stop = index + 2
            while stop < len(words) and words[stop] not in CLAUSE_ENDS:
                stop += 1
            if out[-1:] == [","]:
                out.pop()
            out += [*words[index + 1 : stop], "each"]  # -> "with a vase on top each"
            index = stop
            continue
        seats = _seats(words, index, out)
        if seats:
            out += ["with", *words[index + 1 : index + 1 + seats[0]], "chairs", "around", "it"]
            index += seats[1]
            continue
        if phrase is None:
            out.append(words[index])
            index += 1
            continue
        end = index + len(phrase)
        stop = end
        while stop < len(words) and (stop == end or words[stop] not in ENDS):
            stop += 1
        out += ["with", *words[end:stop], HOLDING[phrase], "it"]
        index = stop
    return out


def _seats(words: list[str], index: int, before: list[str]) -> tuple[int, int] | None:
    """'(set) for four (people)' right after a table (at words[index], 'for'): how many words
    the number takes and how many the phrase takes from 'for'; None elsewhere."""
    if words[index] != "for":
        return None
    back = [word for word in before[-2:] if word not in SET_WORDS]
    if not back or back[-1] not in SEATED:
        return None
    number = read_number(words, index + 1)
    if number is None or words[index + 1] in ("a", "an"):
        return None
    used = 1 + number[1]
    if words[index + used : index + used + 1] and words[index + used] in PEOPLE:
        used += 1
    return number[1], used
