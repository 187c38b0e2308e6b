"""Pages: the workspace list and a workspace's chat with its live step timeline."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from agents import selectors
from agents.forms import RunForm, WorkspaceForm
from agents.model_status import policy_status
from agents.models import Run, Workspace
from agents.services.options import OptionsError
from agents.services.quotas import QuotaExceeded
from agents.services.runs import RunInputError, run_cancel, run_create
from agents.services.workspaces import workspace_create

RECENT_RUNS = 50  # the runs listed beside the chat


@login_required
def workspace_list(request: HttpRequest) -> HttpResponse:
    form = WorkspaceForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        workspace = workspace_create(owner=request.user, **form.cleaned_data)  # type: ignore[arg-type]
        return redirect("workspace-detail", workspace_id=workspace.pk)
    workspaces = selectors.workspace_list(user=request.user)
    return render(request, "agents/workspace_list.html", {"form": form, "workspaces": workspaces})


def _workspace_or_404(request: HttpRequest, workspace_id: int) -> Workspace:
    workspace = selectors.workspace_list(user=request.user).filter(pk=workspace_id).first()
    if workspace is None:
        raise Http404("No such workspace.")
    return workspace


def _wants_json(request: HttpRequest) -> bool:
    """The page's script sends the chat form with fetch and asks for JSON; a plain form, HTML."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def _run_url(run: Run) -> str:
    return f"{reverse('workspace-detail', args=[run.workspace_id])}?run={run.pk}"


def _recent_runs(request: HttpRequest, workspace: Workspace) -> QuerySet[Run]:
    return selectors.run_list(user=request.user).filter(workspace=workspace)[:RECENT_RUNS]


def _run_started(request: HttpRequest, run: Run) -> JsonResponse:
    """The new run's panel and the refreshed run list, for the page to show without a reload."""
    context = {"runs": _recent_runs(request, run.workspace), "selected": run}
    return JsonResponse(
        {
            "run": run.pk,
            "url": _run_url(run),
            "run_html": render_to_string("agents/_run.html", context, request),
            "runs_html": render_to_string("agents/_run_list.html", context, request),
        },
        status=201,
    )


@login_required
def workspace_detail(request: HttpRequest, workspace_id: int) -> HttpResponse:
    workspace = _workspace_or_404(request, workspace_id)
    form = RunForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            run = run_create(workspace=workspace, prompt=form.cleaned_data["prompt"])
        except (RunInputError, OptionsError) as error:
            form.add_error("prompt", str(error))
        except QuotaExceeded as error:
            form.add_error(None, str(error))
            status = error.status
        else:
            if _wants_json(request):
                return _run_started(request, run)
            return redirect(_run_url(run))
    if request.method == "POST" and _wants_json(request):
        errors = {field: list(texts) for field, texts in form.errors.items()}
        return JsonResponse({"errors": errors}, status=400 if status == 200 else status)
    runs = _recent_runs(request, workspace)
    selected = None
    wanted = request.GET.get("run", "")
    if wanted.isascii() and wanted.isdigit():
        selected = Run.objects.filter(workspace=workspace, pk=int(wanted)).first()
    elif runs:
        selected = runs[0]
    context = {
        "workspace": workspace,
        "form": form,
        "runs": runs,
        "selected": selected,
        "policy": policy_status(workspace),
    }
    return render(request, "agents/workspace_detail.html", context, status=status)


@login_required
@require_POST
def run_cancel_view(request: HttpRequest, run_id: int) -> HttpResponse:
    run = selectors.run_get(user=request.user, run_id=run_id)
    if run is None:
        raise Http404("No such run.")
    run_cancel(run=run)
    messages.info(request, f"Run {run.pk}: cancel requested.")
    return redirect(_run_url(run))
