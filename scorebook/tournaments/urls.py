from django.urls import path

from scorebook.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path("<int:tournament>/", views.tournament_detail, name="detail"),
    path("<int:tournament>/edit/", views.tournament_edit, name="edit"),
    path("<int:tournament>/walk-in/", views.walk_in, name="walk_in"),
    path(
        "<int:tournament>/walk-in/<int:registration>/remove/",
        views.walk_in_remove,
        name="walk_in_remove",
    ),
    path("<int:tournament>/register/", views.register, name="register"),
    path("<int:tournament>/cancel/", views.cancel, name="cancel"),
    path("<int:tournament>/confirm/", views.confirm, name="confirm"),
    path("<int:tournament>/start/", views.start, name="start"),
    path("<int:tournament>/draw/", views.draw, name="draw"),
    path("<int:tournament>/standings/", views.standings, name="standings"),
    path("<int:tournament>/ranking/", views.ranking, name="ranking"),
    path("<int:tournament>/bracket/", views.bracket, name="bracket"),
    path("<int:tournament>/director/", views.director, name="director"),
    path("<int:tournament>/tables/<int:table>/end/", views.table_end, name="table_end"),
    path("<int:tournament>/tables/<int:table>/minutes/", views.table_minutes, name="table_minutes"),
    path("<int:tournament>/tables/<int:table>/reseat/", views.table_reseat, name="table_reseat"),
    path(
        "<int:tournament>/matches-to-decide/<int:event>/",
        views.match_decide,
        name="match_decide",
    ),
    path(
        "<int:tournament>/players/<int:registration>/presence/",
        views.presence,
        name="presence",
    ),
    path(
        "<int:tournament>/players/<int:registration>/withdraw/",
        views.withdraw,
        name="withdraw",
    ),
    path("<int:tournament>/tables/<int:table>/round-over/", views.round_over, name="round_over"),
    path("<int:tournament>/message/", views.message, name="message"),
    path(
        "<int:tournament>/messages/<int:message>/dismiss/",
        views.message_dismiss,
        name="message_dismiss",
    ),
    path("<int:tournament>/where/", views.where, name="where"),
]
