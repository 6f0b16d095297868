"""The site's template engine (cubiccards.templating): ``{% extends %}`` finds a base
template's blocks once, and pages get the account itself as ``user``."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.base import NodeList
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_a_base_templates_blocks_are_found_once(monkeypatch):
    client = Client()
    assert client.get("/").status_code == 200
    walks = []
    walk = NodeList.get_nodes_by_type

    def counted(self, nodetype):
        walks.append(nodetype)
        return walk(self, nodetype)

    monkeypatch.setattr(NodeList, "get_nodes_by_type", counted)
    page = client.get("/").content.decode()
    assert walks == []  # Django's walks the whole base template on every page
    assert "<title>Play · Cubic Cards</title>" in page  # the page's own blocks, in the base's


def test_a_page_gets_the_account_itself_as_user():
    ann = User.objects.create_user("ann", password=None)
    client = Client()
    assert type(client.get("/").context["user"]) is AnonymousUser
    client.force_login(ann)
    response = client.get("/")
    assert type(response.context["user"]) is User and response.context["user"].pk == ann.pk
    assert "data-username>ann<" in response.content.decode()
