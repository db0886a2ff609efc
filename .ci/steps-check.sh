#!/usr/bin/env bash
# Checks .ci/steps.sh's builds beside the steps (CI runs it first, as select.py --check): a
# build's status is what wait_for_build reports, also when bash has forgotten the build's
# process. Stop 77 failed on that: the tsan build passed, 13 minutes later its pid had been
# given to a foreground child of CI's shell, and `wait` answered "not a child of this shell"
# (127). Here the pid is handed on at once (/proc/sys/kernel/ns_last_pid, as root), else by
# forking until it comes round where pids wrap soon (about 25 s on a pid_max of 32768); where
# neither can be done, a case runs with the pid not reused, and says so.
# Each case runs as CI's shell does: steps.sh sourced, under set -euo pipefail, wait_for_build
# in the shell that started the build.
# Usage: bash .ci/steps-check.sh [STEPS_SH]   exits 1 if a case reads wrong.
set -uo pipefail
steps="${1:-$(dirname "$0")/steps.sh}"

# One case in a shell of its own: build_beside runs COMMAND (and AFTER, if given, as the next
# build); once the first has ended, its pid goes to a foreground child of the shell; each
# wait_for_build's verdict (and status) is printed.
run_case() {
  timeout 120 bash -s "$steps" "$1" "${2:-}" <<'CASE' 2>&1
source "$1"
clock() { echo "$1"; }
busy_seconds() { echo 0; }
CI_BESIDE_CGROUP=""
trap '[ -n "${passed:-}" ] && echo "verdict: passed" || echo "verdict: failed"' EXIT
build_beside demo bash -c "$2"
pid="${CI_BUILD_PID[demo]}"
[ -z "$3" ] || build_beside next bash -c "$3"
while [ -d "/proc/$pid" ] && ! grep -q '^State:.*zombie' "/proc/$pid/status" 2>/dev/null; do sleep 0.1; done
sleep 0.2
reused=""
for _ in 1 2 3 4 5; do
  echo $((pid - 1)) >/proc/sys/kernel/ns_last_pid 2>/dev/null || break
  [ "$(exec sh -c 'echo $$')" = "$pid" ] && { reused=1; break; }
done
# Forking until the pid comes round: only where pids wrap soon, and not for a pid below the
# 300 that Linux skips when it wraps.
pid_max="$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 0)"
if [ -z "$reused" ] && [ "$pid_max" -le 65536 ] && [ "$pid" -gt 300 ]; then
  for _ in $(seq $((pid_max + 1000))); do [ "$(exec sh -c 'echo $$')" = "$pid" ] && { reused=1; break; }; done
fi
[ -n "$reused" ] || echo "reuse: none (pid $pid, pid_max $pid_max, ns_last_pid not writable): the case ran with the pid not reused"
set -euo pipefail
if [ -n "$3" ]; then
  (wait_for_build demo) || true   # (its verdict: the next one's is the case's)
  wait_for_build next
else
  wait_for_build demo
fi
passed=1
CASE
}

failures=0
expect() {
  local what="$1" command="$2" after="$3" verdict="$4" status="$5" out
  out="$(run_case "$command" "$after")"
  if grep -q "^verdict: $verdict\$" <<<"$out" && { [ -z "$status" ] || grep -qE "[(]status $status[,:]" <<<"$out"; }; then
    echo "ok - $what$(grep -q '^reuse: none' <<<"$out" && echo " (# the pid could not be reused here: checked without it)")"
  else
    echo "not ok - $what: wanted $verdict${status:+ (status $status)}, got:"
    sed 's/^/    /' <<<"$out"
    failures=$((failures + 1))
  fi
}
# The build's own shell, killed: its parent's pid from /proc (no `ps`: CI runs this before it
# installs anything).
kill_shell='read -r _ _ _ shell _ </proc/$PPID/stat; kill -9 $shell'
expect "a build that passed, its pid since given to another child, reads as passed" "exit 0" "" passed ""
expect "a build that failed (4), its pid since given to another child, reads as failed with 4" "exit 4" "" failed 4
expect "a build whose shell was killed before writing a status reads as failed" "$kill_shell" "" failed "none"
expect "the build after one whose shell was killed still runs, and reads as it ended" "$kill_shell" "exit 0" passed ""
exit $((failures > 0))
