//! docs/rules.md#rummy, sentence by sentence: Rummy `standard` (#rummy-standard) and `classic` (#rummy-classic).
//!
//! Over 600 lines: one test per sentence of the rules of Rummy, in the rules' order, so that they can be
//! read side by side; the two variants share the helpers at the top.
#![allow(clippy::unwrap_used, reason = "tests")]

use cardroom_core::game::{Event, Game, MoveError};
use cardroom_core::games::rummy::{
    OtherVariant, Rummy, RummyConfig, RummyEvent, RummyMove, RummyPosition, RummyRejection,
};
use cardroom_core::table::{EndReason, ScoreItem, Setup, Status, TableEvent};
use cardroom_core::{Card, CardSet, Deck, Options, Seat, Seed, Viewer, parse_cards};

fn card(code: &str) -> Card {
    code.parse().unwrap()
}

fn set(codes: &str) -> CardSet {
    parse_cards(codes).unwrap().into_iter().collect()
}

fn seat(n: u8) -> Seat {
    Seat::new(n)
}

fn config(variant: &str, seats: usize, options: &str) -> RummyConfig {
    let options: Options = serde_json::from_str(options).unwrap();
    RummyConfig::new(Some(variant), seats, &options).unwrap()
}

type Events = cardroom_core::Events<RummyEvent>;

/// A position: hands and melds by card strings, the face-up top (2♠ unless given) over the
/// given face-up cards, the stock's top cards, and every other card in the stock (or, with
/// `build_with_stock_of`, under the face-up pile).
struct Table {
    config: RummyConfig,
    position: RummyPosition,
    top: Card,
}

fn table(variant: &str, seats: usize) -> Table {
    table_with(variant, seats, "{}")
}

fn table_with(variant: &str, seats: usize, options: &str) -> Table {
    Table {
        position: RummyPosition {
            dealer: seat(seats as u8 - 1),
            to_act: seat(0),
            hands: vec![CardSet::EMPTY; seats],
            hand_number: 1,
            ..RummyPosition::default()
        },
        top: card("2S"),
        config: config(variant, seats, options),
    }
}

impl Table {
    fn hand(mut self, s: u8, codes: &str) -> Table {
        self.position.hands[usize::from(s)] = set(codes);
        self
    }
    fn top(mut self, code: &str) -> Table {
        self.top = card(code);
        self
    }
    fn stock(mut self, codes: &str) -> Table {
        self.position.stock = parse_cards(codes).unwrap();
        self
    }
    fn meld(mut self, codes: &str) -> Table {
        self.position.melds.push(set(codes));
        self
    }
    fn totals(mut self, totals: &[i32]) -> Table {
        self.position.totals = totals.to_vec();
        self
    }
    fn melded_before(mut self, seats: &[bool]) -> Table {
        self.position.melded_before = seats.to_vec();
        self
    }
    fn round(mut self, n: u32) -> Table {
        self.position.hand_number = n;
        self
    }
    fn turned_over(mut self) -> Table {
        self.position.turned_over = true;
        self
    }
    fn unplaced(&self) -> Vec<Card> {
        let p = &self.position;
        let placed = p
            .hands
            .iter()
            .chain(&p.melds)
            .fold(CardSet::single(self.top), |a, b| a | *b)
            | p.stock.iter().collect::<CardSet>();
        Deck::Standard52
            .canonical_order()
            .into_iter()
            .filter(|c| !placed.contains(*c))
            .collect()
    }
    fn build(mut self) -> Rummy {
        let rest = self.unplaced();
        self.position.stock.extend(rest);
        self.position.discards = vec![self.top];
        Rummy::from_position(self.config, self.position, Seed::from_bytes([7; 32])).unwrap()
    }
    fn build_with_stock_of(mut self, n: usize) -> Rummy {
        let rest = self.unplaced();
        self.position.stock.extend(rest[..n].iter().copied());
        self.position.discards = rest[n..].to_vec();
        self.position.discards.push(self.top);
        Rummy::from_position(self.config, self.position, Seed::from_bytes([7; 32])).unwrap()
    }
}

fn act(game: &mut Rummy, s: u8, mv: RummyMove) -> Events {
    match game.play(seat(s), &mv) {
        Ok(events) => events,
        Err(e) => panic!("{mv:?} refused: {e}"),
    }
}

fn refused(game: &Rummy, s: u8, mv: RummyMove) -> String {
    let mut copy = game.clone();
    let err = copy.play(seat(s), &mv).unwrap_err();
    assert_eq!(&copy, game, "a refused move changed the game");
    err.to_string()
}

fn meld(codes: &str) -> RummyMove {
    RummyMove::Meld { cards: set(codes) }
}

fn lay_off(id: u16, codes: &str) -> RummyMove {
    RummyMove::LayOff {
        meld: id,
        cards: set(codes),
    }
}

fn discard(code: &str) -> RummyMove {
    RummyMove::Discard { card: card(code) }
}

fn lines(events: &Events) -> Vec<(u8, ScoreItem, i32)> {
    events
        .iter()
        .find_map(|e| match &e.event {
            Event::Table(TableEvent::HandScored { lines, .. }) => Some(
                lines
                    .iter()
                    .map(|l| (l.side, l.item.clone(), l.points))
                    .collect(),
            ),
            _ => None,
        })
        .unwrap()
}

fn practice(variant: &str, seats: usize, top: &str) -> Rummy {
    let first = parse_cards(top).unwrap();
    let mut deck = first.clone();
    deck.extend(
        Deck::Standard52
            .canonical_order()
            .into_iter()
            .filter(|c| !first.contains(c)),
    );
    let setup = Setup::with_deck(Seed::from_bytes([5; 32]), deck);
    Rummy::start(config(variant, seats, "{}"), &setup)
        .unwrap()
        .0
}

// ---------------------------------------------------------------------------------------------
// #rummy-standard standard: the deal.

#[test]
fn ten_cards_each_with_two_players_seven_with_three_or_four_six_with_five_or_six() {
    for (seats, each) in [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)] {
        let game = practice("standard", seats, "");
        for s in 0..seats as u8 {
            assert_eq!(game.hand(seat(s)).len(), each, "{seats} players");
        }
        let view = game.view(Viewer::Spectator);
        assert_eq!(usize::from(view.stock), 52 - seats * each - 1);
        assert!(view.discard_top.is_some());
    }
}

#[test]
fn cards_are_dealt_one_at_a_time_from_the_seat_after_the_dealer() {
    let game = practice(
        "standard",
        2,
        "AC AD 2C 2D 3C 3D 4C 4D 5C 5D 6C 6D 7C 7D 8C 8D 9C 9D TC TD JC",
    );
    assert_eq!(game.hand(seat(0)), set("AC 2C 3C 4C 5C 6C 7C 8C 9C TC"));
    assert_eq!(game.view(Viewer::Spectator).discard_top, Some(card("JC")));
    assert_eq!(game.to_act(), Some(seat(0)));
}

// #rummy-standard standard: a turn.

#[test]
fn a_turn_is_draw_then_melds_and_lay_offs_then_a_discard() {
    let mut game = table("standard", 2)
        .hand(0, "5H 6H 7H KC QD")
        .hand(1, "2C 3D 4S 9H TD")
        .stock("8H")
        .build();
    assert_eq!(
        refused(&game, 0, meld("5H 6H 7H")),
        "draw first: from the stock or the discard pile"
    );
    assert_eq!(
        refused(&game, 0, discard("KC")),
        "draw first: from the stock or the discard pile"
    );
    act(&mut game, 0, RummyMove::DrawStock {});
    act(&mut game, 0, meld("5H 6H 7H"));
    act(&mut game, 0, lay_off(0, "8H"));
    assert_eq!(game.melds()[0].cards, set("5H 6H 7H 8H"));
    assert_eq!(game.to_act(), Some(seat(0)));
    act(&mut game, 0, discard("KC"));
    assert_eq!(game.to_act(), Some(seat(1)));
    assert_eq!(game.hand(seat(0)), set("QD"));
}

#[test]
fn the_card_just_taken_from_the_discard_pile_cannot_be_discarded() {
    let mut game = table("standard", 2)
        .hand(0, "5H 6H 7C KC QD")
        .hand(1, "2C 3D 4S 9H TD")
        .top("8S")
        .build();
    act(&mut game, 0, RummyMove::TakeDiscard { drop: None });
    assert_eq!(
        refused(&game, 0, discard("8S")),
        "you cannot discard 8♠: you just took it from the discard pile"
    );
    assert!(!game.legal_moves(seat(0)).contains(&discard("8S")));
}

#[test]
fn a_meld_that_would_leave_only_the_taken_card_is_refused() {
    let mut game = table("standard", 2)
        .hand(0, "5H 6H 7H")
        .hand(1, "2C 3D 4S 9H TD")
        .top("KS")
        .build();
    act(&mut game, 0, RummyMove::TakeDiscard { drop: None });
    assert_eq!(
        refused(&game, 0, meld("5H 6H 7H")),
        "that would leave you only K♠, which you just took and may not discard"
    );
}

#[test]
fn going_out_scores_the_cards_left_in_the_other_hands_and_rummy_doubles_it() {
    // Seat 0 melded in an earlier turn: no rummy.
    let mut game = table("standard", 3)
        .hand(0, "9S 9H 9D 4C")
        .hand(1, "KC QD AS 5H")
        .hand(2, "2C 3D")
        .stock("9C")
        .melded_before(&[true, false, false])
        .build();
    act(&mut game, 0, RummyMove::DrawStock {});
    act(&mut game, 0, meld("9S 9H 9D 9C"));
    let events = act(&mut game, 0, discard("4C"));
    assert!(events.iter().any(|e| e.event
        == Event::Game(RummyEvent::WentOut {
            seat: seat(0),
            rummy: false
        })));
    let scored = lines(&events);
    assert_eq!(
        scored,
        vec![
            (
                0,
                ScoreItem::CardsLeft {
                    seat: seat(1),
                    cards: parse_cards("KC QD 5H AS").unwrap()
                },
                26
            ),
            (
                0,
                ScoreItem::CardsLeft {
                    seat: seat(2),
                    cards: parse_cards("2C 3D").unwrap()
                },
                5
            ),
        ]
    );
    assert_eq!(game.table().totals(), &[31, 0, 0]);
    assert_eq!(game.status(), Status::HandOver);

    // Going out in one turn without having melded before: doubled.
    let mut game = table("standard", 3)
        .hand(0, "9S 9H 9D 4C")
        .hand(1, "KC QD AS 5H")
        .hand(2, "2C 3D")
        .stock("9C")
        .build();
    act(&mut game, 0, RummyMove::DrawStock {});
    act(&mut game, 0, meld("9S 9H 9D 9C"));
    let events = act(&mut game, 0, discard("4C"));
    assert!(events.iter().any(|e| e.event
        == Event::Game(RummyEvent::WentOut {
            seat: seat(0),
            rummy: true
        })));
    assert!(lines(&events).contains(&(0, ScoreItem::Rummy, 31)));
    assert_eq!(game.table().totals(), &[62, 0, 0]);
}

#[test]
fn going_out_by_discarding_the_last_card() {
    let mut game = table("standard", 2)
        .hand(0, "9S")
        .hand(1, "KC QD")
        .meld("9H 9D 9C")
        .stock("4C")
        .melded_before(&[true, false])
        .build();
    act(&mut game, 0, RummyMove::DrawStock {});
    act(&mut game, 0, lay_off(0, "9S"));
    assert_eq!(game.status(), Status::Active);
    let events = act(&mut game, 0, discard("4C"));
    assert!(events.iter().any(|e| e.event
        == Event::Game(RummyEvent::WentOut {
            seat: seat(0),
            rummy: false
        })));
    assert_eq!(game.table().totals(), &[20, 0]);
}

#[test]
fn going_out_by_melding_every_card_ends_the_hand_without_a_discard() {
    let mut game = table("standard", 2)
        .hand(0, "9S 9H 9D")
        .hand(1, "KC QD")
        .stock("9C")
        .melded_before(&[true, false])
        .build();
    act(&mut game, 0, RummyMove::DrawStock {});
    let events = act(&mut game, 0, meld("9S 9H 9D 9C"));
    assert!(
        events
            .iter()
            .any(|e| matches!(e.event, Event::Game(RummyEvent::WentOut { .. })))
    );
    assert_eq!(game.table().totals(), &[20, 0]);
}

#[test]
fn the_target_of_100_ends_the_game() {
    let mut game = table("standard", 2)
        .hand(0, "9S 9H 9D")
        .hand(1, "KC QD")
        .stock("9C")
        .totals(&[85, 40])
        .melded_before(&[true, false])
        .build();
    act(&mut game, 0, RummyMove::DrawStock {});
    act(&mut game, 0, meld("9S 9H 9D 9C"));
    assert_eq!(game.table().totals(), &[105, 40]);
    assert_eq!(game.status(), Status::Finished);
    assert_eq!(game.table().outcome().unwrap().winners, vec![0]);
    assert_eq!(game.table().outcome().unwrap().reason, EndReason::Target);
}

// #rummy-standard standard: empty stock.

#[test]
fn an_empty_stock_is_the_face_up_pile_turned_over_not_shuffled_once() {
    let mut game = table("standard", 2)
        .hand(0, "5H 6C 7D")
        .hand(1, "2C 3D 4S")
        .top("KS")
        .build_with_stock_of(1);
    let below_top: Vec<Card> = game.view(Viewer::Spectator).discards;
    act(&mut game, 0, RummyMove::DrawStock {});
    act(&mut game, 0, discard("5H"));
    let view = game.view(Viewer::Spectator);
    assert!(view.turned_over);
    assert_eq!(view.discards, vec![card("5H")]);
    // The first card ever discarded (the bottom of the pile) is now the stock's top.
    let mut next = game.clone();
    act(&mut next, 1, RummyMove::DrawStock {});
    let drawn = next.hand(seat(1)) - game.hand(seat(1));
    assert_eq!(drawn, CardSet::single(below_top[0]));
}

#[test]
fn when_the_turned_over_stock_runs_out_the_hand_is_void_and_the_same_dealer_deals() {
    let mut game = table("standard", 2)
        .hand(0, "5H 6C 7D")
        .hand(1, "2C 3D 4S")
        .top("KS")
        .turned_over()
        .build_with_stock_of(1);
    act(&mut game, 0, RummyMove::DrawStock {});
    let events = act(&mut game, 0, discard("5H"));
    assert!(
        events
            .iter()
            .any(|e| e.event == Event::Game(RummyEvent::StockExhausted))
    );
    assert_eq!(game.status(), Status::HandOver);
    assert_eq!(game.table().totals(), &[0, 0]);
    let dealer = game.table().dealer();
    game.deal_next().unwrap();
    assert_eq!(game.table().dealer(), dealer);
}

// #rummy-standard the ace is low.

#[test]
fn standard_aces_are_low_in_runs() {
    let mut game = table("standard", 2)
        .hand(0, "AH 2H 3H QS KS AS 5C")
        .hand(1, "2C 3D 4S")
        .build();
    act(&mut game, 0, RummyMove::DrawStock {});
    assert!(game.validate(seat(0), &meld("AH 2H 3H")).is_ok());
    assert!(refused(&game, 0, meld("QS KS AS")).contains("neither a set"));
}

// #rummy-classic classic: a turn in three steps.

#[test]
fn classic_seven_cards_and_round_k_starts_with_seat_k_mod_n() {
    let game = practice("classic", 3, "");
    for s in 0..3 {
        assert_eq!(game.hand(seat(s)).len(), 7);
    }
    assert_eq!(game.to_act(), Some(seat(0)));
    // Play out the round with computer players and check who starts the next.
    let mut game = game;
    let controllers = [cardroom_core::Controller::Computer(cardroom_core::BotLevel::Greedy); 3];
    while game.table().hand_number() == 1 && game.status() == Status::Active {
        let Some(cardroom_core::Automatic::Move(s, mv)) =
            cardroom_core::next_automatic(&game, &controllers)
        else {
            break;
        };
        game.play(s, &mv).unwrap();
    }
    game.deal_next().unwrap();
    assert_eq!(game.table().hand_number(), 2);
    assert_eq!(game.to_act(), Some(seat(1)));
}

#[test]
fn classic_step_one_melds_then_a_compulsory_exchange_then_melds_and_end() {
    let mut game = table("classic", 2)
        .hand(0, "5H 6H 7H KC QD 2S 9D")
        .hand(1, "2C 3D 4S 9H TD 8C 8D")
        .top("8H")
        .build();
    assert_eq!(
        refused(&game, 0, RummyMove::EndTurn {}),
        "exchange a card first: take the face-up card or turn over the face-down one"
    );
    act(&mut game, 0, meld("5H 6H 7H"));
    assert_eq!(
        refused(&game, 0, RummyMove::TakeDiscard { drop: None }),
        "name the card you put on the face-up pile in exchange (`drop`)"
    );
    act(
        &mut game,
        0,
        RummyMove::TakeDiscard {
            drop: Some(card("KC")),
        },
    );
    assert_eq!(game.view(Viewer::Spectator).discard_top, Some(card("KC")));
    act(&mut game, 0, lay_off(0, "8H"));
    assert_eq!(
        refused(&game, 0, RummyMove::DrawStock {}),
        "you cannot draw now"
    );
    act(&mut game, 0, RummyMove::EndTurn {});
    assert_eq!(game.to_act(), Some(seat(1)));
}

#[test]
fn classic_the_turned_over_card_is_seen_by_everyone_then_kept_or_passed() {
    let mut game = table("classic", 2)
        .hand(0, "5H 6C 7D KC QD 2S 9D")
        .hand(1, "2C 3D 4S 9H TD 8C 8D")
        .stock("JH")
        .top("8S")
        .build();
    act(&mut game, 0, RummyMove::DrawStock {});
    assert_eq!(game.view(Viewer::Seat(seat(1))).turned, Some(card("JH")));
    assert_eq!(
        refused(&game, 0, RummyMove::EndTurn {}),
        "keep or pass the turned-over card first"
    );
    assert_eq!(
        refused(&game, 0, RummyMove::Keep { drop: card("JH") }),
        "to give the turned-over card away, pass it (`pass_drawn`)"
    );
    let mut kept = game.clone();
    act(&mut kept, 0, RummyMove::Keep { drop: card("KC") });
    assert!(kept.hand(seat(0)).contains(card("JH")) && !kept.hand(seat(0)).contains(card("KC")));
    assert_eq!(kept.view(Viewer::Spectator).discard_top, Some(card("KC")));
    act(&mut game, 0, RummyMove::PassDrawn {});
    assert_eq!(game.view(Viewer::Spectator).discard_top, Some(card("JH")));
    assert_eq!(game.hand(seat(0)).len(), 7);
}

#[test]
fn classic_an_empty_hand_at_any_step_ends_the_round_and_everyone_scores_their_cards() {
    // Step 1: seat 0 melds its last cards.
    let mut game = table("classic", 2)
        .hand(0, "5H 6H 7H")
        .hand(1, "JC QD KS AH")
        .build();
    let events = act(&mut game, 0, meld("5H 6H 7H"));
    assert!(
        events
            .iter()
            .any(|e| matches!(e.event, Event::Game(RummyEvent::WentOut { .. })))
    );
    // J 11 + Q 12 + K 13 + A 1 = 37 against seat 1; nothing against seat 0.
    assert_eq!(
        lines(&events),
        vec![(
            1,
            ScoreItem::CardsLeft {
                seat: seat(1),
                cards: parse_cards("JC QD AH KS").unwrap()
            },
            37
        )]
    );
    // Step 3: after the exchange.
    let mut game = table("classic", 2)
        .hand(0, "5H 6H 7H 2C")
        .hand(1, "JC QD KS AH")
        .top("8H")
        .build();
    act(
        &mut game,
        0,
        RummyMove::TakeDiscard {
            drop: Some(card("2C")),
        },
    );
    act(&mut game, 0, meld("5H 6H 7H 8H"));
    assert_eq!(game.status(), Status::HandOver);
}

#[test]
fn classic_the_lowest_total_after_the_last_round_wins_and_equal_lowest_share() {
    let mut game = table("classic", 3)
        .hand(0, "5H 6H 7H")
        .hand(1, "2C 3D")
        .hand(2, "AC 4S")
        .round(7)
        .totals(&[30, 25, 25])
        .build();
    act(&mut game, 0, meld("5H 6H 7H"));
    assert_eq!(game.table().totals(), &[30, 30, 30]);
    assert_eq!(game.status(), Status::Finished);
    let outcome = game.table().outcome().unwrap();
    assert_eq!(outcome.winners, vec![0, 1, 2]);
    assert_eq!(outcome.reason, EndReason::FinalHand);
}

#[test]
fn classic_the_ace_is_low_or_high_but_never_both() {
    let game = table("classic", 2)
        .hand(0, "QS KS AS 2S 3S 9D 4C")
        .hand(1, "2C 3D 4S 9H TD 8C 8D")
        .top("8S")
        .build();
    assert!(game.validate(seat(0), &meld("QS KS AS")).is_ok());
    assert!(game.validate(seat(0), &meld("AS 2S 3S")).is_ok());
    assert!(refused(&game, 0, meld("KS AS 2S")).contains("neither a set"));
}

#[test]
fn classic_an_empty_face_down_pile_is_turned_over_once_then_the_round_ends() {
    let mut game = table("classic", 2)
        .hand(0, "5H 6C 7D KC QD 2S 9D")
        .hand(1, "2C 3D 4S 9H TD 8C 8D")
        .top("KS")
        .turned_over()
        .build_with_stock_of(1);
    act(&mut game, 0, RummyMove::DrawStock {});
    act(&mut game, 0, RummyMove::PassDrawn {});
    let events = act(&mut game, 0, RummyMove::EndTurn {});
    assert!(
        events
            .iter()
            .any(|e| e.event == Event::Game(RummyEvent::StockExhausted))
    );
    assert_eq!(game.status(), Status::HandOver);
    // Everyone scored their hand: K 13 + Q 12 + 9 + 7 + 6 + 5 + 2 = 54 for seat 0.
    assert_eq!(game.table().totals()[0], 54);
}

// Lay-offs, by the rules' examples, through the engine.

#[test]
fn lay_offs_extend_runs_at_either_end_and_sets_to_four() {
    let mut game = table("standard", 2)
        .hand(0, "3C 4H 8H AH 9C")
        .hand(1, "2C 4D 4S 9H TD")
        .meld("3D 3H 3S")
        .meld("5H 6H 7H")
        .meld("5D 5S 5C")
        .build();
    act(&mut game, 0, RummyMove::DrawStock {});
    assert_eq!(
        refused(&game, 0, lay_off(2, "3C")),
        "3♣ does not go on the set 5♣ 5♦ 5♠: it is not a 5"
    );
    assert_eq!(
        refused(&game, 0, lay_off(1, "AH")),
        "A♥ does not extend the run 5♥ 6♥ 7♥"
    );
    assert_eq!(
        refused(&game, 0, lay_off(7, "3C")),
        "there is no meld 7 on the table"
    );
    act(&mut game, 0, lay_off(0, "3C"));
    act(&mut game, 0, lay_off(1, "4H 8H"));
    assert_eq!(game.melds()[1].cards, set("4H 5H 6H 7H 8H"));
    assert_eq!(game.melds()[0].cards.len(), 4);
}

#[test]
fn moves_of_the_other_variant_are_refused_with_a_reason() {
    let mut game = table("standard", 2)
        .hand(0, "5H 6C 7D")
        .hand(1, "2C 3D 4S")
        .build();
    assert!(
        refused(
            &game,
            0,
            RummyMove::TakeDiscard {
                drop: Some(card("5H"))
            }
        )
        .contains("without dropping")
    );
    act(&mut game, 0, RummyMove::DrawStock {});
    assert_eq!(
        refused(&game, 0, RummyMove::EndTurn {}),
        "in standard Rummy a turn ends with a discard"
    );
    let game = table("classic", 2)
        .hand(0, "5H 6C 7D")
        .hand(1, "2C 3D 4S")
        .build();
    let err = game.validate(seat(0), &discard("5H")).unwrap_err();
    assert_eq!(
        err,
        MoveError::Illegal(RummyRejection::NotInVariant(OtherVariant::DiscardInClassic))
    );
    assert_eq!(
        err.to_string(),
        "in classic Rummy you exchange a card instead of discarding"
    );
}

#[test]
fn moves_with_unknown_fields_or_values_do_not_parse() {
    for good in [
        r#"{"type":"draw_stock"}"#,
        r#"{"type":"take_discard"}"#,
        r#"{"type":"take_discard","drop":"9c"}"#,
        r#"{"type":"keep","drop":"9C"}"#,
        r#"{"type":"pass_drawn"}"#,
        r#"{"type":"meld","cards":["5H","6H","7H"]}"#,
        r#"{"type":"lay_off","meld":0,"cards":["8H"]}"#,
        r#"{"type":"discard","card":"KC"}"#,
        r#"{"type":"end_turn"}"#,
    ] {
        assert!(serde_json::from_str::<RummyMove>(good).is_ok(), "{good}");
    }
    for bad in [
        r#"{"type":"draw_stock","x":1}"#,
        r#"{"type":"keep"}"#,
        r#"{"type":"meld","cards":["5H","5H","6H"]}"#,
        r#"{"type":"lay_off","meld":-1,"cards":["8H"]}"#,
        r#"{"type":"lay_off","meld":70000,"cards":["8H"]}"#,
        r#"{"type":"meld","cards":"5H"}"#,
        r#"{"type":"end_turn","now":true}"#,
    ] {
        assert!(serde_json::from_str::<RummyMove>(bad).is_err(), "{bad}");
    }
}
