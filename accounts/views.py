"""Sign-up and the account page with personal API tokens."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.forms.utils import ErrorDict
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.services import api_token_create, api_token_revoke
from accounts.throttle import login_wait, rate_limited, wait_message

TOO_MANY = 429
FormT = TypeVar("FormT", bound=forms.BaseForm)


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100, strip=True)


class LoginView(auth_views.LoginView):
    """Django's login form, limited per address and per username (THROTTLE_LOGIN)."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = login_wait(request)
        if wait:
            form = _refused(self.get_form(), wait)
            response = self.render_to_response(self.get_context_data(form=form), status=TOO_MANY)
            response["Retry-After"] = str(wait)
            return response
        return super().post(request, *args, **kwargs)


def _refused(form: FormT, wait: int) -> FormT:
    """`form` with the refusal as its only error, not validated (that would hash a password)."""
    form._errors, form.cleaned_data = ErrorDict(), {}  # type: ignore[attr-defined]
    form.add_error(None, wait_message(wait))
    return form


def _login_throttled(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """`view` with its POSTs counted against THROTTLE_LOGIN, refused (429) past it, untried."""

    @wraps(view)
    def throttled(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = login_wait(request) if request.method == "POST" else 0
        if wait:
            response = HttpResponse(wait_message(wait), status=TOO_MANY, content_type="text/plain")
            response["Retry-After"] = str(wait)
            return response
        return view(request, *args, **kwargs)

    return throttled


# The admin's login form shares the login limits: staff passwords are the ones worth guessing.
admin_login = _login_throttled(admin.site.login)


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account; attempts are limited per address (THROTTLE_SIGNUP), since every
    per-user quota multiplies with the accounts one person can make."""
    if request.user.is_authenticated:
        return redirect("workspace-list")
    form: UserCreationForm[User] = UserCreationForm(request.POST or None)
    status = 200
    if request.method == "POST":
        address = request.META.get("REMOTE_ADDR", "")
        wait = rate_limited(scope="signup", key=address, rate=settings.THROTTLE_SIGNUP)
        if wait:
            form = _refused(form, wait)
            status = TOO_MANY
        elif form.is_valid():
            user = form.save()
            login(request, user)
            return redirect("workspace-list")
    return render(request, "registration/signup.html", {"form": form}, status=status)


@login_required
def account(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    new_token = None
    status = 200
    if request.method == "POST" and form.is_valid():
        wait = rate_limited(
            scope="token-create", key=str(request.user.pk), rate=settings.THROTTLE_TOKEN_CREATE
        )
        if wait:
            form.add_error(None, wait_message(wait))
            status = TOO_MANY
        else:
            _, new_token = api_token_create(user=request.user, name=form.cleaned_data["name"])  # type: ignore[arg-type]
            form = TokenForm()
    tokens = request.user.api_tokens.all()  # type: ignore[union-attr]
    context = {"form": form, "tokens": tokens, "new_token": new_token}
    return render(request, "accounts/account.html", context, status=status)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    if api_token_revoke(user=request.user, token_id=token_id):  # type: ignore[arg-type]
        messages.success(request, "Token revoked.")
    else:
        messages.error(request, "No such active token.")
    return redirect("account")
