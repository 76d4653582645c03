"""Plays a game of each kind with a Python client generated from the committed OpenAPI document
(openapi-python-client), the way a developer who only read the document would: typed views
(one class per game, told apart by `kind`) and typed moves (one class per move). Run by
scripts/fuzz-api, which generates the client into a temporary folder and passes it here with
the server's address."""

import sys

sys.path.insert(0, sys.argv[1])
URL = sys.argv[2]

from cardroom_client import AuthenticatedClient, Client  # noqa: E402
from cardroom_client.api.auth import sign_in_as_guest  # noqa: E402
from cardroom_client.api.games import create_game, deal, get_game, make_move  # noqa: E402
from cardroom_client import models  # noqa: E402

# Each game: the table, its view's class, and the move classes its views may offer.
GAMES = [
    ("basra", "standard", 2, {"target": 31}, models.BasraGameView, "BasraMove"),
    ("thirty_one", "standard", 3, {}, models.ThirtyOneGameView, "ThirtyOneMove"),
    ("rummy", "classic", 2, {"rounds": 2}, models.RummyGameView, "RummyMove"),
    ("tarneeb", "standard", 4, {"target": 31}, models.TarneebGameView, "TarneebMove"),
]


def play(client, kind, variant, seats, options, view_class, move_prefix):
    body = models.CreateGame.from_dict({
        "kind": kind, "variant": variant, "options": options,
        "seats": [{}] + [{"bot": "easy"}] * (seats - 1),
    })
    created = create_game.sync(client=client, body=body)
    assert isinstance(created, models.GameCreated), created
    game_id = created.id
    moves = 0
    for _ in range(5000):
        view = get_game.sync(game_id, client=client)
        assert isinstance(view, view_class), "%s: a %s" % (kind, type(view).__name__)
        if view.status == "finished":
            return game_id, moves
        if view.status == "hand_over":
            deal.sync(game_id, client=client, body=models.DealRequest(expected_version=view.version))
            continue
        move = view.legal_moves[0]
        assert type(move).__name__.startswith(move_prefix), type(move).__name__
        answer = make_move.sync(
            game_id, client=client,
            body=models.MoveRequest(expected_version=view.version, move=move),
        )
        assert isinstance(answer, models.ActionResponse), answer
        moves += 1
    raise SystemExit("%s: game %d did not finish" % (kind, game_id))


def main():
    auth = sign_in_as_guest.sync(client=Client(base_url=URL), body=models.GuestRequest())
    client = AuthenticatedClient(base_url=URL, token=auth.token)
    for kind, variant, seats, options, view_class, move_prefix in GAMES:
        game_id, moves = play(client, kind, variant, seats, options, view_class, move_prefix)
        print("generated client: %s game %d finished after %d typed moves (%s)" % (
            kind, game_id, moves, view_class.__name__))


main()
