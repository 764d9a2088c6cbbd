//! An error from another crate written with its causes, `error: cause:
//! cause's cause`, the way `poker` prints a whole error.
//!
//! This crate's errors write their whole message, their causes' included,
//! so none of them returns a `source()`: a caller printing one with `{}`
//! and a caller walking the chain see the same text, once.

use std::error::Error;
use std::fmt;

/// Displays an error and each of its sources, joined by `: `.
pub(crate) struct Chain<'a>(pub(crate) &'a (dyn Error + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut cause = self.0.source();
        while let Some(e) = cause {
            write!(f, ": {e}")?;
            cause = e.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error with a cause.
    #[derive(Debug)]
    struct Outer(std::io::Error);

    impl fmt::Display for Outer {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("outer")
        }
    }

    impl Error for Outer {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn an_error_is_written_with_each_of_its_causes() {
        let e = Outer(std::io::Error::other("inner"));
        assert_eq!(Chain(&e).to_string(), "outer: inner");
        let alone = std::io::Error::other("alone");
        assert_eq!(Chain(&alone).to_string(), "alone");
    }
}
