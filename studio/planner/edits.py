"""A follow-up request in a workspace that has a scene, turned into edits of that scene.

`plan_edits` reads the request against the scene summary the run starts with and returns the tool
calls that make the change (each one visible in the trajectory), a direct answer for a question,
or a request to build from scratch when (and only when) the person asked to start over. Objects
the request does not mention are never in a call, so they keep their name, size, material and
place.

This module puts the plan together; the reading is done by its neighbours: edit_verbs (what kind
of edit), edit_tables (counts, units, size and lighting words), edit_mentions (which words name
objects), edit_objects (adding, copying, removing, stacking), edit_counts (how many of a kind),
edit_other ('no, the other one'), edit_moves (moves and turns), edit_sizes (resizes) and
edit_styles (colour, material, lighting). The calls and the plan they make up are in edit_plan.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from studio.planner.edit_counts import recount, set_count
from studio.planner.edit_each import one_each
from studio.planner.edit_mentions import Mention, read_mentions, spelled
from studio.planner.edit_moves import move, rotate, swap_places
from studio.planner.edit_objects import (
    each_side,
    edit_targets,
    no_object,
    remove,
    stack,
    swap,
)
from studio.planner.edit_other import other_one
from studio.planner.edit_plan import Call, EditPlan
from studio.planner.edit_sizes import metric_lengths, resize
from studio.planner.edit_styles import relight, restyle, spotlight, swap_looks
from studio.planner.edit_unknown import unknown_spans, without_spans
from studio.planner.edit_verbs import (
    EACH_SIDE,
    EDIT_VERBS,
    ORDINALS,
    QUESTION_START,
    REMOVE,
    REVISION_NUMBER,
    REVISION_ORDINAL,
    STACK,
    START_OVER,
    SWAP,
    UNDO,
    words_of,
)
from studio.planner.numbers import parse_count
from studio.planner.paraphrases import plain_text
from studio.planner.references import Scope, extra_nouns, is_upload, noun_key, scope_for


def plan_edits(
    request: str,
    state: dict[str, Any],
    previous_requests: list[str],
    uploads: Mapping[str, str] | None = None,
) -> EditPlan:
    """The edits a follow-up request asks for on the scene described by `state`; `uploads` maps
    the workspace's uploaded meshes' word forms to their nouns ("bunnies" -> "bunny")."""
    with extra_nouns(uploads or {}):
        return _plan_edits(request, state, previous_requests)


def _plan_edits(request: str, state: dict[str, Any], previous_requests: list[str]) -> EditPlan:
    text = metric_lengths(" ".join(plain_text(request).lower().split()))
    if over := START_OVER.search(text):
        rest = (text[: over.start()] + " " + text[over.end() :]).strip(" ,:;.-!")
        rest = re.sub(r"^(?:(?:and|with|now|then|ok|okay|please|let's|lets)\b[\s,:]*)+", "", rest)
        if rest.strip():
            return EditPlan(rebuild=rest.strip())
        names = [item["name"] for item in state.get("objects", [])]
        cleared = [Call("delete_object", {"name": name}, f"removed {name}") for name in names]
        return EditPlan(cleared, ["Say what the new scene should have and I will build it"])
    scope = scope_for(
        state.get("objects", []),
        previous_requests=previous_requests,
        user_edits=state.get("user_edits", []),
        request=text,
    )
    if UNDO.search(text) and not REMOVE.search(text):
        return _undo(text, state)
    if other := other_one(text, state, previous_requests, scope, _undo_call(state), _plan_edits):
        return other
    words = spelled(words_of(text), scope)
    unknown = unknown_spans(words, scope)
    words = without_spans(words, unknown)  # "add a metal lathe": 'metal' is the lathe's
    if QUESTION_START.search(text) and text.rstrip().endswith("?") and not EDIT_VERBS.search(text):
        return EditPlan(answer=_describe(scope, read_mentions(words, scope)))
    plan = EditPlan()
    mentions = read_mentions(words, scope)
    relight(words, plan)
    if spotlight(words, mentions, scope, plan):
        return plan
    if SWAP.search(text) and swap_looks(words, mentions, scope, plan):
        return plan
    if SWAP.search(text) and any(m.new for m in mentions) and any(m.names for m in mentions):
        swap(words, mentions, scope, plan)
        return plan
    if SWAP.search(text) and swap_places(mentions, scope, plan):
        return plan
    if REMOVE.search(text) or no_object(words, scope):
        remove(text, mentions, scope, plan)
        return plan
    if one_each(text, scope, plan):  # "a chair at each desk"
        return plan
    if EACH_SIDE.search(text):
        each_side(words, mentions, scope, plan)
        return plan
    if set_count(words, scope, plan):
        return plan
    targets = edit_targets(words, mentions, scope, plan)
    if STACK.search(text):
        stack(targets or scope.focus, plan)
        return plan
    recount(text, words, scope, plan)
    rotate(text, words, mentions, targets, scope, plan)
    move(text, words, mentions, targets, scope, plan)
    resize(text, words, targets, scope, plan)
    restyle(words, mentions, targets, scope, plan)
    _missing_uploads(words, scope, plan)
    for *_, word in unknown:  # said plainly, never silently dropped
        plan.notes.append(f"I do not know what a {word} is, so I did not add one")
    return plan


def _missing_uploads(words: list[str], scope: Scope, plan: EditPlan) -> None:
    """'my teapot' where no teapot was uploaded (nor is one in the scene): said plainly."""
    for before, word in itertools.pairwise(words):
        if before not in ("my", "uploaded") or not word.isalpha() or is_upload(word):
            continue
        if noun_key(word) or word in scope.names() or scope.of_kind(word):
            continue
        plan.notes.append(f"there is no uploaded mesh named {word!r} in this workspace")


# --- undo, questions ------------------------------------------------------------------------


def _undo(text: str, state: dict[str, Any]) -> EditPlan:
    revisions = state.get("revisions", [])
    number = REVISION_NUMBER.search(text)
    if number:
        wanted = int(number.group(1))
        return EditPlan(
            calls=[Call("revert_scene", {"revision": wanted}, f"went back to revision {wanted}")]
        )
    if not revisions:
        return EditPlan(answer="There is no earlier revision to go back to.")
    ordinal = REVISION_ORDINAL.search(text)
    if ordinal:
        said = ordinal.group(1) or ordinal.group(2) or "first"
        return _back_to_request(ORDINALS.get(said, 1), revisions)
    steps = STEPS_BACK.search(text)
    count = parse_count(steps.group(1)) if steps else None
    if count is not None and count > 1:  # "go back two steps", "undo the last 3 changes"
        return _steps_back(int(count), revisions)
    call = _undo_call(state)
    if call is None:
        return EditPlan(answer="There is no earlier revision to go back to in the recent history.")
    return EditPlan(calls=[call])


STEPS_BACK = re.compile(
    r"\b(?:back|undo|revert)\s+(?:the\s+)?(?:last\s+)?(\w+)\s+(?:steps?|changes?|edits?|times?)\b"
)


def _steps_back(count: int, revisions: list[dict[str, Any]]) -> EditPlan:
    """The scene as it was `count` requests ago (each run's revisions are one step)."""
    ordered = sorted(revisions, key=lambda r: r["number"])
    steps: list[list[dict[str, Any]]] = []
    for revision in ordered:
        run = revision.get("run")
        if steps and run is not None and steps[-1][-1].get("run") == run:
            steps[-1].append(revision)
        else:
            steps.append([revision])
    if count >= len(steps):
        return EditPlan(answer=f"There are only {len(steps) - 1} steps to go back.")
    wanted = steps[-1 - count][-1]["number"]
    says = f"went back {count} steps (to revision {wanted})"
    return EditPlan(calls=[Call("revert_scene", {"revision": wanted}, says)])


def _undo_call(state: dict[str, Any]) -> Call | None:
    """The call that undoes the last request's change (None when there is nothing before it)."""
    revisions = state.get("revisions", [])
    if not revisions:
        return None
    latest = revisions[-1]
    if latest.get("run") is None:
        earlier = [r for r in revisions if r["number"] < latest["number"]]
    else:
        earlier = [r for r in revisions if r.get("run") != latest.get("run")]
    if not earlier:
        return None
    wanted = earlier[-1]["number"]
    return Call(
        "revert_scene", {"revision": wanted}, f"undid the last change (back to revision {wanted})"
    )


def _back_to_request(place: int, revisions: list[dict[str, Any]]) -> EditPlan:
    """The scene as the `place`-th request (1: the first) left it: the last revision of that
    request's run (a revision with no run, a person's own edit, counts as a request of its own)."""
    ordered = sorted(revisions, key=lambda r: r["number"])
    if ordered[0]["number"] > 1:  # the history here starts later: count from revision 1
        wanted = place
        return EditPlan(
            calls=[Call("revert_scene", {"revision": wanted}, f"went back to revision {wanted}")]
        )
    groups: list[list[dict[str, Any]]] = []
    for revision in ordered:
        run = revision.get("run")
        if groups and run is not None and groups[-1][-1].get("run") == run:
            groups[-1].append(revision)
        else:
            groups.append([revision])
    if place > len(groups):
        return EditPlan(answer=f"There are only {len(groups)} versions to go back to.")
    wanted = groups[place - 1][-1]["number"]
    return EditPlan(
        calls=[Call("revert_scene", {"revision": wanted}, f"went back to revision {wanted}")]
    )


def _describe(scope: Scope, mentions: list[Mention]) -> str:
    names = [n for m in mentions for n in m.names] or scope.focus
    parts = []
    for name in dict.fromkeys(names):
        item = scope.get(name)
        width, height, depth = item["size"]
        parts.append(
            f"{name} is {height:.2f} m tall, {width:.2f} m wide and {depth:.2f} m deep "
            f"({item.get('material', '')})"
        )
    return ("; ".join(parts) or "The scene is empty") + ". Nothing was changed."
