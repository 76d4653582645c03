#!/usr/bin/env python3
"""The load, the faults and the checks of scripts/failover-drill (which says what it shows and
sets up what this drives); standard library only. Its subcommands:

    ports N                        N free loopback ports, on one line
    reaper USER FOLDER CMD...      runs CMD (as USER unless "-") as a child subreaper: adopts the
                                   postmaster Patroni detaches, reaps it when it dies, forwards
                                   SIGTERM, and ends whatever is left of the node when CMD ends
    wait-cluster [--timeout S] REST...   until Patroni shows a leader and a synchronous standby
    wait-ready [--timeout S] URL...      until every replica's /readyz answers 200
    drill [--short] --node NAME,REST,DATA,YML... URL URL
"""

import argparse
import collections
import ctypes
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

# ---------------------------------------------------------------------------------------------
# Small helpers


def free_ports(n):
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def get_json(url, timeout=2.0):
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request("GET", parts.path or "/")
        answer = conn.getresponse()
        body = answer.read()
        return answer.status, (json.loads(body) if body else None)
    finally:
        conn.close()


def children_of(pid):
    """The PIDs whose parent is `pid` (read from /proc)."""
    kids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        # (The command may hold spaces and parentheses: the fields follow the last ')'.)
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid:
            kids.append(int(entry))
    return kids


# ---------------------------------------------------------------------------------------------
# reaper: Patroni starts its postmaster through a helper that exits, leaving the postmaster to
# init, and this machine's init does not reap. As the nearest child subreaper, this process
# becomes the postmaster's parent: a killed postmaster is reaped (Patroni then sees it gone), and
# when Patroni ends, whatever is left of the node is ended here — all of it our children.


def reaper(user, folder, cmd):
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_CHILD_SUBREAPER = 36
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("reaper: prctl(PR_SET_CHILD_SUBREAPER) failed")
    if user != "-":
        cmd = ["setpriv", "--reuid=" + user, "--regid=" + user, "--init-groups", "--",
               "env", "HOME=" + folder] + cmd
    child = subprocess.Popen(cmd)

    def forward(signo, _frame):
        try:
            os.kill(child.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    status = 0
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        if pid == child.pid:
            break
    # What is left (a postmaster Patroni did not stop, its backends): ours, ended now.
    deadline = time.time() + 15
    while time.time() < deadline:
        kids = children_of(os.getpid())
        if not kids:
            break
        for kid in kids:
            try:
                os.kill(kid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.1)
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass
    sys.exit(os.waitstatus_to_exitcode(status) if status else 0)


# ---------------------------------------------------------------------------------------------
# Patroni's view of the cluster


def cluster(rests):
    """Patroni's /cluster from the first node that answers: [{name, role, state, ...}]."""
    for rest in rests:
        try:
            status, body = get_json(rest + "/cluster", timeout=1.5)
            if status == 200 and body:
                return body.get("members", [])
        except (OSError, http.client.HTTPException, ValueError):
            continue
    return None


def describe(members):
    if members is None:
        return "no Patroni answers"
    return ", ".join("%s %s %s%s" % (m["name"], m.get("role"), m.get("state"),
                                     " TL%s" % m["timeline"] if "timeline" in m else "")
                     for m in sorted(members, key=lambda m: m["name"]))


def with_role(members, role):
    return [m["name"] for m in members or [] if m.get("role") == role and m.get("state") == "running"]


def wait_cluster(rests, timeout, nodes=3):
    start = time.time()
    shown = None
    while time.time() - start < timeout:
        members = cluster(rests)
        text = describe(members)
        if text != shown:
            print("  %5.1f s: %s" % (time.time() - start, text), flush=True)
            shown = text
        running = [m for m in members or [] if m.get("state") == "running"]
        if with_role(members, "leader") and with_role(members, "sync_standby") and len(running) == nodes:
            print("leader and synchronous standby after %.1f s" % (time.time() - start))
            return
        time.sleep(0.5)
    sys.exit("no leader with a synchronous standby after %d s" % timeout)


def wait_ready(urls, timeout):
    start = time.time()
    for url in urls:
        while True:
            try:
                if get_json(url + "/readyz")[0] == 200:
                    break
            except (OSError, http.client.HTTPException, ValueError):
                pass
            if time.time() - start > timeout:
                sys.exit("%s/readyz did not answer 200 within %d s" % (url, timeout))
            time.sleep(0.2)


# ---------------------------------------------------------------------------------------------
# The load: tables of the drill's own guests, each table's client alternating its requests
# between the replicas; every answer noted.

# (kind, seats, options): every seat a guest of the drill's; Basra to 31 ends often.
TABLES = [("basra", 2, {"target": 31}), ("thirty_one", 3, {}), ("rummy", 2, {}), ("tarneeb", 4, {})] * 2
# The moves a client prefers when legal (as examples/cardroom_bot.py): they keep a game going.
PREFERRED = ["meld", "lay_off", "draw_stock", "pass_drawn", "end_turn"]
PACE = 0.02  # seconds a client rests between two moves


class Record:
    """Everything the drill saw, shared by its threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.answers = []  # (sent, answered, what, status, replica, client)
        self.acks = []  # the moves and deals answered 200
        self.games = {}  # game id -> {"token" (its first seat's), "kind", "client"}
        self.followers = []
        self.retry_after = collections.Counter()  # the Retry-After of each 503 to the API

    def answer(self, sent, answered, what, status, replica, client):
        with self.lock:
            self.answers.append((sent, answered, what, status, replica, client))

    def ack(self, **ack):
        with self.lock:
            self.acks.append(ack)


record = Record()
stop_load = threading.Event()
stop_streams = threading.Event()


class Stopped(Exception):
    pass


class Client:
    """HTTP to the replicas, the next request to the next replica."""

    def __init__(self, replicas, name):
        self.replicas = [urllib.parse.urlsplit(u) for u in replicas]
        self.turn = random.randrange(len(replicas))
        self.name = name

    def next_replica(self):
        self.turn += 1
        return self.turn % len(self.replicas)

    def call(self, method, path, body=None, token=None, key=None, what=None, timeout=15):
        """(status, body, Retry-After); status is "no answer" when the replica gave none."""
        index = self.last = self.next_replica()
        where = self.replicas[index]
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        if key:
            headers["Idempotency-Key"] = key
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        sent = time.time()
        conn = http.client.HTTPConnection(where.hostname, where.port, timeout=timeout)
        try:
            conn.request(method, "/api/v1" + path, body=data, headers=headers)
            answer = conn.getresponse()
            raw = answer.read()
            status = answer.status
            retry = answer.getheader("Retry-After")
        except (OSError, http.client.HTTPException) as error:
            record.answer(sent, time.time(), what or method, "no answer", index, self.name)
            print("  %s: %s %s to replica %d: no answer (%s)" % (self.name, method, path, index + 1, error),
                  flush=True)
            return "no answer", None, 1.0
        finally:
            conn.close()
        record.answer(sent, time.time(), what or method, status, index, self.name)
        if status == 503:
            with record.lock:
                record.retry_after[retry] += 1
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        return status, parsed, float(retry) if retry else None

    def retrying(self, method, path, body=None, token=None, what=None, ok=(200, 201), key=None,
                 give_up=None):
        """Sends until answered with one of `ok` or a 4xx: (status, body). Retries a 503 after
        its Retry-After, and anything else (no answer, another 5xx) after 0.2 s, the same
        request each time. `give_up`: an event that ends the retries (raises Stopped)."""
        while True:
            status, answer, retry = self.call(method, path, body, token, key, what)
            if status in ok or (isinstance(status, int) and 400 <= status < 500):
                return status, answer
            if give_up is not None and give_up.is_set():
                raise Stopped()
            time.sleep(min(retry or 0.5, 2.0) if status == 503 else 0.2)


def choose(view, rng):
    legal = view["legal_moves"]
    for kind in PREFERRED:
        for move in legal:
            if move["type"] == kind:
                return move
    return rng.choice(legal)


class Table(threading.Thread):
    """One client seated in every seat of its table, playing game after game."""

    def __init__(self, number, kind, seats, options, replicas):
        super().__init__(daemon=True)
        self.number, self.kind, self.seats, self.options = number, kind, seats, options
        self.replicas = replicas
        self.name = "table %d (%s)" % (number, kind)
        self.http = Client(replicas, self.name)
        self.rng = random.Random(number)
        self.tokens = []
        self.games = 0
        self.error = None

    def run(self):
        try:
            for _ in range(self.seats):
                status, answer = self.http.retrying("POST", "/auth/guest", {}, what="guest")
                if status != 201:
                    raise RuntimeError("guest: %s %s" % (status, answer))
                self.tokens.append(answer["token"])
            while not stop_load.is_set():
                self.play(self.new_game())
        except Stopped:
            pass
        except Exception as error:  # noqa: BLE001 (reported, and the drill fails)
            self.error = "%s: %r" % (self.name, error)
            print("  " + self.error, flush=True)

    def new_game(self):
        body = {"kind": self.kind, "seats": [{}] * self.seats, "options": self.options}
        # (With a key, a retry of a request that landed answers with its game, and the service
        # may make it again itself when the database went away under it.)
        status, game = self.http.retrying("POST", "/games", body, self.tokens[0], what="create",
                                          key=str(uuid.uuid4()), give_up=stop_load)
        if status != 201:
            raise RuntimeError("create: %s %s" % (status, game))
        gid = game["id"]
        with record.lock:
            record.games[gid] = {"token": self.tokens[0], "kind": self.kind, "client": self.name}
        follower = self.follower = Follower(gid, self.tokens[0], self.replicas)
        with record.lock:
            record.followers.append(follower)
        follower.start()
        for seat in range(1, self.seats):
            body = {"invite_code": game["invite_code"], "seat": seat}
            status, answer = self.http.retrying("POST", "/games/%d/join" % gid, body, self.tokens[seat],
                                                what="join", ok=(200,), give_up=stop_load)
            # (A join answered 503 may have landed: the retry then finds the seat taken by us.)
            if status != 200 and not (status == 409 and self.seated(gid, seat)):
                raise RuntimeError("join: %s %s" % (status, answer))
        self.games += 1
        return gid

    def seated(self, gid, seat):
        status, view = self.http.retrying("GET", "/games/%d" % gid, token=self.tokens[seat], what="view",
                                          ok=(200,), give_up=stop_load)
        return status == 200 and view.get("your_seat") == seat

    def view(self, gid, seat):
        status, view = self.http.retrying("GET", "/games/%d" % gid, token=self.tokens[seat], what="view",
                                          ok=(200,), give_up=stop_load)
        if status != 200:
            raise RuntimeError("view: %s %s" % (status, view))
        return view

    def act(self, gid, seat, path, body, what, move=None):
        """A move or a deal, retried with its Idempotency-Key until answered: the mover's new
        view, or None when it was refused (409: the game moved on)."""
        key = str(uuid.uuid4())
        while True:
            sent = time.time()
            status, answer, retry = self.http.call("POST", path, body, self.tokens[seat], key, what)
            if status == 200:
                events = answer.get("events") or []
                if events:
                    record.ack(game=gid, version=events[0]["version"], action=what, seat=seat, move=move,
                               sent=sent, answered=time.time(), client=self.name, replica=self.http.last)
                return answer["view"]
            if isinstance(status, int) and 400 <= status < 500:
                if status != 409:
                    print("  %s: %s in game %d refused: %s %s" % (self.name, what, gid, status, answer),
                          flush=True)
                return None
            if stop_load.is_set():
                raise Stopped()
            time.sleep(min(retry or 0.5, 2.0) if status == 503 else 0.2)

    def play(self, gid):
        seat = 0
        view = None
        while not stop_load.is_set():
            if view is None or view.get("your_seat") != seat:
                view = self.view(gid, seat)
            status = view["status"]
            if status in ("finished", "abandoned"):
                self.follower.until = view["version"]  # (its stream may close once there)
                return
            if status == "hand_over":
                self.act(gid, seat, "/games/%d/deal" % gid, {"expected_version": view["version"]}, "deal")
                view = None
                continue
            to_act = view.get("to_act")
            if to_act is None or not view.get("legal_moves") and to_act == view.get("your_seat"):
                time.sleep(0.1)
                view = None
                continue
            if to_act != view["your_seat"]:
                seat, view = to_act, None
                continue
            move = choose(view, self.rng)
            body = {"expected_version": view["version"], "move": move}
            view = self.act(gid, seat, "/games/%d/moves" % gid, body, "move", move)
            if view is not None and view.get("to_act") is not None:
                seat = view["to_act"]
            time.sleep(PACE)


# ---------------------------------------------------------------------------------------------
# The streams: one a game, as its first seat, resumed with Last-Event-ID on the other replica.


class Follower(threading.Thread):
    def __init__(self, gid, token, replicas):
        super().__init__(daemon=True)
        self.gid, self.token = gid, token
        self.replicas = [urllib.parse.urlsplit(u) for u in replicas]
        self.turn = gid % len(replicas)
        self.ids = []  # every event id seen, in order (versions: no chat is said)
        self.arrivals = []  # (version, when, replica, since when that connection was open) of each
        self.replica = self.opened = None
        self.last = None  # the last id, as sent
        self.interruptions = []  # (time, why)
        self.resumed = 0
        self.done = threading.Event()
        self.lock = threading.Lock()
        self.conn = None
        self.cut_asked = False
        self.until = None  # the version to stop after (set once the game is over)

    def caught_up(self):
        return self.until is not None and self.ids and self.ids[-1] >= self.until

    def cut(self):
        """Drops the connection from the client's side (the reader resumes)."""
        with self.lock:
            if self.conn is not None and self.conn.sock is not None and not self.done.is_set():
                self.cut_asked = True
                try:
                    self.conn.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def run(self):
        try:
            self.follow("stream %d" % self.gid)
        finally:
            self.done.set()

    def follow(self, name):
        interrupted = False
        while not stop_streams.is_set() and not self.caught_up():
            self.turn += 1
            index = self.turn % len(self.replicas)
            where = self.replicas[index]
            headers = {"Accept": "text/event-stream", "Authorization": "Bearer " + self.token}
            if self.last is not None:
                headers["Last-Event-ID"] = self.last
            sent = time.time()
            conn = http.client.HTTPConnection(where.hostname, where.port, timeout=20)
            with self.lock:
                self.conn, self.cut_asked = conn, False
            why = None
            try:
                conn.request("GET", "/api/v1/games/%d/events" % self.gid, headers=headers)
                answer = conn.getresponse()
                record.answer(sent, time.time(), "stream", answer.status, index, name)
                if answer.status != 200:
                    retry = answer.getheader("Retry-After")
                    answer.read()
                    conn.close()
                    if answer.status not in (503, 429):
                        print("  stream %d: %s" % (self.gid, answer.status), flush=True)
                    time.sleep(min(float(retry), 2.0) if retry else 0.5)
                    continue
                self.replica, self.opened = index, sent
                if interrupted:
                    self.resumed += 1
                    interrupted = False
                why = self.read(answer)
            except (OSError, http.client.HTTPException) as error:
                with self.lock:
                    asked = self.cut_asked
                if asked:
                    why = "cut by the client"
                elif stop_streams.is_set():
                    why = None
                else:
                    why = "error: %s" % error
                    if not isinstance(error, socket.timeout):
                        record.answer(sent, time.time(), "stream", "no answer", index, name)
            finally:
                with self.lock:
                    self.conn = None
                conn.close()
            if why and not stop_streams.is_set() and not self.caught_up():
                self.interruptions.append((time.time(), why))
                interrupted = True

    def read(self, answer):
        """Reads events until the stream ends; why it ended (None: caught up or told to stop)."""
        while True:
            if stop_streams.is_set() or self.caught_up():
                return None
            line = answer.readline()
            if not line:
                with self.lock:
                    asked = self.cut_asked
                return "cut by the client" if asked else "closed by the server"
            line = line.decode().rstrip("\r\n")
            if line.startswith("id:"):
                self.last = line[3:].strip()
                self.ids.append(int(self.last.split(":")[0]))
                self.arrivals.append((self.ids[-1], time.time(), self.replica, self.opened))


# ---------------------------------------------------------------------------------------------
# The drill


class Drill:
    def __init__(self, args):
        self.args = args
        self.started = args.started or time.time()
        self.nodes = {}
        for spec in args.node:
            name, rest, data, yml = spec.split(",")
            self.nodes[name] = {"rest": rest, "data": data, "yml": yml}
        self.rests = [n["rest"] for n in self.nodes.values()]
        self.replicas = args.replicas
        self.marks = {}  # name -> time
        self.timeline = []  # (time, text): the cluster as Patroni showed it, each change
        self.watching = True

    def t(self, when=None):
        return (when or time.time()) - self.started

    def say(self, text):
        print("[%6.1f s] %s" % (self.t(), text), flush=True)

    def mark(self, name):
        self.marks[name] = time.time()

    def watch_cluster(self):
        shown = None
        while self.watching:
            members = cluster(self.rests)
            text = describe(members)
            if text != shown:
                self.timeline.append((time.time(), text, members))
                print("[%6.1f s]   cluster: %s" % (self.t(), text), flush=True)
                shown = text
            time.sleep(0.25)

    def members(self):
        return self.timeline[-1][2] if self.timeline else cluster(self.rests)

    def acks_after(self, when):
        with record.lock:
            return [a for a in record.acks if a["sent"] > when]

    def first_failure_after(self, when, timeout):
        """When the first request sent after `when` failed (503 or no answer), or None."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            with record.lock:
                failed = [r[1] for r in record.answers
                          if r[0] > when and (r[3] == 503 or r[3] == "no answer")]
            if failed:
                return min(failed)
            time.sleep(0.05)
        return None

    def first_write_after(self, when, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            later = [a for a in self.acks_after(when) if a["action"] == "move"]
            if later:
                return min(a["answered"] for a in later)
            time.sleep(0.05)
        return None

    def play_for(self, seconds, why):
        self.say("playing %d s %s" % (seconds, why))
        time.sleep(seconds)

    def cut_streams(self):
        with record.lock:
            followers = [f for f in record.followers if not f.done.is_set()]
        for f in followers:
            f.cut()
        self.say("cut %d event streams from the client's side (each resumes on the other replica)"
                 % len(followers))

    def kill_leader(self):
        members = cluster(self.rests)
        leaders = with_role(members, "leader")
        if not leaders:
            raise SystemExit("no leader to kill: " + describe(members))
        name = leaders[0]
        data = self.nodes[name]["data"]
        with open(os.path.join(data, "postmaster.pid")) as f:
            pid = int(f.readline())
        # The PID file names the postmaster of this data folder: check it is that process.
        if os.path.realpath("/proc/%d/cwd" % pid) != os.path.realpath(data):
            raise SystemExit("pid %d of %s/postmaster.pid is not working in that folder" % (pid, data))
        os.kill(pid, signal.SIGKILL)
        self.mark("kill")
        self.say("SIGKILLed %s's postmaster (pid %d): the primary machine's PostgreSQL is gone" % (name, pid))
        return name

    def rejoined(self, members, name):
        """Whether node `name` runs as a replica on the leader's timeline (a node that comes
        back on its old timeline runs for a moment before Patroni stops it to rewind)."""
        leader = [m for m in members or [] if m.get("role") == "leader" and m.get("state") == "running"]
        node = [m for m in members or [] if m["name"] == name]
        return bool(leader and node and node[0].get("role") in ("replica", "sync_standby")
                    and node[0].get("state") == "running"
                    and node[0].get("timeline") == leader[0].get("timeline"))

    def wait_rejoined(self, name, since, timeout):
        """Seconds from `since` until node `name` rejoined for good: the cluster's history (as the
        watcher saw it) shows it rejoined from then until now."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.rejoined(cluster(self.rests), name):
                time.sleep(0.3)  # (the watcher's next look)
                back = None
                for when, _, members in list(self.timeline):
                    if when < since:
                        continue
                    if self.rejoined(members, name):
                        back = when if back is None else back
                    else:
                        back = None
                if back is not None:
                    return back - since
            time.sleep(0.25)
        return None

    def run(self):
        a = self.args
        watcher = threading.Thread(target=self.watch_cluster, daemon=True)
        watcher.start()
        self.mark("load")
        tables = [Table(i + 1, kind, seats, options, self.replicas)
                  for i, (kind, seats, options) in enumerate(TABLES)]
        for table in tables:
            table.start()
        self.say("%d tables playing through both replicas, each following its game's stream" % len(tables))
        self.play_for(10, "before the failure")

        # 1. The primary's machine loses its PostgreSQL.
        killed = self.kill_leader()
        time.sleep(0.3)
        self.cut_streams()
        # (The killed postmaster's backends live on for a moment: a transaction under way may
        # still commit, once the synchronous standby has it. Writes are gone from the first
        # failure on; they are back with the first move answered 200 among those sent after it.)
        kill = self.marks["kill"]
        failed = self.first_failure_after(kill, 15)
        self.late = sum(1 for a in self.acks_after(kill) if failed is None or a["answered"] < failed)
        self.first_failure = failed
        back = self.first_write_after(failed or kill, 60)
        if back is None:
            self.say("no move was answered 200 within 60 s of the first failure")
            self.writes_back = None
        else:
            self.writes_back = back - kill
            self.say("first failure %s s after the kill; writes back %.2f s after it (%d moves answered 200"
                     " in between)" % (fmt(failed and failed - kill, "%.2f"), self.writes_back, self.late))
        self.mark("failover_done")
        self.play_for(10, "after the failover")
        rejoined = self.wait_rejoined(killed, self.marks["kill"], 60)
        self.rejoin = (killed, rejoined)
        if rejoined is None:
            self.say("%s did NOT rejoin as a replica within 60 s of play after the failover" % killed)
        else:
            self.say("%s rejoined as a replica %.1f s after the kill" % (killed, rejoined))
        self.mark("failover_end")

        # 2. A planned switchover, under load.
        self.switch = None
        if not a.short:
            members = cluster(self.rests)
            leader = with_role(members, "leader")[0]
            candidate = with_role(members, "sync_standby")[0]
            yml = self.nodes[leader]["yml"]
            self.mark("switch")
            self.say("patronictl switchover --leader %s --candidate %s --force" % (leader, candidate))
            ctl = subprocess.Popen(["patronictl", "-c", yml, "switchover", "--leader", leader,
                                    "--candidate", candidate, "--force"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            # The streams are cut again while no primary runs: once the old one is stopping.
            deadline = time.time() + 30
            while time.time() < deadline and with_role(cluster(self.rests), "leader") == [leader]:
                time.sleep(0.1)
            self.cut_streams()
            said = ctl.communicate(timeout=90)[0]
            told = [line for line in said.splitlines() if line.strip() and line[0] not in "+|"]
            self.say("patronictl exited %d: %s" % (ctl.returncode, " / ".join(told) or said.strip()))
            deadline = time.time() + 60
            while time.time() < deadline and with_role(cluster(self.rests), "leader") != [candidate]:
                time.sleep(0.2)
            self.mark("switched")
            self.say("%s is the leader %.1f s after the switchover began"
                     % (", ".join(with_role(cluster(self.rests), "leader")),
                        self.marks["switched"] - self.marks["switch"]))
            self.first_write_after(self.marks["switched"], 30)
            self.play_for(10, "after the switchover")
            old = self.wait_rejoined(leader, self.marks["switch"], 60)
            self.say("old leader %s %s" % (leader, "back as a replica %.1f s after the switchover began" % old
                                             if old is not None else "did NOT come back as a replica in 60 s"))
            self.mark("switch_end")
            self.switch = (leader, candidate, old)

        # 3. Stop, catch up, check.
        self.mark("stop")
        stop_load.set()
        for table in tables:
            table.join(30)
        self.say("load stopped")
        self.watching = False
        return self.verify(tables)

    # ---- the checks ---------------------------------------------------------------------------

    def verify(self, tables):
        checker = Client(self.replicas, "checker")
        with record.lock:
            games = dict(record.games)
            acks = list(record.acks)
            followers = list(record.followers)
        logs = {}
        for gid, game in sorted(games.items()):
            token = game["token"]
            status, log = checker.retrying("GET", "/games/%d/log" % gid, token=token, what="log", ok=(200,))
            status2, view = checker.retrying("GET", "/games/%d" % gid, token=token, what="view", ok=(200,))
            if status != 200 or status2 != 200:
                raise SystemExit("cannot read game %d: %s %s" % (gid, status, status2))
            logs[gid] = (log, view)
        # Acknowledged moves against the logs.
        lost = []
        for ack in acks:
            log, view = logs[ack["game"]]
            entry = next((e for e in log["entries"] if e["version"] == ack["version"]), None)
            same = (entry is not None and entry["action"] == ack["action"]
                    and (ack["action"] != "move" or (entry["seat"] == ack["seat"]
                                                     and canonical(entry["move"]) == canonical(ack["move"])))
                    and view["version"] >= ack["version"])
            if not same:
                lost.append((ack, entry))
        holes = []
        for gid, (log, view) in logs.items():
            versions = [e["version"] for e in log["entries"]]
            if versions != list(range(1, view["version"] + 1)):
                holes.append(gid)
        # The streams: let them catch up to what their seat may see, then hold them to the logs.
        expected = {gid: [e["version"] for e in log["entries"] if e["events"]]
                    for gid, (log, _) in logs.items()}
        for f in followers:
            f.until = expected[f.gid][-1] if expected[f.gid] else 0
        deadline = time.time() + 20
        while time.time() < deadline and not all(f.caught_up() or f.done.is_set() for f in followers):
            time.sleep(0.1)
        self.say("streams caught up" if all(f.caught_up() for f in followers)
                 else "%d streams did not catch up in 20 s" % sum(not f.caught_up() for f in followers))
        stop_streams.set()
        for f in followers:
            f.cut()
            f.join(5)
        gaps = duplicates = disorder = 0
        stream_notes = []
        for f in followers:
            seen = f.ids
            missing = sorted(set(expected[f.gid]) - set(seen))
            extra = sorted(set(seen) - set(expected[f.gid]))
            dup = len(seen) - len(set(seen))
            out_of_order = sum(1 for x, y in zip(seen, seen[1:]) if y < x)
            gaps += len(missing) + len(extra)
            duplicates += dup
            disorder += out_of_order
            if missing or extra or dup or out_of_order:
                stream_notes.append("game %d: missing %s, unexpected %s, %d duplicates, %d out of order"
                                    % (f.gid, missing[:10], extra[:10], dup, out_of_order))
        gaps += disorder
        interruptions = [why for f in followers for _, why in f.interruptions]
        resumed = sum(f.resumed for f in followers)
        return self.summary(tables, games, acks, lost, holes, followers, interruptions, resumed,
                            gaps, duplicates, disorder, stream_notes)

    def window(self, start, end):
        with record.lock:
            return [r for r in record.answers if start <= r[0] <= end]

    def longest_gap(self, start, end, client=None):
        """The longest time without a move or deal answered 200, from `start` to `end`."""
        with record.lock:
            times = sorted(a["answered"] for a in record.acks
                           if start <= a["answered"] <= end and (client is None or a["client"] == client))
        points = [start] + times + [end]
        return max(b - a for a, b in zip(points, points[1:]))

    def summary(self, tables, games, acks, lost, holes, followers, interruptions, resumed,
                gaps, duplicates, disorder, stream_notes):
        m = self.marks
        print("\n== summary")
        switch = ("switchover %.1f-%.1f s; " % (self.t(m["switch"]), self.t(m["switch_end"]))
                  if "switch" in m else "")
        print("phases: play from %.1f s; the kill at %.1f s; failover phase until %.1f s; %sstop at %.1f s;"
              " checks %.1f s" % (self.t(m["load"]), self.t(m["kill"]), self.t(m["failover_end"]), switch,
                                  self.t(m["stop"]), time.time() - m["stop"]))
        with record.lock:
            answers = list(record.answers)
        print("requests: %d; by status: %s" % (len(answers), tally(r[3] for r in answers)))
        by_what = collections.defaultdict(list)
        for r in answers:
            by_what[r[2]].append(r[3])
        for what, statuses in sorted(by_what.items()):
            print("  %-7s %s" % (what, tally(statuses)))
        bad = [r for r in answers
               if r[3] == "no answer" or (isinstance(r[3], int) and r[3] >= 500 and r[3] != 503)]
        for r in bad[:10]:
            print("  DEFECT at %.1f s: %s answered %s by replica %d (%s)"
                  % (self.t(r[0]), r[2], r[3], r[4] + 1, r[5]))
        odd = [r for r in answers if isinstance(r[3], int) and 400 <= r[3] < 500 and r[3] != 409]
        if odd:
            print("  unexpected 4xx: %d (%s)" % (len(odd), tally("%s %s" % (r[2], r[3]) for r in odd)))
        if record.retry_after:
            print("  every 503 came with Retry-After: %s" % tally(record.retry_after.elements()))

        during = self.window(m["kill"], m["failover_done"])
        print("failover: writes back %s s after the kill; %d requests in between: %s"
              % (fmt(self.writes_back), len(during), tally(r[3] for r in during)))
        if during:
            print("  slowest answer then: %.2f s" % max(r[1] - r[0] for r in during))
        print("  first failure %s s after the kill; moves sent after the kill and answered 200 before it: %d%s"
              % (fmt(self.first_failure and self.first_failure - m["kill"], "%.2f"), self.late,
                 " (the killed postmaster's backends finishing, the synchronous standby confirming)"
                 if self.late else ""))
        wait = max(self.longest_gap(m["load"] + 3, m.get("switch", m["stop"]), t.name) for t in tables)
        print("  longest any client went without a move answered 200 (before the switchover): %.2f s" % wait)
        killed, rejoined = self.rejoin
        print("  %s rejoined as a replica: %s" % (killed, "after %.1f s" % rejoined if rejoined is not None else "NO"))
        switch_text = "not run (--short)"
        z = 0
        switch_failed = []
        if self.switch:
            leader, candidate, old = self.switch
            win = self.window(m["switch"], m["switch_end"])
            failed = [r for r in win if not (isinstance(r[3], int) and (r[3] < 400 or r[3] == 409))]
            r503 = sum(1 for r in failed if r[3] == 503)
            z = self.longest_gap(m["switch"], m["switch_end"])
            print("switchover %s -> %s: %d requests, %d failed (%s); longest time without a write %.2f s;"
                  " %s back as a replica: %s" % (leader, candidate, len(win), len(failed),
                                                 tally(r[3] for r in failed) or "none", z, leader,
                                                 "after %.1f s" % old if old is not None else "NO"))
            switch_text = "%d failed requests (%d answered 503), writes back after %.1f s" % (len(failed), r503, z)
            switch_failed = failed

        moves = sum(1 for a in acks if a["action"] == "move")
        print("acknowledged: %d moves and %d deals in %d games (%d of them finished); lost: %d"
              % (moves, len(acks) - moves, len(games), sum(t.games for t in tables) - len(tables), len(lost)))
        for ack, entry in lost[:10]:
            print("  LOST: game %d version %d: answered %s %s, the log holds %s"
                  % (ack["game"], ack["version"], ack["action"], ack["move"], entry))
        if holes:
            print("  games whose log skips a version: %s" % holes)
        print("streams: %d followed; %d interruptions (%s), %d resumed; %d gaps (%d out of order), %d duplicates"
              % (len(followers), len(interruptions), tally(interruptions) or "none", resumed, gaps, disorder,
                 duplicates))
        for note in stream_notes[:10]:
            print("  " + note)
        self.latencies(followers)
        self.logs()
        errors = [t.error for t in tables if t.error]
        for e in errors:
            print("client gave up: " + e)

        x = self.writes_back
        ok = (not lost and not holes and not bad and gaps == 0 and duplicates == 0 and x is not None
              and x <= 10 and resumed == len(interruptions) and not errors and z <= 10
              and not switch_failed)
        print("verdict: %s" % ("PASS" if ok else "FAIL"), flush=True)
        last = ("lost %d acknowledged moves of %d; writes back after %s s; longest client wait %.1f s; "
                "5xx other than 503: %d; streams resumed %d of %d with %d gaps and %d duplicates; switchover: %s"
                % (len(lost), len(acks), fmt(x), wait, len(bad), resumed, len(interruptions), gaps, duplicates,
                   switch_text))
        if self.args.last_line:  # (scripts/failover-drill prints it last, after cleaning up)
            with open(self.args.last_line, "w") as f:
                f.write(last + "\n")
        else:
            print(last, flush=True)
        return 0 if ok else 1

    def latencies(self, followers):
        """How soon a stream saw a move made through the other replica (that news comes by
        PostgreSQL's NOTIFY to the replica's LISTEN connection, or its one-second safety net):
        before the failure, after the failover and after the switchover."""
        with record.lock:
            acked = {(a["game"], a["version"]): a for a in record.acks}
        m = self.marks
        spans = [("before the failure", m["load"], m["kill"]),
                 ("after the failover", m["failover_done"] + 1, m.get("switch", m["stop"]))]
        if "switched" in m:
            spans.append(("after the switchover", m["switched"] + 1, m["stop"]))
        for name, start, end in spans:
            # (Only news that came live: not what a stream read back on resuming.)
            delays = sorted(when - acked[(f.gid, v)]["answered"]
                            for f in followers for v, when, replica, opened in f.arrivals
                            if (f.gid, v) in acked and start <= acked[(f.gid, v)]["answered"] < end
                            and replica != acked[(f.gid, v)]["replica"] and opened < acked[(f.gid, v)]["sent"])
            if delays:
                pick = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))]  # noqa: E731
                print("  a move made on one replica, seen on the other's stream %s: median %.0f ms, 95%% %.0f ms,"
                      " slowest %.0f ms (%d moves)" % (name, pick(0.5) * 1000, pick(0.95) * 1000,
                                                       delays[-1] * 1000, len(delays)))

    def logs(self):
        """What the replicas logged (each message once, with its count), and the lines of
        Patroni's logs that tell the story of the failover and the switchover."""
        for path in self.args.server_log or []:
            try:
                with open(path, errors="replace") as f:
                    lines = f.read().splitlines()
            except OSError:
                continue
            messages = collections.Counter()
            for line in lines:
                try:
                    entry = json.loads(line)
                except ValueError:
                    messages[line[:200]] += 1
                    continue
                fields = entry.get("fields", entry)
                text = "%s %s" % (entry.get("level", "?"), " ".join(str(fields.get("message", "")).split()))
                for name in ("cause", "error", "status", "route"):
                    if name in fields:
                        text += " %s=%s" % (name, " ".join(str(fields[name]).split())[:150])
                messages[text[:300]] += 1
            print("%s: %d lines" % (os.path.basename(path), len(lines)))
            for text, n in messages.most_common(12):
                print("  %4d × %s" % (n, text))
        story = ("crash", "failing over", "promot", "rewind", "demot", "manual failover", "switchover",
                 "following a different leader", "lock as", "cleaning up", "released leader")
        for name, node in sorted(self.nodes.items()):
            path = os.path.join(os.path.dirname(node["yml"]), "patroni.log")
            try:
                with open(path, errors="replace") as f:
                    lines = [line for line in f.read().splitlines()
                             if any(word in line.lower() for word in story) and "no action" not in line.lower()]
            except OSError:
                continue
            # (Each message once in a row: "… in progress" repeats every loop.)
            told = []
            for line in lines:
                said = line.split(": ", 1)[-1]
                if not told or told[-1][1] != said:
                    told.append((line, said))
            print("%s's Patroni, what it did:" % name)
            for line, _ in told[:16]:
                print("  " + line[:200])


def tally(values):
    """"200: 12, 503: 3": how many of each value."""
    return ", ".join("%s: %d" % kv for kv in sorted(collections.Counter(map(str, values)).items()))


def fmt(seconds, form="%.1f"):
    return "never" if seconds is None else form % seconds


def canonical(move):
    return json.dumps(move, sort_keys=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("ports")
    p.add_argument("n", type=int)
    p = sub.add_parser("reaper")
    p.add_argument("user")
    p.add_argument("folder")
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    p = sub.add_parser("wait-cluster")
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("rests", nargs="+")
    p = sub.add_parser("wait-ready")
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("urls", nargs="+")
    p = sub.add_parser("drill")
    p.add_argument("--short", action="store_true")
    p.add_argument("--started", type=float)
    p.add_argument("--node", action="append", required=True)
    p.add_argument("--server-log", action="append")
    p.add_argument("--last-line", help="write the summary's last line to this file instead")
    p.add_argument("replicas", nargs=2)
    args = parser.parse_args()
    if args.command == "ports":
        print(" ".join(map(str, free_ports(args.n))))
    elif args.command == "reaper":
        reaper(args.user, args.folder, args.cmd)
    elif args.command == "wait-cluster":
        wait_cluster(args.rests, args.timeout)
    elif args.command == "wait-ready":
        wait_ready(args.urls, args.timeout)
    else:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        sys.exit(Drill(args).run())


if __name__ == "__main__":
    main()
