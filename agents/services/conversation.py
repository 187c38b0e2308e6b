"""The workspace's earlier requests and answers, as the context a new run starts with."""

from __future__ import annotations

from agents.models import Run
from agents.registry import CONTEXT_TURN
from agents.runtime.types import Message


def conversation_messages(
    run: Run, *, max_turns: int = 8, answer_chars: int = 600, older_chars: int = 160
) -> list[Message]:
    """The workspace's earlier requests and answers as user/assistant turns (named "context-turn").

    The last `max_turns` finished runs before this one are kept; answers are cut to
    `answer_chars`, and older turns shrink to one line each in a single digest turn.
    """
    earlier = list(
        Run.objects.filter(workspace_id=run.workspace_id, created_at__lte=run.created_at)
        .exclude(pk=run.pk)
        .exclude(status__in=Run.ACTIVE)
        .order_by("created_at", "pk")
        .values_list("prompt", "message", "status")
    )
    split = max(len(earlier) - max_turns, 0)
    older, recent = earlier[:split], earlier[split:]
    messages: list[Message] = []
    if older:
        digest = "; ".join(_clip(prompt, older_chars) for prompt, _, _ in older)
        messages += _turn(
            f"(earlier requests, condensed) {digest}",
            f"(condensed) {len(older)} earlier requests were answered.",
        )
    for prompt, answer, status in recent:
        messages += _turn(prompt, _clip(answer, answer_chars) or f"(the run ended: {status})")
    return messages


def _turn(request: str, answer: str) -> list[Message]:
    return [
        {"role": "user", "name": CONTEXT_TURN, "content": request},
        {"role": "assistant", "name": CONTEXT_TURN, "content": answer},
    ]


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"
