"""Studio REST API, under /api/v1/studio/ (a trailing slash is optional, as in the agents API)."""

from django.urls import re_path

from studio import api

WORKSPACE = r"^workspaces/(?P<workspace_id>[0-9]{1,18})"
REVISION = WORKSPACE + r"/revisions/(?P<number>[0-9]{1,9})"

urlpatterns = [
    re_path(r"^materials/?$", api.MaterialPresetsView.as_view(), name="studio-materials"),
    re_path(WORKSPACE + r"/scene/?$", api.SceneView.as_view(), name="studio-scene"),
    re_path(WORKSPACE + r"/revisions/?$", api.RevisionListView.as_view(), name="studio-revisions"),
    re_path(REVISION + r"/?$", api.RevisionDetailView.as_view(), name="studio-revision"),
    re_path(
        REVISION + r"/revert/?$", api.RevisionRevertView.as_view(), name="studio-revision-revert"
    ),
    re_path(
        REVISION + r"/export\.(?P<fmt>glb|obj|stl|png)$",
        api.RevisionExportView.as_view(),
        name="studio-revision-export",
    ),
    re_path(
        REVISION + r"/thumbnail\.png$",
        api.RevisionThumbnailView.as_view(),
        name="studio-revision-thumbnail",
    ),
    re_path(WORKSPACE + r"/diff/?$", api.DiffView.as_view(), name="studio-diff"),
    re_path(WORKSPACE + r"/meshes/?$", api.MeshUploadView.as_view(), name="studio-meshes"),
]
