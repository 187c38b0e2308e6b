"""Sign-up and the account page with personal API tokens."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.services import api_token_create, api_token_revoke


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100, strip=True)


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
    if request.method == "POST" and form.is_valid():
        _, new_token = api_token_create(user=request.user, name=form.cleaned_data["name"])  # type: ignore[arg-type]
        form = TokenForm()
    tokens = request.user.api_tokens.all()  # type: ignore[union-attr]
    context = {"form": form, "tokens": tokens, "new_token": new_token}
    return render(request, "accounts/account.html", context)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    if api_token_revoke(user=request.user, token_id=token_id):  # type: ignore[arg-type]
        messages.success(request, "Token revoked.")
    else:
        messages.error(request, "No such active token.")
    return redirect("account")
