//! The package's fixed files, embedded in the `poker` program so that
//! `poker package` works from an installed copy: the statement, the client
//! files and the example submissions (from `judge/` and the examples'
//! folders of the source tree).

/// One file of the package: its path in the package and its text.
pub struct TemplateFile {
    /// Path inside the package.
    pub path: &'static str,
    /// Contents.
    pub text: &'static str,
}

macro_rules! file {
    ($path:expr, $source:expr) => {
        TemplateFile {
            path: $path,
            text: include_str!(concat!("../../../../", $source)),
        }
    };
}

/// The problem statement; `@NAME@` is the problem's name.
pub const STATEMENT: &str = include_str!("../../kattis/problem_statement/problem.en.tex");

/// The organiser's README.md; `@NAME@`, `@VERSION@`, `@DECKS@`, `@DIR@`,
/// `@ARCH@` and `@GLIBC@` are filled in.
pub const README: &str = include_str!("../../kattis/README.md");

/// DOMjudge's own settings: the contest's 5 seconds per game.
pub const DOMJUDGE_INI: &str = "timelimit = 5\n";

/// A validator's build step: the program is already built.
pub const BUILD_SCRIPT: &str = "#!/bin/sh\n\
# The validator is the prebuilt `poker` program beside this script.\n\
chmod +x poker run\n";

/// The input validator: checks one test's deck (standard input).
pub const INPUT_VALIDATOR_RUN: &str = "#!/bin/sh\n\
exec \"$(dirname \"$0\")/poker\" validate-deck\n";

/// The interactor: `run INPUT ANSWER FEEDBACK_DIR [FLAGS]`.
pub const INTERACTOR_RUN: &str = "#!/bin/sh\n\
# The interactor ignores SIGPIPE itself while it serves the submission.\n\
exec \"$(dirname \"$0\")/poker\" interact \"$1\" \"$2\" \"$3\"\n";

/// Client files (copied by the judge into every submission of their
/// language) and example submissions, in their folders.
pub const TEMPLATES: &[TemplateFile] = &[
    file!(
        "include/c/poker.h",
        "crates/poker-cli/kattis/include/c/poker.h"
    ),
    file!(
        "include/c/poker_judge.c",
        "crates/poker-cli/kattis/include/c/poker_judge.c"
    ),
    file!(
        "include/cpp/poker.h",
        "crates/poker-cli/kattis/include/c/poker.h"
    ),
    file!(
        "include/cpp/poker_judge.cpp",
        "crates/poker-cli/kattis/include/c/poker_judge.c"
    ),
    file!(
        "include/pascal/poker.pp",
        "crates/poker-cli/kattis/include/pascal/poker.pp"
    ),
    file!(
        "include/python3/libpoker.py",
        "crates/poker-cli/kattis/include/python3/libpoker.py"
    ),
    file!("submissions/accepted/rollouts.c", "c_examples/rollouts.c"),
    file!(
        "submissions/partially_accepted/roundrobin.c",
        "c_examples/roundrobin.c"
    ),
    file!(
        "submissions/partially_accepted/greedy.c",
        "c_examples/greedy.c"
    ),
    file!(
        "submissions/partially_accepted/roundrobin.cpp",
        "crates/poker-cli/kattis/submissions/roundrobin.cpp"
    ),
    file!(
        "submissions/partially_accepted/greedy.pas",
        "pascal_examples/greedy.pas"
    ),
    file!(
        "submissions/partially_accepted/roundrobin.pas",
        "pascal_examples/roundrobin.pas"
    ),
    file!(
        "submissions/partially_accepted/greedy.py",
        "python_examples/greedy.py"
    ),
    file!(
        "submissions/partially_accepted/roundrobin.py",
        "python_examples/roundrobin.py"
    ),
    file!(
        "submissions/wrong_answer/column_five.c",
        "crates/poker-cli/kattis/submissions/column_five.c"
    ),
    file!(
        "submissions/wrong_answer/unbalanced.py",
        "crates/poker-cli/kattis/submissions/unbalanced.py"
    ),
    file!(
        "submissions/wrong_answer/look_twice.pas",
        "crates/poker-cli/kattis/submissions/look_twice.pas"
    ),
    file!(
        "submissions/time_limit_exceeded/endless.c",
        "crates/poker-cli/kattis/submissions/endless.c"
    ),
    file!(
        "submissions/run_time_error/crash.c",
        "crates/poker-cli/kattis/submissions/crash.c"
    ),
];
