"""Which objects a check means: by name, by numbered copy ("crate-2"), or by category.

A check names what the designer asked for (`name: [shelf, bookcase]`). An object answers to a
noun when, copy numbers aside ("box 2", "crate_3", "box2"), its whole name is that noun or its
name's head noun phrase ends with it, word for word (plural or singular): "books" finds
book-1..book-3, "table" finds "coffee-table", "coffee table" finds "oak-coffee-table". The head of
an English compound is its last word and a phrase's head comes before "of" / "with" / "for": a
coffee table is a table, a desk lamp is a lamp and not a desk, a box of chocolates is a box and
not chocolates.

Words are whole words, never parts of one: a toolbox, a mailbox and a boxwood hedge are no boxes.
The object's category (the product's own label) answers only for a name that does not mention the
noun at all ("sofa-1" labelled couch is a couch); where the name mentions it, as a word or inside
one ("box-lid", "toolbox"), the name decides, so a toolbox labelled "box" stays a toolbox.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from studio.evaluation.glb_scene import GlbScene, ObjectView

SEPARATORS = re.compile(r"[-_\s]+")
GLUED_COPY = re.compile(r"^([a-z]+)\d+$")
HEAD_ENDS = frozenset({"of", "with", "for"})
"""Words that end a name's head phrase: "box-of-chocolates" is a box."""

Words = tuple[str, ...]


def answers_to(item: ObjectView, word: str) -> bool:
    """Whether the object is what `word` names."""
    forms = _forms(word)
    words = _words(item.name)
    head = _head(words)
    if _tokens(item.name) in forms:  # "cube-2" asked by its own name
        return True
    if any(words == form or _ends_with(head, form) for form in forms):
        return True
    if _mentions(item.name, forms):
        return False
    category = _words(item.category)
    return bool(category) and category in forms


def find(scene: GlbScene, words: Iterable[str]) -> list[ObjectView]:
    """The scene's objects that answer to any of `words`, in name order."""
    wanted = tuple(words)
    return [item for item in scene.objects if any(answers_to(item, word) for word in wanted)]


def describe(words: Iterable[str]) -> str:
    """'table' or 'shelf/bookcase': how a reason names what it looked for."""
    return "/".join(words)


def _tokens(name: str) -> Words:
    """A name as written, lower-case, split at separators ("Red Box 2" -> red, box, 2)."""
    return tuple(token for token in SEPARATORS.split(name.strip().lower()) if token)


def _words(name: str) -> Words:
    """A name's words, lower-case, without copy numbers ("Red Box 2" -> red, box)."""
    words = [token for token in _tokens(name) if not token.isdigit()]
    if words:
        glued = GLUED_COPY.match(words[-1])
        if glued:
            words[-1] = glued[1]
    return tuple(words)


def _head(words: Words) -> Words:
    """The head noun phrase: the words before the first "of" / "with" / "for"."""
    for index, word in enumerate(words):
        if word in HEAD_ENDS and index > 0:
            return words[:index]
    return words


def _ends_with(words: Words, form: Words) -> bool:
    return 0 < len(form) <= len(words) and words[-len(form) :] == form


def _mentions(name: str, forms: set[Words]) -> bool:
    """Whether the name has the noun in it at all, as a word or inside one ("toolbox")."""
    squeezed = SEPARATORS.sub("", name.lower())
    return any("".join(form) in squeezed for form in forms if form)


def _forms(word: str) -> set[Words]:
    """The noun as asked and its singulars, each as words ("coffee tables" -> coffee table)."""
    words = _tokens(word)
    if not words:
        return set()
    *first, last = words
    lasts = {last}
    if last.endswith("ies"):
        lasts.add(last[:-3] + "y")
    if last.endswith("es"):
        lasts.add(last[:-2])
    if last.endswith("s"):
        lasts.add(last[:-1])
    return {(*first, form) for form in lasts if form}
