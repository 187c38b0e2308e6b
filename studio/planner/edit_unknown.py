"""Things a follow-up asks for that the planner does not know ("add a metal lathe next to the
bench"): the words that describe such a thing are its own, so they are set aside (the bench is
not made metal) and the answer says plainly what was left out."""

from __future__ import annotations

from studio.planner.catalogue import match_noun
from studio.planner.edit_mentions import NOT_THINGS, PLACE_NEXT
from studio.planner.references import Scope, is_upload, noun_key
from studio.planner.vocabulary import COLOURS, words_not_objects
from studio.scene.materials import ALIASES, PRESETS

DESCRIBING = {
    "big", "small", "large", "tiny", "huge", "giant", "mini", "old", "new", "tall",
    "short", "long", "wide", "low", "high", "heavy", "light", "nice", "proper", "real",
}  # fmt: skip
"""Words that may stand between 'a' and the thing they describe ("a big old lathe")."""


def unknown_spans(words: list[str], scope: Scope) -> list[tuple[int, int, str]]:
    """Each 'a [describing words] thing' whose thing the planner does not know: the span's start
    and end in `words` and what the thing is called."""
    found = []
    for start, word in enumerate(words):
        if word not in ("a", "an"):
            continue
        end = start + 1
        while end < len(words) and end - start <= 3 and _describes(words[end]):
            end += 1
        if end >= len(words) or _known(words[end], scope):
            continue
        following = words[end + 1] if end + 1 < len(words) else ""
        if following in PLACE_NEXT:
            found.append((start, end + 1, words[end]))
    return found


def without_spans(words: list[str], spans: list[tuple[int, int, str]]) -> list[str]:
    """`words` with the spans of unknown things taken out."""
    return [w for i, w in enumerate(words) if not any(s <= i < e for s, e, _ in spans)]


def _describes(word: str) -> bool:
    return word in DESCRIBING or word in COLOURS or word in PRESETS or word in ALIASES


def _known(word: str, scope: Scope) -> bool:
    if not word.isalpha() or len(word) < 3 or word in NOT_THINGS or word in words_not_objects():
        return True
    return bool(noun_key(word) or word in scope.names() or is_upload(word) or match_noun(word))
