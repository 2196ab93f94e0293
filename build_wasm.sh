#!/usr/bin/env bash
# Lookback's one build script. On a fresh Debian 12 machine it installs what is
# missing (Debian packages, npm packages from the lockfile, Dear ImGui's and zlib's sources),
# builds natively and to WebAssembly, and assembles the site into build/site.
#
#   ./build_wasm.sh            install what is missing, build everything
#   ./build_wasm.sh serve      ... then serve build/site on 127.0.0.1 (PORT, default 8080)
#   ./build_wasm.sh test       ... then run every test suite (native, wasm under node, browser in
#                                  Chromium, the smoke set in Firefox and in WebKit, the screen
#                                  reader's in Chromium and Firefox)
#   ./build_wasm.sh bench [--json]   ... then run the benchmark natively and as wasm
#   ./build_wasm.sh fuzz [SECONDS]   build the libFuzzer targets (build/fuzz) and run each
#                                    SECONDS (default 60); a crash input lands in its corpus
set -euo pipefail
cd "$(dirname "$0")"
root=$(pwd)
mode=${1:-build}
[ $# -gt 0 ] && shift

say()  { printf '\033[1m==> %s\033[0m\n' "$*"; }
fail() { printf 'build_wasm.sh: %s\n' "$*" >&2; exit 1; }
jobs=$(nproc 2>/dev/null || echo 2)

# Emscripten 3.1.6 on node 20: em++ needs acorn, which lives in Debian's node path.
export NODE_PATH=/usr/share/nodejs

# --- 1. Debian packages ------------------------------------------------------
# The fonts' packages hold what the site ships for a reader's task (CMakeLists.txt's
# LOOKBACK_SHIPPED_FONTS); unicode-data holds the character database the build reads. The last
# line is the screen-reader smoke set's desktop: Orca, the accessibility bus, speech through
# speech-dispatcher and espeak-ng, a window manager and real key presses (tests/screenreader/).
debian_packages=(emscripten xtensor-dev xtl-dev libxsimd-dev doctest-dev nlohmann-json3-dev
                 fonts-dejavu-core fonts-droid-fallback fonts-lohit-deva fonts-lohit-beng-bengali
                 fonts-lohit-guru fonts-lohit-gujr fonts-lohit-taml fonts-lohit-telu fonts-lohit-knda
                 fonts-lohit-mlym fonts-lklug-sinhala fonts-sil-lateef fonts-tlwg-loma-ttf unicode-data
                 fonttools chromium clang-14 libclang-rt-14-dev firefox-esr webkit2gtk-driver xvfb zlib1g-dev
                 orca python3-pyatspi at-spi2-core dbus-daemon speech-dispatcher speech-dispatcher-espeak-ng
                 openbox xdotool)
install_debian() {
  local missing=()
  for p in "${debian_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  say "Installing Debian packages: ${missing[*]}"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -q || fail "apt-get update failed: is Debian's archive reachable?"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}" \
    || fail "apt-get install ${missing[*]} failed (see the messages above)"
}

# --- 2. npm packages (exact versions from package-lock.json) ------------------
install_npm() {
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "Installing npm packages from package-lock.json"
    npm ci --no-audit --no-fund || fail "npm ci failed: is the npm registry reachable?"
  fi
}

# --- 3. Sources from Debian's source packages, into a git-ignored cache ---------
# Dear ImGui 1.86 for the page, and zlib 1.2.13 (the core's compression), which the wasm build and
# the fuzz build compile from source (the native build links the system's zlib1g-dev, the same
# release; Emscripten's own zlib port would download it, and the fuzzers need it instrumented).
imgui_dir=$root/.cache/imgui-1.86
zlib_dir=$root/.cache/zlib-1.2.13.dfsg
# $1 = source package, $2 = its upstream version (how the tarball's name starts, before Debian's
# repacking suffix, +ds or .dfsg), $3 = the folder the tarball unpacks to, $4 = a file it must hold.
fetch_debian_source() {
  local package=$1 version=$2 dir=$3 file=$4
  [ -f "$dir/$file" ] && return
  say "Fetching $package $version sources (Debian source package $package)"
  local d; d=$(mktemp -d); mkdir -p "$d/lists/partial"
  # The system's archive as a deb-src entry, without touching the system's apt configuration.
  awk 'NF==0{exit} {print}' /etc/apt/sources.list.d/debian.sources \
    | sed 's/^Types:.*/Types: deb-src/; s/^Suites:.*/Suites: bookworm/' > "$d/src.sources"
  local o=(-o Dir::Etc::sourcelist=/dev/null -o "Dir::Etc::sourceparts=$d" -o "Dir::State::Lists=$d/lists")
  apt-get "${o[@]}" update -q >/dev/null || fail "could not read Debian's source index"
  (cd "$d" && apt-get "${o[@]}" source --download-only "$package" >/dev/null) \
    || fail "could not download Debian's $package source package"
  mkdir -p "$root/.cache"
  tar -xf "$d/${package}_${version}"*.orig.tar.* -C "$root/.cache" || fail "could not unpack the $package sources"
  rm -rf "$d"
  [ -f "$dir/$file" ] || fail "unpacked $package sources but found no $dir/$file"
}
fetch_sources() {
  fetch_debian_source imgui 1.86 "$imgui_dir" imgui.cpp
  fetch_debian_source zlib 1.2.13 "$zlib_dir" zlib.h
}

# --- 4. builds -----------------------------------------------------------------
build_native() {
  say "Building natively (build/native)"
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null || fail "cmake (native) failed"
  cmake --build build/native -j"$jobs" || fail "native build failed (see the compiler messages above)"
}
build_wasm() {  # $1 = build folder, $2 = ON|OFF for SIMD
  say "Building WebAssembly ($1, SIMD $2)"
  emcmake cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=Release -DLOOKBACK_SIMD="$2" \
    -DIMGUI_DIR="$imgui_dir" -DZLIB_SOURCE_DIR="$zlib_dir" >/dev/null || fail "cmake (wasm) failed"
  cmake --build "$1" -j"$jobs" || fail "wasm build failed (see the compiler messages above)"
}
# The page's pretrained models (width 64, 12 epochs, seed 1: the lesson's settings) are the native
# build's `shipped_models` target (CMakeLists.txt): trained by `lookback` into build/assets/, again
# only when the tool changes; the wasm tests and the site read them there.
build_weights() {
  say "The shipped models (build/assets)"
  cmake --build build/native -j"$jobs" --target shipped_models || fail "training the shipped models failed"
}
# The hostile-input guards (README): the doctest suite under ASan + UBSan, and
# the libFuzzer targets (clang 14; libclang-rt-14-dev holds libFuzzer).
fuzz_targets=(weights date options selfcheck url worker pairs inflate)
# One sanitizer build (build/fuzz, clang++-14, ASan + UBSan + xtensor's asserts) makes both the
# fuzz targets and the doctest suite that runs under the sanitizers: the core is compiled once.
build_sanitized() {
  say "Building under ASan + UBSan: the fuzz targets and the doctest suite (build/fuzz, clang++-14)"
  cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 \
    -DLOOKBACK_FUZZ=ON -DZLIB_SOURCE_DIR="$zlib_dir" >/dev/null || fail "cmake (fuzz) failed"
  cmake --build build/fuzz -j"$jobs" --target lookback_tests "${fuzz_targets[@]/#/fuzz_}" \
    || fail "sanitizer build failed"
}
# $1 = seconds per target. New inputs go to build/fuzz/corpus/TARGET (never committed); the
# committed tests/fuzz/corpus/TARGET seeds it and receives any crash input as a regression.
run_fuzzers() {
  local seconds=$1 t
  for t in "${fuzz_targets[@]}"; do
    local work=build/fuzz/corpus/$t log=build/test-logs/fuzz-$t.log rc=0
    mkdir -p "$work" build/test-logs
    [ "$t" = weights ] && cp build/assets/*.safetensors "$work"/ 2>/dev/null
    say "Fuzzing $t for $seconds s"
    build/fuzz/fuzz_"$t" -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="tests/fuzz/corpus/$t/crash-" "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
    local runs; runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ "$rc" -eq 0 ]; then
      count 1 0 "fuzz $t (${runs:-0} inputs in $seconds s)"
    else
      tail -40 "$log"
      count 0 1 "fuzz $t (crash input saved in tests/fuzz/corpus/$t: commit it as a regression)"
    fi
  done
}

assemble_site() {
  say "Assembling the site (build/site)"
  node web/page/build_page.mjs build/site || fail "assembling the site failed"
}

build_all() {
  install_debian
  install_npm
  fetch_sources
  build_native
  build_weights
  build_wasm build/wasm ON
  assemble_site
}

# --- 5. tests --------------------------------------------------------------------
# Each suite prints its own counts; the totals end the run.
passed=0; failed=0
count() { passed=$((passed + $1)); failed=$((failed + $2)); printf '%s: %d passed, %d failed\n' "$3" "$1" "$2"; }
run_suite() {  # $1 = name, $2 = log file, rest = command; counts parsed from the log
  local name=$1 log=$2; shift 2
  local rc=0
  "$@" 2>&1 | tee "$log" || rc=$?
  local p f
  if grep -q '\[doctest\] test cases:' "$log"; then  # ctest -V prefixes lines with "1: "
    p=$(sed -n 's/.*\[doctest\] test cases: *[0-9]* | *\([0-9]*\) passed.*/\1/p' "$log" | tail -1)
    f=$(sed -n 's/.*\[doctest\] test cases:.*| *\([0-9]*\) failed.*/\1/p' "$log" | tail -1)
  else
    p=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^# fail \([0-9]*\)/\1/p' "$log" | tail -1)
  fi
  p=${p:-0}; f=${f:-0}
  [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1   # a crash counts as a failure
  count "$p" "$f" "$name"
}
run_tests() {
  mkdir -p build/test-logs
  say "Suite 1/8: doctest, native (ctest)"
  run_suite "native doctest" build/test-logs/native.log \
    ctest --test-dir build/native --output-on-failure -V
  say "Suite 2/8: the same doctest suite as WebAssembly (SIMD) under node"
  run_suite "wasm doctest" build/test-logs/wasm.log \
    node --no-experimental-fetch build/wasm/lookback_tests.js --no-colors
  say "Suite 3/8: browser tests (headless Chromium)"
  run_suite "browser" build/test-logs/browser.log \
    node --test --test-concurrency=1 tests/browser/
  # Firefox ESR (WebDriver BiDi) and WebKitGTK (WebKitWebDriver), each in a window on its own Xvfb
  # display: the smoke set of tests/engines/smoke.mjs, about 20 s and 70 s.
  say "Suite 4/8: Firefox smoke (Firefox ESR over WebDriver BiDi, Xvfb)"
  run_suite "Firefox smoke" build/test-logs/firefox.log \
    node --test tests/engines/firefox.test.mjs
  say "Suite 5/8: WebKit smoke (WebKitGTK's MiniBrowser over WebKitWebDriver, Xvfb)"
  run_suite "WebKit smoke" build/test-logs/webkit.log \
    node --test tests/engines/webkit.test.mjs
  # Orca, Debian's screen reader, on its own Xvfb desktop: the lesson's main tasks by real keys in
  # Chromium and in Firefox ESR, asserted on what Orca says (24 tests, 60–110 s here).
  say "Suite 6/8: screen reader (Orca in Chromium and Firefox ESR, Xvfb)"
  run_suite "screen reader" build/test-logs/screenreader.log \
    node --test tests/screenreader/orca.test.mjs
  say "Suite 7/8: the doctest suite under ASan + UBSan"
  build_sanitized
  run_suite "asan doctest" build/test-logs/asan.log build/fuzz/lookback_tests --no-colors
  say "Suite 8/8: each fuzz target for 20 s"
  run_fuzzers 20
  echo "tests: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

case "$mode" in
  build) build_all ;;
  serve) build_all; say "Serving build/site"; exec node web/page/serve.mjs build/site ;;
  test)  build_all; run_tests ;;
  bench)
    build_all
    build_wasm build/wasm-scalar OFF
    node tests/bench/run.mjs "$@" ;;
  fuzz)
    install_debian
    fetch_sources
    build_native
    build_weights
    build_sanitized
    run_fuzzers "${1:-60}"
    echo "fuzz: $passed passed, $failed failed"
    [ "$failed" -eq 0 ] ;;
  *) fail "unknown mode '$mode' (use: build, serve, test, bench, fuzz)" ;;
esac
