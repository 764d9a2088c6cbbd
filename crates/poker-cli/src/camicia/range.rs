//! `--range`, shared by `search`, `merge` and `status`.

use anyhow::{Context, bail};
use poker_core::camicia::DEAL_COUNT;

/// `START..END` (END excluded, a work unit's half-open range) or
/// `START..=LAST` (LAST included) as the half-open `(start, end)`.
pub(super) fn parse_range(text: &str) -> anyhow::Result<(u128, u128)> {
    let written = crate::ranges::parse::<u128>(text)
        .context("--range is START..END (END excluded) or START..=LAST, e.g. 0..1000000")?
        .map_err(anyhow::Error::msg)?;
    let start = written.start;
    let end = match written.inclusive {
        true => written
            .end
            .checked_add(1)
            .context("--range: LAST is too large")?,
        false => written.end,
    };
    if start >= end || end > DEAL_COUNT {
        bail!("--range needs START < END <= {DEAL_COUNT}");
    }
    Ok((start, end))
}
