#!/usr/bin/env bash
# Checks Scripts/imu-network-generator: which drop-in each rules file gets, and that the unit with
# that drop-in still rates ≤ 2.0 in `systemd-analyze security` (offline; the drop-in is appended,
# as systemd merges it). Prints `network generator: PASS (N checks)` last; no root, no systemd.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
flunk() { echo "FAIL $1"; failed=$((failed + 1)); }

# generate RULES-TEXT: the drop-in's [Service] lines for that rules file ("" when none is written).
generate() {
    rm -rf "$work/out"
    printf '%b' "$1" >"$work/rules.toml"
    IMU_RULES_FILE="$work/rules.toml" sh "$root/Scripts/imu-network-generator" "$work/out" "$work/early" "$work/late"
    if [ -f "$work/out/imu.service.d/50-imu-network.conf" ]; then
        grep -v '^#' "$work/out/imu.service.d/50-imu-network.conf" | grep -v '^\[Service\]$'
    fi
}
expect() { # NAME RULES EXPECTED-IPAddressAllow ("" = no drop-in)
    local got
    got=$(generate "$2" | sed -n 's/^IPAddressAllow=//p')
    if [ "$got" = "$3" ]; then pass "$1"; else flunk "$1: got '$got' expected '$3'"; fi
}
lan="localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"
expect "no [mqtt] or [http]: no drop-in (the unit's PrivateNetwork=yes stays)" \
    "$(cat "$root/Scripts/rules.installed.toml")" ""
expect "an [mqtt]-like key elsewhere is not a table" '[[rule]]\nname = "mqtt"\n# [mqtt]\n' ""
expect "[mqtt] on localhost" '[mqtt]\nurl = "mqtt://localhost:1883"\n' "localhost"
expect "[mqtt] on an address, with a user and a port" '[mqtt]\nurl = "mqtts://imu@192.168.1.4:8883"\n' "192.168.1.4"
expect "[mqtt] on an IPv6 loopback" '[mqtt]\nurl = "mqtt://[::1]:1883"\n' "localhost"
expect "[mqtt] on a host name: the local networks and resolvers" '[mqtt]\nurl = "mqtt://broker.lan"\n' \
    "$(printf '%s\n' $lan $(awk '$1 == "nameserver" { print $2 }' /etc/resolv.conf 2>/dev/null) | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')"
expect "[http] on loopback" '[http]\nlisten = "127.0.0.1:8080"\n' "localhost"
expect "[http] on all addresses (a comment after the value)" '[http]\nlisten = "0.0.0.0:8080"   # the LAN\n' "$lan"
expect "[http] with no listen key: its default, the local networks" '[http]\nallow-control = true\n' "$lan"
expect "[mqtt] and [http] on loopback: localhost once" '[mqtt]\nurl = "mqtt://127.0.0.1"\n\n[http]\nlisten = "[::1]:8080"\n' "localhost"

body=$(generate '[mqtt]\nurl = "mqtt://localhost"\n[http]\nlisten = "0.0.0.0:8080"\n')
for line in "PrivateNetwork=no" "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" "IPAddressDeny=any"; do
    if printf '%s\n' "$body" | grep -qx "$line"; then pass "the drop-in has $line"; else flunk "the drop-in lacks $line: $body"; fi
done
if IMU_RULES_FILE="$work/none.toml" sh "$root/Scripts/imu-network-generator" "$work/x" && [ ! -e "$work/x" ]; then
    pass "no rules file: no drop-in, exit 0"
else
    flunk "no rules file: the generator failed or wrote something"
fi

if command -v systemd-analyze >/dev/null; then
    for case in 'localhost:[mqtt]\nurl = "mqtt://localhost"\n[http]\nlisten = "127.0.0.1:8080"\n' \
                'the local networks:[mqtt]\nurl = "mqtt://broker.lan"\n[http]\nlisten = "0.0.0.0:8080"\n'; do
        name=${case%%:*}
        { cat "$root/Scripts/imu.service"; generate "${case#*:}" | sed '1i [Service]'; } >"$work/imu.service"
        exposure=$(systemd-analyze security --offline=true --no-pager "$work/imu.service" 2>/dev/null \
            | sed -n 's/.*Overall exposure level for imu.service: \([0-9.]*\).*/\1/p')
        if awk -v e="$exposure" 'BEGIN { exit !(e != "" && e + 0 <= 2.0) }'; then
            pass "exposure with MQTT and the dashboard ($name): $exposure ≤ 2.0"
        else
            flunk "exposure with MQTT and the dashboard ($name): '$exposure' > 2.0"
        fi
    done
else
    echo "SKIP exposure: systemd-analyze is absent (Debian's systemd package)"
fi

[ "$failed" -eq 0 ] || { echo "network generator: FAIL ($failed of $((passed + failed)) checks)"; exit 1; }
echo "network generator: PASS ($passed checks)"
