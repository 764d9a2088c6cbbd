#!/usr/bin/env bash
# The sandbox on cgroup v2, in a virtual machine: boots Debian 12's kernel
# (cgroup v2 only, with the memory and pids controllers) under QEMU's
# software emulation with virtme-ng, which shares this machine's root
# read-only, and runs there the sandbox's limit tests, `poker eval` with
# the automatic cgroup and with a delegated one (made as systemd makes it),
# and the refusal of an unusable one; then compares the guest's scores with
# this machine's, deck for deck.
#
# Run alone as root on Debian 12 (amd64), after `cargo build --release`:
#   bash tests/vm/cgroup2.sh
# It fetches what it needs with `apt-get download` (pinned versions,
# unpacked with dpkg -x into target/vm-cgroup2/, nothing installed) and
# virtme-ng from PyPI into a venv there; later runs reuse them.
# A missing tool or package is a failure, never a skip.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
cache=$repo/target/vm-cgroup2
start=$(date +%s)

fail() { echo "vm-cgroup2: FAILED: $*" >&2; exit 1; }
say() { echo "vm-cgroup2: $*" >&2; }

# Pinned: Debian 12's kernel, QEMU 7.2 and the libraries a Debian 12 machine
# lacks for it, seabios' firmware, kmod (virtme-ng's depmod and modprobe),
# a static busybox for virtme-ng's initramfs.
KERNEL=6.1.0-50-amd64
PACKAGES=(
    "linux-image-$KERNEL=6.1.176-1"
    "qemu-system-x86=1:7.2+dfsg-7+deb12u18+b3"
    "qemu-system-common=1:7.2+dfsg-7+deb12u18+b3"
    "qemu-system-data=1:7.2+dfsg-7+deb12u18"
    "seabios=1.16.2-1"
    "libcapstone4=4.0.2-5" "libfdt1=1.6.1-4+b1" "libpmem1=1.12.1-2"
    "librdmacm1=44.0-2" "libibverbs1=44.0-2" "libslirp0=4.7.0-1"
    "libvdeplug2=4.0.1-4" "libndctl6=76.1-1" "libdaxctl1=76.1-1"
    "libnl-3-200=3.7.0-0.2+b1" "libnl-route-3-200=3.7.0-0.2+b1"
    "kmod=30+20221128-1"
    "busybox-static=1:1.35.0-4+deb12u1+b1"
)
VIRTME_NG=1.42

[ "$(id -u)" -eq 0 ] || fail "run as root: the guest runs the sandbox as root, as a contest host does"
mkdir -p "$cache"
exec 9>"$cache.lock"
flock -n 9 || fail "another run of this test is using $cache"
for tool in apt-get dpkg python3 cc file flock setpriv; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (Debian: apt-get install apt dpkg python3-venv gcc file)"
done
[ -x target/release/poker ] && [ -f target/release/libpoker.so ] \
    || fail "no target/release/poker: run cargo build --release first"

# --- What the guest needs, fetched once -------------------------------------
stamp=$cache/root/.unpacked-$(printf '%s\n' "${PACKAGES[@]}" | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
    t0=$(date +%s)
    rm -rf "$cache/debs" "$cache/root"
    mkdir -p "$cache/debs" "$cache/root"
    get() { (cd "$cache/debs" && apt-get -q -o APT::Sandbox::User=root download "${PACKAGES[@]}" >/dev/null); }
    get || { apt-get update -qq && get; } \
        || fail "apt-get download of the pinned packages failed: ${PACKAGES[*]}"
    for deb in "$cache"/debs/*.deb; do dpkg -x "$deb" "$cache/root"; done
    say "fetched $(du -cb "$cache"/debs/*.deb | tail -1 | cut -f1 | numfmt --to=iec) of packages and unpacked them in $(( $(date +%s) - t0 )) s"
    rm -rf "$cache/debs"
    touch "$stamp"
fi
if ! "$cache/venv/bin/vng" --version 2>/dev/null | grep -q "$VIRTME_NG"; then
    t0=$(date +%s)
    rm -rf "$cache/venv"
    python3 -m venv "$cache/venv" || fail "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "$cache/venv/bin/pip" install -q "virtme-ng==$VIRTME_NG" || fail "pip install virtme-ng==$VIRTME_NG failed"
    say "installed virtme-ng $VIRTME_NG in $(( $(date +%s) - t0 )) s"
fi
# QEMU from its private folder: its libraries and firmware, not the system's.
mkdir -p "$cache/bin"
cat > "$cache/bin/qemu-system-x86_64" <<'WRAP'
#!/bin/sh
root=$(dirname "$(readlink -f "$0")")/../root
export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu"
exec "$root/usr/bin/qemu-system-x86_64" -L "$root/usr/share/qemu" -L "$root/usr/share/seabios" "$@"
WRAP
chmod +x "$cache/bin/qemu-system-x86_64"
ln -sf ../root/bin/kmod "$cache/bin/depmod"
ln -sf ../root/bin/kmod "$cache/bin/modprobe"
export PATH="$cache/bin:$cache/venv/bin:$PATH"
qemu-system-x86_64 --version | grep -q "version 7.2" || fail "the unpacked QEMU does not run: $(qemu-system-x86_64 --version 2>&1 | head -3)"
[ -f "$cache/root/boot/vmlinuz-$KERNEL" ] || fail "no kernel in $cache/root/boot"
[ -x "$cache/root/bin/busybox" ] || fail "no static busybox in $cache/root/bin"

# --- The programs the guest runs, built here --------------------------------
sandbox_test=$(cargo test --release -p poker-judge --test judge_tests --no-run 2>&1 \
    | sed -n 's/.*Executable tests\/judge_tests\/main.rs (\(.*\))$/\1/p' | tail -1)
[ -n "$sandbox_test" ] && [ -x "$sandbox_test" ] || fail "cannot build the sandbox tests"
sandbox_test=$(readlink -f "$sandbox_test")
out=$cache/out
rm -rf "$out" && mkdir -p "$out"
# Three of the built-in decks for the delegated run (hostile programs).
target/release/poker decks --seed 19940808 | grep -v '^#' | head -n 3 > "$out/decks3.txt"

# This machine's scores, for the comparison.
say "evaluating on this machine"
target/release/poker eval --json --quiet --sandbox on --cpu-limit 30 \
    c_examples/greedy.c c_examples/roundrobin.c > "$out/host.json" \
    || fail "poker eval on this machine failed"

# --- The guest ---------------------------------------------------------------
# udev would load every module matching the emulated hardware: slow under
# emulation and useless here.
blacklist=drm,drm_kms_helper,bochs,ttm,snd,soundcore,psmouse,serio_raw,evdev,floppy,parport,parport_pc,ppdev,pcspkr,joydev,button,i2c_piix4,intel_agp,intel_gtt,agpgart,ata_generic,ata_piix,libata,scsi_mod,sr_mod,cdrom,e1000,virtio_net,net_failover,failover
say "booting Debian's $KERNEL under QEMU (emulated: several minutes)"
t0=$(date +%s)
status=0
timeout 600 vng --run "$cache/root/boot/vmlinuz-$KERNEL" --disable-kvm \
    --memory 2G --cpus 2 --busybox "$cache/root/bin/busybox" \
    --rwdir "$out" --overlay-rwdir "$repo/target/tmp" \
    --append "module_blacklist=$blacklist" \
    --exec "bash $repo/tests/vm/cgroup2-guest.sh $repo $sandbox_test $out" \
    > "$out/console.txt" 2>&1 || status=$?
say "the guest ran for $(( $(date +%s) - t0 )) s (exit $status)"
[ -f "$out/guest.log" ] || { tail -40 "$out/console.txt" >&2; fail "the guest did not start the checks (console above)"; }
cat "$out/guest.log" >&2
guest_ok=yes
grep -qx "guest: all checks passed" "$out/guest.log" || guest_ok=no
for report in guest-auto guest-fork guest-hoard guest-delegated; do
    python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out/$report.json" 2>/dev/null \
        || fail "the guest wrote no $report.json (log above; console in $out/console.txt)"
done

# --- Guest against this machine ----------------------------------------------
compared=yes
python3 - "$out" <<'PY' || compared=no
import json, sys
out = sys.argv[1]
def load(name):
    with open(f"{out}/{name}") as f:
        return json.load(f)
def scores(report):
    return {c["name"]: [(t["deck"], t["score"], t["status"]) for t in c["tests"]]
            for c in report["contestants"]}
def enforcement(report):
    return {l["name"]: l["enforcement"] for l in report["limits"]}
host, auto, named = load("host.json"), load("guest-auto.json"), load("guest-delegated.json")
fork, hoard = load("guest-fork.json"), load("guest-hoard.json")
ok = True
def check(cond, what):
    global ok
    print(("ok: " if cond else "FAILED: ") + what, file=sys.stderr)
    ok &= bool(cond)
v2 = {"kind": "cgroup", "version": 2}
for name, report in [("automatic", auto), ("delegated", named)]:
    e = enforcement(report)
    check(e["memory"] == v2 and e["processes"] == v2, f"{name}: memory and processes enforced by cgroup v2: {e['memory']}, {e['processes']}")
check(scores(auto) == scores(host), "automatic: greedy and roundrobin score deck for deck as on this machine")
check(fork["mode"] == "fork-server" and scores(fork) == scores(host),
      "fork servers: greedy and roundrobin score deck for deck as fresh processes on this machine")
check(all(t.get("cpu_seconds") and t.get("peak_memory") for c in fork["contestants"] for t in c["tests"]),
      "fork servers: every game has its CPU time and peak memory from its own cgroup")
check(all(c.get("fork_server_fallback") is None for c in fork["contestants"]),
      f"fork servers: every game set up through its server (the child proven without SO_PEERPIDFD): {[c.get('fork_server_fallback') for c in fork['contestants']]}")
hoarded = [t["status"] for t in hoard["contestants"][0]["tests"]]
held = [int(l.split()[2]) for t in hoard["contestants"][0]["tests"]
        for l in t.get("stderr", "").splitlines() if l.startswith("hoard holds ")]
hoard_fallback = hoard["contestants"][0].get("fork_server_fallback") or ""
check("memory mapped shared" in hoard_fallback and set(hoarded) == {"ok"},
      f"/tmp hoard: the server given up after its first game ({hoard_fallback}), every game fits: {hoarded}")
check(held and max(held) == 0,
      f"/tmp hoard: no game finds what an earlier one held: {held}")
greedy_host = scores(host)["greedy"][:3]
check(scores(named)["greedy"] == greedy_host, f"delegated: greedy scores {greedy_host} as on this machine")
games = [t for c in auto["contestants"] for t in c["tests"]]
check(all(t.get("cpu_seconds") and t.get("peak_memory") for t in games),
      "automatic: every game has its CPU time and peak memory from the cgroup")
memory = [l["value"] for l in named["limits"] if l["name"] == "memory"]
check(memory == [64 << 20], f"delegated: --memory-limit 64M is {memory} bytes")
hogs = {c["name"]: c for c in named["contestants"]}
check([t["status"] for t in hogs["memory_hog"]["tests"]] == ["memory"] * 3,
      f"delegated: memory_hog stopped by the memory limit on every deck: {[t['status'] for t in hogs['memory_hog']['tests']]}")
for t in hogs["fork_bomb"]["tests"]:
    forks = [int(l.split()[1]) for l in t.get("stderr", "").splitlines() if l.startswith("forks: ")]
    check(forks and forks[0] <= 64, f"delegated: fork_bomb deck {t['deck']} held to the process limit: forks {forks}")
sys.exit(0 if ok else 1)
PY
[ $guest_ok = yes ] || fail "checks failed in the guest (log above; console in $out/console.txt)"
[ $compared = yes ] || fail "the guest's results differ from this machine's (above)"
say "passed in $(( $(date +%s) - start )) s"
