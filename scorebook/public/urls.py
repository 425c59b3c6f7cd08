"""The public addresses: /p/<club>/<lang>/… (issue 30), and the sitemap of them all."""

from django.urls import include, path

from scorebook.public import feeds, series, views

app_name = "public"

language_patterns = [
    path("", views.club_page, name="club"),
    path("privacy/", views.privacy, name="privacy"),
    path("sessions/", views.sessions, name="sessions"),
    path("sessions/<int:session>/", views.session, name="session"),
    path("standings/", views.standings, name="standings"),
    path("standings/embed/", views.embed, name="embed"),
    path("players/<int:player>/", views.player, name="player"),
    path("tournaments/", views.tournaments, name="tournaments"),
    path("tournaments/<int:tournament>/", views.tournament, name="tournament"),
    path("tournaments/<int:tournament>/live/", views.live, name="live"),
    path("tournaments/<int:tournament>/live/part/", views.live_part, name="live_part"),
    path("tournaments/<int:tournament>/projector/", views.projector, name="projector"),
    path("series/", series.series_list, name="series_list"),
    path("series/<int:series>/", series.series, name="series"),
    path(
        "series/<int:series>/seasons/<int:series_season>/",
        series.series_season,
        name="series_season",
    ),
    path("results.atom", feeds.feed, name="feed"),
    path("tournaments.ics", feeds.calendar, name="calendar"),
]


urlpatterns = [
    path("sitemap.xml", feeds.sitemap, name="sitemap"),
    path("p/<slug:club>/", views.club_root, name="club_root"),
    path("p/<slug:club>/<str:lang>/", include(language_patterns)),
]
