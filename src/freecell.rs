//! Microsoft FreeCell deals by number (seed 000); see `../shared/spec/freecell.md`.
