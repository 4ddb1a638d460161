# Sourced by the stages that start browser engines (test-browser.sh,
# test-webgpu.sh, test-demo.sh, test-pack.sh).
#
# Which engines, and their Debian packages:
#   engines_ensure STAGE ENGINE...   checks the names (chromium, firefox,
#                           webkit) and installs what they need
#                           (scripts/ensure-deps.sh wasm npm + their groups)
#   engines_stage STAGE PROCS_SUBDIR ENGINE...   the start of a stage whose
#                           only cleanup is the engines': engines_ensure, the
#                           build, `work` (a fresh folder), the processes
#                           tracked under $work/PROCS_SUBDIR, and an EXIT trap
#                           that stops them and removes $work
# A stage line and a summary per engine:
#   engine_begin STAGE ENGINE   prints `=== test: STAGE (<engine version>) ===`
#   engine_end STAGE ENGINE PASSED FAILED RC
#                           prints `STAGE-ENGINE: N passed, N failed` (a
#                           non-zero RC with no failure counted is one) and
#                           keeps the line, with the time, for
#   engines_summary STAGE   prints the kept lines; fails if any engine failed
#
# Every process a stage starts (browser, WebKitWebDriver, Xvfb) is stopped by
# the stage, also when a test fails, times out or the stage is interrupted:
engine_procs_init() {
  ENGINE_PROCS_DIR=$1
  mkdir -p "$ENGINE_PROCS_DIR/pids" "$ENGINE_PROCS_DIR/tmp"
  export UNPOOL_ENGINE_PIDS="$ENGINE_PROCS_DIR/pids" TMPDIR="$ENGINE_PROCS_DIR/tmp"
}

engine_procs_list() { # the pids recorded, and those whose command line names the directory
  local f p
  for f in "$ENGINE_PROCS_DIR"/pids/*; do
    [ -e "$f" ] || continue
    p=$(basename "$f")
    rm -f "$f"
    if kill -0 "$p" 2>/dev/null; then echo "$p"; fi
  done
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = "$$" ] && continue
    if tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -qF "$ENGINE_PROCS_DIR/tmp/"; then echo "${p#/proc/}"; fi
  done
  return 0
}

engine_procs_stop() {
  [ -n "${ENGINE_PROCS_DIR:-}" ] && [ -d "$ENGINE_PROCS_DIR" ] || return 0
  local pids sig pid
  pids=$(engine_procs_list | sort -un)
  [ -n "$pids" ] || return 0
  for sig in TERM KILL; do
    for pid in $pids; do
      kill -"$sig" -- "-$pid" 2>/dev/null || true  # the group (engines.mjs starts each in its own)
      kill -"$sig" "$pid" 2>/dev/null || true
    done
    [ "$sig" = TERM ] && sleep 2
  done
  echo "engines.sh: stopped left-over processes $(echo $pids)" >&2
}

# Call engine_procs_stop from the stage's EXIT trap (and between engines).

engines_stage() {
  local stage=$1 sub=$2
  shift 2
  engines_ensure "$stage" "$@"
  bash scripts/build.sh
  work=$(mktemp -d "${TMPDIR:-/tmp}/unpool-${stage#test-}.XXXXXX")
  engine_procs_init "$work${sub:+/$sub}"
  trap 'engine_procs_stop; rm -rf "$work"' EXIT
}

engines_ensure() {
  local stage=$1 e
  shift
  local groups=()
  for e in "$@"; do
    case "$e" in
      chromium) groups+=(browser) ;;
      firefox|webkit) groups+=("$e") ;;
      *) echo "$stage: unknown engine '$e' (chromium, firefox, webkit)" >&2; exit 2 ;;
    esac
  done
  scripts/ensure-deps.sh wasm npm "${groups[@]}"
}

ENGINES_FAILED=0
ENGINES_RESULTS=()
engine_begin() {
  ENGINE_T0=$SECONDS
  ENGINE_VERSION=$(node tests/engines/version.mjs "$2") || ENGINE_VERSION="$2 (not found)"
  echo "=== test: $1 ($ENGINE_VERSION) ==="
}

engine_end() { # STAGE ENGINE PASSED FAILED RC
  local passed=${3:-0} failed=${4:-0} rc=$5
  if [ -z "$3" ] || { [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; }; then failed=$((failed + 1)); fi
  [ "$rc" -eq 124 ] && echo "$1-$2: timed out"
  echo "$1-$2: $passed passed, $failed failed"
  ENGINES_FAILED=$((ENGINES_FAILED + failed))
  ENGINES_RESULTS+=("$1-$2: $passed passed, $failed failed, exit $rc, $((SECONDS - ENGINE_T0)) s ($ENGINE_VERSION)")
}

engines_summary() {
  echo "=== $1: summary ==="
  printf '%s\n' "${ENGINES_RESULTS[@]}"
  [ "$ENGINES_FAILED" -eq 0 ]
}
