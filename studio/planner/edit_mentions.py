"""Which words of a follow-up request name objects, whether each is new or already in the scene,
and which pairs of them a relation phrase joins ("the lamp on the desk")."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import cast

from studio.planner.catalogue import CATALOGUE, match_noun, match_phrase
from studio.planner.edit_tables import (
    ADD_WORDS,
    COUNTS,
    DEFINITE,
    INDEFINITE,
    MODALS,
    ROLE_WORDS,
    SUBJECTS,
    UNITS_M,
)
from studio.planner.modifiers import modifies_next, said_as_verb
from studio.planner.references import (
    POSITIONS,
    PRONOUNS_MANY,
    PRONOUNS_ONE,
    Scope,
    is_plural,
    is_upload,
    noun_key,
    resolve,
)
from studio.planner.vocabulary import COLOURS, RELATIONS, words_not_objects

ARTICLES = {"a", "an", "the", "another"}
PICKING = {"fourth", "fifth", "sixth", "next", "same", "newest", "latest", "previous", "original"}
"""Words that pick one of several things already there; never a misspelt noun."""


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
    placed: list[str] = field(default_factory=list)
    """Where a place said after the noun puts it ('the one on the left': left)."""

    @property
    def end(self) -> int:
        return self.start + 1


def read_mentions(words: list[str], scope: Scope) -> list[Mention]:
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
        if said_as_verb(words, index):
            continue  # "make the lamp stand by the sofa"
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
        if noun_key(word) and modifies_next(words, index, 1, scope.names()):
            continue  # "a desk lamp", "a display shelf": the kind of the next noun
        determiner, modifiers = "", cast(list[str], [])
        for back in range(index - 1, max(index - 5, -1), -1):
            token = words[back]
            if _is_length(words, back):  # "a 20 cm vase": a size, not twenty vases
                modifiers.insert(0, token)
                continue
            if token == "new" and back and words[back - 1] in DEFINITE:
                modifiers.insert(0, token)  # "the new one": the one just added, already there
                continue
            if token in INDEFINITE or token in DEFINITE or token.isdigit():  # "add 2 chairs"
                determiner = token
                if back and _counted(token) and words[back - 1] in DEFINITE:
                    determiner = words[back - 1]  # "the two armchairs": those already there
                break
            if token in (",", ";", ".", ":") or RELATIONS.get((token,)) or token in ADD_WORDS:
                if token in ADD_WORDS and (token in INDEFINITE or token == "more"):
                    determiner = token
                elif token in NEXT_COPY and words[back - 1 : back] in (["a"], ["an"]):
                    determiner = "another"  # "add a second monitor"
                break
            modifiers.insert(0, token)
        kind = noun_key(word)
        more = determiner in ("another", "more", "extra", "additional")  # "one more chair"
        existing = (word in scope.names() and not (kind and more)) or word in PRONOUNS_ONE
        existing = existing or word in PRONOUNS_MANY
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
            elif determiner in INDEFINITE or not determiner or determiner.isdigit():
                several = determiner.isdigit() or (
                    determiner in COUNTS and determiner not in ("a", "an")
                )
                new = not there or adding or several
        # 'a red ball' said again of the ball already there
        restated = not new and determiner in ("a", "an") and not adding and (kind or existing)
        restated = restated and word not in PRONOUNS_ONE | PRONOUNS_MANY
        plural = is_plural(word) or word in PRONOUNS_MANY
        placed = placed_after(words, index + 1)
        found.append(
            Mention(
                index, word, determiner, modifiers, new, plural, restated=restated, placed=placed
            )
        )
    taken: list[str] = []
    for mention in found:
        if not mention.new:
            said = [*mention.modifiers, *mention.placed]
            mention.names = resolve(scope, mention.head, said, mention.plural)
            if "other" in mention.modifiers and taken:  # "the other one": not the one just named
                rest = [m for m in mention.modifiers if m != "other"]
                left = [n for n in resolve(scope, mention.head, rest, True) if n not in taken]
                if left:
                    mention.names = left if mention.plural else left[:1]
            taken += mention.names
    _same_kind_it(found, scope)
    return found


NEXT_COPY = {"second", "third", "fourth", "fifth"}
PLACED_AFTER: dict[tuple[str, ...], set[str]] = {
    ("on", "the"): {"left", "right"},
    ("in", "the"): {"middle", "centre", "center", "front", "back"},
    ("at", "the"): {"front", "back", "top", "bottom", "end"},
}
"""'the one on the left', 'the chair in the middle': a place said after the noun picks one."""


def placed_after(words: list[str], index: int) -> list[str]:
    """The position word of a place phrase right after a noun ('on the left': left), unless the
    phrase goes on to name a thing ('on the left of the sofa' is a relation)."""
    place = PLACED_AFTER.get(tuple(words[index : index + 2]), set())
    word = words[index + 2] if index + 2 < len(words) else ""
    if word not in place or words[index + 3 : index + 4] == ["of"]:
        return []
    return ["last" if word == "end" else word]


def _same_kind_it(found: list[Mention], scope: Scope) -> None:
    """'add another chair next to it': 'it' is the chair already there, not what the talk was
    about before."""
    for copy, pronoun in itertools.pairwise(found):
        kind = scope.of_kind(copy.head) if copy.new and noun_key(copy.head) else []
        if pronoun.head == "it" and copy.determiner == "another" and kind:
            pronoun.names = [kind[-1]["name"]]


def _counted(word: str) -> bool:
    """Whether `word` is a count of more than one ("two", "3")."""
    return word.isdigit() or (word in COUNTS and word not in ("a", "an", "one"))


def _relation_between(words: list[str], start: int, end: int) -> str:
    """The relation phrase (on, next to, left of...) in words[start:end], or "" ('on the floor'
    says where, not what it is on)."""
    for index in range(start, end):
        if words[index : index + 3] in (["on", "the", "floor"], ["on", "the", "ground"]):
            continue
        for phrase in sorted(RELATIONS, key=len, reverse=True):
            if tuple(words[index : index + len(phrase)]) == phrase and index + len(phrase) <= end:
                return RELATIONS[phrase]
    return ""


def related_pairs(words: list[str], mentions: list[Mention]) -> list[tuple[Mention, str, Mention]]:
    """(subject, relation, target) for neighbouring mentions joined by a relation phrase."""
    pairs = []
    for first, second in itertools.pairwise(mentions):
        relation = _relation_between(words, first.end, second.start)
        if relation and second.names:
            pairs.append((first, relation, second))
    return pairs


def _is_length(words: list[str], index: int) -> bool:
    """Whether words[index] is the number of a length ("20" in "20 cm")."""
    following = words[index + 1] if index + 1 < len(words) else ""
    return words[index].replace(".", "", 1).isdigit() and following in UNITS_M


def size_words(modifiers: list[str]) -> list[str]:
    """The lengths among a new object's modifiers, with their units and roles ("20 cm tall")."""
    found: list[str] = []
    for index, word in enumerate(modifiers):
        last = found[-1] if found else ""
        unit = word in UNITS_M and last.replace(".", "", 1).isdigit()
        if _is_length(modifiers, index) or unit or (word in ROLE_WORDS and last in UNITS_M):
            found.append(word)
    return found


def spelled(words: list[str], scope: Scope) -> list[str]:
    """The words with a misspelt noun after an article read as the catalogue's ("put a chiar in
    front of it": a chair); only after an article, where a noun must come, and only when the
    word is no other word the planner knows."""
    fixed = list(words)
    for index in range(1, len(words)):
        word = words[index]
        if words[index - 1] not in ARTICLES or len(word) < 4 or not word.isalpha():
            continue
        if noun_key(word) or word in scope.names() or word in words_not_objects():
            continue
        if word in POSITIONS or word in PICKING:  # "the first one": a choice, not a "fir"
            continue
        if match_phrase(words, index) is not None:
            continue  # "a bean bag": the first word of a name, not a misspelt "beam"
        key = match_noun(word)
        if key is not None:
            fixed[index] = key if noun_key(key) else CATALOGUE[key].words[0]
    return fixed


PLACE_NEXT = {"", "and", ",", ".", "on", "in", "next", "beside", "by", "under", "behind", "near"}
PLACE_NEXT |= {"to", "onto", "inside", "please", "pls", "too", "as", "left", "right", "between"}
NOT_THINGS = {"bit", "lot", "tad", "second", "moment", "sec", "copy", "go", "try", "look"}
