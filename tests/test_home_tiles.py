"""The home page's game tiles are drawn once per process and kept (cubiccards/templatetags/
site.py): each page still carries its own visitor's CSRF token, and a tile's form works."""

import re

import pytest
from django.test import Client

from cubiccards.templatetags.site import CSRF_SLOT

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
WAR = re.compile(r'<form method="post" action="(/play/war/)">.*?value="([^"]+)"', re.S)


def test_each_visitor_gets_their_own_token_in_the_kept_tiles():
    for _ in range(2):
        visitor = Client(enforce_csrf_checks=True)
        html = visitor.get("/").content.decode()
        tokens = set(TOKEN.findall(html))
        assert CSRF_SLOT not in html and len(tokens) == 1  # the page's one token, everywhere
        action, token = WAR.search(html).groups()
        assert token in tokens
        answer = visitor.post(action, {"csrfmiddlewaretoken": token})
        assert answer.status_code == 302, answer.status_code  # the tile's form is accepted
    stranger = Client(enforce_csrf_checks=True)
    stranger.get("/")
    assert stranger.post(action, {"csrfmiddlewaretoken": "x" * 64}).status_code == 403
