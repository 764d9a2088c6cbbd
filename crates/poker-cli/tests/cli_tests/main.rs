//! The integration tests of the `poker` command, run as users run it, with programs linked against the fresh library.
//! One test binary with a module per subject, so a change links once.
// Some tests call the C API with pointers and lengths made beside each
// call; a SAFETY comment on each of them would repeat the line.
#![allow(clippy::undocumented_unsafe_blocks)]

mod browser;
mod camicia_cli;
mod camicia_extension;
mod camicia_random_units;
mod camicia_slurm;
mod camicia_units;
mod cli;
#[path = "../../../../tests/common/mod.rs"]
mod common;
mod cpp;
mod doc_commands;
mod docs;
mod evaluator;
mod fair_timing;
mod first_hour;
mod fork_server;
mod freecell_cli;
mod fuzz_regressions;
mod hand_categories;
mod html_eval;
mod html_pictures;
mod install;
mod judge_clients;
mod judge_interact;
mod judge_package;
mod lean_library;
mod load;
mod machine_lease;
mod manual;
mod pascal;
mod paste_safe;
mod pictures;
mod python;
mod sandbox_attacks;
mod sandbox_limits_cli;
mod sandbox_machine_wide;
mod shuffle_uniform;
mod syscall_census;
mod wheel;
