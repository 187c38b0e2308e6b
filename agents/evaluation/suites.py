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


def unknown_checks(suite: Suite) -> list[str]:
    """Checks a suite names that no verifier of its kind answers to, as `task: check`."""
    kinds = evaluation_kinds()
    known = {*GENERIC_VERIFIERS, *kinds[suite.kind].verifier_table()}
    return [
        f"{task.id}: {check.name}"
        for task in suite.tasks
        for check in task.checks
        if check.name not in known
    ]
