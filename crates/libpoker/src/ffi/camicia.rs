//! Camicia (Beggar-My-Neighbour, the exercism exercise
//! "camicia"): simulate one game from C. The rules and the counting are
//! exercism's; see `docs/camicia.md` and the Rust module `poker::camicia`.

use crate::camicia::{self, GameEnd, Player, Simulator, parse_deck_bytes};
use std::cell::RefCell;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};

/// The 0.1 names of this family's codes, deprecated aliases in
/// [`super::error`] (removed in 0.4.0).
#[allow(deprecated)] // Re-exported for Rust users, who are warned where they use one.
pub use super::error::{
    CAMICIA_ERR_INTERNAL, CAMICIA_ERR_NULL, CAMICIA_ERR_PENALTY, CAMICIA_ERR_TOKEN, CAMICIA_OK,
};
use super::error::{
    POKER_ERR_CARD, POKER_ERR_INTERNAL, POKER_OK, fail, fail_camicia_token, fail_null,
};
/// `CamiciaResult.status`: one player holds every card.
pub const CAMICIA_FINISHED: c_int = 0;
/// `CamiciaResult.status`: a round started in the same state as an earlier
/// round (penalty pattern of both decks and player to lead); it never ends.
pub const CAMICIA_LOOP: c_int = 1;

/// The outcome of a game, in exercism's terms.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CamiciaResult {
    /// `CAMICIA_FINISHED` (0) or `CAMICIA_LOOP` (1).
    pub status: c_int,
    /// Cards put on the pile (a failed attempt by a player with no cards is
    /// not a card); for a loop, up to the start of the first repeated round.
    pub cards: u64,
    /// Times the pile was collected, the last one included (likewise).
    pub tricks: u64,
}

/// Where a player string stopped parsing (`camicia_simulate_ex`).
///
/// Deprecated, removed in 0.4.0 with `camicia_simulate_ex`: the thread's
/// last error (`poker_last_error`) is the one way to learn why a call
/// failed, and its message names the player, the token's number and its
/// byte offset.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CamiciaError {
    /// 0 = `player_a`, 1 = `player_b`; -1 when there was no token error.
    pub player: c_int,
    /// 0-based number of the bad whitespace-separated token in that string.
    pub token: u64,
    /// Byte offset of the bad token's first byte in that string.
    pub offset: u64,
}

impl From<camicia::Outcome> for CamiciaResult {
    fn from(o: camicia::Outcome) -> Self {
        CamiciaResult {
            status: match o.status {
                GameEnd::Finished => CAMICIA_FINISHED,
                GameEnd::Loop => CAMICIA_LOOP,
            },
            cards: o.cards,
            tricks: o.tricks,
        }
    }
}

thread_local! {
    /// One simulator per thread: its buffers are reused, so repeated calls
    /// allocate nothing.
    static SIMULATOR: RefCell<Simulator> = RefCell::new(Simulator::new());
}

/// Runs the thread's simulator, or a fresh one when the thread's storage is
/// gone (a call from an `atexit` handler or a thread-exit destructor).
fn run(a: &[u8], b: &[u8]) -> camicia::Outcome {
    SIMULATOR
        .try_with(|sim| sim.borrow_mut().run_unchecked(a, b))
        .unwrap_or_else(|_| Simulator::new().run_unchecked(a, b))
}

/// Simulates one game of Camicia and writes its outcome to `*out`.
///
/// `player_a`, `player_b`: NUL-terminated strings, each a player's deck, top
/// card first, as whitespace-separated tokens (case-insensitive): `2` .. `10`,
/// `T` (ten), `J`, `Q`, `K`, `A`, or `-` for "some number card"; several of
/// `-`, `J`, `Q`, `K`, `A` may be written together (`---K---Q-KQAJ--`), as
/// record deals are. Any deck lengths and rank counts. Player A plays first.
/// A player dealt no cards: if A has none, the game is finished with 0 cards
/// and 0 tricks; if only B has none, A plays one card and collects it
/// (finished, 1 card, 1 trick).
///
/// Rules (exercism "camicia"): J, Q, K, A make the opponent pay
/// 1, 2, 3, 4 cards; a payment card while paying turns the debt round; the
/// last payment card's player collects the pile; a player who must play with
/// no cards loses the pile; finished when one player holds every card after
/// a trick; a loop when a round starts in the state (penalty pattern of both
/// decks and player to lead) of an earlier round start, the deal being
/// round 1's start.
///
/// Returns `POKER_OK` (0), `POKER_ERR_NULL` if any pointer is NULL, or
/// `POKER_ERR_TOKEN` for a token that is not a card (`poker_last_error`
/// names it, its player, its token number and its byte offset). `*out` is
/// written only on success.
///
/// # Safety
/// Each non-NULL pointer must be valid: the strings NUL-terminated and
/// readable, `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn camicia_simulate(
    player_a: *const c_char,
    player_b: *const c_char,
    out: *mut CamiciaResult,
) -> c_int {
    // SAFETY: the same pointers, under the same contract; `err` NULL.
    unsafe { simulate(player_a, player_b, out, std::ptr::null_mut()) }
}

/// `camicia_simulate`, and on `POKER_ERR_TOKEN` says where the bad token
/// is: `err->player` (0 = A, 1 = B), `err->token` (0-based token number) and
/// `err->offset` (byte offset in that string). `err` may be NULL; when it is
/// not, it is always written (`player` = -1 when there is no token error).
///
/// Returns the same codes as `camicia_simulate`.
///
/// Deprecated, removed in 0.4.0: `poker_last_error` is the one way to learn
/// why a call failed, and its message says where the bad token is. Call
/// `camicia_simulate` instead.
///
/// # Safety
/// As `camicia_simulate`; `err`, if not NULL, must be writable.
#[deprecated(
    note = "removed in 0.4.0: use camicia_simulate; poker_last_error says where a token is bad"
)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn camicia_simulate_ex(
    player_a: *const c_char,
    player_b: *const c_char,
    out: *mut CamiciaResult,
    err: *mut CamiciaError,
) -> c_int {
    // SAFETY: the same pointers, under the same contract.
    unsafe { simulate(player_a, player_b, out, err) }
}

/// The body of both string entries: `camicia_simulate_ex`'s contract.
///
/// # Safety
/// As `camicia_simulate_ex`.
unsafe fn simulate(
    player_a: *const c_char,
    player_b: *const c_char,
    out: *mut CamiciaResult,
    err: *mut CamiciaError,
) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        let mut error = CamiciaError {
            player: -1,
            token: 0,
            offset: 0,
        };
        let code = (|| {
            if player_a.is_null() || player_b.is_null() || out.is_null() {
                return fail_null("a player string or the result");
            }
            // SAFETY: both are non-null and, as documented, NUL-terminated.
            let (a, b) = unsafe { (CStr::from_ptr(player_a), CStr::from_ptr(player_b)) };
            let decks = parse_deck_bytes(a.to_bytes(), Player::A)
                .and_then(|a| Ok((a, parse_deck_bytes(b.to_bytes(), Player::B)?)));
            match decks {
                Ok((a, b)) => {
                    let outcome = run(&camicia::penalties(&a), &camicia::penalties(&b));
                    // SAFETY: non-null, and the caller's to write.
                    unsafe { *out = outcome.into() };
                    POKER_OK
                }
                Err(e) => {
                    error = CamiciaError {
                        player: e.player.index() as c_int,
                        token: e.token_index as u64,
                        offset: e.byte_offset as u64,
                    };
                    fail_camicia_token(&e)
                }
            }
        })();
        if !err.is_null() {
            // SAFETY: non-null, and the caller's to write.
            unsafe { *err = error };
        }
        code
    })
}

/// The fast entry, for callers who already hold the cards: each deck as an
/// array of penalties, top card first: 0 = number card, 1 = J, 2 = Q, 3 = K,
/// 4 = A. `a_len`, `b_len` are the decks' lengths in cards (`uint64_t`, so
/// the header needs only `<stdint.h>`); a pointer may be NULL only when its
/// length is 0. Same rules and outcome as `camicia_simulate`. Allocates
/// nothing after the first call of a size on a thread, and takes well under
/// a microsecond for a typical 52-card deal.
///
/// Returns `POKER_OK` (0), `POKER_ERR_NULL` (`out` NULL, or a NULL
/// array with a nonzero length) or `POKER_ERR_CARD` (a value above 4).
/// `*out` is written only on success.
///
/// # Safety
/// A non-NULL array must hold its length's worth of readable bytes; `out`
/// must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn camicia_simulate_penalties(
    a: *const u8,
    a_len: u64,
    b: *const u8,
    b_len: u64,
    out: *mut CamiciaResult,
) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        if out.is_null() || (a.is_null() && a_len != 0) || (b.is_null() && b_len != 0) {
            return fail_null("the result or a penalty array with a nonzero length");
        }
        let slice = |p: *const u8, len: u64| -> &[u8] {
            if len == 0 {
                &[]
            } else {
                // SAFETY: non-null, and the caller promises `len` readable
                // bytes.
                unsafe { std::slice::from_raw_parts(p, len as usize) }
            }
        };
        let (a, b) = (slice(a, a_len), slice(b, b_len));
        for (player, deck) in [("A", a), ("B", b)] {
            if let Some(i) = deck.iter().position(|&p| p > 4) {
                return fail(
                    POKER_ERR_CARD,
                    format!(
                        "player {player}, card {}: penalty {} is not 0..4",
                        i + 1,
                        deck[i]
                    ),
                );
            }
        }
        // SAFETY: non-null, and the caller's to write.
        unsafe { *out = run(a, b).into() };
        POKER_OK
    })
}
