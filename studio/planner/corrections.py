"""Corrections inside one request: what follows "no", "I mean", "actually" replaces what came
before.

    "a red ball, no, make it blue"        -> "a blue ball"          (the same kind of word)
    "two, no wait, three cubes"           -> "three cubes"          (a whole phrase with a noun)
    "a table 2 m long, I mean 1.6 m long" -> "a table 1.6 m long"
    "a ball 50 cm - I mean 60 cm across"  -> "a ball 60 cm across"

The request's words are rewritten before the grammar reads them: a correction that names an
object replaces the phrase before it; one that names only attributes replaces the last words of
the same kind (colour, material, length, count).
"""

from __future__ import annotations

from studio.planner.catalogue import match_noun, match_phrase
from studio.planner.numbers import read_length, read_number
from studio.planner.readers import ROLES, SEPARATORS, Pending, read_attribute, read_dimensions
from studio.planner.vocabulary import COLOURS, CORRECTION_FILLER, CORRECTIONS, FILLER, SHADES

Span = tuple[int, int, str]  # start, end (exclusive), kind
PHRASE_BREAKS = SEPARATORS | {"and", "with", "plus"}


def apply_corrections(words: list[str]) -> list[str]:
    """The words with every correction applied, left to right."""
    for _ in range(10):  # a request rarely corrects itself more than a few times
        found = _marker(words)
        if found is None:
            return words
        start, end = found
        words = _apply(words, start, end)
    return words


def _marker(words: list[str]) -> tuple[int, int] | None:
    for index in range(len(words)):
        for phrase in CORRECTIONS:
            if tuple(words[index : index + len(phrase)]) != phrase:
                continue
            if phrase in (("no",), ("wait",), ("rather",), ("actually",)) and not _stands_alone(
                words, index, len(phrase)
            ):
                continue
            return index, index + len(phrase)
    return None


def _stands_alone(words: list[str], index: int, length: int) -> bool:
    """'no' corrects after a break ('a red ball, no, ...'), not in 'no balls'."""
    before = words[index - 1] if index > 0 else ""
    after = words[index + length] if index + length < len(words) else ""
    if index == 0:
        return False
    return before in SEPARATORS or after in SEPARATORS or after in CORRECTION_FILLER


def _apply(words: list[str], start: int, end: int) -> list[str]:
    before = words[:start]
    while before and before[-1] in SEPARATORS:
        before.pop()
    after_start = end
    while after_start < len(words) and (
        words[after_start] in SEPARATORS or words[after_start] in CORRECTION_FILLER
    ):
        after_start += 1
    after_end = after_start
    while after_end < len(words) and words[after_end] not in SEPARATORS:
        after_end += 1
    correction = words[after_start:after_end]
    rest = words[after_end:]
    if not correction:
        return before + rest
    spans = _spans(correction)
    if any(kind == "noun" for _, _, kind in spans) or not spans:
        phrase_start = len(before)
        while phrase_start > 0 and before[phrase_start - 1] not in PHRASE_BREAKS:
            phrase_start -= 1
        return before[:phrase_start] + correction + rest
    rewritten = list(before)
    for start_c, end_c, kind in reversed(spans):
        earlier = [span for span in _spans(rewritten) if _same_kind(span[2], kind)]
        new = correction[start_c:end_c]
        if earlier:
            old_start, old_end, old_kind = earlier[-1]
            if old_kind != "length" and kind == "length":
                # "2 m long, I mean 1.6 m": keep the role the first length had
                new = [*new, rewritten[old_end - 1]] if old_kind != "length" else new
            rewritten[old_start:old_end] = new
        else:
            rewritten += new
    return rewritten + rest


def _same_kind(old: str, new: str) -> bool:
    if new.startswith("length"):
        return old.startswith("length")
    return old == new


def _spans(words: list[str]) -> list[Span]:
    """Where colours, materials, lengths, counts and nouns are in `words`."""
    spans: list[Span] = []
    index = 0
    while index < len(words):
        word = words[index]
        if read_dimensions(words, index) is not None:
            used = read_dimensions(words, index)[1]  # type: ignore[index]
            spans.append((index, index + used, "dims"))
            index += used
            continue
        length = read_length(words, index)
        if length is not None:
            used = length[1]
            following = words[index + used] if index + used < len(words) else ""
            if following in ROLES and following != "in":
                spans.append((index, index + used + 1, f"length {ROLES[following]}"))
                index += used + 1
            else:
                spans.append((index, index + used, "length"))
                index += used
            continue
        if (phrase := match_phrase(words, index)) is not None:
            spans.append((index, index + phrase[1], "noun"))
            index += phrase[1]
            continue
        if word in SHADES and index + 1 < len(words) and words[index + 1] in COLOURS:
            spans.append((index, index + 2, "colour"))
            index += 2
            continue
        if word in COLOURS:
            spans.append((index, index + 1, "colour"))
            index += 1
            continue
        number = read_number(words, index)
        if number is not None and word not in ("a", "an"):
            spans.append((index, index + number[1], "count"))
            index += number[1]
            continue
        pending = Pending()
        used = read_attribute(words, index, pending)
        if used and pending.material:
            spans.append((index, index + used, "material"))
            index += used
            continue
        if word not in FILLER and word.isalpha() and len(word) > 2 and match_noun(word):
            spans.append((index, index + 1, "noun"))
        index += max(used, 1)
    return spans
