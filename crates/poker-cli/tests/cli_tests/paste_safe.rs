//! The commands reports print, pasted as a person pastes them: contestants
//! whose file names hold quotes, `$(…)`, backticks, `;`, newlines,
//! backslashes, spaces, a leading `-` and Unicode format characters. Every
//! compile and replay line of the text, HTML and JSON reports, run by
//! `bash -c` in an empty folder where a recording stub stands in for the
//! contestant (and the compiler, and python3), gives the stub exactly the
//! arguments and environment the README's commands say, and runs nothing
//! else. Also: such characters are shown escaped in names and stderr.

use crate::common;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Records its arguments and environment, NUL-separated, into `argv.rec`
/// and `env.rec` in the current folder.
const STUB: &str = r#"#include <stdio.h>
int main(int argc, char **argv, char **envp) {
    FILE *a = fopen("argv.rec", "wb"), *e = fopen("env.rec", "wb");
    int i;
    if (!a || !e) return 99;
    for (i = 0; i < argc; i++) fwrite(argv[i], 1, strlen(argv[i]) + 1, a);
    for (i = 0; envp[i]; i++) fwrite(envp[i], 1, strlen(envp[i]) + 1, e);
    return fclose(a) || fclose(e);
}
"#;

/// The worked example's deck, in the canonical spelling the audit uses.
const DECK: &str = "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH";

/// C sources named as a hostile contestant would.
const C_NAMES: &[&str] = &[
    "x'$(touch PWNED)'y.c",
    "tick`touch PWNED`.c",
    "semi;touch PWNED;.c",
    "new\nline.c",
    "back\\slash\\.c",
    "two  spaces\t.c",
    "-dash.c",
    "bidi\u{202e}c.c",
    "zw\u{200b}\u{2066}iso\u{2069}.c",
    "\"dq $HOME\" !x.c",
];
/// A Python contestant (its line sets LIBPOKER and PYTHONPATH).
const PY_NAME: &str = "py'$(touch PWNED)'\u{202e}.py";
/// An executable given as it is, which writes a bidi override to stderr.
const EXE_NAME: &str = "-run;$(touch PWNED)";

/// One line to paste and what the stub must receive.
struct Expected {
    line: String,
    /// The stub's file name (in the folder, or on PATH when no `/`).
    stub: String,
    argv: Vec<String>,
    env: BTreeMap<String, String>,
}

fn expect(
    line: &str,
    (argv, stub): (Vec<String>, String),
    env: BTreeMap<String, String>,
) -> Expected {
    Expected {
        line: line.to_string(),
        stub,
        argv,
        env,
    }
}

fn compile_stub(dir: &Path) -> PathBuf {
    let src = dir.join("stub.c");
    std::fs::write(&src, format!("#include <string.h>\n{STUB}")).unwrap();
    let exe = dir.join("stub");
    let out = Command::new("cc")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    exe
}

/// Runs `line` with `bash -c` in a fresh empty folder holding only the stub
/// (at `expected.stub` when it is a path there), with a PATH of `bin`
/// first; checks what the stub recorded and that nothing else happened.
fn paste(root: &Path, n: usize, stub: &Path, bin: &Path, expected: &Expected) {
    let dir = root.join(format!("paste_{n}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut placed = vec!["argv.rec".to_string(), "env.rec".to_string()];
    if let Some(file) = expected.stub.strip_prefix("./") {
        std::fs::copy(stub, dir.join(file)).unwrap();
        placed.push(file.to_string());
    }
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let out = Command::new("bash")
        .arg("-c")
        .arg(&expected.line)
        .current_dir(&dir)
        .env_clear()
        .env("PATH", &path)
        .output()
        .unwrap();
    let line = &expected.line;
    assert!(out.status.success(), "{line:?}: {}", common::stderr(&out));
    let read = |file: &str| -> Vec<String> {
        let bytes = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        bytes
            .split(|b| *b == 0)
            .filter(|w| !w.is_empty())
            .map(|w| String::from_utf8(w.to_vec()).unwrap())
            .collect()
    };
    assert_eq!(read("argv.rec"), expected.argv, "{line:?}");
    // bash's own additions aside, the stub's environment is PATH and the
    // line's settings.
    let env: BTreeMap<String, String> = read("env.rec")
        .iter()
        .filter_map(|kv| kv.split_once('='))
        .filter(|(k, _)| !["PWD", "OLDPWD", "SHLVL", "_"].contains(k))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut wanted = expected.env.clone();
    wanted.insert("PATH".into(), path);
    assert_eq!(env, wanted, "{line:?}");
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    found.sort();
    placed.sort();
    assert_eq!(found, placed, "{line:?} left other files");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `text` with HTML's character references resolved (what a browser
/// shows, so what a reader copies).
fn html_text(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let end = rest[at..].find(';').expect("a reference ends with ;") + at;
        let name = &rest[at + 1..end];
        let c = match name {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let hex = name.strip_prefix("#x").or_else(|| name.strip_prefix("#X"));
                let code = match hex {
                    Some(h) => u32::from_str_radix(h, 16),
                    None => name.strip_prefix('#').expect(name).parse(),
                };
                char::from_u32(code.expect(name)).unwrap()
            }
        };
        out.push(c);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The contents of every `<open>…</close>` in `page`, in order.
fn between(page: &str, open: &str, close: &str) -> Vec<String> {
    page.split(open)
        .skip(1)
        .map(|part| part.split(close).next().unwrap().to_string())
        .collect()
}

fn stem(file: &str) -> &str {
    file.rsplit_once('.').map_or(file, |(s, _)| s)
}

/// Format characters used in the names above (Unicode category Cf).
const FORMAT: &[char] = &['\u{202e}', '\u{200b}', '\u{2066}', '\u{2069}'];

#[test]
fn every_compile_and_replay_line_pastes_into_bash_as_exactly_its_command() {
    let root = common::scratch("paste_safe");
    let _ = std::fs::remove_dir_all(&root);
    let sources = root.join("contestants");
    let bin = root.join("bin");
    std::fs::create_dir_all(&sources).unwrap();
    std::fs::create_dir_all(&bin).unwrap();
    let stub = compile_stub(&root);
    let roundrobin = common::root().join("c_examples/roundrobin.c");
    for name in C_NAMES {
        std::fs::copy(&roundrobin, sources.join(name)).unwrap();
    }
    std::fs::write(sources.join(PY_NAME), "import libpoker\n").unwrap();
    std::fs::write(
        sources.join(EXE_NAME),
        "#!/bin/sh\nprintf 'evil \\342\\200\\256txt.exe\\n' >&2\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        sources.join(EXE_NAME),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let decks = root.join("decks.txt");
    std::fs::write(&decks, format!("{DECK}\n")).unwrap();
    let lib = std::fs::canonicalize(common::lib_dir()).unwrap();
    let names: Vec<&str> = C_NAMES.iter().copied().chain([PY_NAME, EXE_NAME]).collect();
    let html = root.join("report.html");
    let eval = |extra: &[&str]| {
        let out = common::poker()
            .args(["eval", "--sandbox", "off", "--quiet", "--lib-dir"])
            .arg(&lib)
            .arg("--decks")
            .arg(&decks)
            .args(extra)
            .arg("--")
            .args(&names)
            .current_dir(&sources)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", common::stderr(&out));
        common::stdout(&out)
    };
    // One run for the JSON and HTML reports (the HTML's "as run" commands
    // are checked against the JSON's), one for the text.
    let json: Value =
        serde_json::from_str(&eval(&["--json", "--html", html.to_str().unwrap()])).unwrap();
    let text = eval(&[]);
    let page = std::fs::read_to_string(&html).unwrap();

    // What the README's commands say each line runs.
    let compiler = json["audit"]["compile"][0]["command"][0]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    std::fs::copy(&stub, bin.join(&compiler)).unwrap();
    std::fs::copy(&stub, bin.join("python3")).unwrap();
    let include = std::fs::canonicalize(common::root().join("include")).unwrap();
    let module = std::fs::canonicalize(common::root().join("bindings/python")).unwrap();
    let deck_env = |extra: &[(&str, String)]| {
        let mut env = BTreeMap::from([("POKER_DECK".to_string(), DECK.to_string())]);
        env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
        env
    };
    let compile_of = |file: &str| -> (Vec<String>, String) {
        let argv = [
            compiler.clone(),
            "-O2".into(),
            "-o".into(),
            format!("./{}", stem(file)),
            format!("./{file}"),
            format!("-I{}", include.display()),
            format!("-L{}", lib.display()),
            "-lpoker".into(),
            "-Wl,--disable-new-dtags".into(),
            format!("-Wl,-rpath,{}", lib.display()),
            "-lm".into(),
        ];
        (argv.to_vec(), compiler.clone())
    };
    let run_of = |file: &str| -> (Vec<String>, String, BTreeMap<String, String>) {
        if file == PY_NAME {
            let env = deck_env(&[
                ("LIBPOKER", lib.join("libpoker.so").display().to_string()),
                ("PYTHONPATH", module.display().to_string()),
            ]);
            (
                vec!["python3".into(), format!("./{file}")],
                "python3".into(),
                env,
            )
        } else {
            let program = match file.ends_with(".c") {
                true => format!("./{}", stem(file)),
                false => format!("./{file}"),
            };
            (vec![program.clone()], program, deck_env(&[]))
        }
    };

    let mut lines = Vec::new();
    // JSON: every compile line and every game's commands.
    let c_files: Vec<&str> = C_NAMES.to_vec();
    for (record, file) in json["audit"]["compile"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&c_files)
    {
        lines.push(expect(
            record["practice"].as_str().unwrap(),
            compile_of(file),
            BTreeMap::new(),
        ));
    }
    for (replay, file) in json["audit"]["replay"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&names)
    {
        let commands = replay["commands"].as_array().unwrap();
        let (argv, stub, env) = run_of(file);
        if file.ends_with(".c") {
            lines.push(expect(
                commands[0].as_str().unwrap(),
                compile_of(file),
                BTreeMap::new(),
            ));
        }
        lines.push(expect(
            commands.last().unwrap().as_str().unwrap(),
            (argv, stub),
            env,
        ));
    }
    let from_json = lines.len();
    assert_eq!(from_json, 2 * C_NAMES.len() + C_NAMES.len() + 2);
    // Text: the compile lines and each contestant's first replay.
    let compile_lines: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(" compile command: ").map(|(_, c)| c))
        .collect();
    assert_eq!(compile_lines.len(), C_NAMES.len(), "{text}");
    for (line, file) in compile_lines.iter().zip(&c_files) {
        lines.push(expect(line, compile_of(file), BTreeMap::new()));
    }
    let replay_lines: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(" replays deck 1: ").map(|(_, c)| c))
        .collect();
    assert_eq!(replay_lines.len(), names.len(), "{text}");
    for (line, file) in replay_lines.iter().zip(&names) {
        let (argv, stub, env) = run_of(file);
        lines.push(expect(line, (argv, stub), env));
    }
    // HTML: the text of every replay block and compile command.
    let replays = between(&page, "<pre class=\"replay\">", "</pre>");
    let mut replays = replays.iter().map(|r| html_text(r));
    for file in &names {
        let (argv, stub, env) = run_of(file);
        if file.ends_with(".c") {
            lines.push(expect(
                &replays.next().unwrap(),
                compile_of(file),
                BTreeMap::new(),
            ));
        }
        lines.push(expect(&replays.next().unwrap(), (argv, stub), env));
    }
    assert!(replays.next().is_none());
    let practice = between(&page, "compile command <code>", "</code>");
    assert_eq!(practice.len(), C_NAMES.len());
    for (line, file) in practice.iter().zip(&c_files) {
        lines.push(expect(&html_text(line), compile_of(file), BTreeMap::new()));
    }
    for (n, expected) in lines.iter().enumerate() {
        assert!(!expected.line.contains('\n'), "{:?}", expected.line);
        paste(&root, n, &stub, &bin, expected);
    }
    // The HTML's "as run" commands name the evaluator's own (gone) build
    // folder: pasted as the arguments of the stub, each gives back the
    // command as run (the JSON's argument vector).
    let as_run = between(&page, "(as run: <code>", "</code>");
    assert_eq!(as_run.len(), C_NAMES.len());
    for (n, (line, record)) in as_run
        .iter()
        .zip(json["audit"]["compile"].as_array().unwrap())
        .enumerate()
    {
        let mut argv = vec![stub.display().to_string()];
        argv.extend(
            record["command"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string()),
        );
        let expected = Expected {
            line: format!("{} {}", stub.display(), html_text(line)),
            stub: stub.display().to_string(),
            argv,
            env: BTreeMap::new(),
        };
        paste(&root, 1000 + n, &stub, &bin, &expected);
    }

    // Names and stderr: format characters shown escaped, never raw.
    for report in [&text, &page] {
        assert!(!report.contains(FORMAT), "a raw format character");
        assert!(report.contains("bidi\\u{202e}c"), "{report}");
        assert!(report.contains("zw\\u{200b}\\u{2066}iso\\u{2069}"));
        assert!(report.contains("evil \\u{202e}txt.exe"), "{report}");
    }
    let leftovers: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .chain(std::fs::read_dir(&sources).unwrap())
        .map(|e| e.unwrap().file_name())
        .filter(|n| n == "PWNED")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
