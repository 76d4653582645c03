#!/usr/bin/env python3
"""The steps of scripts/bench-backup (which says what the benchmark measures).

  bench-backup.py populate URL --games N --threads T
      Guests play N real games against computer players (`easy`) of every kind, T at once: each
      makes one of its view's legal moves as fast as answers come and deals when a hand is over;
      about one game in four is resigned part-way, the others are played out (or resigned at a
      move cap).
  bench-backup.py grow FILE --mb M
      With the server stopped: copies the finished games of FILE (each game row, its seats, log,
      deals and results, under a new id and a new invite code; the same seed, log and snapshot,
      so each copy replays like its original) until the file holds at least M MB. Ratings'
      histories, idempotency keys, the daily rollups and the like are not copied (a copy is an
      unrated game of the same players).
  bench-backup.py load URL FILE DEST OUT --threads T --warmup W --baseline B --after A -- BACKUP...
      T writers (threads), each a guest playing Basra against an `easy` computer, one write
      after another (a move, a deal, a new game when one ends), each write's latency noted.
      After W s of warm-up and B s of baseline it runs the BACKUP command (which writes DEST)
      and keeps the writers going through it and A s after; samples FILE's WAL size meanwhile.
      Prints the report; OUT (JSON) gets the numbers and every write.
  bench-backup.py verify DEST OUT
      Reads DEST (the copy) with SQL: every move acknowledged before the backup began must be in
      its game's log (table game_log) at its version, by its seat, as made. Adds the counts to
      OUT and exits 1 when one is missing.

Standard library only."""

import argparse
import json
import os
import random
import signal
import resource
import sqlite3
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import cardroom_bot  # noqa: E402  (its move policy: `choose`)

# The tables of the populating games: kind, variant, seats (the guest in seat 0, `easy`
# computers in the others), options.
TABLES = [
    ("basra", "standard", 2, {}),
    ("thirty_one", "standard", 3, {}),
    ("rummy", "standard", 2, {}),
    ("tarneeb", "standard", 4, {"target": 31}),
    ("basra", "classic44", 2, {}),
    ("thirty_one", "classic", 2, {}),
    ("rummy", "classic", 3, {}),
    ("tarneeb", "classic", 4, {}),
    ("basra", "standard", 4, {}),
]
MOVE_CAP = 600  # a populating game still going after this many of the guest's moves is resigned
DONE = ("finished", "abandoned")


class Api:
    def __init__(self, url):
        self.url = url.rstrip("/") + "/api/v1"

    def call(self, method, path, token=None, body=None, timeout=60):
        """(status, answer); status 0 when no answer came (the error in the answer)."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as answer:
                text = answer.read()
                return answer.status, json.loads(text) if text else None
        except urllib.error.HTTPError as refusal:
            text = refusal.read()
            try:
                return refusal.code, json.loads(text) if text else {}
            except ValueError:
                return refusal.code, {"body": text.decode(errors="replace")}
        except OSError as lost:
            return 0, {"error": repr(lost)}

    def guest(self, name):
        status, answer = self.call("POST", "/auth/guest", body={"name": name})
        if status != 201:
            raise SystemExit("bench-backup: guest %s: %s %s" % (name, status, answer))
        return answer["token"]


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100.0 * len(ordered) + 0.5)) - 1))]


# ---------------------------------------------------------------------------------------------
# populate


def populate(args):
    api = Api(args.url)
    lock = threading.Lock()
    counts = {"games": 0, "resigned": 0, "capped": 0, "writes": 0, "problems": []}
    tickets = iter(range(args.games))
    started = time.monotonic()

    def play_one(token, number, rng):
        kind, variant, seats, options = TABLES[number % len(TABLES)]
        body = {"kind": kind, "variant": variant, "options": options,
                "seats": [{}] + [{"bot": "easy"} for _ in range(seats - 1)]}
        status, created = api.call("POST", "/games", token, body)
        if status != 201:
            raise RuntimeError("creating %s: %s %s" % (kind, status, created))
        game, view = created["id"], created["view"]
        resign_after = rng.randint(3, 80) if rng.random() < 0.25 else None
        made = writes = 0
        while view["status"] not in DONE:
            if resign_after is not None and made >= resign_after or made >= MOVE_CAP:
                status, answer = api.call("POST", "/games/%d/resign" % game, token, {})
                if status != 200:
                    raise RuntimeError("resigning %d: %s %s" % (game, status, answer))
                with lock:
                    counts["resigned" if resign_after is not None else "capped"] += 1
                break
            if view["status"] == "hand_over":
                status, answer = api.call("POST", "/games/%d/deal" % game, token,
                                          {"expected_version": view["version"]})
            elif view["to_act"] == view["your_seat"] and view["legal_moves"]:
                body = {"expected_version": view["version"], "move": cardroom_bot.choose(view)}
                status, answer = api.call("POST", "/games/%d/moves" % game, token, body)
                made += 1
            else:  # the computers' turn (they answer in the background): wait for a change
                api.call("GET", "/games/%d/events?after=%d&wait=2" % (game, view["version"]), token)
                status, answer = api.call("GET", "/games/%d" % game, token)
                if status != 200:
                    raise RuntimeError("viewing %d: %s %s" % (game, status, answer))
                view = answer
                continue
            writes += 1
            if status == 200:
                view = answer["view"]
            elif status == 409:  # the computers moved first: read the game again
                status, view = api.call("GET", "/games/%d" % game, token)
            else:
                raise RuntimeError("game %d: %s %s" % (game, status, answer))
        with lock:
            counts["games"] += 1
            counts["writes"] += writes

    def worker(number):
        rng = random.Random(number)
        try:
            token = api.guest("fill%d-%s" % (number, os.urandom(4).hex()))
        except SystemExit as failure:
            with lock:
                counts["problems"].append(str(failure))
            return
        while True:
            with lock:
                ticket = next(tickets, None)
            if ticket is None:
                return
            try:
                play_one(token, ticket, rng)
            except Exception as failure:  # noqa: BLE001
                with lock:
                    counts["problems"].append(repr(failure))
                    if len(counts["problems"]) > 5:
                        return

    threads = [threading.Thread(target=worker, args=(n,), daemon=True) for n in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - started
    print("  played %d games (%d resigned part-way, %d resigned at the move cap) in %.0f s, "
          "%d writes" % (counts["games"], counts["resigned"], counts["capped"], took,
                         counts["writes"]), flush=True)
    if counts["problems"] or counts["games"] == 0:
        raise SystemExit("bench-backup: populating went wrong:\n  " +
                         "\n  ".join(counts["problems"][:10]))


# ---------------------------------------------------------------------------------------------
# grow

# The tables copied with a game, keyed on game_id.
CHILDREN = ["seats", "game_log", "deals", "results"]


def grow(args):
    target = args.mb * 1024 * 1024
    con = sqlite3.connect(args.file, isolation_level=None)
    con.execute("PRAGMA journal_mode = MEMORY")  # the server is stopped: no WAL while copying
    con.execute("PRAGMA synchronous = OFF")
    con.execute("PRAGMA cache_size = -262144")

    def size():
        return con.execute("PRAGMA page_count").fetchone()[0] * \
            con.execute("PRAGMA page_size").fetchone()[0]

    def columns(table):
        return [row[1] for row in con.execute("PRAGMA table_info(%s)" % table)]

    con.execute("CREATE TEMP TABLE base (id INTEGER PRIMARY KEY)")
    con.execute("INSERT INTO base SELECT id FROM games WHERE status IN ('finished', 'abandoned')")
    base = con.execute("SELECT count(*) FROM base").fetchone()[0]
    if base == 0:
        raise SystemExit("bench-backup: no finished game to copy")
    game_cols = columns("games")
    game_select = ", ".join(
        "id + :off" if c == "id" else "printf('b%09x', id + :off)" if c == "invite_code" else c
        for c in game_cols)
    statements = ["INSERT INTO games (%s) SELECT %s FROM games WHERE id IN (SELECT id FROM base)"
                  % (", ".join(game_cols), game_select)]
    for table in CHILDREN:
        cols = columns(table)
        select = ", ".join("game_id + :off" if c == "game_id" else c for c in cols)
        statements.append("INSERT INTO %s (%s) SELECT %s FROM %s WHERE game_id IN "
                          "(SELECT id FROM base)" % (table, ", ".join(cols), select, table))

    started = time.monotonic()
    first = size()
    copies = 0
    per_copy = None
    while size() < target:
        # Several copies a transaction: as many as the remaining size needs, at most 8.
        batch = 1 if per_copy is None else max(1, min(8, int(-(-(target - size()) // per_copy))))
        before = size()
        con.execute("BEGIN")
        for _ in range(batch):
            off = con.execute("SELECT max(id) FROM games").fetchone()[0]
            for statement in statements:
                con.execute(statement, {"off": off})
        con.execute("COMMIT")
        copies += batch
        per_copy = max(1, (size() - before) / batch)
    con.execute("PRAGMA journal_mode = WAL")
    games = con.execute("SELECT count(*) FROM games").fetchone()[0]
    log = con.execute("SELECT count(*) FROM game_log").fetchone()[0]
    con.close()
    print("  grown from %.1f MB to %.0f MB in %.0f s (%d copies of the %d finished games): "
          "%d games, %d log entries" % (
              first / 1048576, os.path.getsize(args.file) / 1048576, time.monotonic() - started,
              copies, base, games, log), flush=True)


# ---------------------------------------------------------------------------------------------
# load


class Writers:
    """Threads playing Basra against computers, one write after another, every write noted."""

    def __init__(self, api, threads):
        self.api = api
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.writes = []  # dicts: what, game, seat, version, move, sent, acked, status
        self.problems = []
        self.threads = [threading.Thread(target=self.writer, args=(n,), daemon=True)
                        for n in range(threads)]

    def start(self):
        for t in self.threads:
            t.start()

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=90)

    def write(self, what, path, token, body, game=None, move=None):
        sent = time.monotonic()
        status, answer = self.api.call("POST", path, token, body)
        acked = time.monotonic()
        record = {"what": what, "game": game, "sent": sent, "acked": acked, "status": status,
                  "move": move, "version": None, "seat": 0}
        if status in (200, 201):
            events = answer.get("events") or []
            if events:
                record["version"] = events[0]["version"]
            if what == "create":
                record["game"] = answer["id"]
        else:
            record["answer"] = answer
        with self.lock:
            self.writes.append(record)
        return status, answer

    def writer(self, number):
        try:
            token = self.api.guest("load%d-%s" % (number, os.urandom(4).hex()))
            rng = random.Random(1000 + number)
            while not self.stop.is_set():
                status, created = self.write(
                    "create", "/games", token, {"kind": "basra", "seats": [{}, {"bot": "easy"}]})
                if status != 201:
                    time.sleep(0.1)
                    continue
                game, view = created["id"], created["view"]
                while not self.stop.is_set() and view["status"] not in DONE:
                    if view["status"] == "hand_over":
                        status, answer = self.write("deal", "/games/%d/deal" % game, token,
                                                    {"expected_version": view["version"]}, game)
                    elif view["to_act"] == view["your_seat"] and view["legal_moves"]:
                        move = rng.choice(view["legal_moves"])
                        status, answer = self.write(
                            "move", "/games/%d/moves" % game, token,
                            {"expected_version": view["version"], "move": move}, game, move)
                    else:
                        self.api.call("GET", "/games/%d/events?after=%d&wait=2" % (
                            game, view["version"]), token)
                        status, answer = self.api.call("GET", "/games/%d" % game, token)
                        if status == 200:
                            view = answer
                        continue
                    if status == 200:
                        view = answer["view"]
                    else:
                        s, fresh = self.api.call("GET", "/games/%d" % game, token)
                        if s != 200:
                            break
                        view = fresh
        except (Exception, SystemExit) as failure:  # noqa: BLE001
            with self.lock:
                self.problems.append("writer %d: %r" % (number, failure))


def stats(writes):
    lat = [(w["acked"] - w["sent"]) * 1000 for w in writes]
    return {"n": len(lat), "p50": percentile(lat, 50), "p99": percentile(lat, 99),
            "max": max(lat) if lat else float("nan")}


def load(args):
    api = Api(args.url)
    wal, shm = args.file + "-wal", args.file + "-shm"
    # (time, WAL file bytes, frames in the WAL, of them checkpointed into the database, page size,
    #  the machine's dirty MB, its CPU ticks)
    samples = []
    sampling = threading.Event()

    def dirty():
        """The machine's memory waiting to be written to disk (Dirty + Writeback), in MB."""
        try:
            with open("/proc/meminfo") as f:
                return sum(int(line.split()[1]) for line in f
                           if line.startswith(("Dirty:", "Writeback:"))) / 1024.0
        except (OSError, ValueError):
            return 0.0

    def cpu():
        """The machine's CPU time so far, in ticks: (busy, waiting for the disk, all)."""
        try:
            with open("/proc/stat") as f:
                ticks = [int(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return (0, 0, 0)
        idle, iowait = ticks[3], ticks[4] if len(ticks) > 4 else 0
        return (sum(ticks[:8]) - idle - iowait, iowait, sum(ticks[:8]))

    def sample():
        """The WAL file's size, and from the WAL index (the -shm file, native byte order) the
        frames the WAL holds (mxFrame) and how many of them are checkpointed (nBackfill)."""
        try:
            size = os.path.getsize(wal)
        except OSError:
            size = 0
        try:
            with open(shm, "rb") as f:
                head = f.read(100)
            page = struct.unpack_from("=H", head, 14)[0]
            frames, backfilled = struct.unpack_from("=I", head, 16)[0], \
                struct.unpack_from("=I", head, 96)[0]
        except (OSError, struct.error):
            page, frames, backfilled = 4096, 0, 0
        return (time.monotonic(), size, frames, backfilled, 65536 if page == 1 else page,
                dirty(), cpu())

    def sampler():
        while not sampling.is_set():
            samples.append(sample())
            time.sleep(0.02)

    def on_term(*_):
        raise SystemExit(143)

    signal.signal(signal.SIGTERM, on_term)
    writers = Writers(api, args.threads)
    backup = None
    threading.Thread(target=sampler, daemon=True).start()
    load_start = time.monotonic()
    writers.start()
    try:
        time.sleep(args.warmup)
        baseline_start = time.monotonic()
        time.sleep(args.baseline)
        db_bytes = os.path.getsize(args.file)
        wal_before = sample()
        load_average = os.getloadavg()
        cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        backup_start = time.monotonic()
        backup = subprocess.Popen(args.backup, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True)
        out, err = backup.communicate()
        backup_end = time.monotonic()
        backup_status, backup = backup.returncode, None
        cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        wal_end_of_backup = sample()
        time.sleep(args.after)
        after_end = time.monotonic()
    finally:
        if backup is not None:
            backup.terminate()
            backup.wait()
        writers.finish()
        sampling.set()
    wal_after = sample()
    mb = 1048576.0

    def in_use(x):  # the WAL's frames, in MB
        return x[2] * (x[4] + 24) / mb

    def backlog(x):  # its frames not yet checkpointed, in MB
        return max(0, x[2] - x[3]) * (x[4] + 24) / mb

    during_samples = [x for x in samples if backup_start <= x[0] <= backup_end] or [wal_before]
    # After the backup: when the backlog was checkpointed (under 1000 pages: SQLite's automatic
    # checkpoint leaves up to that much).
    drained = next((x[0] - backup_end for x in samples if x[0] > backup_end
                    and x[2] - x[3] < 1000), None)
    wal = {
        "file_before": wal_before[1] / mb, "file_max": max(x[1] for x in samples) / mb,
        "file_after": wal_after[1] / mb,
        "in_use_before": in_use(wal_before),
        "in_use_max_during": max(in_use(x) for x in during_samples),
        "in_use_end_of_backup": in_use(wal_end_of_backup), "in_use_after": in_use(wal_after),
        "backlog_before": backlog(wal_before),
        "backlog_max_during": max(backlog(x) for x in during_samples),
        "backlog_end_of_backup": backlog(wal_end_of_backup), "backlog_after": backlog(wal_after),
        "drained_after": drained,
    }
    backup_cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + \
        (cpu_after.ru_stime - cpu_before.ru_stime)

    writes = writers.writes
    ok = [w for w in writes if w["status"] in (200, 201)]
    timed = [w for w in ok if w["what"] in ("move", "deal")]
    baseline = [w for w in timed if w["sent"] >= baseline_start and w["acked"] < backup_start]
    during = [w for w in timed if w["acked"] >= backup_start and w["sent"] <= backup_end]
    after = [w for w in timed if w["sent"] > backup_end]
    bad = [w for w in writes if w["status"] not in (200, 201)]
    backup_seconds = backup_end - backup_start
    copy_bytes = os.path.getsize(args.dest) if os.path.exists(args.dest) else 0
    slowest = sorted(during, key=lambda w: w["sent"] - w["acked"])[:5]
    slowest_after = sorted(after, key=lambda w: w["sent"] - w["acked"])[:3]

    result = {
        "db_bytes": db_bytes, "wal": wal, "backup_cpu": backup_cpu,
        "load_average": load_average,
        "backup_status": backup_status, "backup_out": out.strip(), "backup_err": err.strip(),
        "backup_seconds": backup_seconds, "copy_bytes": copy_bytes,
        "baseline_seconds": backup_start - baseline_start, "after_seconds": after_end - backup_end,
        "baseline": stats(baseline), "during": stats(during), "after": stats(after),
        "writes_during": len(during), "moves_during": sum(1 for w in during if w["what"] == "move"),
        "non_200": [{k: w.get(k) for k in ("what", "game", "status", "answer")} for w in bad],
        "problems": writers.problems,
        "slowest_during": [{"what": w["what"], "ms": (w["acked"] - w["sent"]) * 1000,
                            "sent_at": w["sent"] - backup_start} for w in slowest],
        "slowest_after": [{"what": w["what"], "ms": (w["acked"] - w["sent"]) * 1000,
                           "sent_at": w["sent"] - backup_end} for w in slowest_after],
        "backup_start": backup_start, "backup_end": backup_end, "load_start": load_start,
        "writes": writes,
    }
    with open(args.out, "w") as f:
        json.dump(result, f)

    print("  database %.0f MB; WAL %.1f MB in use (%.1f MB file) before the backup; load "
          "average %.1f %.1f %.1f" % ((db_bytes / mb, wal["in_use_before"], wal["file_before"])
                                      + load_average))
    print("  backup: exit %d in %.2f s wall, %.2f s CPU (%s); copy %.0f MB; %.0f MB/s of the "
          "database" % (backup_status, backup_seconds, backup_cpu, out.strip() or err.strip(),
                        copy_bytes / mb, db_bytes / mb / backup_seconds))
    print("  %-34s %7s %8s %8s %8s %8s" % ("writes (moves, deals)", "count", "per s", "p50 ms",
                                            "p99 ms", "max ms"))
    for label, part, seconds in (
            ("baseline, %.0f s before" % (backup_start - baseline_start), baseline,
             backup_start - baseline_start),
            ("during the backup, %.1f s" % backup_seconds, during, backup_seconds),
            ("after it, %.0f s" % (after_end - backup_end), after, after_end - backup_end)):
        s = stats(part)
        print("  %-34s %7d %8.0f %8.1f %8.1f %8.1f" % (label, s["n"], s["n"] / seconds,
                                                        s["p50"], s["p99"], s["max"]))
    print("  slowest writes during the backup: " + ", ".join(
        "%.0f ms (%s, sent %+.2f s after it began)" % (w["ms"], w["what"], w["sent_at"])
        for w in result["slowest_during"]))
    print("  slowest writes after it: " + ", ".join(
        "%.0f ms (%s, sent %+.2f s after it ended)" % (w["ms"], w["what"], w["sent_at"])
        for w in result["slowest_after"]))
    print("  WAL in use: %.1f MB before, %.1f MB at most during the backup, %.1f MB as it ended, "
          "%.1f MB at the end (the file: %.1f MB before, %.1f MB at most, %.1f MB at the end)" % (
              wal["in_use_before"], wal["in_use_max_during"], wal["in_use_end_of_backup"],
              wal["in_use_after"], wal["file_before"], wal["file_max"], wal["file_after"]))
    print("  WAL not yet checkpointed: %.1f MB before, %.1f MB at most during the backup, %.1f MB "
          "as it ended, %.1f MB at the end; %s" % (
              wal["backlog_before"], wal["backlog_max_during"], wal["backlog_end_of_backup"],
              wal["backlog_after"], "checkpointed %.2f s after the backup" % drained
              if drained is not None else "not checkpointed by the end"))
    print("  second by second (0 = the backup began; writes by the second they were sent; the WAL "
          "and the machine's dirty pages at the second's end; the machine's CPU in the second, "
          "all cores):")
    print("  %6s %7s %7s %7s %11s %11s %9s %6s %7s" % (
        "second", "writes", "p50 ms", "max ms", "WAL in use", "not ckpted", "dirty MB", "busy",
        "iowait"))
    first = int(-min(3, args.baseline))
    last = int(after_end - backup_start) + 1
    for second in range(first, last):
        part = [w for w in timed if second <= w["sent"] - backup_start < second + 1]
        s = stats(part)
        at = [x for x in samples if x[0] - backup_start < second + 1] or samples[:1]
        start = [x for x in samples if x[0] - backup_start < second] or samples[:1]
        c0, c1 = start[-1][6], at[-1][6]
        ticks = max(1, c1[2] - c0[2])
        print("  %+6d %7d %7.1f %7.1f %8.1f MB %8.1f MB %9.0f %5.0f%% %6.0f%%%s" % (
            second, s["n"], s["p50"], s["max"], in_use(at[-1]), backlog(at[-1]), at[-1][5],
            100.0 * (c1[0] - c0[0]) / ticks, 100.0 * (c1[1] - c0[1]) / ticks,
            "  <- the backup ended" if second <= backup_seconds < second + 1 else ""))
    print("  answers other than 200/201: %d%s" % (len(bad), "".join(
        "\n    %s game %s: %s %s" % (w["what"], w["game"], w["status"], w.get("answer"))
        for w in bad[:10])))
    if writers.problems:
        print("  writer problems: %s" % writers.problems)
    if backup_status != 0:
        raise SystemExit("bench-backup: the backup failed (exit %d): %s" % (backup_status, err))
    if not during:
        raise SystemExit("bench-backup: no write was answered during the backup")


# ---------------------------------------------------------------------------------------------
# verify


def verify(args):
    with open(args.out) as f:
        result = json.load(f)
    start = result["backup_start"]
    con = sqlite3.connect("file:%s?mode=ro" % args.dest, uri=True)
    acked_before = [w for w in result["writes"] if w["what"] == "move" and w["status"] == 200
                    and w["acked"] < start]
    answered_during = [w for w in result["writes"] if w["what"] == "move" and w["status"] == 200
                       and w["acked"] >= start]
    missing = []
    present_during = 0
    for group, is_before in ((acked_before, True), (answered_during, False)):
        for w in group:
            row = con.execute("SELECT seat, action, payload FROM game_log WHERE game_id = ? "
                              "AND seq = ?", (w["game"], w["version"])).fetchone()
            ok = row is not None and row[0] == w["seat"] and row[1] == "move" \
                and json.loads(row[2]) == w["move"]
            if is_before and not ok:
                missing.append("game %d version %d: %s" % (w["game"], w["version"], row))
            elif not is_before and ok:
                present_during += 1
    games = con.execute("SELECT count(*) FROM games").fetchone()[0]
    con.close()
    result.update({"verified_before": len(acked_before) - len(missing),
                   "acked_before": len(acked_before), "present_during": present_during,
                   "answered_during": len(answered_during), "copy_games": games})
    with open(args.out, "w") as f:
        json.dump(result, f)
    print("  the copy (%d games): %d of %d moves acknowledged before the backup began are in it; "
          "of the %d answered after it began, %d are (made before its read transaction began)" % (
              games, len(acked_before) - len(missing), len(acked_before), len(answered_during),
              present_during))
    for m in missing[:20]:
        print("    MISSING: " + m)
    if missing:
        raise SystemExit("bench-backup: %d acknowledged moves are not in the copy" % len(missing))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    p = steps.add_parser("populate")
    p.add_argument("url")
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--threads", type=int, default=4)
    g = steps.add_parser("grow")
    g.add_argument("file")
    g.add_argument("--mb", type=int, default=1024)
    l_ = steps.add_parser("load")
    l_.add_argument("url")
    l_.add_argument("file")
    l_.add_argument("dest")
    l_.add_argument("out")
    l_.add_argument("--threads", type=int, default=4)
    l_.add_argument("--warmup", type=float, default=2)
    l_.add_argument("--baseline", type=float, default=10)
    l_.add_argument("--after", type=float, default=5)
    l_.add_argument("backup", nargs="+", help="the backup command, after --")
    v = steps.add_parser("verify")
    v.add_argument("dest")
    v.add_argument("out")
    args = parser.parse_args()
    {"populate": populate, "grow": grow, "load": load, "verify": verify}[args.step](args)


if __name__ == "__main__":
    main()
