//! The tables, written by hand (diesel's `MultiConnection` needs the common types of both
//! backends: ids as BigInt, JSON as Text, times as Timestamp).

diesel::table! {
    users (id) {
        id -> BigInt,
        name -> Text,
        password_hash -> Nullable<Text>,
        role -> Text,
        guest -> Bool,
        created_at -> Timestamp,
        muted_until -> Nullable<Timestamp>,
        bot -> Bool,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> BigInt,
        user_id -> BigInt,
        public_id -> Text,
        secret_hash -> Text,
        description -> Text,
        scopes -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    games (id) {
        id -> BigInt,
        kind -> Text,
        variant -> Text,
        options -> Text,
        seat_count -> Integer,
        status -> Text,
        seed -> Text,
        deck -> Nullable<Text>,
        state -> Nullable<Text>,
        state_format -> Integer,
        version -> BigInt,
        practice -> Bool,
        invite_code -> Text,
        created_by -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        finished_at -> Nullable<Timestamp>,
        hands -> Integer,
        moves -> Integer,
        winners -> Nullable<Text>,
        end_reason -> Nullable<Text>,
        to_act -> Nullable<Integer>,
        bot_pending -> Bool,
        basras -> Integer,
        knocks -> Integer,
        thirty_ones -> Integer,
        contracts_made -> Integer,
        contracts_set -> Integer,
        turn_seconds -> Nullable<Integer>,
        takeover_after -> Nullable<Integer>,
        deadline -> Nullable<Timestamp>,
        visibility -> Text,
    }
}

diesel::table! {
    results (game_id, seat) {
        game_id -> BigInt,
        seat -> Integer,
        user_id -> Nullable<BigInt>,
        bot -> Nullable<Text>,
        side -> Integer,
        won -> Bool,
    }
}

diesel::table! {
    seats (game_id, seat) {
        game_id -> BigInt,
        seat -> Integer,
        user_id -> Nullable<BigInt>,
        bot -> Nullable<Text>,
        joined_at -> Nullable<Timestamp>,
        timeouts -> Integer,
        label -> Nullable<Text>,
    }
}

diesel::table! {
    ratings (user_id, kind, pool) {
        user_id -> BigInt,
        kind -> Text,
        pool -> Text,
        rating -> Double,
        deviation -> Double,
        volatility -> Double,
        games -> Integer,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    rating_history (user_id, kind, pool, game_id) {
        user_id -> BigInt,
        kind -> Text,
        pool -> Text,
        game_id -> BigInt,
        rating -> Double,
        deviation -> Double,
        before -> Double,
        at -> Timestamp,
    }
}

diesel::table! {
    game_log (game_id, seq) {
        game_id -> BigInt,
        seq -> BigInt,
        seat -> Nullable<Integer>,
        action -> Text,
        payload -> Nullable<Text>,
        events -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    deals (game_id, deal) {
        game_id -> BigInt,
        deal -> Integer,
        hand -> Integer,
        commitment -> Text,
        seed -> Nullable<Text>,
        dealt_at -> Timestamp,
        revealed_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    idempotency_keys (user_id, key) {
        user_id -> BigInt,
        key -> Text,
        game_id -> BigInt,
        request_hash -> Text,
        status -> Integer,
        body -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    seeks (id) {
        id -> BigInt,
        user_id -> BigInt,
        kind -> Text,
        variant -> Text,
        players -> Integer,
        options -> Text,
        rated -> Bool,
        rating -> Double,
        rating_range -> Nullable<Integer>,
        fill_after -> Nullable<Integer>,
        status -> Text,
        game_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        seen_at -> Timestamp,
        bot -> Bool,
        with_bots -> Bool,
    }
}

diesel::table! {
    chat (id) {
        id -> BigInt,
        game_id -> BigInt,
        room -> Text,
        user_id -> BigInt,
        kind -> Text,
        text -> Nullable<Text>,
        preset -> Nullable<Text>,
        target -> Nullable<BigInt>,
        hidden -> Bool,
        created_at -> Timestamp,
    }
}

diesel::table! {
    mutes (user_id, muted_id) {
        user_id -> BigInt,
        muted_id -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    presence (user_id, game_id) {
        user_id -> BigInt,
        game_id -> BigInt,
        seen_at -> Timestamp,
        held -> Bool,
    }
}

diesel::table! {
    challenges (id) {
        id -> BigInt,
        challenger_id -> BigInt,
        to_id -> Nullable<BigInt>,
        code -> Text,
        kind -> Text,
        variant -> Text,
        options -> Text,
        seats -> Text,
        challenger_seat -> Integer,
        rated -> Bool,
        turn_seconds -> Nullable<Integer>,
        takeover_after -> Nullable<Integer>,
        visibility -> Text,
        status -> Text,
        reason -> Nullable<Text>,
        game_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        answered_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    account_events (id) {
        id -> BigInt,
        user_id -> BigInt,
        #[sql_name = "type"]
        kind -> Text,
        data -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    tournaments (id) {
        id -> BigInt,
        name -> Text,
        format -> Text,
        kind -> Text,
        variant -> Text,
        options -> Text,
        table_seats -> Integer,
        rounds -> Nullable<Integer>,
        minutes -> Nullable<Integer>,
        fill -> Nullable<Text>,
        turn_seconds -> Integer,
        takeover_after -> Integer,
        rated -> Bool,
        code -> Nullable<Text>,
        seed -> Text,
        created_by -> BigInt,
        status -> Text,
        round -> Integer,
        version -> BigInt,
        starts_at -> Timestamp,
        ends_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        finished_at -> Nullable<Timestamp>,
        teams -> Bool,
        cancel_cause -> Nullable<Text>,
        cancel_note -> Nullable<Text>,
    }
}

diesel::table! {
    tournament_entrants (id) {
        id -> BigInt,
        tournament_id -> BigInt,
        user_id -> BigInt,
        joined_at -> Timestamp,
        withdrawn_at -> Nullable<Timestamp>,
        team -> Nullable<Integer>,
        team_position -> Nullable<Integer>,
    }
}

diesel::table! {
    tournament_seats (tournament_id, round, entrant_id) {
        tournament_id -> BigInt,
        round -> Integer,
        entrant_id -> BigInt,
        game_id -> Nullable<BigInt>,
        seat -> Nullable<Integer>,
        place -> Nullable<Integer>,
        points -> Nullable<Integer>,
        result -> Nullable<BigInt>,
        first -> Nullable<Integer>,
    }
}

diesel::joinable!(seats -> games (game_id));
diesel::joinable!(chat -> games (game_id));
diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(chat -> users (user_id));
diesel::joinable!(game_log -> games (game_id));
diesel::joinable!(deals -> games (game_id));
diesel::joinable!(results -> games (game_id));
diesel::joinable!(ratings -> users (user_id));
diesel::joinable!(tournament_entrants -> users (user_id));
diesel::joinable!(tournament_entrants -> tournaments (tournament_id));
diesel::joinable!(tournament_seats -> tournament_entrants (entrant_id));
diesel::joinable!(rating_history -> games (game_id));
diesel::allow_tables_to_appear_in_same_query!(
    users,
    games,
    seats,
    game_log,
    deals,
    idempotency_keys,
    results,
    ratings,
    rating_history,
    seeks,
    chat,
    mutes,
    presence,
    api_tokens,
    challenges,
    account_events,
    tournaments,
    tournament_entrants,
    tournament_seats
);

diesel::table! {
    game_analyses (game_id) {
        game_id -> BigInt,
        format -> Integer,
        status -> Text,
        done -> Integer,
        total -> Integer,
        body -> Nullable<Text>,
        error -> Nullable<Text>,
        started_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::joinable!(game_analyses -> games (game_id));
diesel::allow_tables_to_appear_in_same_query!(game_analyses, games);
