"""Included inside the club's patterns (`c/<club>/series/`): the URL's club is the reader's,
or the acting admins' (the series' own club, or a club whose tournament joins)."""

from django.urls import path

from scorebook.series import views

app_name = "series"

SEASON = "<int:series>/seasons/<int:series_season>/"

urlpatterns = [
    path("", views.series_list, name="list"),
    path("new/", views.series_create, name="create"),
    path("ask/", views.series_ask, name="ask"),
    path("<int:series>/", views.series_detail, name="detail"),
    path("<int:series>/edit/", views.series_edit, name="edit"),
    path("<int:series>/all-time/", views.all_time, name="all_time"),
    path("<int:series>/seasons/new/", views.season_add, name="season_add"),
    path(SEASON, views.season, name="season"),
    path(SEASON + "edit/", views.season_edit, name="season_edit"),
    path(SEASON + "add/", views.entry_add, name="entry_add"),
    path(SEASON + "close/", views.season_close, name="season_close"),
    path(SEASON + "reopen/", views.season_reopen, name="season_reopen"),
    path(SEASON + "standing.csv", views.season_csv, name="season_csv"),
    path(SEASON + "standing.json", views.season_json, name="season_json"),
    path("<int:series>/tournaments/<int:entry>/", views.entry, name="entry"),
    path("<int:series>/tournaments/<int:entry>/accept/", views.entry_accept, name="entry_accept"),
    path("<int:series>/tournaments/<int:entry>/remove/", views.entry_remove, name="entry_remove"),
    path("<int:series>/players/", views.players, name="players"),
    path("<int:series>/players/<int:player>/", views.player, name="player"),
    path("<int:series>/matches/add/", views.match_add, name="match_add"),
    path("<int:series>/matches/<int:match>/remove/", views.match_remove, name="match_remove"),
    path("<int:series>/import/", views.ratings_import, name="ratings_import"),
]
