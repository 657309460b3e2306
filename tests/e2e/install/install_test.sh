#!/usr/bin/env bash
# Installs the build to a temporary prefix, builds a game module from a separate CMake project
# with find_package(ScriptHost), and runs it with the installed scripthost: the module's
# internal call answers a script, and a reload of the scripts goes through the installed
# compile server and ScriptCore.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR_OF_THIS_TEST
set -euo pipefail
build="$1"
here="$2"
work="$(mktemp -d "${TMPDIR:-/tmp}/scripthost-install-XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

fail() { echo "install test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }
for f in bin/scripthost bin/scriptctl include/scripthost/game/game_module.hpp; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
hostdir="$(dirname "$(readlink -f "$prefix/bin/scripthost")")"
for f in ScriptCore.dll ScriptCore.xml scripthost-compile-server.exe; do
  [ -f "$hostdir/$f" ] || fail "$f is not installed beside scripthost ($hostdir)"
done
for f in index.html inspector.js connection.js vendor/uPlot.esm.js; do
  [ -f "$hostdir/inspector/$f" ] || fail "the inspector's $f is not installed beside scripthost ($hostdir/inspector)"
done
# The installed scripthost finds the page beside itself: `scripthost inspect` serves it.
"$prefix/bin/scripthost" inspect --control "$work/no-host.sock" >"$work/inspect.out" 2>"$work/inspect.log" &
inspector=$!
for _ in $(seq 100); do [ -s "$work/inspect.out" ] && break; sleep 0.1; done
url="$(head -n1 "$work/inspect.out")"
[[ "$url" == http://127.0.0.1:*/?token=* ]] || { kill "$inspector"; fail "scripthost inspect printed '$url'"; }
page="$(node -e '
  const url = new URL(process.argv[1]);
  fetch(url, { redirect: "manual" }).then((r) => fetch(new URL("/", url), { headers: { cookie: r.headers.get("set-cookie").split(";")[0] } }))
    .then((r) => r.text()).then((t) => console.log(t)).catch((e) => { console.error(e); process.exit(1); });' "$url")" ||
  { kill "$inspector"; fail "the installed inspector did not serve its page"; }
kill "$inspector"; wait "$inspector" || true
grep -q "<title>scripthost inspector</title>" <<<"$page" || fail "the installed inspector served: $page"
# Nothing of the build tree may leak into the installed package.
if grep -rq "$build" "$prefix" --include='*.cmake'; then fail "the package config refers to the build tree"; fi

cmake -S "$here/game" -B "$work/game-build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "the game project does not configure"; }
cmake --build "$work/game-build" >"$work/game-build.log" 2>&1 || { cat "$work/game-build.log"; fail "the game module does not build"; }
[ "$(cat "$work/game-build/scripthost-executable.txt")" = "$prefix/lib/scripthost/scripthost" ] ||
  [ "$(readlink -f "$(cat "$work/game-build/scripthost-executable.txt")")" = "$hostdir/scripthost" ] ||
  fail "ScriptHost_EXECUTABLE is $(cat "$work/game-build/scripthost-executable.txt")"

cp -r "$here/game/scripts" "$work/scripts"
cd "$work"
set +e
XDG_STATE_HOME="$work/state" "$prefix/bin/scripthost" smoke --scripts "$work/scripts" \
  --game "$work/game-build/probe_game.so" --frames 5 --reloads 1 >"$work/smoke.log" 2>&1
code=$?
set -e
cat "$work/smoke.log"
[ "$code" -eq 0 ] || fail "the installed scripthost smoke exited with $code"
grep -q "install probe: the module answers 42" "$work/smoke.log" || fail "the module's internal call did not answer"
echo "install test: passed"
