#!/usr/bin/env python3
"""The layering as drawn, against the code as written. Reads Package.swift (through
`swift package dump-package`), the `import` lines of every Swift file of every target, and
Docs/architecture.md's two tables, and fails (exit 1), naming the file and line, on:
  - a file importing a project module its target does not declare (it compiles only because
    another dependency happens to bring the module along);
  - a declared dependency (project module or package product) no file of the target imports;
  - a module table row whose "may import" column is not the module's declared dependencies;
  - an edge against the layer table: a library or program module may depend only on modules of
    its own layer or a lower one;
  - the motion library product (IMUMotionKit) reaching another package's product (NIO,
    Hummingbird, swift-log, ...), libmosquitto's or sd-bus's module, or the socket's server
    (IMUShare; the motion manager needs only IMUShareClient).
Standard library only; one pass over the sources (about half a second with dump-package cached).
`--self-test` runs the check on a small tree made to break each rule once (Scripts/test.sh runs both)."""
import json, os, re, subprocess, sys, pathlib

docs_path = "Docs/architecture.md"

def dump_package(root):
    # A scratch path of its own, so the check runs while a build holds .build's lock.
    # IMU_FUZZ and IMU_BENCHMARKS add the fuzz targets and benchmarks (Package.swift's end), whose
    # imports are checked like a test's.
    environment = dict(os.environ, IMU_FUZZ="1", IMU_BENCHMARKS="1")
    return json.loads(subprocess.run(
        ["swift", "package", "--scratch-path", str(root / ".build/check-architecture"), "dump-package"],
        cwd=root, check=True, capture_output=True, text=True, env=environment).stdout)


IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)")


def swift_imports(path):
    """(line number, module) for every import line outside comments and multi-line strings."""
    found, in_block_comment, in_string = [], False, False
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        if in_block_comment:
            in_block_comment = "*/" not in line
            continue
        if line.count('"""') % 2 == 1:
            in_string = not in_string
            continue
        if in_string:
            continue
        if line.lstrip().startswith("/*") and "*/" not in line:
            in_block_comment = True
            continue
        match = IMPORT.match(line)
        if match:
            found.append((number, match.group(1)))
    return found


def check(root, package):
    """The problems found (empty when the tree is as drawn) and a summary line."""
    targets = {t["name"]: t for t in package["targets"]}
    kinds = {name: t["type"] for name, t in targets.items()}
    problems = []


    def target_files(target):
        default = "Tests" if target["type"] == "test" else "Sources"
        directory = root / (target.get("path") or f"{default}/{target['name']}")
        excluded = [directory / e for e in target.get("exclude", [])]
        return sorted(p for p in directory.rglob("*.swift")
                      if not any(p == e or e in p.parents for e in excluded))


    def declared_dependencies(target):
        """Dependency name → kind ("target" for a module of this package, "product" otherwise)."""
        deps = {}
        for dep in target["dependencies"]:
            (kind, value), = dep.items()
            name = value[0]
            if kind == "byName":
                kind = "target" if name in targets else "product"
            deps[name] = "target" if kind == "target" else "product"
        return deps


    # 1. Imports against Package.swift, for every Swift target (tests and programs included).
    declared, imported = {}, {}
    for name, target in sorted(targets.items()):
        if target["type"] not in ("regular", "executable", "test"):
            continue
        files = target_files(target)
        if not files:  # a C target: its headers are not Swift imports
            continue
        deps = declared_dependencies(target)
        declared[name] = deps
        seen = {}
        for path in files:
            for number, module in swift_imports(path):
                seen.setdefault(module, f"{path.relative_to(root)}:{number}")
                if module in targets and module != name and module not in deps:
                    problems.append(f"{path.relative_to(root)}:{number}: {name} imports {module}, "
                                    f"which Package.swift does not declare for {name}")
        imported[name] = seen
        for dep, kind in sorted(deps.items()):
            # A test's dependency on an executable builds the program the test runs; it is not imported.
            if kind == "target" and kinds.get(dep) == "executable":
                continue
            if dep not in seen:
                problems.append(f"Package.swift: {name} declares {dep}, which no file of {name} imports")

    # 2. The module table: "may import" is exactly the declared dependencies.
    text = (root / docs_path).read_text()
    documented, layer_of, section = {}, {}, None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            section = line[3:].strip().lower()
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if section == "modules" and len(cells) == 3 and cells[0].startswith("`"):
            documented[cells[0].strip("`")] = (number, set(re.findall(r"`([^`]+)`", cells[2])))
        elif section == "layers" and len(cells) == 3 and cells[0].isdigit():
            for module in re.findall(r"`([^`]+)`", cells[2]):
                if module in layer_of:
                    problems.append(f"{docs_path}:{number}: {module} is in two layers")
                layer_of[module] = (int(cells[0]), cells[1])

    # Fuzz targets and benchmarks, like tests, may import any module: in neither table.
    tools = {n for n, t in targets.items() if (t.get("path") or "").split("/")[0] in ("Fuzz", "Benchmarks")}
    libraries = {n for n, t in targets.items()
                 if t["type"] in ("regular", "executable") and not n.startswith("C") and n != "motion-example"} - tools
    for name in sorted(libraries):
        if name not in documented:
            problems.append(f"{docs_path}: {name} is a module of Package.swift, not in the module table")
            continue
        number, listed = documented[name]
        deps = set(declared[name])
        if listed != deps:
            problems.append(f"{docs_path}:{number}: {name} may import {sorted(listed - deps)} not declared, "
                            f"declares {sorted(deps - listed)} not listed")
    for name in sorted(set(documented) - libraries):
        problems.append(f"{docs_path}:{documented[name][0]}: {name} is in the module table, not a module of Package.swift")

    # 3. The layer table: every project module (C modules and programs too) in one layer; edges go down.
    for name in sorted(n for n, t in targets.items() if t["type"] in ("regular", "executable", "system") and n not in tools):
        if name not in layer_of:
            problems.append(f"{docs_path}: {name} is in no row of the layer table")
    for name in sorted(n for n in layer_of if n not in targets):
        problems.append(f"{docs_path}: the layer table names {name}, not a module of Package.swift")
    edges = 0
    for name in sorted(n for n in declared if kinds[n] != "test" and n in layer_of):
        layer, layer_name = layer_of[name]
        # Declared edges, and imports a declaration would have to add.
        project = {d for d, kind in declared[name].items() if kind == "target"}
        project |= {m for m in imported[name] if m in targets and m != name}
        for dep in sorted(project):
            if dep not in layer_of:
                continue
            edges += 1
            dep_layer, dep_layer_name = layer_of[dep]
            if dep_layer > layer:
                where = imported[name].get(dep, "Package.swift")
                problems.append(f"{where}: {name} (layer {layer}, {layer_name}) depends on {dep} "
                                f"(layer {dep_layer}, {dep_layer_name}): against the layer table")

    # 4. The motion library builds no server stack: nothing of another package (NIO, Hummingbird,
    # swift-log), neither libmosquitto's nor sd-bus's module, nor the socket's server in its
    # dependency closure.
    MOTION_PRODUCT, SERVER_MODULES = "IMUMotionKit", {"CMosquitto", "CSensorProxyBus", "IMUShare"}
    products = {p["name"]: p["targets"] for p in package["products"]}
    if MOTION_PRODUCT not in products:
        problems.append(f"Package.swift: no product {MOTION_PRODUCT} (the motion library)")
    else:
        path_to, queue = {t: [t] for t in products[MOTION_PRODUCT]}, list(products[MOTION_PRODUCT])
        while queue:
            current = queue.pop()
            for dep, kind in declared_dependencies(targets[current]).items():
                if kind == "product" or dep in SERVER_MODULES:
                    problems.append(f"Package.swift: {MOTION_PRODUCT} builds {dep} "
                                    f"(through {' → '.join(path_to[current])})")
                elif dep not in path_to:
                    path_to[dep] = path_to[current] + [dep]
                    queue.append(dep)
    summary = (f"{len(declared)} targets, {len(layer_of)} modules in layers, {edges} edges, "
               f"{'OK' if not problems else f'{len(problems)} problems'}")
    return problems, summary


# The check checked: a small tree made to fail each rule once, and the same tree as drawn.
SELF_TEST_DOCS = """## Layers
| layer | name | modules |
|---|---|---|
| 1 | base | `Base`, `CMosquitto` |
| 2 | motion | `Motion`, `IMUMotionKit` |
| 3 | top | `Top` |

## Modules
| module | owns | may import |
|---|---|---|
| `Base` | x | — |
| `Motion` | x | `Base` |
| `IMUMotionKit` | x | `Motion` |
| `Top` | x | `Motion` |
"""
SELF_TEST_SOURCES = {
    "Sources/Base/a.swift": "import Foundation\n",
    "Sources/Motion/a.swift": "@testable import Base\n/*\nimport Top\n*/\nlet s = \"\"\"\nimport Top\n\"\"\"\n",
    "Sources/IMUMotionKit/a.swift": "public import Motion\n",
    "Sources/Top/a.swift": "import Motion\n",
    "Tests/TopTests/a.swift": "import Top\nimport Testing\n",
}
MOTION_IMPORTS = "@testable import Base\nimport {}\n"
MOTION_ROW = ("| `Motion` | x | `Base` |", "| `Motion` | x | `Base`, `{}` |")
# (what changes, the problems expected: a piece of each line, exactly these; [] for none)
SELF_TESTS = [
    ({}, []),
    ({"Sources/Top/a.swift": "import Motion\nimport Base\n"},
     ["Sources/Top/a.swift:2: Top imports Base, which Package.swift does not declare for Top"]),
    ({"Sources/Top/a.swift": "// import Motion only in a comment\n"},
     ["Package.swift: Top declares Motion, which no file of Top imports"]),
    ({"Sources/Base/a.swift": "import Top\n"},
     ["Sources/Base/a.swift:1: Base imports Top, which Package.swift does not declare for Base",
      "Sources/Base/a.swift:1: Base (layer 1, base) depends on Top (layer 3, top): against the layer table"]),
    ({"docs": SELF_TEST_DOCS.replace("| `Top` | x | `Motion` |", "| `Top` | x | `Motion`, `Base` |")},
     ["Docs/architecture.md:14: Top may import ['Base'] not declared, declares [] not listed"]),
    ({"docs": SELF_TEST_DOCS.replace(", `CMosquitto`", "")},
     ["Docs/architecture.md: CMosquitto is in no row of the layer table"]),
    ({"package": "CMosquitto", "Sources/Motion/a.swift": MOTION_IMPORTS.format("CMosquitto"),
      "docs": SELF_TEST_DOCS.replace(MOTION_ROW[0], MOTION_ROW[1].format("CMosquitto"))},
     ["Package.swift: IMUMotionKit builds CMosquitto (through IMUMotionKit → Motion)"]),
    ({"package": "Logging", "Sources/Motion/a.swift": MOTION_IMPORTS.format("Logging"),
      "docs": SELF_TEST_DOCS.replace(MOTION_ROW[0], MOTION_ROW[1].format("Logging"))},
     ["Package.swift: IMUMotionKit builds Logging (through IMUMotionKit → Motion)"]),
]


def self_test():
    import tempfile
    failed = 0
    for number, (change, expected) in enumerate(SELF_TESTS, 1):
        def target(name, kind, deps):
            return {"name": name, "type": kind, "dependencies": [{"byName": [d, None]} for d in deps]}
        motion_deps = ["Base"] + ([change["package"]] if "package" in change else [])
        package = {"targets": [target("Base", "regular", []), target("Motion", "regular", motion_deps),
                               target("IMUMotionKit", "regular", ["Motion"]), target("Top", "regular", ["Motion"]),
                               target("TopTests", "test", ["Top"]), target("CMosquitto", "system", [])],
                   "products": [{"name": "IMUMotionKit", "targets": ["IMUMotionKit"]}]}
        with tempfile.TemporaryDirectory(prefix="imu-architecture-self-test-") as directory:
            root = pathlib.Path(directory)
            files = dict(SELF_TEST_SOURCES, **{k: v for k, v in change.items() if "/" in k})
            files[docs_path] = change.get("docs", SELF_TEST_DOCS)
            for path, text in files.items():
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_text(text)
            problems, _ = check(root, package)
        # An unrelated problem counts as a failure too: the case must find exactly its own.
        if len(problems) == len(expected) and all(any(e in p for p in problems) for e in expected):
            continue
        failed += 1
        print(f"self-test {number}: expected {expected}; the check said {problems}")
    print(f"architecture check self-test: {'PASS' if not failed else 'FAIL'} ({len(SELF_TESTS) - failed} of {len(SELF_TESTS)})")
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = pathlib.Path(__file__).resolve().parent.parent
    problems, summary = check(root, dump_package(root))
    for problem in problems:
        print("check-architecture:", problem)
    print("check-architecture:", summary)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
