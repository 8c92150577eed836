#!/usr/bin/env python3
"""Checks Home Assistant MQTT discovery messages against Home Assistant's own schemas.

Reads `topic<TAB>payload` lines (what `mosquitto_sub -F '%t\t%p'` prints) on stdin, takes the
`<prefix>/<component>/.../config` ones, expands abbreviations as Home Assistant's MQTT discovery
does (discovery.py), checks the origin block with MQTT_ORIGIN_INFO_SCHEMA and the payload with the
component's discovery schema (sensor, event, device_automation), checks that no two entities
share a unique id, and reports keys the schema drops (Home Assistant would ignore them). The
origin block is required here (Home Assistant only recommends it). Needs the `homeassistant` package (the 2024.1 series runs
on Python 3.11): `pip install homeassistant==2024.1.6` in a virtual environment.

Exit status 0 when every message validates, 1 otherwise; one line per message either way.
"""
import json
import sys

# Imported first, as Home Assistant's loader does: importing mqtt alone runs into a circular
# import (websocket_api → http → persistent_notification → websocket_api).
import homeassistant.components.persistent_notification  # noqa: F401
from homeassistant.components.mqtt import device_trigger, event, sensor
from homeassistant.components.mqtt.abbreviations import ABBREVIATIONS, DEVICE_ABBREVIATIONS, ORIGIN_ABBREVIATIONS
from homeassistant.components.mqtt.discovery import MQTT_ORIGIN_INFO_SCHEMA
from homeassistant.const import __version__

SCHEMAS = {
    "sensor": sensor.DISCOVERY_SCHEMA,
    "event": event.DISCOVERY_SCHEMA,
    "device_automation": device_trigger.TRIGGER_DISCOVERY_SCHEMA,
}


def expand(payload):
    """Abbreviations expanded, as discovery.async_start does before validating."""
    payload = {ABBREVIATIONS.get(k, k): v for k, v in payload.items()}
    if isinstance(payload.get("device"), dict):
        payload["device"] = {DEVICE_ABBREVIATIONS.get(k, k): v for k, v in payload["device"].items()}
    if isinstance(payload.get("origin"), dict):
        payload["origin"] = {ORIGIN_ABBREVIATIONS.get(k, k): v for k, v in payload["origin"].items()}
    return payload


def check(topic, text):
    parts = topic.split("/")
    component = parts[1]
    if component not in SCHEMAS:
        return f"{topic}: no schema for component {component}"
    payload = expand(json.loads(text))
    if "origin" not in payload:
        return f"{topic}: no origin block"
    MQTT_ORIGIN_INFO_SCHEMA(payload["origin"])
    if component != "device_automation":
        payload["platform"] = "mqtt"
    validated = SCHEMAS[component](dict(payload))
    dropped = sorted(set(payload) - set(validated) - {"platform"})
    return None, dropped


def main():
    failures = 0
    count = 0
    unique_ids = {}
    for line in sys.stdin:
        topic, _, text = line.rstrip("\n").partition("\t")
        if not topic.endswith("/config") or not text:
            continue
        count += 1
        try:
            result = check(topic, text)
        except Exception as error:  # voluptuous.Invalid and JSON errors alike: report, go on
            print(f"INVALID {topic}: {error}")
            failures += 1
            continue
        if isinstance(result, str):
            print(f"INVALID {result}")
            failures += 1
            continue
        _, dropped = result
        unique_id = json.loads(text).get("unique_id")
        if unique_id is not None and unique_id in unique_ids:
            print(f"INVALID {topic}: unique_id {unique_id} is also {unique_ids[unique_id]}'s")
            failures += 1
            continue
        unique_ids[unique_id] = topic
        note = f" (Home Assistant {__version__} ignores: {', '.join(dropped)})" if dropped else ""
        print(f"ok {topic}{note}")
    print(f"{count} config messages, {failures} invalid, Home Assistant {__version__}")
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
