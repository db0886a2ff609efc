#!/usr/bin/env python3
"""End-to-end checks of `showcase-web` in a real headless Chromium, driven by Selenium (issue 19).

Usage: web_e2e.py PATH/TO/showcase-web [--screenshots DIR] [--readme-screenshot FILE]

Starts the real binary offline on a free loopback port, drives the pages as a person would
(typing, clicking, scrolling, the browser's Back, closing tabs, a dropped connection), and
checks what is on screen, in the screenshots too: thumbnails and posters drawn, text where it
belongs. Prints one line per check; exits 1 if any failed. The server is always stopped.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pngcheck  # noqa: E402

BINARY = sys.argv[1]
SHOTS = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else tempfile.mkdtemp(prefix="web-e2e-")
README_SHOT = sys.argv[sys.argv.index("--readme-screenshot") + 1] if "--readme-screenshot" in sys.argv else None
os.makedirs(SHOTS, exist_ok=True)
failures = []
server = driver = None
log_path = os.path.join(SHOTS, "server.log")


def check(name, ok, seen=""):
    print(("PASS " if ok else "FAIL ") + name + (f"  ({seen})" if seen and not ok else ""), flush=True)
    if not ok:
        failures.append(name)
    return ok


def wait_until(condition, timeout=10.0, interval=0.05):
    """Polls until condition() is truthy; returns its last value."""
    deadline = time.time() + timeout
    value = None
    while time.time() < deadline:
        try:
            value = condition()
        except WebDriverException:
            value = None
        if value:
            return value
        time.sleep(interval)
    return value


def settled():
    """The page has no message waiting for its acknowledgement."""
    return wait_until(lambda: driver.execute_script("return window.mvvm && mvvm.pending() === 0"), 10)


def stats():
    with urllib.request.urlopen(BASE + "stats", timeout=5) as response:
        return json.loads(response.read())


def server_log():
    with open(log_path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def open_app(title):
    """A new tab session on the launcher, then the app whose row has `title`."""
    driver.get(BASE)
    row = wait_until(lambda: [r for r in driver.find_elements(By.CSS_SELECTOR, "li.row") if r.find_element(By.CSS_SELECTOR, ".title").text == title])
    if not row:
        raise AssertionError(f"no launcher row {title!r}")
    row[0].click()
    settled()


def title_is(text, timeout=10):
    return wait_until(lambda: driver.title == text, timeout)


def loaded_images(selector):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter(i => i.complete && i.naturalWidth > 0 && i.offsetParent !== null).length", selector)


def screenshot(name, drawn=(), text=()):
    """Takes a screenshot; checks it is not blank, that each element in `drawn` shows an
    image (many colours) and each in `text` shows dark text on the light page."""
    path = os.path.join(SHOTS, name + ".png")
    driver.save_screenshot(path)
    with open(path, "rb") as handle:
        image = pngcheck.decode(handle.read())
    ok = check(f"{name}: the screenshot is not blank", not pngcheck.is_blank(image))
    ratio = driver.execute_script("return window.devicePixelRatio") or 1

    def viewport_rect(element):
        # Where the element is in the screenshot (the viewport), not in the document.
        r = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.x, r.y, r.width, r.height]", element)
        return [value * ratio for value in r]

    for element in drawn:
        r = viewport_rect(element)
        colours, _, _ = pngcheck.region_stats(image, r)
        ok &= check(f"{name}: an image is drawn at {int(r[0])},{int(r[1])}", colours >= 12, f"{colours} colours")
    for element in text:
        r = viewport_rect(element)
        _, dark, _ = pngcheck.region_stats(image, r)
        ok &= check(f"{name}: text is drawn where {element.text[:30]!r} is", 0.01 < dark < 0.8, f"{dark:.3f} dark")
    return path


# --- the checks -------------------------------------------------------------------------------

def flickr():
    open_app("Flickr search")
    check("flickr: the search page opens", title_is("Flickr Search"), driver.title)
    field = driver.find_element(By.CSS_SELECTOR, "input[type=text]")
    go = driver.find_element(By.XPATH, "//button[text()='Go']")
    for index, character in enumerate("sunset"):
        field.send_keys(character)
        settled()
        if index == 2:
            check("flickr: Go is disabled until the search is longer than 3 characters", go.get_attribute("disabled") is not None)
    check("flickr: typing enabled Go (the view model follows each keystroke)", go.get_attribute("disabled") is None)
    field.send_keys(Keys.ENTER)
    check("flickr: Enter searches and opens the results", title_is("sunset"), driver.title)
    thumbs = wait_until(lambda: loaded_images("img.thumb") >= 5)
    check("flickr: thumbnails are loaded", thumbs, f"{loaded_images('img.thumb')} loaded")
    check("flickr: offline images are the marked placeholders",
          driver.find_element(By.CSS_SELECTOR, "img.thumb").get_attribute("src").startswith(BASE + "placeholder.svg"))
    counts = wait_until(lambda: "♥" in driver.find_element(By.CSS_SELECTOR, "li.row .detail").text, 6)
    check("flickr: counts load for rows on screen", counts, driver.find_element(By.CSS_SELECTOR, "li.row .detail").text)
    images = driver.find_elements(By.CSS_SELECTOR, "img.thumb")[:3]
    titles = driver.find_elements(By.CSS_SELECTOR, "li.row .title")[:2]
    path = screenshot("flickr-results", drawn=images, text=titles + [driver.find_element(By.TAG_NAME, "h1")])
    if README_SHOT:
        shutil.copyfile(path, README_SHOT)
    first_title = titles[0].text
    driver.find_elements(By.CSS_SELECTOR, "li.row")[0].click()
    check("flickr: a photo opens", title_is("Photo"), driver.title)
    check("flickr: the detail image is loaded", wait_until(lambda: loaded_images("img.photo") == 1))
    check("flickr: the detail shows the photo's title", first_title in driver.find_element(By.CSS_SELECTOR, ".page h2").text)
    screenshot("flickr-photo", drawn=[driver.find_element(By.CSS_SELECTOR, "img.photo")], text=[driver.find_element(By.CSS_SELECTOR, ".page h2")])
    driver.back()
    check("flickr: the browser's Back returns to the results", title_is("sunset"), driver.title)
    driver.back()
    check("flickr: Back again returns to the search", title_is("Flickr Search"), driver.title)
    check("flickr: the typed text is still in the field", wait_until(lambda: driver.find_element(By.CSS_SELECTOR, "input[type=text]").get_attribute("value") == "sunset"))
    # Esc while a search is in flight: the user left, so no results page appears later.
    field = driver.find_element(By.CSS_SELECTOR, "input[type=text]")
    field.clear()
    field.send_keys("mountain", Keys.ENTER, Keys.ESCAPE)
    check("flickr: Esc mid-search goes back to the launcher", title_is("MVVMKit showcase"), driver.title)
    time.sleep(2.0)
    check("flickr: the abandoned search never opens its results", driver.title == "MVVMKit showcase", driver.title)


def login():
    open_app("Login")
    check("login: the page opens", title_is("Login"), driver.title)
    fields = driver.find_elements(By.CSS_SELECTOR, "input")
    check("login: the password field masks what is typed", fields[1].get_attribute("type") == "password")
    button = driver.find_element(By.XPATH, "//button[text()='Login']")

    def attempt(user, password):
        for field, text in ((fields[0], user), (fields[1], password)):
            field.clear()
            field.send_keys(text)
        settled()
        wait_until(lambda: button.get_attribute("disabled") is None, 3)
        button.click()

    attempt("alan", "turing")
    dialog = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".dialog"), 5)
    check("login: a server error is a dialog", dialog and "unavailable" in dialog[0].text, dialog[0].text if dialog else "none")
    check("login: the password is not in the page's HTML", 'value="turing"' not in driver.page_source)
    screenshot("login-error", text=[driver.find_element(By.CSS_SELECTOR, ".dialog h2")])
    driver.find_element(By.CSS_SELECTOR, ".dialog button").click()
    check("login: the dialog's button dismisses it", wait_until(lambda: not driver.find_elements(By.CSS_SELECTOR, ".dialog"), 3))
    attempt("grace", "hopper")
    status = wait_until(lambda: "verification" in driver.find_element(By.CSS_SELECTOR, "p.error").text, 5)
    check("login: a refused login says why", status, driver.find_element(By.CSS_SELECTOR, "p.error").text)
    attempt("ada", "lovelace")
    check("login: a good login opens the welcome page", title_is("Welcome"), driver.title)
    check("login: the welcome page greets the user", "ada" in driver.find_element(By.CSS_SELECTOR, ".page").text)
    screenshot("login-welcome", text=[driver.find_element(By.CSS_SELECTOR, ".page h2")])
    driver.back()
    check("login: Back returns to the form", title_is("Login"), driver.title)
    check("login: the password field is empty again, and so is the login's",
          driver.find_elements(By.CSS_SELECTOR, "input")[1].get_attribute("value") == ""
          and driver.find_element(By.XPATH, "//button[text()='Login']").get_attribute("disabled") is not None)


def movies():
    open_app("Movies")
    check("movies: the page opens", title_is("Movies"), driver.title)
    list_titles = lambda: [t.text for t in driver.find_elements(By.CSS_SELECTOR, ".tab:not([hidden]) li.row .title")]
    first = wait_until(lambda: list_titles())
    check("movies: the first list loads", bool(first), str(first)[:80])
    check("movies: posters are loaded", wait_until(lambda: loaded_images("img.thumb") >= 5))
    screenshot("movies-list", drawn=driver.find_elements(By.CSS_SELECTOR, "img.thumb")[:3], text=driver.find_elements(By.CSS_SELECTOR, "li.row .title")[:2])
    segments = driver.find_elements(By.CSS_SELECTOR, ".segments [role=tab]")
    segments[1].click()
    second = wait_until(lambda: list_titles() if list_titles() and list_titles() != first else None)
    check("movies: another list replaces the first", bool(second), str(list_titles())[:80])
    check("movies: its segment is selected", segments[1].get_attribute("aria-selected") == "true")
    driver.find_elements(By.CSS_SELECTOR, ".tabs [role=tab]")[1].click()
    query = wait_until(lambda: [f for f in driver.find_elements(By.CSS_SELECTOR, "input[type=text]") if f.is_displayed()])
    query[0].send_keys("the")
    results = wait_until(lambda: list_titles(), 8)
    check("movies: the search finds movies as you type", bool(results), str(results)[:80])
    driver.find_elements(By.CSS_SELECTOR, ".tab:not([hidden]) li.row")[0].click()
    check("movies: a movie's detail opens", wait_until(lambda: driver.title not in ("Movies", "")), driver.title)
    check("movies: its poster is loaded", wait_until(lambda: loaded_images("img.poster-large") == 1))
    check("movies: its facts load", wait_until(lambda: "Runtime:" in driver.find_element(By.CSS_SELECTOR, ".page").text and "Loading" not in driver.find_element(By.CSS_SELECTOR, ".page").text, 6))
    screenshot("movie-detail", drawn=[driver.find_element(By.CSS_SELECTOR, "img.poster-large")], text=[driver.find_element(By.CSS_SELECTOR, ".page h2")])
    driver.back()
    check("movies: Back returns to the tabs", title_is("Movies"), driver.title)


def page_to_the_end(label):
    status = lambda: driver.find_element(By.CSS_SELECTOR, ".footer").text
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "li.row") and "items" in status())
    for _ in range(20):
        if "end of list" in status():
            break
        driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        time.sleep(0.6)
    rows = len(driver.find_elements(By.CSS_SELECTOR, ".list li.row"))
    check(f"{label}: scrolling to the end pages to the end of the list", "end of list" in status(), status())
    match = re.search(r"(\d+) items", status())
    check(f"{label}: every item is a row", match and int(match.group(1)) == rows == 44, f"{rows} rows; {status()}")


def goods():
    open_app("Goods catalog")
    row = wait_until(lambda: [r for r in driver.find_elements(By.CSS_SELECTOR, "li.row") if "Stationery" in r.text])
    row[0].click()
    check("goods: the category opens", title_is("商品列表"), driver.title)
    page_to_the_end("goods")
    footer = driver.find_element(By.CSS_SELECTOR, ".footer")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", footer)
    screenshot("goods-end", text=[footer])
    driver.find_elements(By.CSS_SELECTOR, ".list li.row")[-1].click()
    check("goods: a row opens its detail", title_is("商品详情"), driver.title)
    driver.back()
    check("goods: Back returns to the list", title_is("商品列表"), driver.title)
    open_app("Goods catalog (DataController)")
    row = wait_until(lambda: [r for r in driver.find_elements(By.CSS_SELECTOR, "li.row") if "Stationery" in r.text])
    row[0].click()
    page_to_the_end("goods (DataController)")


def sessions():
    open_app("Flickr search")
    first = driver.current_window_handle
    before = stats()
    driver.switch_to.new_window("tab")
    open_app("Flickr search")
    driver.find_element(By.CSS_SELECTOR, "input[type=text]").send_keys("second tab")
    settled()
    check("sessions: a second tab is a session of its own", stats()["open"] == before["open"] + 1, f"{before} -> {stats()}")
    driver.switch_to.window(first)
    check("sessions: typing in one tab does not show in the other", driver.find_element(By.CSS_SELECTOR, "input[type=text]").get_attribute("value") == "")
    driver.switch_to.new_window("tab")
    open_app("Login")
    during = stats()
    driver.close()
    driver.switch_to.window(first)
    closed = wait_until(lambda: stats()["open"] == during["open"] - 1 and stats()["closed"] > during["closed"], 10)
    check("sessions: closing a tab closes its session", closed, f"{during} -> {stats()}")
    freed = wait_until(lambda: stats()["leaked"] == 0, 10)
    check("sessions: the closed session's view models and page are freed", freed, str(stats()))


def reconnect():
    open_app("Flickr search")
    field = driver.find_element(By.CSS_SELECTOR, "input[type=text]")
    field.send_keys("sun")
    settled()
    opened = stats()["open"]
    driver.execute_script("mvvm.drop()")
    field.send_keys("set")  # typed while the connection is down
    check("reconnect: the page says it is reconnecting, then reconnects",
          wait_until(lambda: driver.execute_script("return document.getElementById('connection').hidden && mvvm.pending() === 0"), 10))
    check("reconnect: it is the same session", stats()["open"] == opened, str(stats()))
    check("reconnect: nothing typed was lost", field.get_attribute("value") == "sunset", field.get_attribute("value"))
    field.send_keys(Keys.ENTER)
    check("reconnect: the view model has what was typed offline (the search is for it)", title_is("sunset"), driver.title)


def untrusted():
    open_app("Flickr search")
    before = server_log().count("refused")
    session = driver.execute_script("return document.body.dataset.session")
    field_id = driver.find_element(By.CSS_SELECTOR, "input[type=text]").get_attribute("id")
    driver.execute_async_script("""
      const [session, field, done] = arguments;
      const url = 'ws://' + location.host + '/ws';
      const open = (messages) => new Promise((resolve) => {
        const ws = new WebSocket(url);
        ws.onopen = () => { for (const m of messages) ws.send(m); setTimeout(() => { ws.close(); resolve(); }, 300); };
        ws.onerror = () => resolve();
      });
      (async () => {
        await open(['not json at all']);
        await open([JSON.stringify({t: 'hello', s: 'ffffffffffffffffffffffffffffffff', q: 0})]);
        await open([JSON.stringify({t: 'hello', s: session, q: 0}),
                    'garbage after hello',
                    'x'.repeat(100 * 1024),
                    JSON.stringify({t: 'c', id: 'e99999'}),
                    JSON.stringify({t: 'i', id: field, v: 'from elsewhere', s: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'})]);
        done();
      })();
    """, session, field_id)
    time.sleep(0.5)
    log = server_log()
    refused = log.count("refused") - before
    check("untrusted: each bad message was refused and logged (6)", refused >= 6, f"{refused} new 'refused' lines")
    for reason in ("unknown or expired session", "over the 65536-byte limit", "no element", "another session", "malformed"):
        check(f"untrusted: the log says why ({reason})", reason in log)
    check("untrusted: the server is still up", stats()["open"] >= 1)
    field = driver.find_element(By.CSS_SELECTOR, "input[type=text]")
    check("untrusted: the page reconnected and still works",
          wait_until(lambda: driver.execute_script("return document.getElementById('connection').hidden && mvvm.pending() === 0"), 10))
    field.send_keys("kyoto", Keys.ENTER)
    check("untrusted: ... a search still runs", title_is("kyoto"), driver.title)
    check("untrusted: the other session's input never reached this one", "from elsewhere" not in driver.page_source)


def main():
    global server, driver, BASE
    log = open(log_path, "w")
    server = subprocess.Popen([BINARY, "--port", "0", "--offline", "--session-grace", "2"], stdout=subprocess.PIPE, stderr=log, text=True)
    line = server.stdout.readline()
    match = re.search(r"(http://\S+/)", line)
    if not match:
        print("FAIL the server did not print its URL: " + line)
        return 1
    BASE = match.group(1)
    print(f"showcase-web at {BASE}; screenshots in {SHOTS}", flush=True)
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,820", "--hide-scrollbars"]:
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(30)
    only = os.environ.get("WEB_E2E_ONLY")
    for test in (flickr, login, movies, goods, sessions, reconnect, untrusted):
        if only and test.__name__ not in only.split(","):
            continue
        try:
            test()
        except Exception as error:  # a crash in one test does not hide the others
            check(f"{test.__name__}: ran to the end", False, f"{type(error).__name__}: {error}"[:300])
    check("the server never crashed", server.poll() is None, f"exit {server.poll()}")
    return 1 if failures else 0


if __name__ == "__main__":
    status = 1
    try:
        status = main()
    finally:
        if driver:
            driver.quit()
        if server and server.poll() is None:
            server.terminate()
            try:
                server.wait(5)
            except subprocess.TimeoutExpired:
                server.kill()
    print(f"web end-to-end: {len(failures)} failed" + (": " + ", ".join(failures) if failures else ""))
    sys.exit(status)
