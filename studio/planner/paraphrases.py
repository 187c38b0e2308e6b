"""Ways of saying a relation the grammar reads in another form, rewritten before it reads them.

    "a bowl holding three oranges"     -> "a bowl with three oranges in it"
    "a box containing two balls"       -> "a box with two balls in it"
    "a basket filled with apples"      -> "a basket with apples in it"

The container comes first and what it holds after, the reverse of "three oranges in a bowl";
the with-phrase already hangs what follows on the thing before it.
"""

from __future__ import annotations

HOLDING = {
    ("holding",): "in",
    ("containing",): "in",
    ("filled", "with"): "in",
    ("full", "of"): "in",
}
ENDS = {",", ";", ".", ":", "!", "?", "-", "and", "with", "under", "on", "next", "beside"}


def rewrite(words: list[str]) -> list[str]:
    """The words with every holding phrase turned into a with-phrase: 'with <things> in it'."""
    out: list[str] = []
    index = 0
    while index < len(words):
        phrase = next(
            (p for p in HOLDING if tuple(words[index : index + len(p)]) == p),
            None,
        )
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
