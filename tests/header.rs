//! The committed include/poker.h is exactly what cbindgen generates from
//! src/ffi (regenerate with `POKER_BLESS=1 cargo test --test header`), and it
//! compiles cleanly from strict C89, C99 and C++.

mod common;
use std::process::Command;

#[test]
fn committed_header_is_up_to_date() {
    let generated = std::fs::read_to_string(env!("POKER_GENERATED_HEADER")).unwrap();
    let path = common::root().join("include/poker.h");
    if std::env::var_os("POKER_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/poker.h is stale: run `POKER_BLESS=1 cargo test --test header` and commit it"
    );
}

fn compiles(compiler: &str, std: &str, extension: &str) {
    let dir = common::scratch("header");
    let src = dir.join(format!("use_{std}.{extension}"));
    std::fs::write(
        &src,
        "#include \"poker.h\"\nint main(void) { void (*f)(void) = p_startgame; (void)f; return 0; }\n",
    )
    .unwrap();
    let output = Command::new(compiler)
        .args([
            &format!("-std={std}"),
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            "-fsyntax-only",
        ])
        .arg(format!("-I{}", common::root().join("include").display()))
        .arg(&src)
        .output()
        .expect("run the compiler");
    assert!(
        output.status.success(),
        "{compiler} -std={std} rejects poker.h:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn header_compiles_as_c89() {
    compiles("cc", "c89", "c");
}

#[test]
fn header_compiles_as_c99() {
    compiles("cc", "c99", "c");
}

#[test]
fn header_compiles_as_cpp() {
    compiles("c++", "c++98", "cpp");
    compiles("c++", "c++17", "cpp");
}
