#!/usr/bin/env bash
# Soak of `imu run`'s command actions on the twin: a command fired about 10 times a second for
# DURATION seconds (default 600), half of the launches commands that fork and exit (leaving a
# child in their group) or ignore SIGTERM. Samples the daemon in /proc every 5 s and checks:
#   - zombies: none that lasts (a child seen as a zombie in two samples 1 s apart), and none
#     left at the end;
#   - the daemon's own descriptors (all but the commands' output pipes and pidfds, two per
#     running command) the same in the last minute as in the first, and resident memory flat
#     (first-minute and last-minute means);
#   - every launch accounted for: rule firings = started + dropped + not started, and
#     started = finished + timed out + stopped; no command process left after the daemon.
#
# The event: the `spin` scenario turns the board at 90 °/s and the rules ask for a heading
# event every 8° (`heading-filter-deg`); the fused heading follows the turn at ~86 °/s once
# settled, so `on = "heading"` fires about 10 times a second.
# The command's behaviour is chosen from the event's heading (whole degrees mod 4):
#   0 exits at once, 1 prints 30 lines (more than the log takes), 2 forks `sleep` and exits
#   (the child is killed with the group at the timeout), 3 ignores SIGTERM and sleeps (SIGKILL
#   after the grace period).
#
# Usage: Scripts/soak-actions.sh [DURATION_S] [IMU_BINARY]
#   Figures are printed at the end and kept in $SOAK_DIR (default: a temporary directory).
set -euo pipefail

duration=${1:-600}
imu=${2:-.build/debug/imu}
[[ -x $imu ]] || { echo "soak-actions: no imu binary at $imu (swift build first, or pass it)" >&2; exit 2; }
dir=${SOAK_DIR:-$(mktemp -d /tmp/imu-soak-actions.XXXXXX)}
mkdir -p "$dir"
rules=$dir/rules.toml
log=$dir/daemon.log
samples=$dir/samples.tsv
# A marker no other process on the machine uses, to find leftovers.
marker=299.25

cat >"$rules" <<EOF
max-running-commands = 16
command-kill-grace-ms = 300
heading-filter-deg = 8

[[rule]]
name = "soak"
on = "heading"
max-running-commands = 12
  [[rule.action]]
  command = ["/bin/sh", "-c", '''
n=\${IMU_HEADING_DEG%%.*}
case \$((n % 4)) in
  0) exit 0 ;;
  1) i=0; while [ \$i -lt 30 ]; do echo "line \$i of a chatty command"; i=\$((i + 1)); done ;;
  2) sleep $marker & exit 0 ;;
  3) trap '' TERM; sleep $marker ;;
esac''']
  timeout-ms = 400
EOF

"$imu" run --config "$rules" --sim spin --duration "$duration" 2>"$log" &
daemon=$!
echo "soak-actions: imu run (pid $daemon) for $duration s; logs and samples in $dir" >&2

# Children of the daemon that are zombies now: "pid pid …".
zombies() {
    local out=""
    for stat in /proc/[0-9]*/stat; do
        { read -r pid _ state ppid _ <"$stat"; } 2>/dev/null || continue
        [[ $ppid == "$daemon" && $state == Z ]] && out+="$pid "
    done
    echo "$out"
}

printf 't_s\tfds\trss_kb\tzombies_now\tzombies_lasting\tchildren\tcommand_fds\n' >"$samples"
start=$(date +%s)
lasting_max=0
now_max=0
while kill -0 "$daemon" 2>/dev/null; do
    t=$(($(date +%s) - start))
    kill -0 "$daemon" 2>/dev/null || break
    # A descriptor may close between the listing and readlink: not an error.
    links=$(for fd in /proc/$daemon/fd/*; do readlink "$fd" 2>/dev/null || true; done)
    fds=$(grep -c . <<<"$links" || true)
    command_fds=$(grep -c '^pipe:\|pidfd' <<<"$links" || true)
    rss=$(awk '/^VmRSS:/ {print $2}' /proc/$daemon/status 2>/dev/null) || break
    children=$(pgrep -P "$daemon" | wc -l || true)
    first=$(zombies)
    sleep 1
    second=$(zombies)
    lasting=0
    for pid in $first; do [[ " $second " == *" $pid "* ]] && lasting=$((lasting + 1)); done
    count_now=$(wc -w <<<"$first")
    ((count_now > now_max)) && now_max=$count_now
    ((lasting > lasting_max)) && lasting_max=$lasting
    [[ -n $rss ]] && printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$fds" "$rss" "$count_now" "$lasting" "$children" "$command_fds" >>"$samples"
    sleep 4
done
wait "$daemon" && status=0 || status=$?
sleep 1
leftovers=$(pgrep -f "sleep $marker" | wc -l || true)

# Accounting from the log.
fired=$(grep -c 'rule fired' "$log" || true)
stop_line=$(grep -E '^(<6>)?stopped' "$log" | tail -1)
field() { sed -n "s/.*[ =]$1=\([0-9]*\).*/\1/p" <<<"$stop_line"; }
started=$(field started); finished=$(field finished); timed_out=$(field timed_out)
stopped=$(field stopped); dropped=$(field dropped); not_started=$(field not_started)
running=$(field running); logged=$(field output_lines_logged); lines_dropped=$(field output_lines_dropped)
modes=$(grep 'rule fired' "$log" | sed -n 's/.*"heading_deg":\([0-9]*\).*/\1/p' | awk '{c[$1 % 4]++} END {printf "exit=%d chatty=%d fork-and-exit=%d ignore-TERM=%d", c[0], c[1], c[2], c[3]}')

# The first minute starts with the first sample after start-up (t = 0 is taken as the process
# starts, before the Swift runtime and the twin are up).
means=$(awk -F'\t' -v d="$duration" 'NR > 1 {
        if ($1 >= 1 && $1 < 61) { f1 += $2; r1 += $3; n1++; o = $2 - $7; if (!o1n++ || o > o1) o1 = o; if (o1min == "" || o < o1min) o1min = o }
        if ($1 >= d - 60) { f2 += $2; r2 += $3; n2++; o = $2 - $7; if (!o2n++ || o > o2) o2 = o; if (o2min == "" || o < o2min) o2min = o }
    } END { if (n1 && n2) printf "%.1f %.0f %.1f %.0f %d %d %d %d", f1/n1, r1/n1, f2/n2, r2/n2, o1min, o1, o2min, o2; else print "0 0 0 0 0 0 0 0" }' "$samples")
read -r fds_first rss_first fds_last rss_last own_first_min own_first_max own_last_min own_last_max <<<"$means"
ranges=$(awk -F'\t' 'NR > 2 { if (!n++ || $2 < fmin) fmin = $2; if ($2 > fmax) fmax = $2; if (n == 1 || $3 < rmin) rmin = $3; if ($3 > rmax) rmax = $3 }
    END { printf "fds %d–%d, resident memory %d–%d kB", fmin, fmax, rmin, rmax }' "$samples")

echo
echo "imu run exit status: $status"
echo "rule firings: $fired in $duration s ($(awk -v f="$fired" -v d="$duration" 'BEGIN {printf "%.2f", f/d}')/s): $modes"
echo "launches: started=$started finished=$finished timed_out=$timed_out stopped=$stopped dropped=$dropped not_started=$not_started running_at_end=$running"
echo "output lines: logged=$logged dropped=$lines_dropped"
echo "zombies: most seen at an instant=$now_max, lasting ≥1 s=$lasting_max; command processes left after the daemon: $leftovers"
echo "open fds (mean, with two per running command): first minute $fds_first, last minute $fds_last"
echo "the daemon's own fds: first minute $own_first_min–$own_first_max, last minute $own_last_min–$own_last_max"
echo "resident memory (kB): first minute $rss_first, last minute $rss_last"
echo "range over the run (after start-up): $ranges"

ok=1
[[ $fds_first != 0 && $fds_last != 0 ]] || { echo "FAIL: no samples in the first or the last minute"; ok=0; }
[[ $status == 0 ]] || { echo "FAIL: imu run exited $status"; ok=0; }
[[ -n $started ]] || { echo "FAIL: no command counts in the log"; ok=0; started=0; }
((fired == started + dropped + not_started)) || { echo "FAIL: firings ($fired) != started + dropped + not started"; ok=0; }
((started == finished + timed_out + stopped + running)) || { echo "FAIL: started != finished + timed out + stopped"; ok=0; }
((lasting_max == 0)) || { echo "FAIL: a zombie lasted"; ok=0; }
((leftovers == 0)) || { echo "FAIL: $leftovers command processes outlived the daemon"; ok=0; }
((own_last_max <= own_first_max)) || { echo "FAIL: the daemon's own descriptors grew"; ok=0; }
# Flat: the last minute within 2 MB of the first (6.6 kB a launch, the old leak, would be ~40 MB).
awk -v a="$rss_first" -v b="$rss_last" 'BEGIN {exit !(b <= a + 2048)}' || { echo "FAIL: resident memory grew"; ok=0; }
((ok)) && echo "soak-actions: PASS" || { echo "soak-actions: FAIL (log: $log)"; exit 1; }
