# CI's steps, their budgets and timings, and the builds that run beside them (issue 57).
# Sourced by .ci/run; bash 4 or later.
#
#   step ID BUDGET_SECONDS "what it checks" FUNCTION   runs FUNCTION as step ID, if the change
#       needs it (.ci/select.py); prints when it starts; fails loudly, naming the step, when it
#       fails or takes longer than its budget.
#   build_beside NAME COMMAND...   starts a build at the lowest CPU and I/O priority (a cgroup of
#       its own with the least CPU weight, where one can be made; else nice 19), so that it
#       uses only what the steps in front leave idle (a browser waiting for a page, a test
#       sleeping, a link on one core); its output goes to a log of its own. Each such build
#       starts when the one started before it has finished: one at a time beside the steps.
#   wait_for_build NAME   waits for it; prints how long it took and how long the step waited,
#       and fails with the end of its log if it failed. The status is the one the build's shell
#       wrote, not wait's (.ci/steps-check.sh checks it).
# At the end (pass or fail) a table gives every step's time against its budget.

CI_STARTED=$SECONDS
CI_LOGS="$(mktemp -d)"
# The copy of the tree the builds beside the steps run in (.ci/run makes it; removed at the end).
CI_TREE="$CI_LOGS/tree"
declare -a CI_ROWS=()
declare -A CI_BUILD_PID=()
declare -a CI_BUILT=()
CI_CURRENT=""
CI_CURRENT_START=0
CI_CURRENT_BUSY=0
CI_SELECTED=""
CI_LAST_BUILD=""
# The builds beside the steps run in a cgroup with the least CPU weight (cgroup v1's cpu.shares
# 2 against the steps' 1024): a nice value does not reach the compilers, since SwiftPM's build
# system starts them at priority 0 again (seen: swift-build at 19, its swift-frontends at 0,
# taking half the cores from the steps). Where no such cgroup can be made, nice and idle I/O.
CI_BESIDE_CGROUP=""
for root in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
  if [ -w "$root" ] && mkdir -p "$root/ci-beside" 2>/dev/null && echo 2 >"$root/ci-beside/cpu.shares" 2>/dev/null; then
    CI_BESIDE_CGROUP="$root/ci-beside"
    break
  fi
done

clock() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# The machine's busy CPU time so far, in seconds (every process: the step's and the builds'
# beside it), from /proc/stat: what the table's "cpu" column differences. On 2 cores a step of
# 60 s can use at most 120 s; what it leaves goes to the builds beside it.
busy_seconds() {
  local _label user nice system _idle _iowait irq softirq steal
  read -r _label user nice system _idle _iowait irq softirq steal _ </proc/stat
  echo $(((user + nice + system + irq + softirq + steal) / $(getconf CLK_TCK)))
}

# Whether the change needs step ID.
wanted() { [[ " $CI_SELECTED " == *" $1 "* ]]; }

step() {
  local id="$1" budget="$2" what="$3" fn="$4"
  if ! wanted "$id"; then
    printf '== [%s] %s: skipped (the change does not reach it: .ci/select.py --explain)\n' "$(clock $((SECONDS - CI_STARTED)))" "$id"
    CI_ROWS+=("$id|-|$budget|skipped")
    return 0
  fi
  printf '== [%s] %s (budget %s): %s\n' "$(clock $((SECONDS - CI_STARTED)))" "$id" "$(clock "$budget")" "$what"
  CI_CURRENT="$id"
  CI_CURRENT_START=$SECONDS
  CI_CURRENT_BUSY=$(busy_seconds)
  "$fn"
  local took=$((SECONDS - CI_CURRENT_START)) cpu=$(($(busy_seconds) - CI_CURRENT_BUSY))
  CI_CURRENT=""
  if ((took > budget)); then
    CI_ROWS+=("$id|$took|$budget|OVER BUDGET|$cpu")
    echo "CI: step '$id' took $(clock "$took"), past its budget of $(clock "$budget"). Find what grew (the step's output above), or, if the step must take longer, raise its budget in .ci/run and say why in the commit."
    exit 1
  fi
  CI_ROWS+=("$id|$took|$budget|passed|$cpu")
}

# Whether process $1 is alive and a child of process $2 (its pid not since given to another's).
child_of() {
  local stat rest
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  rest="${stat##*) }"   # after the command's name, which may hold spaces: state, parent, ...
  set -- "$2" $rest
  [ "$3" = "$1" ]
}

build_beside() {
  local name="$1"
  shift
  local after="$CI_LAST_BUILD"
  # nice 19 and the idle I/O class: the steps in front keep the cores whenever they want them.
  (
    if [ -n "$CI_BESIDE_CGROUP" ]; then echo "$BASHPID" >"$CI_BESIDE_CGROUP/cgroup.procs" || true; fi
    if [ -n "$after" ]; then
      # (A build before it killed without a status does not hold this one back for good.)
      while [ ! -e "$CI_LOGS/$after.done" ] && child_of "${CI_BUILD_PID[$after]}" "$$"; do sleep 1; done
    fi
    status=0
    began=$SECONDS
    nice -n 19 ionice -c 3 /usr/bin/time -f '%U %S' -o "$CI_LOGS/$name.cpu" "$@" >"$CI_LOGS/$name.log" 2>&1 || status=$?
    # When it started (after the one before it), how long it took and the CPU it used, for the
    # step that waits.
    local user=0 system=0
    read -r user system <"$CI_LOGS/$name.cpu" || true
    echo "$((began - CI_STARTED)) $((SECONDS - began)) ${user%.*} ${system%.*}" >"$CI_LOGS/$name.took"
    # Written whole, then named: wait_for_build reads it as soon as it is there.
    echo "$status" >"$CI_LOGS/$name.status" && mv "$CI_LOGS/$name.status" "$CI_LOGS/$name.done"
    exit "$status"
  ) &
  CI_BUILD_PID[$name]=$!
  CI_LAST_BUILD="$name"
  printf '   [%s] building beside the steps: %s (%s)%s%s\n' "$(clock $((SECONDS - CI_STARTED)))" "$name" "$*" "${after:+, after $after}" \
    "${CI_BESIDE_CGROUP:+, in $CI_BESIDE_CGROUP}"
}

wait_for_build() {
  local name="$1" waited=$SECONDS status=0 pid
  pid="${CI_BUILD_PID[$name]:-}"
  [ -n "$pid" ] || { echo "CI: no build named $name was started"; exit 1; }
  # The build's status is the one its subshell wrote, not wait's: bash forgets a finished
  # child's status after enough others (stop 77: "wait: pid 3327 is not a child of this shell",
  # status 127, for a tsan build that had passed 13 minutes before), and once the pid is reused
  # it may answer with another process's status.
  while [ ! -e "$CI_LOGS/$name.done" ] && child_of "$pid" "$$"; do sleep 1; done
  wait "$pid" 2>/dev/null || true
  status="$(cat "$CI_LOGS/$name.done" 2>/dev/null || echo "none: it ended without writing one")"
  waited=$((SECONDS - waited))
  if [ "$status" != 0 ]; then
    grep -E "error:|Invalid SIL|Stack dump" "$CI_LOGS/$name.log" | head -n 30 || true
    tail -n 30 "$CI_LOGS/$name.log"
    echo "CI: the build '$name' failed (status $status, above)"
    exit 1
  fi
  local began=0 took=0 user=0 system=0
  read -r began took user system <"$CI_LOGS/$name.took" || true
  printf '   %s: built from %s to %s of the run (%s, CPU %s); this step waited %s for it\n' "$name" "$(clock "$began")" \
    "$(clock $((began + took)))" "$(clock "$took")" "$(clock $((user + system)))" "$(clock "$waited")"
  CI_BUILT+=("$name|$began|$took|$((user + system))")
  CI_BUILD_PID[$name]=""
}

# A process and everything it started (a build beside the steps: the subshell, bash -c, swift
# build and its compilers; killing the subshell alone left swift build running).
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill -TERM "$1" 2>/dev/null || true
}

# The table of the steps, and the builds beside them still running are stopped.
ci_summary() {
  local status=$?
  for name in "${!CI_BUILD_PID[@]}"; do
    if [ -n "${CI_BUILD_PID[$name]}" ] && [ ! -e "$CI_LOGS/$name.done" ] && child_of "${CI_BUILD_PID[$name]}" "$$"; then kill_tree "${CI_BUILD_PID[$name]}"; wait "${CI_BUILD_PID[$name]}" 2>/dev/null || true; fi
  done
  # The copy of the tree the builds beside ran in (their scratch folders: gigabytes).
  rm -rf "$CI_TREE" 2>/dev/null || true
  if [ -n "$CI_CURRENT" ]; then
    CI_ROWS+=("$CI_CURRENT|$((SECONDS - CI_CURRENT_START))|-|FAILED|$(($(busy_seconds) - CI_CURRENT_BUSY))")
    echo "CI: step '$CI_CURRENT' failed (status $status, above)"
  fi
  echo
  echo "== CI's steps (status $status, $(clock $((SECONDS - CI_STARTED))) in all)"
  printf '   %-10s %8s %8s %8s  %s\n' step took budget cpu result
  local row id took budget result cpu
  for row in "${CI_ROWS[@]}"; do
    IFS='|' read -r id took budget result cpu <<<"$row"
    [ "$took" = "-" ] || took="$(clock "$took")"
    [ "$budget" = "-" ] || budget="$(clock "$budget")"
    [ -z "$cpu" ] || cpu="$(clock "$cpu")"
    printf '   %-10s %8s %8s %8s  %s\n' "$id" "$took" "$budget" "${cpu:--}" "$result"
  done
  echo "   (cpu: the machine's busy CPU time during the step, the builds beside it included)"
  if ((${#CI_BUILT[@]})); then
    echo "== the builds beside the steps"
    printf '   %-10s %8s %8s %8s\n' build from took cpu
    local began
    for row in "${CI_BUILT[@]}"; do
      IFS='|' read -r id began took cpu <<<"$row"
      printf '   %-10s %8s %8s %8s\n' "$id" "$(clock "$began")" "$(clock "$took")" "$(clock "$cpu")"
    done
  fi
}
