from django import forms
from django.contrib import admin

from agents.models import (
    Artifact,
    EvaluationRun,
    Event,
    Run,
    RunFeedback,
    TaskResult,
    Workspace,
)


class WorkspaceAdminForm(forms.ModelForm[Workspace]):
    """The model key is write-only: the form never renders it; left blank, the key is kept."""

    model_api_key = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text="Leave blank to keep the current key; tick 'clear' to remove it.",
    )
    clear_model_api_key = forms.BooleanField(required=False, label="Clear the model key")
    # No Meta: the admin builds it with every field, as for a form it did not get.

    def clean_model_api_key(self) -> str:
        entered = str(self.cleaned_data.get("model_api_key") or "").strip()
        if self.data.get("clear_model_api_key"):
            return ""
        return entered or (self.instance.model_api_key if self.instance.pk else "")


@admin.register(Workspace)
class WorkspaceAdmin(admin.ModelAdmin[Workspace]):
    form = WorkspaceAdminForm
    list_display = ("name", "kind", "owner", "created_at")
    list_filter = ("kind",)
    search_fields = ("name", "owner__username")


class EventInline(admin.TabularInline[Event, Run]):
    model = Event
    fields = ("seq", "type", "ts", "payload")
    readonly_fields = fields
    extra = 0
    can_delete = False
    max_num = 0


@admin.register(Run)
class RunAdmin(admin.ModelAdmin[Run]):
    list_display = ("id", "workspace", "status", "reward", "last_seq", "created_at", "finished_at")
    list_filter = ("status",)
    search_fields = ("prompt", "workspace__name")
    readonly_fields = ("state", "result", "lease_owner", "lease_expires_at", "last_seq", "slices")
    inlines = [EventInline]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin[Event]):
    list_display = ("run", "seq", "type", "ts")
    list_filter = ("type",)
    readonly_fields = ("run", "seq", "type", "ts", "payload")


@admin.register(Artifact)
class ArtifactAdmin(admin.ModelAdmin[Artifact]):
    list_display = ("name", "kind", "run", "size", "created_at")
    list_filter = ("kind",)
    search_fields = ("name", "ref")


@admin.register(RunFeedback)
class RunFeedbackAdmin(admin.ModelAdmin[RunFeedback]):
    list_display = ("run", "user", "rating", "updated_at")
    list_filter = ("rating",)
    search_fields = ("comment", "user__username")


class TaskResultInline(admin.TabularInline[TaskResult, EvaluationRun]):
    model = TaskResult
    fields = ("task_id", "repeat_index", "status", "reward", "known_failure", "reason")
    readonly_fields = fields
    extra = 0
    can_delete = False
    max_num = 0


@admin.register(EvaluationRun)
class EvaluationRunAdmin(admin.ModelAdmin[EvaluationRun]):
    list_display = ("id", "suite", "policy", "model", "selection", "pass_rate", "started_at")
    list_filter = ("suite", "policy")
    readonly_fields = ("environment", "nondeterministic")
    inlines = [TaskResultInline]
