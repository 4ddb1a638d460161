# Sourced by the stages that start browser engines (test-browser.sh,
# test-webgpu.sh, test-demo.sh, test-pack.sh): every process they start
# (browser, WebKitWebDriver, Xvfb) is stopped by the stage, also when a test
# fails, times out or the stage is interrupted.
#   engine_procs_init DIR   the stage's scratch directory: TMPDIR moves under
#                           it (so every browser profile lives there) and
#                           tests/engines/engines.mjs writes the pid of each
#                           process it starts into DIR/pids
#   engine_procs_stop       stops them: each recorded pid's process group,
#                           then any process left whose command line names a
#                           path under DIR/tmp (a profile: playwright's chromium,
#                           firefox-esr), SIGTERM then SIGKILL
# Call engine_procs_stop from the stage's EXIT trap.
engine_procs_init() {
  ENGINE_PROCS_DIR=$1
  mkdir -p "$ENGINE_PROCS_DIR/pids" "$ENGINE_PROCS_DIR/tmp"
  export UNPOOL_ENGINE_PIDS="$ENGINE_PROCS_DIR/pids" TMPDIR="$ENGINE_PROCS_DIR/tmp"
}

engine_procs_list() { # the pids recorded, and those whose command line names the directory
  local f p
  for f in "$ENGINE_PROCS_DIR"/pids/*; do if [ -e "$f" ]; then basename "$f"; fi; done
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
  echo "engine-procs: stopped left-over processes $(echo $pids)" >&2
}
