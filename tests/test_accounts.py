import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from gameplay.engine import registry

User = get_user_model()
pytestmark = pytest.mark.django_db

GOOD = "grey-Otter-71-lantern"


def signup(client, **data):
    form = {"username": "maple", "password1": GOOD, "password2": GOOD}
    form.update(data)
    return client.post("/accounts/signup/", form)


def test_signup_creates_user_and_signs_in(client):
    response = signup(client, email="maple@example.com", time_zone="Europe/Paris")
    assert response.status_code == 302
    user = User.objects.get(username="maple")
    assert user.email == "maple@example.com" and user.time_zone == "Europe/Paris"
    home = client.get("/")
    assert b"data-username>maple<" in home.content
    assert "Welcome to Cubic Cards, maple!" in home.content.decode()  # once, after signing up
    assert "Welcome to Cubic Cards" not in client.get("/").content.decode()
    assert "minutes ago" not in client.get("/u/maple/").content.decode()


def test_signup_email_is_optional(client):
    assert signup(client).status_code == 302
    assert User.objects.get(username="maple").email == ""


@pytest.mark.parametrize(
    "data, message",
    [
        ({"password2": GOOD + "x"}, "The two password fields didn"),
        ({"password1": "12345678", "password2": "12345678"}, "This password is too common"),
        ({"password1": "abc", "password2": "abc"}, "too short"),
        ({"username": "x" * 31}, "at most 30 characters"),
        ({"username": "bad name!"}, "Enter a valid username"),
        ({"username": ""}, "This field is required"),
        ({"time_zone": "Mars/Olympus"}, "Select a valid choice"),
        ({"email": "not-an-email"}, "Enter a valid email address"),
    ],
)
def test_signup_bad_input_gets_form_back(client, data, message):
    response = signup(client, **data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.filter(role=User.PERSON).exists()


def test_signup_taken_username(client):
    User.objects.create_user("maple", password=GOOD)
    response = signup(client, username="Maple")
    assert response.status_code == 200
    assert (
        "A user with that username already exists" in response.content.decode()
        or "taken" in response.content.decode()
    )
    assert User.objects.filter(role=User.PERSON).count() == 1


def test_signup_without_csrf_token_creates_nothing():
    client = Client(enforce_csrf_checks=True)
    response = signup(client)
    assert response.status_code == 403
    assert "This form had expired. Please try again." in response.content.decode()
    assert b'name="username"' in response.content  # the form is back
    assert not User.objects.filter(role=User.PERSON).exists()


@pytest.mark.parametrize(
    "path, data",
    [
        ("/accounts/login/", {"username": "maple", "password": GOOD}),
        ("/accounts/login/", {}),
        ("/accounts/signup/", {}),
    ],
)
def test_form_without_csrf_token_comes_back_with_a_sentence(path, data):
    User.objects.create_user("maple", password=GOOD)
    client = Client(enforce_csrf_checks=True)
    response = client.post(path, data)
    assert response.status_code == 403
    page = response.content.decode()
    assert "This form had expired. Please try again." in page
    assert 'name="username"' in page
    assert "_auth_user_id" not in client.session  # no sign-in without the token


def test_signin_and_signout(client):
    User.objects.create_user("maple", password=GOOD)
    response = client.post("/accounts/login/", {"username": "maple", "password": GOOD})
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "maple"
    assert client.post("/accounts/logout/").status_code == 302
    assert not client.get("/").context["user"].is_authenticated


def test_signin_failure_does_not_say_which_field(client):
    User.objects.create_user("maple", password=GOOD)
    wrong_password = client.post("/accounts/login/", {"username": "maple", "password": "nope"})
    unknown_user = client.post("/accounts/login/", {"username": "nobody", "password": GOOD})
    for response in (wrong_password, unknown_user):
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.content.decode()
    strip = lambda r: r.content.decode().replace("maple", "").replace("nobody", "")  # noqa: E731
    assert (
        strip(wrong_password).split("form-error")[1][:200]
        == strip(unknown_user).split("form-error")[1][:200]
    )


def test_password_change(client):
    user = User.objects.create_user("maple", password=GOOD)
    client.force_login(user)
    new = "violet-Harbor-93-candle"
    bad = client.post(
        "/accounts/password/", {"old_password": "wrong", "new_password1": new, "new_password2": new}
    )
    assert (
        bad.status_code == 200
        and "Your old password was entered incorrectly" in bad.content.decode()
    )
    mismatch = client.post(
        "/accounts/password/",
        {"old_password": GOOD, "new_password1": new, "new_password2": new + "!"},
    )
    assert mismatch.status_code == 200
    ok = client.post(
        "/accounts/password/", {"old_password": GOOD, "new_password1": new, "new_password2": new}
    )
    assert ok.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_password_change_needs_sign_in(client):
    assert client.get("/accounts/password/").status_code == 302


def test_profile_page(client):
    User.objects.create_user("maple", password=GOOD)
    assert client.get("/u/maple/").status_code == 200
    assert client.get("/u/nobody/").status_code == 404


def test_home_lists_every_registered_game(client):
    content = client.get("/").content.decode()
    kinds = registry.kinds()
    assert f"<h1>{len(kinds)} card games." in content
    assert content.count('class="game-tile"') == len(kinds)
    for kind in kinds:
        engine = registry.get(kind)
        assert f'data-kind="{kind}"' in content and engine.blurb in content
        assert f'action="/play/{kind}/"' in content and f'href="/rules/{kind}/"' in content
    assert "Coming soon" not in content
