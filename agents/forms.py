from __future__ import annotations

from django import forms

from agents.models import Workspace


class WorkspaceForm(forms.Form):
    name = forms.CharField(max_length=200, strip=True)
    kind = forms.ChoiceField(choices=Workspace.Kind.choices)


class RunForm(forms.Form):
    prompt = forms.CharField(
        max_length=20_000, strip=True, widget=forms.Textarea(attrs={"rows": 3})
    )
