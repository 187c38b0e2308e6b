"""Which object of a request a later word means while the grammar reads it: the thing a trailing
relation hangs on ("a nightstand on each side": of the bed), the same object named again ("the
sofa", "each nightstand", "desk is 1200mm x 600mm"), and how many copies one will have."""

from __future__ import annotations

from studio.planner.readers import Pending
from studio.planner.specs import ParsedRequest


def standing_before(parsed: ParsedRequest, subject: int) -> int:
    """The latest object before `subject` that does not rest on another (the bed, not its
    pillow), else the one just before it."""
    resting = {r.subject for r in parsed.relations if r.kind in ("on", "inside")}
    for index in range(subject - 1, -1, -1):
        if index not in resting:
            return index
    return subject - 1


def copies(parsed: ParsedRequest, index: int) -> int:
    """How many of an object there will be ('a nightstand on each side': two)."""
    sides = any(r.kind == "each_side" and r.subject == index for r in parsed.relations)
    count = parsed.objects[index].count
    return 2 if sides and count == 1 else count


def mentioned(
    parsed: ParsedRequest, noun: str, words: list[str], index: int, pending: Pending
) -> int | None:
    """'the sofa' after 'a sofa' is the same sofa, not a second one; so is 'each nightstand'
    after 'a nightstand on each side', and 'desk is 1200mm x 600mm' after 'a desk'."""
    copula = words[index + 1 : index + 2] in (["is"], ["are"], ["should"], ["must"])
    if not pending.empty() or not (copula or words[index - 1 : index] in (["the"], ["each"])):
        return None
    for position in range(len(parsed.objects) - 1, -1, -1):
        if parsed.objects[position].noun == noun:
            return position
    return None


def each_owner(parsed: ParsedRequest, relation: tuple[int, str]) -> tuple[int, str]:
    """Whose relation '... <relation> each <thing>' is: the thing just put on (or in) the one
    before it ('a plate on the table in front of each chair': the plate, one per chair; a table
    is not in front of each chair), else the one before it."""
    if parsed.relations:
        last = parsed.relations[-1]
        if last.target == relation[0] and last.kind in ("on", "inside"):
            return last.subject, relation[1]
    return relation
