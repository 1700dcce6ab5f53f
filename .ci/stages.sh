# The stage machinery of .ci/run, sourced by it (and by __tests__/ci/stages.test.ts, with stand-in stages): each
# stage is timed and its tests counted, and `finish` prints a table of stage times and one line "N passed, N failed"
# counting every test and check run, then exits non-zero on any failure. A stage's time is its wall time and the
# CPU time it and its child processes used (on a machine shared with other work, the second says more about what a
# stage costs).
#
#   stage "NAME" check COMMAND...  one check: passed when COMMAND exits 0
#   stage "NAME" jest COMMAND...   COMMAND writes a Jest --json report to "$STAGE_JSON"; each test counts
#   together "NAME|KIND|COMMAND" ...  stages at the same time, each COMMAND one word (a function or a program)
#   begin "NAME|KIND|COMMAND"; ...; await_stages NAME...  a stage started now, awaited later (see begin)
#
# A Jest stage that fails without a failed test in its report (no report, a crash, a setup error) counts as one
# failure, so a stage cannot pass by not running.

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
passed=0
failed=0
status=0
timings=""
run_started=$SECONDS

# The tests a Jest --json report counts, as "passed failed" (a suite that could not run counts as one failure).
jest_counts() {
  node -e '
    try {
      const r = require(process.argv[1]);
      console.log(r.numPassedTests, r.numFailedTests + r.numRuntimeErrorTestSuites);
    } catch { console.log("0 0"); }' "$1"
}

# The CPU seconds in the output of `times` run at the end of a stage's subshell: its children's user + system.
cpu_seconds() {
  awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"
}

# A file name for a stage's report and log: its name with everything but letters and digits as underscores.
stage_file() { printf '%s/%s' "$results" "$(printf '%s' "$1" | tr -c 'A-Za-z0-9' '_')"; }

# Adds a finished stage to the counts and the table: $1 name, $2 kind, $3 exit code, $4 seconds, $5 report,
# $6 CPU seconds.
record() {
  local name=$1 kind=$2 rc=$3 seconds=$4 json=$5 cpu=$6 p=0 f=0 counts
  if [ "$kind" = jest ]; then
    counts=$(jest_counts "$json")
    p=${counts% *}
    f=${counts#* }
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  elif [ "$rc" -eq 0 ]; then p=1; else f=1; fi
  passed=$((passed + p))
  failed=$((failed + f))
  local result="ok"
  if [ "$rc" -ne 0 ] || [ "$f" -gt 0 ]; then
    status=1
    result="FAILED"
  fi
  [ "$kind" = jest ] && result="$result ($p passed, $f failed)"
  timings+=$(printf '  %-44s %5d s  %5d s  %s' "$name" "$seconds" "$cpu" "$result")$'\n'
  echo "<== $name: ${seconds} s (CPU ${cpu} s), $result"
}

# stage NAME KIND COMMAND...: runs one stage now, its output as it comes.
stage() {
  local name=$1 kind=$2
  shift 2
  local json rc start=$SECONDS
  json="$(stage_file "$name").json"
  echo "==> $name"
  # The command runs in a subshell of its own, so a stage that calls `exit` still has its time taken.
  (
    (STAGE_JSON=$json "$@")
    stage_rc=$?
    times >"$json.cpu"
    exit $stage_rc
  )
  rc=$?
  record "$name" "$kind" "$rc" $((SECONDS - start)) "$json" "$(cpu_seconds "$json.cpu")"
}

# begin "NAME|KIND|COMMAND": starts a stage in the background and returns at once, so that a long stage can start
# as soon as what it needs is there and run beside whatever comes after. `await_stages NAME...` waits for the named
# ones (with no names: every one begun), prints each one's output whole as it ends, in the order given, and records
# it; `finish` awaits any still running, so a begun stage is never left out of the count.
declare -A begun_pid=() begun_kind=() begun_log=() begun_start=()
begun_order=()
begin() {
  local name kind command log
  IFS='|' read -r name kind command <<<"$1"
  log="$(stage_file "$name").log"
  echo "==> $name (beside the others running)"
  (
    (STAGE_JSON=${log%.log}.json "$command" >"$log" 2>&1)
    echo $? >"$log.rc"
    echo $SECONDS >"$log.end"
    times >"$log.cpu"
  ) &
  begun_pid[$name]=$!
  begun_kind[$name]=$kind
  begun_log[$name]=$log
  begun_start[$name]=$SECONDS
  begun_order+=("$name")
}

await_stages() {
  local -a names=("$@")
  [ ${#names[@]} -gt 0 ] || names=("${begun_order[@]}")
  local name log
  for name in "${names[@]}"; do
    [ -n "${begun_pid[$name]:-}" ] || continue
    wait "${begun_pid[$name]}"
    log=${begun_log[$name]}
    echo "---- output of: $name"
    cat "$log"
    record "$name" "${begun_kind[$name]}" "$(cat "$log.rc")" $(($(cat "$log.end") - ${begun_start[$name]})) \
      "${log%.log}.json" "$(cpu_seconds "$log.cpu")"
    unset "begun_pid[$name]"
  done
}

# together "NAME|KIND|COMMAND" ...: runs stages at the same time and waits for all of them; each one's output is
# printed whole as it ends, in the order given.
together() {
  local spec name
  local -a names=()
  for spec in "$@"; do
    begin "$spec"
    names+=("${spec%%|*}")
  done
  await_stages "${names[@]}"
}

# Prints the table of stage times and the closing line, and exits: 0 when every stage passed.
finish() {
  [ ${#begun_order[@]} -eq 0 ] || await_stages
  echo "==> stage times"
  printf '  %-44s %7s  %7s  %s\n' "stage" "wall" "CPU" "result"
  printf '%s' "$timings"
  printf '  %-44s %5d s\n' "total" $((SECONDS - run_started))
  [ "$failed" -gt 0 ] && status=1
  echo "$passed passed, $failed failed"
  exit $status
}
