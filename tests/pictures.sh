#!/usr/bin/env bash
# Makes every picture of the README and docs again: each page the tool
# makes now, kept as docs/pictures/NAME.html, and its screenshots
# (NAME-WIDTH.png) taken with headless Chromium. The test
# crates/poker-cli/tests/cli_tests/pictures.rs fails when a kept page is
# no longer what the tool makes; run this, look at the pictures, commit.
#
# Run it on a quiet machine: `poker eval` warns on its page when other
# processes took more than 5% of its games' CPUs, and a picture would show
# that warning. The script refuses a load average above half the CPUs
# before it starts, and puts the kept pages back (git checkout) if a page
# came out with the warning all the same. POKER_PICTURES_BUSY_OK=1 keeps
# such pages (the staleness test masks the warning; the picture shows it).
set -euo pipefail
cd "$(dirname "$0")/.."
busy_ok=${POKER_PICTURES_BUSY_OK:-}
load=$(cut -d' ' -f1 /proc/loadavg)
cpus=$(nproc)
if [ -z "$busy_ok" ] && awk -v l="$load" -v c="$cpus" 'BEGIN { exit !(l > c / 2) }'; then
    echo "pictures: REFUSED: the load average is $load on $cpus CPU(s); the eval page would" \
        "carry the busy-machine warning. Run this on a quiet machine" \
        "(or POKER_PICTURES_BUSY_OK=1 to take them anyway)." >&2
    exit 1
fi
POKER_BLESS=1 cargo test --release -p poker-cli --test cli_tests -- --exact \
    pictures::the_docs_pictures_show_what_the_tool_makes_now
busy=$(grep -l 'warning: other processes took' docs/pictures/*.html || true)
if [ -n "$busy" ] && [ -z "$busy_ok" ]; then
    echo "pictures: REFUSED: $busy carries the busy-machine warning (other processes took" \
        "the games' CPUs while they were taken); the kept pages and pictures are put back" \
        "(git checkout -- docs/pictures). Run this on a quiet machine." >&2
    git checkout -- docs/pictures
    exit 1
fi
git status --short docs/pictures
