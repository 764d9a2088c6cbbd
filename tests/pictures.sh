#!/usr/bin/env bash
# Makes every picture of the README and docs again: each page the tool
# makes now, kept as docs/pictures/NAME.html, and its screenshots
# (NAME-WIDTH.png) taken with headless Chromium. The test
# crates/poker-cli/tests/cli_tests/pictures.rs fails when a kept page is
# no longer what the tool makes; run this, look at the pictures, commit.
set -euo pipefail
cd "$(dirname "$0")/.."
POKER_BLESS=1 cargo test --release -p poker-cli --test cli_tests -- --exact \
    pictures::the_docs_pictures_show_what_the_tool_makes_now
git status --short docs/pictures
