"""Reading a plain-language scene request into object, relation and lighting specs.

The grammar (documented for people in README "Studio requests"):

    request   := clause ("," | ";" | "." | "-" | "and" | "with" clause)*   (corrections first)
    clause    := object [relation object [and object]] | lighting | attributes of the last object
    object    := [count] [size] [colour] [material] noun [size] ["made of" material] ["in" colour]
                 | group "of" noun (a pyramid of crates, a stack of books, a row of chairs)
    count     := a | an | one..ninety-nine | a dozen | a couple of | a pair of | <integer>
    size      := length [role] | role "of" length | length "x" length ["x" length] [unit]
    length    := number unit [number [unit]]      (3 metres, half a metre, 5 ft 6 in, 1 m 20)
    role      := tall | high | wide | long | deep | thick | across | diameter | radius
    relation  := on [top of] | under | next to | beside | left of | right of | in front of |
                 behind | inside | in | into | around | between | on each side of | across |
                 against | in the middle of | in the corner | stacked on
    arrange   := in a row | in a circle | in a grid | in two rows of 3 | stacked | in a pyramid
    lighting  := [under | with | in] [mood | 3000 K | spot | area]* (light | spotlight | daylight
                 | sun | bulb | softbox ...) [from the (left | right | above | behind | front)]

Lighting phrases are read wherever they stand, so "a red ball on a wooden table under warm light"
builds both objects and warm light. Words it cannot place are returned in `unparsed`, and
object-like words outside the catalogue in `unknown`, so nothing a person typed is dropped
silently. Counts and sizes that cannot be meant (zero, negative, beyond the studio's limits)
raise GrammarError with the reason.

Reusable pieces: `numbers.parse_count`, `numbers.parse_length`, `catalogue.match_noun`,
`parse_colour` (below), `corrections.apply_corrections`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from studio.planner import lighting as light_words
from studio.planner import vocabulary
from studio.planner.catalogue import match_noun, match_phrase
from studio.planner.corrections import apply_corrections
from studio.planner.grammar_refs import (
    copies,
    each_owner,
    mentioned,
    one_per_side,
    one_set_each,
    open_containers,
    standing_before,
)
from studio.planner.modifiers import modifies_next, names_a_place, said_as_verb
from studio.planner.numbers import QuantityError, read_length, read_number, tokens, unit_metres
from studio.planner.paraphrases import plain_text, rewrite
from studio.planner.quantities import check_count, check_sizes, scaled_sizes
from studio.planner.readers import (
    SEPARATORS,
    Pending,
    read_arrangement,
    read_attribute,
    read_grid,
    read_relation,
)
from studio.planner.specs import (
    GrammarError,
    LightingSpec,
    ObjectSpec,
    ParsedRequest,
    RelationSpec,
    Srgb,
)
from studio.planner.uploads import MARKS, TRAILING
from studio.planner.variants import raised_variants
from studio.planner.vocabulary import FILLER, GROUP_NOUNS

PRONOUNS = {"it", "them", "that", "this", "top", "one"}
EACH = {"one", "each"}
"""A clause that starts "one on each side" places the object just named, one per side."""
KNOWN_WORDS = vocabulary.words_not_objects()
"""Words with a meaning of their own, never read as a misspelt object ('three' is not 'tree')."""
SHARED = {"on", "inside", "under", "next_to", "left_of", "right_of", "in_front_of", "behind"}
"""Relations that hold for every object of a list before them ('a cup and a plate on a table')."""
SUBJECTS = {"you", "u", "ya", "i", "we"}
"""Who a modal asks about: "can you", "could u"."""
JOINERS = {"and", "with", "of", "made", "in", "then", "plus"}


def parse_request(text: str, extra_nouns: Mapping[str, str] | None = None) -> ParsedRequest:
    """Parse a request; raise GrammarError when it names no object at all, or asks for a count or
    size that cannot be built.

    `extra_nouns` maps more word forms to nouns (a workspace's uploaded meshes: "ducks" ->
    "duck", "duck.glb" -> "duck"); objects read from them carry `upload` = the noun. Such a noun
    wins over a catalogue one only after "my" / "uploaded" or as the file name."""
    parsed = ParsedRequest()
    extra = {word.lower(): key for word, key in (extra_nouns or {}).items()}
    for word, key in extra.items():
        if "." in word:  # the exact file name: the upload, whatever the catalogue has
            text = re.sub(re.escape(word), f" uploaded {key} ", text, flags=re.IGNORECASE)
    words = rewrite(apply_corrections(tokens(plain_text(text))))
    reader = _Reader(parsed, {w: k for w, k in extra.items() if "." not in w})
    try:
        for clause in _clauses(words):
            reader.clause(clause)
        open_containers(parsed)
        raised_variants(parsed)
        one_per_side(parsed)
        for spec in parsed.objects:
            spec.sizes = (
                spec.sizes if spec.upload else scaled_sizes(spec.noun, spec.sizes, spec.scale)
            )
            check_count(spec.noun, spec.count)
            parsed.notes += check_sizes(spec.noun, spec.sizes, upload=bool(spec.upload))
    except QuantityError as error:
        raise GrammarError(str(error)) from error
    if not parsed.objects:
        unknown = parsed.unknown or parsed.unparsed
        named = f" (not in my catalogue: {', '.join(unknown)})" if unknown else ""
        raise GrammarError(
            f"no object I know in {text.strip()[:200]!r}{named}; try 'a red ball on a table'"
        )
    return parsed


def parse_colour(text: str) -> Srgb | None:
    """The sRGB colour a phrase names ('dark red', '#ff8800'), None when it names none."""
    pending = Pending()
    words = tokens(text)
    index = 0
    while index < len(words):
        index += read_attribute(words, index, pending) or 1
    return pending.colour


def _clauses(words: list[str]) -> list[list[str]]:
    clauses: list[list[str]] = [[]]
    for word in words:
        if word in SEPARATORS:
            clauses.append([])
        else:
            clauses[-1].append(word)
    return [clause for clause in clauses if clause]


class _Reader:
    """Reads clauses left to right, keeping what the next clause may refer to."""

    def __init__(self, parsed: ParsedRequest, extra: Mapping[str, str] | None = None) -> None:
        self.parsed = parsed
        self.extra = dict(extra or {})
        self.longest = max((len(word.split(" ")) for word in self.extra), default=0)
        self.carried: tuple[int, list[int]] | None = None
        """A with-phrase's host and list, for a clause that goes on listing ("a table with a
        bowl, a cup and a book on it": all three are on the table)."""

    def clause(self, words: list[str]) -> None:
        parsed = self.parsed
        if self._pyramid_levels(words):
            return
        pending = Pending()
        relation: tuple[int, str] | None = None
        between: RelationSpec | None = None
        last: int | None = None
        listed: list[int] = []  # "a jar and an apple on a tray": both are on it
        fronted: tuple[str, int] | None = None
        spot_target = False
        host: int | None = None  # what a with-phrase hangs on ("a table with ...")
        relation_end = -1  # where the last relation phrase ended
        carried = self.carried if words[0] in ("a", "an") or words[0].isdigit() else None
        self.carried = None
        index = 0
        while index < len(words):
            word = words[index]
            lit = light_words.read_lighting(words, index, parsed.lighting)
            if lit is not None:
                parsed.lighting, used, target = lit
                if target == "it" and parsed.objects:
                    parsed.lighting.target = parsed.objects[-1].noun
                spot_target = target == "next"
                index += used
                continue
            arranged = read_arrangement(words, index)
            if arranged is not None:
                kind, used = arranged
                grid = read_grid(words, index)
                if grid and grid[0] and last is None:
                    pending.count = grid[0]  # "a 2 by 3 grid of crates"
                elif grid and grid[0] and last is not None and parsed.objects[last].count == 1:
                    parsed.objects[last].count = grid[0]  # "crates in a 3 by 3 grid"
                self._arrange(last, pending, kind)
                index += used
                continue
            phrase = match_phrase(words, index)
            matched = None if phrase and phrase[1] > 1 else read_relation(words, index)
            if matched and last is None and relation is None and parsed.objects and index == 0:
                fronted = (matched[0], len(parsed.objects) - 1)  # ", on top, a red ball"
                index += matched[1]
                continue
            if matched and last is None and index == 1 and words[0] in EACH and parsed.objects:
                last, pending = len(parsed.objects) - 1, Pending()  # "two chairs, one on each side"
            if matched and (last is not None or relation is None):
                kind, used = matched
                if kind == "corner":
                    if last is not None:
                        parsed.relations.append(RelationSpec(last, "corner", -1))
                    index += used
                    continue
                if last is not None:
                    pending.flush_into(parsed.objects[last])
                    pending = Pending()
                    if kind == "stacked_on":
                        parsed.objects[last].stacked, kind = True, "on"
                    relation, relation_end = (last, kind), index + used
                    listed = [i for i in listed if i != last] if kind in SHARED else []
                    if "its" in words[index : index + used]:  # "a lamp on its left": its host's
                        base = host if host is not None and host < last else last - 1
                        parsed.relations.append(RelationSpec(last, kind, max(base, 0)))
                        relation = None
                index += used
                continue
            if phrase and phrase[1] > 1 and self._noun_at(words, index) == phrase:
                # "rubber ducks", "a wooden box": the name's first word may say its material too
                read_attribute(words, index, pending)
                consumed = 0
            else:
                consumed = read_attribute(words, index, pending)
            if consumed:
                index += consumed
                continue
            if word in GROUP_NOUNS and index + 1 < len(words) and words[index + 1] == "of":
                self._arrange(None, pending, GROUP_NOUNS[word])
                index += 2
                continue
            noun = self._noun_at(words, index)
            if noun is not None and names_a_place(words, index, noun[1]):
                index += noun[1] + 1  # "a bike repair shop": the place, not a bike
                continue
            if noun is not None and modifies_next(words, index, noun[1]):
                index += noun[1]  # "a display shelf": a kind of shelf, one object
                continue
            if word in PRONOUNS and noun is None and relation is not None:
                if host is None and carried is not None and relation[1] in ("on", "inside"):
                    host, listed = carried[0], [*carried[1], *listed]
                # "a platform with a vase on it": the target is the object named before; "a table
                # with a vase and a book on it": the one the with-phrase hangs on, for each
                base = host if host is not None and host < relation[0] else relation[0] - 1
                if base >= 0:
                    parsed.relations.append(RelationSpec(relation[0], relation[1], base))
                    if relation[1] in SHARED and host is not None:
                        parsed.relations += [
                            RelationSpec(i, relation[1], base)
                            for i in listed
                            if i not in (relation[0], base)
                        ]
                relation = None
                index += 1
                continue
            if noun is not None:
                key, used = noun
                current = mentioned(parsed, key, words, index, pending)
                if current is None:
                    parsed.objects.append(pending.object(key))
                    current = len(parsed.objects) - 1
                    parsed.objects[current].said = " ".join(words[index : index + used])
                    if self._upload_at(words, index) == noun and self._is_upload(words, index):
                        parsed.objects[current].upload = key
                if fronted is not None and current != fronted[1]:
                    parsed.relations.append(RelationSpec(current, fronted[0], fronted[1]))
                    fronted = None
                if spot_target and parsed.lighting is not None:
                    parsed.lighting.target, spot_target = key, False
                    last, pending = current, Pending()
                    index += used
                    continue
                if between is not None:
                    parsed.relations.append(
                        RelationSpec(between.subject, between.kind, between.target, current)
                    )
                    between = None
                elif relation is not None:
                    if words[index - 1] == "each":  # "a plate on the table in front of each
                        relation = each_owner(parsed, relation)  # chair": one plate per chair
                    if words[index - 1] == "each" and parsed.objects[relation[0]].count == 1:
                        parsed.objects[relation[0]].count = copies(parsed, current)  # one each
                    made = RelationSpec(relation[0], relation[1], current)
                    if relation[1] in ("between", "across") and parsed.objects[current].count < 2:
                        between = made
                    else:
                        parsed.relations.append(made)
                    shared = [i for i in listed if i != current]
                    parsed.relations += [RelationSpec(i, relation[1], current) for i in shared]
                    relation, listed = None, []
                    last, pending = current, Pending()
                    index += used
                    continue
                last, pending = current, Pending()
                listed.append(current)
                index += used
                continue
            if word in ("and", "with") and relation and index == relation_end and relation[0] > 0:
                # "a nightstand on each side and a lamp ...": the side of the thing before
                before = standing_before(parsed, relation[0])
                parsed.relations.append(RelationSpec(*relation, before))
                relation = None
            measured = bool(pending.sizes) and pending.count is None
            if last is not None and (
                (word == "with" and not pending.empty()) or (word == "and" and measured)
            ):  # "a desk 140cm wide with ...", "a desk 2 m long and ...": the desk's size
                pending.flush_into(parsed.objects[last])
                pending = Pending()
            if word == "with":
                listed = []
                host = last
            if one_set_each(parsed, words, index, host, last):
                break
            if word not in FILLER and word not in JOINERS and word not in MARKS:
                if not pending.empty() and word.isalpha() and not _next_is_noun(words, index):
                    self.parsed.unknown.append(word)
                    pending = Pending()
                else:
                    parsed.unparsed.append(word)
            index += 1
        if between is not None:
            parsed.relations.append(between)
        if host is not None and relation is None:
            self.carried = (host, list(listed))
        if relation is not None and relation[0] > 0 and last == relation[0]:
            # "with a bronze sphere on top", "a nightstand on each side": of the thing before
            before = standing_before(parsed, relation[0])
            parsed.relations.append(RelationSpec(relation[0], relation[1], before))
        carrier = last if last is not None else len(parsed.objects) - 1
        if carrier >= 0 and not pending.empty():
            pending.flush_into(parsed.objects[carrier], override=last is None)
        elif not pending.empty() and (pending.colour or pending.material or pending.sizes):
            parsed.unparsed.append(" ".join(words))  # attributes with no object to carry them

    def _noun_at(self, words: list[str], index: int) -> tuple[str, int] | None:
        upload = self._upload_at(words, index)
        if upload is not None and self._is_upload(words, index):
            return upload
        asking = words[index] in vocabulary.MODALS and words[index + 1 : index + 2] in [
            [w] for w in SUBJECTS
        ]  # "can you ...", "can u do ...": a question, not a tin can
        if asking or said_as_verb(words, index):  # "a lamp stands by the sofa": a verb
            return None
        phrase = match_phrase(words, index)
        if phrase is not None:
            self._no_upload(words, index, phrase[1], phrase[0])
            return phrase
        word = words[index]
        if word in KNOWN_WORDS or read_number(words, index) or read_relation(words, index):
            return None
        if light_words.is_light_word(word) or unit_metres(word) is not None:
            return None
        key = match_noun(word)
        if key is None and word.isalpha() and _marked(words, index):
            self._no_upload(words, index, 1, "")
        return None if key is None else (key, 1)

    def _upload_at(self, words: list[str], index: int) -> tuple[str, int] | None:
        """The uploaded mesh named at words[index] (longest name first), with a trailing
        'model' / 'mesh' taken along."""
        for length in range(self.longest, 0, -1):
            phrase = " ".join(words[index : index + length])
            if len(phrase.split(" ")) == length and phrase in self.extra:
                end = index + length
                used = length + (end < len(words) and words[end] in TRAILING)
                return self.extra[phrase], used
        return None

    def _is_upload(self, words: list[str], index: int) -> bool:
        """An upload's name is the upload after "my" / "uploaded", or when the catalogue has no
        such noun (a catalogue noun said plainly stays the catalogue's)."""
        if _marked(words, index):
            return True
        return match_phrase(words, index) is None and words[index] not in KNOWN_WORDS

    def _no_upload(self, words: list[str], index: int, used: int, key: str) -> None:
        """'my X' with no upload named X: said plainly (once per name)."""
        if not _marked(words, index):
            return
        said = " ".join(words[index : index + used])
        known = sorted(set(self.extra.values()))
        uploads = f" (uploads here: {', '.join(known)})" if known else ""
        instead = f", so I used the catalogue {key}" if key else ""
        note = f"there is no uploaded mesh named {said!r} in this workspace{uploads}{instead}"
        if note not in self.parsed.notes:
            self.parsed.notes.append(note)

    def _arrange(self, last: int | None, pending: Pending, kind: str) -> None:
        if last is not None:
            spec = self.parsed.objects[last]
            spec.stacked = spec.stacked or kind == "stacked"
            spec.arrangement = "" if kind == "stacked" else kind
        elif kind == "stacked":
            pending.stacked = True
        else:
            pending.arrangement = kind

    def _pyramid_levels(self, words: list[str]) -> bool:
        """'three on the bottom, then two, then one' after 'a pyramid of crates'."""
        if not self.parsed.objects or self.parsed.objects[-1].arrangement != "pyramid":
            return False
        if any(self._noun_at(words, i) for i in range(len(words)) if words[i] not in PRONOUNS):
            return False
        counts = []
        index = 0
        while index < len(words):
            number = read_number(words, index)
            if number is not None and words[index] not in ("a", "an"):
                counts.append(int(number[0]))
                index += number[1]
            else:
                index += 1
        if not counts:
            return False
        spec = self.parsed.objects[-1]
        spec.levels += counts
        spec.count = sum(spec.levels)
        return True


def _marked(words: list[str], index: int) -> bool:
    """'my duck', 'the uploaded duck', 'my uploaded duck': the person means their upload."""
    before = words[max(0, index - 2) : index]
    return any(word in MARKS for word in before[-1:]) or before[:1] == ["uploaded"]


def _next_is_noun(words: list[str], index: int) -> bool:
    return index + 1 < len(words) and match_phrase(words, index + 1) is not None


__all__ = [
    "GrammarError",
    "LightingSpec",
    "ObjectSpec",
    "ParsedRequest",
    "RelationSpec",
    "parse_colour",
    "parse_request",
    "read_length",
]
