#!/usr/bin/env python3
"""Runs every shell block of README.md and Docs/*.md on the twin, so the documentation cannot rot.

    python3 Scripts/check-docs.py [--imu PATH] [--live-seconds S] [--timeout S] [FILE.md ...]

Every ```sh (or ```bash) block is run, command by command, in a scratch directory of its page
(the repository's Scripts/, Boards/, Docs/ and python/ linked in, so relative paths work, and
what a command writes stays in the scratch directory), with `imu` on PATH (the binary given, by
default this clone's .build/debug/imu) and HOME, XDG_CONFIG_HOME and XDG_RUNTIME_DIR inside
the scratch directory (a calibration saved by a block lands there, not in your home).

- Each command runs in a `bash -c` of its own, its standard input /dev/null, with the
  environment and directory the commands before it in its block left (so `export` and `cd`
  work as in a terminal); a command continued with a trailing backslash is one command;
  comment and blank lines are skipped.
- Live views (`imu stream`, `imu demo`, `imu events` and `imu run` without --duration,
  --count or --replay, and any command whose comment says "Ctrl-C") run on a terminal of
  their own (a pseudo-terminal of 80×24, so the views draw as they do for you) and get SIGINT
  --live-seconds after their first output (a view that prints nothing within --timeout fails)
  and must then exit 0 within 10 s (`imu` itself must exit 0; another program,
  such as socat, may end as a shell reports Ctrl-C, with status 130).
- A command ending in `&` runs in the background while the block goes on; at the block's end
  it gets SIGINT and must exit 0 within 10 s.
- Any other command must exit 0 within --timeout seconds.
- Every repository path a page names in backticks (`Docs/…`, `Scripts/…`, `Boards/…`, …) and
  every relative link must exist, so a moved file cannot leave a page pointing nowhere.
- A block with a line `# needs: WHAT` is not run (hardware, root, systemd, a network…); it is
  listed with its reason. Docs/testing.md describes the convention.

Fails naming the file, the line and the command, with the end of its output; the last line is
`docs check: PASS (N commands in M blocks; K blocks need what the twin lacks)`.
"""
import argparse
import fcntl
import os
import pty
import re
import shutil
import signal
import subprocess
import struct
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^`\s]*)")
SHELLS = {"sh", "bash", "shell"}
NEEDS = re.compile(r"^#\s*needs:\s*(.+)$")
LIVE = re.compile(r"(^|[\s;&|(])imu\s+(stream|demo|events|run)\b")
FINITE = re.compile(r"--(duration|count|replay)\b|--help\b|--list-scenarios\b|\|\s*head\b")
GRACE = 10.0
# A command that ends in `&` (not `&&`), before its comment if it has one.
BACKGROUND = re.compile(r"(?<!&)&\s*(#.*)?$")
INTERRUPTED = {128 + signal.SIGINT, -signal.SIGINT}


class Block:
    def __init__(self, path, line, language):
        self.path, self.line, self.language = path, line, language
        self.lines = []          # (line number, text)
        self.needs = None

    def commands(self):
        """(line, command) pairs: backslash continuations joined; comments and blanks skipped."""
        out, pending, start = [], "", None
        for number, text in self.lines:
            stripped = text.strip()
            if not pending and (not stripped or stripped.startswith("#")):
                continue
            if start is None:
                start = number
            if stripped.endswith("\\"):
                pending += stripped[:-1] + " "
                continue
            out.append((start, pending + stripped))
            pending, start = "", None
        if pending:
            raise SystemExit(f"{self.path}:{start}: a command ends in a backslash at the end of its block")
        return out


def blocks_of(path):
    """The fenced blocks of a Markdown file whose language is a shell."""
    found, current, fence = [], None, None
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = FENCE.match(text)
        if current is None:
            if match:
                fence = match.group(2)
                language = match.group(3).lower()
                current = Block(path, number, language) if language in SHELLS else False
            continue
        if match and match.group(2).startswith(fence) and not match.group(3):
            if current:
                found.append(current)
            current, fence = None, None
            continue
        if current:
            needs = NEEDS.match(text.strip())
            if needs:
                current.needs = needs.group(1).strip()
            current.lines.append((number, text))
    if current is not None:
        raise SystemExit(f"{path}: a code block is never closed")
    return found


PATH_MENTION = re.compile(r"`((?:Docs|Scripts|Boards|Sources|Tests|python|Firmware|Fuzz|Benchmarks|Examples|\.ci)/[^`\s]*)`")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def missing_references(page):
    """Files a page names (`Docs/x.md`, `Scripts/y.sh`, relative links) that are not there."""
    found = []
    for number, text in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        for match in PATH_MENTION.finditer(text):
            path = match.group(1).rstrip(".,;:")
            if not any(mark in path for mark in "<*…{$") and not (REPO / path).exists():
                found.append(f"{os.path.relpath(page, REPO)}:{number}: `{path}` is not in the repository")
        for match in LINK.finditer(text):
            target = match.group(1)
            if "://" not in target and not target.startswith("mailto:") and not (page.parent / target).exists():
                found.append(f"{os.path.relpath(page, REPO)}:{number}: the link to {target} leads nowhere")
    return found


def is_live(command):
    return "Ctrl-C" in command or (bool(LIVE.search(command)) and not FINITE.search(command))


def scratch_for(page, root, imu):
    """A scratch directory for one page: imu on PATH, the repository's data linked in."""
    directory = Path(tempfile.mkdtemp(prefix=page.stem + "-", dir=root))
    for name in ["Scripts", "Boards", "Docs", "python"]:
        (directory / name).symlink_to(REPO / name)
    (directory / "bin").mkdir()
    (directory / "bin" / "imu").symlink_to(imu)
    for name in ["home", "config", "run"]:
        (directory / name).mkdir(mode=0o700)
    environment = dict(os.environ)
    for name in ["IMU_CALIBRATION_DIR", "IMU_BOARDS_DIR", "JOURNAL_STREAM", "VIRTUAL_ENV"]:
        environment.pop(name, None)
    environment.update({
        "PATH": f"{directory / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": str(directory / "home"),
        "XDG_CONFIG_HOME": str(directory / "config"),
        "XDG_RUNTIME_DIR": str(directory / "run"),
        "TERM": "dumb",
    })
    return directory, environment


def stop(process, log):
    """SIGINT to the command's process group; the exit status, or None when it would not stop."""
    try:
        os.killpg(process.pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    try:
        return process.wait(timeout=GRACE)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return None


def tail(log_path, lines=15):
    text = Path(log_path).read_text(encoding="utf-8", errors="replace").splitlines()
    return "\n".join("    " + line for line in text[-lines:])


def run_block(block, directory, environment, arguments, counts):
    """Runs one block; returns a list of failure messages (empty when it passed)."""
    failures, background = [], []
    where = os.path.relpath(block.path, REPO)

    state = {"env": dict(environment), "cwd": str(directory)}
    saved_env, saved_cwd = directory / ".env", directory / ".cwd"

    def start(line, command, log, keep_state, terminal=False):
        # A command that exports, sets or changes directory does so for the rest of its block,
        # as in a terminal: the shell's environment and directory are read back after it.
        script = 'eval "$1"; status=$?; env -0 > "$2"; pwd > "$3"; exit $status' if keep_state else 'eval "$1"'
        arguments = ["bash", "-c", script, "bash", command, saved_env, saved_cwd]
        if not terminal:
            return subprocess.Popen(arguments, cwd=state["cwd"], env=state["env"],
                                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        # A live view runs on a terminal of 80×24, as in a user's: what it draws goes to the log.
        main, side = pty.openpty()
        fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        process = subprocess.Popen(arguments, cwd=state["cwd"], env=dict(state["env"], TERM="xterm-256color"),
                                   stdin=side, stdout=side, stderr=side, start_new_session=True)
        os.close(side)

        process.first_output = threading.Event()

        def drain():
            while True:
                try:
                    chunk = os.read(main, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                try:
                    log.write(chunk.decode("utf-8", "replace"))
                except ValueError:   # the log closed: the command's time is up
                    break
                process.first_output.set()
            os.close(main)
        process.drain = threading.Thread(target=drain, daemon=True)
        process.drain.start()
        return process

    def keep_state():
        if saved_env.exists() and saved_cwd.exists():
            pairs = saved_env.read_bytes().decode("utf-8", "replace").split("\0")
            state["env"] = dict(pair.split("=", 1) for pair in pairs if "=" in pair)
            state["cwd"] = saved_cwd.read_text().strip() or state["cwd"]
        for path in (saved_env, saved_cwd):
            path.unlink(missing_ok=True)

    try:
        run_commands(block, directory, arguments, counts, failures, background, start, keep_state, where)
    except BaseException:   # interrupted (Ctrl-C on the check itself): leave nothing running
        for _, _, process, _, _ in background:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        raise
    return stop_background(background, failures, where)


def run_commands(block, directory, arguments, counts, failures, background, start, keep_state, where):
    for line, command in block.commands():
        counts["commands"] += 1
        log_path = directory / f"line-{line}.log"
        if BACKGROUND.search(command):
            log = open(log_path, "w")
            foreground = BACKGROUND.sub(lambda match: " " + (match.group(1) or ""), command)
            background.append((line, command, start(line, foreground, log, False), log, log_path))
            print(f"  {where}:{line}: {command}  (background)", flush=True)
            continue
        live = is_live(command)
        began = time.monotonic()
        with open(log_path, "w") as log:
            process = start(line, command, log, True, terminal=live)
            try:
                if live:
                    # The user's Ctrl-C comes once the view is up: the clock starts at its first
                    # output, so a slow start on a loaded machine is not taken for a failure.
                    deadline = time.monotonic() + arguments.timeout
                    while not process.first_output.wait(0.05) and process.poll() is None \
                            and time.monotonic() < deadline:
                        pass
                    if not process.first_output.is_set() and process.poll() is None:
                        raise subprocess.TimeoutExpired(command, arguments.timeout)
                status = process.wait(timeout=arguments.live_seconds if live else arguments.timeout)
                how = ""
            except KeyboardInterrupt:
                os.killpg(process.pid, signal.SIGKILL)
                raise
            except subprocess.TimeoutExpired:
                if live and not process.first_output.is_set():
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
                    status, how = None, f", printed nothing in {arguments.timeout:g} s"
                elif live:
                    status = stop(process, log)
                    how = f", stopped by SIGINT after {arguments.live_seconds:g} s"
                    if status is None:
                        how = f", SIGINT after {arguments.live_seconds:g} s did not stop it within {GRACE:g} s"
                else:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
                    status, how = None, f", still running after {arguments.timeout:g} s"
            if live:
                # What the view drew last reaches the log before it closes.
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
                process.drain.join(GRACE)
        try:
            os.killpg(process.pid, signal.SIGKILL)   # nothing a finished command started outlives it
        except (ProcessLookupError, PermissionError):
            pass
        keep_state()
        elapsed = time.monotonic() - began
        print(f"  {where}:{line}: {command}  ({elapsed:.1f} s{how})", flush=True)
        if status in INTERRUPTED and "SIGINT after" in how and not command.startswith("imu "):
            status = 0   # another program (socat, jq) ended by Ctrl-C as a shell reports it
        if status != 0:
            message = (f"{where}:{line}: `{command}` "
                       + (f"exited {status}" if status is not None else "did not finish")
                       + how + "; its output ended:\n" + tail(log_path))
            for other_line, other, _, _, other_log in background:
                message += f"\n  and {where}:{other_line}: `{other}` (in the background) said:\n" + tail(other_log)
            failures.append(message)
            break


def stop_background(background, failures, where):
    """SIGINT to what a block left running, the last started first; each must exit 0."""
    for line, command, process, log, log_path in reversed(background):
        if process.poll() is None:
            status = stop(process, log)
            how = "stopped by SIGINT at the end of its block"
        else:
            status = process.returncode
            how = "ended before its block did"
        log.close()
        if status in INTERRUPTED and not command.startswith("imu "):
            status = 0   # another program (dbus-daemon, monitor-sensor) ended by Ctrl-C
        if status != 0:
            failures.append(f"{where}:{line}: `{command}` ({how}) "
                            + (f"exited {status}" if status is not None else f"did not stop within {GRACE:g} s")
                            + "; its output ended:\n" + tail(log_path))
    return failures


FAKE_IMU = """#!/bin/bash
# A stand-in for imu in the self-test: `imu stream` is a live view that stops cleanly on SIGINT,
# `imu stream --stubborn` one that ignores it, `imu stream --crash` one that fails on it.
case "$*" in
  *--stubborn*) trap '' INT; echo drawn; while :; do sleep 0.1; done ;;
  *--crash*) trap 'exit 3' INT; echo drawn; while :; do sleep 0.1; done ;;
  *--silent*) trap 'exit 0' INT; while :; do sleep 0.1; done ;;
  stream*) trap 'exit 0' INT; echo drawn; while :; do sleep 0.1; done ;;
  fail*) echo "imu: failing as asked" >&2; exit 1 ;;
  *) echo "imu $*" ;;
esac
"""

# (page text, what the check must say: None for a pass, else the text of its FAIL line)
SELF_TESTS = [
    ("```sh\nimu probe --sim\nimu stream --sim\nexport X=1\ncd Scripts && test \"$X\" = 1\ntest -f rules.example.toml\n```\n", None),
    ("text\n\n```sh\n# needs: hardware\nimu fail\n```\n", None),
    ("```sh\nimu probe\n```\n\n```sh\nimu fail --sim    # a comment\n```\n", "page.md:6: `imu fail --sim    # a comment` exited 1"),
    ("```sh\nsleep 120\n```\n", "page.md:2: `sleep 120` did not finish, still running after 10 s"),
    ("```sh\nimu stream --silent\n```\n", "page.md:2: `imu stream --silent` did not finish, printed nothing in 10 s"),
    ("```sh\nimu stream --stubborn\n```\n", "page.md:2: `imu stream --stubborn` did not finish, SIGINT after 2 s did not stop it"),
    ("```sh\nimu stream --crash\n```\n", "page.md:2: `imu stream --crash` exited 3, stopped by SIGINT after 2 s"),
    ("```sh\nimu stream --crash &   # in the background\nimu probe\n```\n", "page.md:2: `imu stream --crash &   # in the background` (stopped by SIGINT at the end of its block) exited 3"),
    ("```sh\nimu probe \\\n  --json\nfalse\n```\n", "page.md:4: `false` exited 1"),
    ("See `Scripts/check-docs.py` and `Docs/testing.md`.\nSee `Docs/nothere.md`.\n", "page.md:2: `Docs/nothere.md` is not in the repository"),
    ("[a page](nothere.md)\n", "page.md:1: the link to nothere.md leads nowhere"),
]


def self_test():
    """Checks the check: each page above must pass, or fail naming its line and command."""
    failed = 0
    with tempfile.TemporaryDirectory(prefix="imu-docs-self-test-") as directory:
        fake = Path(directory) / "imu"
        fake.write_text(FAKE_IMU)
        fake.chmod(0o755)
        for number, (text, expected) in enumerate(SELF_TESTS, start=1):
            page = Path(directory) / "page.md"
            page.write_text(text)
            # Generous times, so a loaded machine passes: what each case checks is not speed.
            result = subprocess.run([sys.executable, __file__, "--imu", str(fake), "--timeout", "10",
                                     "--live-seconds", "2", str(page)], capture_output=True, text=True)
            said = result.stdout + result.stderr
            if expected is None:
                ok = result.returncode == 0 and "docs check: PASS" in said
            else:
                ok = result.returncode == 1 and f"FAIL {os.path.relpath(page.parent, REPO)}/{expected}" in said
            if not ok:
                failed += 1
                print(f"self-test {number}: expected {'a pass' if expected is None else expected!r}; the check said:\n{said}")
    print(f"docs check self-test: {'PASS' if not failed else 'FAIL'} ({len(SELF_TESTS) - failed} of {len(SELF_TESTS)})")
    return 1 if failed else 0


PORT = re.compile(r"(?:127\.0\.0\.1:|localhost:|-p\s+)(\d{4,5})\b")
SUMMARY = re.compile(r"^docs check: PASS \((\d+) commands in (\d+) blocks; (\d+) blocks need")


def page_groups(files):
    """Pages in groups that may run side by side: pages whose blocks name the same TCP port
    (a dashboard, a broker) share a group, so two of them never bind it at once."""
    groups = []   # (ports, pages)
    for page in files:
        ports = {port for block in blocks_of(page.resolve()) if not block.needs
                 for _, command in block.commands() for port in PORT.findall(command)}
        joined = [group for group in groups if group[0] & ports]
        merged = (set(ports), [])
        for group in joined:
            merged[0].update(group[0])
            merged[1].extend(group[1])
            groups.remove(group)
        merged[1].append(page)
        groups.append(merged)
    return [pages for _, pages in groups]


def run_in_parallel(files, arguments):
    """Each group of pages in a check of its own, --jobs at a time; their reports in page order."""
    from concurrent.futures import ThreadPoolExecutor
    began = time.monotonic()
    options = ["--imu", str(arguments.imu), "--live-seconds", str(arguments.live_seconds),
               "--timeout", str(arguments.timeout), "--jobs", "1"] + (["--keep"] if arguments.keep else [])

    def check(pages):
        return subprocess.run([sys.executable, __file__, *options, *map(str, pages)],
                              capture_output=True, text=True)

    groups = page_groups(files)
    with ThreadPoolExecutor(max_workers=arguments.jobs) as pool:
        results = list(pool.map(check, groups))
    totals, failed = [0, 0, 0], 0
    for pages, result in zip(groups, results):
        sys.stdout.write(result.stdout)
        sys.stderr.write(result.stderr)
        summary = next((SUMMARY.match(line) for line in result.stdout.splitlines() if SUMMARY.match(line)), None)
        if result.returncode != 0 or summary is None:
            failed += 1
            continue
        totals = [total + int(figure) for total, figure in zip(totals, summary.groups())]
    if failed:
        print(f"docs check: FAIL ({failed} of {len(groups)} groups of pages failed; their reports above)")
        return 1
    print(f"docs check: PASS ({totals[0]} commands in {totals[1]} blocks; {totals[2]} blocks need what the twin "
          f"lacks; {len(groups)} groups of pages, {arguments.jobs} at a time; {time.monotonic() - began:.0f} s)")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--imu", type=Path, default=REPO / ".build/debug/imu")
    parser.add_argument("--live-seconds", type=float, default=3.0)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--jobs", type=int, default=3,
                        help="pages checked side by side (most of a page's time is the twin's real time, not CPU)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directories")
    parser.add_argument("--list", action="store_true", help="list the blocks and their commands; run nothing")
    parser.add_argument("--self-test", action="store_true", help="check the check on pages made to fail")
    arguments = parser.parse_args()
    if arguments.self_test:
        return self_test()

    files = arguments.files or [REPO / "README.md"] + sorted((REPO / "Docs").glob("*.md"))
    if arguments.list:
        for page in files:
            for block in blocks_of(page.resolve()):
                where = f"{os.path.relpath(page.resolve(), REPO)}:{block.line}"
                if block.needs:
                    print(f"{where}: needs {block.needs}")
                    continue
                for line, command in block.commands():
                    print(f"{where}:{line}: {'live ' if is_live(command) else ''}{command}")
        return 0
    imu = arguments.imu.resolve()
    if not os.access(imu, os.X_OK):
        sys.exit(f"check-docs: no imu binary at {imu} (build it: swift build --product imu, or pass --imu PATH)")
    if arguments.jobs > 1 and len(files) > 1:
        return run_in_parallel(files, arguments)
    root = Path(tempfile.mkdtemp(prefix="imu-docs-check-"))
    counts = {"commands": 0, "blocks": 0, "skipped": 0}
    failures, skipped = [], []
    began = time.monotonic()
    try:
        for page in files:
            page = page.resolve()
            failures += missing_references(page)
            blocks = blocks_of(page)
            if not blocks:
                continue
            directory, environment = scratch_for(page, root, imu)
            for block in blocks:
                where = f"{os.path.relpath(page, REPO)}:{block.line}"
                if block.needs:
                    counts["skipped"] += 1
                    skipped.append(f"{where}: needs {block.needs}")
                    continue
                counts["blocks"] += 1
                print(f"{where}: a {block.language} block", flush=True)
                failures += run_block(block, directory, environment, arguments, counts)
    finally:
        if not arguments.keep:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"scratch directories kept in {root}")
    print(f"not run, marked as needing what the twin lacks ({len(skipped)}):")
    for line in skipped:
        print(f"  {line}")
    if failures:
        for failure in failures:
            print(f"FAIL {failure}", file=sys.stderr)
        print(f"docs check: FAIL ({len(failures)} failures; {counts['blocks']} blocks run)")
        return 1
    print(f"docs check: PASS ({counts['commands']} commands in {counts['blocks']} blocks; "
          f"{counts['skipped']} blocks need what the twin lacks; {time.monotonic() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
