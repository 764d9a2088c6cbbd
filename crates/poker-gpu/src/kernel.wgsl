// The Camicia search on a GPU: kernels over one dispatch of whole blocks
// of 16,384 deals, `deal` then `play_persistent` (or `play`).
//
// `deal` makes every deal of the dispatch: for random work, the 16 draws
// of `random_deal` from ChaCha8 (block counter = the deal's place in its
// block, stream = the block), flagging a block where a draw is rejected
// and drawn again (its later deals shift: the CPU plays it); for an index
// range, the deal of each index, unranked in 128-bit arithmetic. A deal
// is kept as the places (0..51) of its 16 payment cards, one byte each:
// aces first, then kings, queens, jacks.
//
// `play_persistent` plays every deal (run by run): each workgroup its
// backlog of deals, a thread taking the next deal when its game ends;
// `play`, one deal a thread, is the kernel it replaced. Both sum what the
// CPU need not see: the histogram of lengths and the checksum of the
// finished games shorter than `claim_from`. Every other game (long, or still running
// after `max_tricks` tricks: a loop, or a game past every known record)
// is a claim the CPU plays again before it counts it; one deal a block,
// chosen by the CPU, is reported as a sample that the CPU compares.

struct Params {
    // 0: random deals; 1: an index range.
    mode: u32,
    // Deals in this dispatch.
    deals: u32,
    // Finished games of at least this many cards are claims.
    claim_from: u32,
    // Games still running after this many tricks are claims.
    max_tricks: u32,
    // ChaCha8's key (the seed), as eight little-endian words.
    key: array<vec4<u32>, 2>,
    // Random work: the stream (block number) of the dispatch's first block.
    first_block: vec2<u32>,
    // Room in `claims`.
    claim_capacity: u32,
    // Deals per block (16,384).
    block_deals: u32,
    // Index range: the index of the dispatch's first deal, low word first.
    start: vec4<u32>,
}

struct Claim {
    // The deal's place in the dispatch.
    deal: u32,
    cards: u32,
    tricks: u32,
    // 1: a claim (not counted here); 2: the block's sample (counted here,
    // unless also a claim); 4: the game was still running.
    kind: u32,
    // The deal as made here (places of the payment cards).
    places: vec4<u32>,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> deals: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> flags: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read> samples: array<u32>;
@group(0) @binding(4) var<storage, read> arrangements: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read_write> lengths: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> sums: array<vec2<u32>>;
@group(0) @binding(7) var<storage, read_write> claim_count: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> claims: array<Claim>;

// What a jack makes the opponent pay: 1. Only the tests change it, to
// prove that the CPU's checks catch a wrong kernel.
override JACK_PAYS: u32 = 1u;

const WORKGROUP: u32 = 256u;
const BIN_CARDS: u32 = 10u;

// ---------------------------------------------------------------- ChaCha8

fn rotl(x: u32, n: u32) -> u32 {
    return (x << n) | (x >> (32u - n));
}

fn quarter(s: ptr<function, array<u32, 16>>, a: u32, b: u32, c: u32, d: u32) {
    (*s)[a] += (*s)[b]; (*s)[d] = rotl((*s)[d] ^ (*s)[a], 16u);
    (*s)[c] += (*s)[d]; (*s)[b] = rotl((*s)[b] ^ (*s)[c], 12u);
    (*s)[a] += (*s)[b]; (*s)[d] = rotl((*s)[d] ^ (*s)[a], 8u);
    (*s)[c] += (*s)[d]; (*s)[b] = rotl((*s)[b] ^ (*s)[c], 7u);
}

// ChaCha8's 64-byte block number `counter` on `stream`, as rand_chacha
// lays it out (64-bit counter, then the 64-bit stream).
fn chacha8(counter: u32, stream: vec2<u32>) -> array<u32, 16> {
    var init = array<u32, 16>(
        0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u,
        params.key[0].x, params.key[0].y, params.key[0].z, params.key[0].w,
        params.key[1].x, params.key[1].y, params.key[1].z, params.key[1].w,
        counter, 0u, stream.x, stream.y);
    var s = init;
    for (var round = 0u; round < 4u; round++) {
        quarter(&s, 0u, 4u, 8u, 12u);
        quarter(&s, 1u, 5u, 9u, 13u);
        quarter(&s, 2u, 6u, 10u, 14u);
        quarter(&s, 3u, 7u, 11u, 15u);
        quarter(&s, 0u, 5u, 10u, 15u);
        quarter(&s, 1u, 6u, 11u, 12u);
        quarter(&s, 2u, 7u, 8u, 13u);
        quarter(&s, 3u, 4u, 9u, 14u);
    }
    for (var i = 0u; i < 16u; i++) {
        s[i] += init[i];
    }
    return s;
}

// --------------------------------------------------- 64 and 128-bit words

// The full product of two 32-bit words: (low, high).
fn mul_wide(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    return vec2<u32>((p00 & 0xffffu) | (mid << 16u), p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}

fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x + b.x;
    return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

fn mul64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let low = mul_wide(a.x, b.x);
    return vec2<u32>(low.x, low.y + a.x * b.y + a.y * b.x);
}

// x >> n for 0 < n < 32.
fn shr64(x: vec2<u32>, n: u32) -> vec2<u32> {
    return vec2<u32>((x.x >> n) | (x.y << (32u - n)), x.y >> n);
}

// SplitMix64's finaliser.
fn mix(x: vec2<u32>) -> vec2<u32> {
    var v = x ^ shr64(x, 30u);
    v = mul64(v, vec2<u32>(0x1ce4e5b9u, 0xbf58476du));
    v = v ^ shr64(v, 27u);
    v = mul64(v, vec2<u32>(0x133111ebu, 0x94d049bbu));
    return v ^ shr64(v, 31u);
}

// The checksum's hash of a finished game (poker-core's `outcome_hash`):
// `key` is the deal's 128-bit key, low word first.
fn outcome_hash(key: vec4<u32>, cards: u32, tricks: u32) -> vec2<u32> {
    var h = mix(key.xy ^ vec2<u32>(0xf3bcc908u, 0x6a09e667u));
    h = mix(h ^ key.zw);
    h = mix(h ^ vec2<u32>(cards, 0u));
    return mix(h ^ vec2<u32>(tricks << 1u, tricks >> 31u));
}

fn add128(a: vec4<u32>, b: u32) -> vec4<u32> {
    var r = a;
    r.x = a.x + b;
    var carry = select(0u, 1u, r.x < a.x);
    r.y = a.y + carry;
    carry = select(0u, 1u, r.y < carry);
    r.z = a.z + carry;
    carry = select(0u, 1u, r.z < carry);
    r.w = a.w + carry;
    return r;
}

fn less128(a: vec4<u32>, b: vec4<u32>) -> bool {
    if a.w != b.w { return a.w < b.w; }
    if a.z != b.z { return a.z < b.z; }
    if a.y != b.y { return a.y < b.y; }
    return a.x < b.x;
}

fn sub128(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    var r: vec4<u32>;
    r.x = a.x - b.x;
    var borrow = select(0u, 1u, a.x < b.x);
    let y = a.y - b.y;
    r.y = y - borrow;
    borrow = select(0u, 1u, a.y < b.y || y < borrow);
    let z = a.z - b.z;
    r.z = z - borrow;
    borrow = select(0u, 1u, a.z < b.z || z < borrow);
    r.w = a.w - b.w - borrow;
    return r;
}

// ------------------------------------------------------------------ deals

// The places of the payment cards of `random_deal`'s next deal, from the
// 16 words of one ChaCha8 block; `risky` is set when a draw would be
// rejected and drawn again (the deals after it then take other words).
fn random_places(words: array<u32, 16>, risky: ptr<function, bool>) -> vec4<u32> {
    var places: array<u32, 52>;
    for (var i = 0u; i < 52u; i++) {
        places[i] = i;
    }
    var packed = vec4<u32>(0u);
    for (var i = 0u; i < 16u; i++) {
        let n = 52u - i;
        let m = mul_wide(words[i], n);
        // The search's `below` draws again exactly when the low word is under
        // 2^32 mod n (the bias zone).
        if m.x < (0u - n) % n {
            *risky = true;
        }
        let j = i + m.y;
        let t = places[i];
        places[i] = places[j];
        places[j] = t;
        packed[i / 4u] |= places[i] << (8u * (i % 4u));
    }
    return packed;
}

// The table of arrangements: `counts` are how many number cards, J, Q,
// K, A are left.
fn arranged(counts: vec4<u32>, numbers: u32) -> vec4<u32> {
    return arrangements[numbers * 625u + counts.x * 125u + counts.y * 25u + counts.z * 5u + counts.w];
}

// The places of the payment cards of the deal with this index.
fn unranked_places(index: vec4<u32>) -> vec4<u32> {
    var rest = index;
    // Left of J, Q, K, A (x..w) and of number cards.
    var counts = vec4<u32>(4u);
    var numbers = 36u;
    var packed = vec4<u32>(0u);
    for (var slot = 0u; slot < 52u; slot++) {
        // Symbols in order A < K < Q < J < number card.
        var chosen = 0u;
        for (var p = 4u; p > 0u; p--) {
            if counts[p - 1u] == 0u {
                continue;
            }
            counts[p - 1u] -= 1u;
            let block = arranged(counts, numbers);
            if less128(rest, block) {
                chosen = p;
                break;
            }
            rest = sub128(rest, block);
            counts[p - 1u] += 1u;
        }
        if chosen == 0u {
            numbers -= 1u;
        } else {
            // The card's rank slot: aces 0..3, kings 4..7, ...
            let i = (4u - chosen) * 4u + (3u - counts[chosen - 1u]);
            packed[i / 4u] |= slot << (8u * (i % 4u));
        }
    }
    return packed;
}

@compute @workgroup_size(256)
fn deal(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let g = id.x + id.y * groups.x * WORKGROUP;
    if g >= params.deals {
        return;
    }
    if params.mode == 0u {
        let block = g / params.block_deals;
        let stream = add64(params.first_block, vec2<u32>(block, 0u));
        var risky = false;
        deals[g] = random_places(chacha8(g % params.block_deals, stream), &risky);
        if risky {
            atomicOr(&flags[block], 1u);
        }
    } else {
        deals[g] = unranked_places(add128(params.start, g));
    }
}

// ------------------------------------------------------------------- play

// A deck is run-length coded, as in the CPU engines: runs of "z number
// cards, then a payment card", then a tail of number cards. A run is one
// byte, z << 2 | (penalty - 1) (z <= 36). Each deck's runs live in a ring
// of 16 bytes in one vec4 (there are 16 payment cards, so never more
// runs), and everything is indexed by vector lanes, not arrays: on a GPU
// the game stays in registers. A round costs a few steps per payment
// card, not per card.
struct Game {
    // A's and B's rings of runs.
    ring_a: vec4<u32>,
    ring_b: vec4<u32>,
    // Per player (lane 0 A, lane 1 B): where its runs start, how many,
    // the number cards after the last run, and the cards held.
    head: vec2<u32>,
    runs: vec2<u32>,
    tail: vec2<u32>,
    held: vec2<u32>,
}

fn byte_at(ring: vec4<u32>, slot: u32) -> u32 {
    let i = slot & 15u;
    return (ring[i >> 2u] >> ((i & 3u) * 8u)) & 0xffu;
}

fn with_byte(ring: vec4<u32>, slot: u32, v: u32) -> vec4<u32> {
    let i = slot & 15u;
    let s = (i & 3u) * 8u;
    var r = ring;
    r[i >> 2u] = (r[i >> 2u] & ~(0xffu << s)) | (v << s);
    return r;
}

fn run_at(g: ptr<function, Game>, d: u32, slot: u32) -> u32 {
    return byte_at(select((*g).ring_a, (*g).ring_b, d == 1u), slot);
}

fn set_run(g: ptr<function, Game>, d: u32, slot: u32, v: u32) {
    if d == 0u {
        (*g).ring_a = with_byte((*g).ring_a, slot, v);
    } else {
        (*g).ring_b = with_byte((*g).ring_b, slot, v);
    }
}

fn pays(card: u32) -> u32 {
    return select(card, JACK_PAYS, card == 1u);
}

// Number cards before the hand's next payment card (all its cards if it
// holds none).
fn distance(g: ptr<function, Game>, d: u32) -> u32 {
    if (*g).runs[d] == 0u {
        return (*g).tail[d];
    }
    return run_at(g, d, (*g).head[d]) >> 2u;
}

// The hand plays `k` number cards (at most its distance).
fn play_numbers(g: ptr<function, Game>, d: u32, k: u32) {
    if (*g).runs[d] == 0u {
        (*g).tail[d] -= k;
    } else {
        let slot = (*g).head[d];
        set_run(g, d, slot, run_at(g, d, slot) - (k << 2u));
    }
    (*g).held[d] -= k;
}

// The hand plays its next card, a payment card (its distance is 0):
// returns the card's penalty.
fn play_payment(g: ptr<function, Game>, d: u32) -> u32 {
    let card = (run_at(g, d, (*g).head[d]) & 3u) + 1u;
    (*g).head[d] += 1u;
    (*g).runs[d] -= 1u;
    (*g).held[d] -= 1u;
    return card;
}

// Sets up the decks of the deal with these payment card places.
fn start_deal(places: vec4<u32>) -> Game {
    // The payment cards' places, bit i of lane d for place 26d + i, and
    // their penalty - 1 in two bit planes.
    var all = vec2<u32>(0u);
    var low = vec2<u32>(0u);
    var high = vec2<u32>(0u);
    for (var i = 0u; i < 16u; i++) {
        let place = (places[i / 4u] >> (8u * (i % 4u))) & 0xffu;
        let d = select(0u, 1u, place >= 26u);
        let bit = 1u << (place - 26u * d);
        let code = 3u - i / 4u;
        all[d] |= bit;
        low[d] |= select(0u, bit, (code & 1u) != 0u);
        high[d] |= select(0u, bit, (code & 2u) != 0u);
    }
    // Every field set: a game must not start from the last one's state.
    var g = Game(vec4<u32>(0u), vec4<u32>(0u), vec2<u32>(0u), vec2<u32>(0u), vec2<u32>(0u), vec2<u32>(0u));
    for (var d = 0u; d < 2u; d++) {
        var left = all[d];
        var next = 0u;
        var count = 0u;
        while left != 0u {
            let place = countTrailingZeros(left);
            let code = ((low[d] >> place) & 1u) | (((high[d] >> place) & 1u) << 1u);
            set_run(&g, d, count, ((place - next) << 2u) | code);
            count += 1u;
            next = place + 1u;
            left &= left - 1u;
        }
        g.runs[d] = count;
        g.tail[d] = 26u - next;
    }
    g.held = vec2<u32>(26u);
    return g;
}

// Plays one trick of a game whose `leader` leads, adding to `cards` and
// `tricks`: 0 if the game goes on, 1 if it finished, 2 if it is still
// running after `max_tricks` tricks.
fn play_trick(
    g: ptr<function, Game>,
    cards: ptr<function, u32>,
    tricks: ptr<function, u32>,
    leader: ptr<function, u32>,
) -> u32 {
    // The pile: its runs (bytes, as in a deck), then `loose` number
    // cards.
    var pile = vec4<u32>(0u);
    var piled = 0u;
    var loose = 0u;
    var winner = 2u;
    var payer = 0u;
    var owed = 0u;
    // Free play: the players alternate, the leader first, until one
    // turns up a payment card or has no card left.
    let lead = *leader;
    let other = 1u - lead;
    let zl = distance(g, lead);
    let zo = distance(g, other);
    var first = lead;
    var numbers = 2u * zl;
    var own = zl;
    if zo < zl {
        first = other;
        numbers = 2u * zo + 1u;
        own = zo;
    }
    play_numbers(g, lead, numbers - own);
    play_numbers(g, other, own);
    var round_cards = numbers;
    if (*g).runs[first] == 0u {
        winner = 1u - first;
        loose = numbers;
    } else {
        let card = play_payment(g, first);
        pile = with_byte(pile, 0u, (numbers << 2u) | (card - 1u));
        piled = 1u;
        round_cards += 1u;
        payer = 1u - first;
        owed = pays(card);
    }
    // Payments: each payer pays in full with number cards, or turns up
    // a payment card (the other player now owes), or runs out.
    while winner == 2u {
        let z = distance(g, payer);
        if z >= owed || (*g).runs[payer] == 0u {
            let paid = min(z, owed);
            play_numbers(g, payer, paid);
            loose = paid;
            round_cards += paid;
            winner = 1u - payer;
        } else {
            play_numbers(g, payer, z);
            let card = play_payment(g, payer);
            pile = with_byte(pile, piled, (z << 2u) | (card - 1u));
            piled += 1u;
            round_cards += z + 1u;
            owed = pays(card);
            payer = 1u - payer;
        }
    }
    // The winner takes the pile under its deck.
    *cards += round_cards;
    *tricks += 1u;
    if piled == 0u {
        (*g).tail[winner] += loose;
    } else {
        let at = (*g).head[winner] + (*g).runs[winner];
        set_run(g, winner, at, byte_at(pile, 0u) + ((*g).tail[winner] << 2u));
        for (var i = 1u; i < piled; i++) {
            set_run(g, winner, at + i, byte_at(pile, i));
        }
        (*g).runs[winner] += piled;
        (*g).tail[winner] = loose;
    }
    (*g).held[winner] += round_cards;
    *leader = winner;
    if (*g).held[1u - winner] == 0u {
        return 1u;
    }
    if *tricks >= params.max_tricks {
        return 2u;
    }
    return 0u;
}

// Plays the deal: (cards, tricks, still running).
fn play_deal(places: vec4<u32>) -> vec3<u32> {
    var g = start_deal(places);
    var cards = 0u;
    var tricks = 0u;
    var leader = 0u;
    loop {
        let end = play_trick(&g, &cards, &tricks, &leader);
        if end != 0u {
            return vec3<u32>(cards, tricks, end - 1u);
        }
    }
    return vec3<u32>(cards, tricks, 1u);
}

var<workgroup> partial: array<vec2<u32>, 256>;

fn report(g: u32, kind: u32, game: vec3<u32>, places: vec4<u32>) {
    let at = atomicAdd(&claim_count[0], 1u);
    if at < params.claim_capacity {
        claims[at] = Claim(g, game.x, game.y, kind, places);
    }
}

// Whether deal `g` of the dispatch is played here (not in a block the CPU
// plays itself).
fn is_live(g: u32) -> bool {
    return params.mode != 0u || atomicLoad(&flags[g / params.block_deals]) == 0u;
}

// Counts the game of deal `g` if it `ended`: a claim or the sample is
// reported, a short game goes into the histogram; the hash it adds to the
// checksum (0 for a claim, which the CPU counts). Every atomic operation
// is made whether or not the game ended (adding 0): lavapipe miscounts
// atomics that only some lanes of a loop make.
fn count_game(ended: bool, g: u32, game: vec3<u32>, places: vec4<u32>) -> vec2<u32> {
    let block = g / params.block_deals;
    let k = g % params.block_deals;
    let claimed = game.z != 0u || game.x >= params.claim_from;
    var kind = select(0u, 1u, claimed) | select(0u, 4u, game.z != 0u);
    if k == samples[block] {
        kind |= 2u;
    }
    let reported = ended && kind != 0u;
    let at = atomicAdd(&claim_count[0], select(0u, 1u, reported));
    if reported && at < params.claim_capacity {
        claims[at] = Claim(g, game.x, game.y, kind, places);
    }
    let counted = ended && !claimed;
    atomicAdd(&lengths[select(0u, game.x / BIN_CARDS, counted)], select(0u, 1u, counted));
    if !counted {
        return vec2<u32>(0u, 0u);
    }
    var key: vec4<u32>;
    if params.mode == 0u {
        // The draw number: block * 16384 + k, in 128 bits.
        let b = add64(params.first_block, vec2<u32>(block, 0u));
        key = vec4<u32>((b.x << 14u) | k, (b.y << 14u) | (b.x >> 18u), b.y >> 18u, 0u);
    } else {
        key = add128(params.start, g);
    }
    return outcome_hash(key, game.x, game.y);
}

// The workgroup's sum of its lanes' `hash`, written to `sums`.
fn sum_hashes(lane: u32, group: u32, hash: vec2<u32>) {
    partial[lane] = hash;
    workgroupBarrier();
    for (var half = WORKGROUP / 2u; half > 0u; half >>= 1u) {
        if lane < half {
            partial[lane] = add64(partial[lane], partial[lane + half]);
        }
        workgroupBarrier();
    }
    if lane == 0u {
        sums[group] = partial[0];
    }
}

// One deal a thread: a warp waits for its longest game.
@compute @workgroup_size(256)
fn play(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {
    let g = id.x + id.y * groups.x * WORKGROUP;
    var hash = vec2<u32>(0u, 0u);
    if g < params.deals && is_live(g) {
        let places = deals[g];
        hash = count_game(true, g, play_deal(places), places);
    }
    sum_hashes(lane, group.x + group.y * groups.x, hash);
}

// ------------------------------------------------- the persistent kernel

// Deals of a dispatch in one chunk. Workgroup w of G owns chunks w,
// w + G, w + 2G, ...: its backlog.
const CHUNK: u32 = 256u;

// Tricks a lane plays between two looks at the backlog: a lane whose game
// ends idles for the rest of them; a look costs a workgroup barrier.
const TRICKS_A_LOOK: u32 = 8u;

// The deals of its backlog the workgroup's lanes have taken, the lanes
// still playing, whether the backlog ran out, and whether to go on.
var<workgroup> taken: atomic<u32>;
var<workgroup> busy: atomic<u32>;
var<workgroup> out: atomic<u32>;
var<workgroup> go_on: u32;

// Every workgroup plays its backlog, one game a lane at a time,
// TRICKS_A_LOOK tricks between two looks; a lane whose game ended takes
// the next deal of the backlog from the workgroup's counter, so the lanes
// of a warp keep playing instead of idling until the longest game of the
// warp ends. The workgroup loops together until the backlog is empty and
// every game over (the atomics, made by every lane, and the barriers
// keep lavapipe exact).
@compute @workgroup_size(256)
fn play_persistent(
    @builtin(local_invocation_index) lane: u32,
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    // The counters start at 0: wgpu zeroes workgroup memory.
    let chunks = (params.deals + CHUNK - 1u) / CHUNK;
    var hash = vec2<u32>(0u, 0u);
    var playing = false;
    var g = 0u;
    var places = vec4<u32>(0u);
    var game: Game;
    var cards = 0u;
    var tricks = 0u;
    var leader = 0u;
    loop {
        let looks = !playing;
        let i = atomicAdd(&taken, select(0u, 1u, looks));
        var ran_out = false;
        if looks {
            let chunk = group.x + (i / CHUNK) * groups.x;
            let d = chunk * CHUNK + i % CHUNK;
            if chunk >= chunks || d >= params.deals {
                // The backlog's deals come in order: past the last, none.
                ran_out = true;
            } else if is_live(d) {
                g = d;
                places = deals[d];
                game = start_deal(places);
                cards = 0u;
                tricks = 0u;
                leader = 0u;
                playing = true;
            }
        }
        var end = 0u;
        if playing {
            for (var s = 0u; s < TRICKS_A_LOOK; s++) {
                end = play_trick(&game, &cards, &tricks, &leader);
                if end != 0u {
                    break;
                }
            }
        }
        let result = vec3<u32>(cards, tricks, select(0u, end - 1u, end != 0u));
        hash = add64(hash, count_game(end != 0u, g, result, places));
        if end != 0u {
            playing = false;
        }
        atomicAdd(&busy, select(0u, 1u, playing));
        atomicOr(&out, select(0u, 1u, ran_out));
        workgroupBarrier();
        if lane == 0u {
            go_on = select(0u, 1u, atomicLoad(&busy) > 0u || atomicLoad(&out) == 0u);
            atomicStore(&busy, 0u);
        }
        if workgroupUniformLoad(&go_on) == 0u {
            break;
        }
    }
    sum_hashes(lane, group.x, hash);
}
