"""The `relation` check: where things are relative to each other.

    {check: relation, relation: on, subject: ball, target: table}
    {check: relation, relation: around, subject: chair, target: table, count: 4}
    {check: relation, relation: stacked, subject: crate, count: 3}
    {check: relation, relation: pyramid, subject: crate, levels: [3, 2, 1]}

Pairwise relations hold when every object answering to `subject` (or `count` of them) stands in
the relation to some object answering to `target`; the score is the share that does.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from agents.evaluation.verdicts import Verdict, VerifierContext
from studio.evaluation import params as p
from studio.evaluation import relations as r
from studio.evaluation.glb_scene import GlbScene, ObjectView
from studio.evaluation.matching import describe, find
from studio.evaluation.result import turn_scene

Pairwise = Callable[[ObjectView, ObjectView], r.Judgement]
PAIRWISE: tuple[str, ...] = ("on", "under", "inside", "above", "beside", "next_to")
PAIRWISE += ("left_of", "right_of", "in_front_of", "behind")
GROUPS = ("stacked", "around", "pyramid")
RELATIONS = PAIRWISE + GROUPS


def relation(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    kind = p.choice(params, "relation", RELATIONS)
    scene = turn_scene(context).scene
    subject = p.names(params, "subject")
    subjects = find(scene, subject)
    if not subjects:
        return Verdict.fail(f"no {describe(subject)} in the scene")
    if kind == "stacked":
        return _stacked(subjects, params)
    if kind == "pyramid":
        return _pyramid(subjects, params)
    targets = _targets(scene, params, subjects)
    if isinstance(targets, Verdict):
        return targets
    if kind == "around":
        return _around(subjects, targets[0], params)
    return _pairwise(kind, subjects, targets, params)


def _targets(
    scene: GlbScene, params: dict[str, Any], subjects: list[ObjectView]
) -> list[ObjectView] | Verdict:
    target = p.names(params, "target")
    chosen = {item.name for item in subjects}
    targets = [item for item in find(scene, target) if item.name not in chosen]
    if not targets:
        return Verdict.fail(f"no {describe(target)} in the scene for the relation")
    return targets


def _predicate(kind: str, params: dict[str, Any]) -> Pairwise:
    tolerance = p.length(params, "tolerance", r.CONTACT_TOLERANCE)
    if kind in ("beside", "next_to"):
        gap = p.length(params, "max_gap") if "max_gap" in params else None
        return lambda a, b: r.beside(a, b, gap)
    if kind in ("left_of", "right_of", "in_front_of", "behind"):
        return lambda a, b: r.side(a, b, kind, tolerance)
    single = {"on": r.rests_on, "under": r.under, "inside": r.inside, "above": r.above}[kind]
    return lambda a, b: single(a, b, tolerance)


def _pairwise(
    kind: str, subjects: list[ObjectView], targets: list[ObjectView], params: dict[str, Any]
) -> Verdict:
    predicate = _predicate(kind, params)
    held: dict[str, str] = {}
    failed: dict[str, str] = {}
    for item in subjects:
        judgements = [predicate(item, target) for target in targets]
        good = [detail for ok, detail in judgements if ok]
        if good:
            held[item.name] = good[0]
        else:
            failed[item.name] = judgements[0][1]
    outputs: dict[str, Any] = {"held": sorted(held), "failed": sorted(failed)}
    need = p.integer(params, "count") or len(subjects)
    if len(held) < need:
        word = kind.replace("_", " ")
        shown = "; ".join(failed.values())
        return Verdict.fail(
            f"{len(held)} of {need} {word}: {shown}", score=len(held) / need, **outputs
        )
    return Verdict.ok(**outputs)


def _stacked(subjects: list[ObjectView], params: dict[str, Any]) -> Verdict:
    count = p.integer(params, "count") or len(subjects)
    stack = r.longest_stack(subjects, p.length(params, "tolerance", r.CONTACT_TOLERANCE))
    outputs: dict[str, Any] = {"stack": stack, "height": len(stack)}
    if len(stack) < max(count, 2):
        return Verdict.fail(
            f"the tallest stack is {len(stack)} high ({', '.join(stack)}), expected {count}",
            score=min(1.0, len(stack) / max(count, 1)) if len(stack) > 1 else 0.0,
            **outputs,
        )
    return Verdict.ok(**outputs)


def _around(subjects: list[ObjectView], centre: ObjectView, params: dict[str, Any]) -> Verdict:
    count = p.integer(params, "count") or len(subjects)
    near, widest = r.surround(subjects, centre, p.length(params, "max_gap", r.AROUND_MAX_GAP))
    outputs: dict[str, Any] = {"near": near, "widest_gap_deg": round(widest, 1)}
    if len(near) < count:
        return Verdict.fail(
            f"{len(near)} of the {len(subjects)} found are near {centre.name}, expected {count}",
            score=len(near) / max(count, 1) / 2,
            **outputs,
        )
    if widest >= 180.0:
        return Verdict.fail(
            f"they do not surround {centre.name}: {widest:.0f} degrees of it stay open",
            score=0.5,
            **outputs,
        )
    return Verdict.ok(**outputs)


def _pyramid(subjects: list[ObjectView], params: dict[str, Any]) -> Verdict:
    wanted = params.get("levels")
    if not isinstance(wanted, list) or not all(isinstance(n, int) and n > 0 for n in wanted):
        raise p.ParamError("'levels' must be a list of counts, bottom level first: [3, 2, 1]")
    tolerance = p.length(params, "tolerance", r.CONTACT_TOLERANCE)
    grouped = r.levels(subjects, tolerance)
    counts = [len(level) for level in grouped]
    outputs: dict[str, Any] = {"levels": counts}
    if counts != wanted:
        return Verdict.fail(f"levels of {counts} bottom-up, expected {wanted}", **outputs)
    by_name = {item.name: item for item in subjects}
    for lower, upper in itertools.pairwise(grouped):
        loose = r.level_rests_on_level(
            [by_name[n] for n in upper], [by_name[n] for n in lower], tolerance
        )
        if loose:
            return Verdict.fail(
                f"{', '.join(loose)} do not rest on the level below", score=0.5, **outputs
            )
    return Verdict.ok(**outputs)
