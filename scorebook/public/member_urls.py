"""Inside the club's patterns (`c/<club>/public/`): the members' side of the public pages."""

from django.urls import path

from scorebook.public import members

app_name = "public_members"

urlpatterns = [
    path("my-name/", members.my_name, name="my_name"),
    path("names/", members.names, name="names"),
    path("names/<int:player>/", members.record, name="record"),
]
