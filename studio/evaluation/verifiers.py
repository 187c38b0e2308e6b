"""The studio's verifiers by name, with the parameters each takes.

Every verifier checks its parameters before it looks at the scene (`parameter_problems`, which
the suite tests also run on every check of the suite), and a scene that cannot be read becomes
a failed verdict with the reason, never an exception in the harness.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from agents.evaluation.verdicts import Verdict, Verifier, VerifierContext
from studio.evaluation import checks_objects, checks_relations, checks_report, checks_scene
from studio.evaluation import params as p
from studio.evaluation.colours import accepted_families
from studio.evaluation.materials import bounds_for
from studio.evaluation.result import ResultUnavailable

Validate = Callable[[Mapping[str, Any]], None]


@dataclass(frozen=True)
class StudioVerifier:
    function: Verifier
    spec: p.ParamSpec
    validate: Validate | None = None


def _size(params: Mapping[str, Any]) -> None:
    p.choice(params, "axis", checks_objects.AXES)
    for key in ("value", "tolerance", "min", "max"):
        if key in params:
            p.parse_length(params[key], key)


def _color(params: Mapping[str, Any]) -> None:
    p.names(params)
    for word in p.names(params, "color"):
        try:
            accepted_families(word)
        except KeyError:
            raise p.ParamError(f"'color' has a word with no colour family: {word!r}") from None


def _material(params: Mapping[str, Any]) -> None:
    if "like" in params:
        try:
            bounds_for(str(params["like"]))
        except KeyError:
            raise p.ParamError(f"'like' is not a material word: {params['like']!r}") from None
    for key in params:
        if key.endswith(("_min", "_max")):
            p.number(params, key)


def _relation(params: Mapping[str, Any]) -> None:
    kind = p.choice(params, "relation", checks_relations.RELATIONS)
    p.names(params, "subject")
    if kind not in ("stacked", "pyramid"):
        p.names(params, "target")
    if kind == "pyramid":
        levels = params.get("levels")
        if not isinstance(levels, list) or not all(isinstance(n, int) and n > 0 for n in levels):
            raise p.ParamError("'levels' must be a list of counts, bottom level first: [3, 2, 1]")
    for key in ("tolerance", "max_gap"):
        if key in params:
            p.parse_length(params[key], key)
    p.integer(params, "count")


def _lights(params: Mapping[str, Any]) -> None:
    for kind in p.words(params, "types"):
        if kind not in checks_scene.LIGHT_KINDS:
            raise p.ParamError(f"'types' must name {', '.join(checks_scene.LIGHT_KINDS)}")
    if "temperature" in params:
        p.choice(params, "temperature", checks_scene.TEMPERATURES)
    if "direction" in params:
        p.choice(params, "direction", checks_scene.DIRECTIONS)
    p.integer(params, "min_count")


def _count(params: Mapping[str, Any]) -> None:
    p.names(params)
    for key in ("count", "min", "max"):
        p.integer(params, key)


def _min_objects(params: Mapping[str, Any]) -> None:
    p.integer(params, "min_objects")


def _size_change(params: Mapping[str, Any]) -> None:
    p.names(params)
    p.choice(params, "axis", checks_objects.AXES)
    for key in ("factor", "tolerance", "at_least", "at_most"):
        if key in params:
            p.number(params, key)


def _unchanged(params: Mapping[str, Any]) -> None:
    p.words(params, "names")
    p.words(params, "except")
    p.length(params, "tolerance", 0.0)


MATERIAL_FACTORS = tuple(
    f"{factor}_{end}" for factor in ("metallic", "roughness", "opacity") for end in ("min", "max")
)
TABLE: dict[str, StudioVerifier] = {
    "scene_nonempty": StudioVerifier(
        checks_objects.scene_nonempty,
        p.ParamSpec(optional=("min_objects",)),
        _min_objects,
    ),
    "object_count": StudioVerifier(
        checks_objects.object_count,
        p.ParamSpec(("name",), ("count", "min", "max"), (("count", "min", "max"),)),
        _count,
    ),
    "size": StudioVerifier(
        checks_objects.size,
        p.ParamSpec(
            ("name", "axis"), ("value", "tolerance", "min", "max"), (("value", "min", "max"),)
        ),
        _size,
    ),
    "size_change": StudioVerifier(
        checks_objects.size_change,
        p.ParamSpec(
            ("name", "axis"),
            ("factor", "tolerance", "at_least", "at_most"),
            (("factor", "at_least", "at_most"),),
        ),
        _size_change,
    ),
    "color": StudioVerifier(checks_objects.color, p.ParamSpec(("name", "color")), _color),
    "material": StudioVerifier(
        checks_objects.material,
        p.ParamSpec(("name",), ("like", *MATERIAL_FACTORS), (("like", *MATERIAL_FACTORS),)),
        _material,
    ),
    "relation": StudioVerifier(
        checks_relations.relation,
        p.ParamSpec(("relation", "subject"), ("target", "count", "levels", "tolerance", "max_gap")),
        _relation,
    ),
    "lights": StudioVerifier(
        checks_scene.lights,
        p.ParamSpec(
            optional=("types", "min_count", "temperature", "direction"),
            one_of=(("types", "min_count", "temperature", "direction"),),
        ),
        _lights,
    ),
    "physics_pass": StudioVerifier(checks_scene.physics_pass, p.ParamSpec(optional=("checks",))),
    "round_warns": StudioVerifier(checks_report.round_warns, p.ParamSpec(("about",), ("check",))),
    "round_fails": StudioVerifier(checks_report.round_fails, p.ParamSpec(("checks",))),
    "unchanged": StudioVerifier(
        checks_scene.unchanged,
        p.ParamSpec(optional=("names", "except", "tolerance")),
        _unchanged,
    ),
}


def parameter_problems(name: str, params: Mapping[str, Any]) -> list[str]:
    """What is wrong with a check's parameters (empty when the check can run)."""
    entry = TABLE.get(name)
    if entry is None:
        return [f"no studio verifier named {name!r}"]
    problems = entry.spec.problems(params)
    if not problems and entry.validate is not None:
        try:
            entry.validate(params)
        except p.ParamError as error:
            problems.append(str(error))
    return problems


def verifier_table() -> dict[str, Verifier]:
    """Every studio verifier by name, each checking its parameters first."""
    return {name: _judged(name, entry.function) for name, entry in TABLE.items()}


def _judged(name: str, function: Verifier) -> Verifier:
    def verify(context: VerifierContext, params: dict[str, Any]) -> Verdict:
        problems = parameter_problems(name, params)
        if problems:
            return Verdict.fail(f"{name}: bad check parameters: {'; '.join(problems)}")
        try:
            return function(context, params)
        except p.ParamError as error:
            return Verdict.fail(f"{name}: bad check parameters: {error}")
        except ResultUnavailable as error:
            return Verdict.fail(str(error))

    verify.__name__ = verify.__qualname__ = name
    verify.__doc__ = function.__doc__
    return verify
