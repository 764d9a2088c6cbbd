//! Practice mode's commands for a contestant: how to build and run it by
//! hand with this installation's header, unit, module and library.

use super::{Contestant, Toolchain};
use std::fs;
use std::path::Path;

impl Toolchain {
    /// Names `contestant` `name` (a display name that tells it apart from
    /// the others of an evaluation) and fills in its practice-mode
    /// commands again, so that each builds a program of its own name.
    pub fn rename(&self, contestant: &mut Contestant, name: String) {
        contestant.name = name;
        contestant.practice_build.clear();
        contestant.practice_run.clear();
        contestant.practice_env.clear();
        self.practice(contestant);
    }

    /// Fills in `contestant`'s practice-mode commands: its compile command
    /// with its own source, an output named after it in the current folder
    /// (`./greedy`; `./mine_c` and `./mine_cpp` for contestants named
    /// `mine.c` and `mine.cpp`, never the source's own name), and the
    /// header of this installation; or how to run it.
    pub(super) fn practice(&self, contestant: &mut Contestant) {
        let source = as_argument(&contestant.source);
        let output = format!("./{}", contestant.name.replace(['/', '.'], "_"));
        let scratch = self.work_dir.display().to_string();
        let header = self.installed("include", "poker.h");
        let unit = self.installed("bindings/pascal", "poker.pas");
        let module = self.installed("bindings/python", "libpoker.py");
        if let Some((compiler, args)) = contestant.compile_command.split_first() {
            let name = Path::new(compiler)
                .file_name()
                .map_or(compiler.clone(), |n| n.to_string_lossy().into_owned());
            let mut build = vec![name];
            for arg in args {
                let arg = if arg.starts_with(&scratch) && arg.ends_with("/contestant") {
                    output.clone()
                } else if arg
                    .strip_prefix("-o")
                    .is_some_and(|r| r.starts_with(&scratch))
                {
                    format!("-o{output}")
                } else if arg.starts_with(&scratch) && arg.contains("/contestant.") {
                    source.clone()
                } else if arg == &format!("-I{scratch}/include") {
                    format!("-I{header}")
                } else if arg == &format!("-Fu{scratch}/pascal") {
                    format!("-Fu{unit}")
                } else if arg.starts_with(&format!("-FU{scratch}")) {
                    // The unit's compiled files go beside the program, not
                    // into the (perhaps installed) unit's folder.
                    "-FU.".to_string()
                } else {
                    arg.clone()
                };
                build.push(arg);
            }
            contestant.practice_build = build;
            contestant.practice_run = vec![output];
        } else if source.ends_with(".py") {
            contestant.practice_env = vec![
                ("LIBPOKER".into(), self.libpoker().display().to_string()),
                ("PYTHONPATH".into(), module),
            ];
            contestant.practice_run = vec!["python3".into(), source];
        } else {
            contestant.practice_run = vec![source];
        }
    }

    /// The folder of this installation's copy of `file` (the source tree's
    /// `tree_dir` or the installed prefix), found from the library folder;
    /// `tree_dir` itself when neither holds it.
    fn installed(&self, tree_dir: &str, file: &str) -> String {
        let installed = match tree_dir {
            "include" => "include",
            "bindings/pascal" => "share/libpoker/pascal",
            _ => "share/libpoker/python",
        };
        // Inside the Python wheel's package, beside libpoker.so:
        // include/poker.h, pascal/poker.pas, and the package itself, which is
        // the module (its folder's parent goes on PYTHONPATH).
        let in_wheel = match tree_dir {
            "include" => "include",
            "bindings/pascal" => "pascal",
            _ => "..",
        };
        let file = match tree_dir {
            "bindings/python" if self.lib_dir.join("__init__.py").is_file() => {
                "libpoker/__init__.py"
            }
            _ => file,
        };
        let lib = &self.lib_dir;
        [
            lib.join("../..").join(tree_dir),
            lib.join("../../..").join(tree_dir),
            lib.join("..").join(installed),
            lib.join(in_wheel),
        ]
        .into_iter()
        .find(|dir| dir.join(file).is_file())
        .and_then(|dir| fs::canonicalize(dir).ok())
        .map_or(tree_dir.to_string(), |dir| dir.display().to_string())
    }
}

/// `path` as a command or argument that names that file: `./` before a
/// relative path that would otherwise be looked up on `PATH` (no `/`) or
/// read as an option (a leading `-`).
fn as_argument(path: &Path) -> String {
    let shown = path.display().to_string();
    if path.is_relative() && (!shown.contains('/') || shown.starts_with('-')) {
        format!("./{shown}")
    } else {
        shown
    }
}
