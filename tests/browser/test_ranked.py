"""Ranked Poker in a browser: sign up, Play ranked, wait in the queue, sit at the table the
matcher makes (computer players fill it after the wait), play, leave, and find the rating
change on the profile with its chart. Ranked Crazy 8 against Expert computers, played to the
end: the table is filled with the strength nearest the person's rating, and both sides'
ratings move."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts import computers, ratings
from accounts.models import Rating, RatingChange, User

from .phone import DESKTOP, shot
from .test_to_the_end import play_shedding

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick_fill(monkeypatch):
    monkeypatch.setenv("RANKED_FILL_AFTER", "3")


def test_ranked_poker_from_the_queue_to_the_profile(
    page: Page, quick_fill, daphne_server, celery_worker_process, celery_beat_process, tmp_path
):
    page.set_viewport_size({"width": 1100, "height": 850})
    try:
        page.goto(daphne_server + "/accounts/signup/")
        page.get_by_label("Username").fill("heron")
        page.get_by_label("Password", exact=True).fill("grey-Heron-71-lantern")
        page.get_by_label("Password confirmation").fill("grey-Heron-71-lantern")
        page.get_by_label("Time zone").select_option("America/New_York")
        page.get_by_role("button", name="Create account").click()
        expect(page.locator("[data-username]")).to_have_text("heron")

        page.locator("[data-kind=poker]").get_by_role(
            "button", name=re.compile("Play ranked")
        ).click()
        expect(page.get_by_role("heading", name="Ranked Poker")).to_be_visible()
        expect(page.locator("[data-my-rating]")).to_have_text("1500")
        expect(page.locator("[data-waiting] li.you")).to_contain_text("heron")
        page.screenshot(path=str(tmp_path / "queue.png"))

        # Nobody else queues: after the wait the computer fills the table and the page goes there.
        page.wait_for_url(re.compile(r"/rooms/[A-Z]{5}/$"), timeout=30_000)
        expect(page.locator(".table-title .badge", has_text="Ranked")).to_be_visible()
        expect(page.locator(".pk")).to_be_visible()
        expect(page.locator(".pk-seat .bot-tag")).to_have_count(3)
        expect(page.get_by_role("button", name="Back to lobby")).to_have_count(0)

        # Play a turn when it comes (check or call), then leave: the computer finishes for us.
        page.wait_for_selector(".pk-row button[ws-send], #draw:not([disabled])", timeout=30_000)
        seq = page.locator("#room-main").get_attribute("data-seq")
        buttons = page.locator(".pk-row button[ws-send]").filter(
            has_text=re.compile("^(Check|Call)")
        )
        if buttons.count():
            buttons.first.click()
        else:
            page.locator("#draw").click()
        page.wait_for_function(
            "seq => document.getElementById('room-main').dataset.seq !== seq", arg=seq
        )
        page.screenshot(path=str(tmp_path / "table.png"))
        page.get_by_role("button", name="Leave").click()
        page.wait_for_url(re.compile(r"^http://[^/]+/$"))

        # The profile shows the rating change once the game is played out and rated.
        for _ in range(60):
            if RatingChange.objects.filter(user__username="heron").exists():
                break
            page.wait_for_timeout(500)
        change = RatingChange.objects.get(user__username="heron")
        after = ratings.shown(change.mu, change.sigma)
        assert change.left and change.place == 4 and after < 1500
        page.goto(daphne_server + "/u/heron/")
        rated = page.locator("[data-rated=poker]")
        expect(rated.locator(".rating-now")).to_have_text(str(after))
        expect(rated.locator(".badge")).to_have_text("provisional")
        expect(rated.locator("svg")).to_have_count(1)
        # Left after one decision: rated as a loss, so it is in the history beside the rating
        # it moved, marked as left and not counted as play (gameplay.play): it earned nothing.
        recent = page.locator(".history li").first
        expect(recent).to_contain_text("ranked, left, place 4")
        expect(recent).to_contain_text("not counted as play")
        expect(recent.locator("[data-delta]")).to_have_text(str(after - 1500))
        expect(page.locator("text=Times in America/New_York.")).to_be_visible()
        page.screenshot(path=str(tmp_path / "profile.png"), full_page=True)
    except Exception:
        page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
        raise


def sign_up(page: Page, site: str, name: str, password: str) -> None:
    page.goto(site + "/accounts/signup/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password confirmation").fill(password)
    page.get_by_role("button", name="Create account").click()
    expect(page.locator("[data-username]")).to_have_text(name)


def rated(user_id: int, kind: str, points: int, games: int) -> Rating:
    """A settled rating at ``points`` (its estimate on the shown scale)."""
    mu, sigma = ratings.MODEL.mu + (points - ratings.DISPLAY_BASE) / ratings.DISPLAY_SCALE, 2.0
    return Rating.objects.create(
        user_id=user_id, kind=kind, mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=games,
        updated=timezone.now(),
    )  # fmt: skip


def test_ranked_crazy8_against_expert_computers_to_the_end(
    browser: Browser, quick_fill, daphne_server, celery_worker_process, celery_beat_process
):
    # Expert has won its way above Medium and Hard (1500 on the ladder), and the person is
    # rated at its level: the matcher fills the table with Experts.
    expert = rated(computers.account_id("expert"), "crazy8", 1700, games=80)
    page = browser.new_context(**{**DESKTOP, "has_touch": True}).new_page()
    sign_up(page, daphne_server, "osprey", "brown-Osprey-38-river")
    rated(User.objects.get(username="osprey").pk, "crazy8", 1700, games=40)

    page.locator("[data-kind=crazy8]").get_by_role("button", name=re.compile("Play ranked")).click()
    expect(page.get_by_role("heading", name="Ranked Crazy 8")).to_be_visible()
    page.wait_for_url(re.compile(r"/rooms/[A-Z]{5}/$"), timeout=30_000)
    expect(page.locator(".table-title .badge", has_text="Ranked")).to_be_visible()
    expect(page.locator(".bot-tag")).to_have_text(["CPU · Expert"] * 3)
    shot(page, "ranked-crazy8-expert-1280")

    assert play_shedding(page) > 0  # every move of the person's, to the end of the game
    expect(page.locator(".game-over h2")).to_be_visible()
    shot(page, "ranked-crazy8-expert-over-1280")
    for _ in range(60):
        if RatingChange.objects.filter(user__username="osprey").exists():
            break
        page.wait_for_timeout(500)
    change = RatingChange.objects.get(user__username="osprey")
    assert not change.left and change.mu != change.mu_before  # played to the end, and rated
    expert.refresh_from_db()
    assert expert.games == 81  # three Expert seats are one game for Expert
    assert expert.mu != ratings.MODEL.mu + 200 / ratings.DISPLAY_SCALE  # and it moved too
    page.context.close()


def test_play_ranked_with_a_seat_elsewhere_says_where(page: Page, daphne_server):
    """A seat at a game in play keeps a person out of the queue: the waiting page names the
    table, with Go back to it and Leave it and queue (not a trip to the home page)."""
    page.set_viewport_size({"width": 390, "height": 844})
    sign_up(page, daphne_server, "egret", "white-Egret-52-harbour")
    page.goto(daphne_server + "/play/war/")
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_url(re.compile(r"/rooms/[A-Z]{5}/$"))
    code = page.url.rstrip("/").split("/")[-1]

    page.goto(daphne_server + "/")
    page.locator("[data-kind=poker]").get_by_role("button", name=re.compile("Play ranked")).click()
    elsewhere = page.locator(f"[data-elsewhere={code}]")
    expect(elsewhere).to_contain_text(f"You still have a seat at War in room {code}")
    assert page.url.endswith("/ranked/poker/")
    page.get_by_role("link", name="Go back to it").click()
    page.wait_for_url(f"**/rooms/{code}/")
    expect(page.locator("section.table")).to_be_visible()

    page.goto(daphne_server + "/ranked/poker/")
    page.get_by_role("button", name="Leave it and queue").click()
    expect(page.locator(".queue-status")).to_contain_text("Looking for players")
    expect(page.locator("[data-waiting] li.you")).to_contain_text("egret")
