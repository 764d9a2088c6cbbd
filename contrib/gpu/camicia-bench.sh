#!/usr/bin/env bash
# The GPU engine against the CPU engine on the same unit, in one run:
# builds poker with the GPU engine, runs `poker camicia search` on the same
# random deals with --engine gpu and --engine cpu (every core), checks that
# both wrote the same unit (apart from the engine's name and the timing),
# and prints deals per second for each, their ratio and the GPU's name.
#
#   contrib/gpu/camicia-bench.sh                 # 200,000,000 deals, seed 1
#   DEALS=2000000000 SEED=5 contrib/gpu/camicia-bench.sh
#
# On Mesa's lavapipe (Vulkan on the CPU) the GPU figure only proves that
# the engine runs: lavapipe is far slower than the CPU engine. Use a few
# million DEALS there.
set -euo pipefail
cd "$(dirname "$0")/../.."
deals=${DEALS:-200000000}
seed=${SEED:-1}
cargo build --release -p poker-cli --features gpu
poker=target/release/poker
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {
    local engine=$1
    "$poker" camicia search --engine "$engine" --count "$deals" --seed "$seed" \
        --quiet --json --output "$work/$engine.json" > "$work/$engine.out"
}
run gpu
run cpu

python3 - "$work" "$deals" <<'PY'
import json, sys
work, deals = sys.argv[1], int(sys.argv[2])

def summary(engine):
    lines = [json.loads(l) for l in open(f"{work}/{engine}.out")]
    return next(l for l in lines if l["kind"] == "summary")

def unit(engine):
    text = open(f"{work}/{engine}.json").read()
    name = json.loads(text)["engine"]
    return text[: text.index(',"timing"')].replace(f'"engine":"{name}"', '"engine":"?"', 1)

gpu, cpu = summary("gpu"), summary("cpu")
if unit("gpu") != unit("cpu"):
    sys.exit("camicia-bench: the GPU's unit differs from the CPU's")
device = gpu["gpu"]["device"]
print(f"unit: {deals} random deals; the GPU's unit equals the CPU's")
print(f"GPU engine on {device}: {gpu['deals_per_second']:.4g} deals/s")
print(f"CPU engine on {cpu['threads']} threads: {cpu['deals_per_second']:.4g} deals/s")
print(f"GPU / CPU: {gpu['deals_per_second'] / cpu['deals_per_second']:.3g}")
print(f"the CPU checked: {gpu['gpu']['claims_replayed']} claims, "
      f"{gpu['gpu']['samples_compared']} samples, {gpu['gpu']['blocks_on_cpu']} blocks played itself")
if ", a CPU" in device:
    print("note: this device is a CPU (such as Mesa's lavapipe): its figure only proves "
          "that the GPU engine runs, not how fast it is on a GPU")
PY
