//! Times as the time options take them (`--cpu-limit`, `--wall-limit`,
//! `--compile-time-limit`, `--checkpoint-every`): a number with a unit
//! (`5s`, `500ms`, `2m`, `1.5s`, `1m 30s`, as humantime reads them) or a
//! bare number of seconds (`5`, `0.3`), like the size options' bare MiB.

use std::time::Duration;

/// The duration `text` writes (see the module's doc).
///
/// Errors: a message quoting `text` and saying what a time looks like.
pub fn parse_time(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let bare = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    let parsed = match bare {
        true => text
            .parse::<f64>()
            .ok()
            .and_then(|s| Duration::try_from_secs_f64(s).ok()),
        false => humantime::parse_duration(text).ok(),
    };
    parsed.ok_or_else(|| {
        format!(
            "invalid time {text:?}: write a number of seconds or a number with a unit \
             (5s, 500ms, 2m, 1.5s)"
        )
    })
}

/// A time limit (`--cpu-limit`, `--wall-limit`, `--compile-time-limit`):
/// [`parse_time`], from 1 ms to 1 hour.
pub fn time_limit(text: &str) -> Result<Duration, String> {
    let time = parse_time(text)?;
    if !(Duration::from_millis(1)..=Duration::from_secs(3600)).contains(&time) {
        return Err(format!("{text:?} is out of range: from 1ms to 1h (3600s)"));
    }
    Ok(time)
}

#[cfg(test)]
mod tests {
    use super::{parse_time, time_limit};
    use std::time::Duration;

    // Expected durations by hand: 1 min = 60 s, 1 s = 1000 ms.
    #[test]
    fn times_are_read_with_units_or_as_seconds() {
        let ms = Duration::from_millis;
        assert_eq!(parse_time("5"), Ok(ms(5000)));
        assert_eq!(parse_time("0.3"), Ok(ms(300)));
        assert_eq!(parse_time("5s"), Ok(ms(5000)));
        assert_eq!(parse_time("500ms"), Ok(ms(500)));
        assert_eq!(parse_time("2m"), Ok(ms(120_000)));
        assert_eq!(parse_time("1.5s"), Ok(ms(1500)));
        assert_eq!(parse_time("1m 30s"), Ok(ms(90_000)));
        assert_eq!(parse_time("0"), Ok(ms(0)));
        for text in ["", "s", "-1", "5x", "1..2", "five"] {
            assert!(parse_time(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn time_limits_run_from_a_millisecond_to_an_hour() {
        assert_eq!(time_limit("1ms"), Ok(Duration::from_millis(1)));
        assert_eq!(time_limit("1h"), Ok(Duration::from_secs(3600)));
        for text in ["0", "0.0001", "3601", "2h"] {
            assert_eq!(
                time_limit(text),
                Err(format!("{text:?} is out of range: from 1ms to 1h (3600s)"))
            );
        }
    }
}
