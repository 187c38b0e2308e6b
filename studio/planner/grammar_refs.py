"""Which object of a request a later word means while the grammar reads it: the thing a trailing
relation hangs on ("a nightstand on each side": of the bed), the same object named again ("the
sofa", "each nightstand", "desk is 1200mm x 600mm"), and how many copies one will have; and the
touches made once the whole request is read (one per side, containers opened)."""

from __future__ import annotations

from studio.planner.catalogue import CATALOGUE
from studio.planner.readers import Pending
from studio.planner.specs import ParsedRequest, RelationSpec


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
    after 'a nightstand on each side', 'desk is 1200mm x 600mm' after 'a desk', and 'the table'
    after 'a round table' or 'the bench' after 'a workbench' (a kind of table, of bench)."""
    copula = words[index + 1 : index + 2] in (["is"], ["are"], ["should"], ["must"])
    if not pending.empty() or not (copula or words[index - 1 : index] in (["the"], ["each"])):
        return None
    for kind_of in (False, True):
        for position in range(len(parsed.objects) - 1, -1, -1):
            key = parsed.objects[position].noun
            if _kind_of(key, noun) if kind_of else key == noun:
                return position
    return None


def _kind_of(key: str, noun: str) -> bool:
    """A round-table, a workbench ('work bench') or a toolbox is a kind of what `noun` names:
    its name, or a word people call it, ends in that noun."""
    if key.endswith(("-" + noun, noun)):
        return True
    entry = CATALOGUE.get(key)  # an uploaded mesh has no catalogue words
    return entry is not None and any(word.endswith(" " + noun) for word in entry.words)


def one_set_each(
    parsed: ParsedRequest, words: list[str], index: int, host: int | None, last: int | None
) -> bool:
    """'two round tables with 2 chairs each': the with-phrase's things once for every copy of
    the thing it hangs on (four chairs); False unless words[index] is such a closing 'each'."""
    if words[index] != "each" or index + 1 < len(words) or host is None or last in (None, host):
        return False
    parsed.objects[last].count *= copies(parsed, host)
    if not any(relation.subject == last for relation in parsed.relations):
        parsed.relations.append(RelationSpec(last, "next_to", host))
    return True


def each_owner(parsed: ParsedRequest, relation: tuple[int, str]) -> tuple[int, str]:
    """Whose relation '... <relation> each <thing>' is: the thing just put on (or in) the one
    before it ('a plate on the table in front of each chair': the plate, one per chair; a table
    is not in front of each chair), else the one before it."""
    if parsed.relations:
        last = parsed.relations[-1]
        if last.target == relation[0] and last.kind in ("on", "inside"):
            return last.subject, relation[1]
    return relation


def one_per_side(parsed: ParsedRequest) -> None:
    """'a lamp on each side of the sofa' is one lamp per side: two."""
    for relation in parsed.relations:
        if relation.kind == "each_side" and parsed.objects[relation.subject].count == 1:
            parsed.objects[relation.subject].count = 2


def open_containers(parsed: ParsedRequest) -> None:
    """An open box, or a box something goes inside, is modelled open (its catalogue variant)."""
    inside = {relation.target for relation in parsed.relations if relation.kind == "inside"}
    for index, spec in enumerate(parsed.objects):
        if spec.upload:
            continue
        variant = CATALOGUE[spec.noun].open
        if variant and (spec.open or index in inside):
            if not spec.open:
                parsed.notes.append(f"the {spec.noun} is modelled open so things can go inside")
            spec.noun, spec.open = variant, True
