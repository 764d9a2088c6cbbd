#!/usr/bin/env bash
# The GPU engine against the CPU engine on the same unit, in one run:
# builds poker with the GPU engine, runs `poker camicia search` on the same
# random deals with --engine gpu (its persistent kernel, then the per-deal
# kernel it replaced) and --engine cpu (every core), checks that all three
# wrote the same unit (apart from the engine's name and the timing), and
# prints deals per second for each, the ratios, each unit's cost per deal
# as `poker camicia merge` gives it, and the GPU's name.
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
    local name=$1 engine=$2
    "$poker" camicia search --engine "$engine" --count "$deals" --seed "$seed" \
        --quiet --json --output "$work/$name.json" > "$work/$name.out"
    "$poker" camicia merge --json "$work/$name.json" > "$work/$name.merged"
}
run gpu gpu
POKER_GPU_KERNEL=per-deal run per-deal gpu
run cpu cpu

python3 - "$work" "$deals" <<'PY'
import json, sys
work, deals = sys.argv[1], int(sys.argv[2])

def summary(engine):
    lines = [json.loads(l) for l in open(f"{work}/{engine}.out")]
    return next(l for l in lines if l["kind"] == "summary")

def cost(engine):
    c = json.load(open(f"{work}/{engine}.merged"))["costs"][0]
    gpu = c.get("gpu_seconds_per_deal")
    return (f"{gpu:.3e} GPU-seconds and " if gpu is not None else "") + \
        f"{c['cpu_seconds_per_deal']:.3e} CPU-seconds a deal"

def unit(engine):
    text = open(f"{work}/{engine}.json").read()
    name = json.loads(text)["engine"]
    return text[: text.index(',"timing"')].replace(f'"engine":"{name}"', '"engine":"?"', 1)

gpu, per_deal, cpu = summary("gpu"), summary("per-deal"), summary("cpu")
for other in ("per-deal", "cpu"):
    if unit("gpu") != unit(other):
        sys.exit(f"camicia-bench: the GPU's unit differs from the {other} run's")
device = gpu["gpu"]["device"]
print(f"unit: {deals} random deals; the three units are equal")
print(f"GPU engine on {device}, persistent kernel: {gpu['deals_per_second']:.4g} deals/s "
      f"({cost('gpu')})")
print(f"GPU engine, per-deal kernel: {per_deal['deals_per_second']:.4g} deals/s ({cost('per-deal')})")
print(f"CPU engine on {cpu['threads']} threads: {cpu['deals_per_second']:.4g} deals/s "
      f"({cost('cpu')})")
print(f"GPU / CPU: {gpu['deals_per_second'] / cpu['deals_per_second']:.3g}")
print(f"persistent / per-deal kernel: "
      f"{gpu['deals_per_second'] / per_deal['deals_per_second']:.3g}")
print(f"the CPU checked: {gpu['gpu']['claims_replayed']} claims, "
      f"{gpu['gpu']['samples_compared']} samples, {gpu['gpu']['blocks_on_cpu']} blocks played itself")
if ", a CPU" in device:
    # Here the device's threads are this process's: its CPU time is the
    # kernels' work, steadier than wall time on a busy machine.
    print(f"persistent / per-deal kernel, deals per CPU-second: "
          f"{gpu['deals_per_cpu_second'] / per_deal['deals_per_cpu_second']:.3g}")
    print("note: this device is a CPU (such as Mesa's lavapipe): its figure only proves "
          "that the GPU engine runs, not how fast it is on a GPU")
PY
