//! Cards, ranks and suits, and their canonical two-character codes (API.md, "Cards and seats").
//!
//! A card prints as rank then suit: rank `A 2 3 4 5 6 7 8 9 T J Q K`, suit `C D H S`
//! (`7D`, `TC`, `AS`). Parsing also accepts `10` for the ten and lower case.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit. The discriminant is the suit's lane in a [`crate::CardSet`].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum Suit {
    #[serde(rename = "C")]
    Clubs = 0,
    #[serde(rename = "D")]
    Diamonds = 1,
    #[serde(rename = "H")]
    Hearts = 2,
    #[serde(rename = "S")]
    Spades = 3,
}

impl Suit {
    /// The suits in canonical deck order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit's code letter (`C D H S`).
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The suit's symbol, for messages meant for people (`♣ ♦ ♥ ♠`).
    pub const fn symbol(self) -> char {
        match self {
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
        }
    }

    /// The suit's English name in the plural, as in "you must follow hearts".
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
            Suit::Hearts => "hearts",
            Suit::Spades => "spades",
        }
    }

    /// Parses a code letter, in either case.
    pub const fn from_letter(letter: char) -> Option<Suit> {
        match letter.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }

    pub(crate) const fn index(self) -> u8 {
        self as u8
    }

    pub(crate) const fn from_index(index: u8) -> Suit {
        match index & 3 {
            0 => Suit::Clubs,
            1 => Suit::Diamonds,
            2 => Suit::Hearts,
            _ => Suit::Spades,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// A rank. The discriminant is its number: ace 1, two to ten their pip value, jack 11,
/// queen 12, king 13. How much a rank is *worth* is each game's business.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Rank {
    Ace = 1,
    Two = 2,
    Three = 3,
    Four = 4,
    Five = 5,
    Six = 6,
    Seven = 7,
    Eight = 8,
    Nine = 9,
    Ten = 10,
    Jack = 11,
    Queen = 12,
    King = 13,
}

impl Rank {
    /// The ranks in canonical deck order, ace first.
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// Ace 1, 2–10, jack 11, queen 12, king 13.
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// The rank with the given number (1–13).
    pub const fn from_number(number: u8) -> Option<Rank> {
        if number >= 1 && number <= 13 {
            Some(Rank::ALL[number as usize - 1])
        } else {
            None
        }
    }

    /// Jack, queen or king.
    pub const fn is_face(self) -> bool {
        self as u8 >= 11
    }

    /// Ace to ten.
    pub const fn is_numeral(self) -> bool {
        !self.is_face()
    }

    /// The rank's code character (`A 2 … 9 T J Q K`).
    pub const fn letter(self) -> char {
        match self {
            Rank::Ace => 'A',
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
            other => (b'0' + other as u8) as char,
        }
    }

    /// The rank as people write it (`A 2 … 10 J Q K`).
    pub const fn label(self) -> &'static str {
        const LABELS: [&str; 13] = [
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ];
        LABELS[self as usize - 1]
    }

    fn from_code(code: &str) -> Option<Rank> {
        match code.to_ascii_uppercase().as_str() {
            "A" => Some(Rank::Ace),
            "T" | "10" => Some(Rank::Ten),
            "J" => Some(Rank::Jack),
            "Q" => Some(Rank::Queen),
            "K" => Some(Rank::King),
            digit if digit.len() == 1 => {
                let n = digit.as_bytes()[0].wrapping_sub(b'0');
                (2..=9).contains(&n).then(|| Rank::ALL[n as usize - 1])
            }
            _ => None,
        }
    }
}

/// A playing card. Internally `suit * 16 + rank`, which is also its bit in a
/// [`crate::CardSet`], so that every suit is one 16-bit lane and ranks line up across suits.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit.index() * 16 + rank.number())
    }

    /// The card's rank.
    pub const fn rank(self) -> Rank {
        match Rank::from_number(self.0 & 15) {
            Some(rank) => rank,
            // Only `Card::new` and `Card::from_index` build cards, and both keep the rank in 1–13.
            None => Rank::Ace,
        }
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        Suit::from_index(self.0 >> 4)
    }

    /// The card's bit index in a [`crate::CardSet`] (0–63).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card at a bit index, if the index names a card.
    pub const fn from_index(index: u8) -> Option<Card> {
        let rank = index & 15;
        if index < 64 && rank >= 1 && rank <= 13 {
            Some(Card(index))
        } else {
            None
        }
    }

    /// The canonical code, e.g. `TC`.
    pub fn code(self) -> String {
        self.to_string()
    }

    /// The card as people write it, e.g. `10♣`: used in messages.
    pub fn pretty(self) -> String {
        format!("{}{}", self.rank().label(), self.suit().symbol())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A string that is not a card code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{input}` is not a card: write a rank (A 2-9 T J Q K, or 10) then a suit (C D H S), e.g. 7D or 10C"
)]
pub struct CardParseError {
    /// The rejected text (cut to a reasonable length).
    pub input: String,
}

impl CardParseError {
    fn new(input: &str) -> CardParseError {
        CardParseError {
            input: input.chars().take(16).collect(),
        }
    }
}

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(s: &str) -> Result<Card, CardParseError> {
        let trimmed = s.trim();
        let mut chars = trimmed.chars();
        let suit_letter = chars.next_back().ok_or_else(|| CardParseError::new(s))?;
        let suit = Suit::from_letter(suit_letter).ok_or_else(|| CardParseError::new(s))?;
        let rank = Rank::from_code(chars.as_str()).ok_or_else(|| CardParseError::new(s))?;
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let code = [self.rank().letter() as u8, self.suit().letter() as u8];
        // Both bytes are ASCII letters or digits.
        serializer.serialize_str(std::str::from_utf8(&code).unwrap_or("??"))
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        struct CardVisitor;
        impl serde::de::Visitor<'_> for CardVisitor {
            type Value = Card;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a card code such as \"7D\" or \"10C\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Card, E> {
                v.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(CardVisitor)
    }
}

/// Parses whitespace- or comma-separated card codes, e.g. `"5C 2D KH"`.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardParseError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|word| !word.is_empty())
        .map(str::parse)
        .collect()
}

/// Formats cards for a message, e.g. `2♥ 5♣`.
pub fn pretty_cards(cards: impl IntoIterator<Item = Card>) -> String {
    cards
        .into_iter()
        .map(Card::pretty)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_print_in_canonical_form() {
        assert_eq!(Card::new(Rank::Ten, Suit::Clubs).to_string(), "TC");
        assert_eq!(Card::new(Rank::Seven, Suit::Diamonds).to_string(), "7D");
        assert_eq!(Card::new(Rank::Ace, Suit::Spades).to_string(), "AS");
        assert_eq!(Card::new(Rank::King, Suit::Hearts).pretty(), "K♥");
        assert_eq!(Card::new(Rank::Ten, Suit::Hearts).pretty(), "10♥");
    }

    #[test]
    fn parsing_accepts_ten_as_10_and_lower_case() {
        let ten_of_clubs = Card::new(Rank::Ten, Suit::Clubs);
        for code in ["TC", "10C", "tc", "10c", "Tc", " 10C "] {
            assert_eq!(code.parse::<Card>(), Ok(ten_of_clubs), "{code}");
        }
        assert_eq!("as".parse::<Card>(), Ok(Card::new(Rank::Ace, Suit::Spades)));
    }

    #[test]
    fn parsing_rejects_what_is_not_a_card() {
        for code in [
            "", "C", "1", "11C", "0C", "1C0", "ZZ", "7X", "TTC", "♣7", "7♣", "JOKER", "é7",
        ] {
            assert!(code.parse::<Card>().is_err(), "{code:?} parsed");
        }
    }

    #[test]
    fn every_card_round_trips_through_its_code_and_index() {
        for suit in Suit::ALL {
            for rank in Rank::ALL {
                let card = Card::new(rank, suit);
                assert_eq!(card.rank(), rank);
                assert_eq!(card.suit(), suit);
                assert_eq!(card.code().parse::<Card>(), Ok(card));
                assert_eq!(Card::from_index(card.index()), Some(card));
            }
        }
        assert_eq!(Card::from_index(0), None);
        assert_eq!(Card::from_index(14), None);
        assert_eq!(Card::from_index(64), None);
    }

    #[test]
    fn serde_uses_the_code() {
        let card: Card = "10d".parse().unwrap();
        assert_eq!(serde_json::to_string(&card).unwrap(), "\"TD\"");
        assert_eq!(serde_json::from_str::<Card>("\"10d\"").unwrap(), card);
        assert!(serde_json::from_str::<Card>("\"1D\"").is_err());
        assert!(serde_json::from_str::<Card>("\"XD\"").is_err());
        assert!(serde_json::from_str::<Card>("7").is_err());
    }

    #[test]
    fn card_lists_parse_from_compact_strings() {
        let cards = parse_cards("5C 2D, KH").unwrap();
        assert_eq!(pretty_cards(cards), "5♣ 2♦ K♥");
    }
}
