// The contract between the table (table.js) and each game's drawing (basra.js, thirty_one.js,
// rummy.js, tarneeb.js): what a game's module exports, and what the table hands it. Types
// only: nothing here runs. The table keeps the view and the log; a game keeps its own picture
// of the table (`table`, rebuilt from the events) and its own screen state (`ui`), and draws
// its parts of the felt from them. Every type is the OpenAPI document's, narrowed by the game's
// kind: a Basra drawing is handed Basra views, moves and events (`Api<...>`:
// tests/typescript/page.d.ts).

/**
 * A game's kind, as the document names it.
 * @typedef {Api<'GameKind'>} GameKind
 */

/**
 * The view of a game of kind `K`.
 * @template {GameKind} K
 * @typedef {Extract<Api<'GameView'>, { kind: K }>} ViewOf
 */

/**
 * The picture of the table in a view of kind `K` (its `table` part, once dealt).
 * @template {GameKind} K
 * @typedef {NonNullable<ViewOf<K>['table']>} TableOf
 */

/**
 * A move of kind `K`.
 * @template {GameKind} K
 * @typedef {ViewOf<K>['legal_moves'][number]} MoveOf
 */

/**
 * An event of kind `K` (the game's own, and the service's and the table's).
 * @template {GameKind} K
 * @typedef {ViewOf<K>['recent_events'][number]['event']} EventOf
 */

/**
 * What the table hands a game's drawing functions on each redraw.
 *
 * @template {GameKind} K
 * @template {object} U The game's screen state.
 * @template [T=TableOf<K>] The game's picture of the table: the view's `table` and
 *   what the game adds to it while it shows events (a card arriving), each addition optional
 *   (the table starts as a copy of the view's). Left unconstrained: with K generic,
 *   TypeScript fails to match a `{TableOf<K>}` constraint here with the same one on Renderer.
 * @typedef {object} DrawContext
 * @property {ViewOf<K>} view The view as the API answered it, after the events shown.
 * @property {T | null} table The game's picture of the table (its `table` part of the
 *   view, kept up to date by `applyEvent`); null until the first deal.
 * @property {MoveOf<K>[]} legal The moves the player may make now (none when it is not their
 *   turn).
 * @property {U} ui The game's screen state (a card chosen, a sort order).
 * @property {number | null | undefined} me The seat of the player at the bottom (null: a
 *   spectator).
 * @property {boolean} busy A move is on its way: controls stay disabled.
 * @property {(move: MoveOf<K>) => void} act Sends a move.
 * @property {(change: Partial<U>) => void} update Changes `ui` and redraws.
 * @property {(seat: number) => string} seatName Who sits at a seat, in the page's language.
 * @property {(side: number) => string} sideName A partnership's or player's name.
 * @property {number[][] | null} sides The sides: the seats of each partnership, or one seat
 *   each.
 */

/**
 * What a game's drawing may use to describe an event in words (narrate.js).
 *
 * @template {GameKind} K
 * @typedef {object} Describing
 * @property {(seat: number) => string} who The seat's name.
 * @property {(cards: string[]) => string} cards Cards named in the page's language.
 * @property {(key: string, seat: number, values?: Record<string, unknown>) => string} say A
 *   phrase of the page's strings whose subject is `seat` (its "you" form for the reader's own).
 * @property {TableOf<K> | null} [table] The game's picture of the table before the event.
 */

/**
 * A game's drawing: `center`, `hand` and `describe` are required; the rest the table calls
 * when a game has them.
 *
 * @template {GameKind} K
 * @template {object} U The game's screen state.
 * @template [T=TableOf<K>] The game's picture of the table (see DrawContext).
 * @typedef {object} Renderer
 * @property {(ui: U, view: ViewOf<K>) => U} [reset] The screen state for a new view (keeping
 *   what should outlive a hand, like a sort order).
 * @property {(table: T, event: EventOf<K>, view: ViewOf<K>) => void} [stage] Shows an
 *   event about to be applied (a card played, before the trick is gathered).
 * @property {(table: T, event: EventOf<K>, view: ViewOf<K>) => void} [applyEvent]
 *   Brings the picture of the table up to date with one event.
 * @property {(event: EventOf<K>, describing: Describing<K>) => string | null} describe An
 *   event in words, for the log and the announcements (null: nothing worth saying).
 * @property {(ctx: DrawContext<K, U, T>, seat: number) => Node | null} [seat] What shows under
 *   another seat's name (cards held, tricks won).
 * @property {(ctx: DrawContext<K, U, T>, seat: number) => Node | null} [mySeat] The same under the
 *   player's own name.
 * @property {(ctx: DrawContext<K, U, T>) => Node | null} center The middle of the felt (null:
 *   nothing to draw, before the first deal).
 * @property {(ctx: DrawContext<K, U, T>) => Node | null} hand The player's hand (null: as for
 *   `center`).
 * @property {(ctx: DrawContext<K, U, T>) => Node | null} [actions] The buttons of the moves that
 *   are not a card (draw, knock, bid, pass).
 * @property {(ctx: DrawContext<K, U, T>) => string | null} [prompt] What the status line asks of
 *   the player on their turn.
 * @property {(ctx: DrawContext<K, U, T>) => Node | string | null} [scoreNote] A note beside the
 *   scores.
 */

export {};
