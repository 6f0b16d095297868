"""Every game's table in French: the room page asked in French (Accept-Language), the table
socket asked with ?lang=fr (its fragments, its errors, the moves played through it), and the
spectators' view rendered once per language, never one reader's language sent to another."""

import html
import json
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import Client

from cubiccards.asgi import application
from gameplay import services as gameplay
from gameplay import store
from gameplay.engine import IllegalAction, registry
from gameplay.engine.text import Said, say
from gameplay.text import in_language
from lobby import messages, services
from lobby.models import Room

pytestmark = [pytest.mark.django_db(transaction=True)]
KINDS = registry.kinds()

# Said by every table (the bar above it, the seat heads, the facts below it), in each language.
ENGLISH = [
    ">Rules</a>",
    ">Sounds<span",
    'title="Room code"',
    "Deal fingerprint",
    "How to check it",
    "(you)",
    "reconnecting…",
    "Lost connection: the seat waits for them a moment",
    "Your turn",
    "Waiting for",
    "Games won in this room",
    "Computer player",
    "Back to lobby",
    "Mute all chat",
]
FRENCH = [">Règles</a>", ">Sons<span", "Empreinte de la donne", "Comment la vérifier"]
# Each game's own table, by something only it says.
OWN = {
    "war": ("Table de Bataille", "War table"),
    "klondike": ("Table de Klondike", "Klondike table"),
    "poker": ("Table de Poker", "Poker table"),
    "blackjack": ("Table de Blackjack", "Blackjack table"),
    "gin": ("Table de Gin Rummy", "Gin Rummy table"),
    "crazy8": ("Choisissez la couleur à suivre", "Name the suit to follow"),
    "american8": ("Choisissez la couleur à suivre", "Name the suit to follow"),
    "gridcannon": ("Table de Gridcannon", "Gridcannon table"),
    "cardice": ("Table de Cardice", "Cardice table"),
    "thirteen": ("Table de Treize", "Thirteen table"),
}
MALFORMED_FR = "Ce message est mal formé"


def test_every_game_is_named_here():
    assert set(OWN) == set(KINDS), "a new game: say what its table says in French"


def english_left(html: str) -> list[str]:
    return [phrase for phrase in ENGLISH if phrase in html]


def _table(kind: str) -> tuple[Client, str]:
    """A table of `kind` in play, its host's client and its code (computer players fill)."""
    engine = registry.get(kind)
    client = Client()
    client.get("/")
    if engine.solo:
        code = client.post(f"/play/{kind}/").url.rstrip("/").split("/")[-1]
    else:
        code = client.post("/rooms/").url.rstrip("/").split("/")[-1]
        seats = str(max(2, engine.min_players))
        response = client.post(f"/rooms/{code}/start/", {"game": kind, "seats": seats})
        assert response.status_code == 302
    connection.close()  # this thread's connection would outlive the test database
    return client, code


def _computer_moves(code: str) -> None:
    """The computer seat to act plays its move (as the table's worker would)."""
    game = Room.objects.get(code=code, is_open=True).game
    engine = registry.get(game.kind)
    state = store.load_state(game)
    seat = engine.to_act(state)[0]
    try:
        gameplay.submit_action(
            game_id=game.pk, seat=seat, action=engine.bot_action(state, seat), seq=state["applied"]
        )
    except (gameplay.StaleSeq, IllegalAction):
        pass  # a worker played it first
    connection.close()


def _sentences(code: str, seat: int, seq: int) -> list[Said]:
    """The sentences (Said) in the view of `seat` at move `seq` (none if the table moved on)."""
    game = Room.objects.get(code=code, is_open=True).game
    view = registry.get(game.kind).view(store.load_state(game), seat) if game.seq == seq else {}
    found = []

    def walk(value):
        if isinstance(value, Said):
            found.append(value)
        elif isinstance(value, (dict, list, tuple)):
            for item in value.values() if isinstance(value, dict) else value:
                walk(item)

    walk(view)
    connection.close()
    return found


def _socket(client: Client, path: str, **headers: str) -> WebsocketCommunicator:
    sent = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if client is not None:
        sent.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    sent += [(k.encode(), v.encode()) for k, v in headers.items()]
    return WebsocketCommunicator(application, path, headers=sent)


async def _receive_json(communicator, kind: str, timeout: float = 5) -> dict:
    for _ in range(50):
        message = json.loads(await communicator.receive_from(timeout=timeout))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


async def _newest_html(communicator, wait: float = 0.5) -> str:
    """The last room fragment this socket was sent (it may be sent several)."""
    newest = ""
    # (a receive that times out ends the socket's consumer: ask whether anything is waiting)
    while not await communicator.receive_nothing(timeout=wait):
        text = await communicator.receive_from(timeout=5)
        if 'id="room-main"' in text:
            newest = text
    return newest


@pytest.mark.parametrize("kind", KINDS)
def test_the_room_page_asked_in_french_shows_the_table_in_french(kind, real_services):
    client, code = _table(kind)
    french = client.get(f"/rooms/{code}/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").content
    french = french.decode()
    assert all(phrase in french for phrase in FRENCH), kind
    assert OWN[kind][0] in french, kind
    assert english_left(french) == [] and OWN[kind][1] not in french, (kind, english_left(french))
    # The same page, asked in English, is in English: the phrases above are the ones it says.
    english = client.get(f"/rooms/{code}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Deal fingerprint" in english and OWN[kind][1] in english, kind
    assert not any(phrase in english for phrase in FRENCH), kind


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_the_table_socket_asked_in_french_plays_in_french(kind, real_services):
    client, code = await database_sync_to_async(_table)(kind)
    title = registry.get(kind).title
    page = _socket(client, f"/ws/rooms/{code}/?lang=fr")
    program = _socket(client, f"/ws/rooms/{code}/?format=json&lang=fr")
    assert (await page.connect())[0] and (await program.connect())[0]
    first = await _newest_html(page)
    assert OWN[kind][0] in first and english_left(first) == [], (kind, english_left(first))

    # A few moves: this seat's through the French socket, the computer players' as they would
    # play them (played here, so that the test waits on no worker).
    state = await _receive_json(program, "state")
    played = 0
    for _ in range(40):
        if played == 3 or state["over"]:
            break
        if state["seat"] in state["to_act"] and state["legal"]:
            action = {"type": "act", "action": state["legal"][0], "seq": state["seq"]}
            await program.send_to(text_data=json.dumps(action))
            played += 1
        else:
            await database_sync_to_async(_computer_moves)(code)
        state = await _receive_json(program, "state")
    assert played, f"{kind}: no move was played"
    # The game's own sentences in the view sent to the program are said in French.
    shown = json.dumps(state["view"], ensure_ascii=False)
    for english in await database_sync_to_async(_sentences)(code, state["seat"], state["seq"]):
        french = in_language(english, "fr")
        assert french in shown, (kind, english, french)
        if french != english and " " in english:  # (a rank's letter is found anywhere)
            assert json.dumps(str(english))[1:-1] not in shown, (kind, english)
    after = await _newest_html(page, wait=1)
    assert after and english_left(after) == [], (kind, english_left(after))

    # A move the game doesn't have: the engine's refusal, said in French.
    if not state["over"]:
        nonsense = {"type": "act", "action": {"type": "no_such_move"}, "seq": state["seq"]}
        await program.send_to(text_data=json.dumps(nonsense))
        refusal = (await _receive_json(program, "error"))["message"]
        english = say("{game} has no action '{name}'.", game=title, name="no_such_move")
        assert refusal == in_language(english, "fr") and refusal != english, refusal
        assert "n'a pas d'action" in refusal, refusal

    # A malformed move is answered in French, to a program as to a page.
    await program.send_to(text_data=json.dumps({"type": "act", "action": {}, "seq": "x"}))
    error = await _receive_json(program, "error")
    while not error["message"].startswith(MALFORMED_FR):  # (a move's answer may come first)
        error = await _receive_json(program, "error")
    assert error["message"] != messages.MALFORMED_SEQ
    await page.send_to(text_data="not json")
    answer = await page.receive_from(timeout=5)
    assert 'id="table-error"' in answer and "Les messages doivent être en JSON." in answer
    await page.disconnect()
    await program.disconnect()


def _public_war() -> tuple[Client, str]:
    """A public War table of two people (nothing moves by itself)."""
    host = Client()
    host.get("/")
    code = host.post("/rooms/").url.rstrip("/").split("/")[-1]
    guest = Client()
    guest.get("/")
    guest.post("/rooms/join/", {"code": code})
    host.post(f"/rooms/{code}/public/", {"public": "1", "game": "war", "seats": "2"})
    host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "2"})
    connection.close()
    return host, code


@pytest.mark.asyncio
async def test_two_spectators_of_one_table_each_read_their_own_language(real_services):
    """The spectators' view is rendered once and shared: once per language, not once for all."""
    host, code = await database_sync_to_async(_public_war)()
    french = _socket(None, f"/ws/rooms/{code}/watch/?lang=fr")
    english = _socket(None, f"/ws/rooms/{code}/watch/", **{"accept-language": "en"})
    german = _socket(None, f"/ws/rooms/{code}/watch/", **{"accept-language": "de"})
    for socket in (french, english, german):
        assert (await socket.connect())[0]
    views = [await _newest_html(s) for s in (french, english, german)]
    for view in views:
        assert "Table de Bataille" in view or "War table" in view, view[:300]
    assert "Table de Bataille" in views[0] and "War table" not in views[0]
    assert ">Spectateur<" in views[0] and "Manche 1 sur" in views[0]
    for view in views[1:]:  # German is not spoken here: English
        assert "War table" in view and ">Watching<" in view and "Table de Bataille" not in view

    # A move: every spectator is sent the next view, each in their own language.
    seat = _socket(host, f"/ws/rooms/{code}/?format=json")
    assert (await seat.connect())[0]
    state = await _receive_json(seat, "state")
    flip = {"type": "act", "action": {"type": "flip"}, "seq": state["seq"]}
    await seat.send_to(text_data=json.dumps(flip))
    await _receive_json(seat, "state")
    moved = [await _newest_html(s, wait=1) for s in (french, english, german)]
    assert all(f'data-seq="{state["seq"] + 1}"' in view for view in moved), [v[:120] for v in moved]
    assert "Retournée ✓" in moved[0] and "Flipped ✓" not in moved[0]
    assert all("Flipped ✓" in view and "Retournée ✓" not in view for view in moved[1:])
    for socket in (french, english, german, seat):
        await socket.disconnect()


@pytest.mark.asyncio
async def test_quick_chat_is_shown_to_each_reader_in_their_language(real_services):
    host, code = await database_sync_to_async(_public_war)()
    # The host speaks French and says "gg"; a spectator reading English sees it in English.
    speaker = _socket(host, f"/ws/rooms/{code}/?format=json&lang=fr")
    reader = _socket(None, f"/ws/rooms/{code}/watch/?format=json", **{"accept-language": "en"})
    assert (await speaker.connect())[0] and (await reader.connect())[0]
    await speaker.send_to(text_data=json.dumps({"type": "chat", "phrase": "gg"}))
    said_fr = await _receive_json(speaker, "chat")
    said_en = await _receive_json(reader, "chat")
    assert said_fr["phrase"] == said_en["phrase"] == "gg"
    assert said_fr["text"] == "Bien joué, belle partie" and said_en["text"] == "Good game"
    for socket in (speaker, reader):
        await socket.disconnect()


def test_rooms_open_tables_and_queues_in_french(client, real_services):
    fr = {"HTTP_ACCEPT_LANGUAGE": "fr"}
    tables = client.get("/tables/", **fr).content.decode()
    assert "Tables ouvertes" in tables and "Aucune table n'attend de joueurs" in tables
    assert "No table is waiting" not in tables
    ranked = client.get("/ranked/poker/", **fr).content.decode()
    assert "Les parties classées font évoluer votre classement" in ranked
    assert "Ranked games move your rating" not in ranked
    quick = client.get("/quick/war/", **fr).content.decode()
    assert "Trouver des joueurs" in quick and "Find players looks for" not in quick
    code = client.post("/rooms/").url.rstrip("/").split("/")[-1]
    lobby = client.get(f"/rooms/{code}/", **fr).content.decode()
    assert "Lancer la partie" in lobby and "Envoyez le code à vos amis" in lobby
    assert "Start game" not in lobby and "Send the code to friends" not in lobby
    # A refusal is said in the language of the page it lands on.
    full = client.post("/rooms/join/", {"code": "ZZZZZ"}, follow=True, **fr).content.decode()
    assert "Aucune table ouverte n'a le code ZZZZZ." in html.unescape(full)


@pytest.mark.asyncio
async def test_a_notice_at_the_table_is_said_in_each_readers_language(real_services):
    host, code = await database_sync_to_async(_public_war)()
    french = _socket(host, f"/ws/rooms/{code}/?format=json&lang=fr")
    english = _socket(host, f"/ws/rooms/{code}/?format=json&lang=en")
    for socket in (french, english):
        assert (await socket.connect())[0]
        await _receive_json(socket, "state")
    notice = say("{name} is back.", name="Bob")
    await database_sync_to_async(services.notify_room)(code, notice=notice)
    said = [(await _receive_json(s, "state")).get("notice") for s in (french, english)]
    assert said == ["Bob est de retour.", "Bob is back."]
    for socket in (french, english):
        await socket.disconnect()


def test_the_tables_script_hears_whose_turn_it_is_in_any_language(real_services):
    """table.js brings the controls into reach on the player's turn: it reads a flag, not the
    turn's words, which are French here."""
    client, code = _table("poker")
    for _ in range(10):  # the computer plays until it's the host's turn
        if 0 in Room.objects.get(code=code, is_open=True).game.to_act:
            break
        _computer_moves(code)
    for language in ("fr", "en"):
        page = client.get(f"/rooms/{code}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert 'data-your-turn="1"' in page, language
    watcher = Client().get(f"/rooms/{code}/").content.decode()
    assert 'data-your-turn="1"' not in watcher
    script = (Path(settings.BASE_DIR) / "static/js/table.js").read_text()
    assert "main.dataset.yourTurn" in script and '"Your turn"' not in script
