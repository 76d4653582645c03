"""A bot on a Python client generated from the committed OpenAPI document
(openapi-python-client), written the way a developer who only read the document would: it sits
down at a game of each kind and plays them all from its account stream (each line parsed into
the class its `type` names), dropping the stream once and resuming it with `Last-Event-ID`;
typed views (one class per game, told apart by `kind`), typed moves sent in the game's own move
request, and every event typed — in the views, the answers, the log, the long-poll and the
game's event stream (each `data:` line parsed into the game's `EventOut` class). Run by scripts/fuzz-api, which generates
the client into a temporary folder and passes it here with the server's address."""

import json
import sys
import time

sys.path.insert(0, sys.argv[1])
URL = sys.argv[2]

import httpx  # noqa: E402  (the generated client's own HTTP library)

from cardroom_client import AuthenticatedClient, Client  # noqa: E402
from cardroom_client import models  # noqa: E402
from cardroom_client.api.auth import sign_in_as_guest  # noqa: E402
from cardroom_client.api.games import (  # noqa: E402
    create_game, deal, game_events, get_game, get_game_log, make_move,
)
from cardroom_client.types import Unset  # noqa: E402

# Each game: its kind, the table, and the prefix of its classes.
GAMES = [
    ("basra", "standard", 2, {"target": 31}, "Basra"),
    ("thirty_one", "standard", 3, {}, "ThirtyOne"),
    ("rummy", "classic", 2, {"rounds": 2}, "Rummy"),
    ("tarneeb", "standard", 4, {"target": 31}, "Tarneeb"),
]


def pascal(word):
    return "".join(part.capitalize() for part in word.split("_"))


def typed_events(kind, prefix, events, where):
    """Every event is its game's class, named after its `type`; returns how many."""
    for out in events:
        assert type(out).__name__ == prefix + "EventOut", (where, type(out).__name__)
        event = out.event
        name = type(event).__name__
        assert not isinstance(event, (dict, Unset)), (where, event)
        kind_of = getattr(event, "type_", None)
        word = getattr(kind_of, "value", kind_of)
        # A class of the game's own, of the table's, of the service's, of the stream's, or the
        # chat's: the one its `type` names (a `called` bid is a `TarneebEventCalledBid`).
        assert name == "ChatMessage" or pascal(word) in name, (where, name, word)
    return len(events)


def account_event(line):
    """An account stream line, parsed into the class its `type` names."""
    data = json.loads(line)
    return getattr(models, "AccountEventOut" + pascal(data["type"])).from_dict(data)


def follow(token, last_id, handle):
    """Reads the account stream (newline-delimited JSON) until `handle` says stop."""
    headers = {"Authorization": "Bearer " + token, "Accept": "application/x-ndjson"}
    if last_id is not None:
        headers["Last-Event-ID"] = str(last_id)
    with httpx.stream("GET", URL + "/api/v1/stream/events", timeout=60, headers=headers) as stream:
        for line in stream.iter_lines():
            if line.strip() and not handle(account_event(line)):
                return


def check_game(client, token, game_id, kind, prefix):
    """The finished game's log and its event stream, every event typed; returns how many."""
    log = get_game_log.sync(game_id, client=client)
    assert type(log).__name__ == prefix + "LogResponse", type(log).__name__
    events = 0
    for entry in log.entries:
        events += typed_events(kind, prefix, entry.events, "log")
        if entry.action == "move":
            assert type(entry.move).__name__.startswith(prefix + "Move"), type(entry.move)
    page = game_events.sync(game_id, client=client, after=0, wait=0)
    assert type(page).__name__ == prefix + "EventsPage", type(page).__name__
    events += typed_events(kind, prefix, page.events, "long-poll")
    # The game's event stream, from the start: each `data:` line is the game's EventOut.
    out_class = getattr(models, prefix + "EventOut")
    streamed = 0
    headers = {"Authorization": "Bearer " + token, "Accept": "text/event-stream"}
    with httpx.stream("GET", "%s/api/v1/games/%d/events" % (URL, game_id), timeout=30,
                      headers=headers) as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                out = out_class.from_dict(json.loads(line[len("data: "):]))
                streamed += typed_events(kind, prefix, [out], "stream")
                if streamed >= 20:
                    break
    return events + streamed


def play_all(client, token):
    """Sits down at a game of each kind and plays them all from the account stream."""
    playing = {}
    for kind, variant, seats, options, prefix in GAMES:
        body = models.CreateGame.from_dict({
            "kind": kind, "variant": variant, "options": options,
            "seats": [{}] + [{"bot": "easy"}] * (seats - 1),
        })
        created = create_game.sync(client=client, body=body)
        assert isinstance(created, models.GameCreated), created
        playing[created.id] = (kind, prefix)
    state = {"last_id": None, "handled": 0, "resumed": False, "over": {}, "moves": {},
             "events": 0}

    def handle(event):
        if isinstance(getattr(event, "id", None), int):
            state["last_id"] = event.id
        state["handled"] += 1
        if isinstance(event, models.AccountEventOutYourTurn) and event.game_id in playing:
            kind, prefix = playing[event.game_id]
            view = get_game.sync(event.game_id, client=client)
            assert type(view).__name__ == prefix + "GameView", type(view).__name__
            state["events"] += typed_events(kind, prefix, view.recent_events, "view")
            if view.status == "hand_over" and event.action.value == "deal":
                answer = deal.sync(view.id, client=client,
                                   body=models.DealRequest(expected_version=view.version))
                assert type(answer).__name__ == prefix + "ActionResponse", answer
                state["events"] += typed_events(kind, prefix, answer.events, "deal")
            elif view.status == "active" and view.to_act == view.your_seat:
                move = view.legal_moves[0]
                assert type(move).__name__.startswith(prefix + "Move"), type(move).__name__
                request = getattr(models, prefix + "MoveRequest")(
                    kind=getattr(models, prefix + "MoveRequestKind")(kind),
                    expected_version=view.version, move=move)
                answer = make_move.sync(view.id, client=client, body=request)
                assert type(answer).__name__ == prefix + "ActionResponse", answer
                state["events"] += typed_events(kind, prefix, answer.events, "answer")
                state["moves"][view.id] = state["moves"].get(view.id, 0) + 1
        elif isinstance(event, models.AccountEventOutGameOver) and event.game_id in playing:
            state["over"][event.game_id] = event.status.value
        elif isinstance(event, models.AccountEventOutStreamEnd):
            raise SystemExit("the account stream ended: %s" % event.reason)
        if len(state["over"]) == len(playing):
            return False
        # Once, after a while: drop the stream and resume after the last event id.
        if not state["resumed"] and state["last_id"] is not None and state["handled"] >= 25:
            state["resumed"] = True
            return False
        return True

    follow(token, None, handle)
    assert state["resumed"], "the games ended before the client could resume its stream"
    print("generated client: dropped the account stream after %d events, resumed after id %d" % (
        state["handled"], state["last_id"]))
    deadline = time.monotonic() + 600
    while len(state["over"]) < len(playing):
        assert time.monotonic() < deadline, "the games did not finish in ten minutes"
        follow(token, state["last_id"], handle)
    events = state["events"]
    for game_id, (kind, prefix) in playing.items():
        assert state["over"][game_id] == "finished", (kind, state["over"][game_id])
        events += check_game(client, token, game_id, kind, prefix)
        print("generated client: %s game %d finished after %d typed moves" % (
            kind, game_id, state["moves"].get(game_id, 0)))
    print("generated client: %d events read, every one typed" % events)


def main():
    auth = sign_in_as_guest.sync(client=Client(base_url=URL), body=models.GuestRequest())
    client = AuthenticatedClient(base_url=URL, token=auth.token)
    play_all(client, auth.token)


main()
