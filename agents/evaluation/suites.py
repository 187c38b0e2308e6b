"""The suites the registered workspace kinds bring, by name."""

from __future__ import annotations

from agents.evaluation.generic import GENERIC_VERIFIERS
from agents.evaluation.kinds import evaluation_kinds
from agents.evaluation.spec import Suite, SuiteError, load_suite


def suite_names() -> list[str]:
    return sorted(name for kind in evaluation_kinds().values() for name in kind.suites)


def load_suites(name: str) -> list[Suite]:
    """The suite called `name`, or every suite for `all`; raise SuiteError for an unknown one."""
    found = []
    for kind in evaluation_kinds().values():
        for suite_name, path in kind.suites.items():
            if name in ("all", suite_name):
                found.append(load_suite(suite_name, kind.key, path))
    if not found:
        raise SuiteError(f"no suite {name!r}; choose one of {['all', *suite_names()]}")
    return sorted(found, key=lambda suite: suite.name)


def suite_problems(suite: Suite) -> list[str]:
    """Checks no verifier of the suite's kind answers to, or whose parameters are wrong."""
    kind = evaluation_kinds()[suite.kind]
    known = {*GENERIC_VERIFIERS, *kind.verifier_table()}
    problems = []
    for task in suite.tasks:
        for check in task.checks:
            if check.name not in known:
                problems.append(f"{task.id}: no verifier named {check.name!r}")
            elif check.name not in GENERIC_VERIFIERS:
                problems += [
                    f"{task.id}: {check.name}: {why}"
                    for why in kind.check_params(check.name, dict(check.params))
                ]
    return problems
