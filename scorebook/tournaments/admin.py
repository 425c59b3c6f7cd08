"""The site admin's view of tournaments: for looking and mending, not for running one (the
club's pages and tournaments.services do that)."""

from django.contrib import admin

from scorebook.tournaments.models import Registration, Round, Tournament


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = [
        "user",
        "player",
        "registered_at",
        "has_place",
        "confirmed_at",
        "cancelled_at",
        "absent",
    ]
    raw_id_fields = ["user", "player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_at", "variant", "status"]
    list_filter = ["status", "club"]
    search_fields = ["name"]
    inlines = [RegistrationInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "drawn_at", "finished_at", "bye_points"]
    list_filter = ["tournament__club"]
