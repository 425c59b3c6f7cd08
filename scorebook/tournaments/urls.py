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
]
