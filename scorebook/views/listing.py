"""Club pages that list the club's things with a form to add one (roster, members, seasons):
one way to draw such a page and to answer its add form."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.shortcuts import redirect, render

from scorebook import services
from scorebook.models import Club


@dataclass(frozen=True)
class ListPage:
    template: str
    url_name: str
    # The page's own context beyond the club and the form, read for each drawing.
    items: Callable[[Club], dict[str, Any]]

    def show(self, request, form):
        club = request.club
        return render(request, self.template, {"club": club, "form": form, **self.items(club)})

    def add(self, request, form, add: Callable[[dict], Any], done: str):
        """Add what a valid `form` describes with `add(cleaned_data)`, say `done` (the added
        thing's name as %(name)s) and go back to the list; a refusal of the services shows
        at its field, on the page drawn again."""
        if form.is_valid():
            try:
                added = add(form.cleaned_data)
            except services.ServiceError as exc:
                form.add_error(exc.field, exc.message)
            else:
                messages.success(request, done % {"name": added})
                return redirect(self.url_name, club=request.club.slug)
        return self.show(request, form)
