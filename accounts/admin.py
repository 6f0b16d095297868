from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .forms import AdminSignInForm
from .models import User

admin.site.register(User, UserAdmin)
admin.site.login_form = AdminSignInForm  # the same wrong-password limits as the site's
