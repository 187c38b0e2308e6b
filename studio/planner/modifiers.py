"""A noun said right before another noun names what kind of thing the second one is.

"a display shelf" is a shelf, "a shop display shelf" too, and "add a desk lamp" adds one lamp:
the first nouns are modifiers, not objects of their own, unless a list joins them ("a display and
a shelf", "a display, a shelf"). A plural before a noun stays an object ("two chairs two tables"
is a list said without commas), and so does a name already in the scene. Three or more nouns in
a row are a list said without commas ("table chair lamp", "sofa lamp rug"): compounds of
furniture nouns are two words.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from studio.planner.catalogue import CATALOGUE, WORDS, match_phrase
from studio.planner.numbers import read_number
from studio.planner.vocabulary import VERB_NOUNS

DETERMINERS = {"a", "an", "the", "this", "that", "these", "those", "my", "each", "every", "some"}


@cache
def singular_names() -> frozenset[str]:
    """Every catalogue name in its singular form ("display", "desk lamp", "chair")."""
    names = {key.replace("-", " ") for key in CATALOGUE}
    names |= {word for noun in CATALOGUE.values() for word in noun.words}
    return frozenset(names)


def said_as_verb(words: list[str], index: int) -> bool:
    """Whether words[index] names a thing only after an article or a count and has none ("a
    lamp stands by the sofa": a verb; "a keyboard on a stand": a thing)."""
    if words[index] not in VERB_NOUNS or index == 0:
        return index == 0 and words[index] in VERB_NOUNS
    before = words[index - 1]
    return before not in DETERMINERS and read_number(words, index - 1) is None


def modifies_next(words: list[str], index: int, used: int = 1, names: Collection[str] = ()) -> bool:
    """Whether the noun of `used` words at `index` stands right before another catalogue noun and
    so only says what kind of thing that one is ("display" in "a display shelf")."""
    after = index + used
    said = " ".join(words[index:after])
    if after >= len(words) or not words[after].isalpha() or said in names:
        return False
    following = match_phrase(words, after)
    if following is None or said_as_verb(words, after):
        return False
    run = _is_noun(words, after + following[1]) or (index > 0 and _noun_ends_at(words, index))
    if run and said in WORDS:
        return False  # three or more catalogue nouns in a row: a list without commas
    if said in WORDS:  # a catalogue word: only its singular ("chairs table" is a list)
        return said in singular_names()
    return not said.endswith("s")  # a misspelling: "shlef" yes, "chiars" no


def _is_noun(words: list[str], index: int) -> bool:
    return index < len(words) and words[index].isalpha() and match_phrase(words, index) is not None


def _noun_ends_at(words: list[str], index: int) -> bool:
    """Whether a catalogue noun (of one or two words) ends right before `index`."""
    for start in (index - 1, index - 2):
        found = match_phrase(words, start) if start >= 0 else None
        if found is not None and start + found[1] == index:
            return True
    return False


PLACE_HEADS = {
    "shop", "store", "repair", "repairs", "showroom", "studio", "parlour", "parlor", "market",
    "stall", "factory", "warehouse", "department", "section", "aisle", "outlet", "boutique",
}  # fmt: skip
"""Words that make the noun before them name a place ("a bike repair shop", "a lamp store"),
not a thing to build in it."""


def names_a_place(words: list[str], index: int, used: int) -> bool:
    """Whether the catalogue noun of `used` words at `index` only says what kind of place the
    scene is ("bike repair shop", "a piano showroom"): a place word follows it."""
    after = index + used
    return after < len(words) and words[after] in PLACE_HEADS
