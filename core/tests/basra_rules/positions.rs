//! Positions set up by hand, and hostile moves.

use super::helpers::{card, config, seat, set, table};
use cardroom_core::game::{Game, MoveError};
use cardroom_core::games::basra::{Basra, BasraMove, BasraPosition, BasraRejection};
use cardroom_core::{CardSet, Seed};

// Positions and hostile moves.

#[test]
fn a_position_must_place_every_card_exactly_once() {
    let config = config("standard", 2, "{}");
    let position = BasraPosition {
        hands: vec![set("5C"), set("5C")],
        piles: vec![CardSet::EMPTY; 2],
        ..BasraPosition::default()
    };
    let err = Basra::from_position(config, position, Seed::from_bytes([0; 32])).unwrap_err();
    assert_eq!(err.to_string(), "the position puts 5C in two places");
}

#[test]
fn moves_with_unknown_fields_or_types_do_not_parse() {
    assert!(serde_json::from_str::<BasraMove>(r#"{"type":"play","card":"7D"}"#).is_ok());
    assert!(
        serde_json::from_str::<BasraMove>(r#"{"type":"play","card":"10d","capture":["2H"]}"#)
            .is_ok()
    );
    for bad in [
        r#"{"type":"play"}"#,
        r#"{"type":"pass"}"#,
        r#"{"type":"play","card":"7D","extra":1}"#,
        r#"{"type":"play","card":"7X"}"#,
        r#"{"type":"play","card":"7D","capture":["2H","2H"]}"#,
        r#"{"type":"play","card":"7D","capture":"2H"}"#,
        r#"{"card":"7D"}"#,
        r#"[]"#,
    ] {
        assert!(serde_json::from_str::<BasraMove>(bad).is_err(), "{bad}");
    }
}

#[test]
fn rejections_name_the_rule() {
    let game = table("standard")
        .hand(0, "JC")
        .hand(1, "9D")
        .floor("5C")
        .build();
    let err = game
        .validate(
            seat(0),
            &BasraMove::Play {
                card: card("JC"),
                capture: Some(CardSet::EMPTY),
            },
        )
        .unwrap_err();
    assert_eq!(
        err,
        MoveError::Illegal(BasraRejection::Automatic {
            card: card("JC"),
            takes: set("5C")
        })
    );
    let game = table("standard")
        .hand(0, "9C")
        .hand(1, "9D")
        .floor("KS")
        .build();
    let err = game
        .validate(
            seat(0),
            &BasraMove::Play {
                card: card("9C"),
                capture: Some(set("KS")),
            },
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "9♣ captures nothing here: leave out `capture` or send an empty list"
    );
}
