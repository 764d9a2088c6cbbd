#!/usr/bin/env bash
# What a game costs through `poker bench`, with the fork server (the default)
# and with a fresh process per game (--fresh-processes), for the C, Pascal and
# Python greedy examples, one job, sandbox on or off; and the evaluator's own
# peak memory as the number of games grows (the statistics stream).
#
#   benches/fork_server.sh [SANDBOX] [FORK_GAMES] [FRESH_GAMES]
#
# SANDBOX is on (default) or off; off has no fork server (it needs the
# sandbox's cgroup), so both columns are then fresh processes. Both modes run in the same invocation, one
# after the other: on a shared machine compare their ratio, not the figures.
# Needs `cargo build --release` first; as root for cgroups in the sandbox.
set -euo pipefail
cd "$(dirname "$0")/.."
sandbox=${1:-on}
fork_games=${2:-2000}
fresh_games=${3:-200}
poker=target/release/poker
per_game() { # CONTESTANT GAMES [FLAGS...] -> ms per game: the games' wall clock (not the compilation)
    local contestant=$1 games=$2; shift 2
    "$poker" bench "$contestant" --games "$games" --jobs 1 --quiet --json --sandbox "$sandbox" "$@" \
        | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["failed"] == 0, d; print("%.2f" % (d["wall_seconds"] * 1000 / d["games"]))'
}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); sandbox $sandbox; ms per game, wall clock of all games"
printf '%-28s %10s %10s %8s\n' contestant fork-server fresh ratio
for contestant in c_examples/greedy.c pascal_examples/greedy.pas python_examples/greedy.py; do
    fork=$(per_game "$contestant" "$fork_games")
    fresh=$(per_game "$contestant" "$fresh_games" --fresh-processes)
    printf '%-28s %10s %10s %8s\n' "$contestant" "$fork" "$fresh" \
        "$(python3 -c "print(f'{$fresh / $fork:.1f}x')")"
done
echo "evaluator peak memory (max RSS, KiB) by games played, fork server, sandbox $sandbox:"
for games in 1000 10000 ${PEAK_GAMES:-}; do
    rss=$( { /usr/bin/time -f '%M' "$poker" bench c_examples/greedy.c --games "$games" --jobs 1 \
        --quiet --json --sandbox "$sandbox" >/dev/null; } 2>&1 | tail -1)
    echo "  $games games: $rss"
done
