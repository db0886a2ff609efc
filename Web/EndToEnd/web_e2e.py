#!/usr/bin/env python3
"""End-to-end tests of the real `showcase-web` binary in a headless Chromium driven by Selenium
(issue 19): a person's clicks and keys in the browser, and what the page then shows, down to
the pixels of a screenshot.

Usage: web_e2e.py PATH/TO/showcase-web [--screenshots DIR] [--readme-screenshot FILE]

Starts the server offline on a free port, runs every scenario in one browser, prints one line
per check ("PASS ..." or "FAIL ...", with what was seen), and exits 1 if any check failed.
Each scenario saves screenshots (in a temporary folder, or --screenshots DIR, with the server's
stderr as server.log) and checks that they are not blank: the thumbnails and posters are drawn,
and text is where the page says it is. --readme-screenshot writes the Flickr results screenshot
there (docs/showcase-web-flickr.png). WEB_E2E_ONLY=flickr,login runs only those scenarios.

Needs chromium and chromedriver (Debian's `chromium`, `chromium-driver`; or $CHROMIUM and
$CHROMEDRIVER) and `selenium` from PyPI. The server is always stopped, whatever happens.
"""
import atexit
import glob
import postgres_cluster
import json
import os
import queue
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import ElementNotInteractableException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngcheck import Screenshot  # noqa: E402

WIDTH, HEIGHT = 1100, 800
WAIT = 10  # seconds any one thing may take to appear
SESSION_GRACE = 2
ATTACHMENTS = tempfile.mkdtemp(prefix="e2e-attachments-")

passed = 0
failed = 0


def check(name, ok, seen=""):
    """Counts and prints one check: "PASS name (saw: ...)" or "FAIL name (saw: ...)"."""
    global passed, failed
    line = name + (f" (saw: {seen})" if seen != "" else "")
    if ok:
        passed += 1
        print(f"PASS {line}", flush=True)
    else:
        failed += 1
        print(f"FAIL {line}", flush=True)
    return ok


def usable(element):
    """Whether a button can be pressed: not disabled, nor a link said to be (aria-disabled)."""
    return element.is_enabled() and element.get_attribute("aria-disabled") != "true"


def wait_until(condition, timeout=WAIT, interval=0.05):
    """The first truthy value of `condition()` within `timeout` seconds, or the last value.

    A condition that raises because the page changed under it (a stale element, a page still
    loading) is asked again."""
    deadline = time.monotonic() + timeout
    value = None
    while True:
        try:
            value = condition()
        except (WebDriverException, LookupError):
            value = None
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)


# MARK: The server


STATS_TOKEN = "e2e-stats-token"


class Server:
    """The real binary on a free port, offline; its stderr lines are kept for the checks."""

    def __init__(self, binary, *arguments, showcase=True):
        if "--database" not in arguments:
            # Each server its own to-do list (a SQLite file that lives as long as the run), kept
            # across its own restarts, as a deployed one is.
            arguments = (*arguments, "--database", os.path.join(tempfile.mkdtemp(prefix="e2e-todos-"), "todos.sqlite"))
        self.binary, self.arguments, self.showcase = binary, arguments, showcase
        self.errors = []
        self.lock = threading.Lock()
        atexit.register(self.stop)
        self.url = None
        self._start("0")

    def _start(self, port):
        mode = ["--web", "--offline"] if self.showcase else []   # todo-web serves one app, offline
        self.process = subprocess.Popen(
            [self.binary, *mode, "--port", port, "--session-grace", str(SESSION_GRACE), "--stats-token", STATS_TOKEN, *self.arguments],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            errors="replace")
        lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.process.stdout, lines.put), daemon=True).start()
        threading.Thread(target=self._read, args=(self.process.stderr, self._error), daemon=True).start()
        url = None
        deadline = time.monotonic() + 30
        while url is None and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                if self.process.poll() is not None:
                    break
                continue
            match = re.search(r"(http://127\.0\.0\.1:\d+/)", line or "")
            if match:
                url = match.group(1)
        if url is None:
            self.stop()
            raise RuntimeError(f"showcase --web printed no URL within 30 s (stderr: {self.stderr()!r})")
        self.url = url

    def restart(self):
        """Stops the server (SIGTERM) and starts a new one on the same port: every session is gone."""
        self.stop()
        self.start_again()

    def start_again(self):
        """Starts a new server on the port of the one stopped."""
        self._start(re.search(r":(\d+)/$", self.url).group(1))

    def freeze(self):
        """Stops the process (SIGSTOP) without closing its sockets: what a page sends now is
        taken by the kernel and never answered, as with a server that hangs or a network that
        drops. `kill()` ends it with what it was sent unread."""
        os.kill(self.process.pid, signal.SIGSTOP)

    def kill(self):
        self.process.kill()
        self.process.wait()

    @staticmethod
    def _read(stream, put):
        for line in stream:
            put(line.rstrip("\n"))

    def _error(self, line):
        with self.lock:
            self.errors.append(line)

    def stderr(self, since=0):
        with self.lock:
            return self.errors[since:]

    def stderr_count(self):
        with self.lock:
            return len(self.errors)

    def stats(self):
        request = urllib.request.Request(self.url + "stats", headers={"Authorization": f"Bearer {STATS_TOKEN}"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read())

    def is_running(self):
        return self.process.poll() is None

    def stop(self):
        """SIGTERM: the server stops gracefully (its sockets closed with 1001) and exits 0; after
        15 s it is killed. `stopped` then says how it ended and how long it took."""
        if self.process.poll() is None:
            started = time.monotonic()
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.stopped = (self.process.returncode, time.monotonic() - started)


# MARK: The page


class Page:
    """The browser, and what a scenario asks of the page in it."""

    def __init__(self, driver, server, shots):
        self.driver = driver
        self.server = server
        self.shots = shots
        self.scenario = "start"

    # Reading the page

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def visible_texts(self, css):
        """The text of every element matching `css` that is shown (not in a hidden tab)."""
        return self.js(
            "return [...document.querySelectorAll(arguments[0])].filter((e) => e.getClientRects().length > 0)"
            ".map((e) => e.textContent)", css)

    def visible(self, css):
        """The elements matching `css` that are shown. One the page redrew between the look-up and
        the question (a row drawn again) is no longer there: left out, not an error."""
        def shown(element):
            try:
                return element.is_displayed()
            except StaleElementReferenceException:
                return False
        return [e for e in self.driver.find_elements(By.CSS_SELECTOR, css) if shown(e)]

    def heading(self):
        return self.js("const h = document.querySelector('header h1'); return h ? h.textContent : ''")

    def wait_heading(self, text, timeout=WAIT):
        return wait_until(lambda: self.heading() == text, timeout=timeout)

    def console(self):
        """The errors and warnings the browser logged since the last call (reading drains the log)."""
        return [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]

    def settled(self):
        """Every message the page sent is acknowledged and the socket is open."""
        return self.js("return window.mvvm && mvvm.pending() === 0 && mvvm.connected()")

    def images_loaded(self, css, minimum=1):
        """How many `css` images on screen are loaded, if every one on screen is and there are
        at least `minimum`; else 0."""
        return self.js("""
            const shown = [...document.querySelectorAll(arguments[0])].filter((i) => {
              const r = i.getBoundingClientRect();
              return i.getClientRects().length > 0 && r.bottom > 0 && r.top < innerHeight;
            });
            const loaded = shown.filter((i) => i.complete && i.naturalWidth > 0).length;
            return shown.length >= arguments[1] && loaded === shown.length ? loaded : 0;""", css, minimum)

    def rects(self, css, limit=20):
        """Viewport rectangles (x, y, w, h) of the `css` elements wholly on screen."""
        return self.js("""
            return [...document.querySelectorAll(arguments[0])].map((e) => e.getBoundingClientRect())
              .filter((r) => r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight)
              .slice(0, arguments[1]).map((r) => [r.x, r.y, r.width, r.height]);""", css, limit)

    # Acting

    def click_text(self, css, text):
        """Clicks the shown `css` element whose text is `text` (or starts with it)."""
        def find():
            shown = [(element, element.get_property("textContent").strip()) for element in self.visible(css)]
            for element, content in sorted(shown, key=lambda pair: pair[1] != text):
                if content == text or content.startswith(text):
                    element.click()
                    return True
            return False
        if not wait_until(find):
            raise LookupError(f"no {css} showing {text!r}; shown: {self.visible_texts(css)}")

    def click_row(self, title):
        self.click_text("li.row .title", title)

    def todo_rows(self):
        """The to-do rows shown, each as "[x] title" or "[ ] title" (its checkbox, its title)."""
        return self.js(
            "return [...document.querySelectorAll('section.page li.row')].filter((e) => e.getClientRects().length > 0)"
            ".map((e) => { const box = e.querySelector('input[type=checkbox]');"
            " return (box ? (box.checked ? '[x] ' : '[ ] ') : '') + e.querySelector('.title').textContent; })")

    def todo_control(self, title, css):
        """The element `css` (its checkbox, its Delete) of the to-do row titled `title`."""
        return self.js(
            "const row = [...document.querySelectorAll('section.page li.row')].find((e) => e.querySelector('.title').textContent === arguments[0]);"
            " return row && row.querySelector(arguments[1]);", title, css)

    def open_app(self, title, heading):
        self.driver.get(self.server.url)
        self.wait_heading("MVVMKit showcase")
        self.click_row(title)
        if not self.wait_heading(heading):
            raise LookupError(f"{title} did not open (heading {self.heading()!r})")

    def field(self, css="section.page input"):
        fields = wait_until(lambda: self.visible(css))
        if not fields:
            raise LookupError(f"no field {css}")
        return fields[0]

    @staticmethod
    def fresh(find, act):
        """`act(find())`, found again if the page redrew the element between the two (a patch, a
        page sent again after a reconnect, each keeping its text and focus): Selenium refuses an
        action on the element it held before and does none, so nothing is done twice. The same
        when the element was hidden for a moment as it was acted on (a page shown again after a
        reconnect: the rehearsal of stop 69 failed so, once in 278 checks): a person waits for
        it too."""
        for attempt in range(3):
            try:
                return act(find())
            except StaleElementReferenceException:
                if attempt == 2:
                    raise
            except ElementNotInteractableException:
                if attempt == 2:
                    raise
                time.sleep(0.5)

    def send_to_field(self, css, keys):
        """Sends `keys` to the field as it is now."""
        self.fresh(lambda: self.field(css), lambda e: e.send_keys(keys))

    def click_field(self, css):
        """Clicks the field as it is now."""
        self.fresh(lambda: self.field(css), lambda e: e.click())

    def click_button(self, text):
        """Clicks the button titled `text` as it is now."""
        self.fresh(lambda: self.button(text), lambda e: e.click())

    def field_value(self, css):
        """The field's value as it is now."""
        return self.fresh(lambda: self.field(css), lambda e: e.get_attribute("value"))

    def type_keys(self, element, text):
        """Types `text` one key at a time, as a person would."""
        for character in text:
            element.send_keys(character)

    def button(self, text):
        """The shown button titled `text` (a button drawn as a link too: a to-do filter)."""
        for element in self.visible("button, a.button"):
            if element.text.strip() == text:
                return element
        raise LookupError(f"no button {text!r}")

    def frames_received(self):
        """The WebSocket frames the page received since the last call (Chromium's log)."""
        frames = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.webSocketFrameReceived":
                frames.append(message["params"]["response"]["payloadData"])
        return frames

    def sockets_opened(self):
        """How many WebSockets the page opened since the last call to this or frames_received."""
        count = 0
        for entry in self.driver.get_log("performance"):
            if json.loads(entry["message"])["message"]["method"] == "Network.webSocketCreated":
                count += 1
        return count

    # Screenshots

    def screenshot(self, name):
        """Saves the page's screenshot as NAME.png; checks that it is not blank."""
        path = os.path.join(self.shots, f"{name}.png")
        self.driver.save_screenshot(path)
        with open(path, "rb") as f:
            png = f.read()
        shot = Screenshot(png)
        whole = shot.region(step=4)
        check(f"{self.scenario}: the screenshot {name}.png is not blank", not shot.is_blank(),
              f"{shot.width}×{shot.height}, {whole['colours']} colours in a sample, {whole['away']:.1%} not background")
        return shot, path

    def check_images_drawn(self, shot, css, what, minimum=1):
        """Each `css` image on screen is drawn in the screenshot: its box is mostly not the page's
        background nor the grey an image shows before it loads, and has a gradient's colours."""
        rects = self.rects(css)
        drawn = [shot.image_drawn(rect) for rect in rects]
        check(f"{self.scenario}: {what} are drawn in the screenshot",
              len(rects) >= minimum and all(drawn),
              f"{sum(drawn)} of {len(rects)} on screen drawn")

    def check_text_drawn(self, shot, css, what, colour="dark", minimum=1):
        """Each `css` element on screen with text has text pixels in its box."""
        rects = self.rects(css)
        inked = [shot.region(rect)[colour] >= 8 for rect in rects]
        check(f"{self.scenario}: {what} is drawn where the page puts it",
              len(rects) >= minimum and all(inked),
              f"{sum(inked)} of {len(rects)} boxes have {colour} text pixels")


# MARK: Scenarios


def flickr(page, readme_screenshot):
    page.scenario = "Flickr"
    page.open_app("Flickr search", "Flickr Search")
    field = page.field()
    field.click()
    page.type_keys(field, "sun")
    wait_until(page.settled)
    go = page.button("Go")
    disabled_at_3 = not go.is_enabled()
    page.type_keys(field, "set")
    enabled_at_6 = wait_until(lambda: page.button("Go").is_enabled())
    check("Flickr (FS-V1): Go is disabled at 3 characters and enabled at 6, typed one key at a time",
          disabled_at_3 and enabled_at_6, f"disabled at 'sun': {disabled_at_3}, enabled at 'sunset': {bool(enabled_at_6)}")
    page.button("Go").click()
    spinner = wait_until(lambda: page.visible_texts(".spinner"), timeout=3)
    check("Flickr (FS-V3): the spinner shows while searching", spinner, spinner)
    summary = wait_until(lambda: "120 photos (showing 100)" in page.visible_texts("section.page p.dim") and page.heading() == "sunset")
    check("Flickr (FS-VM2): Go opens the results, titled by the search", summary,
          f"heading {page.heading()!r}, {page.visible_texts('section.page p.dim')[:1]}")
    rows = page.js("return document.querySelectorAll('.photos li.row').length")
    loaded = wait_until(lambda: page.images_loaded("img.thumb", 5))
    check("Flickr: 100 rows, and the thumbnails on screen are loaded", rows == 100 and loaded, f"{rows} rows, {loaded} loaded thumbnails on screen")
    source = page.js("return document.querySelector('img.thumb').getAttribute('src')")
    check("Flickr: offline, the thumbnails are the server's marked placeholders", source.startswith("/placeholder.svg?"), source[:60])
    counts = wait_until(lambda: all("♥" in t for t in page.js("""
        return [...document.querySelectorAll('.photos li.row')].filter((li) => {
          const r = li.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })
          .map((li) => li.querySelector('.detail').textContent);""")), timeout=5)
    below = page.js("return document.querySelectorAll('.photos li.row')[90].querySelector('.detail').textContent")
    check("Flickr (FS-V8): rows on screen load their counts, rows far below do not",
          counts and "loading counts" in below, f"rows on screen have ♥: {bool(counts)}; row 91: {below!r}")
    shot, path = page.screenshot("flickr-results")
    page.check_images_drawn(shot, "img.thumb", "the thumbnails", minimum=5)
    page.check_text_drawn(shot, ".photos li.row .title", "each row's title", minimum=5)
    if readme_screenshot:
        os.makedirs(os.path.dirname(os.path.abspath(readme_screenshot)), exist_ok=True)
        shutil.copyfile(path, readme_screenshot)
        print(f"# README screenshot: {readme_screenshot} ({os.path.getsize(readme_screenshot)} bytes)")

    title = page.visible_texts(".photos li.row .title")[2]
    page.click_row(title)
    photo = wait_until(lambda: page.heading() == "Photo" and page.images_loaded("img.photo"))
    shown = page.visible_texts("section.page h2")
    check("Flickr (FS-VM4): a click on a row opens its photo, loaded", photo and shown == [title], f"heading {page.heading()!r}, h2 {shown}")
    shot, _ = page.screenshot("flickr-photo")
    page.check_images_drawn(shot, "img.photo", "the photo")
    page.check_text_drawn(shot, "section.page h2", "the photo's title")

    page.driver.back()
    back = wait_until(lambda: page.heading() == "sunset" and not page.visible("img.photo") and page.images_loaded("img.thumb", 5))
    check("Flickr: the browser's Back returns to the results", back, f"heading {page.heading()!r}")
    page.driver.back()
    search = wait_until(lambda: page.heading() == "Flickr Search")
    value = page.field().get_attribute("value")
    recent = wait_until(lambda: page.visible_texts("section.page li.row .title"))
    check("Flickr (FS-VM1b): Back again to the search, the typed text still there, the search on top of Recent",
          search and value == "sunset" and recent and recent[0] == "sunset", f"field {value!r}, recent {recent}")
    thumbs = wait_until(lambda: page.images_loaded("img.thumb"))
    shot, _ = page.screenshot("flickr-search")
    if check("Flickr: the recent search's thumbnail is loaded", thumbs, f"{thumbs} loaded"):
        page.check_images_drawn(shot, "img.thumb", "the recent search's thumbnail")
    page.check_text_drawn(shot, "section.page li.row .title", "the recent search's text")

    # Esc while a search is in flight (it answers after 0.7 s): back to the launcher, for good.
    field = page.field()
    field.send_keys(Keys.ENTER)
    field.send_keys(Keys.ESCAPE)
    launcher = page.wait_heading("MVVMKit showcase")
    time.sleep(1.5)
    check("Flickr (issue 16): Esc during a search goes back, and no results page appears after",
          launcher and page.heading() == "MVVMKit showcase" and not page.visible("img.thumb"), f"heading {page.heading()!r}")


def field_message(page, field):
    """What the page says of `field`'s message: [aria-invalid, the text of the element its
    aria-describedby names, whether that element shows]."""
    return page.js("""const field = arguments[0];
        const message = document.getElementById(field.getAttribute('aria-describedby') || '');
        return [field.getAttribute('aria-invalid'), message ? message.textContent : null,
                message ? !message.hidden && message.offsetParent !== null : null];""", field)


def login_messages(page):
    """Issue 59: each field's message, tied to it, shown once it is used or on a tried submit;
    a refused Enter focuses the first invalid field; Login disabled while a rule is broken;
    Enter submits once both hold."""
    page.open_app("Login", "Login")
    user = page.field("section.page input[type=text]")
    password = page.field("section.page input[type=password]")
    rule = "At least 3 characters"
    fresh = [field_message(page, user), field_message(page, password)]
    check("Login (issue 59): before any use no message shows, no field is aria-invalid, each names its message",
          fresh == [[None, "", False], [None, "", False]], fresh)
    user.click()
    page.type_keys(user, "ad")
    used = wait_until(lambda: field_message(page, user) == ["true", rule, True])
    check("Login (issue 59): the user name's message shows once it is used, named by aria-describedby, the field aria-invalid",
          used and field_message(page, password) == [None, "", False],
          f"user {field_message(page, user)}, password {field_message(page, password)}")
    check("Login (issue 59): Login is disabled while a rule is broken", not page.button("Login").is_enabled())
    user.send_keys(Keys.ENTER)
    both = wait_until(lambda: field_message(page, password) == ["true", rule, True])
    focused = page.js("return document.activeElement === arguments[0]", user)
    check("Login (issue 59): Enter with rules broken shows every field's message, the focus on the first invalid field",
          both and field_message(page, user)[2] and focused, f"password {field_message(page, password)}, user focused {focused}")
    page.type_keys(user, "a")
    fixed = wait_until(lambda: field_message(page, user) == [None, "", False])
    user.send_keys(Keys.ENTER)
    moved = wait_until(lambda: page.js("return document.activeElement === arguments[0]", password))
    check("Login (issue 59): the user name's rule held, Enter moves the focus to the password, the first invalid field",
          fixed and moved, f"user {field_message(page, user)}, password focused {bool(moved)}")
    page.type_keys(password, "lovelace")
    wait_until(lambda: page.button("Login").is_enabled())
    password.send_keys(Keys.ENTER)
    welcome = wait_until(lambda: page.visible_texts("section.page h2") == ["Welcome, Ada Lovelace!"])
    check("Login (issue 59): with both rules kept, Enter logs in", welcome, page.visible_texts("section.page h2"))


def new_issue(page):
    """Issue 59: the new issue form, every control in the browser. Each control's value reaches the
    view model (the filed issue's summary names them all) and a value the view model sets shows
    in the page; a field's message appears once it is used, and on a tried submit for every
    field, named by aria-describedby with aria-invalid; File issue is disabled while a rule is
    broken; Enter in the title submits, Enter in the details is a new line; a number that is no
    number is refused with a message, one out of the range clamped and shown so."""
    from selenium.webdriver.support.ui import Select
    page.scenario = "New issue"
    page.open_app("New issue", "New issue")
    title = page.field("section.page input[name=title]")
    details = page.field("section.page textarea[name=details]")
    estimate = page.field("section.page input[type=number]")
    confidence = page.field("section.page input[type=range]")
    labels = page.field("section.page fieldset.checklist")
    fresh = [field_message(page, title), field_message(page, details), field_message(page, labels)]
    check("New issue: before any use no message shows and no field is aria-invalid", fresh == [[None, "", False]] * 3, fresh)
    group = page.js("""const group = arguments[0];
        return [group.querySelector('legend').textContent, [...group.querySelectorAll('label.toggle')].map((l) => [l.textContent.trim(), l.querySelector('input[type=checkbox]') !== null])];""", labels)
    check("New issue: the labels are a <fieldset> named by its legend, a checkbox inside its label for each",
          group == ["Labels", [["crash", True], ["ui", True], ["docs", True], ["speed", True]]], group)
    check("New issue: File issue is disabled while a rule is broken", not page.button("File issue").is_enabled())
    check("New issue: the details are a <textarea> with its rows and maxlength, named by its label",
          details.get_attribute("rows") == "3" and details.get_attribute("maxlength") == "500" and details.get_attribute("aria-label") == "Details",
          [details.get_attribute(name) for name in ("rows", "maxlength", "aria-label")])
    # A click on a field's label focuses the field, as a label a page writes by hand does (a
    # first user's finding: the labels were <span>s).
    page.js("document.activeElement.blur()")
    clicked = []
    for label_text, field in (("Details", details), ("Estimate (hours):", estimate)):
        page.click_text("label", label_text)
        clicked.append(wait_until(lambda: page.js("return document.activeElement === arguments[0]", field)))
    check("New issue: a click on a field's label focuses its field (<label for>)", clicked == [True, True], clicked)
    title.click()
    page.type_keys(title, "Cra")
    used = wait_until(lambda: field_message(page, title) == ["true", "At least 5 characters", True])
    check("New issue: the title's message shows once it is used; the details' does not",
          used and field_message(page, details) == [None, "", False], [field_message(page, title), field_message(page, details)])
    title.send_keys(Keys.ENTER)
    every = wait_until(lambda: field_message(page, details) == ["true", "Say what happened", True]
                       and field_message(page, labels) == ["true", "Choose at least one label", True])
    focused = page.js("return document.activeElement === arguments[0]", title)
    check("New issue: Enter with the rules broken shows every field's message (the labels' too), the focus on the first invalid field",
          every and focused, [field_message(page, details), field_message(page, labels), focused])
    page.type_keys(title, "sh on save")
    check("New issue: the title's message goes once its rule holds", wait_until(lambda: field_message(page, title) == [None, "", False]), field_message(page, title))
    details.click()
    page.type_keys(details, "line one")
    details.send_keys(Keys.ENTER)
    page.type_keys(details, "line two")
    count = wait_until(lambda: "17/500" in page.visible_texts("section.page .count"))
    check("New issue: Enter in the details is a new line (nothing filed), the count follows",
          count and details.get_attribute("value") == "line one\nline two" and not any("Filed" in t for t in page.visible_texts("section.page p, section.page span")),
          [details.get_attribute("value"), page.visible_texts("section.page .count")])
    page.click_text("button", "Idea")
    page.click_text("label", "crash")
    page.click_text("label", "ui")
    page.click_text("label", "docs")
    page.click_text("label", "ui")
    chosen = wait_until(lambda: field_message(page, labels) == [None, "", False])
    check("New issue: a click flips a label; the labels' message goes once one is chosen", chosen, field_message(page, labels))
    Select(page.field("section.page select.picker")).select_by_visible_text("Urgent")
    # The due date: typed as a person types into Chromium's date and time fields (en-US:
    # month, day, year; hour, minute, AM/PM); the server hears "2027-03-15" and "17:00".
    due = page.field("section.page input[type=date]")
    due_time = page.field("section.page input[type=time]")
    named = [due.get_attribute("name"), due.get_attribute("aria-label"), due_time.get_attribute("name"), due_time.get_attribute("aria-label")]
    check("New issue: the due date is an <input type=date> and a time, each named by the label", named == ["due", "Due", "due-time", "Due, time"], named)
    page.js("arguments[0].focus()", due)
    # Key by key, as a person types (a first user's finding): Chromium reports the year on its
    # way (0002, 0020, 0202) as whole days, which the range (this century) refuses; the page
    # waits for the whole year, so the typing is not restated under the person's fingers.
    for key in "03152027":
        due.send_keys(key)
        time.sleep(0.3)
    typed = wait_until(lambda: due.get_attribute("value") == "2027-03-15" and field_message(page, due)[0] is None)
    check("New issue: a day typed key by key into a field with a range (its year on the way is no day in it) arrives whole",
          typed, [due.get_attribute("value"), field_message(page, due)])
    page.js("arguments[0].focus()", due_time)
    due_time.send_keys("0500P")
    # A forged text (the page's field turned into a text field): the server parses it and refuses.
    page.js("""const el = arguments[0]; el.type = 'text'; el.value = '2027-02-30';
               el.dispatchEvent(new Event('change', { bubbles: true }));""", due)
    refused = wait_until(lambda: field_message(page, due) == ["true", "“2027-02-30” is not a day (YYYY-MM-DD)", True]
                         and due.get_attribute("value") == "2027-03-15")
    check("New issue: a day that does not exist, sent as the page's change, is refused by the server with a message, the day restated",
          refused, [field_message(page, due), due.get_attribute("value")])
    page.js("arguments[0].type = 'date'", due)
    estimate.click()
    estimate.send_keys(Keys.CONTROL, "a")
    estimate.send_keys("e", Keys.TAB)
    refused = wait_until(lambda: field_message(page, estimate) == ["true", "Enter a number", True])
    check("New issue: a number field left with no number is refused with its message, the value restated",
          refused and wait_until(lambda: estimate.get_attribute("value") == "2"), [field_message(page, estimate), estimate.get_attribute("value")])
    estimate.click()
    estimate.send_keys(Keys.CONTROL, "a")
    estimate.send_keys("99", Keys.TAB)
    clamped = wait_until(lambda: estimate.get_attribute("value") == "40")
    check("New issue: a number past the range is clamped, and the page shows the clamped value", clamped and field_message(page, estimate)[0] is None,
          [estimate.get_attribute("value"), field_message(page, estimate)])
    estimate.click()
    estimate.send_keys(Keys.CONTROL, "a")
    estimate.send_keys("5", Keys.TAB)
    confidence.click()
    page.js("arguments[0].focus()", confidence)
    value = confidence.get_attribute("value")
    steps = round((0.8 - float(value)) * 10)
    for _ in range(abs(steps)):
        confidence.send_keys(Keys.ARROW_RIGHT if steps > 0 else Keys.ARROW_LEFT)
    page.click_text("label", "Notify me")
    filing = wait_until(lambda: page.button("File issue").is_enabled())
    check("New issue: File issue is enabled once every rule holds", filing)
    page.click_button("File issue")
    summary = "Filed #1: Crash on save [crash, docs] (Idea, Urgent, due 2027-03-15 17:00, 5 h, 80% sure, 2 lines)"
    done = wait_until(lambda: summary in page.visible_texts("section.page p, section.page span"))
    progress = page.js("const p = document.querySelector('section.page progress'); return p && [p.value, p.getAttribute('aria-valuetext')]")
    check("New issue: every control's value reached the view model (the summary names them all), the progress at 100%",
          done and progress == [1, "100%"], [page.visible_texts("section.page p, section.page span")[-3:], progress])
    title.send_keys(" now", Keys.ENTER)
    again = wait_until(lambda: any(t.startswith("Filed #2: Crash on save now [crash, docs] (") for t in page.visible_texts("section.page p, section.page span")))
    check("New issue: Enter in the title files it", again, page.visible_texts("section.page p, section.page span")[-3:])
    link = page.field("section.page a[href^='https://']")
    check("New issue: the link outside the app opens a new tab without the opener", "noopener" in (link.get_attribute("rel") or ""),
          [link.get_attribute("href"), link.get_attribute("rel"), link.get_attribute("target")])
    # A restart under the open page: the new server's session is built from the address, and
    # the page puts back what every control held (the new session hears each).
    # The browser logs the socket it could not open while no server listened: that line is
    # expected here, and only that one (the scenario's console is checked again at its end).
    before = page.console()
    page.server.restart()
    back = wait_until(lambda: page.settled() and page.field_value("section.page textarea[name=details]") == "line one\nline two", timeout=20)
    page.send_to_field("section.page input[name=title]", Keys.ENTER)
    refiled = wait_until(lambda: "Filed #1: Crash on save now [crash, docs] (Idea, Urgent, due 2027-03-15 17:00, 5 h, 80% sure, 2 lines)" in page.visible_texts("section.page p, section.page span"), timeout=15)
    check("New issue: after a restart under the open page, every control is put back (text, segments, labels, picker, numbers, toggle), and the new session files them",
          back and refiled, [page.field_value("section.page textarea[name=details]"), page.visible_texts("section.page p, section.page span")[-2:]])
    during = [m for m in page.console() if not ("/ws' failed" in m and "ERR_CONNECTION_REFUSED" in m)]
    check("New issue: nothing in the console before the restart, and across it only the socket refused while no server listened",
          not before and not during, [m[:160] for m in before + during][:3])
    page.driver.refresh()
    page.wait_heading("New issue")
    reloaded = wait_until(lambda: page.field_value("section.page input[name=title]") == "Crash on save now")
    check("New issue: a reload shows the form again at its address (the title from it)", reloaded, page.field_value("section.page input[name=title]"))
    page.driver.get(page.server.url.rstrip("/") + "/new-issue?title=From%20the%20address")
    page.wait_heading("New issue")
    shown = wait_until(lambda: page.field_value("section.page input[name=title]") == "From the address")
    check("New issue: a title the view model sets (from the address) shows in the field", shown, page.field_value("section.page input[name=title]"))


def rss_kb(pid):
    """The process's resident memory, in KB (VmRSS)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class RSSWatch:
    """The process's peak resident memory while the block runs, sampled every 20 ms."""

    def __init__(self, pid):
        self.pid, self.peak, self.running = pid, 0, True

    def __enter__(self):
        def sample():
            while self.running:
                self.peak = max(self.peak, rss_kb(self.pid))
                time.sleep(0.02)
        self.thread = threading.Thread(target=sample, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.running = False
        self.thread.join()


def upload_temporaries():
    """The upload files the server is writing or holds (in its temporary folder)."""
    return set(glob.glob(os.path.join(os.environ.get("TMPDIR") or "/tmp", "mvvmkit-upload-*")))


def uploads(page):
    """Issue 59, files through the page: a 20 MB file sent in chunks, its progress reaching 100%,
    the bytes on the server identical (its checksum, once filing kept it); a file over the limit
    refused from its declared size with a message, the server's memory within 2 MB; a kind not
    taken refused; a cancel mid-way frees what was received; 10 tabs uploading at once hold no
    more memory than the limits promise (each page's socket is read only while less than
    `bytesWaiting` waits)."""
    import hashlib
    page.scenario = "Uploads"
    folder = tempfile.mkdtemp(prefix="e2e-upload-")
    def made(name, size, sparse=False):
        path = os.path.join(folder, name)
        with open(path, "wb") as out:
            if sparse:
                out.truncate(size)
            else:
                out.write(os.urandom(size))
        return path
    trace = made("trace.zip", 20_000_000)
    big = made("big.zip", 30_000_000, sparse=True)
    tool = made("tool.exe", 1000)
    pid = page.server.process.pid
    page.open_app("New issue", "New issue")
    chooser = page.field("section.page input[type=file]")
    check("Uploads: the attachments are an <input type=file> named by the label, with the kinds it takes",
          [chooser.get_attribute("aria-label"), chooser.get_attribute("accept"), chooser.get_attribute("multiple")] == ["Attachments", "image/*,.pdf,.txt,.log,.zip", "true"],
          [chooser.get_attribute(name) for name in ("aria-label", "accept", "multiple")])
    before_rss, before_files = rss_kb(pid), upload_temporaries()
    chooser.send_keys(big)
    said = "“big.zip” is 30 MB: this field takes files up to 25 MB"
    refused = wait_until(lambda: field_message(page, chooser) == ["true", said, True])
    time.sleep(0.5)
    after_rss = rss_kb(pid)
    check("Uploads: a file over the limit is refused from its declared size, with its message on the input",
          refused and upload_temporaries() == before_files, field_message(page, chooser))
    check("Uploads: refusing a 30 MB file leaves the server's memory within 2 MB of before",
          after_rss - before_rss <= 2048, f"{before_rss} KB before, {after_rss} KB after")
    page.field("section.page input[type=file]").send_keys(tool)
    check("Uploads: a kind not taken is refused with its message",
          wait_until(lambda: (field_message(page, chooser)[1] or "").startswith("“tool.exe” is not a kind of file this field takes")), field_message(page, chooser))
    # Every percentage the page shows, as it shows it.
    page.js("""window.seenPercents = [];
        new MutationObserver(() => {
          for (const p of document.querySelectorAll('li.uploading progress')) window.seenPercents.push(Math.round(100 * p.value / p.max));
        }).observe(document.querySelector('ul.files'), { subtree: true, attributes: true, childList: true });""")
    started = time.monotonic()
    page.field("section.page input[type=file]").send_keys(trace)
    received = wait_until(lambda: any(t.startswith("trace.zip") and "20 MB" in t and "%" not in t for t in page.visible_texts("ul.files li.file")), timeout=60)
    took = time.monotonic() - started
    seen = page.js("return window.seenPercents")
    check("Uploads: a 20 MB file arrives, its progress shown as it goes and reaching 100%",
          received and seen and seen[-1] == 100 and seen == sorted(seen) and len(set(seen)) > 5,
          f"{took:.1f} s; {len(seen)} percentages, last {seen[-3:] if seen else None}")
    check("Uploads: received, the message goes", field_message(page, chooser) == [None, "", False], field_message(page, chooser))
    # Filing keeps it where the showcase keeps attachments: the bytes are the file's.
    page.type_keys(page.field("section.page input[name=title]"), "Crash with a trace")
    page.type_keys(page.field("section.page textarea[name=details]"), "See the trace.")
    page.click_text("label", "crash")
    wait_until(lambda: page.button("File issue").is_enabled())
    page.click_button("File issue")
    filed = wait_until(lambda: any("+ trace.zip (20 MB)" in t for t in page.visible_texts("section.page p, section.page span")))
    kept = os.path.join(ATTACHMENTS, "1-trace.zip")
    def digest(path):
        with open(path, "rb") as source:
            return hashlib.sha256(source.read()).hexdigest()
    same = filed and os.path.exists(kept) and digest(kept) == digest(trace)
    check("Uploads: filed, the kept file's SHA-256 is the chosen file's", same,
          [filed, os.path.exists(kept), digest(kept)[:16] if os.path.exists(kept) else None, digest(trace)[:16]])
    # Cancel mid-way: what was received is deleted.
    slow = made("slow.zip", 24_000_000)
    page.field("section.page input[type=file]").send_keys(slow)
    going = wait_until(lambda: any(0 < p < 100 for p in page.js("return window.seenPercents.slice(-3)") or []) and len(upload_temporaries()) > len(before_files))
    page.js("document.querySelector('[aria-label=\"Cancel slow.zip\"]').click()")
    gone = wait_until(lambda: upload_temporaries() == before_files and not page.visible_texts("ul.files li.uploading"))
    check("Uploads: a cancel mid-way deletes what was received, and the row goes", going and gone,
          [going, sorted(upload_temporaries() - before_files), page.visible_texts("ul.files li")])
    # 10 tabs at once, each a 20 MB file: the server's memory stays within what its limits
    # promise (a page's socket is not read while bytesWaiting waits for its session).
    first = page.driver.current_window_handle
    files = [made(f"tab{n}.zip", 20_000_000) for n in range(10)]
    tabs = []
    for n in range(10):
        page.driver.switch_to.new_window("tab")
        page.driver.get(page.server.url.rstrip("/") + "/new-issue")
        page.wait_heading("New issue")
        tabs.append(page.driver.current_window_handle)
    baseline = rss_kb(pid)
    with RSSWatch(pid) as watch:
        for handle, path in zip(tabs, files):
            page.driver.switch_to.window(handle)
            page.field("section.page input[type=file]").send_keys(path)
        def all_received():
            for handle in tabs:
                page.driver.switch_to.window(handle)
                if not any("20 MB" in t and "%" not in t for t in page.visible_texts("ul.files li.file")):
                    return False
            return True
        everyone = wait_until(all_received, timeout=180, interval=1)
    grew = watch.peak - baseline
    # What the limits promise for 10 sockets: bytesWaiting (512 KB) and one message (64 KB)
    # each, and the session's own (its frames, the file's bookkeeping): 10 × 1 MB, plus 8 MB
    # for the allocator and NIO's buffers.
    check("Uploads: 10 tabs each send 20 MB at once; the server's memory grows by at most 18 MB",
          everyone and grew <= 18 * 1024, f"all received {everyone}; peak {watch.peak} KB, {grew} KB over {baseline} KB")
    for handle in tabs:
        page.driver.switch_to.window(handle)
        page.driver.close()
    page.driver.switch_to.window(first)
    shutil.rmtree(folder, ignore_errors=True)     # 300 MB of test files


def login(page):
    page.scenario = "Login"
    login_messages(page)
    page.open_app("Login", "Login")
    user = page.field("section.page input[type=text]")
    password = page.field("section.page input[type=password]")
    user.click()
    page.type_keys(user, "ad")
    password.click()
    page.type_keys(password, "lov")
    wait_until(page.settled)
    disabled = not page.button("Login").is_enabled()
    user.click()
    page.type_keys(user, "a")
    enabled = wait_until(lambda: page.button("Login").is_enabled())
    check("Login (LG-1): Login is disabled at 2+3 characters, enabled at 3+3", disabled and enabled,
          f"disabled at ad/lov: {disabled}, enabled at ada/lov: {bool(enabled)}")
    password.click()
    page.type_keys(password, "elace")
    wait_until(page.settled)
    page.frames_received()
    kind = password.get_attribute("type")
    html = page.js("return document.documentElement.outerHTML")
    leaked = re.findall(r'value="[^"]*(?:lovelace|lov)[^"]*"', html)
    check("Login (LG-2): the password field is type=password and the password is in no value attribute",
          kind == "password" and not leaked and password.get_attribute("value") == "lovelace",
          f"type={kind}, value attributes with it: {leaked}")
    password.send_keys(Keys.ENTER)
    welcome = wait_until(lambda: page.visible_texts("section.page h2") == ["Welcome, Ada Lovelace!"])
    check("Login (LG-2): ada/lovelace reaches the welcome page", welcome and "Signed in as ada" in page.visible_texts("section.page span, section.page p"),
          f"{page.heading()!r}: {page.visible_texts('section.page h2')}")
    frames = page.frames_received()
    check("Login (LG-2): no frame the server sent holds the password", frames and not any("lovelace" in f for f in frames),
          f"{len(frames)} frames since it was typed")
    shot, _ = page.screenshot("login-welcome")
    page.check_text_drawn(shot, "section.page h2", "the greeting")

    page.click_text("button", "Back")
    page.wait_heading("Login")
    password = page.field("section.page input[type=password]")
    user = page.field("section.page input[type=text]")
    disabled = wait_until(lambda: not page.button("Login").is_enabled(), timeout=3)
    check("Login: back on the login page, the password field is empty (on the page and in the view model: Login disabled), the user name kept",
          password.get_attribute("value") == "" and user.get_attribute("value") == "ada" and disabled,
          f"user {user.get_attribute('value')!r}, password {password.get_attribute('value')!r}, Login disabled: {bool(disabled)}")

    def log_in(name, secret):
        user = page.field("section.page input[type=text]")
        user.click()
        user.send_keys(Keys.CONTROL, "a")
        user.send_keys(Keys.BACKSPACE)
        page.type_keys(user, name)
        password = page.field("section.page input[type=password]")
        password.click()
        password.send_keys(Keys.CONTROL, "a")
        password.send_keys(Keys.BACKSPACE)
        page.type_keys(password, secret)
        wait_until(lambda: page.button("Login").is_enabled())
        page.button("Login").click()

    log_in("grace", "hopper")
    status = wait_until(lambda: [t for t in page.visible_texts("section.page p.error") if "verification" in t])
    check("Login (LG-VM2): grace/hopper says the account needs verification", status and page.heading() == "Login", status)
    shot, _ = page.screenshot("login-verification")
    page.check_text_drawn(shot, "section.page p.error", "the failure, in red,", colour="red")

    # A second Enter while the login runs (600 ms): refused, and said. Twice at once (the second
    # reaches the server before the page knows the field is busy: the server refuses it and tells
    # the page), then once the page shows the field busy (the page itself says it).
    banner = lambda: page.js("const b = document.getElementById('connection'); return b.hidden ? '' : b.textContent")
    busy = lambda: page.field("section.page input[type=password]").get_attribute("aria-busy") == "true"
    for round, pause in (("at once", 0), ("after the page shows it busy", 0.25)):
        wait_until(lambda: not busy() and "was not applied" not in banner(), timeout=7)
        password = page.field("section.page input[type=password]")
        if pause:
            password.send_keys(Keys.ENTER)
            wait_until(busy, timeout=2)
            password.send_keys(Keys.ENTER)
        else:
            password.send_keys(Keys.ENTER + Keys.ENTER)     # one command: the keys a few µs apart
        said = wait_until(lambda: "was not applied" in banner(), timeout=2)
        was_busy = busy()
        check(f"Login: a second Enter in the password field while the login runs ({round}) is refused and said, the field busy",
              said and was_busy and "Enter in \u201cPassword\u201d" in banner(), f"banner {banner()!r}, aria-busy {was_busy}")
        if round == "at once":
            shot, _ = page.screenshot("login-refused-enter")
        done = wait_until(lambda: not busy(), timeout=3)
        check(f"Login: the field is no longer busy once the login answered ({round})", done, f"aria-busy {busy()}")

    log_in("alan", "turing")
    dialog = wait_until(lambda: page.visible_texts(".dialog"))
    check("Login (LG-VM2): alan/turing shows the server error in a dialog",
          dialog and "Login failed" in dialog[0] and "server is unavailable" in dialog[0], dialog)
    shot, _ = page.screenshot("login-error-dialog")
    page.check_text_drawn(shot, ".dialog-box p", "the dialog's message")
    page.button("OK").click()
    gone = wait_until(lambda: not page.visible(".dialog"))
    check("Login: OK dismisses the dialog, the login page stays", gone and page.heading() == "Login", f"heading {page.heading()!r}")
    page.button("Login").click()
    again = wait_until(lambda: page.visible(".dialog"))
    page.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    gone = wait_until(lambda: not page.visible(".dialog"))
    time.sleep(0.3)
    check("Login: Esc dismisses the dialog too, and does not leave the page", again and gone and page.heading() == "Login",
          f"heading {page.heading()!r}")


def todo(page):
    """Issue 25: the to-do example's screen, described once, in the browser with no page code."""
    page.scenario = "To-do"
    page.open_app("To-do list", "To-dos")
    field = page.field("section.page input[placeholder='What needs doing?']")
    field.click()
    page.type_keys(field, "Buy milk")
    field.send_keys(Keys.ENTER)
    added = wait_until(lambda: page.todo_rows() == ["[ ] Buy milk"])
    left = page.visible_texts("section.page p, section.page span")
    check("To-do: Enter adds the typed to-do and the count follows", added and "1 item left" in left,
          f"rows {page.todo_rows()}, texts {left}")
    page.click_row("Buy milk")
    done = wait_until(lambda: page.todo_rows() == ["[x] Buy milk"])
    check("To-do: a click on a to-do marks it done", done and "0 items left" in page.visible_texts("section.page p, section.page span"),
          page.todo_rows())
    # Issue 32: the row's own checkbox flips it (and only it: the row's click is not sent too).
    page.todo_control("Buy milk", "input[type=checkbox]").click()
    undone = wait_until(lambda: page.settled() and page.todo_rows() == ["[ ] Buy milk"])
    time.sleep(0.3)
    check("To-do: the row's checkbox marks it not done, once (the row's own click is not sent as well)",
          undone and page.todo_rows() == ["[ ] Buy milk"] and "1 item left" in page.visible_texts("section.page p, section.page span"), page.todo_rows())
    box = page.todo_control("Buy milk", "input[type=checkbox]")
    box.send_keys(" ")
    done = wait_until(lambda: page.settled() and page.todo_rows() == ["[x] Buy milk"])
    focused = page.js("const a = document.activeElement; return a && a.type === 'checkbox' && a.closest('li.row').querySelector('.title').textContent")
    check("To-do: Space on the focused checkbox marks it done, and the redrawn row's checkbox keeps the focus", done and focused == "Buy milk",
          f"rows {page.todo_rows()}, focus on {focused!r}")
    shot, _ = page.screenshot("todo")
    page.check_text_drawn(shot, "section.page li.row .title", "the to-do")
    page.button("Active").click()
    active = wait_until(lambda: not page.todo_rows())
    check("To-do: Active hides the done to-do", active, page.todo_rows())
    page.button("All").click()
    wait_until(page.settled)

    # Issue 32: input from every source. A field cleared by a script (no event at all), then
    # Add: the view model sees it empty and adds nothing. A value set by a script, then Add:
    # it is added. A value that only says `change` (autofill, a picker) reaches the view model
    # at once (Add turns enabled with no key typed).
    css = "section.page input[placeholder='What needs doing?']"
    field = page.field(css)
    field.click()
    page.type_keys(field, "Buy eggs")
    wait_until(page.settled)
    page.js("arguments[0].value = ''", page.field(css))
    page.button("Add").click()
    wait_until(page.settled)
    time.sleep(0.3)
    rows = page.todo_rows()
    check("To-do: a field cleared by a script (no input event) and then Add: the view model sees it empty, nothing is added",
          rows == ["[x] Buy milk"] and page.field(css).get_attribute("value") == "", rows)
    page.js("arguments[0].value = 'Set by a script'", page.field(css))
    page.field(css).send_keys(Keys.ENTER)
    added = wait_until(lambda: page.settled() and page.todo_rows() == ["[x] Buy milk", "[ ] Set by a script"])
    check("To-do: a value set by a script (no event) and then Enter: that value is added", added, page.todo_rows())
    page.js("arguments[0].value = 'Clicked'", page.field(css))
    enabled = wait_until(lambda: page.settled() and page.button("Add").is_enabled(), timeout=5)
    page.button("Add").click()
    added = wait_until(lambda: page.settled() and page.todo_rows()[-1:] == ["[ ] Clicked"])
    check("To-do: a value set by a script with no event reaches the view model within a second (Add turns enabled), and Add adds it",
          enabled and added, page.todo_rows())
    page.todo_control("Clicked", "button.row-button").click()
    deleted = wait_until(lambda: page.settled() and page.todo_rows() == ["[x] Buy milk", "[ ] Set by a script"])
    check("To-do: a row's Delete deletes that to-do only", deleted, page.todo_rows())
    # Issue 41 (memory per tab): a page with nothing more to send says, a second after frames
    # stop, which ones it applied, so its session forgets them instead of keeping them.
    told = wait_until(lambda: page.js("return mvvm.framesSeen() === mvvm.frame() && mvvm.stats.frameAcks > 0"), timeout=5)
    check("To-do (issue 41): an idle page says which frames it applied, a second after they stop",
          told, f"frame {page.js('return mvvm.frame()')}, said {page.js('return mvvm.framesSeen()')}, {page.js('return mvvm.stats.frameAcks')} times")
    # A paste of text copied from a terminal, colour codes and all, inserted as the browser
    # inserts a paste (input events): the view model gets what every layer keeps of it (`Oat
    # milk`), and the page's field is put right to match.
    page.field(css).click()
    page.js("arguments[0].focus(); document.execCommand('insertText', false, 'Oat\\u001b[31m milk\\u001b[0m')", page.field(css))
    cleaned = wait_until(lambda: page.settled() and page.field(css).get_attribute("value") == "Oat milk", timeout=5)
    page.field(css).send_keys(Keys.ENTER)
    added = wait_until(lambda: page.settled() and page.todo_rows()[-1:] == ["[ ] Oat milk"])
    check("To-do: a paste carrying terminal colour codes reads 'Oat milk' in the field and is added as 'Oat milk'",
          cleaned and added, f"field {page.field(css).get_attribute('value')!r}, rows {page.todo_rows()}")
    if added:
        page.todo_control("Oat milk", "button.row-button").click()
        wait_until(lambda: page.settled() and page.todo_rows() == ["[x] Buy milk", "[ ] Set by a script"])
    disabled_before = not page.button("Add").is_enabled()
    page.js("const f = arguments[0]; f.value = 'Autofilled'; f.dispatchEvent(new Event('change', { bubbles: true }))", page.field(css))
    enabled = wait_until(lambda: page.settled() and page.button("Add").is_enabled())
    check("To-do: a value that only fires change (autofill) reaches the view model at once (Add turns enabled)",
          disabled_before and enabled, f"disabled before: {disabled_before}; enabled after: {bool(enabled)}")


def person(page):
    page.scenario = "Person"
    # Issue 41: the launcher's tab runs on an executor of its own; Person's view model is
    # @MainActor, so choosing it loads /person as a new page, whose session is on the main actor.
    page.driver.get("data:,")
    page.driver.get(page.server.url)
    page.wait_heading("MVVMKit showcase")
    launcher = page.js("return document.body.dataset.session")
    page.click_row("Person")
    if not page.wait_heading("Person"):
        raise LookupError(f"Person did not open (heading {page.heading()!r})")
    own = page.js("return document.body.dataset.session")
    check("Person (issue 41): chosen on the launcher, it is loaded as a page of its own at /person, with a new session",
          own and launcher and own != launcher and page.js("return location.pathname") == "/person",
          f"launcher's session {launcher[:8] if launcher else None}, Person's {own[:8] if own else None}, at {page.js('return location.pathname')}")
    people = wait_until(lambda: page.visible_texts("section.page li.row .title"))
    card = page.visible_texts("section.page h2")
    check("Person (PV-V): the people load from the service; the card shows the first", people and card and card[0].endswith(people[0]),
          f"{len(people or [])} people, card {card}")
    chosen = people[1] if people and len(people) > 1 else "?"
    page.click_row(chosen)
    detail = wait_until(lambda: page.heading().endswith(chosen) and page.visible("dl.facts"))
    facts = page.visible_texts("dl.facts dd")
    check("Person: a click opens the person's detail", detail and chosen.split(" ")[0] in facts, f"heading {page.heading()!r}, {facts}")
    shot, _ = page.screenshot("person-detail")
    page.check_text_drawn(shot, "dl.facts dd", "each fact", minimum=4)
    page.driver.back()
    back = wait_until(lambda: page.heading() == "Person" and (page.visible_texts("section.page h2") or [""])[0].endswith(chosen))
    check("Person: Back returns to the people, the card showing the one chosen", back, page.visible_texts("section.page h2"))
    # Issue 43: the Settings page (its address beside it): its toggle hides the birthdays.
    born = lambda: [text for text in page.visible_texts("section.page p, section.page span") if text.startswith("Born ")]
    had_birthday = bool(wait_until(born))
    # Issue 59: the button that opens the settings is a link to their address: a new tab opens them there.
    href = wait_until(lambda: (page.button("Settings").get_attribute("href") or "").endswith("/person/settings") and page.button("Settings").get_attribute("href"))
    first_tab = page.driver.current_window_handle
    page.driver.switch_to.new_window("tab")
    page.driver.get(href or page.server.url)
    in_new_tab = page.wait_heading("Settings") and page.js("return location.pathname") == "/person/settings"
    page.driver.close()
    page.driver.switch_to.window(first_tab)
    check("Person: Settings is a link to /person/settings, and a new tab opens the settings there", bool(href) and in_new_tab, [href, in_new_tab])
    page.button("Settings").click()
    opened = wait_until(lambda: page.heading() == "Settings" and page.js("return location.pathname") == "/person/settings")
    box = page.driver.find_elements(By.CSS_SELECTOR, "section.page input[type=checkbox]")
    if box:
        box[-1].click()
    page.driver.back()
    hidden = wait_until(lambda: page.heading() == "Person" and page.settled() and not born())
    check("Person: Settings is at /person/settings, and its toggle hides the birthdays", had_birthday and opened and len(box) == 1 and hidden,
          f"birthday before {had_birthday}, opened {bool(opened)}, {len(box)} checkbox(es), hidden {bool(hidden)}")
    page.driver.back()
    launcher_again = page.wait_heading("MVVMKit showcase")
    page.driver.back()
    left = wait_until(lambda: page.js("return location.href").startswith("data:"), timeout=5)
    check("Person (issue 41): Back from its first screen returns to the launcher, and once more leaves the showcase (no launcher twice)",
          launcher_again and left, f"heading {page.heading()!r}, then at {page.js('return location.href')}")


def movies(page):
    page.scenario = "Movies"
    page.open_app("Movies", "Movies")
    titles = lambda: page.visible_texts(".posters li.row .title")
    first = wait_until(titles)
    selected = page.visible_texts(".segments [role=tab][aria-selected=true]")
    check("Movies (MI-1): Now Playing is listed first", first and selected == ["Now Playing"], f"{selected}, {len(first or [])} movies")
    page.click_text(".segments [role=tab]", "Top Rated")
    switched = wait_until(lambda: titles() and titles() != first and page.visible_texts(".segments [role=tab][aria-selected=true]") == ["Top Rated"])
    check("Movies (MI-1): Top Rated replaces the list", switched, f"first title {first[0] if first else None!r} → {titles()[:1]}")
    posters = wait_until(lambda: page.images_loaded(".posters img.thumb", 3))
    check("Movies: the posters on screen are loaded", posters, f"{posters} loaded")
    shot, _ = page.screenshot("movies-top-rated")
    page.check_images_drawn(shot, ".posters img.thumb", "the posters", minimum=3)
    page.check_text_drawn(shot, ".posters li.row .title", "each movie's title", minimum=3)

    # MI-P: the end of the list loads the next page.
    count = len(titles())
    page.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    more = wait_until(lambda: len(titles()) > count)
    check("Movies: scrolling to the end of the list loads the next page", more, f"{count} → {len(titles())} movies")
    page.js("window.scrollTo(0, 0)")

    page.click_text(".tabs [role=tab]", "Search")
    field = page.field("section.page .tab:not([hidden]) input")
    field.click()
    page.type_keys(field, "storm")
    results = wait_until(lambda: page.visible_texts(".posters li.row .title"))
    check("Movies (MI-2): typing 'storm' on the Search tab finds movies", results and all("storm" in t.lower() for t in results), results)
    # The posters first, then the screenshot (taken before them, it can catch one still grey).
    posters = wait_until(lambda: page.images_loaded(".posters img.thumb"))
    check("Movies: the results' posters on screen are loaded", posters, f"{posters} loaded")
    shot, _ = page.screenshot("movies-search")
    page.check_images_drawn(shot, ".posters img.thumb", "the results' posters")
    title = results[0].split("  ")[0] if results else ""
    page.click_row(results[0] if results else "?")
    # The facts: "Released", "Runtime", … (dt) with their values (dd).
    facts = lambda: dict(zip(page.visible_texts("dl.facts dt"), page.visible_texts("dl.facts dd")))
    detail = wait_until(lambda: page.heading() == title and page.images_loaded("img.poster-large") and
                        len(facts().get("Released", "")) > 3 and facts().get("Runtime") and
                        not page.visible_texts(".spinner"))
    check("Movies (MI-S5): a result opens its detail: poster, release date, runtime, loaded", detail,
          f"heading {page.heading()!r}, {list(facts().items())[:3]}")
    shot, _ = page.screenshot("movies-detail")
    page.check_images_drawn(shot, "img.poster-large", "the large poster")
    page.check_text_drawn(shot, "section.page h2", "the movie's title")
    page.driver.back()
    back = wait_until(lambda: page.heading() == "Movies" and page.visible_texts(".tabs [aria-selected=true]") == ["Search"]
                      and page.visible_texts(".posters li.row .title") == results)
    check("Movies: Back returns to the Search tab with its query and results",
          back and page.field("section.page .tab:not([hidden]) input").get_attribute("value") == "storm",
          f"tab {page.visible_texts('.tabs [aria-selected=true]')}, {len(page.visible_texts('.posters li.row'))} results")


def goods(page):
    page.scenario = "Goods"

    def page_to_end(category, variant):
        page.click_row(category)
        seen = []
        # The status paragraph under the list ("文具 Stationery · 15 items · …").
        status = lambda: next((t for t in page.visible_texts("section.page p") if re.search(r"\d+ items?\b", t)), "")
        wait_until(lambda: "items" in status())
        for _ in range(20):
            text = status()
            if not seen or seen[-1] != text:
                seen.append(text)
            if "end of list" in text:
                break
            page.js("window.scrollTo(0, document.documentElement.scrollHeight)")
            wait_until(lambda: status() != text and "loading" not in status(), timeout=3)
        rows = len(page.visible("section.page li.row"))
        match = re.search(r"(\d+) items · end of list", seen[-1])
        check(f"Goods ({variant}): scrolling to the end pages {category} to its end; the rows shown equal the status's count",
              match and int(match.group(1)) == rows, f"{rows} rows; status: {' → '.join(seen)}")
        return rows

    page.open_app("Goods catalog", "分类 Categories")
    rows = page_to_end("文具 Stationery", "GD-2, bindings")
    check("Goods (GD-2): the 44 items of Stationery in pages of 15", rows == 44, f"{rows} rows")
    # Drawn by patches (a screen pushed, pages of rows appended): marked as they arrive.
    read, unmarked = languages_marked(page, "Stationery, paged")
    check(f"Goods (issue 57): the Chinese in a list built by patches is marked lang=\"zh\" ({read} texts: the heading, the status the pages update)", read >= 2 and not unmarked, unmarked[:4])
    shot, _ = page.screenshot("goods-end")
    page.check_text_drawn(shot, "section.page li.row .title", "each item's name", minimum=5)
    page.visible("section.page li.row [data-part=title]")[-1].send_keys(Keys.ENTER)
    detail = wait_until(lambda: page.heading() == "商品详情" and any(t.startswith("Price: ¥") for t in page.visible_texts("section.page span, section.page p")))
    check("Goods (GD-3): Enter on the last item opens its detail with a price", detail, page.visible_texts("section.page span, section.page p")[:2])
    page.driver.back()
    back = wait_until(lambda: page.heading() == "商品列表" and len(page.visible("section.page li.row")) == 44)
    check("Goods: Back returns to the list, all 44 rows still there", back, f"heading {page.heading()!r}, {len(page.visible('section.page li.row'))} rows")

    page.open_app("Goods catalog (DataController)", "分类 Categories (DataController)")
    rows = page_to_end("玩具 Toys", "GD-4, DataController")
    check("Goods (GD-4): the 16 toys", rows == 16, f"{rows} rows")
    shot, _ = page.screenshot("goods-datacontroller-end")
    page.check_text_drawn(shot, "section.page li.row .title", "each toy's name", minimum=5)


def sessions(page):
    page.scenario = "Sessions"
    driver = page.driver
    page.open_app("Flickr search", "Flickr Search")
    first = driver.current_window_handle
    field = page.field()
    field.click()
    page.type_keys(field, "alpha")
    wait_until(page.settled)
    driver.switch_to.new_window("tab")
    page.open_app("Flickr search", "Flickr Search")
    field = page.field()
    fresh = field.get_attribute("value")
    field.click()
    page.type_keys(field, "beta")
    wait_until(page.settled)
    second_session = page.js("return document.body.dataset.session")
    driver.switch_to.window(first)
    kept = page.field().get_attribute("value")
    first_session = page.js("return document.body.dataset.session")
    check("Sessions: two tabs are two sessions: what is typed in one does not show in the other",
          fresh == "" and kept == "alpha" and first_session != second_session,
          f"second tab's field started {fresh!r}; first tab's field {kept!r}")
    stats = page.server.stats()
    check("Sessions: /stats counts the two tabs open (the earlier pages were closed as they were left)",
          stats["open"] == 2, stats)
    driver.switch_to.window(driver.window_handles[-1])
    closed_before = stats["closed"]
    started = time.monotonic()
    driver.close()
    driver.switch_to.window(first)
    after = wait_until(lambda: (lambda s: s if s["open"] == 1 and s["closed"] == closed_before + 1 and s["leaked"] == 0 else None)(page.server.stats()))
    took = time.monotonic() - started
    check("Sessions: closing a tab closes its session and frees it (/stats: one more closed, leaked 0)",
          after and took < 10, f"{after or page.server.stats()} after {took:.1f} s")
    field = page.field()
    page.type_keys(field, "x")
    still = wait_until(lambda: page.settled() and page.field().get_attribute("value") == "alphax")
    check("Sessions: the remaining tab still works", still, page.field().get_attribute("value"))

    # A page that cannot reconnect for longer than the grace period (its sockets go to an address
    # of the server that is no WebSocket, so each fails): the session closes; when it can connect
    # again, it gets a new session at its address.
    closed_before = page.server.stats()["closed"]
    page.js("""
        window.e2eWebSocket = WebSocket;
        window.WebSocket = function () { return new window.e2eWebSocket('ws://' + location.host + '/no-socket-here'); };
        mvvm.drop();""")
    started = time.monotonic()
    banner = wait_until(lambda: "Reconnecting" in page.js("return document.getElementById('connection').textContent"), timeout=3)
    closed = wait_until(lambda: page.server.stats()["closed"] == closed_before + 1, timeout=SESSION_GRACE + 8)
    took = time.monotonic() - started
    check(f"Sessions: a page away longer than the grace period ({SESSION_GRACE} s) has its session closed",
          banner and closed and took >= SESSION_GRACE - 0.5, f"banner shown: {bool(banner)}; closed after {took:.1f} s; {page.server.stats()}")
    page.js("window.WebSocket = window.e2eWebSocket")
    old_session = page.js("return document.body.dataset.session")
    resumed = wait_until(lambda: "Reconnected" in page.js("return document.getElementById('connection').textContent"))
    notice = page.js("return document.getElementById('connection').textContent")
    check("Sessions: the notice speaks to the user: what was typed is kept, and no click is said lost (none was made) (issue 43)",
          "What you typed is still here" in notice and "did not reach" not in notice and "session" not in notice, notice)
    check("Sessions: back online, the page gets a new session at its address and says it reconnected", resumed,
          page.js("return document.getElementById('connection').textContent"))
    rebuilt = wait_until(lambda: page.heading() == "Flickr Search" and page.settled() and page.field().get_attribute("value") == "alphax")
    new_session = page.js("return document.body.dataset.session")
    check("Sessions: the same screen is back, with what was typed in its field, in a new session",
          rebuilt and new_session != old_session and page.server.stats()["open"] == 1,
          f"heading {page.heading()!r}, field {page.field().get_attribute('value')!r}, sessions {old_session[:8]} → {new_session[:8]}, {page.server.stats()}")
    page.type_keys(page.field(), "y")
    works = wait_until(lambda: page.settled() and page.field().get_attribute("value") == "alphaxy")
    check("Sessions: the rebuilt page works (typing reaches the new session)", works, page.field().get_attribute("value"))


def addresses(page):
    """Issue 26: every screen has an address; reload, a fresh tab, back and forward, a restart."""
    page.scenario = "Addresses"
    driver = page.driver
    here = lambda: page.js("return location.pathname + location.search")
    rows = lambda: len(page.visible("section.page li.row"))

    def reload_keeps(what, heading, address, extra=lambda: True):
        """Reloads: the same screen (heading), address and inputs (`extra`) come back."""
        started = time.monotonic()
        driver.refresh()
        back = wait_until(lambda: page.heading() == heading and here() == address and page.settled() and extra())
        check(f"Addresses: {what}: a reload shows the same screen at the same address",
              back, f"heading {page.heading()!r}, address {here()!r} ({time.monotonic() - started:.1f} s)")

    # Flickr: the search, its results, a photo; the address follows; reload; back and forward.
    page.open_app("Flickr search", "Flickr Search")
    check("Addresses: Flickr's search screen is at /flickr (location.pathname, not /)", wait_until(lambda: here() == "/flickr"), here())
    field = page.field()
    field.click()
    page.type_keys(field, "sunset")
    field.send_keys(Keys.ENTER)
    results = wait_until(lambda: page.heading() == "sunset" and here() == "/flickr/results?q=sunset")
    check("Addresses: the results are at /flickr/results?q=sunset", results, here())
    reload_keeps("Flickr's results", "sunset", "/flickr/results?q=sunset", lambda: rows() > 3)
    page.click_row(page.visible_texts("section.page li.row .title")[0])
    opened = wait_until(lambda: page.heading() != "sunset" and here().startswith("/flickr/photo/"))
    photo_title, photo_address = page.heading(), here()
    check("Addresses: a photo is at /flickr/photo/ID?q=sunset", opened and photo_address.endswith("?q=sunset"), photo_address)
    reload_keeps("a photo", photo_title, photo_address)
    driver.back()
    check("Addresses: after the reload, back goes to the results", wait_until(lambda: page.heading() == "sunset" and here() == "/flickr/results?q=sunset"),
          f"heading {page.heading()!r}, address {here()!r}")
    driver.forward()
    check("Addresses: and forward opens the photo again", wait_until(lambda: page.heading() == photo_title and here() == photo_address),
          f"heading {page.heading()!r}, address {here()!r}")

    # The same address in a fresh tab (no history): the photo, over a sensible back stack.
    driver.switch_to.new_window("tab")
    driver.get(page.server.url.rstrip("/") + photo_address)
    fresh = wait_until(lambda: page.heading() == photo_title and here() == photo_address and page.settled())
    entries = page.js("return history.length")
    check("Addresses: the photo's address in a fresh tab opens the photo", fresh, f"heading {page.heading()!r}, address {here()!r}")
    driver.back()
    below = wait_until(lambda: page.heading() == "sunset" and here() == "/flickr/results?q=sunset")
    check("Addresses: ... and back goes to its search's results, then to the search, then to the launcher",
          below and entries >= 4, f"history.length {entries}; heading {page.heading()!r}, address {here()!r}")
    driver.back()
    wait_until(lambda: page.heading() == "Flickr Search")
    driver.back()
    check("Addresses: the fresh tab's back stack ends at the launcher", wait_until(lambda: page.heading() == "MVVMKit showcase" and here() == "/"),
          f"heading {page.heading()!r}, address {here()!r}")
    driver.close()
    driver.switch_to.window(driver.window_handles[0])

    # Every app's deep address in a fresh tab: that screen, with the launcher below it.
    for address, heading, ready in [
        ("/person/1", None, lambda: page.heading() not in ("", "Person", "MVVMKit showcase")),
        ("/login?user=ada", "Login", lambda: page.field("section.page input[type=text]").get_attribute("value") == "ada"),
        ("/movies/upcoming", "Movies", lambda: page.visible_texts(".segments [role=tab][aria-selected=true]") == ["Upcoming"] and rows() > 3),
        ("/movies/search?q=storm", "Movies", lambda: page.field("section.page .tab:not([hidden]) input").get_attribute("value") == "storm" and rows() > 0),
        ("/goods/2?pages=2", "商品列表", lambda: rows() == 30),
        ("/goods-dc/2?pages=2", None, lambda: rows() == 30),
        ("/todo", "To-dos", lambda: True),
        # Issue 43: a page added with its address beside it, and a detail that loads by its id.
        ("/person/settings", "Settings", lambda: len(page.driver.find_elements(By.CSS_SELECTOR, "section.page input[type=checkbox]")) == 1),
        ("/movies/top-rated/movie/1013", None, lambda: page.heading() not in ("", "Movies", "MVVMKit showcase")),
    ]:
        driver.switch_to.new_window("tab")
        driver.get(page.server.url.rstrip("/") + address)
        opened = wait_until(lambda: here() == address and (heading is None or page.heading() == heading) and page.settled() and ready())
        check(f"Addresses: {address} in a fresh tab opens its screen", opened, f"heading {page.heading()!r}, address {here()!r}, {rows()} rows")
        driver.back()
        below = wait_until(lambda: here() != address and page.settled())
        check(f"Addresses: ... and Back goes to the screen below it ({here()})", below and here() != address, here())
        driver.close()
        driver.switch_to.window(driver.window_handles[0])

    # Issue 43: a query value no screen knows shows the default, at the address that shows it.
    driver.switch_to.new_window("tab")
    driver.get(page.server.url.rstrip("/") + "/todo?filter=nope")
    check("Addresses: an unknown filter shows every to-do, at /todo (not a 404)",
          wait_until(lambda: here() == "/todo" and page.heading() == "To-dos" and page.settled()), f"heading {page.heading()!r}, address {here()!r}")
    driver.close()
    driver.switch_to.window(driver.window_handles[0])

    # The other apps: the address of a screen inside each, kept by a reload.
    page.open_app("Person", "Person")
    check("Addresses: Person is at /person", wait_until(lambda: here() == "/person"), here())
    wait_until(lambda: len(page.visible_texts("section.page li.row .title")) > 1)
    page.click_row(page.visible_texts("section.page li.row .title")[1])
    check("Addresses: a person is at /person/1", wait_until(lambda: here() == "/person/1"), here())
    reload_keeps("a person", page.heading(), "/person/1")

    page.open_app("Login", "Login")
    user = page.field("section.page input[type=text]")
    user.click()
    page.type_keys(user, "ada")
    check("Addresses: the login's user name is in its address (never the password)", wait_until(lambda: here() == "/login?user=ada"), here())
    reload_keeps("the login", "Login", "/login?user=ada", lambda: page.field("section.page input[type=text]").get_attribute("value") == "ada")

    page.open_app("Movies", "Movies")
    check("Addresses: Movies opens at /movies/now-playing", wait_until(lambda: here() == "/movies/now-playing"), here())
    page.click_text(".segments [role=tab]", "Top Rated")
    check("Addresses: the Top Rated list is at /movies/top-rated", wait_until(lambda: here() == "/movies/top-rated"), here())
    reload_keeps("a movie list", "Movies", "/movies/top-rated",
                 lambda: page.visible_texts(".segments [role=tab][aria-selected=true]") == ["Top Rated"] and rows() > 3)
    movie = page.visible_texts("section.page li.row .title")[0]
    page.click_row(movie)
    check("Addresses: a movie is at /movies/top-rated/movie/ID", wait_until(lambda: re.fullmatch(r"/movies/top-rated/movie/\d+", here())), here())
    movie_address = here()
    reload_keeps("a movie", page.heading(), movie_address)

    page.open_app("Goods catalog (DataController)", "分类 Categories (DataController)")
    page.click_row("文具 Stationery")
    wait_until(lambda: rows() == 15)
    page.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    wait_until(lambda: rows() == 30)
    dc_address = here()
    check("Addresses: the DataController list on its second page is at /goods-dc/ID?pages=2", re.fullmatch(r"/goods-dc/\d+\?pages=2", dc_address), dc_address)
    reload_keeps("the DataController list", page.heading(), dc_address, lambda: rows() == 30)

    page.open_app("To-do list", "To-dos")
    check("Addresses: the to-do list is at /todo", wait_until(lambda: here() == "/todo"), here())
    page.button("Active").click()
    search = page.field("section.page input[placeholder='Search the to-dos']")
    search.click()
    page.type_keys(search, "milk")
    check("Addresses: the to-dos' filter and search are in the address", wait_until(lambda: here() == "/todo?filter=active&q=milk"), here())
    reload_keeps("the to-dos' filter and search", "To-dos", "/todo?filter=active&q=milk",
                 lambda: not usable(page.button("Active")) and page.field("section.page input[placeholder='Search the to-dos']").get_attribute("value") == "milk")

    # An address no screen has: a 404 page with a way home.
    driver.get(page.server.url + "no/such/screen")
    try:
        urllib.request.urlopen(page.server.url + "no/such/screen", timeout=5)
        status = 200
    except urllib.error.HTTPError as error:
        status = error.code
    check("Addresses: an unknown address is a 404 page titled so (with the app's suffix)", status == 404 and driver.title == "Page not found · MVVMKit showcase", f"{status}, title {driver.title!r}")
    driver.find_element(By.ID, "home").click()
    check("Addresses: its link goes home", wait_until(lambda: page.heading() == "MVVMKit showcase" and here() == "/"), here())

    # The server restarted under an open page: a goods category on its third page.
    page.open_app("Goods catalog", "分类 Categories")
    page.click_row("文具 Stationery")
    wait_until(lambda: rows() == 15)
    for expected in (30, 44):
        page.js("window.scrollTo(0, document.documentElement.scrollHeight)")
        wait_until(lambda: rows() == expected)
    category_address = here()
    check("Addresses: a goods category on its third page is at /goods/ID?pages=3", re.fullmatch(r"/goods/\d+\?pages=3", category_address) and rows() == 44,
          f"{category_address}, {rows()} rows")
    started = time.monotonic()
    page.server.restart()
    # Timed to the rebuilt screen (the "Reconnected" note then stays up for 4 s).
    recovered = wait_until(lambda: page.heading() == "商品列表" and rows() == 44 and here() == category_address
                           and page.js("return mvvm.pending() === 0"), timeout=20)
    took = time.monotonic() - started
    check("Addresses: the server restarted; the page reconnects and rebuilds the category's three pages from its address",
          recovered, f"{took:.1f} s; heading {page.heading()!r}, {rows()} rows, address {here()!r}")
    print(f"# restart → goods page 3 back in {took:.1f} s", flush=True)
    reload_keeps("a goods category on its third page", "商品列表", category_address, lambda: rows() == 44)

    # ... and a typed search: the results searched, and the text typed after it.
    page.open_app("Movies", "Movies")
    page.click_text(".tabs [role=tab]", "Search")
    search = page.field("section.page .tab:not([hidden]) input")
    search.click()
    page.type_keys(search, "storm")
    wait_until(lambda: here() == "/movies/search?q=storm" and rows() > 0 and page.settled())
    found = rows()
    started = time.monotonic()
    page.server.restart()
    recovered = wait_until(lambda: here() == "/movies/search?q=storm" and page.js("return mvvm.pending() === 0") and rows() == found
                           and page.field("section.page .tab:not([hidden]) input").get_attribute("value") == "storm", timeout=20)
    took = time.monotonic() - started
    check("Addresses: the server restarted; a typed movie search is back with its text and results",
          recovered, f"{took:.1f} s; address {here()!r}, {rows()} results (had {found})")
    print(f"# restart → a typed search back in {took:.1f} s", flush=True)
    page.open_app("Flickr search", "Flickr Search")
    field = page.field()
    field.click()
    page.type_keys(field, "unsent words")
    wait_until(page.settled)
    page.server.restart()
    kept = wait_until(lambda: page.settled() and page.field().get_attribute("value") == "unsent words" and page.button("Go").is_enabled(), timeout=20)
    check("Addresses: the server restarted; text typed but not yet searched is kept, and the new session has it (Go enabled)",
          kept, f"field {page.field().get_attribute('value')!r}")


def latency(page):
    """Issue 26: with --latency 300 every message waits 300 ms each way; typing is kept, and a
    pressed button says it waits for the server until the answer comes."""
    page.scenario = "Latency"
    driver = page.driver
    slow = Server(page.server.binary, "--latency", "300")
    home = driver.current_window_handle
    try:
        driver.switch_to.new_window("tab")
        driver.get(slow.url + "flickr")
        check("Latency: the page opens at its address on a slow server", page.wait_heading("Flickr Search"), page.heading())
        field = page.field()
        field.click()
        page.type_keys(field, "sunset")
        typed = wait_until(lambda: page.settled() and page.field().get_attribute("value") == "sunset", timeout=15)
        check("Latency: typing at 300 ms each way: the field keeps every key", typed, page.field().get_attribute("value"))
        started = time.monotonic()
        page.button("Go").click()
        marked = page.js("return [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Go' && b.classList.contains('mvvm-loading'))")
        answered = wait_until(lambda: page.heading() == "sunset", timeout=15)
        took = time.monotonic() - started
        cleared = wait_until(lambda: not page.js("return document.querySelector('.mvvm-loading') !== null"), timeout=5)
        check("Latency: a pressed button carries mvvm-loading until the server's answer, then not",
              marked and answered and cleared and took >= 0.6, f"marked {marked}, answered after {took:.2f} s, cleared {bool(cleared)}")
    finally:
        if driver.current_window_handle != home:
            driver.close()
            driver.switch_to.window(home)
        slow.stop()


def early(page):
    """Issue 58 (found when --latency began to delay the page's files too): keys typed before the
    page's script runs — a slow network, the page drawn and its script still on the way — reach
    the server once the script runs; the tab never silently disagrees with its session. The
    script is held back (Chromium blocks its address), the name typed, the script let through."""
    page.scenario = "Early typing"
    driver = page.driver
    home = driver.current_window_handle
    try:
        driver.switch_to.new_window("tab")
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*mvvm.js*"]})
        driver.get(page.server.url + "login")
        page.wait_heading("Login")
        css = "section.page input[type=text]"
        check("Early typing: the page is drawn and its script has not run", not page.js("return !!window.mvvm"), "")
        page.field(css).send_keys("ada_early")
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        page.js("""const held = document.querySelector('script[src*="mvvm.js"]');
                   const again = document.createElement('script'); again.src = held.src; document.body.appendChild(again);""")
        settled = wait_until(page.settled, timeout=20)
        address = wait_until(lambda: "user=ada_early" in page.js("return location.search"), timeout=10)
        check("Early typing: what was typed before the script ran reaches the server (the address says user=ada_early)",
              settled and address and page.field(css).get_attribute("value") == "ada_early",
              f"settled {bool(settled)}; field {page.field(css).get_attribute('value')!r}; address {page.js('return location.search')!r}")
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        if driver.current_window_handle != home:
            driver.close()
            driver.switch_to.window(home)


def jitter(page):
    """Issue 27: typing is never overwritten on a jittery network. Every message waits 0 to
    500 ms at random each way (in order, as over TCP: `--jitter 500`); keys come fast, with
    random pauses; after every key the field must show exactly what was typed (a stale value
    from the server applied over newer typing would show). Also with the socket closed in the
    middle of a word (the page reconnects and resends), and with a view model that rewrites the
    field (the to-do's field is cleared when a to-do is added)."""
    page.scenario = "Jitter"
    driver = page.driver
    jittery = Server(page.server.binary, "--jitter", "500")
    home = driver.current_window_handle
    rng = random.Random()
    overwritten = []

    def type_checked(css, text, reconnect_at=None, submitted=None):
        """Types `text` key by key; after every key the field must show what was typed. With
        `submitted` (the text Enter just sent), the server's clear may arrive meanwhile: it
        applies to that text, and the field then shows the keys typed since (that is no
        overwrite)."""
        typed = page.field_value(css) or ""
        for index, character in enumerate(text):
            if index == reconnect_at:
                page.js("window.e2eSocket && window.e2eSocket.close()")
            page.send_to_field(css, character)
            typed += character
            value = page.field_value(css)
            if value != typed and submitted and typed.startswith(submitted) and value == typed[len(submitted):]:
                typed, submitted = value, None
            if value != typed:
                overwritten.append(f"{typed!r} showed {value!r}")
                typed = value
            time.sleep(rng.uniform(0, 0.05))
        return typed

    def capture_socket():
        page.js("""
            const send = WebSocket.prototype.send;
            WebSocket.prototype.send = function (data) { window.e2eSocket = this; return send.call(this, data); };""")

    try:
        driver.switch_to.new_window("tab")
        # A search field whose view model trims what it searches for.
        driver.get(jittery.url + "flickr")
        check("Jitter: the page opens on a jittery server", page.wait_heading("Flickr Search"), page.heading())
        # The page's script comes over the same jittery network: typing starts once it runs and
        # is connected (keys typed before it runs: the "early" scenario), and what the session
        # sent since the page was drawn has come (up to 0.5 s each way).
        wait_until(page.settled, timeout=20)
        time.sleep(1.2)
        capture_socket()
        css = "section.page input[type=text]"
        page.click_field(css)
        typed = type_checked(css, "  sunset ")
        settled = wait_until(page.settled, timeout=20)
        check("Jitter: typing fast at 0-500 ms each way: no key is ever overwritten, and the field ends as typed",
              not overwritten and settled and page.field_value(css) == "  sunset ",
              f"overwritten: {overwritten[:3]}; the field shows {page.field_value(css)!r}; settled {bool(settled)}")
        page.click_button("Go")
        check("Jitter: the view model got every key (it searches the trimmed text)", page.wait_heading("sunset", timeout=20), page.heading())

        # The socket closed in the middle of typing: the page reconnects, resends what was not
        # acknowledged, and the server ends with what was typed (its address says the user name).
        driver.get(jittery.url + "login")
        page.wait_heading("Login")
        wait_until(page.settled, timeout=20)
        capture_socket()
        css = "section.page input[type=text]"
        page.click_field(css)
        page.js("window.e2eSocket = null")
        page.send_to_field(css, "a")
        overwritten.clear()
        typed = type_checked(css, "da_lovelace", reconnect_at=4)
        settled = wait_until(page.settled, timeout=30)
        address = wait_until(lambda: "user=ada_lovelace" in page.js("return location.search") and page.js("return location.search"), timeout=20)
        check("Jitter: the socket closed mid-word: no key overwritten, the page reconnects and the server has every key (the address says user=ada_lovelace)",
              not overwritten and settled and page.field_value(css) == "ada_lovelace" and address,
              f"overwritten: {overwritten[:3]}; field {page.field_value(css)!r}; address {page.js('return location.search')!r}")

        # A view model that rewrites the field: Enter adds the to-do and clears the field. The
        # next word is typed at once, while the clear is still on its way (0-1 s): a clear that
        # arrives after keys were typed applies to the text Enter sent, and the field shows the
        # keys typed since (the server then gets them); one that arrives first is shown. Either
        # way no key vanishes, and Enter adds exactly what the field shows.
        driver.get(jittery.url + "todo")
        page.wait_heading("To-dos")
        wait_until(page.settled, timeout=20)
        css = "section.page input[placeholder='What needs doing?']"
        overwritten.clear()
        page.click_field(css)
        type_checked(css, "milk")
        page.send_to_field(css, Keys.ENTER)
        expected, seen = ["milk"], []
        sent = "milk"
        for word in ("eggs and ham", "bread and jam", "tea"):
            type_checked(css, word, submitted=sent)
            wait_until(page.settled, timeout=20)
            shown = page.field_value(css)
            seen.append(shown)
            if not shown.endswith(word):
                overwritten.append(f"{word!r} typed after Enter; the field shows {shown!r}")
            expected.append(shown.strip())
            sent = shown
            page.send_to_field(css, Keys.ENTER)
        settled = wait_until(lambda: page.settled() and len(page.visible_texts("section.page li.row .title")) == 4, timeout=20)
        rows = page.visible_texts("section.page li.row .title")
        check("Jitter: a view model's rewrite (the field cleared on Enter) never wipes keys typed after it was sent, and Enter adds what the field shows",
              settled and not overwritten and rows == expected,
              f"overwritten {overwritten[:3]}; the field showed {seen}; rows {rows}")
        # The clear that answers Enter applies to the text Enter sent, not to the keys typed
        # after it: the field shows just those keys (before, "milkeggs and ham").
        check("Jitter: keys typed right after Enter are not appended to the submitted text (the clear applies to what Enter sent)",
              seen == ["eggs and ham", "bread and jam", "tea"] and rows == ["milk", "eggs and ham", "bread and jam", "tea"],
              f"the field showed {seen}; rows {rows}")
    finally:
        if driver.current_window_handle != home:
            driver.close()
            driver.switch_to.window(home)
        jittery.stop()


def back_to_back(page):
    """Issue 57: two to-dos typed back to back are two to-dos, apart, in order, however fast
    and however slow the server. `todo-web` on a SQLite file (each add a transaction, so the
    second Enter comes while the first add is still being stored): 15 rounds of "aK⏎bK⏎" typed
    by selenium in one go (a few ms a key). Then the showcase with every message 200 ms late
    plus 0-200 ms of jitter each way: 6 rounds of "milkN⏎teaN⏎" at 80 ms a key (the second item
    typed while the first is in flight). Every item added, none merged, the field empty."""
    page.scenario = "Back to back"
    driver = page.driver
    app = os.path.join(os.path.dirname(page.server.binary), "todo-web")
    if not os.path.exists(app):
        check("Back to back: todo-web is built beside the showcase", False, app)
        return
    folder = tempfile.mkdtemp(prefix="back-to-back-")
    stored = Server(app, "--database", os.path.join(folder, "todos.sqlite"), showcase=False)
    slow = Server(page.server.binary, "--latency", "200", "--jitter", "200")
    home = driver.current_window_handle
    css = "section.page input[placeholder='What needs doing?']"
    titles = "section.page li.row .title"
    try:
        driver.switch_to.new_window("tab")
        driver.get(stored.url)
        page.wait_heading("To-dos")
        wait_until(page.settled, timeout=20)
        expected = []
        for round in range(15):
            first, second = f"a{round}K", f"b{round}K"
            page.field(css).click()
            page.send_to_field(css, first + Keys.ENTER + second + Keys.ENTER)
            expected += [first, second]
        added = wait_until(lambda: page.settled() and page.visible_texts(titles) == expected, timeout=30)
        rows = page.visible_texts(titles)
        check("Back to back: todo-web, 15 rounds of two to-dos typed at selenium's speed: all 30 added, apart, in order",
              added and page.field(css).get_attribute("value") == "",
              f"{len(rows)} rows, first wrong: {next(((i, r, e) for i, (r, e) in enumerate(zip(rows, expected)) if r != e), None)}; "
              f"field {page.field(css).get_attribute('value')!r}")

        driver.get(slow.url + "todo")
        page.wait_heading("To-dos", timeout=20)
        wait_until(page.settled, timeout=20)
        before = page.visible_texts(titles)
        expected = []
        for round in range(6):
            page.field(css).click()
            for key in [*f"milk{round}", Keys.ENTER, *f"tea{round}", Keys.ENTER]:
                page.send_to_field(css, key)
                time.sleep(0.08)
            expected += [f"milk{round}", f"tea{round}"]
        added = wait_until(lambda: page.settled() and page.visible_texts(titles) == before + expected, timeout=30)
        rows = page.visible_texts(titles)
        check("Back to back: the showcase at 200 ms + 0-200 ms each way, 6 rounds of two to-dos at 80 ms a key: all 12 added, apart, in order",
              added and page.field(css).get_attribute("value") == "",
              f"rows {rows[len(before):]}; field {page.field(css).get_attribute('value')!r}")
        # A refused Enter says so: blanks are not a to-do (the view model keeps them); the page
        # emptied the field as it sent the Enter, and the server gives the text back.
        page.field(css).send_keys("   " + Keys.ENTER)
        back = wait_until(lambda: page.settled() and page.field(css).get_attribute("value") == "   ", timeout=20)
        check("Back to back: an Enter the view model refuses (only blanks) gives the text back to the field, and adds nothing",
              back and page.visible_texts(titles) == before + expected, f"field {page.field(css).get_attribute('value')!r}")
    finally:
        if driver.current_window_handle != home:
            driver.close()
            driver.switch_to.window(home)
        slow.stop()
        stored.stop()


class Balancer:
    """A load balancer with no sticky sessions, at its worst: every WebSocket goes to instance B,
    everything else to instance A (bytes piped both ways, connection by connection)."""

    def __init__(self, first, second):
        self.backends = [int(u.rsplit(":", 1)[1].strip("/")) for u in (first, second)]
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/"
        self.sockets = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        try:
            first = client.recv(65536)
            websocket = b"upgrade: websocket" in first.lower()
            self.sockets += websocket
            backend = socket.create_connection(("127.0.0.1", self.backends[1 if websocket else 0]))
            backend.sendall(first)
        except OSError:
            client.close()
            return
        def pipe(source, target):
            try:
                while True:
                    data = source.recv(65536)
                    if not data:
                        break
                    target.sendall(data)
            except OSError:
                pass
            for s in (source, target):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        threading.Thread(target=pipe, args=(backend, client), daemon=True).start()
        pipe(client, backend)

    def close(self):
        self.listener.close()


def balancer(page):
    """Issue 27: two instances behind a balancer without sticky sessions. The page comes from
    instance A, its WebSocket lands on instance B, which never had its session: B opens one at
    the page's address, the page says it reconnected, keeps what its fields held, and works."""
    page.scenario = "Balancer"
    driver = page.driver
    first, second = Server(page.server.binary), Server(page.server.binary)
    proxy = Balancer(first.url, second.url)
    home = driver.current_window_handle
    try:
        driver.switch_to.new_window("tab")
        driver.get(proxy.url + "login?user=ada")
        rebuilt = wait_until(lambda: page.heading() == "Login" and page.settled()
                             and page.field("section.page input[type=text]").get_attribute("value") == "ada", timeout=20)
        resumed = [line for line in second.stderr() if "resumed as a new one at /login?user=ada" in line]
        check("Balancer: the page from instance A, its socket on instance B: B rebuilds the session from the page's address",
              rebuilt and resumed and proxy.sockets >= 1,
              f"heading {page.heading()!r}; B's log: {resumed[:1] or second.stderr()[-2:]}; sockets through B: {proxy.sockets}")
        field = page.field("section.page input[type=text]")
        field.click()
        page.type_keys(field, "_lovelace")
        moved = wait_until(lambda: page.settled() and "user=ada_lovelace" in page.js("return location.search"), timeout=20)
        check("Balancer: the page then works against instance B (typing reaches B's view model; the address follows)",
              moved, page.js("return location.search"))
    finally:
        if driver.current_window_handle != home:
            driver.close()
            driver.switch_to.window(home)
        proxy.close()
        first.stop()
        second.stop()


NGINX_CONF = """worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log {dir}/access.log;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream showcase {{
        server 127.0.0.1:{first} max_fails=1 fail_timeout=2s;
        server 127.0.0.1:{second} max_fails=1 fail_timeout=2s;
    }}
    server {{
        listen 127.0.0.1:{port};
        location {mount}/ {{
            proxy_pass http://showcase;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 75s;
        }}
    }}
}}
"""


def nginx(page):
    """Issue 32: two instances behind Debian's nginx, mounted under /showcase/ (the pages, their
    files and the WebSocket through the proxy, round robin, no sticky sessions). A page works,
    reloads, and carries on when the instance it talks to is stopped under it."""
    page.scenario = "nginx"
    driver = page.driver
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if binary is None:
        check("nginx: Debian's nginx is installed", False, "no nginx binary")
        return
    options = ("--path", "/showcase", "--trusted-proxy", "127.0.0.1")
    first, second = Server(page.server.binary, *options), Server(page.server.binary, *options)
    ports = [int(s.url.rsplit(":", 1)[1].strip("/")) for s in (first, second)]
    folder = tempfile.mkdtemp(prefix="nginx-")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with open(os.path.join(folder, "nginx.conf"), "w") as f:
        f.write(NGINX_CONF.format(dir=folder, first=ports[0], second=ports[1], port=port, mount="/showcase"))
    proxy = subprocess.Popen([binary, "-c", os.path.join(folder, "nginx.conf"), "-p", folder, "-e", os.path.join(folder, "error.log")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    home = driver.current_window_handle
    url = f"http://127.0.0.1:{port}/showcase/"
    try:
        def serving():
            try:
                return proxy.poll() is None and urllib.request.urlopen(url + "mvvm.css", timeout=2).status == 200
            except OSError:
                return False
        up = wait_until(serving, timeout=10)
        check("nginx: nginx serves the showcase's files under /showcase/", up, f"nginx exit status {proxy.poll()}")
        driver.switch_to.new_window("tab")
        driver.get_log("browser")
        css = "section.page input[type=text]"
        driver.get(url + "login?user=ada")
        opened = wait_until(lambda: page.heading() == "Login" and page.settled() and page.field(css).get_attribute("value") == "ada", timeout=20)
        check("nginx: a page at its address under /showcase/, through nginx, with its socket", opened,
              f"heading {page.heading()!r}, at {driver.current_url}")
        field = page.field(css)
        field.click()
        page.type_keys(field, "_lo")
        moved = wait_until(lambda: page.settled() and page.js("return location.pathname + location.search") == "/showcase/login?user=ada_lo", timeout=20)
        check("nginx: typing reaches the view model; the address bar follows, under /showcase/", moved, page.js("return location.pathname + location.search"))
        driver.refresh()
        reloaded = wait_until(lambda: page.settled() and page.field(css).get_attribute("value") == "ada_lo", timeout=20)
        check("nginx: a reload shows the same screen and input", reloaded, page.field(css).get_attribute("value") if page.visible(css) else page.heading())
        console = [entry["message"][:160] for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
        check("nginx: nothing in the browser's console while both instances are up", not console, console[:3])
        # Stop one instance, then (the first back) the other: whichever the page's socket was
        # on, it loses it once; it reconnects through nginx to the one left and carries on.
        typed = "ada_lo"
        for stopped, keys in ((first, "ve"), (second, "lace")):
            stopped.stop()
            def send_key(key):
                try:
                    page.field(css).send_keys(key)
                    return True
                except WebDriverException:  # the field is being rebuilt (a new session's page): not sent
                    return False
            for key in keys:
                wait_until(lambda: send_key(key), timeout=20)
            typed += keys
            carried = wait_until(lambda: page.settled() and page.js("return location.search") == f"?user={typed}"
                                 and page.field(css).get_attribute("value") == typed, timeout=30)
            check(f"nginx: instance {'AB'[stopped is second]} stopped under the open page: the page carries on through the other (typing kept, the address follows)",
                  carried, f"field {page.field(css).get_attribute('value')!r}, address {page.js('return location.search')!r}")
            if stopped is first:
                first._start(str(ports[0]))
    finally:
        if driver.current_window_handle != home:
            driver.close()
            driver.switch_to.window(home)
        proxy.terminate()
        proxy.wait(10)
        first.stop()
        second.stop()
        shutil.rmtree(folder, ignore_errors=True)


def nginx_todo_postgres(page):
    """Issue 42: the same, with both instances on one PostgreSQL (`--database postgres://…`), and
    then PostgreSQL stopped under the open pages (they say the list's database is away; an add is
    refused with a message and its title kept), started again (the pages catch up, an add shows in
    both), and one instance killed with -9 (the pages carry on through the other, nothing lost)."""
    nginx_todo(page, postgres=True)


def nginx_todo(page, postgres=False):
    """Issue 32's Must-show: the to-do example (`todo-web`, built beside the showcase) under
    /todo/, served by two instances behind Debian's nginx (round robin, no sticky sessions) that
    share one list (a SQLite file: each change a transaction, each instance following the other's). Two tabs: add, check, delete, each seen in
    the other; a reload; each instance stopped in turn under the open pages, which carry on
    through the other; the console empty of errors while both are up."""
    page.scenario = "nginx to-do on PostgreSQL" if postgres else "nginx to-do"
    name = page.scenario
    driver = page.driver
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if binary is None:
        check(f"{name}: Debian's nginx is installed", False, "no nginx binary")
        return
    app = os.path.join(os.path.dirname(page.server.binary), "todo-web")
    if not os.path.exists(app):
        check(f"{name}: todo-web is built beside the showcase", False, app)
        return
    folder = tempfile.mkdtemp(prefix="nginx-todo-")
    cluster = None
    if postgres:
        try:
            cluster = postgres_cluster.PostgresCluster()
        except Exception as error:
            check(f"{name}: a private PostgreSQL cluster starts", False, f"{error}"[:300])
            return
    database = cluster.url if cluster else os.path.join(folder, "todos.sqlite")
    options = ("--path", "/todo", "--trusted-proxy", "127.0.0.1", "--database", database)
    first, second = Server(app, *options, showcase=False), Server(app, *options, showcase=False)
    ports = [int(s.url.rsplit(":", 1)[1].strip("/")) for s in (first, second)]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with open(os.path.join(folder, "nginx.conf"), "w") as f:
        f.write(NGINX_CONF.format(dir=folder, first=ports[0], second=ports[1], port=port, mount="/todo"))
    proxy = subprocess.Popen([binary, "-c", os.path.join(folder, "nginx.conf"), "-p", folder, "-e", os.path.join(folder, "error.log")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    home = driver.current_window_handle
    url = f"http://127.0.0.1:{port}/todo/"
    css = "section.page input[placeholder='What needs doing?']"
    tabs = []

    def on(tab):
        driver.switch_to.window(tab)
        return page

    def add(tab, title):
        # As a person would: once the page says it is connected again, type, see the text in
        # the field, press Enter.
        def typed():
            try:
                if not on(tab).settled():
                    return False
                field = on(tab).field(css)
                field.click()
                field.send_keys(title)
                if field.get_attribute("value") != title:
                    field.clear()
                    return False
                field.send_keys(Keys.ENTER)
                return True
            except WebDriverException:   # the page is being rebuilt (a new session): try again
                return False
        return wait_until(typed, timeout=30)

    def rows_are(tab, expected, timeout=20):
        return wait_until(lambda: on(tab).settled() and on(tab).todo_rows() == expected, timeout=timeout)

    def errors():
        found = []
        for tab in tabs:
            found += [entry["message"][:160] for entry in on(tab).driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
        return found
    try:
        def serving():
            try:
                return proxy.poll() is None and urllib.request.urlopen(f"http://127.0.0.1:{port}/todo/mvvm.css", timeout=2).status == 200
            except OSError:
                return False
        up = wait_until(serving, timeout=10)
        check(f"{name}: nginx serves the app's files under /todo/", up, f"nginx exit status {proxy.poll()}")
        for _ in range(2):
            driver.switch_to.new_window("tab")
            tabs.append(driver.current_window_handle)
            driver.get_log("browser")
            driver.get(url)
        a, b = tabs
        opened = all(wait_until(lambda: on(tab).heading() == "To-dos" and on(tab).settled(), timeout=20) for tab in tabs)
        check(f"{name}: two tabs open the to-do list at /todo/, through nginx, each with its socket", opened,
              f"headings {[on(tab).heading() for tab in tabs]}")
        add(a, "Buy milk")
        added = rows_are(a, ["[ ] Buy milk"]) and rows_are(b, ["[ ] Buy milk"])
        check(f"{name}: a to-do added in one tab shows in the other (the instances share the list)", added,
              f"A {on(a).todo_rows()}, B {on(b).todo_rows()}")
        on(b).todo_control("Buy milk", "input[type=checkbox]").click()
        checked = rows_are(b, ["[x] Buy milk"]) and rows_are(a, ["[x] Buy milk"])
        check(f"{name}: checked in one tab, checked in the other", checked, f"A {on(a).todo_rows()}, B {on(b).todo_rows()}")
        read, low = low_contrast(on(a), "todo-web /todo/")
        check(f"{name}: every text of todo-web's page (its filters, a done row) has a contrast of 4.5:1 or more ({read} read)",
              read > 5 and not low, low[:6])
        add(a, "Call mum")
        rows_are(a, ["[x] Buy milk", "[ ] Call mum"])
        on(a).todo_control("Buy milk", "button.row-button").click()
        deleted = rows_are(a, ["[ ] Call mum"]) and rows_are(b, ["[ ] Call mum"])
        check(f"{name}: deleted in one tab, gone from the other", deleted, f"A {on(a).todo_rows()}, B {on(b).todo_rows()}")
        on(b).button("Active").click()
        moved = wait_until(lambda: on(b).settled() and on(b).js("return location.pathname + location.search") == "/todo/?filter=active")
        on(b).driver.refresh()
        reloaded = rows_are(b, ["[ ] Call mum"]) and on(b).js("return location.pathname + location.search") == "/todo/?filter=active" \
            and not usable(on(b).button("Active"))
        check(f"{name}: the filter is in the address (/todo/?filter=active), and a reload shows the same list, filtered", moved and reloaded,
              f"{on(b).todo_rows()} at {on(b).js('return location.pathname + location.search')}")
        console = errors()
        check(f"{name}: nothing in either tab's console while both instances are up", not console, console[:3])
        # Each instance stopped in turn (the first back before the second goes): every page
        # whose socket was on it reconnects through nginx to the other and carries on.
        expected = ["[ ] Call mum"]
        for stopped, title in ((first, "Walk the dog"), (second, "Water the plants")):
            stopped.stop()
            add(a, title)
            expected.append(f"[ ] {title}")
            carried = rows_are(a, expected, timeout=30) and rows_are(b, expected, timeout=30)
            check(f"{name}: instance {'AB'[stopped is second]} stopped under the open pages: both carry on through the other (an add in one shows in both)",
                  carried, f"A {on(a).todo_rows()}, B {on(b).todo_rows()}")
            if stopped is first:
                first._start(str(ports[0]))
        if cluster:
            second._start(str(ports[1]))   # both up again: A is the one killed below
            postgres_faults(page, cluster, on, add, rows_are, a, b, first, second, expected, name)
    finally:
        for tab in tabs:
            driver.switch_to.window(tab)
            driver.close()
        driver.switch_to.window(home)
        proxy.terminate()
        proxy.wait(10)
        first.stop()
        second.stop()
        if cluster:
            cluster.remove()
        shutil.rmtree(folder, ignore_errors=True)


def postgres_faults(page, cluster, on, add, rows_are, a, b, first, second, expected, name):
    """PostgreSQL stopped and started under two open pages, then an instance killed with -9."""
    unavailable = "The list's database is unavailable"

    def says_unavailable(tab):
        return any(unavailable in text for text in on(tab).visible_texts("section.page p"))

    cluster.stop()
    down = wait_until(lambda: says_unavailable(a) and says_unavailable(b), timeout=20)
    check(f"{name}: PostgreSQL stopped: both pages say the list's database is unavailable", down,
          f"A {on(a).visible_texts('section.page p')}")
    add(a, "Buy bread")
    refused = wait_until(lambda: [t for t in on(a).visible_texts(".dialog") if "Could not add the to-do" in t], timeout=20)
    kept = wait_until(lambda: on(a).field("section.page input[placeholder='What needs doing?']").get_attribute("value") == "Buy bread", timeout=10)
    check(f"{name}: an add while PostgreSQL is down is refused with a message, and its title stays in the field",
          refused and kept, f"dialog {refused}, field {on(a).field('section.page input[placeholder=' + chr(39) + 'What needs doing?' + chr(39) + ']').get_attribute('value')!r}")
    if refused:
        page.button("OK").click()
    check(f"{name}: nothing refused was added", rows_are(a, expected, timeout=5), f"A {on(a).todo_rows()}")
    stopped_at = time.monotonic()
    cluster.start()
    back = wait_until(lambda: not says_unavailable(a) and not says_unavailable(b), timeout=30)
    check(f"{name}: PostgreSQL started again: both pages drop the notice (after {time.monotonic() - stopped_at:.1f} s)", back,
          f"A {on(a).visible_texts('section.page p')}")
    field = on(a).field("section.page input[placeholder='What needs doing?']")
    field.send_keys(Keys.ENTER)   # the kept title, sent again
    expected.append("[ ] Buy bread")
    caught = rows_are(a, expected, timeout=30) and rows_are(b, expected, timeout=30)
    check(f"{name}: the kept title added once the database is back, and shown in both tabs", caught,
          f"A {on(a).todo_rows()}, B {on(b).todo_rows()}")
    in_database = cluster.psql("SELECT string_agg(title, ',' ORDER BY id) FROM todos")
    check(f"{name}: PostgreSQL has exactly what the pages show", in_database.split(",") == [row[4:] for row in expected], in_database)
    first.process.kill()   # -9: no goodbye
    first.process.wait(10)
    typed_b = add(b, "Feed the cat")
    typed_a = add(a, "Post the letter")
    expected += ["[ ] Feed the cat", "[ ] Post the letter"]
    carried = rows_are(a, expected, timeout=30) and rows_are(b, expected, timeout=30)
    check(f"{name}: instance A killed with -9 under the open pages: both carry on through B, nothing acknowledged lost", carried,
          f"A {on(a).todo_rows()}, B {on(b).todo_rows()}; typed {typed_b} {typed_a}; B said {second.stderr()[-6:]}")


def reconnect(page):
    page.scenario = "Reconnect"
    page.open_app("Flickr search", "Flickr Search")
    wait_until(page.settled)
    page.sockets_opened()
    session, before = page.js("return document.body.dataset.session"), page.server.stats()
    field = page.field()
    field.click()
    since = page.server.stderr_count()
    page.type_keys(field, "su")
    page.js("mvvm.drop()")
    page.type_keys(field, "n")           # typed while the socket is down
    wait_until(page.settled)
    page.js("mvvm.drop()")
    page.type_keys(field, "set")
    reconnected = wait_until(page.settled)
    sockets = page.sockets_opened()
    check("Reconnect: the page reconnects after each drop while typing", reconnected and sockets >= 2,
          f"{sockets} new sockets, {page.js('return mvvm.pending()')} messages unacknowledged")
    after = page.server.stats()
    check("Reconnect: to the same session (no new one opened, none closed)",
          page.js("return document.body.dataset.session") == session and after["open"] == before["open"] and after["closed"] == before["closed"],
          f"{before} → {after}")
    value = page.field().get_attribute("value")
    go = wait_until(lambda: page.button("Go").is_enabled())
    check("Reconnect: nothing typed was lost: the field shows 'sunset' and the view model has it (Go enabled)",
          value == "sunset" and go, f"field {value!r}, Go enabled: {bool(go)}")
    page.field().send_keys(Keys.ENTER)
    results = wait_until(lambda: page.heading() == "sunset" and "120 photos (showing 100)" in page.visible_texts("section.page p.dim"))
    check("Reconnect: Enter searches what was typed across the drops", results, f"heading {page.heading()!r}")
    refused = [line for line in page.server.stderr(since) if "refused" in line]
    check("Reconnect: the server refused nothing the page sent", not refused, refused)
    # A drop while a frame is on its way: the page catches up on the frames it missed.
    page.driver.back()
    page.wait_heading("Flickr Search")
    field = page.field()
    field.send_keys(Keys.ENTER)
    page.js("mvvm.drop()")
    caught_up = wait_until(lambda: page.heading() == "sunset" and page.settled() and page.images_loaded("img.thumb", 5))
    check("Reconnect: a drop just after Enter still lands on the results", caught_up,
          f"heading {page.heading()!r}, frames {page.js('return mvvm.stats.frames')}, resets {page.js('return mvvm.stats.resets')}")


def restart(page):
    """A graceful restart (SIGTERM, then the server started again) while the page is typing:
    every key typed before, during and after the stop reaches the new server's session."""
    page.scenario = "Restart"
    page.open_app("Flickr search", "Flickr Search")
    wait_until(page.settled)
    field = page.field()
    text = "every key typed across a restart"
    field.click()
    # Typed by the page's own timer, a key every 15 ms into the focused element, as a keyboard
    # types (the test's commands cannot type while it waits for the server to stop); a key
    # pressed while no field has the focus is counted as lost.
    page.js("""
        const text = arguments[1];
        arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input', { bubbles: true }));
        let next = 0;
        window.keysWithoutFocus = 0;
        window.typing = setInterval(() => {
            if (next === text.length) { clearInterval(window.typing); window.typing = null; return; }
            const field = document.activeElement;
            if (!field || field.tagName !== 'INPUT') { window.keysWithoutFocus += 1; next += 1; return; }
            field.value += text[next++];
            field.dispatchEvent(new Event('input', { bubbles: true }));
        }, 15);""", field, text)
    time.sleep(0.15)
    said = page.server.stderr_count()
    page.server.stop()
    status, took = page.server.stopped
    typed_at_stop = len(page.field().get_attribute("value"))
    page.server.start_again()
    check("Restart: SIGTERM while the page types: the server stops at once and exits 0",
          status == 0 and took < 5 and any("stopping (signal 15)" in line for line in page.server.stderr(said)),
          f"exit status {status} after {took:.2f} s; {typed_at_stop} of {len(text)} keys typed at the stop")
    back = wait_until(lambda: page.js("return window.typing === null") and page.settled(), timeout=20)
    value = page.field().get_attribute("value")
    lost = page.js("return window.keysWithoutFocus")
    check("Restart: the page is back and kept every key (the field kept the focus and shows the whole text)",
          back and value == text and lost == 0, f"field {value!r}, {lost} keys pressed with no field focused; {typed_at_stop} keys typed when the server stopped")
    page.field().send_keys(Keys.ENTER)
    shown = lambda: page.js("return document.querySelector('section.page').innerText")
    searched = wait_until(lambda: f"No photos found for \u201c{text}\u201d" in shown())
    check("Restart: Enter searches the whole text (the new server's session has every key: it found no photos for all of it)",
          searched and 0 < typed_at_stop < len(text), f"{typed_at_stop} keys typed at the stop; page {shown()[:300]!r}")


def offline(page):
    """Issue 43: while the page has no connection its controls do not pretend; a click the page
    sent as the connection died is told about, not silently undone."""
    page.scenario = "Offline"
    page.open_app("To-do list", "To-dos")
    css = "section.page input[placeholder='What needs doing?']"
    title = "Offline check"
    field = page.field(css)
    field.click()
    page.type_keys(field, title)
    field.send_keys(Keys.ENTER)
    wait_until(lambda: page.settled() and f"[ ] {title}" in page.todo_rows())
    banner = lambda: page.js("const b = document.getElementById('connection'); return b.hidden ? '' : b.textContent")

    def controls():
        """Whether the row's checkbox, its Delete, Add and the filters are enabled."""
        return page.js("""
            const row = [...document.querySelectorAll('section.page li.row')].find((e) => e.querySelector('.title').textContent === arguments[0]);
            const add = [...document.querySelectorAll('section.page button')].find((b) => b.textContent.trim() === 'Add');
            const filter = [...document.querySelectorAll('section.page a.button')].find((b) => b.textContent.trim() === 'Active');
            return { box: !row.querySelector('input[type=checkbox]').disabled, del: !row.querySelector('button.row-button').disabled,
                     add: !add.disabled, filter: filter.getAttribute('aria-disabled') !== 'true' };""", title)

    # The server stops: the page says so, and its controls wait.
    rows_before = page.todo_rows()
    said = page.server.stderr_count()
    page.server.stop()
    status, took = page.server.stopped
    check("Offline: SIGTERM stops the server gracefully: it says so, and exits 0 at once (its page's socket closed)",
          status == 0 and took < 5 and any(line.startswith("showcase: stopping (signal 15)") for line in page.server.stderr(said)),
          f"exit status {status} after {took:.2f} s; {page.server.stderr(said)}")
    lost = wait_until(lambda: banner().startswith("The server is restarting"))
    state = controls()
    check("Offline: the server stopped under the page; its socket was closed with 1001 (going away), and the notice says the server is restarting, that the buttons wait and what is typed is kept",
          lost and "what you type is kept" in banner() and 1001 in page.js("return mvvm.stats.closes"), f"{banner()!r}; close codes {page.js('return mvvm.stats.closes')}")
    check("Offline: every control is disabled while there is no connection (checkbox, Delete, Add, the filters)",
          state == {"box": False, "del": False, "add": False, "filter": False}, state)
    page.js("arguments[0].click()", page.todo_control(title, "input[type=checkbox]"))
    page.js("arguments[0].click()", page.todo_control(title, "button.row-button"))
    page.js("[...document.querySelectorAll('section.page a.button')].find((b) => b.textContent.trim() === 'Active').click()")
    field = page.field(css)
    field.click()
    page.type_keys(field, "Typed offline")
    field.send_keys(Keys.ENTER)
    rows = page.todo_rows()
    queued = page.js("return mvvm.pendingActions()")
    check("Offline: a click on a row's checkbox, its Delete, a filter and Enter in the field change nothing on the page and are not queued",
          rows == rows_before and queued == 0 and page.field(css).get_attribute("value") == "Typed offline", f"rows {rows}, {queued} actions queued")

    # It comes back (a new process: every session is gone): the page is rebuilt, the typed text
    # is still there, no click is said to be lost, and the controls are as the server says.
    page.server.start_again()
    back = wait_until(lambda: banner().startswith("Reconnected"), timeout=20)
    said = banner()
    enabled = wait_until(lambda: controls() == {"box": True, "del": True, "add": True, "filter": True})
    check("Offline: after the restart the page is back: rows unchanged, the typed text kept, no click said lost",
          back and page.todo_rows() == rows_before and page.field(css).get_attribute("value") == "Typed offline"
          and "did not reach" not in said, f"rows {page.todo_rows()}, notice {said!r}")
    check("Offline: every control works again once the page is back (Add too: the new session has the typed text)", enabled, controls())
    page.field(css).send_keys(Keys.ENTER)
    added = wait_until(lambda: page.settled() and page.todo_rows() == rows_before + ["[ ] Typed offline"])
    check("Offline: Enter then adds what was typed offline", added, page.todo_rows())

    # A short drop (the same session): a control the server disabled stays disabled after it.
    page.js("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input', { bubbles: true }))", page.field(css))
    wait_until(lambda: page.settled() and not controls()["add"])
    page.js("mvvm.drop()")
    again = wait_until(page.settled)
    time.sleep(0.3)
    state = controls()
    check("Offline: after a short drop the controls are as the server has them (Add still disabled: the field is empty)",
          again and state == {"box": True, "del": True, "add": False, "filter": True}, state)

    # A click sent into a connection that has died without the page knowing yet (a frozen
    # server): after the restart the page says that click did not reach the server, instead of
    # undoing it silently.
    page.server.freeze()
    page.js("arguments[0].click()", page.todo_control(title, "input[type=checkbox]"))
    pending = page.js("return mvvm.pendingActions()")
    page.server.kill()
    page.server.start_again()
    told = wait_until(lambda: "did not reach the server" in banner(), timeout=20)
    check("Offline: a click sent as the server died is told about after the restart, and the row is drawn as the server has it",
          pending == 1 and told and wait_until(lambda: page.settled() and f"[ ] {title}" in page.todo_rows()),
          f"{pending} pending, notice {banner()!r}, rows {page.todo_rows()}")
    # Issue 57: the notice names what was lost, in the person's words, and stays until read.
    time.sleep(4.5)
    said = banner()
    check("Offline (issue 57): the notice names the action lost (a change to the row's checkbox) and is still up after 4.5 s",
          f"a change to \u201c{title}\u201d" in said and "Please do it again" in said, said)
    page.js("[...document.querySelectorAll('#connection button')].find((b) => b.textContent === 'OK').click()")
    check("Offline (issue 57): its OK hides it", wait_until(lambda: page.js("return document.getElementById('connection').hidden")), banner())
    for name in (title, "Typed offline"):
        page.todo_control(name, "button.row-button").click()
        wait_until(lambda: page.settled() and not any(row.endswith(name) for row in page.todo_rows()))


def keys(page):
    """Issue 43: the browser draws the hint the terminal draws, less the keys only a terminal
    has, and the keys it names work: ↑↓ between rows, ←→ between segments."""
    page.scenario = "Keys"
    page.driver.get(page.server.url)
    page.wait_heading("MVVMKit showcase")
    hint = lambda: page.visible_texts("section.page p.hint")
    shown = wait_until(hint)
    check("Keys: the launcher's hint names the keys a page has (↑↓: choose • Enter: open), not the terminal's Esc or Ctrl-C to quit",
          shown == ["↑↓: choose • Enter: open"], shown)
    rows = page.js("return [...document.querySelectorAll('section.page li.row[data-click] [data-part=title]')].map((r) => r.textContent)")
    page.js("document.querySelector('section.page li.row[data-click] [data-part=title]').focus()")
    focused = lambda: page.js("const a = document.activeElement; return a && a.matches('[data-part=title]') && a.textContent")
    ActionChains(page.driver).send_keys(Keys.ARROW_DOWN).send_keys(Keys.ARROW_DOWN).perform()
    down = focused()
    ActionChains(page.driver).send_keys(Keys.ARROW_UP).perform()
    up = focused()
    check("Keys: ↓ twice then ↑ on the launcher's rows moves the focus to the third row, then the second",
          len(rows) >= 3 and down == rows[2] and up == rows[1], f"rows {rows}, after ↓↓ {down!r}, after ↑ {up!r}")
    ActionChains(page.driver).send_keys(Keys.ENTER).perform()
    opened = page.wait_heading(rows[1]) or page.heading() != "MVVMKit showcase"
    check("Keys: Enter on the focused row opens it", opened, page.heading())

    page.open_app("To-do list", "To-dos")
    shown = wait_until(hint)
    check("Keys: the to-do page's hint leaves out Ctrl-D (a terminal's key for Delete)",
          shown == ["Enter: add • Space: done • Tab: next • Esc: back"], shown)

    page.open_app("Movies", "Movies")
    wait_until(lambda: page.visible_texts(".posters li.row .title"))
    selected = lambda: page.visible_texts(".segments [role=tab][aria-selected=true]")
    page.js("document.querySelector('.segments [role=tab][aria-selected=true]').focus()")
    ActionChains(page.driver).send_keys(Keys.ARROW_RIGHT).perform()
    right = wait_until(lambda: selected() != ["Now Playing"] and selected())
    ActionChains(page.driver).send_keys(Keys.ARROW_LEFT).perform()
    left = wait_until(lambda: selected() == ["Now Playing"])
    check("Keys: → on the selected segment chooses the next one, ← the one before (as the hint's ←→ says)",
          right and right != ["Now Playing"] and left, f"after → {right}, after ← {selected()}")

    # A screen's plain-key shortcut (Movies' r: retry, as in the terminal) is sent from anywhere
    # on the page but a text field; on the Search tab, where it does not act, r is a letter.
    page.js("""window.__sent = [];
      const proto = window.WebSocket.prototype;
      if (!proto.__recorded) {
        const send = proto.send;
        proto.send = function (data) { window.__sent.push(String(data)); return send.call(this, data); };
        proto.__recorded = true;
      }""")
    shortcuts = lambda: page.js("const e = document.querySelector('section.page [data-mvvm-shortcuts]'); return e && e.getAttribute('data-mvvm-shortcuts')")
    listed = shortcuts()
    page.js("if (document.activeElement) document.activeElement.blur()")
    ActionChains(page.driver).send_keys("r").perform()
    is_r = lambda m: '"t":"k"' in m and '"v":"r"' in m
    sent = wait_until(lambda: [m for m in page.js("return window.__sent") if is_r(m)])
    check("Keys: Movies' r (retry) is listed by the page and sent to its screen from anywhere on it",
          listed == "r" and bool(sent), f"listed {listed!r}, sent {page.js('return window.__sent')}")
    page.js("window.__sent.length = 0")
    page.js("[...document.querySelectorAll('.tabs [role=tab], [role=tab]')].find((t) => t.textContent.trim() === 'Search').click()")
    wait_until(lambda: shortcuts() is None)
    field = page.field("section.page input[placeholder='Search movies']")
    field.click()
    page.type_keys(field, "r")
    wait_until(lambda: page.settled())
    check("Keys: on the Search tab, r is typed into the field and sent as no shortcut",
          shortcuts() is None and field.get_attribute("value") == "r" and not [m for m in page.js("return window.__sent") if is_r(m)],
          f"listed {shortcuts()!r}, field {field.get_attribute('value')!r}, sent {page.js('return window.__sent')}")


def links(page):
    """Issue 43: a button that changes the address (a to-do filter) is a link to that address:
    a plain click presses it in the page; a new tab opens the same list there."""
    page.scenario = "Links"
    page.open_app("To-do list", "To-dos")
    search = page.field("section.page input[placeholder='Search the to-dos']")
    search.click()
    page.type_keys(search, "milk")
    wait_until(lambda: page.settled() and "q=milk" in page.driver.current_url)
    links = lambda: page.js("return Object.fromEntries([...document.querySelectorAll('section.page a[data-query]')].map((a) => [a.textContent, a.getAttribute('href')]))")
    def address(href):
        """A path and its query items, in any order."""
        parts = urllib.parse.urlsplit(href)
        return parts.path, sorted(urllib.parse.parse_qsl(parts.query))
    same = lambda shown, wanted: {k: address(v) for k, v in (shown or {}).items()} == {k: address(v) for k, v in wanted.items()}
    wanted = {"All": "/todo?q=milk", "Active": "/todo?q=milk&filter=active", "Done": "/todo?q=milk&filter=done"}
    shown = wait_until(lambda: same(links(), wanted) and links(), timeout=5)
    check("Links: the filters are links to the list's address with their filter, keeping the search", same(shown, wanted), links())
    session = page.js("return document.body.dataset.session")
    page.js("[...document.querySelectorAll('section.page a[data-query]')].find((a) => a.textContent === 'Active').click()")
    pressed = wait_until(lambda: page.settled() and "filter=active" in page.driver.current_url
                         and page.js("return [...document.querySelectorAll('section.page a[data-query]')].find((a) => a.textContent === 'Active').getAttribute('aria-disabled')") == "true")
    check("Links: a plain click presses the filter in the page (same session, the address follows, Active is the one shown)",
          pressed and page.js("return document.body.dataset.session") == session, page.driver.current_url)
    after = links()
    check("Links: the links follow the new address", same(after, wanted), after)
    # A new tab at a link's address shows that list.
    href = after.get("Done", "")
    original = page.driver.current_window_handle
    page.driver.switch_to.new_window("tab")
    try:
        page.driver.get(page.server.url.rstrip("/") + href)
        opened = wait_until(lambda: page.heading() == "To-dos" and page.settled() and page.js(
            "const d = [...document.querySelectorAll('section.page a[data-query]')].find((a) => a.textContent === 'Done');"
            " return d && d.getAttribute('aria-disabled') === 'true' && document.querySelector(\"input[placeholder='Search the to-dos']\").value === 'milk'"))
        check("Links: the Done link's address, opened in a new tab, shows the list filtered to Done, with the search", opened, page.driver.current_url)
    finally:
        page.driver.close()
        page.driver.switch_to.window(original)
    # Ctrl-click is the browser's (a new tab): the page itself does not press the filter.
    tabs = len(page.driver.window_handles)
    done = page.driver.find_element(By.XPATH, "//section[contains(@class,'page')]//a[@data-query and text()='Done']")
    ActionChains(page.driver).key_down(Keys.CONTROL).click(done).key_up(Keys.CONTROL).perform()
    time.sleep(1)
    unchanged = "filter=active" in page.driver.current_url and page.settled()
    check("Links: a Ctrl-click opens the link in a new tab, and the page stays on its filter", unchanged and len(page.driver.window_handles) == tabs + 1,
          f"{page.driver.current_url}, {len(page.driver.window_handles)} tabs (were {tabs})")
    for handle in page.driver.window_handles:
        if handle != original:
            page.driver.switch_to.window(handle)
            page.driver.close()
    page.driver.switch_to.window(original)

    # A row that opens a screen with an address is a link there (open in a new tab, copy it):
    # the launcher's apps, the goods' categories and items.
    row_links = lambda: page.js("return [...document.querySelectorAll('section.page li.row a.title[data-path]')].map((a) => [a.textContent, a.getAttribute('href'), a.tabIndex])")
    page.driver.get(page.server.url)
    page.wait_heading("MVVMKit showcase")
    launcher = wait_until(lambda: row_links() or None)
    hrefs = {title: href for title, href, _ in (launcher or [])}
    check("Links: each app on the launcher is a link to its address, and that link is its row's one tab stop (issue 57: the list item is none)",
          hrefs.get("Goods catalog") == "/goods" and hrefs.get("Person") == "/person" and all(stop == 0 for _, _, stop in launcher or [])
          and page.js("return [...document.querySelectorAll('section.page li.row')].every((r) => r.tabIndex < 0)"), launcher)
    page.js("window.__samePage = true")
    page.driver.find_element(By.XPATH, "//section[contains(@class,'page')]//li[contains(@class,'row')]//a[text()='Goods catalog']").click()
    page.wait_heading("分类 Categories")
    check("Links: a plain click on an app's link opens it in the page (no page load)",
          page.js("return window.__samePage === true") and "/goods" in page.driver.current_url, f"{page.heading()!r} at {page.driver.current_url}")
    categories = wait_until(lambda: [r for r in row_links() if r[1].startswith("/goods/")])
    title, href, _ = categories[0] if categories else ("", "", 0)
    page.driver.switch_to.new_window("tab")
    try:
        page.driver.get(page.server.url.rstrip("/") + href)
        opened = wait_until(lambda: page.heading() == "商品列表" and page.settled() and page.js("return document.querySelectorAll('section.page li.row').length") > 0)
        items = wait_until(lambda: [r for r in row_links() if r[1].startswith(href + "/item/")]) if opened else None
        check("Links: a category's link, opened in a new tab, shows that category's goods, each a link to its item",
              bool(opened) and bool(items), f"{href!r}: {page.heading()!r}, {row_links()[:3]}")
        if items:
            page.driver.get(page.server.url.rstrip("/") + items[0][1])
            shown = wait_until(lambda: page.settled() and items[0][0] in page.js("return document.querySelector('section.page').textContent"))
            check("Links: an item's link opens the item, over its list", bool(shown) and page.js("return document.querySelector('header .back') && !document.querySelector('header .back').hidden"),
                  f"{items[0][1]}: {page.heading()!r}")
    finally:
        page.driver.close()
        page.driver.switch_to.window(original)


# Every page of every app, by its address (Apps/Showcase/Tests/ShowcaseAddressTests.swift).
EVERY_PAGE = [
    "", "flickr", "flickr/results?q=sunset", "flickr/photo/5100000?q=sunset", "person", "person/2", "person/settings",
    "login?user=ada", "movies/top-rated", "movies/search?q=storm", "movies/popular/movie/1013", "goods", "goods/2?pages=3",
    "goods/2/item/2-7?pages=2", "goods-dc", "goods-dc/5?pages=2", "goods-dc/5/item/5-1", "todo?filter=all",
]
# WCAG 2's contrast of every text the page shows against what is drawn behind it (issue 57), from
# Chromium's computed colours: backgrounds composited up the tree (their alpha, and the element's
# opacity), the text's colour over them. Disabled controls are exempt (WCAG 1.4.3), as is text a
# screen reader does not get (aria-hidden).
LOW_CONTRAST_JS = r"""
const parse = (c) => { const m = (c.match(/[\d.]+/g) || ['0', '0', '0', '0']).map(Number);
  return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 }; };
const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
  b: top.b * top.a + under.b * (1 - top.a), a: 1 });
const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
function background(el) {
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c.a > 0) { layers.push(c); if (c.a >= 1) break; }
  }
  let drawn = { r: 255, g: 255, b: 255, a: 1 };      // the canvas
  for (const c of layers.reverse()) drawn = over(c, drawn);
  return drawn;
}
const low = [], seen = new Set();
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
let counted = 0;
while (walker.nextNode()) {
  const el = walker.currentNode.parentElement;
  if (!el || seen.has(el) || !walker.currentNode.textContent.trim()) continue;
  seen.add(el);
  if (!el.getClientRects().length || el.closest('[aria-hidden=true], [disabled], [aria-disabled=true], script, style')) continue;
  const style = getComputedStyle(el);
  if (style.visibility === 'hidden' || +style.opacity === 0) continue;
  const bg = background(el), fg = over(parse(style.color), bg);
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  const ratio = (a + 0.05) / (b + 0.05);
  counted++;
  if (ratio < 4.5) low.push(`${ratio.toFixed(2)}:1 ${style.color} on ${JSON.stringify(bg)} "${el.textContent.trim().slice(0, 30)}" <${el.tagName.toLowerCase()} class="${el.className}">`);
}
return [counted, low];
"""


def low_contrast(page, where):
    """The texts on the shown page under 4.5:1, each with where it was; and how many were read."""
    counted, low = page.driver.execute_script(LOW_CONTRAST_JS)
    return counted, [f"{where}: {line}" for line in low]


# What a keyboard or a screen reader meets as a control.
CONTROLS = ("button, input, select, textarea, a[href], [tabindex]:not([tabindex='-1']), [role=tab], [role=button], "
            "[role=checkbox], [role=slider]")

# Issue 57: each row that acts as a screen reader and a keyboard meet it: the list item itself is
# no stop; its one stop for choosing it is its title (role and name from Chromium), or its
# checkbox when it has one (no second stop doing what the checkbox does).
# Issue 57: text in another language is marked as such where the app knows it (the showcase says
# its pages have Chinese: PageShell.Head's otherLanguages). Every text of the page's content with
# a Chinese character is in an element whose language is "zh", and no Latin letter is.
LANG_JS = """
const han = /\\p{Script=Han}/u, out = { read: 0, bad: [] };
const walker = document.createTreeWalker(document.getElementById('root'), NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const lang = n.parentNode.closest('[lang]').getAttribute('lang');
  if (han.test(n.nodeValue)) {
    out.read++;
    if (lang !== 'zh') out.bad.push(lang + ': ' + n.nodeValue.slice(0, 40));
  } else if (lang === 'zh' && /[A-Za-z]/.test(n.nodeValue)) {
    out.bad.push('Latin under zh: ' + n.nodeValue.slice(0, 40));
  }
}
return out;
"""


def languages_marked(page, where):
    """(texts read, what is not marked as its language) on the page as it is now."""
    found = page.js(LANG_JS)
    return found["read"], [f"{where}: {b}" for b in found["bad"]]


ROW_STOPS_JS = """
return [...document.querySelectorAll('section.page li.row[data-click]')].filter((r) => r.getClientRects().length > 0).map((r) => {
  const stops = [...r.querySelectorAll('a[href], button, input, [tabindex]')].filter((e) => e.tabIndex >= 0 && !e.disabled);
  return { li: r.tabIndex, title: r.querySelector('.title').textContent, stops: stops.map((e) => e.getAttribute('data-part') || e.tagName),
           box: !!r.querySelector('input[type=checkbox]') };
});
"""


def accessible(page):
    """Issue 43: every control on every app's pages has an accessible role and name, as
    Chromium computes them for a screen reader (WebDriver's computed role and label). Issue 57:
    every text on those pages is drawn at a contrast of 4.5:1 or more (computed colours)."""
    page.scenario = "Accessible"
    empty, counted = [], 0
    low, texts = [], 0
    bad_rows, rows_read = [], 0
    unmarked, chinese = [], 0
    for address in EVERY_PAGE:
        page.driver.get(page.server.url + address)
        # Built (a deep link pushes its screens as their data comes) and answered.
        wait_until(lambda: page.settled() and page.js("return history.length") >= 1 and page.heading())
        time.sleep(0.5)
        wait_until(page.settled)
        for element in page.visible(CONTROLS):
            try:
                name, role = (element.accessible_name or "").strip(), (element.aria_role or "").strip()
                html = element.get_attribute("outerHTML")[:90]
            except WebDriverException:
                continue                                 # redrawn under the check: read on the next page
            counted += 1
            if not name or role in ("", "generic", "none", "presentation"):
                empty.append(f"/{address}: {role or 'no role'} {name!r} {html}")
        try:
            for row in page.js(ROW_STOPS_JS):
                rows_read += 1
                wanted = "toggle" if row["box"] else "title"
                if row["li"] >= 0 or row["stops"].count(wanted) != 1 or (row["box"] and "title" in row["stops"]):
                    bad_rows.append(f"/{address}: {row}")
            for stop in page.visible("section.page li.row[data-click] [data-part=title]"):
                role, name = (stop.aria_role or "").strip(), (stop.accessible_name or "").strip()
                if role not in ("button", "link") or name != stop.text.strip():
                    bad_rows.append(f"/{address}: {role} {name!r} for {stop.text!r}")
        except WebDriverException:
            pass                                         # redrawn under the check
        try:
            read, found = low_contrast(page, "/" + address)
        except WebDriverException as error:                 # redrawn under the check: once more
            read, found = low_contrast(page, "/" + address)
        texts += read
        low += found
        read, found = languages_marked(page, "/" + address)
        chinese += read
        unmarked += found
    check(f"Accessible: every control on {len(EVERY_PAGE)} pages of every app has a role and a name ({counted} read)",
          counted > 100 and not empty, empty[:6])
    check(f"Accessible: every text on {len(EVERY_PAGE)} pages of every app has a contrast of 4.5:1 or more ({texts} read)",
          texts > 200 and not low, low[:6])
    check(f"Accessible (issue 57): every text in Chinese on {len(EVERY_PAGE)} pages is marked lang=\"zh\", its English beside it not ({chinese} read)",
          chinese > 20 and not unmarked, unmarked[:6])
    check(f"Accessible (issue 57): every row that acts on {len(EVERY_PAGE)} pages is one stop (its title as a button or a link, named by it; or its checkbox), never a list item acting as a control ({rows_read} rows read)",
          rows_read > 30 and not bad_rows, bad_rows[:6])


def headers(page):
    """Issue 27: the security headers as Chromium received them, and a page framed by another
    origin refused by the browser."""
    page.scenario = "Headers"
    driver = page.driver
    driver.get_log("performance")
    driver.get(page.server.url)
    wait_until(page.settled)
    seen = {}
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.responseReceived":
            response = message["params"]["response"]
            seen[response["url"].split("?")[0]] = {k.lower(): v for k, v in response["headers"].items()}
    base = page.server.url.rstrip("/")
    for url in (base + "/", base + "/mvvm.js", base + "/mvvm.css"):
        got = seen.get(url, {})
        policy = got.get("content-security-policy", "")
        ok = ("frame-ancestors 'none'" in policy and "script-src 'self'" in policy and "default-src 'self'" in policy
              and "unsafe-inline" not in policy and got.get("x-content-type-options") == "nosniff"
              and got.get("x-frame-options") == "DENY" and got.get("referrer-policy") == "same-origin")
        check(f"Headers: Chromium received the security headers on {url[len(base):]}", ok,
              {k: v[:80] for k, v in got.items() if k in ("content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy")} or "no response seen")
    # Another origin (another port) frames the page: the browser must refuse to show it.
    other = tempfile.mkdtemp(prefix="framer-")
    with open(os.path.join(other, "index.html"), "w") as f:
        f.write(f'<!doctype html><title>framer</title><iframe id="f" src="{page.server.url}" width="600" height="400"></iframe>')
    framer = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", other],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = framer.stdout.readline()
        port = re.search(r"port (\d+)", line).group(1)
        driver.get_log("browser")
        driver.get(f"http://127.0.0.1:{port}/")
        time.sleep(2)
        console = [entry["message"] for entry in driver.get_log("browser")]
        refused = [m for m in console if "frame-ancestors" in m or "Refused to display" in m or "Refused to frame" in m]
        driver.switch_to.frame(driver.find_element(By.ID, "f"))
        inside = driver.execute_script("return location.href + ' ' + (document.body ? document.body.dataset.session || '' : '')")
        driver.switch_to.default_content()
        check("Headers: a page framed by another origin is refused by the browser (frame-ancestors 'none')",
              refused and "data-session" not in inside and not inside.startswith(page.server.url),
              f"console: {(refused or console or ['nothing'])[0][:160]}; the frame shows {inside[:60]!r}")
    finally:
        framer.terminate()
        shutil.rmtree(other, ignore_errors=True)
    driver.get(page.server.url)
    wait_until(page.settled)


def elements(page):
    """Issue 32: events from any element. /elements has two elements no widget draws (stars, a
    <select>), each asking the page for its events with Element.on: a click, key presses and a
    change reach the view model, and the page shows what it has."""
    page.scenario = "Elements"
    driver = page.driver
    driver.get_log("browser")
    driver.get(page.server.url + "elements")
    check("Elements: /elements opens", page.wait_heading("Events from any element"), page.heading())
    stars = driver.find_element(By.CSS_SELECTOR, "[role=slider][data-mvvm-on~=click]")
    summary = lambda: page.js("return document.querySelector('p.summary').textContent")
    stars.click()
    stars.click()
    clicked = wait_until(lambda: page.settled() and stars.text == "★★☆☆☆" and "2 stars" in summary())
    check("Elements: a click on a plain <div> that asked for clicks reaches the view model", clicked, f"{stars.text!r}, {summary()!r}")
    stars.send_keys(Keys.ARROW_RIGHT)
    stars.send_keys(Keys.ARROW_RIGHT)
    stars.send_keys(Keys.ARROW_LEFT)
    scrolled = page.js("return window.scrollY")
    keyed = wait_until(lambda: page.settled() and stars.text == "★★★☆☆" and "3 stars" in summary())
    check("Elements: the arrow keys it asked for reach it (the page stays at scrollY 0)", keyed and scrolled == 0,
          f"{stars.text!r}, {summary()!r}, scrollY {scrolled}")
    stars.send_keys("x")
    time.sleep(0.3)
    check("Elements: a key it did not ask for is not sent", stars.text == "★★★☆☆" and page.settled(), stars.text)
    from selenium.webdriver.support.ui import Select
    Select(driver.find_element(By.CSS_SELECTOR, "select[data-mvvm-on~=change]")).select_by_value("L")
    changed = wait_until(lambda: page.settled() and "size L" in summary())
    check("Elements: a <select> that asked for changes sends its value", changed, summary())
    # Issue 32: the app's own head and styles. WebUI's stylesheet styles only its own elements
    # (in a cascade layer, so the app's rules win); the app's stylesheet, named in its
    # PageShell.Head, styles the app's elements; the tab's title carries the app's suffix.
    styles = page.js("""
        const probe = (tag, type) => { const e = document.createElement(tag); if (type) e.type = type;
          document.querySelector('.elements-demo section').appendChild(e); const s = getComputedStyle(e);
          const r = { bg: s.backgroundColor, grow: s.flexGrow, radius: s.borderTopLeftRadius, width: s.width }; e.remove(); return r; };
        const sheets = [...document.styleSheets].map((s) => (s.href || '').replace(location.origin, ''));
        const ours = document.createElement('button'); ours.className = 'button'; document.body.appendChild(ours);
        const library = getComputedStyle(ours).backgroundColor; ours.remove();
        return { button: probe('button'), input: probe('input', 'text'), checkbox: probe('input', 'checkbox'), library,
                 stars: getComputedStyle(document.querySelector('.stars')).fontSize, sheets, title: document.title };""")
    plain = styles["button"]["bg"] != styles["library"] and styles["button"]["radius"] != "8px" and styles["input"]["grow"] == "0" \
        and styles["checkbox"]["grow"] == "0"
    check("Elements: WebUI's styles leave the app's own elements alone (a plain <button>, <input> and checkbox keep the browser's look)",
          plain, styles)
    check("Elements: the app's stylesheet from its PageShell.Head is loaded after WebUI's and styles the app's elements; the title has the app's suffix",
          styles["sheets"][-2:] == ["/mvvm.css", "/showcase.css"] and styles["stars"] == "28px" and styles["title"] == "Events from any element · MVVMKit showcase",
          styles)
    refused = [line for line in page.server.stderr() if "does not take" in line]
    console = [entry["message"][:160] for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
    check("Elements: nothing refused, nothing in the console", not refused and not console, (refused + console)[:3])
    driver.get(page.server.url)
    wait_until(page.settled)


def untrusted(page):
    page.scenario = "Untrusted input"
    page.open_app("Flickr search", "Flickr Search")
    wait_until(page.settled)
    session = page.js("return document.body.dataset.session")
    since = page.server.stderr_count()

    # New sockets whose first message is not a hello for an open session are refused.
    answers = page.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const firsts = arguments[0];
        const answers = [];
        function next(i) {
          if (i === firsts.length) return done(answers);
          const socket = new WebSocket('ws://' + location.host + '/ws');
          const got = [];
          socket.onopen = () => socket.send(firsts[i]);
          socket.onmessage = (e) => got.push(String(e.data).slice(0, 200));
          socket.onclose = (e) => { answers.push({ code: e.code, got }); next(i + 1); };
          setTimeout(() => { if (socket.readyState < 2) socket.close(); }, 3000);
        }
        next(0);""", ["this is not JSON", json.dumps({"t": "hello", "s": "0" * 32, "q": 0})])
    check("Untrusted: a socket whose first message is not JSON is told so and closed",
          answers[0]["code"] == 1008 and any('"t":"x"' in g for g in answers[0]["got"]), answers[0])
    check("Untrusted: a hello for an unknown session is told the session ended and closed",
          answers[1]["code"] == 1008 and any("session has ended" in g for g in answers[1]["got"]), answers[1])

    # On the page's own socket (its session's connection): garbage is refused, one at a time.
    page.js("""
        const send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (data) { window.e2eSocket = this; return send.call(this, data); };""")
    field = page.field()
    field.click()
    page.type_keys(field, "c")
    wait_until(lambda: page.js("return !!window.e2eSocket"))
    garbage = [
        ("not JSON", "{this is not json", "refused: malformed message"),
        ("a JSON array", "[1, 2, 3]", "refused: malformed message"),
        ("an unknown kind", json.dumps({"t": "rm -rf", "id": "e1"}), "unknown message kind"),
        ("a hello for another session", json.dumps({"t": "hello", "s": "f" * 32, "q": 0}), "refused: message names another session"),
        ("an event for an unknown element", json.dumps({"t": "c", "id": "e999999"}), 'refused: no element "e999999"'),
        ("an edit naming another session", json.dumps({"t": "i", "id": field.get_attribute("id"), "v": "from elsewhere", "s": "a" * 32}),
         "refused: message names another session"),
        ("an input too long for a field", json.dumps({"t": "i", "id": "e1", "v": "x" * 20000}), "longer than"),
        # Refused by the server from its frame's header (close 1009; the page reconnects).
        ("a 100 KB message", json.dumps({"t": "i", "id": "e1", "v": "y" * 100_000}), "(the limit is 65536), refused from its frame's header"),
    ]
    for _, text, _ in garbage:
        page.js("window.e2eSocket.send(arguments[0])", text)
    time.sleep(1)
    alive = page.server.is_running()
    lines = page.server.stderr(since)
    check("Untrusted: the server is still running", alive)
    for what, _, expected in garbage:
        found = [line for line in lines if expected in line]
        check(f"Untrusted: {what} is refused and logged", found, (found[:1] or [f"no line with {expected!r}"])[0][:160])
    other = [line for line in lines if "names another session" in line]
    value = page.field().get_attribute("value")
    check("Untrusted: the edit naming another session never reached this page", len(other) == 2 and value == "c",
          f"{len(other)} lines refusing another session's messages; the field shows {value!r}")
    refused_connections = [line for line in lines if "refused a connection" in line]
    check("Untrusted: both refused sockets are logged", len(refused_connections) == 2, refused_connections)

    # Another socket says hello for this page's session (a second tab of this browser that knows
    # its id, or a duplicated tab): it takes the session over, and this page is told why it
    # stopped instead of going on out of step with the session (issue 57): a notice with Reload,
    # its controls off, and no socket of its own fighting for the session again.
    page.sockets_opened()
    takeover = page.driver.execute_async_script("""
        const [session, done] = [arguments[0], arguments[arguments.length - 1]];
        const socket = new WebSocket('ws://' + location.host + '/ws');
        window.intruder = socket;
        socket.onopen = () => socket.send(JSON.stringify({ t: 'hello', s: session, q: mvvm.frame() }));
        socket.onclose = (e) => done({ closed: true, code: e.code });
        setTimeout(() => done({ closed: false }), 3000);""", session)
    banner = lambda: page.js("return document.getElementById('connection').textContent") or ""
    notice = wait_until(lambda: "open in another tab" in banner())
    time.sleep(1)
    reopened = page.sockets_opened() - 1              # the second socket is one the page's script made
    replaced = [line for line in page.server.stderr(since) if "a new connection replaces the old one" in line]
    offline = page.js("return document.body.classList.contains('mvvm-offline')")
    check("Untrusted: a second socket for this session takes it over; the page is told why it stopped (a notice with Reload, "
          "its controls off) and does not fight for the session",
          not takeover["closed"] and notice and offline and reopened == 0 and len(replaced) == 1,
          f"second socket closed: {takeover['closed']}; notice {banner()!r}; "
          f"offline {offline}; the page opened {reopened} new socket(s); {len(replaced)} 'replaces' lines")
    page.js("window.intruder.close()")
    page.driver.find_element(By.CSS_SELECTOR, "#connection button").click()
    wait_until(lambda: page.settled() and page.field().get_attribute("value") == "")

    # From outside the browser: a WebSocket from another site's page, and another host name.
    host, port = "127.0.0.1", int(page.server.url.rsplit(":", 1)[1].strip("/"))
    with socket.create_connection((host, port), timeout=5) as raw:
        raw.sendall((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                     "Origin: http://evil.example\r\n\r\n").encode())
        status = raw.recv(200).split(b"\r\n")[0].decode()
    check("Untrusted: a WebSocket from another origin is refused", " 403 " in status, status)
    request = urllib.request.Request(page.server.url, headers={"Host": f"rebind.example:{port}"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            code = response.status
    except urllib.error.HTTPError as error:
        code = error.code
    check("Untrusted: a request for another host name (DNS rebinding) is refused", code == 421, code)

    # The page still works: the field, the view model and a search.
    field = page.field()
    wait_until(page.settled, timeout=5)
    page.type_keys(field, "cats")
    works = wait_until(lambda: page.settled() and page.button("Go").is_enabled())
    field.send_keys(Keys.ENTER)
    results = wait_until(lambda: page.heading() == "cats" and page.images_loaded("img.thumb", 3))
    check("Untrusted: after all that the page still works (typed 'cats', searched, thumbnails)", works and results,
          f"field {page.field('input').get_attribute('value') if not results else 'cats'!r}, heading {page.heading()!r}")
    shot, _ = page.screenshot("untrusted-after")
    page.check_images_drawn(shot, "img.thumb", "the thumbnails", minimum=3)
    lines = page.server.stderr(since)
    print(f"# server stderr during the untrusted-input checks: {len(lines)} lines")


def find_program(variable, *names):
    for name in (os.environ.get(variable), *names):
        if name and shutil.which(name):
            return shutil.which(name)
    sys.exit(f"web_e2e: {' or '.join(names)} not found (set ${variable})")


def main():
    arguments = sys.argv[1:]
    if not arguments or arguments[0].startswith("-"):
        sys.exit("usage: web_e2e.py PATH/TO/showcase-web [--screenshots DIR] [--readme-screenshot FILE]")
    binary = arguments[0]
    options = dict(zip(arguments[1::2], arguments[2::2]))
    shots = options.get("--screenshots") or tempfile.mkdtemp(prefix="web-e2e-")
    os.makedirs(shots, exist_ok=True)
    readme_screenshot = options.get("--readme-screenshot")
    only = set(filter(None, os.environ.get("WEB_E2E_ONLY", "").split(",")))
    chromium = find_program("CHROMIUM", "chromium", "chromium-browser", "google-chrome")
    chromedriver = find_program("CHROMEDRIVER", "chromedriver")
    scenarios = {
        "flickr": lambda page: flickr(page, readme_screenshot), "person": person, "login": login, "movies": movies, "goods": goods, "todo": todo, "new-issue": new_issue,
        "sessions": sessions, "reconnect": reconnect, "restart": restart, "offline": offline, "keys": keys, "links": links, "accessible": accessible, "addresses": addresses, "latency": latency, "jitter": jitter, "early": early, "back-to-back": back_to_back, "balancer": balancer, "nginx": nginx, "nginx-todo": nginx_todo, "nginx-todo-postgres": nginx_todo_postgres, "elements": elements, "headers": headers, "untrusted": untrusted,
        # Last: its 250 MB of binary frames fill the browser's performance log, which the
        # scenarios that count sockets read (Reconnect timed out reading it after the uploads).
        "uploads": uploads,
    }

    # Where the showcase keeps the attachments of the issues it files (the uploads' checksums).
    os.environ["SHOWCASE_ATTACHMENTS"] = ATTACHMENTS
    server = Server(binary)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    driver = None
    try:
        browser_options = webdriver.ChromeOptions()
        browser_options.binary_location = chromium
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         f"--window-size={WIDTH},{HEIGHT}", "--hide-scrollbars", "--force-device-scale-factor=1",
                         "--lang=en-US", "--font-render-hinting=none"):
            browser_options.add_argument(argument)
        browser_options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
        driver = webdriver.Chrome(options=browser_options, service=webdriver.ChromeService(executable_path=chromedriver))
        driver.set_script_timeout(30)
        driver.get(server.url)
        # The screenshot is the viewport: make it WIDTH×HEIGHT.
        chrome = driver.execute_script("return [outerWidth - innerWidth, outerHeight - innerHeight]")
        driver.set_window_size(WIDTH + chrome[0], HEIGHT + chrome[1])
        page = Page(driver, server, shots)
        print(f"# showcase-web at {server.url}; screenshots and server.log in {shots}", flush=True)
        unexpected = []  # what the server refused from pages that sent nothing wrong
        for name, scenario in scenarios.items():
            if only and name not in only:
                continue
            started, logged = time.monotonic(), server.stderr_count()
            driver.get_log("browser")  # what earlier scenarios left in the console
            try:
                scenario(page)
            except Exception as error:  # a scenario that cannot go on fails, and the next one runs
                where = [f"line {frame.lineno} ({frame.name})" for frame in traceback.extract_tb(error.__traceback__) if frame.filename == __file__]
                check(f"{page.scenario}: ran to its end", False, f"{type(error).__name__} at {', '.join(where[-2:])}: {error}".strip()[:400])
                traceback.print_exc(limit=3, file=sys.stdout)
                try:
                    page.screenshot(f"failed-{name}")
                    while len(driver.window_handles) > 1:
                        driver.switch_to.window(driver.window_handles[-1])
                        driver.close()
                    driver.switch_to.window(driver.window_handles[0])
                except WebDriverException:
                    pass
            if name in ("flickr", "person", "login", "movies", "goods", "todo", "new-issue", "uploads"):
                # Issue 26: nothing in the console on any app's pages (the scenarios that
                # break connections on purpose make the browser log them, and are not counted).
                console = [m[:160] for m in page.console()]
                check(f"{page.scenario}: nothing in the browser's console", not console, console[:3])
            print(f"# {page.scenario}: {time.monotonic() - started:.1f} s", flush=True)
            if name not in ("untrusted", "headers", "balancer", "nginx", "nginx-todo"):
                # The one refusal expected: the page whose session ended (Sessions) reconnecting.
                unexpected += [line for line in server.stderr(logged) if "refused" in line and "unknown or expired session" not in line]
        check("the server refused nothing the pages sent, but in the untrusted-input checks", not unexpected, unexpected[:3])
        check("the server ran to the end without a crash", server.is_running(), f"exit status {server.process.poll()}")
    finally:
        if driver is not None:
            try:
                driver.quit()
            except WebDriverException:
                pass
        server.stop()
        with open(os.path.join(shots, "server.log"), "w") as log:
            log.write("\n".join(server.stderr()) + "\n")
    print()
    print(f"web end-to-end: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
