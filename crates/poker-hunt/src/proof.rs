//! The proof of a claimed game: forward play. A claimed deal must be a
//! 52-card deal of 26 and 26 cards with four of each payment card, and play
//! what is claimed with both the fast engine and the card-by-card reference
//! simulator. An extension's claim that its game joins another is checked
//! the same way, by playing both games forward.

use poker_core::camicia::reference::{self, RoundStart};
use poker_core::camicia::{Card, Deal, DealError, Outcome, Player, Simulator};
use std::fmt;

/// Why a claimed game is not proved.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProofError {
    /// The cards are not a deal of 26 and 26 cards with four of each
    /// payment card.
    Deal(DealError),
    /// The fast engine and the reference simulator play the deal
    /// differently: one of them is wrong, not the claim.
    SimulatorsDisagree {
        /// What the fast engine plays.
        fast: Outcome,
        /// What the reference simulator plays.
        reference: Outcome,
    },
    /// The deal does not play what is claimed.
    Forged {
        /// What the claim says.
        claimed: Outcome,
        /// What the deal plays.
        plays: Outcome,
    },
    /// The game claimed to be joined has no such trick.
    NoTrick {
        /// The trick claimed.
        trick: u64,
    },
    /// The longer game does not meet the other where claimed.
    DoesNotMeet {
        /// The trick claimed.
        trick: u64,
        /// The cards claimed added.
        added: u64,
    },
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofError::Deal(e) => write!(f, "{e}"),
            ProofError::SimulatorsDisagree { fast, reference } => write!(
                f,
                "the fast engine plays {fast} but the reference simulator {reference}: a \
                 simulator is wrong"
            ),
            ProofError::Forged { claimed, plays } => {
                write!(
                    f,
                    "claims {claimed}, but it plays {plays}: forged or damaged"
                )
            }
            ProofError::NoTrick { trick } => {
                write!(f, "its game has no trick {trick} to join")
            }
            ProofError::DoesNotMeet { trick, added } => write!(
                f,
                "its game does not meet the game it claims to extend after trick {trick} with \
                 {added} cards added"
            ),
        }
    }
}

impl std::error::Error for ProofError {}

/// The cards of a deal's penalties (number cards as `-`).
fn cards(penalties: &[u8]) -> Vec<Card> {
    penalties
        .iter()
        .map(|&p| Card::from_penalty(p).expect("a deal's penalties are 0..=4"))
        .collect()
}

/// Checks that `a` against `b` is a 26/26 deal with four of each payment
/// card that plays `claimed` with both simulators.
///
/// # Errors
///
/// [`ProofError::Deal`] if `a` and `b` are not such a deal,
/// [`ProofError::SimulatorsDisagree`] if the simulators play it
/// differently, [`ProofError::Forged`] if it does not play `claimed`.
pub fn replay(sim: &mut Simulator, a: &[u8], b: &[u8], claimed: Outcome) -> Result<(), ProofError> {
    let deal = Deal::new(a, b).map_err(ProofError::Deal)?;
    let fast = sim.run_unchecked(deal.a(), deal.b());
    let plain = reference::simulate(&cards(deal.a()), &cards(deal.b()));
    if fast != plain {
        return Err(ProofError::SimulatorsDisagree {
            fast,
            reference: plain,
        });
    }
    if fast != claimed {
        return Err(ProofError::Forged {
            claimed,
            plays: fast,
        });
    }
    Ok(())
}

/// The round starts of a game and the cards played before each.
fn round_starts(deal: &Deal) -> Vec<(RoundStart, u64)> {
    let mut state = RoundStart {
        a: deal.a().to_vec(),
        b: deal.b().to_vec(),
        lead: Player::A,
    };
    let mut cards = 0;
    let mut starts = Vec::new();
    while let Some((next, played, finished)) = reference::play_round(&state) {
        starts.push((std::mem::replace(&mut state, next), cards));
        cards += played;
        if finished {
            starts.push((state, cards));
            break;
        }
        // A loop never ends: no finished game is this long.
        if starts.len() > 100_000 {
            break;
        }
    }
    starts
}

/// Checks that the game of `longer` (`added` cards longer than `from`'s)
/// meets the game of `from` at the round start after `joins_trick` of its
/// tricks, seats swapped or not, and plays the same from there on.
///
/// # Errors
///
/// [`ProofError::NoTrick`] if `from`'s game has no trick `joins_trick`,
/// [`ProofError::DoesNotMeet`] if `longer`'s game is not `added` cards
/// longer or does not meet it there.
pub fn joins(from: &Deal, longer: &Deal, added: u64, joins_trick: u64) -> Result<(), ProofError> {
    let theirs = round_starts(from);
    let Some((state, before)) = usize::try_from(joins_trick)
        .ok()
        .and_then(|t| theirs.get(t))
    else {
        return Err(ProofError::NoTrick { trick: joins_trick });
    };
    let total = theirs.last().map_or(0, |s| s.1);
    let mirrored = RoundStart {
        a: state.b.clone(),
        b: state.a.clone(),
        lead: state.lead.other(),
    };
    // The longer game reaches the join with as many cards left to play.
    let rest = total - before;
    let ours = round_starts(longer);
    let ours_total = ours.last().map_or(0, |s| s.1);
    let meets = ours
        .iter()
        .any(|(s, cards)| ours_total - cards == rest && (s == state || *s == mirrored));
    if ours_total != total + added || !meets {
        return Err(ProofError::DoesNotMeet {
            trick: joins_trick,
            added,
        });
    }
    Ok(())
}
