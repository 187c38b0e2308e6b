"""Finance pages, under /finance/."""

from django.urls import path

from finance import note_views, views

urlpatterns = [
    path(
        "documents/<int:document_id>/pages/<int:page>/",
        views.document_page,
        name="finance-document-page",
    ),
    path(
        "workspaces/<int:workspace_id>/documents/",
        views.document_list_fragment,
        name="finance-documents-fragment",
    ),
    path("notes/<int:note_id>/", note_views.note_page, name="finance-note-page"),
]
