"""Finance REST API, under /api/v1/finance/ (a trailing slash is optional)."""

from django.urls import path, re_path, register_converter

from finance import api, note_views


class NoteFormat:
    regex = "json|md|pdf"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(NoteFormat, "notefmt")

ID = r"(?P<document_id>[0-9]{1,18})"
PAGE = r"(?P<page>[0-9]{1,6})"

urlpatterns = [
    re_path(
        r"^workspaces/(?P<workspace_id>[0-9]{1,18})/documents/?$",
        api.DocumentListView.as_view(),
        name="finance-documents",
    ),
    re_path(rf"^documents/{ID}/?$", api.DocumentDetailView.as_view(), name="finance-document"),
    re_path(
        rf"^documents/{ID}/file/?$", api.DocumentFileView.as_view(), name="finance-document-file"
    ),
    re_path(
        rf"^documents/{ID}/statements/?$", api.StatementsView.as_view(), name="finance-statements"
    ),
    re_path(
        rf"^documents/{ID}/pages/{PAGE}\.png$", api.PageImageView.as_view(), name="finance-page-png"
    ),
    re_path(rf"^documents/{ID}/pages/{PAGE}/?$", api.PageView.as_view(), name="finance-page"),
    path(
        "notes/<int:note_id>",
        note_views.note_download,
        {"fmt": "json"},
        name="finance-note-download",
    ),
    path(
        "notes/<int:note_id>.<notefmt:fmt>", note_views.note_download, name="finance-note-download"
    ),
]
