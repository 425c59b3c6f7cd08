"""The site admin's view of series: for looking and mending; the club's pages run them."""

from django.contrib import admin

from scorebook.series.models import PlayerMatch, Series, SeriesSeason, SeriesTournament


class SeasonInline(admin.TabularInline):
    model = SeriesSeason
    extra = 0
    fields = ["name", "starts_on", "ends_on", "best_n", "closed_at"]


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "rated", "points_preset"]
    list_filter = ["rated", "club"]
    search_fields = ["name"]
    inlines = [SeasonInline]


@admin.register(SeriesTournament)
class SeriesTournamentAdmin(admin.ModelAdmin):
    list_display = ["__str__", "state", "factor", "rating"]
    list_filter = ["state", "season__series"]
    raw_id_fields = ["tournament", "asked_by"]
    readonly_fields = ["inputs", "fingerprint", "rating"]


@admin.register(PlayerMatch)
class PlayerMatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "series", "made_by", "made_at"]
    raw_id_fields = ["player", "other", "made_by"]
