"""Creating workspaces."""

from __future__ import annotations

from django.contrib.auth.models import User

from agents.models import Workspace


def workspace_create(*, owner: User, name: str, kind: str) -> Workspace:
    """Create a workspace of a registered kind for owner."""
    return Workspace.objects.create(owner=owner, name=name.strip(), kind=kind)
