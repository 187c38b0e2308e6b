from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import views as account_views
from agents import evaluation_views
from agents import views as agent_views

handler404 = "config.api_errors.not_found"
handler500 = "config.api_errors.server_error"

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="workspace-list"), name="home"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/", account_views.account, name="account"),
    path("accounts/tokens/<int:token_id>/revoke/", account_views.token_revoke, name="token-revoke"),
    path("workspaces/", agent_views.workspace_list, name="workspace-list"),
    path("workspaces/<int:workspace_id>/", agent_views.workspace_detail, name="workspace-detail"),
    path("runs/<int:run_id>/cancel/", agent_views.run_cancel_view, name="run-cancel"),
    path("evaluations/", evaluation_views.evaluation_list, name="evaluation-list"),
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
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
