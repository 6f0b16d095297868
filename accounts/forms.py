from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from infra import limits

from . import names
from .models import TIME_ZONES, User


class LimitedSignIn:
    """Wrong passwords are limited per account and per address (infra.limits): once a
    limit is used up even the right password is refused until its window closes."""

    def clean(self):
        counted = [(limits.WRONG_PASSWORDS_PER_ACCOUNT, self.data.get("username", "").casefold())]
        if self.request is not None:
            counted.append((limits.WRONG_PASSWORDS_PER_ADDRESS, limits.address(self.request)))
        try:
            limits.check(*counted)
        except limits.Limited as exc:
            raise forms.ValidationError(exc.message, code="limited") from exc
        try:
            return super().clean()
        except forms.ValidationError as exc:
            if exc.code == "invalid_login":
                limits.count(*counted)
            raise


class SignInForm(LimitedSignIn, AuthenticationForm):
    pass


class AdminSignInForm(LimitedSignIn, AdminAuthenticationForm):
    pass


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional. Only used to reset a password.")
    time_zone = forms.ChoiceField(
        choices=[(tz, tz) for tz in TIME_ZONES], initial="UTC", required=False
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email", "time_zone")

    def __init__(self, *args, address: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.address = address  # the client's, for the sign-up limit (None: not limited)

    def clean_time_zone(self) -> str:
        return self.cleaned_data.get("time_zone") or "UTC"

    def clean_username(self) -> str:
        username = super().clean_username()  # NFKC-normalised; "taken" (any case) is noted
        if self.has_error("username"):
            return username
        why = names.problem(username, lambda key: User.objects.filter(name_key=key).exists())
        if why:
            raise forms.ValidationError(why, code="confusable")
        return username

    def clean(self):
        if self.address is not None:
            try:
                limits.check((limits.SIGN_UPS_PER_ADDRESS, self.address))
            except limits.Limited as exc:
                raise forms.ValidationError(exc.message, code="limited") from exc
        return super().clean()

    def save(self, commit=True):
        user = super().save(commit)
        if self.address is not None:
            limits.count((limits.SIGN_UPS_PER_ADDRESS, self.address))
        return user


class SettingsForm(forms.ModelForm):
    """What a person may change about their account (the password has its own page)."""

    time_zone = forms.ChoiceField(
        choices=[(tz, tz) for tz in TIME_ZONES],
        help_text="Times on the site are shown here. Days for daily streaks and caps are UTC "
        "days, wherever you are.",
    )

    language = forms.ChoiceField(
        choices=[("", "As my browser asks")] + list(settings.LANGUAGES),
        required=False,
        help_text="The site speaks to you in this language on every device.",
    )

    class Meta:
        model = User
        fields = ("email", "time_zone", "language", "bots_may_challenge")
        help_texts = {"email": "Only used to reset your password. Leave it empty to remove it."}
