//! The table the kernel unranks indices with: how many arrangements a
//! multiset of cards has, for every count of number cards (0..=36) and of
//! J, Q, K, A (0..=4 each).

/// `n` choose `k` in 128 bits (n <= 52: no overflow).
fn choose(n: u32, k: u32) -> u128 {
    (0..k).fold(1u128, |c, i| c * u128::from(n - i) / u128::from(i + 1))
}

/// Arrangements of `numbers` number cards and `[j, q, k, a]` payment
/// cards: the multinomial coefficient.
pub(crate) fn arrangements(numbers: u32, payments: [u32; 4]) -> u128 {
    let mut n = numbers;
    let mut total = 1u128;
    for c in payments {
        n += c;
        total *= choose(n, c);
    }
    total
}

/// The table as the kernel reads it: entry `numbers * 625 + j * 125 + q *
/// 25 + k * 5 + a`, each 128 bits little-endian.
pub(crate) fn arrangements_bytes() -> Vec<u8> {
    let mut bytes = Vec::with_capacity(37 * 625 * 16);
    for numbers in 0..=36 {
        for j in 0..5 {
            for q in 0..5 {
                for k in 0..5 {
                    for a in 0..5 {
                        bytes.extend(arrangements(numbers, [j, q, k, a]).to_le_bytes());
                    }
                }
            }
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_deck_has_the_spec_s_number_of_deals() {
        // The spec: 653,534,134,886,878,245,000 distinct deals.
        assert_eq!(arrangements(36, [4; 4]), 653_534_134_886_878_245_000);
        // Hand-checked: 2 number cards and one jack: 3 arrangements.
        assert_eq!(arrangements(2, [1, 0, 0, 0]), 3);
    }
}
