#!/bin/sh
# Makes Debian's Chromium available for the web console's browser test (tests/e2e/test_console_browser.py).
# Nothing to do when /usr/bin/chromium exists. As root, installs it with apt-get (updating the package
# lists only when apt does not know the package yet). Otherwise prints how to install it and exits 0:
# the browser test is then skipped with that reason, and every other test still runs.
set -eu

if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "Chromium is not installed, so the web console's browser test will be skipped." >&2
    echo "Install it with: sudo apt-get install -y --no-install-recommends chromium" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-cache show chromium >/dev/null 2>&1; then
    nice -n 10 apt-get update -q
fi
echo "Installing Chromium for the web console's browser test …" >&2
# Stale package lists name files the mirror no longer has: refresh them once and try again.
nice -n 10 apt-get install -y -q --no-install-recommends chromium \
    || { nice -n 10 apt-get update -q && nice -n 10 apt-get install -y -q --no-install-recommends chromium; }
