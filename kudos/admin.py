"""Staff see the ledger and what it paid for read-only (a correction is `manage.py
correct_kudos`, a new entry) and schedule bonus events."""

from django import forms
from django.contrib import admin, messages
from django.template.defaultfilters import pluralize
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from gameplay.engine import registry

from . import referrals, rules
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


class ReferralStatus(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [
            ("held", "Held for review"),
            ("waiting", "Waiting"),
            ("qualified", "Qualified"),
            ("declined", "Declined"),
        ]

    def queryset(self, request, queryset):
        match self.value():
            case "held":
                return queryset.filter(held=True)
            case "waiting":
                return queryset.filter(referrals.undecided())
            case "qualified":
                return queryset.filter(qualified__isnull=False)
            case "declined":
                return queryset.filter(declined__isnull=False)
        return queryset


@admin.register(Referral)
class ReferralAdmin(ReadOnly):
    """Held referrals are listed with their evidence; staff release (pay, once) or decline
    them. Nothing else is editable: paying goes through kudos/referrals.py and the ledger."""

    list_display = ["joined", "inviter", "invitee", "status", "qualified", "inviter_paid"]
    list_filter = [ReferralStatus]
    list_select_related = ["inviter", "invitee"]
    search_fields = ["inviter__username", "invitee__username"]
    readonly_fields = ["evidence"]
    actions = ["release", "decline"]

    @admin.display(description="status")
    def status(self, referral):
        if referral.held:
            return format_html(
                "Held for review:<br><small>{}</small>",
                format_html_join(
                    mark_safe("<br>"), "{}", ((line,) for line in referral.evidence.splitlines())
                ),
            )
        if referral.declined:
            return f"Declined {referral.declined:%Y-%m-%d}"
        return "Qualified" if referral.qualified else "Waiting"

    def has_review_permission(self, request):
        return request.user.has_perm("kudos.change_referral")

    @admin.action(description="Release (pay) the selected held referrals", permissions=["review"])
    def release(self, request, queryset):
        self._review(request, queryset, referrals.release, "released and paid")

    @admin.action(description="Decline the selected held referrals", permissions=["review"])
    def decline(self, request, queryset):
        self._review(request, queryset, referrals.decline, "declined")

    def _review(self, request, queryset, decide, done: str) -> None:
        ids = sorted(queryset.values_list("pk", flat=True))  # the lock order
        decided = sum(decide(pk) is not None for pk in ids)
        self.message_user(request, f"{decided} referral{pluralize(decided)} {done}.")
        if len(ids) > decided:
            skipped = len(ids) - decided
            self.message_user(
                request,
                f"{skipped} {'was' if skipped == 1 else 'were'} not held for review: left as "
                "they were.",
                messages.WARNING,
            )


@admin.register(Owned)
class OwnedAdmin(ReadOnly):
    list_display = ["bought", "user", "item"]
    list_filter = ["item"]
    search_fields = ["user__username"]
