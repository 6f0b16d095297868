"""Friends: requests, blocks and invitations to a table, through the services and the pages.
Every refusal is a sentence and leaves the rows as they were."""

import html
import re

import pytest
from django.test import Client

from accounts.models import User
from lobby import services as lobby
from lobby.models import Member, Presence, Room, Watcher
from social import selectors, services
from social.models import Block, FriendRequest, Friendship, Invitation, Online

pytestmark = pytest.mark.django_db


def person(name: str, role: str = User.PERSON) -> User:
    return User.objects.create_user(name, password=None, role=role)


def signed_in(user: User, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def refused(call, **kwargs) -> str:
    with pytest.raises(services.Refused) as caught:
        call(**kwargs)
    return caught.value.message


def rows() -> tuple:
    """Everything the friends' services write, to check a refusal changed none of it."""
    return (
        sorted(FriendRequest.objects.values_list("sender", "recipient", "status")),
        sorted(Friendship.objects.values_list("user", "friend")),
        sorted(Block.objects.values_list("blocker", "blocked")),
        sorted(Invitation.objects.values_list("sender", "recipient", "room", "status")),
        sorted(Member.objects.values_list("room", "player", "left")),
    )


def friends(a: User, b: User) -> None:
    services.ask(sender=a, username=b.username)
    found = FriendRequest.objects.get(sender=a, recipient=b, status="pending")
    services.accept(user=b, request_id=found.pk)


def room_of(user: User) -> Room:
    return lobby.create_room(player=f"user:{user.pk}", name=user.username, user=user)


# ---- friend requests ---------------------------------------------------------------------------


def test_a_request_accepted_makes_two_friends():
    ann, bob = person("ann"), person("bob")
    assert services.ask(sender=ann, username="bob") is False
    found = FriendRequest.objects.get(sender=ann, recipient=bob)
    assert found.status == "pending" and not services.are_friends(ann, bob)
    services.accept(user=bob, request_id=found.pk)
    assert services.are_friends(ann, bob) and services.are_friends(bob, ann)
    found.refresh_from_db()
    assert found.status == "accepted" and found.answered is not None


def test_asking_someone_who_asked_you_accepts_their_request():
    ann, bob = person("ann"), person("bob")
    services.ask(sender=ann, username="bob")
    assert services.ask(sender=bob, username="ann") is True
    assert services.are_friends(ann, bob)
    assert FriendRequest.objects.get().status == "accepted"  # theirs, and no second one


def test_decline_cancel_and_remove():
    ann, bob, cat = person("ann"), person("bob"), person("cat")
    services.ask(sender=ann, username="bob")
    services.decline(user=bob, request_id=FriendRequest.objects.get(recipient=bob).pk)
    assert not services.are_friends(ann, bob)
    services.ask(sender=ann, username="cat")
    services.cancel(user=ann, request_id=FriendRequest.objects.get(recipient=cat).pk)
    assert FriendRequest.objects.get(recipient=cat).status == "cancelled"
    friends(ann, bob)
    services.unfriend(user=bob, username="ann")
    assert not Friendship.objects.exists()
    assert refused(services.unfriend, user=bob, username="ann") == "You and ann are not friends."


@pytest.mark.parametrize(
    ("username", "said"),
    [
        ("ann", "You can't be your own friend."),
        ("ghost", "Nobody here is called ghost."),
        ("", "Say who, by their name."),
        ("cpu", "cpu is a computer player: computer players and bots don't make friends."),
        ("robo", "robo is a bot: computer players and bots don't make friends."),
    ],
)
def test_requests_that_cannot_be_made_say_why(username, said):
    ann = person("ann")
    person("cpu", User.COMPUTER)
    person("robo", User.BOT)
    before = rows()
    assert refused(services.ask, sender=ann, username=username) == said
    assert rows() == before


def test_a_bot_sends_no_requests():
    robo, ann = person("robo", User.BOT), person("ann")
    assert refused(services.ask, sender=robo, username="ann") == (
        "Computer players and bots don't make friends."
    )
    assert not FriendRequest.objects.filter(recipient=ann).exists()


def test_asking_twice_or_a_friend_again_says_so():
    ann, bob = person("ann"), person("bob")
    services.ask(sender=ann, username="bob")
    before = rows()
    assert refused(services.ask, sender=ann, username="bob") == (
        "You have already asked bob: they haven't answered yet."
    )
    assert rows() == before
    services.accept(user=bob, request_id=FriendRequest.objects.get().pk)
    assert refused(services.ask, sender=bob, username="ann") == "You and ann are already friends."


def test_requests_to_non_friends_are_limited_per_day_withdrawn_ones_included():
    ann = person("ann")
    others = [person(f"p{i}") for i in range(services.REQUESTS_PER_DAY + 1)]
    for other in others[:-1]:
        services.ask(sender=ann, username=other.username)
    services.cancel(user=ann, request_id=FriendRequest.objects.filter(sender=ann).first().pk)
    assert services.requests_left_today(ann) == 0
    before = rows()
    assert refused(services.ask, sender=ann, username=others[-1].username) == (
        "You have sent 20 friend requests today, the most a day: ask again tomorrow (UTC)."
    )
    assert rows() == before
    # Accepting a request someone sent you is no request of your own: never limited.
    stranger = person("stranger")
    services.ask(sender=stranger, username="ann")
    assert services.ask(sender=ann, username="stranger") is True


def test_yesterdays_requests_do_not_count_today():
    ann = person("ann")
    others = [person(f"p{i}") for i in range(services.REQUESTS_PER_DAY + 1)]
    for other in others[:-1]:
        services.ask(sender=ann, username=other.username)
    FriendRequest.objects.update(created=services._day_start() - services.timedelta(seconds=1))
    assert services.requests_left_today(ann) == services.REQUESTS_PER_DAY
    services.ask(sender=ann, username=others[-1].username)


def test_answers_to_requests_that_are_not_yours_or_not_open_say_why():
    ann, bob, eve = person("ann"), person("bob"), person("eve")
    services.ask(sender=ann, username="bob")
    found = FriendRequest.objects.get()
    before = rows()
    for user, call in ((eve, services.accept), (ann, services.accept), (bob, services.cancel)):
        assert refused(call, user=user, request_id=found.pk) == services.NO_SUCH_REQUEST
    for forged in ("abc", "", None, found.pk + 999, "1; DROP TABLE"):
        assert refused(services.accept, user=bob, request_id=forged) == services.NO_SUCH_REQUEST
    assert rows() == before
    services.accept(user=bob, request_id=found.pk)
    before = rows()
    assert refused(services.accept, user=bob, request_id=found.pk) == (
        "That request is already answered: you and ann are friends."
    )
    assert refused(services.decline, user=bob, request_id=found.pk) == (
        "That request is already answered: you and ann are friends."
    )
    assert rows() == before


def test_a_withdrawn_request_cannot_be_accepted():
    ann, bob = person("ann"), person("bob")
    services.ask(sender=ann, username="bob")
    found = FriendRequest.objects.get()
    services.cancel(user=ann, request_id=found.pk)
    assert refused(services.accept, user=bob, request_id=found.pk) == (
        "That request was withdrawn by ann."
    )
    assert not services.are_friends(ann, bob)


# ---- blocks ------------------------------------------------------------------------------------


def test_blocking_ends_the_friendship_requests_and_invitations_both_ways():
    ann, bob, cat = person("ann"), person("bob"), person("cat")
    friends(ann, bob)
    room = room_of(bob)
    services.invite(sender=bob, username="ann", code=room.code)
    services.ask(sender=cat, username="ann")
    services.block(user=ann, username="bob")
    services.block(user=ann, username="cat")
    assert not Friendship.objects.exists()
    assert set(FriendRequest.objects.values_list("status", flat=True)) == {
        "accepted",
        "cancelled",
    }
    assert Invitation.objects.get().status == "withdrawn"
    assert selectors.open_invitations(ann) == []
    assert services.blocks(ann, bob) and services.blocks(bob, ann)
    assert services.blocks(ann.pk, cat.pk) and not services.blocks(bob, cat)


def test_a_blocked_person_learns_only_that_the_other_is_not_available():
    ann, bob = person("ann"), person("bob")
    services.block(user=ann, username="bob")
    room = room_of(bob)
    before = rows()
    assert refused(services.ask, sender=bob, username="ann") == (
        "ann is not available for friend requests."
    )
    # Not friends any more, so the same answer as for anyone who isn't a friend.
    assert refused(services.invite, sender=bob, username="ann", code=room.code) == (
        "You can invite friends only, and ann is not one of yours."
    )
    assert rows() == before
    assert refused(services.ask, sender=ann, username="bob") == (
        "You have blocked bob: unblock them first."
    )


def test_unblock_and_blocking_twice_or_yourself():
    ann, bob = person("ann"), person("bob")
    assert refused(services.block, user=ann, username="ann") == "You can't block yourself."
    assert refused(services.unblock, user=ann, username="bob") == "You have not blocked bob."
    services.block(user=ann, username="bob")
    assert refused(services.block, user=ann, username="bob") == "You have already blocked bob."
    services.unblock(user=ann, username="bob")
    assert not services.blocks(ann, bob)
    services.ask(sender=bob, username="ann")  # asking works again


# ---- invitations -------------------------------------------------------------------------------


def test_an_invited_friend_joins_the_table():
    ann, bob = person("ann"), person("bob")
    friends(ann, bob)
    room = room_of(ann)
    invitation = services.invite(sender=ann, username="bob", code=room.code.lower())
    assert selectors.open_invitations(bob) == [invitation]
    assert selectors.open_invitations(bob)[0].waiting
    joined = services.join(user=bob, invitation_id=invitation.pk, name="bob")
    assert joined.pk == room.pk
    assert lobby.member_of(room, f"user:{bob.pk}") is not None
    invitation.refresh_from_db()
    assert invitation.status == "accepted"
    assert selectors.open_invitations(bob) == []
    before = rows()
    assert refused(services.join, user=bob, invitation_id=invitation.pk, name="bob") == (
        "You have taken up that invitation already."
    )
    assert rows() == before


def test_invitations_that_cannot_be_sent_say_why():
    ann, bob, cat = person("ann"), person("bob"), person("cat")
    friends(ann, bob)
    room, elsewhere = room_of(ann), room_of(cat)
    solo = lobby.create_room(player=f"user:{ann.pk}", name="ann", user=ann, private=True)
    before = rows()
    cases = [
        (ann, "cat", room.code, "You can invite friends only, and cat is not one of yours."),
        (ann, "bob", elsewhere.code, services.NOT_AT_TABLE),
        (ann, "bob", "ZZZZZ", services.NOT_AT_TABLE),
        (ann, "bob", "not a code", services.NOT_AT_TABLE),
        (ann, "bob", solo.code, "This table is yours alone: nobody else can join it."),
        (ann, "ghost", room.code, "Nobody here is called ghost."),
        (ann, "ann", room.code, "You are at this table already."),
    ]
    for sender, name, code, said in cases:
        assert refused(services.invite, sender=sender, username=name, code=code) == said
    assert rows() == before
    services.invite(sender=ann, username="bob", code=room.code)
    assert refused(services.invite, sender=ann, username="bob", code=room.code) == (
        "bob has an invitation to this table already."
    )


def test_no_invitation_to_a_table_in_play():
    ann, bob, cat = person("ann"), person("bob"), person("cat")
    friends(ann, bob)
    room = room_of(ann)
    lobby.join_room(code=room.code, player=f"user:{cat.pk}", name="cat", user=cat)
    lobby.start_game(room=room, player=f"user:{ann.pk}", kind="war", seats="2")
    assert refused(services.invite, sender=ann, username="bob", code=room.code) == (
        "The game has started: invite friends when the table is back in its lobby."
    )


def test_an_invitation_to_a_table_that_filled_started_or_ended_says_so():
    ann, bob = person("ann"), person("bob")
    friends(ann, bob)
    room = room_of(ann)
    invitation = services.invite(sender=ann, username="bob", code=room.code)
    others = [person(f"p{i}") for i in range(5)]
    for other in others:
        lobby.join_room(code=room.code, player=f"user:{other.pk}", name=other.username, user=other)
    before = rows()
    assert refused(services.join, user=bob, invitation_id=invitation.pk, name="bob") == (
        "That table has filled up."
    )
    assert rows() == before
    lobby.leave_room(room=room, player=f"user:{others[0].pk}")
    room.refresh_from_db()
    lobby.start_game(room=room, player=f"user:{ann.pk}", kind="war", seats="2")
    assert refused(services.join, user=bob, invitation_id=invitation.pk, name="bob") == (
        services.STARTED
    )
    for member in Room.objects.get(pk=room.pk).present():
        lobby.leave_room(room=Room.objects.get(pk=room.pk), player=member.player)
    assert refused(services.join, user=bob, invitation_id=invitation.pk, name="bob") == (
        "That game has ended."
    )
    assert Invitation.objects.get().status == "pending"


def test_forged_or_someone_elses_invitations_lead_nowhere():
    ann, bob, eve = person("ann"), person("bob"), person("eve")
    friends(ann, bob)
    invitation = services.invite(sender=ann, username="bob", code=room_of(ann).code)
    before = rows()
    for user, pk in ((eve, invitation.pk), (ann, invitation.pk), (bob, "x"), (bob, 10**9)):
        for call in (services.join, services.dismiss, services.watch_path):
            kwargs = {"name": "x"} if call is services.join else {}
            assert refused(call, user=user, invitation_id=pk, **kwargs) == (
                "There is no such invitation for you."
            )
    assert rows() == before


def test_a_dismissed_invitation_is_gone_and_says_so():
    ann, bob = person("ann"), person("bob")
    friends(ann, bob)
    invitation = services.invite(sender=ann, username="bob", code=room_of(ann).code)
    services.dismiss(user=bob, invitation_id=invitation.pk)
    assert selectors.open_invitations(bob) == []
    assert refused(services.dismiss, user=bob, invitation_id=invitation.pk) == (
        "You dismissed that invitation."
    )
    assert refused(services.join, user=bob, invitation_id=invitation.pk, name="bob") == (
        "You dismissed that invitation."
    )


def test_an_invitation_lets_the_friend_watch_a_table_that_is_not_listed():
    ann, bob, cat = person("ann"), person("bob"), person("cat")
    friends(ann, bob)
    room = room_of(ann)
    invitation = services.invite(sender=ann, username="bob", code=room.code)
    lobby.join_room(code=room.code, player=f"user:{cat.pk}", name="cat", user=cat)
    lobby.start_game(room=room, player=f"user:{ann.pk}", kind="war", seats="2")
    bob_page = signed_in(bob)
    assert bob_page.get(f"/rooms/{room.code}/watch/").status_code == 404  # not without it
    home = bob_page.get("/").content.decode()
    assert f'action="/invitations/{invitation.pk}/watch/"' in home and "(playing now)" in home
    answer = bob_page.post(f"/invitations/{invitation.pk}/watch/")
    assert answer.status_code == 302 and "?invite=" in answer.url
    assert bob_page.get(answer.url).status_code == 200


# ---- the pages ---------------------------------------------------------------------------------


def test_every_post_needs_its_csrf_token():
    ann = person("ann")
    person("bob")
    page = signed_in(ann, csrf=True)
    for path in ("/friends/ask/", "/friends/block/", "/friends/remove/", "/friends/invite/"):
        assert page.post(path, {"username": "bob", "code": "ABCDE"}).status_code == 403, path
    assert page.post("/invitations/1/join/").status_code == 403
    assert page.post("/friends/requests/1/accept/").status_code == 403
    assert not FriendRequest.objects.exists() and not Block.objects.exists()


def test_the_profile_offers_add_friend_and_the_pages_say_what_happened():
    ann, bob = person("ann"), person("bob")
    page = signed_in(ann)
    profile = page.get("/u/bob/").content.decode()
    assert ">Add friend</button>" in profile and ">Block</button>" in profile
    said = page.post("/friends/ask/", {"username": "bob", "next": "/u/bob/"}, follow=True)
    assert said.redirect_chain[-1][0] == "/u/bob/"
    assert "Friend request sent to bob." in said.content.decode()
    assert ">Withdraw request</button>" in said.content.decode()
    again = page.post("/friends/ask/", {"username": "bob"}, follow=True).content.decode()
    assert "You have already asked bob: they haven&#x27;t answered yet." in again
    elsewhere = page.post("/friends/ask/", {"username": "bob", "next": "https://evil.test/"})
    assert elsewhere.url == "/friends/"
    bob_page = signed_in(bob)
    listed = bob_page.get("/friends/").content.decode()
    request_id = FriendRequest.objects.get().pk
    assert f"/friends/requests/{request_id}/accept/" in listed
    bob_page.post(f"/friends/requests/{request_id}/accept/")
    replayed = bob_page.post(f"/friends/requests/{request_id}/accept/", follow=True)
    assert "already answered: you and ann are friends" in replayed.content.decode()
    assert bob_page.post(f"/friends/requests/{request_id}/shout/").status_code == 404
    assert ">Remove friend</button>" in page.get("/u/bob/").content.decode()
    assert "Add friend" not in page.get("/u/ann/").content.decode()  # not on your own


def test_no_friend_buttons_for_computers_and_guests():
    person("ann")
    person("cpu", User.COMPUTER)
    assert "Add friend" not in Client().get("/u/ann/").content.decode()
    assert (
        "Add friend"
        not in signed_in(User.objects.get(username="ann")).get("/u/cpu/").content.decode()
    )
    assert Client().get("/friends/").status_code == 302  # sign in first


def test_the_friends_page_shows_who_is_online_and_at_which_shared_table():
    ann, bob, cat, dan = person("ann"), person("bob"), person("cat"), person("dan")
    for other in (bob, cat, dan):
        friends(ann, other)
    now = services.timezone.now()
    for who in (bob, cat):
        Online.objects.create(user=who, channel=f"header-{who.pk}", seen=now)
    public = room_of(bob)
    public.public, public.kind = True, "war"
    public.save()
    member = Member.objects.get(room=public, user=bob)
    Presence.objects.create(member=member, channel="table-bob", seen=now)
    hidden = room_of(cat)  # reached by its code only: never named
    Presence.objects.create(
        member=Member.objects.get(room=hidden, user=cat), channel="table-cat", seen=now
    )
    page = html.unescape(signed_in(ann).get("/friends/").content.decode())
    rows_ = dict(re.findall(r'data-friend="(\w+)">(.*?)</li>', page, re.S))
    assert "online" in rows_["bob"] and f'href="/rooms/{public.code}/"' in rows_["bob"]
    assert "online" in rows_["cat"] and "table" not in rows_["cat"]
    assert hidden.code not in page
    assert "offline" in rows_["dan"]
    # Watching a listed table (signed in) is shown too, with the watch link.
    Online.objects.create(user=dan, channel="header-dan", seen=now)
    Watcher.objects.create(room=public, channel="watch-dan", seen=now, user=dan)
    page = signed_in(ann).get("/friends/").content.decode()
    assert f'href="/rooms/{public.code}/watch/">watching table {public.code}' in page


def test_the_room_lists_online_friends_to_invite_and_home_lists_the_invitation():
    ann, bob, cat = person("ann"), person("bob"), person("cat")
    friends(ann, bob)
    friends(ann, cat)
    Online.objects.create(user=bob, channel="header-bob", seen=services.timezone.now())
    room = room_of(ann)
    ann_page = signed_in(ann)
    lobby_page = ann_page.get(f"/rooms/{room.code}/").content.decode()
    assert f'hx-get="/friends/invite/{room.code}/"' in lobby_page
    listed = ann_page.get(f"/friends/invite/{room.code}/").content.decode()
    assert 'Invite<span class="sr-only"> bob</span>' in listed
    assert 'Invite<span class="sr-only"> cat</span>' not in listed  # offline
    elsewhere = signed_in(cat).get(f"/friends/invite/{room.code}/").content.decode()
    assert services.NOT_AT_TABLE in elsewhere and "bob" not in elsewhere
    said = ann_page.post(
        "/friends/invite/",
        {"code": room.code, "username": "bob", "next": f"/rooms/{room.code}/"},
        follow=True,
    )
    assert "Invitation sent to bob." in said.content.decode()
    home = signed_in(bob).get("/").content.decode()
    invitation = Invitation.objects.get()
    assert f"/invitations/{invitation.pk}/join/" in home and room.code in home
    joined = signed_in(bob).post(f"/invitations/{invitation.pk}/join/")
    assert joined.url == f"/rooms/{room.code}/"
    listed = ann_page.get(f"/friends/invite/{room.code}/").content.decode()
    assert "bob" not in listed  # at the table now: nobody to invite


def test_a_header_whose_process_died_stops_counting_and_a_live_one_is_kept():
    bob = User.objects.create_user("bob", password=None)
    ann = User.objects.create_user("ann", password=None)
    long_ago = services.timezone.now() - services.timedelta(minutes=5)
    Online.objects.create(user=bob, channel="dead-process", seen=long_ago)
    Online.objects.create(user=ann, channel="swept-but-alive", seen=long_ago)
    assert selectors.online_ids([bob.pk, ann.pk]) == set()
    # The live process beats for its socket (even one swept meanwhile); the dead row goes.
    services.heartbeat({"swept-but-alive": ann.pk})
    assert selectors.online_ids([bob.pk, ann.pk]) == {ann.pk}
    assert not Online.objects.filter(channel="dead-process").exists()


def test_the_export_names_friends_and_erasing_an_account_leaves_no_friends_rows():
    from accounts import privacy

    ann, bob, cat = person("ann"), person("bob"), person("cat")
    friends(ann, bob)
    services.block(user=ann, username="cat")
    services.invite(sender=bob, username="ann", code=room_of(bob).code)
    held = privacy.export(ann)["friends"]
    assert [f["name"] for f in held["friends"]] == ["bob"]
    assert [b["name"] for b in held["blocked"]] == ["cat"]
    assert held["requests_sent"][0]["to"] == "bob"
    privacy.erase(ann)
    assert not services.are_friends(bob, ann) and not services.blocks(ann, cat)
    assert not Invitation.objects.exists() and not FriendRequest.objects.exists()


def test_the_friends_page_reads_the_same_few_queries_for_any_number_of_friends():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann = person("ann")
    page = signed_in(ann)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert page.get("/friends/").status_code == 200
        return len(captured)

    now = services.timezone.now()
    counts = []
    page.get("/friends/")  # the header's facts are read once, then kept (kudos.header)
    for many in (2, 12):
        while Friendship.objects.filter(user=ann).count() < many:
            other = person(f"f{Friendship.objects.filter(user=ann).count()}")
            friends(other, ann)
            Online.objects.create(user=other, channel=f"header-{other.pk}", seen=now)
        counts.append(queries())
    assert counts[0] == counts[1], counts


def test_a_person_may_send_so_many_invitations_a_minute(settings):
    assert settings.INVITATIONS_PER_MINUTE == 10  # the default
    settings.INVITATIONS_PER_MINUTE = 3
    ann = person("ann")
    others = [person(f"friend{i}") for i in range(5)]
    for other in others:
        friends(ann, other)
    room = room_of(ann)
    for other in others[:3]:
        services.invite(sender=ann, username=other.username, code=room.code)
    before = rows()
    assert refused(services.invite, sender=ann, username="friend3", code=room.code) == (
        "You have sent too many invitations; try again in a minute."
    )
    assert rows() == before
    page = signed_in(ann).post(
        "/friends/invite/",
        {"code": room.code, "username": "friend3", "next": f"/rooms/{room.code}/"},
        follow=True,
    )
    assert html.escape(services.TOO_MANY_INVITATIONS) in page.content.decode()
    assert rows() == before
    # A minute on, the first ones no longer count.
    Invitation.objects.update(created=services.timezone.now() - services.timedelta(seconds=61))
    services.invite(sender=ann, username="friend3", code=room.code)
    assert Invitation.objects.filter(recipient__username="friend3").exists()
