//! The proof of a claimed game: forward play. A claimed deal must be a
//! 52-card deal of 26 and 26 cards with four of each payment card, and play
//! what is claimed with both the fast engine and the card-by-card reference
//! simulator. An extension's claim that its game joins another is checked
//! the same way, by playing both games forward.

use anyhow::bail;
use poker_core::camicia::reference::{self, RoundStart};
use poker_core::camicia::{Card, Deal, Outcome, Player, Simulator};

/// The cards of a deal's penalties (number cards as `-`).
fn cards(penalties: &[u8]) -> Vec<Card> {
    penalties
        .iter()
        .map(|&p| Card::from_penalty(p).expect("a deal's penalties are 0..=4"))
        .collect()
}

/// Checks that `a` against `b` is a 26/26 deal with four of each payment
/// card that plays `claimed` with both simulators.
pub fn replay(sim: &mut Simulator, a: &[u8], b: &[u8], claimed: Outcome) -> anyhow::Result<()> {
    let deal = Deal::new(a, b)?;
    let fast = sim.run_unchecked(deal.a(), deal.b());
    let plain = reference::simulate(&cards(deal.a()), &cards(deal.b()));
    if fast != plain {
        bail!(
            "the fast engine plays {fast} but the reference simulator {plain}: a simulator is wrong"
        );
    }
    if fast != claimed {
        bail!("claims {claimed}, but it plays {fast}: forged or damaged");
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
pub fn joins(from: &Deal, longer: &Deal, added: u64, joins_trick: u64) -> anyhow::Result<()> {
    let theirs = round_starts(from);
    let Some((state, before)) = usize::try_from(joins_trick)
        .ok()
        .and_then(|t| theirs.get(t))
    else {
        bail!("its game has no trick {joins_trick} to join");
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
        bail!(
            "its game does not meet the game it claims to extend after trick {joins_trick} \
             with {added} cards added"
        );
    }
    Ok(())
}
