from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from scorebook import accounts
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
    # The PIN is a hash and its refusal a count the confirmations keep: shown, never typed.
    fields = ["language", "wrong_pins", "pin_refused_until"]
    readonly_fields = ["wrong_pins", "pin_refused_until"]


# Django's user admin, with the person's own choices (his language) on the same page.
admin.site.unregister(get_user_model())


class AccountNameMixin:
    """The admin's account forms store the name as the login form reads it, and refuse a
    name that reads as another account's (the members page adds that account instead)."""

    def clean_username(self):
        name = accounts.clean_username(self.cleaned_data["username"])
        if accounts.account_named(name, excluding=self.instance) is not None:
            raise ValidationError(_("An account with a name that reads the same exists."))
        return name


class AccountCreationForm(AccountNameMixin, AdminUserCreationForm):
    pass


class AccountChangeForm(AccountNameMixin, UserChangeForm):
    pass


@admin.register(get_user_model())
class UserWithProfileAdmin(UserAdmin):
    add_form = AccountCreationForm
    form = AccountChangeForm
    inlines = [*UserAdmin.inlines, ProfileInline]
