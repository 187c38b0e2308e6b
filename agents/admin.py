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


@admin.register(Workspace)
class WorkspaceAdmin(admin.ModelAdmin[Workspace]):
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
