"""What kind of edit a follow-up request asks for: the patterns that spot its verbs and phrases
(start over, undo, remove, swap, stack, face...), and the request cut into words."""

from __future__ import annotations

import re

TOKEN = re.compile(
    r"#[0-9a-f]{6}\b|#[0-9a-f]{3}\b|\d+(?:\.\d+)?|[a-z][a-z0-9]*(?:-[a-z0-9]+)*|[,;.?!:]"
)
START_OVER = re.compile(
    r"\b(?:start(?:ing)?\s+(?:(?:over|again|afresh|anew)\s+)?(?:from\s+scratch|with)|"
    r"start(?:ing)?\s+(?:over|again|afresh|anew)|from\s+scratch|"
    r"(?:a\s+)?(?:new|fresh)\s+scene(?:\s+with)?|clear\s+(?:the\s+scene|everything)|"
    r"scrap\s+(?:it|that|this|everything)|instead\s*,?\s*(?:build|make|create|give\s+me)|"
    r"replace\s+(?:it|everything)\s+with)\b"
)
UNDO = re.compile(
    r"\b(?:undo|go(?:ing)?\s+back|revert|roll\s*back|back\s+to|restore|previous\s+(?:version|revision))\b"
)
REVISION_NUMBER = re.compile(r"\b(?:revision|version|rev|r)\s*#?\s*(\d+)\b")
ORDINALS = {"first": 1, "original": 1, "initial": 1, "second": 2, "third": 3, "fourth": 4}
REVISION_ORDINAL = re.compile(
    r"\b(?:very\s+)?(first|original|initial|second|third|fourth)\s+"
    r"(?:version|revision|one|scene|draft|attempt|try)\b|\bthe\s+(original)\b"
    r"|\b(?:the\s+)?(?:very\s+)?(beginning|start)\b"
)
"""'go back to the first version', 'back to the original', 'to the beginning': the scene as the
first (second...) request left it."""
REMOVE = re.compile(
    r"\b(?:remove|delete|get\s+rid\s+of|take\s+away|take\s+out|lose|erase|drop)\b|\bno\s+more\b"
    r"|\btake\s+(?:[\w-]+\s+){1,4}?(?:away|out)\b(?!\s+of)"  # "take two of them away"
)
QUESTION_START = re.compile(r"^\s*(?:how|what|which|where|is|are|does|do|why|who)\b")
EDIT_VERBS = re.compile(
    r"\b(?:make|change|turn|add|put|move|set|paint|colou?r|resize|scale|remove|delete|rotate)\b"
)
EACH_SIDE = re.compile(r"\b(?:on\s+)?(?:each|either|both)\s+sides?\s+of\b")
STACK = re.compile(r"\b(?:stack|pile)\b|\bon\s+top\s+of\s+each\s+other\b")
FACE = re.compile(r"\b(?:to\s+)?face\b|\btowards?\b|\blooking\s+at\b")
ALL_BUT = re.compile(r"\b(?:everything|all)\s+(?:but|except)\b")
SWAP = re.compile(r"\b(?:swap|replace|exchange)\b")


def words_of(text: str) -> list[str]:
    return TOKEN.findall(text.lower().replace("\u2019", "'"))
