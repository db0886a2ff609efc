#!/usr/bin/env python3
"""Issue 60's Must-show, in Chromium: `todo-web --accounts`, two instances behind Debian's nginx
(round robin, no sticky sessions) on one PostgreSQL (or one SQLite file without PostgreSQL).
Several browsers, each its own Chromium with its own cookies:

- Ada and Bob sign up, each in a browser; each sees only their own list.
- Ada's second browser signs in and sees her list; an add there shows in the first, live, and
  a tick in either shows in the other.
- Two tabs of one browser: signing out in one ends the other, within a second.
- "Sign out everywhere" ends Ada's tabs in both browsers (whichever instance their sockets are
  on) within a second, and no one else's.
- Ada's cookie, copied into a fresh browser after she signed out, is refused.
- A sign-in cookie planted before sign-in is not the one after it.
- The passwords are in no server log, no page, no WebSocket frame.

Usage: accounts_e2e.py PATH/TO/todo-web   (exit 1 if a check fails)"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import postgres_cluster  # noqa: E402
import web_e2e  # noqa: E402
from web_e2e import NGINX_CONF, Page, Server, check, find_program, wait_until  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

PASSWORDS = {"ada@example.com": "lovelace-1815-engine", "bob@example.com": "builder-of-bridges-9"}


def browser(chromium, chromedriver):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1000,800", "--lang=en-US"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=chromedriver))
    driver.set_script_timeout(30)
    return driver


class Person:
    """One browser, as a page the scenario drives."""

    def __init__(self, driver, server, url):
        self.page = Page(driver, server, tempfile.mkdtemp(prefix="accounts-e2e-"))
        self.driver = driver
        self.url = url

    def path(self):
        return self.page.js("return location.pathname + location.search")

    def fill(self, label, text):
        found = self.page.js(
            "const l = [...document.querySelectorAll('section.page label')].find((e) => e.textContent.trim() === arguments[0]);"
            " return l && document.getElementById(l.htmlFor);", label)
        found.click()
        found.send_keys(Keys.CONTROL, "a")
        found.send_keys(text)

    def on_list(self):
        return self.page.heading() == "To-dos" and self.page.settled()

    def open_account(self):
        """Presses the list's Account button once the list shows it (a crowded CI machine can
        take seconds to build the page); whether the account screen opened."""
        def pressed():
            try:
                if not self.on_list():
                    return False
                self.page.button("Account").click()
                return True
            except (LookupError, WebDriverException):
                return False
        return wait_until(pressed, timeout=30) and wait_until(
            lambda: self.page.heading() == "Your account" and self.page.settled(), timeout=20)

    def sign_up(self, email):
        self.driver.get(self.url)
        wait_until(lambda: self.page.heading() == "Sign in" and self.page.settled(), timeout=20)
        self.page.click_button("Create an account")
        wait_until(lambda: self.page.heading() == "Create an account" and self.page.settled())
        self.fill("Email", email)
        self.fill("Password", PASSWORDS[email])
        self.page.click_button("Create account")
        return wait_until(self.on_list, timeout=20)

    def sign_in(self, email, password=None):
        if self.page.heading() != "Sign in":
            self.driver.get(self.url)
        wait_until(lambda: self.page.heading() == "Sign in" and self.page.settled(), timeout=20)
        self.fill("Email", email)
        self.fill("Password", password or PASSWORDS[email])
        self.page.field("section.page input[type=password]").send_keys(Keys.ENTER)
        return wait_until(self.on_list, timeout=20)

    def add(self, title):
        css = "section.page input[placeholder='What needs doing?']"
        self.page.click_field(css)
        self.page.send_to_field(css, title + Keys.ENTER)

    def rows(self):
        return self.page.todo_rows()

    def cookie(self, name):
        return next((c["value"] for c in self.driver.get_cookies() if c["name"] == name), None)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: accounts_e2e.py PATH/TO/todo-web")
    app = sys.argv[1]
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    chromium = find_program("CHROMIUM", "chromium", "chromium-browser", "google-chrome")
    chromedriver = find_program("CHROMEDRIVER", "chromedriver")
    folder = tempfile.mkdtemp(prefix="accounts-e2e-")
    cluster = None
    try:
        cluster = postgres_cluster.PostgresCluster()
        database = cluster.url
    except Exception as error:   # no PostgreSQL here: both instances on one SQLite file
        print(f"# no PostgreSQL ({error}); the instances share a SQLite file")
        database = os.path.join(folder, "todos.sqlite")
    options = ("--accounts", "--path", "/todo", "--trusted-proxy", "127.0.0.1", "--database", database)
    first, second = Server(app, *options, showcase=False), Server(app, *options, showcase=False)
    ports = [int(s.url.rsplit(":", 1)[1].strip("/")) for s in (first, second)]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with open(os.path.join(folder, "nginx.conf"), "w") as f:
        f.write(NGINX_CONF.format(dir=folder, first=ports[0], second=ports[1], port=port, mount="/todo"))
    proxy = subprocess.Popen([nginx, "-c", os.path.join(folder, "nginx.conf"), "-p", folder, "-e", os.path.join(folder, "error.log")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/todo/"
    drivers = []
    try:
        def serving():
            try:
                return proxy.poll() is None and urllib.request.urlopen(url + "mvvm.css", timeout=2).status == 200
            except OSError:
                return False
        check("Accounts: nginx serves the app under /todo/", wait_until(serving, timeout=10), f"nginx exit status {proxy.poll()}")

        def person():
            drivers.append(browser(chromium, chromedriver))
            return Person(drivers[-1], first, url)
        ada, bob, ada2 = person(), person(), person()

        signed_up = ada.sign_up("ada@example.com") and bob.sign_up("bob@example.com")
        check("Accounts: Ada and Bob sign up in two browsers, through nginx, and land on their lists", signed_up,
              f"Ada at {ada.path()} ({ada.page.heading()}), Bob at {bob.path()} ({bob.page.heading()})")
        ada.add("Ada's milk")
        bob.add("Bob's bread")
        own = wait_until(lambda: ada.rows() == ["[ ] Ada's milk"] and bob.rows() == ["[ ] Bob's bread"], timeout=10)
        time.sleep(0.5)
        check("Accounts: two users each see only their own list", own and ada.rows() == ["[ ] Ada's milk"] and bob.rows() == ["[ ] Bob's bread"],
              f"Ada {ada.rows()}, Bob {bob.rows()}")

        in_second = ada2.sign_in("ada@example.com")
        check("Accounts: Ada signs in in a second browser and sees her list", in_second and wait_until(lambda: ada2.rows() == ["[ ] Ada's milk"]),
              f"{ada2.path()} {ada2.page.heading()} {ada2.rows() if in_second else ''}")
        started = time.monotonic()
        ada2.add("Ada's eggs")
        live = wait_until(lambda: ada.rows() == ["[ ] Ada's milk", "[ ] Ada's eggs"], timeout=10)
        check(f"Accounts: an add in Ada's second browser shows in her first, live ({(time.monotonic() - started) * 1000:.0f} ms)", live,
              f"first {ada.rows()}, Bob {bob.rows()}")
        check("Accounts: Bob's list does not get it", bob.rows() == ["[ ] Bob's bread"], f"{bob.rows()}")

        # Ticks: three more tabs of Ada's second browser, which nginx spreads over the instances,
        # then an add in her first. A tab that draws the new row after another on its instance
        # shares that row's HTML, and the row stays unmade on the server: a tick must reach it as
        # the box's one attribute. Each tick must show in every other tab, live, and in a tab
        # loaded again.
        def shows(want):
            return ["[ ] Ada's milk", "[ ] Ada's eggs", f"{want} Ada's jam"]

        def tabs_show(driver, handles, want):
            def shown():
                for handle in handles:
                    driver.switch_to.window(handle)
                    if ada2.rows() != shows(want):
                        return False
                return True
            return shown
        driver2 = ada2.driver
        main2 = driver2.current_window_handle
        for _ in range(3):
            driver2.switch_to.new_window("tab")
            driver2.get(url)
            wait_until(lambda: ada2.on_list() and len(ada2.rows()) == 2, timeout=20)
        tabs2 = driver2.window_handles
        ada.add("Ada's jam")
        check(f"Accounts: an add in Ada's first browser shows in her second's {len(tabs2)} tabs",
              wait_until(tabs_show(driver2, tabs2, "[ ]"), timeout=10), f"{ada2.rows()}")
        for ticker, want in ((ada, "[x]"), (ada2, "[ ]")):
            driver2.switch_to.window(main2)
            started = time.monotonic()
            box = ticker.page.todo_control("Ada's jam", "input[type=checkbox]")
            if box is None:
                check(f"Accounts: Ada's jam has a checkbox to tick ({want})", False, f"{ticker.rows()}")
                break
            box.click()
            shown = wait_until(lambda: ada.rows() == shows(want) and tabs_show(driver2, tabs2, want)(), timeout=10)
            check(f"Accounts: a tick of Ada's jam ({want}) shows in her other browser's {len(tabs2)} tabs, live "
                  f"({(time.monotonic() - started) * 1000:.0f} ms)", shown, f"first {ada.rows()}, second {ada2.rows()}")
            if want == "[x]":
                driver2.switch_to.window(tabs2[-1])
                driver2.refresh()
                check("Accounts: and a tab of hers loaded again shows it ticked",
                      wait_until(lambda: ada2.on_list() and ada2.rows() == shows("[x]"), timeout=20), f"{ada2.rows()}")
        for handle in tabs2:
            if handle != main2:
                driver2.switch_to.window(handle)
                driver2.close()
        driver2.switch_to.window(main2)

        # A cookie planted before sign-in is not the one after it; the one of a signed-out browser is refused.
        planted = "5" * 64
        fresh = person()
        fresh.driver.get(url + "sign-in")
        fresh.driver.add_cookie({"name": "mvvm_user", "value": planted, "path": "/todo"})
        fresh.sign_in("bob@example.com")
        after = fresh.cookie("mvvm_user")
        check("Accounts: a sign-in cookie set before sign-in is not the one after it (and is HttpOnly)",
              after not in (None, planted) and len(after) == 64
              and next(c for c in fresh.driver.get_cookies() if c["name"] == "mvvm_user").get("httpOnly"), f"{after!r}")

        # Two tabs of Ada's first browser: signing out in one ends the other within a second.
        driver = ada.driver
        first_tab = driver.current_window_handle
        driver.switch_to.new_window("tab")
        second_tab = driver.current_window_handle
        driver.get(url)
        wait_until(ada.on_list, timeout=20)
        driver.switch_to.window(first_tab)
        check("Accounts: the list's Account button opens the account screen", ada.open_account(), f"{ada.page.heading()} at {ada.path()}")
        old_cookie = ada.cookie("mvvm_user")
        started = time.monotonic()
        ada.page.click_button("Sign out")
        driver.switch_to.window(second_tab)
        ended = wait_until(lambda: ada.page.heading() == "Sign in", timeout=10)
        took = time.monotonic() - started
        check(f"Accounts: signing out in one tab signs out the browser's other tab ({took * 1000:.0f} ms)", ended and took < 1.0,
              f"{ada.page.heading()} at {ada.path()}")
        driver.close()
        driver.switch_to.window(first_tab)
        refused = urllib.request.build_opener(NoRedirect()).open(urllib.request.Request(url, headers={"Cookie": f"mvvm_user={old_cookie}"}))
        check("Accounts: Ada's cookie, copied into a fresh browser after she signed out, is refused (sent to sign-in, the cookie cleared)",
              refused.status == 303 and "sign-in" in refused.headers.get("Location", "")
              and "mvvm_user=;" in (refused.headers.get("Set-Cookie") or ""), f"{refused.status} {dict(refused.headers)}")

        # Sign out everywhere: both of Ada's browsers, on whichever instance, within a second; not Bob.
        ada.sign_in("ada@example.com")
        ada2.driver.get(url)
        check("Accounts: Ada's second browser, still signed in, opens its account screen", ada2.open_account(),
              f"{ada2.page.heading()} at {ada2.path()}")
        started = time.monotonic()
        ada2.page.click_button("Sign out everywhere")
        ended = wait_until(lambda: ada.page.heading() == "Sign in" and ada2.page.heading() == "Sign in", timeout=10)
        took = time.monotonic() - started
        check(f"Accounts: \"Sign out everywhere\" ends Ada's tabs in both browsers within a second ({took * 1000:.0f} ms)",
              ended and took < 1.0, f"first {ada.page.heading()}, second {ada2.page.heading()}")
        time.sleep(0.5)
        check("Accounts: and no one else's (Bob's list stays, signed in)", bob.on_list() and bob.rows() == ["[ ] Bob's bread"],
              f"Bob: {bob.page.heading()} {bob.rows()}")
        sockets = [line for server in (first, second) for line in server.stderr() if "resumed" in line]
        print(f"# sessions resumed on another instance: {len(sockets)}")

        # The passwords: in no server log, no page, no WebSocket frame the pages received.
        seen = "\n".join(first.stderr() + second.stderr())
        for person_ in (ada, bob, ada2, fresh):
            seen += person_.driver.page_source
            seen += "\n".join(person_.page.frames_received())
        with open(os.path.join(folder, "access.log")) as log:
            seen += log.read()
        leaked = [email for email, password in PASSWORDS.items() if password in seen]
        check("Accounts: the passwords are in no server log, nginx log, page or WebSocket frame captured", not leaked, leaked)
    finally:
        for driver in drivers:
            try:
                driver.quit()
            except Exception:
                pass
        proxy.terminate()
        first.stop()
        second.stop()
        if cluster:
            cluster.remove()
    print(f"# accounts e2e: {web_e2e.passed} passed, {web_e2e.failed} failed")
    sys.exit(1 if web_e2e.failed else 0)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments):
        return None

    def http_error_303(self, request, response, code, message, headers):
        return response


if __name__ == "__main__":
    main()
