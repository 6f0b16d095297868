"""The Kudos shop: buying is a debit and its grant together (nothing changes when short), 20
parallel purchases with a balance for one buy exactly one, and what a player wears reaches
their view of every table, pushed fragments included, and everyone sees a name colour."""

import re

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client

from cards import prefs as card_prefs
from cubiccards.asgi import application
from gameplay.models import Game
from kudos import rules, selectors, services, shop
from kudos.models import Entry, Look, Owned, Streak

from .test_ledger import in_parallel

pytestmark = pytest.mark.django_db(transaction=True)


def balance(user) -> int:
    return selectors.balance(user.pk)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    client.get("/kudos/")
    return client


def funded(player, amount: int, name: str | None = None):
    """A signed-in player holding exactly ``amount`` Kudos."""
    user = player(name)
    client = signed_in(user)
    top_up = amount - balance(user)
    if top_up:
        services.credit(
            user_id=user.pk, amount=top_up, kind=Entry.Kind.PLAY, key=f"test:{user.pk}", memo="Test"
        )
    return user, client


def messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_buying_a_card_back_debits_grants_and_wears_it(real_services, player):
    price = shop.get("back-nebula").price
    ann, client = funded(player, price + 50)
    response = client.post("/kudos/shop/buy/", {"item": "back-nebula"}, follow=True)
    assert messages(response) == [
        f"Bought: Nebula card back for {price} Kudos. You are wearing it now."
    ]
    assert balance(ann) == 50
    (debit,) = Entry.objects.filter(user=ann, kind=Entry.Kind.SHOP)
    assert (debit.amount, debit.memo, debit.key) == (
        -price,
        "Bought: Nebula card back",
        f"shop:back-nebula:{ann.pk}",
    )
    assert Owned.objects.filter(user=ann, item="back-nebula").exists()
    assert Look.objects.get(user=ann).back == "nebula"
    style = card_prefs.read(client.session)
    assert style.back == "nebula" and style.backs == {"nebula"}
    # Owned items are listed on the Kudos page, the worn one marked.
    html = client.get("/kudos/").content.decode()
    owned = html[html.index('data-owned="back-nebula"') :]
    assert "Wearing" in owned[: owned.index("</li>")]
    # Bought once: again is refused and charges nothing.
    response = client.post("/kudos/shop/buy/", {"item": "back-nebula"}, follow=True)
    assert messages(response) == ["You own the Nebula card back already."]
    assert balance(ann) == 50


@pytest.mark.parametrize("item", ["back-gold", "felt-walnut", "colour-gold", "freeze"])
def test_a_short_balance_changes_nothing_and_says_why(item, real_services, player):
    ann, client = funded(player, 120)
    entries = Entry.objects.count()
    price = shop.get(item).price
    response = client.post("/kudos/shop/buy/", {"item": item, "order": "0123abcd"}, follow=True)
    assert messages(response) == [f"This costs {price} Kudos and you have 120."]
    assert balance(ann) == 120 and Entry.objects.count() == entries
    assert not Owned.objects.filter(user=ann).exists()
    assert not Look.objects.filter(user=ann).exclude(back="", felt="", colour="").exists()
    assert not Streak.objects.filter(account__user=ann, freezes__gt=0).exists()
    assert card_prefs.read(client.session) == card_prefs.CardPrefs()


def test_bad_purchases_are_refused_with_a_sentence(real_services, player):
    ann, client = funded(player, 1000)
    for form, said in [
        ({"item": "back-plaid"}, "There is no such item in the shop."),
        ({"item": "freeze"}, "That order is not valid: reload the shop and try again."),
        (
            {"item": "freeze", "order": "<x>"},
            "That order is not valid: reload the shop and try again.",
        ),
    ]:
        assert messages(client.post("/kudos/shop/buy/", form, follow=True)) == [said]
    assert balance(ann) == 1000
    assert Client().post("/kudos/shop/buy/", {"item": "freeze"}).status_code == 302  # sign in
    assert client.get("/kudos/shop/buy/").status_code == 405


def test_a_streak_freeze_is_one_per_order_and_at_most_two(real_services, player):
    ann, client = funded(player, 1000)
    for _ in range(2):  # a double click sends the same order twice
        response = client.post("/kudos/shop/buy/", {"item": "freeze", "order": "aaaa1111"})
    assert Streak.objects.get(account__user=ann).freezes == 1
    assert balance(ann) == 1000 - 150
    client.post("/kudos/shop/buy/", {"item": "freeze", "order": "bbbb2222"})
    response = client.post("/kudos/shop/buy/", {"item": "freeze", "order": "cccc3333"}, follow=True)
    assert messages(response)[-1] == (
        f"You already hold {rules.MAX_FREEZES} streak freezes, the most you can keep."
    )
    assert Streak.objects.get(account__user=ann).freezes == 2
    assert balance(ann) == 1000 - 300  # the refused grant undid its debit


@pytest.mark.parametrize("item", ["freeze", "back-critters"])
def test_twenty_parallel_purchases_with_a_balance_for_one_buy_exactly_one(
    item, real_services, player
):
    price = shop.get(item).price
    ann, _ = funded(player, price + price - 1)  # enough for one, one Kudo short of two
    connection.close()

    def purchase(i):
        return shop.buy(user_id=ann.pk, slug=item, order=f"{i:08x}")

    results, errors = in_parallel(20, purchase)
    bought = [r for r in results if isinstance(r, shop.Item)]
    assert len(bought) == 1
    assert all(isinstance(e, services.Refused) for e in errors) and len(errors) == 19
    assert Entry.objects.filter(user=ann, kind=Entry.Kind.SHOP).count() == 1
    assert balance(ann) == price - 1
    if item == "freeze":
        assert Streak.objects.get(account__user=ann).freezes == 1
        assert {e.message for e in errors} == {
            f"This costs {price} Kudos and you have {price - 1}."
        }
    else:
        assert Owned.objects.filter(user=ann, item=item).count() == 1
    assert selectors.audit()["problems"] == []


def test_wearing_owned_things_and_only_those(real_services, player):
    ann, client = funded(player, 10_000)
    for item in ("back-felt", "back-gold", "felt-midnight", "colour-sky"):
        client.post("/kudos/shop/buy/", {"item": item})
    assert Look.objects.filter(user=ann).values_list("back", "felt", "colour").get() == (
        "gold",
        "midnight",
        "sky",
    )
    response = client.post("/kudos/wear/", {"section": "back", "value": "felt"}, follow=True)
    assert messages(response)[-1] == "Done: that is what you wear now."
    assert card_prefs.read(client.session).back == "felt"
    response = client.post("/kudos/wear/", {"section": "back", "value": "nebula"}, follow=True)
    assert messages(response)[-1] == (
        "The Nebula card back is not yours yet: buy it in the shop first."
    )
    for elsewhere in ("https://elsewhere.example/", "//elsewhere.example/", "/\\elsewhere.example"):
        response = client.post("/kudos/wear/", {"section": "back", "value": "", "next": elsewhere})
        assert response["Location"] == "/kudos/"
    response = client.post("/kudos/wear/", {"section": "hat", "value": "x"}, follow=True)
    assert messages(response)[-1] == "That is not something you can wear."
    client.post("/kudos/wear/", {"section": "felt", "value": ""})  # back to the free felt
    assert Look.objects.get(user=ann).felt == "" and card_prefs.read(client.session).felt == "baize"
    # The card style form can choose among owned backs too, and that is remembered.
    client.post("/cards/prefs/", {"back": "gold"})
    assert Look.objects.get(user=ann).back == "gold"


def test_signing_in_on_another_browser_brings_what_the_player_wears(real_services, player):
    ann, client = funded(player, 1000, "ann")
    client.post("/kudos/shop/buy/", {"item": "felt-claret"})
    client.post("/kudos/shop/buy/", {"item": "back-felt"})
    ann.set_password("grey-Otter-71-lantern")
    ann.save()
    other = Client()
    other.post("/accounts/login/", {"username": "ann", "password": "grey-Otter-71-lantern"})
    style = card_prefs.read(other.session)
    assert (style.back, style.felt, style.backs, style.felts) == (
        "felt",
        "claret",
        {"felt"},
        {"claret"},
    )


def test_the_table_wears_the_viewers_back_and_felt_pushed_fragments_too(real_services, player):
    ann, ann_client = funded(player, 10_000, "ann")
    bob, bob_client = funded(player, 10, "bob")
    ann_client.post("/kudos/shop/buy/", {"item": "back-nebula"})
    ann_client.post("/kudos/shop/buy/", {"item": "felt-midnight"})
    ann_client.post("/kudos/shop/buy/", {"item": "colour-violet"})
    code = ann_client.post("/rooms/").url.rstrip("/").split("/")[-1]
    bob_client.post("/rooms/join/", {"code": code})
    ann_client.post(f"/rooms/{code}/start/", {"game": "war"})
    # The room page, as each of them sees it.
    ann_page = ann_client.get(f"/rooms/{code}/").content.decode()
    bob_page = bob_client.get(f"/rooms/{code}/").content.decode()
    assert 'data-felt="midnight"' in ann_page and "back.svg?back=nebula" in ann_page
    assert 'data-felt="baize"' in bob_page and "back=nebula" not in bob_page
    # Everyone sees ann's name colour and both levels beside the names.
    for page in (ann_page, bob_page):
        assert re.search(r'class="seat-name name-violet">ann', page)
        assert re.search(r'class="seat-name">bob', page)
        assert page.count('class="level-tag" title="Level 1"') == 2
    connection.close()

    async def pushed(client) -> str:
        headers = [
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
        ]
        socket = WebsocketCommunicator(application, f"/ws/rooms/{code}/", headers=headers)
        assert (await socket.connect())[0]
        html = await socket.receive_from(timeout=5)
        await socket.disconnect()
        return html

    ann_push, bob_push = async_to_sync(pushed)(ann_client), async_to_sync(pushed)(bob_client)
    assert 'data-felt="midnight"' in ann_push and "back.svg?back=nebula" in ann_push
    assert 'data-felt="baize"' in bob_push and "back=nebula" not in bob_push
    assert "name-violet" in bob_push
    assert Game.objects.filter(kind="war").count() == 1


def test_the_shop_page_lists_prices_and_what_is_owned(real_services, player):
    html = Client().get("/kudos/shop/").content.decode()
    for item in shop.CATALOGUE:
        assert f'data-item="{item.slug}"' in html and f"{item.price} Kudos" in html
    assert "Sign up" in html and "Buy " not in html
    ann, client = funded(player, shop.get("felt-slate").price + 10)
    client.post("/kudos/shop/buy/", {"item": "felt-slate"})
    html = client.get("/kudos/shop/").content.decode()
    slate = html[html.index('data-item="felt-slate"') :]
    assert "Yours" in slate[: slate.index("</li>")]
    gold = html[html.index('data-item="back-gold"') :]
    costs = f"You have 10 of the {shop.get('back-gold').price} Kudos it costs."
    assert costs in gold[: gold.index("</li>")]
