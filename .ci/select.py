#!/usr/bin/env python3
"""Which of CI's steps a change needs (issue 57): the files changed since the main it started
from, read through the package's module graph.

Usage: select.py [--base COMMIT] [--explain] [--check]

The change is every file that differs between the base and the work tree (committed or not, and
new files). The base is --base, else the commit named in .ci/base (the main a session started
from: set it when you start, `git rev-parse HEAD > .ci/base`). Prints the ids of the steps to run,
one line, space-separated; --explain says on stderr why each runs.

Every step runs (the safe side) when the base is unknown, not an ancestor of HEAD, or the same
commit as HEAD with nothing changed; when CI_ALL=1; or when a file changed that no rule below
names (Package.swift, .ci/ itself, anything new). A Swift file belongs to the target whose folder
holds it (from `swift package dump-package`), and a change to a target reaches every target that
depends on it, directly or not: a change to Signals reaches everything.

--check runs the rules on generated changes and exits 1 if any rule is broken (CI runs it first).
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
STEPS = ["deps", "build", "test", "mutation", "tmux", "chromium", "api", "docs", "first-app",
         "consumer", "tsan", "asan", "keystroke", "attack", "tabs", "bench"]
ALWAYS = {"deps"}
# The library modules whose public API and DocC catalogs CI checks.
LIBRARIES = {"Signals", "SignalsTesting", "MVVM", "ScreenKit", "ScreenTesting", "TerminalUI", "WebUI", "WebServer", "Store"}
# Steps that run what a target builds into, by the target that reaching it brings in.
# (The whole suite, both sanitizers and the mutants run for any Swift change.)
SWIFT = {"build", "test", "mutation", "tsan", "asan"}
# Files that only documentation reads (and the tests, articles' packages and DocC that read it).
DOCS = {"build", "test", "docs", "first-app", "consumer"}
# Files other than Swift targets, by path: (regular expression, steps).
FILES = [
    (r"(^|/)[^/]+\.md$|\.docc/|^docs/", DOCS),
    (r"^Tests/Mutants/", {"build", "mutation"}),
    (r"^Tests/Support/check-imports\.py$", set()),
    (r"^Tests/Support/first-app\.py$", {"first-app"}),
    (r"^Tests/Support/consumer-packages\.py$", {"consumer"}),
    (r"^Tests/Support/our-leaks\.py$", {"asan"}),
    (r"^Tests/Support/tsan-suppressions\.txt$", {"tsan"}),
    (r"^Apps/Showcase/EndToEnd/", {"build", "tmux"}),
    (r"^Web/EndToEnd/(web_e2e|pngcheck|postgres_cluster)\.py$", {"build", "chromium"}),
    (r"^Web/EndToEnd/keystroke_bench\.py$", {"keystroke"}),
    (r"^Web/EndToEnd/attack\.py$", {"attack"}),
    # The sign-in attack (the chromium step) speaks WebSocket through tabs_bench's Socket.
    (r"^Web/EndToEnd/tabs_bench\.py$", {"tabs", "chromium"}),
    (r"^Web/EndToEnd/store_bench\.py$", set()),   # run by hand (Benchmarks/README)
    # Benchmarks/Package.swift builds CI's release of the showcase and the echo too.
    (r"^Benchmarks/Package\.swift$", {"bench", "keystroke", "attack", "tabs"}),
    (r"^Benchmarks/Echo/", {"tabs"}),
    (r"^Benchmarks/", {"bench"}),
    (r"^\.ci/api-(baseline|breaks-allowed\.txt)$", {"api"}),
    (r"^\.ci/base$", set()),
    (r"^\.gitignore$", set()),
]
# What each step runs of the package, by target: a step runs when the change reaches one of them.
TARGET_STEPS = {
    "tmux": {"Showcase"},
    "chromium": {"Showcase", "TodoWeb"},
    "keystroke": {"Showcase"},
    "attack": {"Showcase"},
    "tabs": {"Showcase"},
    "first-app": {"TerminalUI"},
    "consumer": {"Signals", "MVVM", "WebUI", "WebServer", "Store"},
    "bench": {"Signals", "TerminalUI", "Store"},
}


def git(*args):
    done = subprocess.run(["git", *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return done.stdout if done.returncode == 0 else None


def targets():
    """{name: (folder, [dependencies that are targets of this package])} from the manifest."""
    done = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    manifest = json.loads(done.stdout)
    result = {}
    for target in manifest["targets"]:
        folder = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]
        deps = []
        for dependency in target["dependencies"]:
            kind, value = next(iter(dependency.items()))
            if kind in ("byName", "target"):
                deps.append(value[0])
        result[target["name"]] = (folder.rstrip("/"), deps)
    return result


def reached(changed_targets, graph):
    """The changed targets and every target that depends on one of them, directly or not."""
    out = set(changed_targets)
    grew = True
    while grew:
        grew = False
        for name, (_, deps) in graph.items():
            if name not in out and any(d in out for d in deps):
                out.add(name)
                grew = True
    return out


def owner(path, graph):
    """The target whose folder holds `path` (the deepest), or None."""
    best = None
    for name, (folder, _) in graph.items():
        if path.startswith(folder + "/") and (best is None or len(folder) > len(graph[best][0])):
            best = name
    return best


def select(changed, graph):
    """(steps, reasons) for the changed paths."""
    steps, reasons = set(ALWAYS), {}

    def need(found, why):
        for s in found - steps:
            reasons[s] = why
        steps.update(found)

    touched_targets = set()
    for path in sorted(changed):
        rule = next((found for pattern, found in FILES if re.search(pattern, path)), None)
        target = owner(path, graph)
        if rule is not None and not (target and path.endswith(".swift")):
            need(rule, path)
        elif target is not None:
            touched_targets.add(target)
            need(SWIFT, path)
            if path.startswith("Sources/") and target in LIBRARIES:
                need({"docs", "api"}, path)
        else:
            need(set(STEPS), f"{path} (no rule names it: every step)")
    for target in sorted(touched_targets):
        reach = reached({target}, graph)
        for step, names in TARGET_STEPS.items():
            if reach & names:
                need({step, "build"} if step in ("tmux", "chromium") else {step}, f"{target} reaches {', '.join(sorted(reach & names))}")
        if reach & LIBRARIES:
            need({"docs"}, f"{target} reaches {', '.join(sorted(reach & LIBRARIES))}")
    return [s for s in STEPS if s in steps], reasons


def changed_files(base):
    if base is None or git("cat-file", "-e", base + "^{commit}") is None:
        return None, f"base {base or '(none)'} is not a commit here"
    if git("merge-base", "--is-ancestor", base, "HEAD") is None:
        return None, f"base {base[:10]} is not an ancestor of HEAD"
    diff = git("diff", "--name-only", base, "--")
    new = git("ls-files", "--others", "--exclude-standard")
    files = set((diff or "").split()) | set((new or "").split())
    if not files:
        return None, f"nothing changed since {base[:10]}"
    return files, f"{len(files)} files changed since {base[:10]}"


def check(graph):
    """Generated cases for the rules; returns the broken ones."""
    broken = []
    every = set(STEPS)
    for name, (folder, _) in graph.items():
        steps, _ = select({folder + "/X.swift"}, graph)
        if not SWIFT <= set(steps):
            broken.append(f"a Swift file of {name} does not run {sorted(SWIFT - set(steps))}")
        reach = reached({name}, graph)
        for step, names in TARGET_STEPS.items():
            if bool(reach & names) != (step in steps):
                broken.append(f"{name}: {step} {'missing' if reach & names else 'run'} though it reaches {sorted(reach & names)}")
    steps, _ = select({"Sources/Signals/X.swift"}, graph)
    if set(steps) != every:
        broken.append(f"a change to Signals runs {steps}, not every step")
    for path in ("Package.swift", ".ci/run", ".ci/steps.sh", "Sources/NewModule/X.swift", "somewhere/new.file"):
        steps, _ = select({path}, graph)
        if set(steps) != every:
            broken.append(f"{path} runs {steps}, not every step")
    for path in ("README.md", "CHANGELOG.md", "Sources/WebUI/WebUI.docc/BuildingAPage.md", "docs/showcase-web-flickr.png"):
        steps, _ = select({path}, graph)
        if set(steps) != DOCS | ALWAYS:
            broken.append(f"the docs-only {path} runs {steps}")
    return broken


def main():
    args = sys.argv[1:]
    graph = targets()
    if "--check" in args:
        broken = check(graph)
        for line in broken:
            print("select.py: " + line)
        print(f"select.py: {len(graph)} targets, the rules {'broken' if broken else 'hold'}")
        return 1 if broken else 0
    base = args[args.index("--base") + 1] if "--base" in args else None
    if base is None and os.path.exists(os.path.join(ROOT, ".ci", "base")):
        base = open(os.path.join(ROOT, ".ci", "base"), encoding="utf-8").read().strip() or None
    if os.environ.get("CI_ALL") == "1":
        files, why = None, "CI_ALL=1"
    else:
        files, why = changed_files(base)
    if files is None:
        steps, reasons = STEPS, {s: why for s in STEPS}
    else:
        steps, reasons = select(files, graph)
    if "--explain" in args:
        print(f"select.py: {why}", file=sys.stderr)
        for s in STEPS:
            print(f"  {s:10} {'run: ' + reasons.get(s, 'always') if s in steps else 'skipped: untouched'}", file=sys.stderr)
    print(" ".join(steps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
