"""`{% finance_panel workspace %}`: the documents-and-notes panel of a finance workspace.

A template tag, so the agents app's workspace page shows it without importing finance.
"""

from __future__ import annotations

from typing import Any

from django import template

from agents.models import Workspace
from finance.pages import panel_context

register = template.Library()


@register.inclusion_tag("finance/panel.html", takes_context=True)
def finance_panel(context: template.Context, workspace: Workspace) -> dict[str, Any]:
    return {**panel_context(workspace), "csrf_token": context.get("csrf_token")}
