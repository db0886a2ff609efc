#!/usr/bin/env python3
"""The package's dependency rules, checked against the sources (issue 18).

Usage: check-imports.py [PACKAGE_ROOT]   (runs `swift package dump-package` there; CI runs it on
the root package)

1. Declared = imported: every target's `import` lines name exactly the targets and products it
   declares (system modules aside).
2. No non-test target depends on SignalsTesting or ScreenTesting (the test kits).
3. The allowed arrows: Signals imports nothing of ours; MVVM imports Signals only; ScreenKit
   (screens described once) imports Signals and MVVM only; a view layer (TerminalUI, WebUI)
   imports Signals, MVVM and ScreenKit only; Store imports Signals only;
   the app modules import no view layer; only the showcase and todo-web (and the view layers'
   own tests) import a view layer.
Exit 1 with one line per broken rule.
"""
import json, os, re, subprocess, sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
package = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                    capture_output=True, text=True).stdout)
SYSTEM = {"Foundation", "FoundationNetworking", "FoundationEssentials", "Dispatch", "Glibc", "Darwin",
          "Musl", "Android", "WinSDK", "Synchronization", "Observation", "Testing", "XCTest", "os", "_Concurrency"}
# A product's module name where it differs from the product's.
PRODUCT_MODULES = {}
VIEW_LAYERS = {"TerminalUI", "WebUI"}
# The executables that show apps: the showcase, and the to-do example as a web app (todo-web).
SHOWCASE = {"ShowcaseKit", "Showcase", "WebShowcaseKit", "TodoWeb"}
# ScreenKit's tests draw described screens with every view layer's renderer.
RENDERED = {"ScreenKit"}
# WebUI's server serves the view layer: it may import it.
SERVERS = {"WebServer"}
# The tests' page model (Tests/Support) is a part of WebUI's tests.
SERVERS |= {"WebUITestSupport"}
IMPORT = re.compile(r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)", re.M)

targets = {t["name"]: t for t in package["targets"]}
ours = set(targets)
problems = []

def path_of(target):
    if target.get("path"):
        return os.path.join(root, target["path"])
    return os.path.join(root, "Tests" if target["type"] == "test" else "Sources", target["name"])

def declared(target):
    names = set()
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        name = value[0]
        names.add(PRODUCT_MODULES.get(name, name) if kind == "product" else name)
    return names

def imported(target):
    names = set()
    for folder, _, files in os.walk(path_of(target)):
        for file in files:
            if file.endswith(".swift"):
                with open(os.path.join(folder, file), encoding="utf-8") as handle:
                    names.update(IMPORT.findall(handle.read()))
    return names - SYSTEM - {target["name"]}

for name, target in sorted(targets.items()):
    want, have = declared(target), imported(target)
    for missing in sorted(have - want):
        problems.append(f"{name} imports {missing} but does not declare it")
    for unused in sorted(want - have):
        problems.append(f"{name} declares {unused} but never imports it")
    mine = have & ours
    is_test = target["type"] == "test"
    under_apps = (target.get("path") or "").startswith("Apps/")
    # The test kits (SignalsTesting, and ScreenTesting beside it) are for tests only.
    for kit in ("SignalsTesting", "ScreenTesting"):
        if not is_test and kit in want | have and name not in ("SignalsTesting", "ScreenTesting"):
            problems.append(f"{name} is not a test target but depends on {kit}")
    rules = {"Signals": set(), "MVVM": {"Signals"}, "TerminalUI": {"Signals", "MVVM", "ScreenKit"}, "WebUI": {"Signals", "MVVM", "ScreenKit"},
             "ScreenKit": {"Signals", "MVVM"}, "ScreenTesting": {"ScreenKit", "MVVM", "Signals", "SignalsTesting"},
             # The store (issue 42): data, no view; its engines are packages behind traits.
             "Store": {"Signals"},
             # Accounts (issue 60): users kept in the store, their screens described once; no view layer.
             "Accounts": {"Signals", "Store", "MVVM", "ScreenKit"}}
    if name in rules and mine - rules[name]:
        problems.append(f"{name} may import only {sorted(rules[name]) or 'nothing of ours'}, but imports {sorted(mine - rules[name])}")
    if mine & VIEW_LAYERS and not (name in SHOWCASE | SERVERS or (is_test and (name.removesuffix("Tests") in VIEW_LAYERS | SHOWCASE | SERVERS | RENDERED))):
        problems.append(f"{name} imports a view layer ({sorted(mine & VIEW_LAYERS)}); only the showcase may")
    if under_apps and name not in SHOWCASE and not is_test and mine & VIEW_LAYERS:
        problems.append(f"app module {name} imports a view layer")

if problems:
    print("check-imports: the package's dependency rules are broken:")
    for problem in problems:
        print("  " + problem)
    sys.exit(1)
print(f"check-imports: {len(targets)} targets; declared = imported, and the allowed arrows hold")
