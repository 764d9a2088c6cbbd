//! The switch that forces the plain paths of the vector code (the FreeCell
//! batch dealer, the Camicia vector engine): the environment variable
//! `POKER_PLAIN`, so that tests can run both paths on one machine.

/// True if `POKER_PLAIN` is set to a non-empty value other than `0`.
pub(crate) fn forced() -> bool {
    std::env::var_os("POKER_PLAIN").is_some_and(|v| !v.is_empty() && v != "0")
}
