from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from scorebook.invitations import ResetFormForEveryAccount
from scorebook.language import set_language
from scorebook.login import AdminLoginForm, LoginForm
from scorebook.views import (
    clubs,
    confirmations,
    hands,
    history,
    members,
    offline,
    paper,
    roster,
    seasons,
    sessions,
    settlement,
    transfer,
    worker,
)
from scorebook.views import house_rules as house_rules_views
from scorebook.views import invitations as invitation_views

club_patterns = [
    path("", clubs.club_home, name="club_home"),
    path("roster/", roster.roster, name="roster"),
    path("roster/add/", roster.player_add, name="player_add"),
    path("roster/<int:player>/", roster.player_edit, name="player_edit"),
    path("roster/<int:player>/archive/", roster.player_archive, name="player_archive"),
    path("roster/<int:player>/delete/", roster.player_delete, name="player_delete"),
    path("roster/<int:player>/link/", roster.player_link, name="player_link"),
    path("roster/<int:player>/claim/", roster.player_claim_decide, name="player_claim_decide"),
    path("roster/<int:player>/merge/", roster.player_merge, name="player_merge"),
    path("roster/claim/", roster.player_claim, name="player_claim"),
    path("members/", members.members, name="members"),
    path("members/add/", members.member_add, name="member_add"),
    path("members/<int:membership>/role/", members.member_role, name="member_role"),
    path("members/<int:membership>/remove/", members.member_remove, name="member_remove"),
    path("members/<int:membership>/invite/", members.member_invite, name="member_invite"),
    path("leave/", members.club_leave, name="club_leave"),
    path("settings/", clubs.club_settings, name="club_settings"),
    path("seasons/", seasons.seasons, name="seasons"),
    path("seasons/add/", seasons.season_add, name="season_add"),
    path("seasons/<int:season>/", seasons.season_edit, name="season_edit"),
    path("house-rules/", house_rules_views.house_rules_list, name="house_rules"),
    path("house-rules/add/", house_rules_views.house_rules_add, name="house_rules_add"),
    path(
        "house-rules/<int:house_rules_id>/",
        house_rules_views.house_rules_edit,
        name="house_rules_edit",
    ),
    path(
        "house-rules/<int:house_rules_id>/delete/",
        house_rules_views.house_rules_delete,
        name="house_rules_delete",
    ),
    path("sessions/new/", sessions.session_start, name="session_start"),
    path("sessions/<int:session>/", sessions.session_detail, name="session"),
    path("sessions/<int:session>/close/", sessions.session_close, name="session_close"),
    path("sessions/<int:session>/reopen/", sessions.session_reopen, name="session_reopen"),
    path("tournaments/", include("scorebook.tournaments.urls")),
    path("sessions/<int:session>/sheet/", hands.sheet, name="sheet"),
    path("sessions/<int:session>/hands/new/", hands.hand_new, name="hand_new"),
    path("sessions/<int:session>/hands/preview/", hands.hand_preview, name="hand_preview"),
    path("sessions/<int:session>/hands/<int:number>/", hands.hand_edit, name="hand_edit"),
    path("sessions/<int:session>/hands/<int:number>/void/", hands.hand_void, name="hand_void"),
    path(
        "sessions/<int:session>/hands/<int:number>/confirm/",
        confirmations.hand_confirm,
        name="hand_confirm",
    ),
    path(
        "sessions/<int:session>/hands/<int:number>/resolve/",
        confirmations.hand_resolve,
        name="hand_resolve",
    ),
    path(
        "sessions/<int:session>/confirmations/",
        confirmations.session_confirmations,
        name="session_confirmations",
    ),
    path("disputes/", confirmations.disputes, name="disputes"),
    path(
        "sessions/<int:session>/export.json",
        transfer.session_export_json,
        name="session_export_json",
    ),
    path(
        "sessions/<int:session>/export.csv", transfer.session_export_csv, name="session_export_csv"
    ),
    path("sessions/import/", transfer.sheet_import, name="sheet_import"),
    path("sessions/<int:session>/history/", history.session_history, name="session_history"),
    path(
        "sessions/<int:session>/settlement/",
        settlement.session_settlement,
        name="session_settlement",
    ),
    path("sessions/<int:session>/print/", paper.sheet_print, name="sheet_print"),
    path("league/", include("scorebook.league.urls")),
    path("series/", include("scorebook.series.urls")),
]

scorebook_patterns = [
    path("", clubs.my_clubs, name="my_clubs"),
    path("clubs/new/", clubs.club_create, name="club_create"),
    path("pin/", confirmations.confirmation_pin, name="confirmation_pin"),
    path("c/<slug:club>/", include(club_patterns)),
    path(
        "invitation/<uidb64>/<token>/",
        invitation_views.invitation_accept,
        name="invitation_accept",
    ),
]

admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("", include((scorebook_patterns, "scorebook"))),
    # The installable app (issue 15): the worker from the root, so that it controls every page.
    path("sw.js", worker.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("offline/", offline.offline, name="offline"),
    # Before Django's own, which it replaces: a login form that bounds what it passes on.
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LoginForm),
        name="login",
    ),
    # Before Django's own: "forgot password" for invited accounts too (no usable password yet).
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(form_class=ResetFormForEveryAccount),
        name="password_reset",
    ),
    # Before Django's own: logging out also drops the browser's cached pages of this user.
    path("accounts/logout/", offline.ClearingLogoutView.as_view(), name="logout"),
    path("accounts/", include("django.contrib.auth.urls")),
    # In place of django.conf.urls.i18n's: the choice goes to the profile too.
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
]
