#!/usr/bin/env python3
"""Password guessing through the real server's sockets (issue 60's attack line): `todo-web
--accounts` on its own (no proxy: the address a guess comes from is its socket's), and raw
WebSocket clients that type an email and a password into the sign-in page and press Sign in, as a
script would, each on a page of its own.

  1. Ada signs up and signs in from her browser (its cookie `mvvm_browser`): a browser she knows.
  2. One address, one fresh browser: 1,000 wrong passwords for Ada. The account's limit for
     browsers it does not know (10 in 15 minutes) holds: 10 answered "incorrect", 990 "too many
     failed attempts", and those 990 are answered without a hash (each well under one).
  3. Ada, from her browser, signs in with her password at once: her browser has its own count.
  4. Fifty addresses (a fresh browser each), 20 wrong passwords each for Bob: 1,000 in all; the
     same 10 checked and 990 refused; Bob, from his browser, still signs in.
  5. One address guessing at 51 emails nobody has: the address's limit (50) refuses the 51st, and
     a real account's owner from another address is not affected.

Also: the answer to an unknown email is the answer to a wrong password, word for word; no
password typed appears in the server's log.

Usage: signin_attack.py PATH/TO/todo-web      Exit status 1 when a check fails.
"""
import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tabs_bench import connect, upgrade  # noqa: E402

INCORRECT = "The email or password is incorrect."
THROTTLED = "Too many failed attempts."
failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f" -- {detail}"), flush=True)
    if not ok:
        failures.append(name)


class Page:
    """A page of the app as a script sees it: its HTML over HTTP from `source`, its WebSocket with
    the browser's cookie, messages numbered as the page's script numbers them."""

    def __init__(self, port, source, cookie=None):
        self.port, self.source, self.cookie = port, source, cookie
        self.number = 0

    async def open(self, path):
        http = await connect(self.port, self.source)
        cookie = f"Cookie: {self.cookie}\r\n" if self.cookie else ""
        http.transport.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n{cookie}Connection: close\r\n\r\n".encode())
        self.html = (await http.read_until_closed()).decode(errors="replace")
        session = re.search(r'data-session="(\w+)"', self.html)
        if not session:
            raise ConnectionError(f"no page at {path}: {self.html[:200]!r}")
        given = re.search(r"(?im)^set-cookie: *(mvvm_browser=[0-9a-f]+)", self.html)
        if given:
            self.cookie = given.group(1)
        self.ws = await upgrade(self.port, self.source, self.cookie)
        self.ws.send_text(json.dumps({"t": "hello", "s": session.group(1), "q": 0}))
        return self

    def field(self, label):
        return re.search(rf'<input id="(e\d+)" aria-label="{label}"', self.html).group(1)

    def button(self, title):
        return re.search(rf'<button id="(e\d+)"[^>]*>{title}</button>', self.html).group(1)

    def status(self):
        return re.search(r'<p id="(e\d+)" class="error"', self.html).group(1)

    def send(self, message):
        self.number += 1
        message["n"] = self.number
        self.ws.send_text(json.dumps(message))

    async def answer(self, status, timeout=30):
        """The status line's next text, or 'signed in' when the page is told to sign in."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for payload in self.ws.frames():
                for op in json.loads(payload).get("o", []):
                    if op[0] == "s":
                        return "signed in"
                    if op[0] == "t" and op[1] == status and op[2]:
                        return op[2]
            try:
                await asyncio.wait_for(self.ws.more(), max(0.01, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                break
        return "no answer"

    async def submit(self, email, password, button="Sign in"):
        """Types `email` and `password` and presses the button; the page's answer."""
        status = self.status()
        self.send({"t": "i", "id": self.field("Email"), "v": email})
        self.send({"t": "i", "id": self.field("Password"), "v": password})
        self.send({"t": "c", "id": self.button(button)})
        return await self.answer(status)

    def close(self):
        self.ws.transport.close()


async def guesses(port, source, email, count, cookie=None, emails=None):
    """`count` wrong passwords (or unknown emails) from `source`, on one page; each answer with the
    seconds it took."""
    page = await Page(port, source, cookie).open("/sign-in")
    answers = []
    for k in range(count):
        started = time.monotonic()
        said = await page.submit(emails[k] if emails else email, f"guess-{source}-{k}")
        answers.append((said, time.monotonic() - started))
    page.close()
    return answers


def tally(answers):
    incorrect = sum(1 for said, _ in answers if said == INCORRECT)
    throttled = [seconds for said, seconds in answers if said.startswith(THROTTLED)]
    return incorrect, throttled


async def attack(port, log):
    # 1. The owners sign up and sign in from their browsers.
    owners = {}
    for name in ("ada", "bob"):
        page = await Page(port, "127.0.0.1").open("/sign-up")
        said = await page.submit(f"{name}@example.com", f"{name}-password-1", button="Create account")
        page.close()
        signed_in = await Page(port, "127.0.0.1", page.cookie).open("/sign-in")
        again = await signed_in.submit(f"{name}@example.com", f"{name}-password-1")
        signed_in.close()
        owners[name] = page.cookie
        check(f"Attack: {name} signs up and signs in from a browser of their own", said == "signed in" and again == "signed in", f"{said!r}, {again!r}")

    # 2. One address, one browser, 1,000 wrong passwords for Ada.
    started = time.monotonic()
    answers = await guesses(port, "127.0.0.2", "ada@example.com", 1000)
    incorrect, throttled = tally(answers)
    check(f"Attack: 1,000 wrong passwords from one address: {incorrect} checked, {len(throttled)} refused as too many "
          f"({time.monotonic() - started:.1f} s)", incorrect == 10 and len(throttled) == 990,
          f"{[a for a, _ in answers if a != INCORRECT and not a.startswith(THROTTLED)][:3]}")
    checked_times = sorted(seconds for said, seconds in answers if said == INCORRECT)
    refused_times = sorted(throttled)
    if checked_times and refused_times:
        check(f"Attack: a refusal costs no hash (median {refused_times[len(refused_times) // 2] * 1000:.1f} ms, "
              f"a checked guess {checked_times[len(checked_times) // 2] * 1000:.0f} ms)",
              refused_times[len(refused_times) // 2] < checked_times[len(checked_times) // 2] / 4)

    # 3. Ada, from her own browser.
    page = await Page(port, "127.0.0.1", owners["ada"]).open("/sign-in")
    said = await page.submit("ada@example.com", "ada-password-1")
    page.close()
    check("Attack: Ada signs in from her browser right after the 1,000 guesses", said == "signed in", said)

    # 4. Fifty addresses, a fresh browser each, 20 wrong passwords each for Bob.
    started = time.monotonic()
    every = await asyncio.gather(*(guesses(port, f"127.0.1.{k + 1}", "bob@example.com", 20) for k in range(50)))
    answers = [answer for one in every for answer in one]
    incorrect, throttled = tally(answers)
    check(f"Attack: 1,000 wrong passwords from 50 addresses: {incorrect} checked, {len(throttled)} refused as too many "
          f"({time.monotonic() - started:.1f} s)", incorrect == 10 and len(throttled) == 990)
    page = await Page(port, "127.0.0.1", owners["bob"]).open("/sign-in")
    said = await page.submit("bob@example.com", "bob-password-1")
    page.close()
    check("Attack: Bob signs in from his browser after them", said == "signed in", said)

    # 5. One address, 51 emails nobody has: the address's limit, at its boundary.
    answers = await guesses(port, "127.0.2.1", None, 51, emails=[f"nobody{k}@example.com" for k in range(51)])
    incorrect, throttled = tally(answers)
    check(f"Attack: 51 unknown emails from one address: the first {incorrect} answered as a wrong password is, the 51st refused",
          incorrect == 50 and len(throttled) == 1 and answers[-1][0].startswith(THROTTLED), f"{answers[-2:]}")
    page = await Page(port, "127.0.0.1", owners["ada"]).open("/sign-in")
    said = await page.submit("ada@example.com", "ada-password-1")
    page.close()
    check("Attack: another address's owner is not affected by that address's limit", said == "signed in", said)

    text = open(log).read()
    leaked = [word for word in ("guess-127", "ada-password-1", "bob-password-1") if word in text]
    check("Attack: no password typed is in the server's log", not leaked, f"{leaked}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    folder = tempfile.mkdtemp(prefix="signin-attack-")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = os.path.join(folder, "server.log")
    server = subprocess.Popen([sys.argv[1], "--accounts", "--port", str(port), "--database", os.path.join(folder, "todos.sqlite")],
                              stdout=open(log, "w"), stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2).status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        asyncio.run(attack(port, log))
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{'FAILED' if failures else 'passed'}: {len(failures)} of the checks failed", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
