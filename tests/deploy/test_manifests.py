"""The deployment files parse and name only commands, settings, images and queues that exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from config.queues import AGENTS, QUEUES, STUDIO, route_task

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
APP_IMAGES = ("agentworks:", "registry.example.com/agentworks:")
# Variables the app's processes read that config/settings.py does not: uvicorn's worker count.
KNOWN_SERVICE_VARIABLES = {"WEB_CONCURRENCY"}


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    return data


def k8s_documents() -> list[dict[str, Any]]:
    return [
        document
        for path in sorted((DEPLOY / "k8s").glob("*.yaml"))
        for document in yaml.safe_load_all(path.read_text())
        if document
    ]


def containers(document: dict[str, Any]) -> list[dict[str, Any]]:
    spec = document.get("spec", {})
    template = spec.get("template", spec.get("jobTemplate", {}).get("spec", {}).get("template"))
    return list((template or {}).get("spec", {}).get("containers", []))


def is_app(image: str) -> bool:
    return image.startswith(APP_IMAGES)


def compose_commands() -> list[list[str]]:
    commands = []
    for service in compose()["services"].values():
        if is_app(service.get("image", "")) and "command" in service:
            command = service["command"]
            commands.append(shlex.split(command) if isinstance(command, str) else command)
    return commands


def k8s_commands() -> list[list[str]]:
    return [
        container.get("command", []) + container.get("args", [])
        for document in k8s_documents()
        for container in containers(document)
        if is_app(container["image"])
    ]


def app_commands() -> list[list[str]]:
    """Every command an app container runs, in compose, Kubernetes and the Dockerfile."""
    cmd = re.search(r"^CMD (\[.*?\])\s*$", dockerfile().replace("\\\n", ""), re.M | re.S)
    assert cmd, "the Dockerfile has no CMD"
    return [*compose_commands(), *k8s_commands(), yaml.safe_load(cmd.group(1))]


def dockerfile() -> str:
    return (DEPLOY / "Dockerfile").read_text()


def settings_variables() -> set[str]:
    source = (ROOT / "config" / "settings.py").read_text() + (
        ROOT / "config" / "env.py"
    ).read_text()
    return set(re.findall(r"env_\w+\(\s*\"([A-Z0-9_]+)\"", source))


def test_the_files_parse_and_hold_what_the_deployment_needs():
    services = compose()["services"]
    for name in ("web", "worker-agents", "worker-ingest", "worker-studio", "postgres", "redis",
                 "minio", "minio-init", "vllm", "prometheus", "migrate"):  # fmt: skip
        assert name in services, name
    kinds = {(document["kind"], document["metadata"]["name"]) for document in k8s_documents()}
    for queue in QUEUES:
        assert ("Deployment", f"worker-{queue}") in kinds
        assert ("Service", f"worker-{queue}") in kinds
        assert ("HorizontalPodAutoscaler", f"worker-{queue}") in kinds
    for expected in [
        ("Deployment", "web"),
        ("Service", "web"),
        ("ConfigMap", "agentworks-config"),
        ("Secret", "agentworks-secrets"),
        ("Deployment", "vllm"),
        ("Service", "vllm"),
    ]:
        assert expected in kinds


def test_every_manage_py_command_exists():
    from django.core.management import get_commands

    named = [
        command[command.index("manage.py") + 1]
        for command in app_commands()
        if "manage.py" in command
    ]
    assert named, "no manage.py command found (migrate must run somewhere)"
    for name in named:
        assert name in get_commands(), f"`manage.py {name}` does not exist"
    assert "collectstatic" in dockerfile()


def test_every_celery_queue_consumed_is_routed_and_every_routed_queue_is_consumed():
    for where, commands in [
        ("compose", compose_commands()),
        ("k8s", k8s_commands()),
    ]:
        consumed = set()
        for command in commands:
            if "celery" in command[:1] and "worker" in command:
                consumed.update(command[command.index("-Q") + 1].split(","))
        assert consumed == set(QUEUES), f"{where}: workers consume {consumed}, routes use {QUEUES}"


def test_every_task_goes_to_a_queue_a_worker_consumes():
    from config.celery import app

    app.autodiscover_tasks(force=True)
    names = [name for name in app.tasks if not name.startswith("celery.")]
    assert "agents.advance_run" in names and "finance.ingest_document" in names
    for name in names:
        route = route_task(name, (), {}, {})
        assert (route or {"queue": AGENTS})["queue"] in QUEUES, name
    assert route_task("finance.ingest_document", (1,), {}, {}) == {"queue": "ingest"}


@pytest.mark.django_db
def test_studio_runs_go_to_the_studio_queue_and_finance_runs_to_agents(alice, make_workspace):
    from agents.models import Run

    studio = Run.objects.create(workspace=make_workspace(alice, kind="studio"), prompt="a cube")
    finance = Run.objects.create(workspace=make_workspace(alice, kind="finance"), prompt="AAPL")
    assert route_task("agents.advance_run", (studio.pk,), {}, {}) == {"queue": STUDIO}
    assert route_task("agents.advance_run", (finance.pk,), {}, {}) == {"queue": AGENTS}
    assert route_task("agents.cancel_run", (studio.pk,), {}, {}) == {"queue": AGENTS}


def test_every_variable_the_app_is_given_is_read_by_the_settings():
    known = settings_variables() | KNOWN_SERVICE_VARIABLES
    given: dict[str, set[str]] = {}
    for name, service in compose()["services"].items():
        if is_app(service.get("image", "")):
            given[f"compose {name}"] = set(service.get("environment", {}))
    for document in k8s_documents():
        if document["kind"] in ("ConfigMap", "Secret"):
            given[document["metadata"]["name"]] = set(
                document.get("data", {}) | document.get("stringData", {})
            )
        for container in containers(document):
            if is_app(container["image"]):
                given[document["metadata"]["name"]] = {
                    item["name"] for item in container.get("env", [])
                }
    assert given
    for where, variables in given.items():
        assert variables <= known, f"{where} sets {sorted(variables - known)}, which nothing reads"


def test_allowed_hosts_never_allow_every_host():
    for service in compose()["services"].values():
        assert "*" not in str(service.get("environment", {}).get("ALLOWED_HOSTS", ""))
    for document in k8s_documents():
        if document["kind"] == "ConfigMap":
            assert "*" not in document["data"]["ALLOWED_HOSTS"]


def test_every_image_is_pinned():
    images = [service["image"] for service in compose()["services"].values() if "image" in service]
    images += [c["image"] for document in k8s_documents() for c in containers(document)]
    images += re.findall(r"^FROM\s+(\S+)", dockerfile(), re.M)
    assert len(images) > 10
    for image in images:
        name, _, tag = image.rpartition(":")
        assert name and tag and "/" not in tag, f"{image} has no tag"
        assert tag != "latest", f"{image} is not pinned"
        assert "${" not in image or ":-" in image, image


def test_compose_builds_its_image_and_keeps_the_data_in_volumes():
    data = compose()
    services = data["services"]
    for name, service in services.items():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            assert source not in ("..", ".", "../"), f"{name} bind-mounts the checkout"
        long_running = service.get("restart") != "no"
        assert not long_running or "healthcheck" in service, f"{name} has no health check"
    assert services["web"]["build"]["dockerfile"] == "deploy/Dockerfile"
    assert "postgres-data:/var/lib/postgresql/data" in services["postgres"]["volumes"]
    assert set(data["volumes"]) >= {"postgres-data", "minio-data", "redis-data"}
    assert services["vllm"]["profiles"] == ["gpu"]
    assert "/readyz" in str(services["web"]["healthcheck"]["test"])
    mounted = services["prometheus"]["volumes"][0].split(":")[0]
    assert (DEPLOY / mounted).is_file()
    bucket = services["web"]["environment"]["STORAGE_BUCKET"]
    assert f"local/{bucket}" in str(services["minio-init"]["entrypoint"])


def test_web_pods_are_probed_on_healthz_and_readyz():
    (web,) = [
        d for d in k8s_documents() if (d["kind"], d["metadata"]["name"]) == ("Deployment", "web")
    ]
    (container,) = containers(web)
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    for document in k8s_documents():
        if document["kind"] == "HorizontalPodAutoscaler":
            assert document["spec"]["scaleTargetRef"]["name"] == document["metadata"]["name"]


def test_the_image_can_render_and_runs_as_an_unprivileged_user():
    text = dockerfile()
    install = re.search(r"apt-get install[^&]*", text)
    assert install
    packages = set(install.group(0).replace("\\", " ").split())
    assert {"libosmesa6", "libgl1", "bubblewrap"} <= packages
    assert "PYOPENGL_PLATFORM=osmesa" in text
    assert "uv sync --frozen --no-dev" in text
    assert re.search(r"^FROM python:3\.11\.\d+-slim-bookworm$", text, re.M)
    user = re.findall(r"^USER\s+(\S+)", text, re.M)
    assert user and user[-1] not in ("root", "0")


def test_the_shipped_web_servers_carry_the_run_commands_connection_bounds():
    import importlib.util

    spec = importlib.util.spec_from_file_location("dev_runner", DEPLOY / "dev.py")
    assert spec and spec.loader
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    web = next(
        container["command"]
        for document in k8s_documents()
        for container in containers(document)
        if container["name"] == "web"
    )
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    cmd = re.search(r"^CMD \[(.*?)\]", dockerfile, re.S | re.M)
    assert cmd is not None, "the Dockerfile has no CMD"
    image = shlex.split(cmd[1].replace("\\\n", ""))
    image = [word.rstrip(",") for word in image]
    for flag, default in dev.SERVER_LIMITS.values():
        if flag.startswith("--h11"):
            continue  # the h11 parser only: the images serve with httptools
        for command in (web, image):
            assert flag in command, (flag, command)
            assert command[command.index(flag) + 1] == default, (flag, command)
