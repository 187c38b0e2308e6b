"""Which objects a check means: by name, by numbered copy ("crate-2"), or by category.

A check names what the designer asked for (`name: [shelf, bookcase]`); an object answers to a
word when its name, its name without the copy number, the head word of its name, or its category
is that word (plural or singular), so "books" finds book-1..book-3 and "table" finds
"coffee-table". The head of an English compound is its last word: a coffee table is a table, a
desk lamp is a lamp and not a desk.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from studio.evaluation.glb_scene import GlbScene, ObjectView

COPY_SUFFIX = re.compile(r"[-_ ]\d+$")
SEPARATORS = re.compile(r"[-_\s]+")


def answers_to(item: ObjectView, word: str) -> bool:
    """Whether the object is what `word` names."""
    keys = _keys(item)
    return any(form in keys for form in _forms(word))


def find(scene: GlbScene, words: Iterable[str]) -> list[ObjectView]:
    """The scene's objects that answer to any of `words`, in name order."""
    wanted = tuple(words)
    return [item for item in scene.objects if any(answers_to(item, word) for word in wanted)]


def describe(words: Iterable[str]) -> str:
    """'table' or 'shelf/bookcase': how a reason names what it looked for."""
    return "/".join(words)


def _keys(item: ObjectView) -> set[str]:
    name = item.name.lower()
    base = COPY_SUFFIX.sub("", name)
    words = [token for token in SEPARATORS.split(base) if token and not token.isdigit()]
    head = words[-1] if words else ""
    return {name, base, item.category.lower(), head} - {""}


def _forms(word: str) -> set[str]:
    word = word.strip().lower()
    forms = {word, SEPARATORS.sub("-", word)}
    if word.endswith("ies"):
        forms.add(word[:-3] + "y")
    if word.endswith("es"):
        forms.add(word[:-2])
    if word.endswith("s"):
        forms.add(word[:-1])
    return forms
