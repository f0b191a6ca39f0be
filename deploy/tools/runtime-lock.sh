#!/usr/bin/env bash
# Resolves requirements/runtime.in into requirements/runtime.lock (and build.in into build.lock): every package the service image
# installs, pinned, with the hash of each of its files (pip-compile --generate-hashes), so
# `pip install --require-hashes` in the Dockerfile takes nothing else. PolicyPal's own packages are
# left out of the lock: the image installs them from its source tree (--no-deps).
# Run by `make runtime-lock` after a change of requirements/constraints.txt or a pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools"
"$tools/bin/pip" install -q pip-tools==7.5.1
raw="$tools/runtime.lock"
"$tools/bin/pip-compile" -q --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url \
  --no-emit-find-links --output-file "$raw" requirements/runtime.in
# Drop the workspace's own packages (local paths cannot be hashed) and pip-compile's warnings on them.
awk '
  /^# WARNING: pip install will require/ { next }
  /^policypal-[a-z-]+ @ file:/ { skip = 1; next }
  skip && /^    / { next }
  { skip = 0; sub("--output-file=[^ ]*", "--output-file=requirements/runtime.lock"); print }
' "$raw" > requirements/runtime.lock
"$tools/bin/pip-compile" -q --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url \
  --no-emit-find-links --output-file requirements/build.lock requirements/build.in
echo "requirements/runtime.lock: $(grep -c '==' requirements/runtime.lock) pinned packages"
