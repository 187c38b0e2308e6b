"""A person's thumbs up or down (with a comment) on a finished run: the user reward."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from agents.models import Run, RunFeedback

RATINGS = {1: 1, -1: -1, "up": 1, "down": -1, "+1": 1, "1": 1, "-1": -1}
MAX_COMMENT_CHARS = 2000


class FeedbackError(ValueError):
    """Feedback that cannot be accepted as given; the message says why."""


class RunNotFinished(Exception):
    """Feedback on a run that is still queued or running."""


def parse_rating(raw: Any) -> int:
    """+1 or -1 from 1, -1, "up" or "down"; FeedbackError otherwise."""
    key = raw.strip().lower() if isinstance(raw, str) else raw
    if isinstance(key, bool) or not isinstance(key, int | str) or key not in RATINGS:
        raise FeedbackError('rating must be 1 or -1 (or "up" or "down")')
    return RATINGS[key]


def feedback_set(
    *, run: Run, user: AbstractBaseUser, rating: Any, comment: str = ""
) -> tuple[RunFeedback, bool]:
    """Record (or replace) the user's rating and comment of a finished run; True if new."""
    if run.is_active:
        raise RunNotFinished(f"run {run.pk} is {run.status}: rate it once it has finished")
    value = parse_rating(rating)
    comment = (comment or "").strip()
    if len(comment) > MAX_COMMENT_CHARS:
        raise FeedbackError(f"the comment is longer than {MAX_COMMENT_CHARS} characters")
    return RunFeedback.objects.update_or_create(
        run=run, user_id=user.pk, defaults={"rating": value, "comment": comment}
    )


def feedback_of(*, run: Run, user: AbstractBaseUser) -> RunFeedback | None:
    """The user's feedback on a run, or None."""
    return RunFeedback.objects.filter(run=run, user_id=user.pk).first()
