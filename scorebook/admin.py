from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from simple_history.admin import SimpleHistoryAdmin

from scorebook.models import (
    Club,
    Entry,
    Hand,
    Membership,
    Player,
    Profile,
    Season,
    Session,
    SessionSeat,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "time_zone", "language"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):  # renames are in the player's history
    list_display = ["name", "club", "user", "archived"]
    list_filter = ["club", "archived"]
    search_fields = ["name"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]


class SeatInline(admin.TabularInline):
    model = SessionSeat
    extra = 0


@admin.register(Session)
class SessionAdmin(SimpleHistoryAdmin):
    list_display = ["date", "club", "variant", "table_label", "is_closed"]
    list_filter = ["club", "variant", "is_closed"]
    inlines = [SeatInline]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    readonly_fields = ["player", "amount"]

    def has_add_permission(self, request, obj=None):
        # Entries are written only by the hand pipeline (scorebook.hands).
        return False


@admin.register(Hand)
class HandAdmin(SimpleHistoryAdmin):
    list_display = ["session", "number", "rules_version", "voided", "created_at"]
    list_filter = ["voided"]
    readonly_fields = ["session", "number", "data", "rules_version", "client_id", "version"]
    inlines = [EntryInline]


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False


# Django's user admin, with the person's own choices (his language) on the same page.
admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class UserWithProfileAdmin(UserAdmin):
    inlines = [*UserAdmin.inlines, ProfileInline]
