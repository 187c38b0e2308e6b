"""`manage.py create_scene "PROMPT" --out DIR [--rounds N] [--workspace ID]`: studio, offline.

Each call starts a new scene in a new studio workspace; `--workspace ID` continues that studio
workspace's conversation instead, so PROMPT edits its scene as a follow-up chat message would.
Runs the agent (the offline planner unless a model server is configured) with its refinement
rounds in this process, printing each step and the workspace id, and writes DIR/scene.glb,
DIR/render.png and DIR/report.json. Exits 0 only when the run succeeded and its last round passed
every check.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from agents.management.database import require_migrated
from agents.models import Event, Run, Workspace
from agents.services.driving import RunDidNotFinish, run_drive
from agents.services.options import MAX_ROUNDS, OptionsError
from agents.services.quotas import QuotaExceeded
from agents.services.runs import RunInputError, run_create
from agents.services.workspaces import workspace_create
from studio.exports import mesh_resolver
from studio.models import SceneRevision
from studio.scene.export import scene_to_glb
from studio.scene.geometry import object_matrix, object_mesh
from studio.scene.model import scene_from_dict

CLI_USER = "studio-cli"
NAME_CHARS = 80  # a workspace named after its first prompt, shortened to fit a list


class Command(BaseCommand):
    help = "Build a scene from a description with refinement rounds; write GLB, PNG and report."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("prompt")
        parser.add_argument("--out", required=True, help="Folder for scene.glb, render.png, ...")
        parser.add_argument("--rounds", type=int, default=4, help=f"1..{MAX_ROUNDS} (default 4)")
        parser.add_argument(
            "--workspace",
            metavar="ID",
            help="Continue this studio workspace's scene (default: start a new scene)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        require_migrated()
        out = Path(options["out"])
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(f"cannot create {out}: {error}") from error
        run = self._start(options["prompt"], options["rounds"], options["workspace"])
        self._follow(run)
        run.refresh_from_db()
        revisions = list(SceneRevision.objects.filter(run=run).order_by("number"))
        report = _report(run, revisions)
        if revisions:
            self._write_files(out, run.workspace, revisions[-1])
        (out / "report.json").write_text(json.dumps(report, indent=2, default=str))
        self.stdout.write(f"wrote {out / 'report.json'}")
        self.stdout.write(f"continue this scene with --workspace {run.workspace_id}")
        if report["status"] != "succeeded":
            raise CommandError(f"the scene did not pass: {run.message or run.status}")
        self.stdout.write(self.style.SUCCESS("every check passed"))

    def _start(self, prompt: str, rounds: int, workspace_id: object) -> Run:
        try:
            # One transaction: a prompt or option that is refused leaves no empty new workspace.
            with transaction.atomic():
                if workspace_id is None:
                    workspace, how = _new_workspace(prompt), "new"
                else:
                    workspace, how = _existing_workspace(workspace_id), "continued"
                run = run_create(workspace=workspace, prompt=prompt, options={"rounds": rounds})
        except (RunInputError, OptionsError, QuotaExceeded) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"workspace {workspace.pk} ({how}): {workspace.name}")
        return run

    def _follow(self, run: Run) -> None:
        seen = 0

        def show_new_events() -> None:
            nonlocal seen
            for event in Event.objects.filter(run=run, seq__gt=seen).order_by("seq"):
                seen = event.seq
                line = _describe(event)
                if line:
                    self.stdout.write(line)

        owner = f"create-scene:{uuid.uuid4().hex[:8]}"
        try:
            run_drive(run_id=run.pk, owner=owner, max_units=1, on_slice=show_new_events)
        except RunDidNotFinish as error:
            raise CommandError(str(error)) from error

    def _write_files(self, out: Path, workspace: Workspace, revision: SceneRevision) -> None:
        from studio.rendering.renderer import render
        from studio.rendering.result import png

        scene = scene_from_dict(revision.scene)
        resolve = mesh_resolver(workspace)
        (out / "scene.glb").write_bytes(scene_to_glb(scene, resolve_mesh=resolve))
        image = render(
            scene,
            mesh_for=lambda obj: (
                object_mesh(obj, resolve_mesh=resolve),
                object_matrix(obj.transform),
            ),
        )
        (out / "render.png").write_bytes(png(image))
        self.stdout.write(f"wrote {out / 'scene.glb'} and {out / 'render.png'}")


def _new_workspace(prompt: str) -> Workspace:
    user, created = User.objects.get_or_create(username=CLI_USER)
    if created:
        user.set_unusable_password()
        user.save()
    name = " ".join(prompt.split())
    if len(name) > NAME_CHARS:
        name = name[: NAME_CHARS - 1].rstrip() + "…"
    return workspace_create(owner=user, name=name or "Command line", kind=Workspace.Kind.STUDIO)


def _existing_workspace(workspace_id: object) -> Workspace:
    try:
        pk = int(str(workspace_id).strip())
    except ValueError:
        raise CommandError(
            f"--workspace takes a workspace id (a whole number), not {workspace_id!r}"
        ) from None
    workspace = Workspace.objects.filter(pk=pk).first()
    if workspace is None:
        raise CommandError(f"there is no workspace {pk}")
    if workspace.kind != Workspace.Kind.STUDIO:
        raise CommandError(
            f"workspace {pk} ({workspace.name!r}) is a {workspace.kind} workspace, "
            "not a studio one: only a studio workspace has a scene to continue"
        )
    return workspace


def _describe(event: Event) -> str:
    payload = event.payload
    if event.type == "tool.call":
        return f"  -> {payload['name']}({json.dumps(payload['arguments'])[:100]})"
    if event.type == "round.completed":
        failed = [name for name, check in payload["checks"].items() if not check["passed"]]
        verdict = "all checks pass" if not failed else "failing: " + ", ".join(failed)
        return f"round {payload['round']}: {verdict}"
    if event.type == "model.message" and payload.get("final"):
        return str(payload["text"])
    if event.type in ("run.failed", "run.finished") and payload.get("status") != "succeeded":
        return f"run {payload.get('status')}: {payload.get('message')}"
    return ""


def _report(run: Run, revisions: list[SceneRevision]) -> dict[str, Any]:
    rounds = [
        {key: value for key, value in revision.report.items() if key != "reports"}
        | {"revision": revision.number}
        for revision in revisions
    ]
    last = rounds[-1] if rounds else {}
    passed = bool(last.get("passed"))
    checks = {
        name: {"passed": check["passed"], "value": check["value"]}
        for name, check in last.get("checks", {}).items()
    }
    return {
        "status": "succeeded" if run.status == Run.Status.SUCCEEDED and passed else "failed",
        "workspace": run.workspace_id,
        "run": {"id": run.pk, "status": run.status, "message": run.message},
        "rounds": rounds,
        "checks": checks,
    }
