"""`manage.py create_api_token USERNAME [--create-user]`: print a new personal API token."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.services import api_token_create


class Command(BaseCommand):
    help = "Create a personal API token for USERNAME and print it (it is shown only once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--create-user", action="store_true", help="Create the user if absent.")
        parser.add_argument("--name", default="command line", help="A label for the token.")

    def handle(self, *args: Any, **options: Any) -> None:
        username = options["username"].strip()
        if not username:
            raise CommandError("USERNAME must not be empty.")
        user = User.objects.filter(username=username).first()
        if user is None:
            if not options["create_user"]:
                raise CommandError(f"No user {username!r}; pass --create-user to create one.")
            user = User.objects.create_user(username=username)
            user.set_unusable_password()
            user.save()
        _, raw = api_token_create(user=user, name=options["name"])
        self.stdout.write(raw)
