"""Ratings: one update per ranked game from the engine's ranking, whatever the hook does."""

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts import computers, ratings
from accounts.models import Rating, RatingChange, User
from gameplay import hooks
from gameplay.engine import registry
from gameplay.models import Game, GameEndReceipt
from tests.played import played_log

KIND = "poker"  # any rated game: the ratings read only ranking, seats and teams


def seat(user=None, *, bot=False, left=False, strength=None):
    out = {"name": user.username if user else "Cubot", "user_id": user.pk if user else None}
    out["bot"] = bot or user is None
    if left:
        out["left"] = True
    if strength:
        out["strength"] = strength
    return out


def ended_game(seats, ranking, *, minutes=0, ranked=True, kind=KIND, save=True) -> Game:
    game = Game(
        kind=kind,
        rules=registry.get(kind).default_rules(),
        seats=seats,
        seed="s",
        seed_hash="h",
        status=Game.Status.OVER,
        result={"scores": [0] * len(seats), "winners": ranking[0], "ranking": ranking},
        facts=[{} for _ in seats],
        ranked=ranked,
        ended=timezone.now() - timedelta(hours=1) + timedelta(minutes=minutes),
    )
    if save:
        game.save()
        played_log(game)  # the people at the table played it
    return game


@pytest.fixture
def people(db):
    return [User.objects.create_user(f"p{i}", password="pw-long-enough") for i in range(6)]


def rating(user, kind=KIND) -> Rating:
    return Rating.objects.get(user=user, kind=kind)


# ---- the model's invariants (no database) ------------------------------------------------------


class Fake:
    def __init__(self, pk):
        self.pk = pk
        self.username = f"u{pk}"


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(2, 4),
    mus=st.lists(st.floats(10, 40), min_size=4, max_size=4),
    sigmas=st.lists(st.floats(1, 8.4), min_size=4, max_size=4),
    order=st.permutations([0, 1, 2, 3]),
    tie_first=st.booleans(),
)
def test_a_winner_never_falls_and_a_last_place_never_rises(n, mus, sigmas, order, tie_first):
    seats_ = [seat(Fake(i + 1)) for i in range(n)]
    finish = [s for s in order if s < n]
    ranking = [[s] for s in finish]
    if tie_first and n > 2:
        ranking = [[finish[0], finish[1]]] + ranking[2:]
    game = ended_game(seats_, ranking, save=False)
    skills = {i + 1: ratings.Skill(mus[i], sigmas[i]) for i in range(n)}
    before = dict(skills)
    changes = ratings._rate_one(game, skills, set(skills))
    by_seat = {c.user_id - 1: c for c in changes}
    # An outright winner never falls. (Sharing first place with a much weaker player is a
    # draw the model expected to win, so that may cost a little.)
    for s in ranking[0] if len(ranking[0]) == 1 else []:
        assert by_seat[s].mu >= before[s + 1].mu
        assert ratings.shown(by_seat[s].mu, by_seat[s].sigma) >= ratings.shown(
            before[s + 1].mu, before[s + 1].sigma
        )
    last = ranking[-1][0]
    assert by_seat[last].mu <= before[last + 1].mu


@settings(max_examples=50, deadline=None)
@given(mu=st.floats(10, 40), sigma=st.floats(1, 8.4), n=st.integers(2, 4))
def test_ties_are_symmetric(mu, sigma, n):
    """Equal players who tie move exactly alike, whichever seats they sit in."""
    seats_ = [seat(Fake(i + 1)) for i in range(n)]
    game = ended_game(seats_, [list(range(n))], save=False)
    skills = {i + 1: ratings.Skill(mu, sigma) for i in range(n)}
    changes = ratings._rate_one(game, skills, set(skills))
    first = changes[0]
    for c in changes:
        assert (c.mu, c.sigma) == pytest.approx((first.mu, first.sigma), rel=1e-12)
    assert all(c.place == 1 for c in changes)
    # Two tied in the middle of four: the same move for both.
    if n == 4:
        game = ended_game(seats_, [[3], [0, 2], [1]], save=False)
        skills = {i + 1: ratings.Skill(mu, sigma) for i in range(n)}
        by = {c.user_id - 1: c for c in ratings._rate_one(game, skills, set(skills))}
        assert (by[0].mu, by[0].sigma) == pytest.approx((by[2].mu, by[2].sigma), rel=1e-12)
        assert by[0].place == by[2].place
        assert [by[s].place for s in range(4)] == [2, 4, 2, 1]


def test_places_share_ties():
    assert ratings.places([0, 1, 1, 2]) == [1, 2, 2, 4]


def test_the_shown_scale_starts_at_1500_and_is_provisional():
    new = ratings.fresh()
    assert ratings.shown(new.mu, new.sigma) == 1500
    assert ratings.provisional(new.sigma)
    assert not ratings.provisional(ratings.PROVISIONAL_SIGMA)


# ---- through the end-of-game hook (PostgreSQL) --------------------------------------------------

pytestmark_db = pytest.mark.django_db(transaction=True)


@pytestmark_db
def test_a_game_against_hard_moves_hard_and_the_person(real_services, people):
    a = people[0]
    hard = computers.account_id("hard")
    start = ratings.computer_start(KIND, "hard")
    assert ratings.shown_skill(start.mu) == computers.DEFAULT_LADDER["hard"]
    game = ended_game([seat(a), seat(bot=True, strength="hard")], [[0], [1]])
    hooks.deliver(game.pk)
    assert rating(a).mu > 25
    assert Rating.objects.get(user_id=hard, kind=KIND).mu < start.mu
    assert Rating.objects.get(user_id=hard, kind=KIND).sigma < start.sigma
    change = RatingChange.objects.get(game=game, user_id=hard)
    assert (change.place, change.mu_before, change.sigma_before) == (2, start.mu, start.sigma)
    # Medium was not at the table: it has no rating yet.
    assert not Rating.objects.filter(user_id=computers.account_id("medium")).exists()


@pytestmark_db
def test_several_seats_of_one_strength_are_one_update(real_services, people):
    a = people[0]
    easy = computers.account_id("easy")
    start = ratings.computer_start(KIND, "easy")
    cpu = seat(bot=True, strength="easy")
    game = ended_game([seat(a), cpu, cpu, cpu], [[0], [1], [2], [3]])
    hooks.deliver(game.pk)
    assert RatingChange.objects.filter(game=game).count() == 2  # the person and Easy, once
    r = ratings.MODEL.rating
    new = ratings.MODEL.rate(
        [[r()]] + [[r(mu=start.mu, sigma=start.sigma)] for _ in range(3)],
        ranks=[0.0, 1.0, 2.0, 3.0],
    )
    easy_rating = Rating.objects.get(user_id=easy, kind=KIND)
    assert easy_rating.games == 1
    assert easy_rating.mu == pytest.approx(sum(t[0].mu for t in new[1:]) / 3)
    assert RatingChange.objects.get(game=game, user_id=easy).place == 2  # its best seat


@pytestmark_db
def test_losing_to_the_same_computer_keeps_costing(real_services, people):
    a = people[0]
    for i in range(5):
        game = ended_game([seat(a), seat(bot=True)], [[1], [0]], minutes=i)
        hooks.deliver(game.pk)
    medium = computers.account_id("medium")
    assert Rating.objects.get(user_id=medium, kind=KIND).games == 5
    mus = [c.mu for c in RatingChange.objects.filter(user=a).order_by("ended")]
    assert mus == sorted(mus, reverse=True) and len(mus) == 5
    assert not hasattr(ratings, "COMPUTER_RATINGS")


@pytestmark_db
def test_the_hook_run_twice_counts_once(real_services, people):
    a, b = people[:2]
    game = ended_game([seat(a), seat(b)], [[0], [1]])
    assert "ratings" in hooks.deliver(game.pk)
    assert hooks.deliver(game.pk) == []
    assert ratings.rate_game(game) == 0  # even called directly, it rates once
    assert RatingChange.objects.filter(game=game).count() == 2
    assert rating(a).games == 1 and rating(b).games == 1
    assert rating(a).mu > 25 > rating(b).mu


@pytestmark_db
def test_unranked_and_unrated_games_are_not_rated(real_services, people):
    a, b = people[:2]
    casual = ended_game([seat(a), seat(b)], [[0], [1]], ranked=False)
    war = ended_game([seat(a), seat(b)], [[0], [1]], kind="war")  # not a rated game
    hooks.deliver(casual.pk)
    hooks.deliver(war.pk)
    assert not Rating.objects.exists()
    assert GameEndReceipt.objects.filter(receiver="ratings").count() == 2


@pytestmark_db
def test_a_leaver_is_ranked_last(real_services, people):
    a, b, c = people[:3]
    # The engine ranked a first (the computer played on well for them), but a left.
    game = ended_game([seat(a, left=True), seat(b), seat(c)], [[0], [1], [2]])
    hooks.deliver(game.pk)
    places = dict(RatingChange.objects.filter(game=game).values_list("user__username", "place"))
    assert places == {"p0": 3, "p1": 1, "p2": 2}
    assert RatingChange.objects.get(game=game, user=a).left
    assert rating(a).mu < 25


@pytestmark_db
def test_partners_are_rated_as_a_team(real_services, people, monkeypatch):
    a, b, c, d = people[:4]
    engine = registry.get(KIND)
    monkeypatch.setattr(type(engine), "teams", lambda self, rules, players: [[0, 2], [1, 3]])
    game = ended_game([seat(a), seat(b), seat(c), seat(d)], [[0, 2], [1, 3]])
    hooks.deliver(game.pk)
    r = ratings.MODEL.rating
    new = ratings.MODEL.rate([[r(), r()], [r(), r()]], ranks=[0.0, 1.0])
    assert rating(a).mu == pytest.approx(new[0][0].mu)
    assert rating(c).mu == pytest.approx(new[0][1].mu)
    assert rating(b).mu == pytest.approx(new[1][0].mu)
    # Not the update of a four-way game with two ties.
    tie = ratings.MODEL.rate([[r()], [r()], [r()], [r()]], ranks=[0.0, 1.0, 0.0, 1.0])
    assert rating(a).mu != pytest.approx(tie[0][0].mu)


def _snapshot():
    return (
        sorted(Rating.objects.values_list("user_id", "kind", "mu", "sigma", "games")),
        sorted(RatingChange.objects.values_list("user_id", "game_id", "place", "mu_before", "mu")),
    )


@pytestmark_db
def test_order_of_processing_does_not_matter(real_services, people):
    """Games delivered out of order (a retried hook) end in the same ratings and history as
    games delivered in the order they ended."""
    a, b, c, d, e, _ = people
    games = [
        ended_game([seat(a), seat(b), seat(bot=True)], [[0], [2], [1]], minutes=1),
        ended_game([seat(c), seat(d)], [[1], [0]], minutes=2),  # shares no one at first
        ended_game([seat(b), seat(c)], [[0], [1]], minutes=3),
        ended_game([seat(a), seat(e), seat(d)], [[2], [0, 1]], minutes=4),
        ended_game([seat(e), seat(b)], [[1], [0]], minutes=5),
    ]
    for g in games:
        hooks.deliver(g.pk)
    in_order = _snapshot()
    for order in ([4, 2, 0, 3, 1], [1, 3, 0, 4, 2]):
        GameEndReceipt.objects.all().delete()
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        for i in order:
            hooks.deliver(games[i].pk)
        again = _snapshot()
        assert [r[:2] + (r[4],) for r in again[0]] == [r[:2] + (r[4],) for r in in_order[0]]
        for got, want in zip(again[0], in_order[0], strict=True):
            assert got[2:4] == pytest.approx(want[2:4])
        assert len(again[1]) == len(in_order[1])
        for got, want in zip(again[1], in_order[1], strict=True):
            assert got[:3] == want[:3] and got[3:] == pytest.approx(want[3:])
    assert ratings.recompute(KIND) == 5
    final = _snapshot()
    for got, want in zip(final[0], in_order[0], strict=True):
        assert got[2:4] == pytest.approx(want[2:4])


@pytestmark_db
def test_recompute_command(real_services, people):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    a, b = people[:2]
    hooks.deliver(ended_game([seat(a), seat(b)], [[0], [1]]).pk)
    before = _snapshot()
    out = StringIO()
    call_command("recompute_ratings", KIND, stdout=out)
    assert out.getvalue() == "poker: 1 ranked games rated again\n"
    assert _snapshot()[0] == before[0]
    with pytest.raises(CommandError, match="war is not a rated game."):
        call_command("recompute_ratings", "war")
