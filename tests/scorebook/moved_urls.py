"""A urls.py where every page the phone keeps offline has moved (tests/scorebook/test_worker.py):
the same URL names at other addresses."""

from django.http import HttpResponse
from django.urls import include, path

from scorebook.views import worker


def page(request, **kwargs):
    return HttpResponse("a page")


league = [
    path("table/", page, name="standings"),
    path("people/<int:player>/", page, name="player"),
]
moved = [
    path("", page, name="my_clubs"),
    path("club/<slug:club>/", page, name="club_home"),
    path("club/<slug:club>/evening/<int:session>/", page, name="sheet"),
    path("club/<slug:club>/evening/<int:session>/hand/", page, name="hand_new"),
    path("club/<slug:club>/evening/<int:session>/money/", page, name="session_settlement"),
    path("club/<slug:club>/season/", include((league, "league"))),
]
urlpatterns = [
    path("", include((moved, "scorebook"))),
    path("sw.js", worker.service_worker, name="service_worker"),
    path("no-signal/", page, name="offline"),
]
