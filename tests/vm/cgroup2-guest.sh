#!/usr/bin/env bash
# Run by tests/vm/cgroup2.sh inside the guest, as root: the sandbox's
# checks on cgroup v2. Arguments: the repository, the sandbox test program,
# the folder shared back with the host (results, guest.log).
set -uo pipefail
repo=$1 sandbox_test=$2 out=$3
cd "$repo" || exit 1
export CI=true
exec > >(tee "$out/guest.log") 2>&1
poker=$repo/target/release/poker
failed=0
pass() { echo "guest: ok: $*"; }
no() { echo "guest: FAILED: $*"; failed=1; }
t0=$(date +%s)
stamp() { echo "guest: [$(( $(date +%s) - t0 )) s] $*"; }

# The machine is what an organiser's systemd host is: cgroup v2 only.
root=/sys/fs/cgroup
if grep -q " $root cgroup2 " /proc/mounts && ! grep -q " cgroup " /proc/mounts; then
    pass "cgroup v2 only, offering: $(cat $root/cgroup.controllers)"
else
    no "not a cgroup v2 only machine: $(grep cgroup /proc/mounts | tr '\n' ';')"
fi
grep -qw memory $root/cgroup.controllers && grep -qw pids $root/cgroup.controllers \
    || no "the root cgroup offers no memory and pids controllers"

# The limit tests of crates/poker-judge/tests/judge_tests/sandbox.rs (not
# the attack suite: a game takes
# seconds under emulation).
stamp "sandbox limit tests"
"$sandbox_test" --test-threads=1 --exact \
    sandbox::the_cgroup_version_is_the_one_the_machine_offers \
    sandbox::limits_are_enforced_by_a_cgroup_here \
    sandbox::memory_past_the_limit_is_oom_killed \
    sandbox::fork_stops_at_the_process_limit_with_eagain \
    sandbox::busy_loop_dies_of_sigxcpu_at_the_rlimit_backstop \
    sandbox::dropping_the_jail_kills_the_game_and_removes_its_cgroup \
    > "$out/sandbox-tests.txt" 2>&1
if grep -q "^test result: ok. 6 passed" "$out/sandbox-tests.txt"; then
    pass "the 6 limit tests of crates/poker-judge/tests/judge_tests/sandbox.rs"
else
    cat "$out/sandbox-tests.txt"; no "the limit tests of crates/poker-judge/tests/judge_tests/sandbox.rs"
fi

# poker eval with the automatic cgroup (<root>/poker-sandbox).
stamp "poker eval, automatic cgroup"
if "$poker" eval --json --quiet --sandbox on --cpu-limit 30 \
    c_examples/greedy.c c_examples/roundrobin.c > "$out/guest-auto.json" 2> "$out/guest-auto.err"; then
    pass "poker eval with the automatic cgroup"
else
    cat "$out/guest-auto.err"; no "poker eval with the automatic cgroup"
fi
[ -s "$out/guest-auto.err" ] && { cat "$out/guest-auto.err"; no "poker eval printed warnings or errors"; }
left=$(find $root/poker-sandbox -mindepth 1 -type d 2>/dev/null)
[ -z "$left" ] && pass "no game cgroup left in $root/poker-sandbox" || no "game cgroups left: $left"

# The same through fork servers: each server's jail is frozen with
# cgroup.freeze while its child plays in a cgroup of its own.
stamp "poker eval --fork-server, automatic cgroup"
if "$poker" eval --fork-server --json --quiet --sandbox on --cpu-limit 30 \
    c_examples/greedy.c c_examples/roundrobin.c > "$out/guest-fork.json" 2> "$out/guest-fork.err"; then
    pass "poker eval --fork-server with the automatic cgroup"
else
    cat "$out/guest-fork.err"; no "poker eval --fork-server with the automatic cgroup"
fi
[ -s "$out/guest-fork.err" ] && { cat "$out/guest-fork.err"; no "poker eval --fork-server printed warnings or errors"; }
left=$(find $root/poker-sandbox -mindepth 1 -type d 2>/dev/null)
[ -z "$left" ] && pass "no game or server cgroup left in $root/poker-sandbox" || no "cgroups left: $left"

# A /tmp hoard through a fork server: its jail is a folder with server/
# and game-N/ leaves, the memory limit on the folder; the server is given
# up after its first game (its shared page and /tmp file could carry the
# hoard on), and the rest are played fresh.
stamp "poker eval --fork-server, a /tmp hoard"
if "$poker" eval --fork-server --json --quiet --sandbox on --cpu-limit 30 --memory-limit 64M \
    tests/contestants/hostile/tmp_hoard.c > "$out/guest-hoard.json" 2> "$out/guest-hoard.err"; then
    pass "poker eval --fork-server with a /tmp hoard"
else
    cat "$out/guest-hoard.err"; no "poker eval --fork-server with a /tmp hoard"
fi
left=$(find $root/poker-sandbox -mindepth 1 -type d 2>/dev/null)
[ -z "$left" ] && pass "no game or server cgroup left after the hoard" || no "cgroups left: $left"

# poker eval in a delegated folder made as `systemd-run --scope -p
# Delegate=yes` makes it: owned by root, memory and pids enabled in its
# parent, the evaluator started alone inside it.
stamp "poker eval, delegated cgroup"
base=$root/system.slice/poker-eval.scope
echo "+memory +pids" > $root/cgroup.subtree_control
mkdir -p $root/system.slice
echo "+memory +pids" > $root/system.slice/cgroup.subtree_control
mkdir -p $base
if sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$base" \
    env POKER_SANDBOX_CGROUP=$base "$poker" eval --json --quiet --sandbox on --cpu-limit 30 \
    --memory-limit 64M --decks "$out/decks3.txt" c_examples/greedy.c \
    tests/contestants/hostile/fork_bomb.c tests/contestants/hostile/memory_hog.c \
    > "$out/guest-delegated.json" 2> "$out/guest-delegated.err"; then
    pass "poker eval in the delegated folder"
else
    cat "$out/guest-delegated.err"; no "poker eval in the delegated folder"
fi
[ -s "$out/guest-delegated.err" ] && { cat "$out/guest-delegated.err"; no "poker eval printed warnings or errors"; }
children=$(cd $base && find . -mindepth 1 -maxdepth 1 -type d | sort | tr '\n' ' ')
[ "$children" = "./supervisor " ] && pass "the delegated folder holds only supervisor/ afterwards" \
    || no "the delegated folder holds: $children"
[ -z "$(cat $base/supervisor/cgroup.procs)" ] && [ -z "$(cat $base/cgroup.procs)" ] \
    && pass "no process left in the delegated folder" || no "processes left in $base"
grep -qw memory $base/cgroup.subtree_control && grep -qw pids $base/cgroup.subtree_control \
    && pass "memory and pids enabled for the games in the delegated folder" \
    || no "the delegated folder's subtree_control: $(cat $base/cgroup.subtree_control)"

# A named cgroup that cannot be used is an error saying why.
stamp "unusable cgroups"
msg=$(POKER_SANDBOX_CGROUP=$root/no-such-folder "$poker" eval --quiet --sandbox on c_examples/greedy.c 2>&1 >/dev/null)
rc=$?
[ $rc -ne 0 ] && echo "$msg" | grep -q "POKER_SANDBOX_CGROUP=$root/no-such-folder: no such folder" \
    && pass "a missing named folder is an error: $msg" || no "a missing named folder gave exit $rc: $msg"
mkdir -p $root/busy.scope
sleep 600 & sleeper=$!
echo $sleeper > $root/busy.scope/cgroup.procs
msg=$(sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh $root/busy.scope \
    env POKER_SANDBOX_CGROUP=$root/busy.scope "$poker" eval --quiet --sandbox on c_examples/greedy.c 2>&1 >/dev/null)
rc=$?
kill $sleeper
[ $rc -ne 0 ] && echo "$msg" | grep -q "processes other than this evaluator live in it (pids $sleeper)" \
    && pass "a named folder shared with another process is an error: $msg" || no "a shared named folder gave exit $rc: $msg"

# An automatic fallback is one warning line, and the limits record it: a
# user other than root cannot write any cgroup.
# The other user runs copies in a folder anyone may read: the repository
# may sit in one only root can enter (as `mktemp -d` makes them).
stamp "automatic fallback"
kit=$(mktemp -d) && chmod 755 "$kit"
cp "$poker" "$repo/target/release/libpoker.so" "$repo/c_examples/greedy.c" "$kit/"
msg=$(cd /tmp && setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$kit/poker" eval --quiet --json --sandbox on --cpu-limit 30 "$kit/greedy.c" 2>&1 >"$out/guest-fallback.json")
rc=$?
lines=$(echo "$msg" | grep -c "warning")
[ $rc -eq 0 ] && [ "$lines" -eq 1 ] && echo "$msg" | grep -q "no cgroup for the games" \
    && pass "the fallback is one warning line: $msg" || no "fallback: exit $rc, stderr: $msg"
grep -q '"name":"memory","value":268435456,"unit":"bytes","enforcement":{"kind":"rlimit_fallback","scope":"process","reason":"' "$out/guest-fallback.json" \
    && pass "the JSON records the fallback" || no "the JSON does not record the fallback: $(head -c 600 "$out/guest-fallback.json")"

stamp "done"
if [ $failed -eq 0 ]; then echo "guest: all checks passed"; else echo "guest: some checks failed"; fi
exit $failed
