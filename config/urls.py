from typing import Any

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView

from accounts import views as account_views
from agents import evaluation_views
from agents import views as agent_views
from config import health


def _schema_view(name: str, **initkwargs: Any) -> Any:
    """An OpenAPI view built on its first request: the schema generator is heavy to import, and
    only these two pages need it (so start-up and `manage.py check` do not pay for it)."""
    built: list[Any] = []

    @csrf_exempt
    def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not built:
            from drf_spectacular import views

            built.append(getattr(views, name).as_view(**initkwargs))
        response: HttpResponse = built[0](request, *args, **kwargs)
        return response

    return view


def _metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus's scrape (agents/observability/views.py, loaded on the first scrape)."""
    from agents.observability.views import metrics_view

    return metrics_view(request)


def _favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever a page links: the app's icon is an SVG."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


handler404 = "config.api_errors.not_found"
handler500 = "config.api_errors.server_error"

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="workspace-list"), name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", _metrics, name="metrics"),
    path("favicon.ico", _favicon, name="favicon"),
    path("admin/login/", account_views.admin_login, name="admin-login"),  # throttled
    path("admin/", admin.site.urls),
    path("accounts/login/", account_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/", account_views.account, name="account"),
    path("accounts/tokens/<int:token_id>/revoke/", account_views.token_revoke, name="token-revoke"),
    path("workspaces/", agent_views.workspace_list, name="workspace-list"),
    path("workspaces/<int:workspace_id>/", agent_views.workspace_detail, name="workspace-detail"),
    path("runs/<int:run_id>/cancel/", agent_views.run_cancel_view, name="run-cancel"),
    path("evaluations/", evaluation_views.evaluation_list, name="evaluation-list"),
    path("operations/", evaluation_views.operations, name="operations"),
    path(
        "evaluations/<int:evaluation_id>/",
        evaluation_views.evaluation_detail,
        name="evaluation-detail",
    ),
    path(
        "evaluations/tasks/<str:suite>/<path:task_id>/",
        evaluation_views.task_history,
        name="evaluation-task-history",
    ),
    path("finance/", include("finance.page_urls")),
    path("api/v1/studio/", include("studio.urls")),
    path("api/v1/finance/", include("finance.urls")),
    path("api/v1/", include("agents.api.urls")),
    path("api/schema/", _schema_view("SpectacularAPIView"), name="api-schema"),
    path(
        "api/docs/",
        _schema_view("SpectacularSwaggerView", url_name="api-schema"),
        name="api-docs",
    ),
]
