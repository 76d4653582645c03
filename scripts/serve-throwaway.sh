# Sourced by the scripts that test a running service (browser-test, fuzz-api, bench-admin):
#   serve_throwaway BINARY [NAME=VALUE...]
# starts BINARY on a free loopback port — on a throwaway SQLite file unless DATABASE_URL is
# among the settings — stops it when the calling script exits, and sets $url to its address.

serve_throwaway() {
  local bin=$1
  shift
  _serve_dir=$(mktemp -d)
  env DATABASE_URL="sqlite://$_serve_dir/cardroom.db" CARDROOM_ADDR=127.0.0.1:0 RUST_LOG=warn "$@" \
    "$bin" >"$_serve_dir/out" 2>"$_serve_dir/err" &
  _serve_pid=$!
  trap '_serve_stop' EXIT
  url=""
  for _ in $(seq 200); do
    url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$_serve_dir/out")
    [ -n "$url" ] && return 0
    kill -0 "$_serve_pid" 2>/dev/null || break
    sleep 0.1
  done
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
