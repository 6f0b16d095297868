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
