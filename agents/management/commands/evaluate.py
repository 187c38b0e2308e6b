"""`manage.py evaluate --suite studio|finance|all`: run task suites and score them.

Every task runs through the normal job path in a fresh workspace (see agents/evaluation);
results are stored (the staff page /evaluations/ shows them) and printed as a table.
`--check-floors` exits non-zero when a suite's pass rate falls below its recorded floor.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.evaluation import SuiteError
from agents.evaluation.environment import environment_report
from agents.evaluation.qc_report import defects, run_qc, write_qc_json
from agents.evaluation.report import progress_line, suite_summary, task_table
from agents.evaluation.session import SuiteResult, evaluate_suite
from agents.evaluation.suites import load_suites, suite_problems
from agents.management.database import require_migrated
from agents.model_settings import MODEL_PLANNER, model_config

MAX_REPEAT = 10


class Command(BaseCommand):
    help = "Run evaluation suites through the job path and print pass rates."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--suite", required=True, help="studio, finance or all")
        parser.add_argument("--policy", default="offline", choices=["offline", MODEL_PLANNER])
        parser.add_argument(
            "--repeat", type=int, default=1, help=f"1..{MAX_REPEAT}; 2+ checks determinism"
        )
        parser.add_argument("--tasks", default="", help="ids or globs, comma-separated; tag:NAME")
        parser.add_argument("--quick", action="store_true", help="only the tasks marked quick (CI)")
        parser.add_argument(
            "--allow-absent-inputs",
            action="store_true",
            help="with --check-floors: a suite whose every task lacks its inputs here is reported "
            "as not checked instead of failing (a machine without ../shared/data)",
        )
        parser.add_argument(
            "--json", dest="json_path", help="write per-task results and pass rates"
        )
        parser.add_argument(
            "--check-floors", action="store_true", help="fail when a pass rate is below its floor"
        )
        parser.add_argument(
            "--qc",
            action="store_true",
            help="run each task's gold, null and wrong solvers through the model path instead; "
            "fail when a verifier passes a null or wrong solver or a gold fails",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["verbosity"] < 2:  # the progress bar and table, not every task's log lines
            logging.disable(logging.INFO)
        try:
            self._evaluate(options)
        finally:
            logging.disable(logging.NOTSET)

    def _evaluate(self, options: dict[str, Any]) -> None:
        require_migrated()
        repeat = options["repeat"]
        if not 1 <= repeat <= MAX_REPEAT:
            raise CommandError(f"--repeat must be between 1 and {MAX_REPEAT}")
        policy, model = options["policy"], ""
        if policy == MODEL_PLANNER:
            config = model_config()
            if config is None:
                raise CommandError("--policy model needs MODEL_BASE_URL and MODEL_NAME to be set")
            model = config.model
        try:
            suites = load_suites(options["suite"])
        except SuiteError as error:
            raise CommandError(str(error)) from error
        for suite in suites:
            problems = suite_problems(suite)
            if problems:
                shown = "; ".join(problems[:5]) + (" ..." if len(problems) > 5 else "")
                raise CommandError(f"suite {suite.name} cannot run: {shown}")
        selection = ",".join(filter(None, [options["tasks"], "quick" if options["quick"] else ""]))
        chosen = [
            (suite, suite.select(options["tasks"], quick=options["quick"])) for suite in suites
        ]
        total = sum(len(tasks) for _, tasks in chosen) * repeat
        if total == 0:
            raise CommandError("no task matches that selection")
        if options["qc"]:
            return self._qc(chosen, options)
        environment = environment_report(
            policy=policy, model=model, kinds=[s.kind for s, _ in chosen]
        )
        done = 0

        def show(record: Any) -> None:
            nonlocal done
            done += 1
            self.stderr.write(progress_line(done, total, record))

        results = [
            evaluate_suite(
                suite,
                tasks,
                policy=policy,
                model=model,
                repeat=repeat,
                selection=selection,
                environment=environment_report(policy=policy, model=model, kinds=[suite.kind]),
                on_record=show,
            )
            for suite, tasks in chosen
            if tasks
        ]
        self._print(results, quick=options["quick"], partial=bool(options["tasks"]))
        if options["json_path"]:
            self._write_json(Path(options["json_path"]), results, environment)
        if options["check_floors"]:
            self._check_floors(
                results,
                quick=options["quick"],
                partial=bool(options["tasks"]),
                absent_ok=options["allow_absent_inputs"],
            )

    def _qc(self, chosen: list[tuple[Any, list[Any]]], options: dict[str, Any]) -> None:
        results = run_qc(chosen, say=self.stdout.write)
        if options["json_path"]:
            try:
                write_qc_json(Path(options["json_path"]), results)
            except OSError as error:
                raise CommandError(f"cannot write {options['json_path']}: {error}") from error
        found = defects(results)
        if found:
            raise CommandError(f"{len(found)} verifier defect(s): " + " | ".join(found[:20]))

    def _print(self, results: list[SuiteResult], *, quick: bool, partial: bool) -> None:
        for result in results:
            self.stdout.write("\n".join(task_table(result.records)))
        self.stdout.write("")
        for result in results:
            floor = None if partial else _floor(result, quick)
            self.stdout.write("\n".join(suite_summary(result, floor=floor)))

    def _write_json(
        self, path: Path, results: list[SuiteResult], environment: dict[str, Any]
    ) -> None:
        document = {
            "environment": environment,
            "suites": {result.suite.name: result.to_dict() for result in results},
            "pass_rate": {result.suite.name: result.summary.pass_rate for result in results},
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(document, indent=2, default=str))
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error}") from error
        self.stdout.write(f"wrote {path}")

    def _check_floors(
        self, results: list[SuiteResult], *, quick: bool, partial: bool, absent_ok: bool
    ) -> None:
        if partial:
            raise CommandError("--check-floors compares whole suites (or --quick), not --tasks")
        below, unchecked = [], []
        for result in results:
            summary, floor = result.summary, _floor(result, quick)
            if floor is None:
                continue
            if summary.skipped and summary.skipped == summary.total:
                unchecked.append(
                    f"{result.suite.name}: floor not checked, all {summary.total} task(s) "
                    "skipped because their inputs are not on this machine"
                )
                continue
            # A skipped task is a task not passed: skipping part of a suite cannot raise its rate.
            rate = summary.passed / summary.total if summary.total else None
            if rate is None or rate + 1e-9 < floor:
                shown = "no task" if rate is None else f"{rate:.1%}"
                skipped = f" ({summary.skipped} skipped count as failed)" if summary.skipped else ""
                below.append(f"{result.suite.name} {shown}{skipped} < floor {floor:.0%}")
        for line in unchecked:
            self.stdout.write(line)
        if below:
            raise CommandError("pass rate below the recorded floor: " + "; ".join(below))
        if unchecked and not absent_ok:
            raise CommandError(
                "no floor could be checked for "
                + ", ".join(u.split(":")[0] for u in unchecked)
                + ": their inputs are absent (pass --allow-absent-inputs where that is expected)"
            )
        self.stdout.write(self.style.SUCCESS("every suite checked is at or above its floor"))
        sys.stdout.flush()


def _floor(result: SuiteResult, quick: bool) -> float | None:
    value = result.suite.floors.get("quick" if quick else "full")
    return float(value) if value is not None else None
