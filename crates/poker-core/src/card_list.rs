//! The one validator for lists of cards: every list the library accepts (a
//! text deck, a contest deck, a hand, the cards of a hindsight optimum, the
//! card arrays of the C API) is checked here, so each failure has one
//! [`CardError`] wherever it happens.
//!
//! A list is given as entries already decoded one by one (a token parsed,
//! a pair of numbers looked up); an entry that could not be decoded is its
//! error ([`CardError::BadToken`], [`CardError::OutOfRange`]). The validator
//! then checks, in list order, that each card is in the deck and appears
//! once, and at the end that the list has an allowed length.

use crate::cards::{Card, CardError, Rank, parse_token, standard_deck};

/// Parses whitespace-separated card tokens, rejecting bad tokens and
/// duplicates. The result keeps the order of the text.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardError> {
    parse_card_list(text, CardList::ANY)
}

/// Parses whitespace-separated card tokens into a list that `list` accepts
/// (its deck, each card once, its length), keeping the order of the text.
pub fn parse_card_list(text: &str, list: CardList) -> Result<Vec<Card>, CardError> {
    list.validate(
        text.split_whitespace()
            .enumerate()
            .map(|(i, token)| parse_token(token, i + 1)),
    )
}

/// Every problem of a list at once, where [`CardList::validate`] stops at
/// the first: for messages that name all of them (a FreeCell board).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Cards of the deck given more than once, each named once, in deck
    /// order (2C, 2D, 2H, 2S, 3C, ... AS).
    pub duplicates: Vec<Card>,
    /// Cards of the deck not given, in deck order.
    pub missing: Vec<Card>,
    /// Cards given that are below the deck's lowest rank, in list order.
    pub not_in_deck: Vec<Card>,
}

impl Census {
    /// Whether the list holds each card of the deck exactly once.
    pub fn is_whole_deck(&self) -> bool {
        self.duplicates.is_empty() && self.missing.is_empty() && self.not_in_deck.is_empty()
    }
}

/// What a list of cards must be: which deck its cards come from and how
/// many it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardList {
    /// The lowest rank of the deck (ranks below it are not in it): deuce for
    /// the 52-card deck, nine for the contest's 24-card deck.
    pub lowest: Rank,
    /// The allowed lengths, or empty for any length.
    pub counts: &'static [usize],
}

impl CardList {
    /// Distinct cards of the 52-card deck, any number of them.
    pub(crate) const ANY: CardList = CardList {
        lowest: Rank::TWO,
        counts: &[],
    };
    /// The 52-card deck, each card once (a FreeCell deal).
    pub const DECK: CardList = CardList {
        lowest: Rank::TWO,
        counts: &[52],
    };
    /// A five-card hand from the 52-card deck.
    pub const HAND: CardList = CardList {
        lowest: Rank::TWO,
        counts: &[5],
    };
    /// A five-card column of the contest (cards 9..A).
    pub const CONTEST_HAND: CardList = CardList {
        lowest: Rank::NINE,
        counts: &[5],
    };
    /// The contest's whole deck: its 24 cards (9..A of four suits) once each.
    pub(crate) const CONTEST_DECK: CardList = CardList {
        lowest: Rank::NINE,
        counts: &[24],
    };
    /// A contest deal for the hindsight optimum: its 20 dealt cards, or the
    /// whole 24-card deck.
    pub const CONTEST_DEAL: CardList = CardList {
        lowest: Rank::NINE,
        counts: &[20, 24],
    };

    /// Checks a list of decoded entries; returns its cards in list order,
    /// or the first failure: an entry's own decoding error, a card not in
    /// the deck ([`CardError::NotInDeck`]), a card twice
    /// ([`CardError::Duplicate`]), then a wrong length
    /// ([`CardError::WrongCount`]).
    pub fn validate<I>(&self, entries: I) -> Result<Vec<Card>, CardError>
    where
        I: IntoIterator<Item = Result<Card, CardError>>,
    {
        let mut cards: Vec<Card> = Vec::new();
        for entry in entries {
            let card = entry.map_err(|e| self.explain(e))?;
            if card.rank < self.lowest {
                return Err(CardError::NotInDeck { card });
            }
            if cards.contains(&card) {
                return Err(CardError::Duplicate { card });
            }
            cards.push(card);
        }
        self.check_count(cards.len())?;
        Ok(cards)
    }

    /// Counts a list's cards against the deck: every duplicate, every
    /// missing card and every card not in the deck (see [`Census`]).
    pub fn census(&self, cards: &[Card]) -> Census {
        let mut seen = [0u8; 52];
        let mut census = Census::default();
        for &card in cards {
            if card.rank < self.lowest {
                census.not_in_deck.push(card);
            } else {
                let n = &mut seen[usize::from(card.index())];
                *n = n.saturating_add(1);
            }
        }
        for card in standard_deck()
            .into_iter()
            .filter(|c| c.rank >= self.lowest)
        {
            match seen[usize::from(card.index())] {
                0 => census.missing.push(card),
                1 => {}
                _ => census.duplicates.push(card),
            }
        }
        census
    }

    /// A bad token of a contest list (a deck of 9..A) names the contest's
    /// ranks rather than the 52-card deck's.
    fn explain(&self, error: CardError) -> CardError {
        match error {
            CardError::BadToken {
                token, position, ..
            } => CardError::BadToken {
                token,
                position,
                contest: self.lowest == Rank::NINE,
            },
            other => other,
        }
    }

    /// Checks a list of cards already decoded.
    pub(crate) fn validate_cards(&self, cards: &[Card]) -> Result<Vec<Card>, CardError> {
        self.validate(cards.iter().copied().map(Ok))
    }

    /// Whether `found` is an allowed length; if not, the
    /// [`CardError::WrongCount`] naming the nearest allowed length above
    /// (or the largest).
    pub fn check_count(&self, found: usize) -> Result<(), CardError> {
        if self.counts.is_empty() || self.counts.contains(&found) {
            return Ok(());
        }
        let expected = self
            .counts
            .iter()
            .copied()
            .find(|&n| n > found)
            .unwrap_or(self.counts[self.counts.len() - 1]);
        Err(CardError::WrongCount { expected, found })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> Vec<Card> {
        parse_cards(text).unwrap()
    }

    #[test]
    fn a_bad_token_in_a_contest_list_names_the_contests_ranks() {
        let contest = parse_card_list("9S 1H", CardList::CONTEST_DECK).unwrap_err();
        assert_eq!(
            contest.to_string(),
            "card 2: '1H' is not a card of the contest's deck (rank 9, 10 or T, J, Q, K, A followed by suit S, H, D or C)"
        );
        let any = parse_card_list("9S 1H", CardList::ANY).unwrap_err();
        assert!(any.to_string().contains("(rank 2-9, T or 10,"), "{any}");
    }

    #[test]
    fn a_card_below_the_decks_lowest_rank_is_not_in_it() {
        let two = cards("2S")[0];
        assert_eq!(
            CardList::CONTEST_HAND.validate_cards(&cards("9S TS JS QS 2S")),
            Err(CardError::NotInDeck { card: two })
        );
        assert!(
            CardList::HAND
                .validate_cards(&cards("9S TS JS QS 2S"))
                .is_ok()
        );
    }

    #[test]
    fn the_first_failure_in_list_order_wins_and_the_count_comes_last() {
        let nine = cards("9S")[0];
        // A duplicate before the list turns out too short.
        assert_eq!(
            CardList::CONTEST_DECK.validate_cards(&cards("9S TS")[..].repeat(2)),
            Err(CardError::Duplicate { card: nine })
        );
        assert_eq!(
            CardList::CONTEST_DEAL.validate_cards(&cards("9S TS")),
            Err(CardError::WrongCount {
                expected: 20,
                found: 2
            })
        );
        let bad = CardError::OutOfRange {
            position: 2,
            given: "x".into(),
            range: "y",
        };
        assert_eq!(
            CardList::ANY.validate([Ok(nine), Err(bad.clone()), Ok(nine)]),
            Err(bad)
        );
    }

    #[test]
    fn a_census_names_every_duplicate_and_missing_card_in_deck_order() {
        // The contest deck (9..A, 24 cards) given as 9S twice, KD twice,
        // 2H and the 19 others: the 24 minus 9S, KD, AC, AD and AH.
        let mut given = cards("KD 9S 2H");
        given.extend(cards("9S KD"));
        let rest = "9C 9D 9H TC TD TH TS JC JD JH JS QC QD QH QS KC KH KS AS";
        given.extend(cards(rest));
        let census = CardList::CONTEST_DECK.census(&given);
        assert_eq!(census.duplicates, cards("9S KD"));
        assert_eq!(census.missing, cards("AC AD AH"));
        assert_eq!(census.not_in_deck, cards("2H"));
        assert!(!census.is_whole_deck());
        let whole = CardList::DECK.census(&crate::cards::standard_deck());
        assert!(whole.is_whole_deck(), "{whole:?}");
    }

    #[test]
    fn wrong_counts_name_the_next_allowed_length() {
        let deal = CardList::CONTEST_DEAL;
        assert_eq!(deal.check_count(20), Ok(()));
        assert_eq!(deal.check_count(24), Ok(()));
        for (found, expected) in [(0, 20), (19, 20), (21, 24), (25, 24)] {
            assert_eq!(
                deal.check_count(found),
                Err(CardError::WrongCount { expected, found })
            );
        }
        assert_eq!(CardList::ANY.check_count(1000), Ok(()));
    }
}
