//! Contestants' display names: the shortest name that tells each apart.

use std::path::{Path, PathBuf};

/// The display name of each path, in order: its file stem (`greedy`) when
/// no other path shares it, else its file name (`greedy.c` beside
/// `greedy.pas`), else as many trailing folders as tell it apart
/// (`a/greedy.c` beside `b/greedy.c`), else the path as given.
pub fn shortest_unique(paths: &[PathBuf]) -> Vec<String> {
    let levels: Vec<Vec<String>> = paths.iter().map(|p| candidates(p)).collect();
    let mut names: Vec<String> = levels
        .iter()
        .enumerate()
        .map(|(i, own)| {
            own.iter()
                .enumerate()
                .find(|(level, name)| {
                    levels
                        .iter()
                        .enumerate()
                        .all(|(j, other)| j == i || other.get(*level) != Some(name))
                })
                .map_or_else(|| paths[i].display().to_string(), |(_, name)| name.clone())
        })
        .collect();
    // Names chosen at different levels may still meet (a file `x.c` and a
    // program `x.c.c`): those fall back to their paths.
    let chosen = names.clone();
    for (i, name) in names.iter_mut().enumerate() {
        if chosen.iter().filter(|n| *n == name).count() > 1 {
            *name = paths[i].display().to_string();
        }
    }
    names
}

/// Names of `path` from shortest to longest: stem, file name, then the
/// file name with 1, 2, ... of its folders.
fn candidates(path: &Path) -> Vec<String> {
    let text = |p: &Path| p.display().to_string();
    let mut names = vec![
        path.file_stem()
            .map_or_else(|| text(path), |s| s.to_string_lossy().into_owned()),
    ];
    let parts: Vec<_> = path.components().collect();
    for keep in 1..=parts.len() {
        let tail: PathBuf = parts[parts.len() - keep..].iter().collect();
        names.push(text(&tail));
    }
    names
}

#[cfg(test)]
mod tests {
    use super::shortest_unique;
    use std::path::PathBuf;

    fn names(paths: &[&str]) -> Vec<String> {
        shortest_unique(&paths.iter().map(PathBuf::from).collect::<Vec<_>>())
    }

    #[test]
    fn distinct_stems_stay_stems() {
        assert_eq!(
            names(&["c/greedy.c", "c/roundrobin.c"]),
            ["greedy", "roundrobin"]
        );
    }

    #[test]
    fn a_shared_stem_gives_file_names() {
        assert_eq!(
            names(&[
                "/x/c/greedy.c",
                "/x/pascal/greedy.pas",
                "/x/python/greedy.py",
                "/x/c/rollouts.c"
            ]),
            ["greedy.c", "greedy.pas", "greedy.py", "rollouts"]
        );
    }

    #[test]
    fn a_shared_file_name_gives_its_folder() {
        assert_eq!(
            names(&["/home/a/greedy.c", "/home/b/greedy.c", "/home/b/greedy.py"]),
            ["a/greedy.c", "b/greedy.c", "greedy.py"]
        );
    }

    #[test]
    fn the_same_path_twice_keeps_the_path() {
        assert_eq!(names(&["greedy.c", "greedy.c"]), ["greedy.c", "greedy.c"]);
    }
}
