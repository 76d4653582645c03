//! Seats, sides (partnerships), and who may see what.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat at the table, numbered `0..n` in the order play passes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(u8);

impl Seat {
    /// Seat number `n`.
    pub const fn new(n: u8) -> Seat {
        Seat(n)
    }

    /// The seat number.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The seat number as an index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat after this one at a table of `seats`: "the next seat" of docs/rules.md#every-game.
    pub const fn next(self, seats: u8) -> Seat {
        Seat((self.0 + 1) % seats)
    }

    /// The seats of a table of `n`, in order.
    pub fn all(n: u8) -> impl Iterator<Item = Seat> {
        (0..n).map(Seat)
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// One value for each seat of a table, indexed by [`Seat`] (never by a bare number). Indexing a
/// seat that is not at the table is a defect and panics, rather than reading as an empty hand;
/// [`BySeat::get`] asks. Stored as the plain list it replaced.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BySeat<T>(Vec<T>);

impl<T> BySeat<T> {
    /// One value per seat, seat 0 first.
    pub fn new(values: Vec<T>) -> BySeat<T> {
        BySeat(values)
    }

    /// `value` at each of `seats` seats.
    pub fn filled(seats: usize, value: T) -> BySeat<T>
    where
        T: Clone,
    {
        BySeat(vec![value; seats])
    }

    /// The value of `seat`, if it is at the table.
    pub fn get(&self, seat: Seat) -> Option<&T> {
        self.0.get(seat.index())
    }

    /// How many seats.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No seats (a game not yet dealt).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The values, seat 0 first.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// Each seat with its value.
    pub fn seats(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Seat(i as u8), v))
    }

    /// The values as a list, seat 0 first.
    pub fn as_slice(&self) -> &[T] {
        &self.0
    }
}

impl<T> std::ops::Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> std::ops::IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

impl<'a, T> IntoIterator for &'a BySeat<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T> FromIterator<T> for BySeat<T> {
    fn from_iter<I: IntoIterator<Item = T>>(values: I) -> BySeat<T> {
        BySeat(values.into_iter().collect())
    }
}

/// How seats form sides: one side per seat, or partnerships of opposite seats (0+2 against 1+3).
/// Scores, piles and results belong to sides.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Sides {
    side_of: Vec<u8>,
}

impl Sides {
    /// Everyone for themselves.
    pub fn individual(seats: u8) -> Sides {
        Sides {
            side_of: (0..seats).collect(),
        }
    }

    /// Two partnerships of opposite seats: with four seats, 0+2 against 1+3.
    pub fn partnerships(seats: u8) -> Sides {
        Sides {
            side_of: (0..seats).map(|s| s % 2).collect(),
        }
    }

    /// How many sides.
    pub fn count(&self) -> usize {
        self.side_of
            .iter()
            .map(|&s| s as usize + 1)
            .max()
            .unwrap_or(0)
    }

    /// The side a seat plays for.
    pub fn side_of(&self, seat: Seat) -> u8 {
        self.side_of.get(seat.index()).copied().unwrap_or(0)
    }

    /// The seats of a side, in order.
    pub fn seats_of(&self, side: u8) -> Vec<Seat> {
        self.side_of
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s == side)
            .map(|(seat, _)| Seat(seat as u8))
            .collect()
    }

    /// Every side's seats, side 0 first.
    pub fn all(&self) -> Vec<Vec<Seat>> {
        (0..self.count() as u8).map(|s| self.seats_of(s)).collect()
    }
}

/// Who is looking: a seated player, or someone with no seat (who sees only what is public).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

impl Viewer {
    /// The viewer's seat, if seated.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        }
    }
}

/// Who may see a card zone or an event.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// Everyone at the table and every spectator.
    Everyone,
    /// Only this seat.
    Seat(Seat),
    /// Nobody while the game runs (the stock; face-down cards).
    Nobody,
}

impl Audience {
    /// Whether `viewer` belongs to the audience.
    pub fn includes(self, viewer: Viewer) -> bool {
        match self {
            Audience::Everyone => true,
            Audience::Seat(seat) => viewer == Viewer::Seat(seat),
            Audience::Nobody => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partners_sit_opposite() {
        let sides = Sides::partnerships(4);
        assert_eq!(sides.count(), 2);
        assert_eq!(sides.seats_of(0), vec![Seat(0), Seat(2)]);
        assert_eq!(sides.seats_of(1), vec![Seat(1), Seat(3)]);
        assert_eq!(Sides::individual(3).count(), 3);
    }

    #[test]
    fn play_passes_around_the_table() {
        assert_eq!(Seat(2).next(3), Seat(0));
        assert_eq!(Seat(0).next(2), Seat(1));
    }

    #[test]
    fn audiences_include_the_right_viewers() {
        assert!(Audience::Everyone.includes(Viewer::Spectator));
        assert!(Audience::Seat(Seat(1)).includes(Viewer::Seat(Seat(1))));
        assert!(!Audience::Seat(Seat(1)).includes(Viewer::Seat(Seat(0))));
        assert!(!Audience::Seat(Seat(1)).includes(Viewer::Spectator));
        assert!(!Audience::Nobody.includes(Viewer::Seat(Seat(0))));
    }
}

#[cfg(test)]
mod by_seat {
    use super::{BySeat, Seat};

    #[test]
    fn values_are_read_by_seat_and_stored_as_the_plain_list() {
        let mut hands = BySeat::filled(3, 0u8);
        hands[Seat::new(2)] = 7;
        assert_eq!(hands[Seat::new(2)], 7);
        assert_eq!(
            hands.get(Seat::new(3)),
            None,
            "no value for a seat not at the table"
        );
        assert_eq!(
            hands
                .seats()
                .map(|(s, v)| (s.number(), *v))
                .collect::<Vec<_>>(),
            vec![(0, 0), (1, 0), (2, 7)]
        );
        // Snapshots written before keep reading back.
        let stored = serde_json::to_string(&hands).expect("serialises");
        assert_eq!(stored, "[0,0,7]");
        let read: BySeat<u8> = serde_json::from_str(&stored).expect("reads back");
        assert_eq!(read, hands);
    }

    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn a_seat_not_at_the_table_is_a_defect_not_an_empty_hand() {
        let hands = BySeat::filled(2, 0u8);
        let _ = hands[Seat::new(5)];
    }
}
