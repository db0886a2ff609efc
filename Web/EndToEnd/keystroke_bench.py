#!/usr/bin/env python3
"""Keystroke → view model → patch applied in the page, in a real headless Chromium on loopback
(issue 19).

Usage: keystroke_bench.py PATH/TO/showcase-web [--keystrokes N] [--runs R] [--fail-above-ms MS]

Opens the Flickr search page and types into its field from inside the page, one keystroke at a
time: each sets the field's value and fires its `input` event, as typing does; the page sends the
new text to its session, the view model's `searchText` takes it, the page's bindings react, and
the server's frame comes back with the acknowledgement. The page measures, per keystroke, the
time from sending to applying that frame (performance.now(), which Chromium rounds to 0.1 ms),
and counts the bytes each way. Prints the median, p99 and max per run, and fails if a run's p99
is above --fail-above-ms (default 50: a gate against something gone badly wrong, not the goal).
"""
import json
import re
import shutil
import statistics
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def option(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


BINARY = sys.argv[1]
KEYSTROKES = option("--keystrokes", 1000)
RUNS = option("--runs", 3)
LIMIT = option("--fail-above-ms", 50.0)

TYPE = """
  const [count, done] = arguments;
  const input = document.querySelector('input[type=text]');
  const words = ['sunset', 'kyoto', 'lantern', 'tallinn', 'market', 'snow'];
  const start = mvvm.stats.latencies.length, out0 = mvvm.stats.bytesOut, in0 = mvvm.stats.bytesIn, frames0 = mvvm.stats.frames;
  let i = 0;
  function next() {
    if (i === count) {
      done({ latencies: mvvm.stats.latencies.slice(start), out: mvvm.stats.bytesOut - out0, in: mvvm.stats.bytesIn - in0, frames: mvvm.stats.frames - frames0 });
      return;
    }
    // Type the next character of a word; after a word, clear the field (Ctrl-A, Backspace).
    const word = words[Math.floor(i / 8) % words.length];
    const position = i % 8;
    input.value = position < word.length ? word.slice(0, position + 1) : '';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    i++;
    const wait = () => { if (mvvm.pending() === 0) next(); else setTimeout(wait, 0); };
    wait();
  }
  next();
"""


def main():
    server = subprocess.Popen([BINARY, "--port", "0", "--offline"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    driver = None
    try:
        base = re.search(r"(http://\S+/)", server.stdout.readline()).group(1)
        options = webdriver.ChromeOptions()
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"]:
            options.add_argument(argument)
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
        driver.set_script_timeout(300)
        driver.get(base)
        rows = []
        for _ in range(200):
            rows = driver.find_elements(By.CSS_SELECTOR, "li.row")
            if rows:
                break
            time.sleep(0.05)
        rows[0].click()
        for _ in range(200):  # the search page, with its field
            if driver.title == "Flickr Search" and driver.find_elements(By.CSS_SELECTOR, "input[type=text]"):
                break
            time.sleep(0.05)
        else:
            raise RuntimeError(f"the Flickr search page did not open ({driver.title!r})")
        worst = 0.0
        for run in range(RUNS + 1):
            result = driver.execute_async_script(TYPE, KEYSTROKES)
            latencies = sorted(result["latencies"])
            if run == 0:
                continue  # warm-up: the first keystrokes pay for JIT and first allocations
            p99 = latencies[max(0, int(round(0.99 * len(latencies))) - 1)]
            worst = max(worst, p99)
            print(f"run {run}: {len(latencies)} keystrokes: median {statistics.median(latencies):.2f} ms, "
                  f"p99 {p99:.2f} ms, max {latencies[-1]:.2f} ms; per keystroke {result['out'] / KEYSTROKES:.1f} B sent, "
                  f"{result['in'] / KEYSTROKES:.1f} B received, {result['frames'] / KEYSTROKES:.2f} frames", flush=True)
        if worst > LIMIT:
            print(f"keystroke bench: p99 {worst:.2f} ms is above {LIMIT} ms")
            return 1
        return 0
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(5)


if __name__ == "__main__":
    sys.exit(main())
