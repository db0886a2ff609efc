#!/usr/bin/env python3
"""Packages outside the repository that depend on this one by path, as users' would (issue 26).

Usage: consumer-packages.py [WORK_DIR]

1. "LibrariesOnly" depends on Signals and MVVM alone (no trait): its resolution names no server
   or database package (Package.resolved, the checkouts) and its build compiles no server module
   (issues 26, 41, 42).
2. "Counter" is 'Your first web app' (Sources/WebServer/WebServer.docc/YourFirstWebApp.md), and
   'Deploying''s deployed server (Deploying.md), each Swift (and CSS) block written to the file
   its caption names, with the WebServer trait: it builds, serves its page (200, the security
   headers, its stylesheet named in the head and served from Public/, 404 for an unknown address,
   HEAD without a body), and in a headless Chromium +1 counts, the address bar follows the count
   (a reload and a link keep it), and the app's style wins. Beside it, WebUI's BuildingAPage's app with a `@MainActor`
   page (its Swift block, as the page gives it): in Chromium, Back after `Document.load` returns
   to the page that loaded it.
3. "Reader" depends on MVVMKit by its git URL (this repository's HEAD), as a user's package
   does, and runs the README's two commands for the API reference (its Documentation section):
   the website is built from SwiftPM's checkout and served, and Chromium reads a page of it
   (issue 43: the reference readable without a clone).
Exit 1 on the first check that fails.
"""
import importlib.util, os, re, shutil, socket, subprocess, sys, tempfile, time, urllib.error, urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ARTICLE = os.path.join(ROOT, "Sources/WebServer/WebServer.docc/YourFirstWebApp.md")
BUILDING_A_PAGE = os.path.join(ROOT, "Sources/WebUI/WebUI.docc/BuildingAPage.md")
DEPLOYING = os.path.join(ROOT, "Sources/WebServer/WebServer.docc/Deploying.md")
SERVER_MODULES = ("NIOCore", "NIOPosix", "NIO", "WebServer", "SQLiteNIO", "Store")
# Server and database packages a consumer of Signals and MVVM must not resolve (SwiftNIO and
# what it needs; the store's engines).
SERVER_PACKAGES = ("swift-nio", "hummingbird", "flyingfox", "sqlite-nio", "postgres-nio")

# The article's files, read as first-app.py reads the terminal article (one rule for captions).
spec = importlib.util.spec_from_file_location("first_app", os.path.join(os.path.dirname(__file__), "first-app.py"))
first_app = importlib.util.module_from_spec(spec)
spec.loader.exec_module(first_app)

passed = 0


def check(what, condition, saw=""):
    global passed
    if condition:
        passed += 1
        print(f"ok - {what}", flush=True)
        return
    print(f"not ok - {what}\n    saw: {saw}", flush=True)
    sys.exit(1)


def run(command, cwd, timeout=1800):
    print("$", " ".join(command), flush=True)
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace", timeout=timeout)
    if done.returncode != 0:
        print(done.stdout[-6000:])
        sys.exit(f"consumer-packages: {' '.join(command)} failed ({done.returncode})")
    return done.stdout


def write(package, files):
    for path, code in files.items():
        target = os.path.join(package, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(code)


def libraries_only(work):
    package = os.path.join(work, "LibrariesOnly")
    write(package, {
        "Package.swift": """// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "LibrariesOnly",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../MVVMKit")],
    targets: [
        .executableTarget(name: "LibrariesOnly", dependencies: [
            .product(name: "Signals", package: "MVVMKit"),
            .product(name: "MVVM", package: "MVVMKit"),
        ]),
    ]
)
""",
        "Sources/LibrariesOnly/main.swift": """import MVVM
import Signals

let name = MutableProperty("world")
let greeting = name.map { "Hello, \\($0)!" }
print(greeting.value)
""",
    })
    out = run(["swift", "build", "-v"], package)
    resolved_path = os.path.join(package, "Package.resolved")
    resolved = open(resolved_path, encoding="utf-8").read() if os.path.exists(resolved_path) else ""
    checkouts = os.listdir(os.path.join(package, ".build", "checkouts")) if os.path.isdir(os.path.join(package, ".build", "checkouts")) else []
    check("Signals and MVVM only: Package.resolved names no server or database package (" + ", ".join(SERVER_PACKAGES) + ")",
          not any(name in resolved.lower() for name in SERVER_PACKAGES), resolved or "(no Package.resolved: nothing remote resolved)")
    check("Signals and MVVM only: no server or database package is checked out", not any(c.lower() in SERVER_PACKAGES for c in checkouts), checkouts)
    compiled = set(re.findall(r"-module-name (\S+)", out))
    check("Signals and MVVM only: the build compiles no server module (nor any view layer)",
          not compiled & {*SERVER_MODULES, "WebUI", "TerminalUI"} and {"Signals", "MVVM"} <= compiled, sorted(compiled))
    binary = os.path.join(run(["swift", "build", "--show-bin-path"], package).strip().split("\n")[-1], "LibrariesOnly")
    check("Signals and MVVM only: it runs", subprocess.run([binary], stdout=subprocess.PIPE, text=True).stdout.strip() == "Hello, world!")


def counter(work):
    files = first_app.files_of(open(ARTICLE, encoding="utf-8").read())
    print(f"consumer-packages: {len(files)} files from 'Your first web app': {', '.join(files)}")
    check("the article gives the package's files", set(files) == {"Package.swift", "Sources/Counter/Counter.swift", "Sources/Counter/CounterAddresses.swift", "Sources/Counter/main.swift", "Public/counter.css"}, list(files))
    # 'Deploying' continues the counter: its Swift (the server as deployed) is built with it.
    deploying = first_app.files_of(open(DEPLOYING, encoding="utf-8").read())
    check("'Deploying' gives the deployed server's file", set(deploying) == {"Sources/Counter/Deployment.swift"}, list(deploying))
    check("the app is written with its addresses alone: no WebLocation in its code (issue 58)",
          not [path for path, code in files.items() if "WebLocation" in code] and "AppAddresses" in files["Sources/Counter/CounterAddresses.swift"],
          [path for path, code in files.items() if "WebLocation" in code])
    files.update(deploying)
    package = os.path.join(work, "Counter")
    write(package, files)
    add_clock(package)
    run(["swift", "build"], package)
    binaries = run(["swift", "build", "--show-bin-path"], package).strip().split("\n")[-1]
    # Run in the package's folder, as the article says (`Public` is found from there).
    process, url = serve(os.path.join(binaries, "Counter"), cwd=package)
    try:
        check("'Your first web app' starts and prints its address", url, process.poll())
        with urllib.request.urlopen(url, timeout=5) as response:
            html, headers = response.read().decode(), response.headers
        check("its page is served: the counter, in a page that says its language",
              "Pressed 0 times" in html and '<html lang="en">' in html, html[:300])
        check("its head names the app's stylesheet, after WebUI's",
              0 <= html.find('href="/mvvm.css"') < html.find('<link rel="stylesheet" href="/static/counter.css">'), html[:600])
        try:
            with urllib.request.urlopen(url + "static/counter.css", timeout=5) as response:
                sheet, sheet_type = response.read().decode(), response.headers["Content-Type"] or ""
        except urllib.error.HTTPError as error:
            sheet, sheet_type = f"HTTP {error.code}", ""
        check("the stylesheet is served from Public/ as the article gives it, as CSS",
              sheet == files["Public/counter.css"] and sheet_type.startswith("text/css"), (sheet_type, sheet[:200]))
        check("with the security headers (CSP with frame-ancestors 'none', nosniff, Referrer-Policy)",
              "frame-ancestors 'none'" in (headers["Content-Security-Policy"] or "") and headers["X-Content-Type-Options"] == "nosniff"
              and headers["Referrer-Policy"], dict(headers))
        try:
            urllib.request.urlopen(url + "no/such/page", timeout=5)
            status = 200
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read().decode()
        check("an address it has no screen for is a 404 page with a way home", status == 404 and 'href="/"' in body, status)
        head = urllib.request.urlopen(urllib.request.Request(url + "favicon.ico", method="HEAD"), timeout=5)
        check("HEAD is answered as GET, without a body; the favicon is there",
              head.status == 200 and head.read() == b"" and int(head.headers["Content-Length"]) > 0, (head.status, dict(head.headers)))
        browser(url)
    finally:
        process.terminate()
        process.wait(timeout=10)
    process, url = serve(os.path.join(binaries, "Clock"))
    try:
        check("BuildingAPage's clock app starts and prints its address", url, process.poll())
        clock_back(url)
    finally:
        process.terminate()
        process.wait(timeout=10)


def serve(binary, cwd=None):
    """Starts a server that prints its address on a free port; returns it and the address."""
    process = subprocess.Popen([binary], cwd=cwd, env={**os.environ, "PORT": "0"}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = None
    deadline = time.monotonic() + 30
    while url is None and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            break
        match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        url = match.group(1) if match else None
    return process, url


def add_clock(package):
    """A second executable beside the counter: BuildingAPage's app with a @MainActor page
    (its Swift block that ends with `clockAppSessions`, as the page gives it), served as the
    counter is."""
    article = open(BUILDING_A_PAGE, encoding="utf-8").read()
    blocks = re.findall(r"```swift\n(.*?)```", article, re.S)
    clock = [block for block in blocks if "func clockAppSessions" in block]
    check("BuildingAPage has the clock app's block", len(clock) == 1, len(clock))
    manifest = os.path.join(package, "Package.swift")
    text = open(manifest, encoding="utf-8").read()
    products = re.search(r'\.executableTarget\(name: "Counter", dependencies: \[(.*?)\]\)', text, re.S)
    check("the counter's manifest has its target", products, text[-400:])
    text = text.replace(products.group(0), products.group(0) + ',\n        .executableTarget(name: "Clock", dependencies: [' + products.group(1) + "])")
    write(package, {
        "Package.swift": text,
        "Sources/Clock/Clock.swift": "import Observation\nimport WebUI\n\n" + clock[0],
        "Sources/Clock/main.swift": """import Foundation
import WebServer

let port = UInt16(ProcessInfo.processInfo.environment["PORT"] ?? "") ?? 8080
let server = try WebAppServer(port: port, sessions: clockAppSessions(), log: { print($0) })
Task {
    let listening = try await server.waitUntilListening()
    FileHandle.standardOutput.write(Data("Open http://127.0.0.1:\\(listening)/\\n".utf8))
}
try await server.run()
""",
    })


def clock_back(url):
    """T-BEYOND4 (the browser view layer), Back after `Document.load`: the loaded page (/clock, a page with no screen below its own)
    puts the page that loaded it below itself, so Back returns there, Forward comes back, and a
    reload keeps both; the history holds no entry twice."""
    from selenium.webdriver.common.by import By
    driver = chrome()
    text = lambda: driver.execute_script("return document.body.innerText")
    path = lambda: driver.execute_script("return location.href.startsWith('data:') ? 'data:' : location.pathname")
    def wait(want):
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                if path() == want and (want == "data:" or driver.execute_script("return !!document.body.dataset.session")):
                    return True
            except Exception:
                pass
            time.sleep(0.05)
        return False
    try:
        driver.get("data:,")
        driver.get(url)
        wait("/")
        length = driver.execute_script("return history.length")
        [button for button in driver.find_elements(By.TAG_NAME, "button") if button.text.strip() == "Clock"][0].click()
        check("BuildingAPage's clock app: Clock loads /clock, drawn on the main actor", wait("/clock") and "Ticks: 0" in text(), (path(), text()))
        driver.back()
        check("Back from the loaded page returns to the page that loaded it", wait("/") and "Clock" in text(), (path(), text()))
        driver.forward()
        check("Forward goes to the loaded page again", wait("/clock") and "Ticks: 0" in text(), (path(), text()))
        driver.refresh()
        check("after a reload of the loaded page, Back still returns to the page that loaded it",
              wait("/clock") and (driver.back() or wait("/")), path())
        check("the history has one entry for each of the two pages (none twice)",
              driver.execute_script("return history.length") == length + 1, (length, driver.execute_script("return history.length")))
        driver.back()
        check("and Back once more leaves the app", wait("data:"), path())
        # A forged record of the loading page (another site's address, as a same-origin script
        # could write it): the loaded page still runs, and puts no entry for it.
        driver.get(url)
        wait("/")
        driver.execute_script("sessionStorage.setItem('mvvm.loaded', JSON.stringify("
                              "{from: '//evil.example/x', to: '/clock', depth: 1, page: 'forged', at: Date.now()}))")
        driver.get(url + "clock")
        check("a forged record of the loading page: the loaded page still runs, its history left as it was",
              wait("/clock") and driver.execute_script("return !!window.mvvm")
              and not [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"],
              (path(), driver.execute_script("return !!window.mvvm")))
    finally:
        driver.quit()


def chrome():
    """A headless Chromium that keeps the page's console log."""
    from selenium import webdriver
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chromedriver = shutil.which(os.environ.get("CHROMEDRIVER") or "chromedriver")
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=chromedriver))


def browser(url):
    from selenium.webdriver.common.by import By
    driver = chrome()
    try:
        driver.get(url)
        text = lambda: driver.execute_script("return document.querySelector('section.page').textContent")
        for presses in (1, 2, 3):
            [button for button in driver.find_elements(By.TAG_NAME, "button") if button.text.strip() == "+1"][0].click()
            deadline = time.monotonic() + 5
            while f"Pressed {presses} times" not in text() and time.monotonic() < deadline:
                time.sleep(0.05)
            check(f"in Chromium, +1 counts ({presses})", f"Pressed {presses} times" in text(), text())
        check("the page's title is the screen's", driver.title == "Counter", driver.title)
        search = lambda: driver.execute_script("return location.search")
        deadline = time.monotonic() + 5
        while search() != "?count=3" and time.monotonic() < deadline:
            time.sleep(0.05)
        check("the address bar follows the count (its AppAddresses)", search() == "?count=3", search())
        driver.refresh()
        deadline = time.monotonic() + 5
        while "Pressed 3 times" not in text() and time.monotonic() < deadline:
            time.sleep(0.05)
        check("a reload shows the same count", "Pressed 3 times" in text(), text())
        driver.get(url + "?count=41")
        deadline = time.monotonic() + 5
        while "Pressed 41 times" not in text() and time.monotonic() < deadline:
            time.sleep(0.05)
        check("a link with a count opens at it", "Pressed 41 times" in text(), text())
        size = driver.execute_script("return getComputedStyle(document.querySelector('section.page .headline')).fontSize")
        check("the app's stylesheet wins over WebUI's: the headline is 2rem (32px)", size == "32px", size)
        console = [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
        check("nothing in the browser's console", not console, console[:3])
    finally:
        driver.quit()


def readme_reference_commands():
    """The README's commands for the reference from a dependent package: the sh block after
    "From a package that depends on MVVMKit", continuation lines joined."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        readme = handle.read()
    start = readme.index("**From a package that depends on MVVMKit**")
    block = readme[readme.index("```sh\n", start) + len("```sh\n"):]
    block = block[:block.index("```")]
    return [line.strip() for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def reference(work):
    package = os.path.join(work, "Reader")
    shutil.rmtree(package, ignore_errors=True)
    revision = run(["git", "rev-parse", "HEAD"], ROOT).strip()
    write(package, {
        "Package.swift": f"""// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Reader",
    dependencies: [.package(url: "file://{os.path.join(work, 'MVVMKit')}", revision: "{revision}")],
    targets: [.executableTarget(name: "Reader", dependencies: [.product(name: "MVVM", package: "MVVMKit")])]
)
""",
        "Sources/Reader/main.swift": "import MVVM\nprint(Navigator.self)\n",
    })
    run(["swift", "package", "resolve"], package)
    check("a package depending on MVVMKit by URL has its checkout", os.path.isdir(os.path.join(package, ".build/checkouts/MVVMKit")),
          os.listdir(os.path.join(package, ".build/checkouts")))
    commands = readme_reference_commands()
    check("the README gives two commands: build the reference, serve it", len(commands) == 2 and commands[1].startswith("python3 -m http.server"), commands)
    run(["bash", "-c", commands[0]], package)
    site = os.path.join(package, "MVVMKit-docs")
    pages = [os.path.join(site, "documentation", module, "index.html") for module in ("signals", "signalstesting", "mvvm", "screenkit", "screentesting", "terminalui", "webui")]
    check("the website has a page for each library the command names", all(os.path.isfile(page) for page in pages),
          [page for page in pages if not os.path.isfile(page)])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    serve = commands[1].split("#")[0].replace("8000", str(port)).replace("http.server", "http.server --bind 127.0.0.1", 1)
    server = subprocess.Popen(["bash", "-c", "exec " + serve], cwd=package, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/documentation/", timeout=2).read()
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
        read_reference(f"http://127.0.0.1:{port}")
    finally:
        server.terminate()
        server.wait(timeout=10)


def read_reference(base):
    driver = chrome()
    try:
        for path, wanted in (("/documentation/mvvm/navigator", "The navigation stack of view models"),
                             ("/documentation/screenkit/choice", "Choice"),
                             ("/documentation/", "TerminalUI")):
            driver.get(base + path)
            text = ""
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                text = driver.execute_script("return document.body.innerText") or ""
                if wanted in text:
                    break
                time.sleep(0.2)
            check(f"in Chromium, the reference's {path} shows {wanted!r}", wanted in text, text[:300])
    finally:
        driver.quit()


def main():
    work = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="consumers-"))
    os.makedirs(work, exist_ok=True)
    link = os.path.join(work, "MVVMKit")
    if not os.path.islink(link):
        os.symlink(ROOT, link)
    libraries_only(work)
    counter(work)
    reference(work)
    print(f"consumer-packages: {passed} checks passed")


if __name__ == "__main__":
    main()
