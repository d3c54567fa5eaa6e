#!/usr/bin/env bash
# The project's virtualenv (.venv) with requirements-dev.txt installed: `make venv`.
#
# A checkout that has its own .venv directory keeps it and installs into it, as before. A checkout
# without one (a fresh clone: CI's, a reviewer's) links .venv to a virtualenv shared by the clones of
# this machine, kept under ${XDG_CACHE_HOME:-~/.cache}/admiralty/ and named by a hash of the
# requirements files: the first clone installs it (about 35 s), the next ones link it at once.
#
# The shared one is exactly what the requirements install, never more: the list of installed
# distributions is written when it is made and compared at every `make venv`; one that differs (a
# package installed into it by hand) is made again, so that no test passes here thanks to a package
# the requirements do not name.
set -euo pipefail

hash="$1"
install() {  # $1: the virtualenv's folder
  test -x "$1/bin/python" || python3.11 -m venv "$1" || python3 -m venv "$1"
  "$1/bin/python" -m pip install -q --upgrade pip
  "$1/bin/python" -m pip install -q -r requirements-dev.txt
}
installed() {  # the distributions in virtualenv $1, one a line
  ls -1 "$1"/lib/python3*/site-packages | grep -E '\.dist-info$' | sort
}

if [ -d .venv ] && [ ! -L .venv ]; then
  install .venv
  rm -f .venv/.installed-* && touch ".venv/.installed-$hash"
  exit 0
fi

cache="${XDG_CACHE_HOME:-$HOME/.cache}/admiralty"
shared="$cache/venv-$hash"
mkdir -p "$cache"
(
  flock 9
  if [ ! -f "$shared/.installed-$hash" ] || ! installed "$shared" | cmp -s - "$shared/.distributions"; then
    rm -rf "$shared"
    install "$shared"
    installed "$shared" >"$shared/.distributions"
    touch "$shared/.installed-$hash"
  fi
  # Only the newest few are kept: older ones belong to requirements no checkout is likely to use.
  for old in $(ls -1dt "$cache"/venv-* | grep -v -- "-$hash\$" | tail -n +4 || true); do rm -rf "$old"; done
) 9>"$cache/venv.lock"
ln -sfn "$shared" .venv
