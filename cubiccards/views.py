from django.shortcuts import render

from lobby.catalog import GAMES


def home(request):
    return render(request, "home.html", {"games": GAMES})
