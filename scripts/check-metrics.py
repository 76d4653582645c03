"""Drives scripts/check-metrics: makes some traffic on a running service (a guest, a game against
a computer player, a few moves, a refusal, a request for nothing), then reads GET /metrics with
the Prometheus project's own parser (the `prometheus_client` package) and checks what it
promises: the classic text format, every documented series with its type, histograms whose
buckets are cumulative and end in +Inf at the count, routes as templates, and counters that
counted the traffic."""

import json
import re
import sys
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

def documented():
    """The series docs/operations.md documents, with their types, read from its table of
    series (a row names one or more series in backquotes, then the type): the names as the
    parser gives them, a counter's without its `_total`."""
    found = {}
    with open("docs/operations.md", encoding="utf-8") as doc:
        for line in doc:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 2 or not cells[0].startswith("`cardroom_"):
                continue
            kind = cells[1]
            for name in re.findall(r"`(cardroom_[a-z_]+)`", cells[0]):
                if kind == "counter" and name.endswith("_total"):
                    name = name[: -len("_total")]
                found[name] = kind
    if not found:
        sys.exit("check-metrics: no series found in docs/operations.md")
    return found


DOCUMENTED = documented()


def call(url, method, path, token=None, body=None):
    """The status and JSON body of one request."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refusal:
        return refusal.code, None


def fail(message):
    sys.exit("check-metrics: " + message)


def main():
    url = sys.argv[1]
    status, guest = call(url, "POST", "/api/v1/auth/guest", body={"name": "metrics"})
    if status not in (200, 201):
        fail("no guest: %d" % status)
    token = guest["token"]
    status, made = call(url, "POST", "/api/v1/games", token,
                        {"kind": "basra", "seats": [{}, {"bot": "easy"}]})
    if status != 201:
        fail("no game: %d" % status)
    game, view = made["id"], made["view"]
    played = 0
    for _ in range(3):
        if view["status"] != "active" or view["to_act"] != view["your_seat"]:
            break
        status, answer = call(url, "POST", "/api/v1/games/%d/moves" % game, token,
                              {"expected_version": view["version"], "move": view["legal_moves"][0]})
        if status != 200:
            fail("a move was refused: %d" % status)
        view = answer["view"]
        played += 1
    if played == 0:
        fail("no move was played")
    # A stale move (409: refused before any write, so no version race), and a path that is no
    # route (404).
    status, _ = call(url, "POST", "/api/v1/games/%d/moves" % game, token,
                     {"expected_version": 0, "move": view["legal_moves"][0]})
    if status != 409:
        fail("a stale move answered %d" % status)
    call(url, "GET", "/api/v1/no-such-thing/%d" % game)

    with urllib.request.urlopen(url + "/metrics", timeout=30) as answer:
        content_type = answer.headers.get("Content-Type", "")
        text = answer.read().decode()
    if not content_type.startswith("text/plain") or "version=0.0.4" not in content_type:
        fail("content type %r is not the text format's" % content_type)
    families = {family.name: family for family in text_string_to_metric_families(text)}

    for name, kind in DOCUMENTED.items():
        if name not in families:
            fail("no series %s" % name)
        if families[name].type != kind:
            fail("%s is a %s, documented as a %s" % (name, families[name].type, kind))
        if not families[name].documentation:
            fail("%s has no HELP" % name)
    undocumented = sorted(name for name in families if name not in DOCUMENTED)
    if undocumented:
        fail("undocumented series: %s" % ", ".join(undocumented))

    for family in families.values():
        if family.type != "histogram":
            continue
        series = {}
        for sample in family.samples:
            labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le"))
            entry = series.setdefault(labels, {"buckets": [], "count": None})
            if sample.name.endswith("_bucket"):
                entry["buckets"].append((float(sample.labels["le"]), sample.value))
            elif sample.name.endswith("_count"):
                entry["count"] = sample.value
        for labels, entry in series.items():
            buckets = sorted(entry["buckets"])
            counts = [count for _, count in buckets]
            if counts != sorted(counts):
                fail("%s%s: buckets are not cumulative: %s" % (family.name, labels, buckets))
            if not buckets or buckets[-1][0] != float("inf") or buckets[-1][1] != entry["count"]:
                fail("%s%s: +Inf is not the count" % (family.name, labels))

    def total(name, **labels):
        return sum(sample.value for sample in families[name].samples
                   if sample.name == name + "_total"
                   and all(sample.labels.get(k) == v for k, v in labels.items()))

    if total("cardroom_moves") < played:
        fail("cardroom_moves_total did not count the %d moves" % played)
    if total("cardroom_http_requests", route="/api/v1/games/{id}/moves", status="409") < 1:
        fail("the stale move is not counted with its status")
    if total("cardroom_http_requests", route="/api/v1/games/{id}/moves", status="200") < played:
        fail("the moves are not counted under their route's template")
    routes = {sample.labels["route"] for sample in families["cardroom_http_requests"].samples}
    if any(segment.isdigit() for route in routes for segment in route.split("/")):
        fail("a raw path became a route label: %s" % sorted(routes))
    if total("cardroom_http_requests", route="unmatched", status="404") < 1:
        fail("the request for nothing is not counted as unmatched")
    print("check-metrics: %d series, all documented and well formed" % len(families))


if __name__ == "__main__":
    main()
