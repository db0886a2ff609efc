#!/usr/bin/env python3
"""'Your first terminal app', built and run from the article's own text (issue 31).

Usage: first-app.py [WORK_DIR]

Writes each Swift block of Sources/TerminalUI/TerminalUI.docc/YourFirstTerminalApp.md to the file
its caption names ("In `Sources/Bookshelf/main.swift`:"), into WORK_DIR/Bookshelf, beside a link
WORK_DIR/MVVMKit to this checkout (the article's path dependency), then builds the package, runs
its tests, and drives the app in tmux as a person would: type a subject, see the books, reach the
end of the list and see more, open a book that is out, press Borrow, see why it failed, go back to
the same book, and quit. Exit 1 on the first step that fails, with the screen.
"""
import os, re, subprocess, sys, tempfile, time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ARTICLE = os.path.join(ROOT, "Sources/TerminalUI/TerminalUI.docc/YourFirstTerminalApp.md")
SESSION = f"first-app-{os.getpid()}"


def files_of(article):
    """{path: code} from the article; every Swift block must have a caption (a CSS block with
    one is a file too: a web app's stylesheet)."""
    files, caption = {}, None
    lines = article.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        match = re.fullmatch(r"In `([^`]+)`:", line.strip())
        if match:
            caption = match.group(1)
        elif line.startswith("```swift") or (line.startswith("```css") and caption is not None):
            end = lines.index("```", index + 1)
            if caption is None:
                sys.exit(f"first-app: a Swift block of the article (line {index + 1}) names no file")
            files[caption] = "\n".join(lines[index + 1:end]) + "\n"
            caption, index = None, end
        elif line.strip():
            caption = None   # a caption names the block right after it, not a later one
        index += 1
    return files


def run(command, cwd, timeout=1800):
    print("$", " ".join(command), flush=True)
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace", timeout=timeout)
    if done.returncode != 0:
        print(done.stdout[-6000:])
        sys.exit(f"first-app: {' '.join(command)} failed ({done.returncode})")
    return done.stdout


def screen():
    return subprocess.run(["tmux", "capture-pane", "-t", SESSION, "-p"], stdout=subprocess.PIPE, text=True,
                          errors="replace").stdout


def keys(*names):
    subprocess.run(["tmux", "send-keys", "-t", SESSION, *names], check=True)
    time.sleep(0.15)


passed = 0


def check(what, condition, seconds=10):
    """Waits until `condition(screen)` holds."""
    global passed
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition(screen()):
            passed += 1
            print(f"ok - {what}", flush=True)
            return
        time.sleep(0.1)
    print(f"not ok - {what}\n" + "\n".join("    | " + line for line in screen().split("\n")))
    subprocess.run(["tmux", "kill-session", "-t", SESSION])
    sys.exit(1)


def main():
    work = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="first-app-"))
    files = files_of(open(ARTICLE, encoding="utf-8").read())
    print(f"first-app: {len(files)} files from the article: {', '.join(files)}")
    package = os.path.join(work, "Bookshelf")
    os.makedirs(package, exist_ok=True)
    link = os.path.join(work, "MVVMKit")
    if not os.path.islink(link):
        os.symlink(ROOT, link)
    for path, code in files.items():
        target = os.path.join(package, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(code)
    build = run(["swift", "build", "--build-tests"], package)
    warnings = sorted(set(line for line in build.split("\n") if "/Bookshelf/" in line and ": warning:" in line))
    if warnings:
        sys.exit("first-app: the article's code has warnings:\n" + "\n".join(warnings))
    print(run(["swift", "test", "--skip-build"], package)[-400:])
    binary = os.path.join(run(["swift", "build", "--show-bin-path"], package).strip().split("\n")[-1], "Bookshelf")

    subprocess.run(["tmux", "kill-session", "-t", SESSION], stderr=subprocess.DEVNULL)
    subprocess.run(["tmux", "new-session", "-d", "-s", SESSION, "-x", "80", "-y", "24",
                    f"env -i PATH=/usr/bin:/bin TERM=xterm-256color bash --norc --noprofile"], check=True)
    keys("export PS1='fa$ '; clear", "Enter")
    check("a shell", lambda s: "fa$" in s)
    keys(f"clear; {binary}; echo status=$?", "Enter")
    check("the app starts on its search screen", lambda s: "Type a subject" in s)
    subprocess.run(["tmux", "send-keys", "-t", SESSION, "-l", "rivers"], check=True)
    # Ten books fit on the screen: their last row is on screen, so the next page follows at once,
    # until the list's last row is below the screen.
    check("typing a subject finds its books, and the next page follows while the last row is on screen",
          lambda s: re.search(r"Rivers, volume 1\b", s) and "Rivers, volume 11" in s and "Rivers, volume 31" not in s)
    keys("Tab")
    keys("End")
    check("End highlights the last book loaded, and the next page comes in under it",
          lambda s: re.search(r"› Rivers, volume 20\b", s) and "Rivers, volume 21" in s)
    keys("End")
    check("its row on screen loaded the next page: End again goes further", lambda s: re.search(r"› Rivers, volume 30\b", s))
    keys("Home")
    keys("Down")
    keys("Down")
    check("the highlight is on a book that is out", lambda s: re.search(r"› Rivers, volume 3 +out", s))
    keys("Enter")
    check("Enter opens the book", lambda s: "[ Borrow ]" in s and "Rivers, volume 3" in s)
    keys("Enter")
    check("Borrow says why it failed", lambda s: "Rivers, volume 3 is already out." in s)
    keys("Escape")
    check("Esc goes back to the same book", lambda s: re.search(r"› Rivers, volume 3 +out", s) and "Subject" in s)
    keys("Down")
    check("the focus is back on the list: Down moves the highlight", lambda s: "› Rivers, volume 4" in s)
    keys("Escape")
    check("Esc on the first screen quits, with status 0", lambda s: "status=0" in s)
    subprocess.run(["tmux", "kill-session", "-t", SESSION])
    print(f"first-app: {passed} checks passed")


if __name__ == "__main__":
    main()
