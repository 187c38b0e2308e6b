from django.urls import re_path

from agents.api.renderers import TRAJECTORY_RENDERERS
from agents.api.views import RunViewSet, WorkspaceViewSet

workspaces = WorkspaceViewSet.as_view({"get": "list", "post": "create"})
workspace = WorkspaceViewSet.as_view({"get": "retrieve"})
runs = RunViewSet.as_view({"get": "list", "post": "create"})
run = RunViewSet.as_view({"get": "retrieve"})

urlpatterns = [
    re_path(r"^workspaces/?$", workspaces, name="api-workspaces"),
    re_path(r"^workspaces/(?P<pk>[0-9]+)/?$", workspace, name="api-workspace"),
    re_path(r"^runs/?$", runs, name="api-runs"),
    re_path(r"^runs/(?P<pk>[0-9]+)/?$", run, name="api-run"),
    re_path(
        r"^runs/(?P<pk>[0-9]+)/events/?$",
        RunViewSet.as_view({"get": "events"}),
        name="api-run-events",
    ),
    re_path(
        r"^runs/(?P<pk>[0-9]+)/cancel/?$",
        RunViewSet.as_view({"post": "cancel"}),
        name="api-run-cancel",
    ),
    re_path(
        r"^runs/(?P<pk>[0-9]+)/artifacts/?$",
        RunViewSet.as_view({"get": "artifacts"}, pagination_class=None),  # the whole list
        name="api-run-artifacts",
    ),
    re_path(
        r"^runs/(?P<pk>[0-9]+)/artifacts/(?P<artifact_id>[0-9]+)/download/?$",
        RunViewSet.as_view({"get": "download"}),
        name="api-artifact-download",
    ),
    re_path(
        r"^runs/(?P<pk>[0-9]+)/trajectory/?$",
        RunViewSet.as_view({"get": "trajectory"}, renderer_classes=TRAJECTORY_RENDERERS),
        name="api-run-trajectory",
    ),
    re_path(
        r"^runs/(?P<pk>[0-9]+)/feedback/?$",
        RunViewSet.as_view({"get": "feedback", "post": "feedback"}),
        name="api-run-feedback",
    ),
]
