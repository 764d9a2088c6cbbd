//! Where games' cgroups are made: the cgroup mounts, the v2 folder
//! (`<cgroup2 mount>/poker-sandbox`, or the delegated folder the organiser
//! names), made ready once per process, and the v1 folder name.

use super::files::write_file;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The folder name under each hierarchy (v1) or under the v2 base that
/// holds the games' cgroups.
pub const CGROUP_PARENT: &str = "poker-sandbox";

/// The environment variable naming a delegated cgroup v2 folder to create
/// the games' cgroups in, instead of `<cgroup2 mount>/poker-sandbox` (for
/// systemd hosts, where the root cgroup belongs to systemd). A folder named
/// there that cannot be used is an error, never a silent fallback.
pub const CGROUP_ENV: &str = "POKER_SANDBOX_CGROUP";

/// Mount points of cgroup hierarchies: `(path, fstype, options)`, read
/// once: a cgroup is made for every game, and the mounts do not change
/// under a running evaluator.
pub(super) fn cgroup_mounts() -> &'static [(PathBuf, String, String)] {
    static MOUNTS: OnceLock<Vec<(PathBuf, String, String)>> = OnceLock::new();
    MOUNTS.get_or_init(read_cgroup_mounts)
}

fn read_cgroup_mounts() -> Vec<(PathBuf, String, String)> {
    let text = fs::read_to_string("/proc/self/mounts").unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let mut f = line.split(' ');
            let (_src, path, fstype, opts) = (f.next()?, f.next()?, f.next()?, f.next()?);
            (fstype == "cgroup" || fstype == "cgroup2").then(|| {
                (
                    PathBuf::from(path.replace("\\040", " ")),
                    fstype.to_owned(),
                    opts.to_owned(),
                )
            })
        })
        .collect()
}

/// The leaf folder, under a delegated `POKER_SANDBOX_CGROUP` folder, that
/// the evaluator moves itself into when it was started inside that folder
/// (as `systemd-run --scope -p Delegate=yes` does): cgroup v2 lets a folder
/// either hold processes or enable controllers for its children, not both.
pub const SUPERVISOR_LEAF: &str = "supervisor";

/// Whether `dir`'s `cgroup.subtree_control` lists both `memory` and `pids`.
fn delegates_memory_and_pids(dir: &Path) -> bool {
    fs::read_to_string(dir.join("cgroup.subtree_control")).is_ok_and(|t| {
        let on: Vec<&str> = t.split_whitespace().collect();
        on.contains(&"memory") && on.contains(&"pids")
    })
}

/// The folder named by `POKER_SANDBOX_CGROUP`, made ready for games'
/// cgroups: `memory` and `pids` enabled for its children, the evaluator
/// moved into `<folder>/supervisor` first when it lives in the folder.
/// Errors: why the folder cannot be used, as a sentence naming it.
fn prepare_named(base: &Path) -> Result<PathBuf, String> {
    let named = format!("{CGROUP_ENV}={}", base.display());
    if !base.is_dir() {
        return Err(format!("{named}: no such folder"));
    }
    let controllers = fs::read_to_string(base.join("cgroup.controllers"))
        .map_err(|_| format!("{named}: not a cgroup v2 folder (it has no cgroup.controllers)"))?;
    let offered: Vec<&str> = controllers.split_whitespace().collect();
    if !offered.contains(&"memory") || !offered.contains(&"pids") {
        return Err(format!(
            "{named}: its parent does not delegate the memory and pids controllers \
             (it offers: {}); enable them in the parent's cgroup.subtree_control",
            controllers.trim()
        ));
    }
    if delegates_memory_and_pids(base) {
        return Ok(base.to_owned());
    }
    let enable = || write_file(&base.join("cgroup.subtree_control"), "+memory +pids");
    match enable() {
        Ok(()) => return Ok(base.to_owned()),
        // EBUSY: processes live in the folder itself.
        Err(e) if e.kind() == io::ErrorKind::ResourceBusy => {}
        Err(e) => return Err(format!("{named}: {e}")),
    }
    let own = std::process::id().to_string();
    let others: Vec<String> = fs::read_to_string(base.join("cgroup.procs"))
        .unwrap_or_default()
        .lines()
        .filter(|pid| *pid != own)
        .map(str::to_owned)
        .collect();
    if !others.is_empty() {
        return Err(format!(
            "{named}: processes other than this evaluator live in it (pids {}), so it cannot \
             enable controllers for the games; start the evaluator alone in it",
            others.join(" ")
        ));
    }
    let leaf = base.join(SUPERVISOR_LEAF);
    let moved = match fs::create_dir(&leaf) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(e),
        _ => write_file(&leaf.join("cgroup.procs"), "0"),
    };
    moved
        .and_then(|()| enable())
        .map(|()| base.to_owned())
        .map_err(|e| format!("{named}: {e}"))
}

/// `<cgroup2 mount>/poker-sandbox`, made ready for games' cgroups, when
/// the cgroup2 hierarchy offers `memory` and `pids` and is writable.
fn prepare_automatic(mounts: &[(PathBuf, String, String)]) -> Result<PathBuf, String> {
    let Some((mount, _, _)) = mounts.iter().find(|(_, t, _)| t == "cgroup2") else {
        return Err("no cgroup2 mount".into());
    };
    let controllers = fs::read_to_string(mount.join("cgroup.controllers"))
        .map_err(|e| format!("{}: {e}", mount.display()))?;
    let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
    if !has("memory") || !has("pids") {
        return Err(format!(
            "{} offers no memory and pids controllers",
            mount.display()
        ));
    }
    if !delegates_memory_and_pids(mount) {
        write_file(&mount.join("cgroup.subtree_control"), "+memory +pids")
            .map_err(|e| e.to_string())?;
    }
    let base = mount.join(CGROUP_PARENT);
    match fs::create_dir(&base) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => {
            return Err(format!("cannot create {}: {e}", base.display()));
        }
        _ => {}
    }
    if !delegates_memory_and_pids(&base) {
        write_file(&base.join("cgroup.subtree_control"), "+memory +pids")
            .map_err(|e| e.to_string())?;
    }
    Ok(base)
}

/// The cgroup v2 folder games' cgroups are made in, prepared once per
/// process: `Ok(Ok(base))`; `Ok(Err(why))` when there is none here (then
/// cgroup v1 or rlimits stand in); `Err(why)` when `POKER_SANDBOX_CGROUP`
/// names a folder that cannot be used.
pub(super) fn v2_base() -> &'static Result<Result<PathBuf, String>, String> {
    static BASE: OnceLock<Result<Result<PathBuf, String>, String>> = OnceLock::new();
    BASE.get_or_init(|| match std::env::var_os(CGROUP_ENV) {
        Some(dir) => prepare_named(Path::new(&dir)).map(Ok),
        None => Ok(prepare_automatic(cgroup_mounts())),
    })
}
