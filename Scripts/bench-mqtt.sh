#!/usr/bin/env bash
# MQTT at scale on one machine: N = 1, 10, 50 simulated daemons (`imu run --sim shake` with an
# [mqtt] table) against one local mosquitto, read by mosquitto_sub; prints a markdown table of
# event latency (p50, p99), messages per second, broker CPU, and CPU and memory per daemon.
# Then the shake → GPIO latency of `imu run`'s dispatch without MQTT, with MQTT, and with the
# broker stopped (SIGSTOP) for 30 s of the 40 s run.
# A benchmark, not a test (about 4 minutes; not in CI).
#   bash Scripts/bench-mqtt.sh [COUNTS] [SECONDS]     e.g. bash Scripts/bench-mqtt.sh 1,10,50 20
set -euo pipefail
cd "$(dirname "$0")/.."
counts="${1:-1,10,50}"
seconds="${2:-20}"
for tool in /usr/sbin/mosquitto /usr/bin/mosquitto_sub /usr/bin/mosquitto_pub; do
    [ -x "$tool" ] || { echo "bench-mqtt: $tool is missing: bash Scripts/setup.sh --tests" >&2; exit 1; }
done
swift build -c release --static-swift-stdlib --product imu >/dev/null
python3 Scripts/bench-mqtt.py "$PWD/.build/release/imu" "$counts" "$seconds"

echo
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
conf=$(mktemp)
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n' "$port" >"$conf"
/usr/sbin/mosquitto -c "$conf" &
broker=$!
trap 'kill -CONT $broker 2>/dev/null || true; kill $broker 2>/dev/null || true; rm -f "$conf"' EXIT
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
echo "#### Without MQTT"
.build/release/imu bench events --actions-only --seconds 40
echo "#### With MQTT (broker answering)"
.build/release/imu bench events --actions-only --seconds 40 --mqtt "mqtt://127.0.0.1:$port"
echo "#### With MQTT, the broker stopped (SIGSTOP) from 5 s to 35 s"
(sleep 5; kill -STOP "$broker"; sleep 30; kill -CONT "$broker") &
stopper=$!
.build/release/imu bench events --actions-only --seconds 40 --mqtt "mqtt://127.0.0.1:$port"
wait "$stopper"
