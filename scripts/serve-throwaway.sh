# Sourced by the scripts that test a running service (browser-test, fuzz-api, bench-admin, the
# drills):
#   serve_throwaway BINARY [NAME=VALUE...]
# starts BINARY on a free loopback port — on a throwaway SQLite file unless DATABASE_URL is
# among the settings — stops it when the calling script exits, and sets $url to its address;
#   await_listening FILE PID TRIES
# waits for a server started as PID with its standard output sent to FILE to say where it
# listens: sets $url, looking every 0.1 s up to TRIES times; fails when PID ends first or time
# runs out.

await_listening() {
  local out=$1 pid=$2 tries=$3
  url=""
  for _ in $(seq "$tries"); do
    # (The file is opened by the server's own forked shell, which may not have run yet: a
    # reader that looked before it did once failed a CI run with sed's "can't read".)
    [ -f "$out" ] && url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$out")
    [ -n "$url" ] && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

serve_throwaway() {
  local bin=$1
  shift
  _serve_dir=$(mktemp -d)
  env DATABASE_URL="sqlite://$_serve_dir/cardroom.db" CARDROOM_ADDR=127.0.0.1:0 RUST_LOG=warn "$@" \
    "$bin" >"$_serve_dir/out" 2>"$_serve_dir/err" &
  _serve_pid=$!
  trap '_serve_stop' EXIT
  await_listening "$_serve_dir/out" "$_serve_pid" 200 && return 0
  echo "cardroom did not start:" >&2
  cat "$_serve_dir/err" >&2
  exit 1
}

_serve_stop() {
  kill "$_serve_pid" 2>/dev/null && wait "$_serve_pid" 2>/dev/null
  rm -rf "$_serve_dir"
  [ "$(type -t serve_cleanup)" = function ] && serve_cleanup
  return 0
}
