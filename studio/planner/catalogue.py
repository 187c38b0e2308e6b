"""The everyday objects the planner knows, read from `catalogue.yaml` (data a reader extends).

Public helpers:

    CATALOGUE["chair"]            -> Noun (typical size, material, how it is modelled)
    match_noun("chairs")          -> "chair"       (synonyms and plurals)
    match_noun("chiar")           -> "chair"       (a misspelling, when only one entry is close)
    match_phrase(words, index)    -> ("coffee-table", 2) for "coffee table ..." at index
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from rapidfuzz import fuzz, process

CATALOGUE_FILE = Path(__file__).with_name("catalogue.yaml")
TYPO_SCORE = 80.0
"""How close (0-100) a misspelt word must be to a catalogue word to be read as it."""
TYPO_MARGIN = 5.0
"""A misspelling close to two different objects is ambiguous and stays unknown."""
VERB_ENDINGS = ("ing", "ed")
"""Endings of verb forms ("coming", "painted"): such a word misspells a noun with the ending."""


@dataclass(frozen=True)
class Noun:
    """An everyday object: its typical size (metres, width x height x depth) and its model."""

    key: str
    size: tuple[float, float, float]
    material: str = ""
    colour: str = ""
    """A colour word (`vocabulary.COLOURS`) the thing has unless asked otherwise: an apple is
    red, a rubber duck yellow, whatever their material's own colour."""
    dynamic: bool = False
    words: tuple[str, ...] = ()
    primitive: dict[str, Any] | None = None
    parts: tuple[tuple[Any, ...], ...] = ()
    cut: tuple[tuple[Any, ...], ...] = ()
    legs: tuple[float, ...] = ()
    profile: tuple[tuple[float, float], ...] = ()
    sections: int = 48
    clearance: float = 0.0
    floor: float | None = None
    open: str = ""
    emits: bool = False
    lying: bool = False
    raised: str = ""
    """The key a plainly named one becomes on furniture (a lamp on a table: the desk lamp)."""
    exact: tuple[str, ...] = ()
    """Words (and their plurals) that name this very kind, kept anywhere ('floor lamp')."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def shape(self) -> str:
        """The scene shape kind it is built as."""
        if self.primitive:
            return str(self.primitive["kind"])
        return "revolve" if self.profile else "boolean"

    @property
    def hollow(self) -> bool:
        return self.floor is not None


def _plurals(word: str) -> set[str]:
    *head, last = word.split(" ")
    if last.endswith(("s", "x", "ch", "sh")):
        forms = {last + "es"}
    elif last.endswith("y") and last[-2:-1] not in "aeiou":
        forms = {last[:-1] + "ies"}
    elif last.endswith("f"):
        forms = {last[:-1] + "ves", last + "s"}
    else:
        forms = {last + "s"}
    return {" ".join([*head, form]) for form in forms}


def _noun(key: str, data: dict[str, Any]) -> Noun:
    known = set(Noun.__dataclass_fields__) - {"key", "extra"}
    return Noun(
        key=key,
        size=tuple(float(v) for v in data["size"]),  # type: ignore[arg-type]
        material=str(data.get("material", "")),
        colour=str(data.get("colour", "")),
        dynamic=bool(data.get("dynamic", False)),
        words=tuple(data.get("words", [key])),
        primitive=data.get("primitive"),
        parts=tuple(tuple(part) for part in data.get("parts", [])),
        cut=tuple(tuple(part) for part in data.get("cut", [])),
        legs=tuple(float(v) for v in data.get("legs", [])),
        profile=tuple((float(r), float(y)) for r, y in data.get("profile", [])),
        sections=int(data.get("sections", 48)),
        clearance=float(data.get("clearance", 0.0)),
        floor=None if data.get("floor") is None else float(data["floor"]),
        open=str(data.get("open", "")),
        emits=bool(data.get("emits", False)),
        lying=bool(data.get("lying", False)),
        raised=str(data.get("raised", "")),
        exact=tuple(w for word in data.get("exact", []) for w in (word, *sorted(_plurals(word)))),
        extra={k: v for k, v in data.items() if k not in known and k != "plurals"},
    )


@cache
def _load() -> tuple[dict[str, Noun], dict[str, str]]:
    raw = yaml.safe_load(CATALOGUE_FILE.read_text())
    nouns = {key: _noun(key, data) for key, data in raw.items()}
    words: dict[str, str] = {}
    for key, data in raw.items():
        for word in [key.replace("-", " "), *data.get("words", [])]:
            for form in {word, *_plurals(word)}:
                words.setdefault(form, key)
        for plural in data.get("plurals", []):
            words[plural] = key
    return nouns, words


CATALOGUE, WORDS = _load()
LONGEST_PHRASE = max(len(word.split(" ")) for word in WORDS)


def match_phrase(words: list[str], index: int) -> tuple[str, int] | None:
    """The catalogue key whose name (of one or more words) starts at words[index], longest first,
    and how many words it takes; exact names and plurals only."""
    for length in range(LONGEST_PHRASE, 0, -1):
        phrase = " ".join(words[index : index + length])
        if len(phrase.split(" ")) == length and phrase in WORDS:
            return WORDS[phrase], length
    return None


@cache
def match_noun(word: str) -> str | None:
    """The catalogue key for one written word: exact, plural, or an unambiguous misspelling."""
    word = word.strip().lower()
    if word in WORDS:
        return WORDS[word]
    if len(word) < 3 or not word.isalpha():
        return None
    if word.endswith("s") and len(word) > 4:  # "chiars": a misspelt plural
        return _closest(word) or _closest(word[:-1])
    return _closest(word)


def _closest(word: str) -> str | None:
    single = [w for w in WORDS if " " not in w and abs(len(w) - len(word)) <= 2]
    ending = next((end for end in VERB_ENDINGS if word.endswith(end)), "")
    single = [w for w in single if w.endswith(ending)]  # "coming" is no misspelt coin
    if len(word) <= 5:  # "make", "lathe" are other words, not a misspelt "cake", "plate": short
        single = [w for w in single if w[0] == word[0]]  # typos keep their first letter
    found = process.extract(word, single, scorer=fuzz.ratio, limit=6)
    close = [(WORDS[w], score) for w, score, _ in found if score >= TYPO_SCORE - _short(word)]
    if not close:
        return None
    best_key, best = close[0]
    rivals = [score for key, score in close if key != best_key and best - score < TYPO_MARGIN]
    return None if rivals else best_key


def _short(word: str) -> float:
    """Short words have fewer letters to be close on: 'bal' is one letter from 'ball'."""
    return 6.0 if len(word) <= 4 else 0.0
