from django.contrib import admin

from .models import Arena, ArenaSchedule, Entrant


@admin.register(ArenaSchedule)
class ArenaScheduleAdmin(admin.ModelAdmin):
    """The schedule is data: add, change or stop one here; beat creates its arenas."""

    list_display = ("name", "kind", "every", "at", "weekday", "minutes", "prizes", "active")
    list_filter = ("every", "active")


class EntrantInline(admin.TabularInline):
    model = Entrant
    fields = ("user", "points", "games", "wins", "streak", "paused", "place", "prize")
    readonly_fields = fields
    can_delete = False
    extra = 0


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "starts", "ends", "status")
    list_filter = ("status", "kind")
    readonly_fields = ("status", "finished")
    inlines = [EntrantInline]
