from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import TIME_ZONES, User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional. Only used to reset a password.")
    time_zone = forms.ChoiceField(
        choices=[(tz, tz) for tz in TIME_ZONES], initial="UTC", required=False
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email", "time_zone")

    def clean_time_zone(self) -> str:
        return self.cleaned_data.get("time_zone") or "UTC"


class SettingsForm(forms.ModelForm):
    """What a person may change about their account (the password has its own page)."""

    time_zone = forms.ChoiceField(
        choices=[(tz, tz) for tz in TIME_ZONES],
        help_text="Times on the site are shown here; your day (for daily streaks) starts at "
        "midnight here.",
    )

    class Meta:
        model = User
        fields = ("email", "time_zone")
        help_texts = {"email": "Only used to reset your password. Leave it empty to remove it."}

    def clean_time_zone(self):
        zone = self.cleaned_data["time_zone"]
        if self.instance.pk and zone != self.instance.time_zone:
            # Daily streaks are paid per local day: one change a week keeps them fair.
            from kudos.services import why_not_change_time_zone

            problem = why_not_change_time_zone(self.instance)
            if problem:
                raise forms.ValidationError(problem)
        return zone
