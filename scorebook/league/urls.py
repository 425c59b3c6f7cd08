"""Included inside the club's patterns (`c/<club>/league/`), so every view gets the club slug."""

from django.urls import path

from scorebook.league import views

app_name = "league"

urlpatterns = [
    path("ledger/", views.ledger, name="ledger"),
    path("standings/", views.standings, name="standings"),
    path("players/<int:player>/", views.player, name="player"),
]
