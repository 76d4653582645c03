"""Plays a game of each kind with a Python client generated from the committed OpenAPI document
(openapi-python-client), the way a developer who only read the document would: typed views
(one class per game, told apart by `kind`), typed moves sent in the game's own move request,
and every event typed — in the answers, in the long-poll, in the log, on the game's event
stream (each `data:` line parsed into the game's `EventOut` class) and on the account stream
(each line parsed into the class its `type` names). Run by scripts/fuzz-api, which generates
the client into a temporary folder and passes it here with the server's address."""

import json
import sys

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


def play(client, token, kind, variant, seats, options, prefix):
    view_class = getattr(models, prefix + "GameView")
    request_class = getattr(models, prefix + "MoveRequest")
    body = models.CreateGame.from_dict({
        "kind": kind, "variant": variant, "options": options,
        "seats": [{}] + [{"bot": "easy"}] * (seats - 1),
    })
    created = create_game.sync(client=client, body=body)
    assert isinstance(created, models.GameCreated), created
    game_id = created.id
    headers = {"Authorization": "Bearer " + token}
    # The account stream begins with what waits: this game, if it is our turn.
    with httpx.stream("GET", URL + "/api/v1/stream/events", timeout=30,
                      headers={**headers, "Accept": "application/x-ndjson"}) as stream:
        for line in stream.iter_lines():
            if line.strip():
                first = account_event(line)
                break
    assert type(first).__name__.startswith("AccountEventOut"), type(first).__name__
    events = moves = 0
    after = 0
    for _ in range(5000):
        view = get_game.sync(game_id, client=client)
        assert isinstance(view, view_class), "%s: a %s" % (kind, type(view).__name__)
        events += typed_events(kind, prefix, view.recent_events, "view")
        page = game_events.sync(game_id, client=client, after=after, wait=0)
        assert type(page).__name__ == prefix + "EventsPage", type(page).__name__
        events += typed_events(kind, prefix, page.events, "long-poll")
        after = page.version
        if view.status == "finished":
            break
        if view.status == "hand_over":
            deal.sync(game_id, client=client, body=models.DealRequest(expected_version=view.version))
            continue
        move = view.legal_moves[0]
        assert type(move).__name__.startswith(prefix + "Move"), type(move).__name__
        answer = make_move.sync(
            game_id, client=client,
            body=request_class(kind=getattr(models, prefix + "MoveRequestKind")(kind),
                               expected_version=view.version, move=move),
        )
        assert type(answer).__name__ == prefix + "ActionResponse", answer
        events += typed_events(kind, prefix, answer.events, "answer")
        moves += 1
    else:
        raise SystemExit("%s: game %d did not finish" % (kind, game_id))
    log = get_game_log.sync(game_id, client=client)
    assert type(log).__name__ == prefix + "LogResponse", type(log).__name__
    for entry in log.entries:
        events += typed_events(kind, prefix, entry.events, "log")
        if entry.action == "move":
            assert type(entry.move).__name__.startswith(prefix + "Move"), type(entry.move)
    # The game's event stream, from the start: each `data:` line is the game's EventOut.
    out_class = getattr(models, prefix + "EventOut")
    streamed = 0
    with httpx.stream("GET", "%s/api/v1/games/%d/events" % (URL, game_id), timeout=30,
                      headers={**headers, "Accept": "text/event-stream"}) as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                streamed += typed_events(kind, prefix, [out_class.from_dict(json.loads(line[6:]))],
                                         "stream")
                if streamed >= 20:
                    break
    return game_id, moves, events + streamed


def main():
    auth = sign_in_as_guest.sync(client=Client(base_url=URL), body=models.GuestRequest())
    client = AuthenticatedClient(base_url=URL, token=auth.token)
    for kind, variant, seats, options, prefix in GAMES:
        game_id, moves, events = play(client, auth.token, kind, variant, seats, options, prefix)
        print("generated client: %s game %d finished after %d typed moves, %d typed events" % (
            kind, game_id, moves, events))


main()
