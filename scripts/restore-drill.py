#!/usr/bin/env python3
"""The players and the checks of scripts/restore-drill (which says what the drill shows).

  restore-drill.py play URL DATABASE_URL PLAYED --psql PSQL -- BACKUP COMMAND...
      People play games at a Cardroom server, every seat a client (a thread with its own guest
      account): they read their view, make one of its legal moves with the view's version and
      an Idempotency-Key, deal when a hand is over, and otherwise wait on the game's long-poll.
      Every write answered 200 is noted with its game, version and times. The backup command
      runs while they play; they play on; T is read from the database's clock (psql); they play
      on past T, at their tables and at new ones. PLAYED (JSON) gets all of it.
  restore-drill.py verify URL PLAYED VERIFIED
      Against a server on the restored database: each write acknowledged before T is in its
      game's log (GET /games/{id}/log) at its version, as made; each write sent after T is not;
      the games made after T do not exist; a restored game takes one more move. VERIFIED (JSON)
      gets the counts. Exits 1 when anything is missing or too much is there.

Standard library only. Any answer 500 or above fails the drill."""

import argparse
import json
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

# The tables of the first phase: (kind, seats, options). Long games (high targets) so that the
# play lasts through the backup; a game that ends anyway is checked like the others.
TABLES = [
    ("basra", 2, {"target": 501}),
    ("rummy", 2, {}),
    ("tarneeb", 4, {"target": 61}),
    ("basra", 4, {"target": 501}),
    ("thirty_one", 3, {}),
    ("rummy", 3, {}),
]
# The tables opened after T (their first players' accounts sit down at a second table).
LATER_TABLES = [("basra", 2, {}), ("thirty_one", 3, {}), ("tarneeb", 4, {})]
WARM_MOVES = 60  # moves made before the backup starts
PLAY_AFTER_BACKUP = 2.0  # seconds of play between the backup's end and T
PLAY_AFTER_TARGET = 3.0  # seconds of play past T
THINK = (0.01, 0.04)  # seconds a player takes before a move


class Api:
    """Calls to the server; every status 500 or above is kept as a failure."""

    def __init__(self, url):
        self.url = url.rstrip("/") + "/api/v1"
        self.failures = []

    def call(self, method, path, token=None, body=None, key=None, timeout=30):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", "Bearer " + token)
        if key:
            req.add_header("Idempotency-Key", key)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as answer:
                text = answer.read()
                return answer.status, json.loads(text) if text else None
        except urllib.error.HTTPError as refusal:
            text = refusal.read()
            try:
                problem = json.loads(text) if text else {}
            except ValueError:
                problem = {"body": text.decode(errors="replace")}
            if refusal.code >= 500:
                self.failures.append("%s %s answered %d: %s" % (method, path, refusal.code, problem))
            return refusal.code, problem

    def write(self, path, token, body):
        """A write with an Idempotency-Key, retried with the same key if the connection drops."""
        key = str(uuid.uuid4())
        for attempt in range(3):
            try:
                return self.call("POST", path, token, body, key)
            except OSError as lost:
                if attempt == 2:
                    raise
                print("  (%s on %s; retrying with the same key)" % (lost, path), flush=True)
                time.sleep(0.2)

    def guest(self, name):
        status, answer = self.call("POST", "/auth/guest", body={"name": name})
        expect(status == 201, "guest %s: %s %s" % (name, status, answer))
        return answer["token"]


def expect(condition, message):
    if not condition:
        raise SystemExit("restore-drill: " + message)


class Play:
    """The tables, their players' threads, and every write answered 200."""

    def __init__(self, api):
        self.api = api
        self.tables = []
        self.writes = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = []
        self.problems = []

    def moves(self):
        with self.lock:
            return sum(1 for w in self.writes if w["what"] == "move")

    def open_table(self, kind, options, tokens):
        """Creates a table of people and seats them all; the first hand is dealt at the last."""
        sent = time.monotonic()
        body = {"kind": kind, "seats": [{} for _ in tokens], "options": options}
        status, created = self.api.call("POST", "/games", tokens[0], body)
        expect(status == 201, "creating a %s table: %s %s" % (kind, status, created))
        game = created["id"]
        for seat, token in enumerate(tokens[1:], start=1):
            body = {"invite_code": created["invite_code"], "seat": seat}
            status, answer = self.api.call("POST", "/games/%d/join" % game, token, body)
            expect(status == 200, "joining game %d: %s %s" % (game, status, answer))
        table = {"game": game, "kind": kind, "tokens": tokens, "sent": sent,
                 "acked": time.monotonic()}
        self.tables.append(table)
        for seat in range(len(tokens)):
            thread = threading.Thread(target=self.seat, args=(table, seat), daemon=True)
            thread.start()
            self.threads.append(thread)
        return table

    def note(self, table, seat, what, sent, answer, move=None):
        versions = {e["version"] for e in answer["events"]}
        if len(versions) != 1:
            self.problems.append("game %d: a %s answered with versions %s" % (
                table["game"], what, sorted(versions)))
            return
        with self.lock:
            self.writes.append({"game": table["game"], "seat": seat, "what": what,
                                "version": versions.pop(), "move": move, "sent": sent,
                                "acked": time.monotonic()})

    def seat(self, table, seat):
        """One player: plays their turns until the game ends or the drill says stop."""
        try:
            self.play_seat(table, seat)
        except Exception as failure:  # noqa: BLE001 (any failure of a player fails the drill)
            self.problems.append("game %d seat %d: %r" % (table["game"], seat, failure))

    def play_seat(self, table, seat):
        game, token = table["game"], table["tokens"][seat]
        rng = random.Random("%d/%d" % (game, seat))
        while not self.stop.is_set():
            status, view = self.api.call("GET", "/games/%d" % game, token)
            if status != 200:
                self.problems.append("game %d seat %d: view %s %s" % (game, seat, status, view))
                return
            if view["status"] in ("finished", "abandoned"):
                return
            if view["status"] == "hand_over":
                # Everyone is asked to deal; the first deals, the others get the game unchanged.
                sent = time.monotonic()
                body = {"expected_version": view["version"]}
                status, answer = self.api.write("/games/%d/deal" % game, token, body)
                if status == 200 and answer["events"]:
                    self.note(table, seat, "deal", sent, answer)
                elif status not in (200, 409):
                    self.problems.append("game %d: deal %s %s" % (game, status, answer))
            elif view["to_act"] == seat and view["legal_moves"]:
                time.sleep(rng.uniform(*THINK))
                move = rng.choice(view["legal_moves"])
                sent = time.monotonic()
                body = {"expected_version": view["version"], "move": move}
                status, answer = self.api.write("/games/%d/moves" % game, token, body)
                if status == 200:
                    self.note(table, seat, "move", sent, answer, move)
                elif status != 409:
                    self.problems.append("game %d: move %s %s" % (game, status, answer))
            else:
                self.api.call("GET", "/games/%d/events?after=%d&wait=1" % (game, view["version"]),
                              token)

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=40)


def play(args):
    api = Api(args.url)
    game = Play(api)
    backup = None

    def on_term(*_):
        raise SystemExit(143)

    signal.signal(signal.SIGTERM, on_term)
    try:
        # Phase A: the first tables, each seat a guest of its own.
        for number, (kind, seats, options) in enumerate(TABLES):
            tokens = [api.guest("drill%d-%d" % (number, seat)) for seat in range(seats)]
            game.open_table(kind, options, tokens)
        deadline = time.monotonic() + 60
        while game.moves() < WARM_MOVES and time.monotonic() < deadline and not game.problems:
            time.sleep(0.05)
        expect(game.moves() >= WARM_MOVES, "the players did not get going: %s" % game.problems)
        print("%d tables of people playing (%s); %d moves made" % (
            len(TABLES), ", ".join(t["kind"] for t in game.tables), game.moves()), flush=True)

        # The full backup, while they play.
        backup_start = time.monotonic()
        backup = subprocess.Popen(args.backup)
        status = backup.wait()
        backup_end = time.monotonic()
        backup = None
        expect(status == 0, "the backup failed (exit %d)" % status)
        during = sum(1 for w in game.writes if w["what"] == "move"
                     and backup_start < w["acked"] < backup_end)
        print("full backup in %.1f s; %d moves answered while it ran" % (
            backup_end - backup_start, during), flush=True)
        expect(during > 0, "no move was answered during the backup: it did not run under play")

        # Play on (these moves reach the restore only through the archived WAL), then T.
        time.sleep(PLAY_AFTER_BACKUP)
        before_target = time.monotonic()
        target = subprocess.run(
            [args.psql, args.database_url, "-XAtqc", "SELECT clock_timestamp()"],
            check=True, capture_output=True, text=True).stdout.strip()
        after_target = time.monotonic()
        acked = sum(1 for w in game.writes if w["what"] == "move" and w["acked"] < before_target)
        print("T = %s (the database's clock): %d moves acknowledged before it" % (target, acked),
              flush=True)

        # Phase B: play on past T, at the same tables and at new ones.
        for number, (kind, seats, options) in enumerate(LATER_TABLES):
            tokens = [t["tokens"][0] for t in game.tables[:seats]]
            game.open_table(kind, options, tokens)
        time.sleep(PLAY_AFTER_TARGET)
        game.finish()
        later = sum(1 for w in game.writes if w["what"] == "move" and w["sent"] > after_target)
        print("past T: %d more moves, %d new games" % (later, len(LATER_TABLES)), flush=True)
        expect(later > 0, "nothing was played past T")
        problems = game.problems + api.failures
        expect(not problems, "the play went wrong:\n  " + "\n  ".join(problems[:20]))

        with open(args.played, "w") as out:
            json.dump({"target": target, "before_target": before_target,
                       "after_target": after_target, "backup_start": backup_start,
                       "backup_end": backup_end, "backup_seconds": backup_end - backup_start,
                       "tables": game.tables, "writes": game.writes}, out)
    finally:
        game.stop.set()
        if backup is not None:
            backup.terminate()
            backup.wait()


def verify(args):
    api = Api(args.url)
    with open(args.played) as f:
        played = json.load(f)
    before, after = played["before_target"], played["after_target"]
    missing, extra, changed = [], [], []
    counts = {"move": [0, 0], "deal": [0, 0]}  # what: [acknowledged before T, present]
    in_flight = {True: 0, False: 0}  # sent before T, answered after it: present, or not
    later_writes = [0, 0]  # sent after T to a game made before it: all, and of them present
    restored = {}  # game: its restored log's entries by version
    later_games = later_absent = 0
    for table in played["tables"]:
        game, token = table["game"], table["tokens"][0]
        status, log = api.call("GET", "/games/%d/log" % game, token)
        if table["sent"] > after:
            later_games += 1
            if status == 404:
                later_absent += 1
            else:
                extra.append("game %d, made after T, is there (%s)" % (game, status))
            continue
        if status != 200:
            missing.append("game %d, made before T: its log answers %s %s" % (game, status, log))
            continue
        restored[game] = {e["version"]: e for e in log["entries"]}
        joined = {e["seat"] for e in log["entries"] if e["action"] in ("created", "joined")}
        if joined != set(range(len(table["tokens"]))):
            missing.append("game %d: seats %s of %d sat down" % (game, sorted(joined),
                                                                  len(table["tokens"])))

    for write in sorted(played["writes"], key=lambda w: (w["game"], w["version"])):
        entries = restored.get(write["game"])
        if entries is None:
            continue  # a game made after T (counted above), or a missing one (reported above)
        entry = entries.get(write["version"])
        where = "game %d version %d (%s by seat %d)" % (
            write["game"], write["version"], write["what"], write["seat"])
        present = entry is not None
        if present and (entry["action"] != write["what"] or entry["seat"] != write["seat"]
                        or write["what"] == "move" and entry["move"] != write["move"]):
            changed.append("%s: the log has %s by seat %s: %s" % (
                where, entry["action"], entry["seat"], entry["move"]))
        if write["acked"] < before:
            counts[write["what"]][0] += 1
            if present:
                counts[write["what"]][1] += 1
            else:
                missing.append(where + ", acknowledged before T, is missing")
        elif write["sent"] > after:
            later_writes[0] += 1
            if present:
                later_writes[1] += 1
                extra.append(where + ", sent after T, is there")
        else:
            in_flight[present] += 1

    moves, deals = counts["move"], counts["deal"]
    during = sum(1 for w in played["writes"] if w["what"] == "move"
                 and w["acked"] < before and w["acked"] > played["backup_start"])
    print("restored: %d games of %d made before T; %d of %d moves and %d of %d deals "
          "acknowledged before T present (%d of those moves answered after the backup began)" % (
              len(restored), len(played["tables"]) - later_games, moves[1], moves[0],
              deals[1], deals[0], during))
    print("  sent after T: %d writes to those games, %d present; %d games made, %d absent; "
          "%d writes in flight at T (%d present, %d not)" % (
              later_writes[0], later_writes[1], later_games, later_absent, sum(in_flight.values()),
              in_flight[True], in_flight[False]))

    problems = missing + extra + changed + api.failures
    for problem in problems[:30]:
        print("  WRONG: " + problem)
    if len(problems) > 30:
        print("  … and %d more" % (len(problems) - 30))
    with open(args.verified, "w") as out:
        json.dump({"present": moves[1], "acknowledged": moves[0],
                   "later_games_absent": later_absent}, out)
    expect(not problems, "the restored database is not what was acknowledged (%d missing, "
           "%d there that should not be, %d different)" % (len(missing), len(extra), len(changed)))
    play_on(api, played["tables"], restored)


def play_on(api, tables, restored):
    """One more move (or deal) in a restored game, at the version after the restored one."""
    for table in tables:
        game = table["game"]
        if game not in restored:
            continue
        status, view = api.call("GET", "/games/%d" % game, table["tokens"][0])
        if status != 200 or view["status"] not in ("active", "hand_over"):
            continue
        if view["status"] == "hand_over":
            path, token, body = "/games/%d/deal" % game, table["tokens"][0], {}
        else:
            token = table["tokens"][view["to_act"]]
            status, view = api.call("GET", "/games/%d" % game, token)
            path, body = "/games/%d/moves" % game, {"move": view["legal_moves"][0]}
        body["expected_version"] = view["version"]
        status, answer = api.write(path, token, body)
        expect(status == 200, "a move in restored game %d: %s %s" % (game, status, answer))
        last = max(restored[game])
        expect(view["version"] == last and answer["view"]["version"] > last,
               "restored game %d: its log ends at version %d, its view says %d, the move made %d"
               % (game, last, view["version"], answer["view"]["version"]))
        expect(not api.failures, "playing on: %s" % api.failures)
        print("  game %d (%s) plays on: version %d taken" % (
            game, table["kind"], answer["view"]["version"]))
        return
    expect(False, "no restored game was left to play on")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    p = steps.add_parser("play")
    p.add_argument("url")
    p.add_argument("database_url")
    p.add_argument("played")
    p.add_argument("--psql", default="psql")
    p.add_argument("backup", nargs="+", help="the backup command, after --")
    v = steps.add_parser("verify")
    v.add_argument("url")
    v.add_argument("played")
    v.add_argument("verified")
    args = parser.parse_args()
    play(args) if args.step == "play" else verify(args)


if __name__ == "__main__":
    main()
