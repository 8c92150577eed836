#!/usr/bin/env python3
"""Docs/architecture.md's module table against Package.swift: every library module is in the
table, and its "may import" column is exactly the module's dependencies. Exit 1 on a mismatch."""
import json, re, subprocess, sys, pathlib

root = pathlib.Path(__file__).resolve().parent.parent
package = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                    capture_output=True, text=True).stdout)
declared = {}
for target in package["targets"]:
    if target["type"] not in ("regular", "executable") or target["name"].startswith("C"):
        continue
    if target["name"] == "motion-example":
        continue
    deps = set()
    for dep in target["dependencies"]:
        value = next(iter(dep.values()))
        deps.add(value[0] if isinstance(value, list) else str(value))
    declared[target["name"]] = deps

documented = {}
table = (root / "Docs/architecture.md").read_text()
for line in table.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) != 3 or not cells[0].startswith("`"):
        continue
    name = cells[0].strip("`")
    documented[name] = set(re.findall(r"`([^`]+)`", cells[2]))

problems = []
for name, deps in sorted(declared.items()):
    if name not in documented:
        problems.append(f"{name}: in Package.swift, not in Docs/architecture.md's table")
    elif documented[name] != deps:
        missing, extra = deps - documented[name], documented[name] - deps
        problems.append(f"{name}: Package.swift imports {sorted(missing)} not documented; documented {sorted(extra)} not in Package.swift")
for name in sorted(set(documented) - set(declared)):
    problems.append(f"{name}: in Docs/architecture.md's table, not a module of Package.swift")
for problem in problems:
    print("check-architecture:", problem)
print(f"check-architecture: {len(declared)} modules, {'OK' if not problems else f'{len(problems)} mismatches'}")
sys.exit(1 if problems else 0)
