#!/usr/bin/env python3
"""A Cardroom bot in one file, standard library only.

It follows its account's event stream, accepts every challenge, and plays whatever game it is
seated at with a simple legal policy: it asks the server for its view (which lists exactly the
moves it may make) and picks one. Run it with a personal API token of a bot account, with the
scopes `play`, `challenge` and `read`:

    CARDROOM_TOKEN=cdr_... python3 examples/cardroom_bot.py --url http://127.0.0.1:8080

`--games N` makes it stop after N finished games (the test command uses it). `--tournament ID`
enters it in a tournament first (`--code` for a private one): its tables then come on the
same stream, and it plays them like any other game.
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request

# The moves this bot prefers when they are legal, in order (its whole strategy): meld and lay
# off in Rummy, take a fresh card rather than the discard, and otherwise the first legal move
# (the lowest bid or card, or a pass).
PREFERRED = ["meld", "lay_off", "draw_stock", "pass_drawn", "end_turn"]


class Cardroom:
    """The few calls a bot needs."""

    def __init__(self, url, token):
        self.url = url.rstrip("/") + "/api/v1"
        self.token = token
        self.requests = 0  # made so far
        self.refused = 0  # of them, answered 429 (over a rate limit)

    def request(self, method, path, body=None, timeout=30):
        self.requests += 1
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", "Bearer " + self.token)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as answer:
                text = answer.read()
                return answer.status, json.loads(text) if text else None
        except urllib.error.HTTPError as refusal:
            problem = json.loads(refusal.read() or b"{}")
            if refusal.code == 429:  # over a rate limit: wait as told, then the caller retries
                self.refused += 1
                time.sleep(float(refusal.headers.get("Retry-After", "1")))
            return refusal.code, problem

    def events(self, after=None):
        """The account's events, one dict at a time (newline-delimited JSON), for ever."""
        path = "/stream/events" + ("" if after is None else "?after=%d" % after)
        req = urllib.request.Request(self.url + path)
        req.add_header("Authorization", "Bearer " + self.token)
        req.add_header("Accept", "application/x-ndjson")
        with urllib.request.urlopen(req, timeout=120) as stream:
            for line in stream:
                line = line.strip()
                if line:  # an empty line is a heartbeat
                    yield json.loads(line)


def choose(view):
    """One of the legal moves in `view`."""
    legal = view["legal_moves"]
    for kind in PREFERRED:
        for move in legal:
            if move["type"] == kind:
                return move
    discards = [m for m in legal if m["type"] == "discard"]
    if view["kind"] == "rummy" and discards:
        # Throw the card that helps least towards a set or a run (then the highest).
        hand = view["table"]["hand"]
        return min(discards, key=lambda m: (helpers(m["card"], hand), -RANKS.index(m["card"][0])))
    return legal[0]


RANKS = "A23456789TJQK"


def helpers(card, hand):
    """How many other cards of `hand` go with `card`: the same rank, or its suit within two."""
    rank, suit = RANKS.index(card[0]), card[1]
    return sum(1 for other in hand if other != card and (
        other[0] == card[0] or (other[1] == suit and abs(RANKS.index(other[0]) - rank) <= 2)))


def play(api, game_id):
    """Plays game `game_id` while it waits for this bot; returns its status."""
    for _ in range(1000):
        status, view = api.request("GET", "/games/%d" % game_id)
        if status != 200:
            return "unreadable"
        me = view["your_seat"]
        if view["status"] in ("finished", "abandoned", "waiting"):
            return view["status"]
        if view["status"] == "hand_over":
            # Everyone at the table is asked to deal: with the version it saw the hand over at,
            # a hand another player dealt first is no error.
            api.request("POST", "/games/%d/deal" % game_id, {"expected_version": view["version"]})
            continue
        if view["to_act"] != me or not view["legal_moves"]:
            return view["status"]  # someone else's turn: the stream will say when it is ours
        body = {"expected_version": view["version"], "move": choose(view)}
        status, answer = api.request("POST", "/games/%d/moves" % game_id, body)
        if status not in (200, 409, 429):
            print("move refused:", status, answer, file=sys.stderr)
            return "stuck"
    return "busy"


def run(api, games_wanted):
    finished = set()
    after = None
    while games_wanted is None or len(finished) < games_wanted:
        try:
            for event in api.events(after):
                after = event.get("id", after)
                kind = event["type"]
                if kind == "challenge_received":
                    challenge = event["challenge"]
                    print("accepting challenge %d from %s (%s)" % (
                        challenge["id"], challenge["from"], challenge["kind"]))
                    api.request("POST", "/challenges/%d/accept" % challenge["id"], {})
                elif kind == "tournament_game":
                    print("tournament %d, round %d: game %d, seat %d" % (
                        event["tournament_id"], event["round"], event["game_id"], event["seat"]),
                        flush=True)
                elif kind in ("game_started", "your_turn"):
                    play(api, event["game_id"])
                elif kind == "game_over":
                    finished.add(event["game_id"])
                    print("game %d over (%d finished; %d requests so far, %d answered 429)" % (
                        event["game_id"], len(finished), api.requests, api.refused), flush=True)
                    if games_wanted is not None and len(finished) >= games_wanted:
                        return
                elif kind == "stream_end":
                    sys.exit("the stream ended: %s" % event.get("reason"))
        except (OSError, ValueError) as lost:  # the connection dropped: resume where we were
            print("stream lost (%s); reconnecting" % lost, file=sys.stderr)
            time.sleep(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("CARDROOM_URL", "http://127.0.0.1:8080"))
    parser.add_argument("--token", default=os.environ.get("CARDROOM_TOKEN"))
    parser.add_argument("--games", type=int, help="stop after this many finished games")
    parser.add_argument("--tournament", type=int, help="enter this tournament first")
    parser.add_argument("--code", help="the code of a private tournament")
    args = parser.parse_args()
    if not args.token:
        sys.exit("a personal API token is needed: --token or CARDROOM_TOKEN")
    api = Cardroom(args.url, args.token)
    if args.tournament is not None:
        body = {"code": args.code} if args.code else {}
        status, answer = api.request("POST", "/tournaments/%d/join" % args.tournament, body)
        if status != 200:
            sys.exit("could not enter tournament %d: %s %s" % (args.tournament, status, answer))
        print("entered %s (%s, %d entrants)" % (answer["name"], answer["format"], answer["entrants"]))
    run(api, args.games)


if __name__ == "__main__":
    main()
