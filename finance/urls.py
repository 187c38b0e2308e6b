"""Finance REST API, under /api/v1/finance/ (a trailing slash is optional)."""

from django.urls import re_path

from finance import api

urlpatterns = [
    re_path(
        r"^workspaces/(?P<workspace_id>[0-9]{1,18})/documents/?$",
        api.DocumentListView.as_view(),
        name="finance-documents",
    ),
    re_path(
        r"^documents/(?P<document_id>[0-9]{1,18})/?$",
        api.DocumentDetailView.as_view(),
        name="finance-document",
    ),
    re_path(
        r"^documents/(?P<document_id>[0-9]{1,18})/statements/?$",
        api.StatementsView.as_view(),
        name="finance-statements",
    ),
]
