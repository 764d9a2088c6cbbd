//! What a cgroup is made for: one game, or a fork server and its games.

use crate::limits::Limits;

/// What a cgroup is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CgroupShape {
    /// One game in a fresh process.
    Game,
    /// A fork server's jail: the memory limit and the process limit (one
    /// more, for the server whose place each game's child takes) hold for
    /// the server and all its games together. On v2 a folder with a
    /// `server/` leaf for the server's processes beside `game-N/` leaves;
    /// on v1 the server's folders, with its games' `memory` and `pids`
    /// folders inside them (`memory.use_hierarchy` on).
    ForkServer,
}

impl CgroupShape {
    /// The limits of the cgroup's own folder for a game's `limits`.
    pub(super) fn own_limits(self, limits: &Limits) -> Limits {
        match self {
            CgroupShape::Game => limits.clone(),
            CgroupShape::ForkServer => Limits {
                processes: limits.processes.saturating_add(1),
                ..limits.clone()
            },
        }
    }
}
