"""Workspaces, runs, their event log and artifacts. The event log is the source of truth."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Workspace(models.Model):
    class Kind(models.TextChoices):
        STUDIO = "studio", "3D creation studio"
        FINANCE = "finance", "Financial research"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="workspaces"
    )
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    model_base_url = models.URLField(
        blank=True, help_text="Overrides MODEL_BASE_URL for this workspace's runs."
    )
    model_name = models.CharField(
        max_length=200, blank=True, help_text="Overrides MODEL_NAME for this workspace's runs."
    )
    model_api_key = models.CharField(
        max_length=500,
        blank=True,
        help_text="The key sent to this workspace's own model server (model_base_url); the global "
        "MODEL_API_KEY never is. Write-only: never shown back.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind})"


class Run(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"
        CANCELLED = "cancelled"
        STUCK = "stuck"

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="runs")
    prompt = models.TextField()
    options = models.JSONField(default=dict, blank=True)
    budget = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    state = models.JSONField(null=True, blank=True, help_text="The runtime's checkpoint.")
    result = models.JSONField(null=True, blank=True)
    message = models.TextField(blank=True, help_text="Final answer or why the run ended.")
    cancel_requested = models.BooleanField(default=False)
    lease_owner = models.CharField(max_length=100, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    last_seq = models.PositiveIntegerField(default=0)
    checkpoint_seq = models.PositiveIntegerField(
        default=0, help_text="last_seq when the state was last checkpointed (at a unit's end)."
    )
    slices = models.PositiveIntegerField(default=0)
    reward = models.FloatField(
        null=True, blank=True, help_text="Verifier reward in [0, 1] (evaluation runs only)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "lease_expires_at"])]

    def __str__(self) -> str:
        return f"run {self.pk} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE


class RunMessage(models.Model):
    """One message of a run's conversation at its position. A checkpoint appends the unit's new
    messages; only a compression or condensation rewrites, from the first position it changed,
    so the conversation is never written whole again (see agents/services/checkpoint.py)."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="messages")
    position = models.PositiveIntegerField()
    body = models.JSONField()

    class Meta:
        ordering = ["run", "position"]
        constraints = [
            models.UniqueConstraint(fields=["run", "position"], name="run_message_position_unique")
        ]

    def __str__(self) -> str:
        return f"run {self.run_id} message {self.position}"


class ToolCallRecord(models.Model):
    """The result of a tool call a run made, by its call key ("<step>:<call id>"): a unit that is
    replayed after its worker was lost gets this result instead of doing the call again."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="tool_calls")
    call_key = models.CharField(max_length=120)
    content = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["run", "call_key"], name="tool_call_once_per_run")
        ]

    def __str__(self) -> str:
        return f"run {self.run_id} call {self.call_key}"


class Event(models.Model):
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    ts = models.DateTimeField()
    payload = models.JSONField(default=dict)

    class Meta:
        ordering = ["run", "seq"]
        constraints = [models.UniqueConstraint(fields=["run", "seq"], name="event_seq_unique")]

    def __str__(self) -> str:
        return f"{self.run_id}#{self.seq} {self.type}"

    def to_dict(self) -> dict[str, object]:
        return {
            "run_id": self.run_id,
            "seq": self.seq,
            "type": self.type,
            "ts": self.ts.isoformat(),
            "payload": self.payload,
        }


def artifact_path(instance: Artifact, filename: str) -> str:
    return f"runs/{instance.run_id}/{instance.ref}/{filename}"


class Artifact(models.Model):
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="artifacts")
    ref = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=32)
    name = models.CharField(max_length=255)
    file = models.FileField(upload_to=artifact_path, max_length=400)
    media_type = models.CharField(max_length=100, default="application/octet-stream")
    size = models.PositiveBigIntegerField(default=0)
    metadata = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind})"


class RunFeedback(models.Model):
    """A person's judgement of a finished run: thumbs up (+1) or down (-1), with a comment."""

    class Rating(models.IntegerChoices):
        UP = 1, "thumbs up"
        DOWN = -1, "thumbs down"

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="feedback")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="run_feedback"
    )
    rating = models.SmallIntegerField(choices=Rating.choices)
    comment = models.TextField(blank=True, max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        constraints = [
            models.UniqueConstraint(fields=["run", "user"], name="feedback_once_per_user")
        ]

    def __str__(self) -> str:
        return f"run {self.run_id}: {self.rating:+d}"


class EvaluationRun(models.Model):
    """One `evaluate` invocation over one suite: its policy, environment and pass rate."""

    suite = models.CharField(max_length=64)
    policy = models.CharField(max_length=32)
    model = models.CharField(max_length=200, blank=True)
    selection = models.CharField(max_length=200, blank=True, help_text="--tasks / --quick")
    repeat = models.PositiveSmallIntegerField(default=1)
    environment = models.JSONField(default=dict, blank=True)
    tasks_total = models.PositiveIntegerField(default=0)
    tasks_passed = models.PositiveIntegerField(default=0)
    tasks_skipped = models.PositiveIntegerField(default=0)
    pass_rate = models.FloatField(null=True, blank=True)
    mean_reward = models.FloatField(null=True, blank=True)
    nondeterministic = models.JSONField(default=list, blank=True)
    by_set = models.JSONField(
        default=dict,
        blank=True,
        help_text="Pass rates of the first-contact and paraphrase sets, and of the rest ('seen'): "
        "{set: {passed, judged, interval}}",
    )
    isolation_ok = models.BooleanField(default=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-pk"]

    def __str__(self) -> str:
        return f"evaluation {self.pk} ({self.suite}, {self.policy})"


class TaskResult(models.Model):
    """One task's outcome in an evaluation (one row per repeat)."""

    evaluation = models.ForeignKey(EvaluationRun, on_delete=models.CASCADE, related_name="results")
    task_id = models.CharField(max_length=200)
    repeat_index = models.PositiveSmallIntegerField(default=0)
    workspace = models.ForeignKey(
        Workspace, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    runs = models.ManyToManyField(Run, blank=True, related_name="task_results")
    status = models.CharField(max_length=16, help_text="passed, failed, skipped or error")
    known_failure = models.CharField(max_length=500, blank=True)
    reward = models.FloatField(default=0.0)
    verdicts = models.JSONField(default=list, blank=True)
    metrics = models.JSONField(default=dict, blank=True)
    key_outputs = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["evaluation", "task_id", "repeat_index"]
        indexes = [models.Index(fields=["task_id", "evaluation"])]

    def __str__(self) -> str:
        return f"{self.task_id}: {self.status}"

    @property
    def passed(self) -> bool:
        return self.status == "passed"
