// A bot written only against the types openapi-typescript generates from the committed OpenAPI
// document (generated/openapi.d.ts), compiled with `tsc --strict`: no cast anywhere. It signs in
// as a guest, sits down at a game of each kind against computer players, and plays all four
// from its account stream (newline-delimited JSON): on `your_turn` it reads the view, whose
// type the game's `kind` narrows (a Tarneeb view has Tarneeb moves), and sends the first legal
// move in that game's own move request, or deals. Once, mid-game, it drops the stream and
// resumes with `Last-Event-ID`; it checks that nothing it was owed is lost. Run by
// scripts/typescript-bot: `node build/bot.js <server address>`.

import type { components } from "./generated/openapi.js";

type Schemas = components["schemas"];
type GameView = Schemas["GameView"];
type MoveRequest = Schemas["MoveRequest"];
type AccountEvent = Schemas["AccountEventOut"];
type GameKind = Schemas["GameKind"];

const base = process.argv[2];
if (!base) {
  throw new Error("usage: node build/bot.js <server address>");
}

/** A request to the API; the answer as `T` (what the document says the operation answers). */
async function call<T>(method: string, path: string, token: string | null, body?: object): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(base + path, init);
  if (!response.ok) {
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  }
  return response.json();
}

/** The game's own move request for the first of the view's legal moves, if it has one. */
function firstMove(view: GameView): MoveRequest | null {
  const version = view.version;
  switch (view.kind) {
    case "basra": {
      const move = view.legal_moves[0];
      return move ? { kind: "basra", expected_version: version, move } : null;
    }
    case "thirty_one": {
      const move = view.legal_moves[0];
      return move ? { kind: "thirty_one", expected_version: version, move } : null;
    }
    case "rummy": {
      const move = view.legal_moves[0];
      return move ? { kind: "rummy", expected_version: version, move } : null;
    }
    case "tarneeb": {
      const move = view.legal_moves[0];
      return move ? { kind: "tarneeb", expected_version: version, move } : null;
    }
  }
}

/** What a game's table holds, in a word (typed by the view's kind). */
function tableSummary(view: GameView): string {
  switch (view.kind) {
    case "basra":
      return `floor ${view.table?.floor.length ?? 0}`;
    case "thirty_one":
      return `hand ${view.table?.hand.length ?? 0}`;
    case "rummy":
      return `hand ${view.table?.hand.length ?? 0}`;
    case "tarneeb":
      return `hand ${view.table?.hand.length ?? 0}`;
  }
}

const games: { kind: GameKind; body: Schemas["CreateGame"] }[] = [
  { kind: "basra", body: { kind: "basra", options: { target: 31 }, seats: [{}, { bot: "easy" }] } },
  { kind: "thirty_one", body: { kind: "thirty_one", seats: [{}, { bot: "easy" }, { bot: "easy" }] } },
  { kind: "rummy", body: { kind: "rummy", variant: "classic", options: { rounds: 2 }, seats: [{}, { bot: "easy" }] } },
  {
    kind: "tarneeb",
    body: { kind: "tarneeb", options: { target: 31 }, seats: [{}, { bot: "easy" }, { bot: "easy" }, { bot: "easy" }] },
  },
];

/** Reads newline-delimited JSON account events until `handle` says stop or the stream ends. */
async function follow(
  token: string,
  lastEventId: number | null,
  handle: (event: AccountEvent) => Promise<boolean>,
): Promise<void> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: "application/x-ndjson" };
  if (lastEventId !== null) headers["Last-Event-ID"] = String(lastEventId);
  const controller = new AbortController();
  const response = await fetch(`${base}/api/v1/stream/events`, { headers, signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`the account stream: ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
        if (!line) continue; // a heartbeat
        const event: AccountEvent = JSON.parse(line);
        if (!(await handle(event))) return;
      }
    }
  } finally {
    controller.abort();
  }
}

async function main(): Promise<void> {
  const auth = await call<Schemas["AuthResponse"]>("POST", "/api/v1/auth/guest", null, { name: "tsbot" });
  const token = auth.token;
  const playing = new Map<number, GameKind>();
  for (const game of games) {
    const created = await call<Schemas["GameCreated"]>("POST", "/api/v1/games", token, game.body);
    playing.set(created.id, game.kind);
  }
  const over = new Map<number, Schemas["GameStatusName"]>();
  const moves = new Map<number, number>();
  let lastId: number | null = null;
  let handled = 0;
  let resumed = false;

  const handle = async (event: AccountEvent): Promise<boolean> => {
    if (event.id !== undefined && event.id !== null) lastId = event.id;
    handled += 1;
    switch (event.type) {
      case "your_turn": {
        if (!playing.has(event.game_id) || over.has(event.game_id)) break;
        const view = await call<GameView>("GET", `/api/v1/games/${event.game_id}`, token);
        if (view.kind !== playing.get(event.game_id)) throw new Error(`game ${view.id} is a ${view.kind}`);
        if (event.action === "deal" && view.status === "hand_over") {
          // (The version the hand ended at: a deal someone else made first is no failure.)
          await call<Schemas["ActionResponse"]>("POST", `/api/v1/games/${view.id}/deal`, token, {
            expected_version: view.version,
          });
        } else if (view.status === "active" && view.to_act === view.your_seat) {
          const move = firstMove(view);
          if (!move) throw new Error(`game ${view.id}: my turn, no legal move (${tableSummary(view)})`);
          const answer = await call<Schemas["ActionResponse"]>("POST", `/api/v1/games/${view.id}/moves`, token, move);
          if (answer.kind !== view.kind) throw new Error(`a ${view.kind} move answered as ${answer.kind}`);
          moves.set(view.id, (moves.get(view.id) ?? 0) + 1);
        }
        break;
      }
      case "game_over":
        if (playing.has(event.game_id)) over.set(event.game_id, event.status);
        break;
      case "stream_end":
        throw new Error(`the stream ended: ${event.reason}`);
      default:
        break;
    }
    if (over.size === playing.size) return false;
    // Once, after a while: drop the stream and resume after the last event id.
    if (!resumed && lastId !== null && handled >= 25) {
      resumed = true;
      return false;
    }
    return true;
  };

  const deadline = Date.now() + 10 * 60 * 1000;
  await follow(token, null, handle);
  if (!resumed) throw new Error("the games ended before the bot could resume its stream");
  console.log(`typescript bot: dropped its stream after ${handled} events, resuming after id ${lastId}`);
  while (over.size < playing.size) {
    if (Date.now() > deadline) throw new Error("the games did not finish in ten minutes");
    await follow(token, lastId, handle);
  }
  for (const [id, kind] of playing) {
    const status = over.get(id);
    if (status !== "finished") throw new Error(`${kind} game ${id}: ${status}`);
    console.log(`typescript bot: ${kind} game ${id} finished after ${moves.get(id) ?? 0} typed moves`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
