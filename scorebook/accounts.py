"""An account's name, as Django's login form reads it and as a person reads it.

The login form normalises what is typed (NFKC) and finds the account by its exact name: an
account stored under another form of its name (full-width letters, say) could never log in.
So every path that creates or renames an account stores the normalised name and runs the
username field's validators. Two names a person cannot tell apart ("ＤＥＭＯ-ADMIN" and
"demo-admin") are the same account's: compared by their NFKC case-fold, in Python, since
SQLite's `iexact` folds ASCII letters only.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict

from django.contrib.auth import get_user_model
from django.core import checks
from django.db import DEFAULT_DB_ALIAS, connections


def name_key(name: str) -> str:
    """What a person reads in a name: its NFKC form, case-folded."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def clean_username(name: str) -> str:
    """The name as it is stored; raises ValidationError (the username field's own messages)."""
    User = get_user_model()
    name = User.normalize_username(name)
    User._meta.get_field(User.USERNAME_FIELD).run_validators(name)
    return name


def account_named(name: str, *, excluding=None):
    """The account whose name reads as `name`, if any (but `excluding`)."""
    User = get_user_model()
    exact = User.objects.filter(username=name).exclude(pk=getattr(excluding, "pk", None)).first()
    if exact is not None:
        return exact
    key = name_key(name)
    others = User.objects.exclude(pk=getattr(excluding, "pk", None)).only("pk", "username")
    return next((user for user in others.iterator() if name_key(user.username) == key), None)


def colliding_names(database: str = DEFAULT_DB_ALIAS) -> list[list[str]]:
    """Each group of existing accounts whose names read alike, in name order."""
    accounts = get_user_model().objects.using(database)
    groups: dict[str, list[str]] = defaultdict(list)
    for name in accounts.values_list("username", flat=True).iterator():
        groups[name_key(name)].append(name)
    return sorted(sorted(names) for names in groups.values() if len(names) > 1)


def register_checks() -> None:
    checks.register(check_colliding_names, checks.Tags.database)


def check_colliding_names(app_configs=None, databases=None, **kwargs):
    """Accounts made before names were normalised may read alike: said, never renamed."""
    User = get_user_model()
    return [
        checks.Warning(
            f"Accounts whose names read alike: {', '.join(repr(n) for n in names)}.",
            hint="Rename or remove all but one of them in the Django admin; "
            "only the name that the login form produces can log in.",
            id="scorebook.W001",
        )
        for database in databases or ()
        # Before the first migration (migrate checks first) there are no accounts to compare.
        if User._meta.db_table in connections[database].introspection.table_names()
        for names in colliding_names(database)
    ]
