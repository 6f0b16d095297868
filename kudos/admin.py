"""Staff see the ledger and what it paid for read-only (a correction is `manage.py
correct_kudos`, a new entry) and schedule bonus events."""

from django import forms
from django.contrib import admin

from gameplay.engine import registry

from . import rules
from .models import (
    Account,
    Attempt,
    BadgeEarned,
    BonusEvent,
    Challenge,
    Entry,
    Owned,
    Referral,
    Streak,
    StreakDay,
    WeekClose,
    WeekPlace,
)


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Entry)
class EntryAdmin(ReadOnly):
    list_display = ["created", "user", "kind", "amount", "balance_after", "memo", "key"]
    list_filter = ["kind"]
    search_fields = ["user__username", "key", "reference"]
    list_select_related = ["user"]
    date_hierarchy = "created"


@admin.register(Account)
class AccountAdmin(ReadOnly):
    list_display = ["user", "balance", "xp", "play_day", "play_today", "seconds_today", "updated"]
    search_fields = ["user__username"]
    list_select_related = ["user"]


@admin.register(Streak)
class StreakAdmin(ReadOnly):
    list_display = ["account", "current", "best", "last_day", "freezes", "grace_week"]
    search_fields = ["account__user__username"]


@admin.register(StreakDay)
class StreakDayAdmin(ReadOnly):
    list_display = ["day", "user", "outcome", "streak"]
    list_filter = ["outcome"]
    search_fields = ["user__username"]


class WeekPlaceInline(admin.TabularInline):
    model = WeekPlace
    fields = ["place", "name", "earned", "prize"]
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


@admin.register(WeekClose)
class WeekCloseAdmin(ReadOnly):
    list_display = ["week", "starts", "closed", "players"]
    inlines = [WeekPlaceInline]


class BonusEventForm(forms.ModelForm):
    kind = forms.ChoiceField(required=False, label="Game")

    class Meta:
        model = BonusEvent
        fields = ["name", "multiplier", "kind", "starts", "ends"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        games = [(kind, registry.get(kind).title) for kind in registry.kinds()]
        self.fields["kind"].choices = [("", "Every game"), *games]

    def clean_multiplier(self):
        value = self.cleaned_data["multiplier"]
        if not rules.BONUS_MULTIPLIER_MIN <= value <= rules.BONUS_MULTIPLIER_MAX:
            raise forms.ValidationError(
                f"A multiplier goes from {rules.BONUS_MULTIPLIER_MIN} to "
                f"{rules.BONUS_MULTIPLIER_MAX}."
            )
        return value

    def clean(self):
        data = super().clean()
        if data.get("starts") and data.get("ends") and data["ends"] <= data["starts"]:
            raise forms.ValidationError("An event must end after it starts.")
        return data


@admin.register(BonusEvent)
class BonusEventAdmin(admin.ModelAdmin):
    form = BonusEventForm
    list_display = ["name", "multiplier", "kind", "starts", "ends"]

    def save_model(self, request, obj, form, change):
        if {"starts", "ends"} & set(form.changed_data):
            obj.announced = 0  # announce it again at its (new) start and end
        super().save_model(request, obj, form, change)


@admin.register(BadgeEarned)
class BadgeEarnedAdmin(ReadOnly):
    list_display = ["earned", "user", "badge"]
    list_filter = ["badge"]
    search_fields = ["user__username"]


@admin.register(Challenge)
class ChallengeAdmin(ReadOnly):
    list_display = ["day", "kind", "seed_hash", "chosen", "closed"]
    exclude = ["seed"]  # secret until the day is over; the page publishes it then


@admin.register(Attempt)
class AttemptAdmin(ReadOnly):
    list_display = ["challenge", "user", "started", "finished", "won", "seconds", "moves"]
    search_fields = ["user__username"]


@admin.register(Referral)
class ReferralAdmin(ReadOnly):
    list_display = ["joined", "inviter", "invitee", "qualified", "inviter_paid"]
    search_fields = ["inviter__username", "invitee__username"]


@admin.register(Owned)
class OwnedAdmin(ReadOnly):
    list_display = ["bought", "user", "item"]
    list_filter = ["item"]
    search_fields = ["user__username"]
