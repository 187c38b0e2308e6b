"""Sign-up and the account page with personal API tokens."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
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
from accounts.throttle import rate_limited, wait_message

TOO_MANY = 429


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100, strip=True)


class LoginView(auth_views.LoginView):
    """Django's login form, limited per address and per username (THROTTLE_LOGIN)."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        address = request.META.get("REMOTE_ADDR", "")
        username = str(request.POST.get("username", "")).strip().lower()[:150]
        wait = max(
            rate_limited(scope="login-address", key=address, rate=settings.THROTTLE_LOGIN),
            rate_limited(scope="login-user", key=username, rate=settings.THROTTLE_LOGIN),
        )
        if wait:
            form = self.get_form()
            # Not validated (that would try the password): only the refusal is its error.
            form._errors, form.cleaned_data = ErrorDict(), {}  # type: ignore[attr-defined]
            form.add_error(None, wait_message(wait))
            response = self.render_to_response(self.get_context_data(form=form), status=TOO_MANY)
            response["Retry-After"] = str(wait)
            return response
        return super().post(request, *args, **kwargs)


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("workspace-list")
    form: UserCreationForm[User] = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("workspace-list")
    return render(request, "registration/signup.html", {"form": form})


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
