#!/usr/bin/env python3
"""Writes imu(1) in roff from what the command says of itself.

    imu --experimental-dump-help | python3 Scripts/man-page.py --date 2026-11-26 > imu.1

swift-argument-parser's `--experimental-dump-help` prints the whole command tree as JSON (its
ToolInfo format: commands with abstract, discussion, arguments and subcommands; arguments with
kind, names, valueName, abstract, defaultValue). One page for the whole tree, a section per
subcommand, so `man imu` shows every option the binary accepts and nothing it does not.
Used by Scripts/package-deb.sh. Standard library only.
"""
import argparse
import json
import sys


def roff(text):
    """Escapes text for roff: backslashes, and a leading dot or quote on a line."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def paragraphs(text):
    """A discussion as roff paragraphs (blank lines separate them; indented lines stay as they are)."""
    out = []
    for block in text.strip().split("\n\n"):
        if not block.strip():
            continue
        if any(line.startswith(" ") for line in block.split("\n")):
            out += [".PP", ".nf", roff(block), ".fi"]
        else:
            out += [".PP", roff(" ".join(line.strip() for line in block.split("\n")))]
    return out


def spelling(name):
    kind = name.get("kind")
    if kind == "long":
        return "--" + name["name"]
    if kind == "longWithSingleDash":
        return "-" + name["name"]
    return "-" + name["name"]


def argument_lines(argument):
    if not argument.get("shouldDisplay", True):
        return []
    names = [spelling(name) for name in argument.get("names", [])]
    value = argument.get("valueName", "")
    kind = argument.get("kind")
    if kind == "positional":
        head = "\\fI" + roff(value or "value") + "\\fR"
    else:
        head = ", ".join("\\fB" + roff(name) + "\\fR" for name in names)
        if kind == "option" and value:
            head += " \\fI" + roff(value) + "\\fR"
    if argument.get("isRepeating"):
        head += " ..."
    out = [".TP", head]
    text = argument.get("abstract", "")
    default = argument.get("defaultValue")
    if default not in (None, "") and kind != "flag":
        text = (text + " " if text else "") + "(default: %s)" % default
    out.append(roff(text) if text else "")
    if argument.get("discussion"):
        discussion = argument["discussion"]
        if isinstance(discussion, dict):
            # Enumerated values: {"enumerated": {"values": [{"value": …, "description": …}]}}.
            values = discussion.get("enumerated", {}).get("values", [])
            discussion = "\n".join("%s: %s" % (v.get("value", ""), v.get("description", "")) for v in values)
        out += [".RS"] + paragraphs(discussion) + [".RE"]
    return out


def synopsis(command, path):
    parts = ["\\fB" + roff(" ".join(path)) + "\\fR"]
    for argument in command.get("arguments", []):
        if not argument.get("shouldDisplay", True):
            continue
        kind = argument.get("kind")
        if kind == "positional":
            part = "\\fI" + roff(argument.get("valueName", "value")) + "\\fR"
        else:
            names = argument.get("names", [])
            preferred = argument.get("preferredName") or (names[0] if names else {"kind": "long", "name": "?"})
            part = "\\fB" + roff(spelling(preferred)) + "\\fR"
            if kind == "option":
                part += " \\fI" + roff(argument.get("valueName", "value")) + "\\fR"
        if argument.get("isRepeating"):
            part += " ..."
        if argument.get("isOptional"):
            part = "[" + part + "]"
        parts.append(part)
    if command.get("subcommands"):
        parts.append("\\fIsubcommand\\fR")
    return " ".join(parts)


def section(command, path, heading):
    out = []
    if heading:
        out += [".SS " + roff(" ".join(path))]
    else:
        out += [".SH SYNOPSIS"]
    out += [synopsis(command, path)]
    if heading and command.get("abstract"):
        out += [".PP", roff(command["abstract"])]
    if heading and command.get("discussion"):
        out += paragraphs(command["discussion"])
    shown = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]
    if shown:
        out += [".PP", "Options:"] if heading else [".SH OPTIONS"]
        for argument in shown:
            out += argument_lines(argument)
    return out


def walk(command, path, out):
    for sub in command.get("subcommands", []):
        name = sub.get("commandName", "")
        if name == "help":
            continue
        sub_path = path + [name]
        out += section(sub, sub_path, heading=True)
        walk(sub, sub_path, out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--date", required=True, help="the page's date, e.g. 2026-11-26")
    parser.add_argument("--version", default="", help="the program's version, for the footer")
    args = parser.parse_args()
    try:
        tool = json.load(sys.stdin)
    except json.JSONDecodeError as error:
        sys.exit("man-page.py: stdin is not the JSON of --experimental-dump-help: %s" % error)
    command = tool.get("command")
    if not isinstance(command, dict) or "commandName" not in command:
        sys.exit("man-page.py: no command in the JSON (expected {\"command\": {\"commandName\": …}})")
    name = command["commandName"]
    out = [
        '.TH %s 1 "%s" "%s %s" "User Commands"' % (name.upper(), args.date, name, args.version),
        ".SH NAME",
        "%s \\- %s" % (roff(name), roff(command.get("abstract", ""))),
    ]
    out += section(command, [name], heading=False)
    if command.get("discussion"):
        out += [".SH DESCRIPTION"] + paragraphs(command["discussion"])
    if command.get("subcommands"):
        out += [".SH SUBCOMMANDS"]
        walk(command, [name], out)
    out += [
        ".SH FILES",
        ".TP", "/etc/imu/rules.toml", "The service's rules (events to GPIO and command actions; [mqtt], [http], [dbus]).",
        ".TP", "/var/lib/imu", "Calibration and the dashboard's token, shared by \\fBimu calibrate\\fR and the service.",
        ".TP", "/usr/share/imu/boards", "Board and hat profiles (\\fB\\-\\-board\\fR NAME).",
        ".TP", "/usr/share/doc/imu/examples", "Example rules.",
        ".SH SEE ALSO",
        "\\fBsystemctl\\fR(1), \\fBjournalctl\\fR(1), \\fBmonitor\\-sensor\\fR(1), \\fBmosquitto_sub\\fR(1)",
    ]
    sys.stdout.write("\n".join(line for line in out) + "\n")


if __name__ == "__main__":
    main()
