"""Drives scripts/bot-example: makes two bot accounts and their tokens, has one make a private
Swiss tournament of one round, starts the reference bot for each (entering the tournament with
its code), has one challenge the other to a game of every kind, and waits for the four games and
the tournament's to finish (at most five minutes). Standard library only."""

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request

# A short game of each kind (Rummy's classic variant ends after its rounds, whoever plays).
KINDS = [
    ("basra", "standard", {"target": 31}),
    ("thirty_one", "standard", {}),
    ("rummy", "classic", {"rounds": 3}),
    ("tarneeb", "standard", {"target": 31}),
]


def call(url, method, path, token=None, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + "/api/v1" + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refusal:
        sys.exit("%s %s: %d %s" % (method, path, refusal.code, refusal.read().decode()))


def bot_account(url, name):
    """A registered account turned bot, and a token for the example to run with."""
    session = call(url, "POST", "/auth/register", body={"name": name, "password": "a long passphrase"})["token"]
    call(url, "POST", "/account/bot", session, {})
    made = call(url, "POST", "/account/tokens", session,
                {"description": "the reference bot", "scopes": ["play", "challenge", "read"]})
    return made["token"]


def main():
    url = sys.argv[1]
    tokens = {name: bot_account(url, name) for name in ("example-a", "example-b")}
    # A bot account is a registered account: it may make a private tournament.
    tournament = call(url, "POST", "/tournaments", tokens["example-a"],
                      {"name": "Bots' cup", "format": "swiss", "kind": "basra", "rounds": 1,
                       "options": {"target": 31}, "starts_in": 5, "private": True})
    print("tournament %d, code %s" % (tournament["id"], tournament["code"]), flush=True)
    games_each = len(KINDS) + 1
    bots = [
        subprocess.Popen([sys.executable, "examples/cardroom_bot.py", "--url", url,
                          "--token", token, "--games", str(games_each),
                          "--tournament", str(tournament["id"]), "--code", tournament["code"]])
        for token in tokens.values()
    ]
    try:
        started = time.time()
        for kind, variant, options in KINDS:
            made = call(url, "POST", "/challenges", tokens["example-a"],
                        {"to": "example-b", "kind": kind, "variant": variant,
                         "options": options, "rated": True})
            print("challenged example-b to %s (challenge %d)" % (kind, made["id"]), flush=True)
        while time.time() - started < 300:
            games = call(url, "GET", "/games?mine=true&per_page=100", tokens["example-a"])["games"]
            done = [g for g in games if g["status"] in ("finished", "abandoned")]
            if len(games) == games_each and len(done) == games_each:
                break
            if any(bot.poll() not in (None, 0) for bot in bots):
                sys.exit("a bot stopped early")
            time.sleep(1)
        else:
            sys.exit("the games did not finish in five minutes: %s" % json.dumps(games))
        for game in games:
            if game["status"] != "finished":
                sys.exit("game %d ended %s" % (game["id"], game["status"]))
            print("%s: game %d finished after %d versions, won by side(s) %s" % (
                game["kind"], game["id"], game["version"], game["winners"]), flush=True)
        for bot in bots:
            if bot.wait(timeout=60) != 0:
                sys.exit("a bot did not stop cleanly")
        cup = None
        for _ in range(30):  # the sweep records the last result within a few seconds
            cup = call(url, "GET", "/tournaments/%d" % tournament["id"], tokens["example-a"])
            if cup["status"] == "finished":
                break
            time.sleep(1)
        if cup["status"] != "finished" or [s["games"] for s in cup["standings"]] != [1, 1]:
            sys.exit("the tournament did not finish with a game each: %s" % json.dumps(cup))
        print("the bots' tournament: %s" % ", ".join(
            "%d. %s (%g)" % (s["rank"], s["name"], s["points"]) for s in cup["standings"]))
        print("the reference bot played a game of each kind and a tournament in %.0f s" % (
            time.time() - started))
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()


if __name__ == "__main__":
    main()
