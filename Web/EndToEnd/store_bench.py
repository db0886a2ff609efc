#!/usr/bin/env python3
"""The store's benchmark and fault run (issue 42): two `todo-web` instances on one PostgreSQL (a
private cluster of Debian's package), and many tabs on them, as raw WebSocket clients.

Phases, each printed as it ends:
  latency  N tabs open, half on each instance. A writer tab on the first instance adds a to-do,
           W times, one a second; for every tab, the time from the add's Enter to the frame that
           draws the new row in it: p50/p99 for the tabs on the writer's instance and for those
           on the other one (a NOTIFY away), and each instance's CPU per add.
  fault    T tabs typing to-dos (a title a character at a time, then Enter, then the next), half
           on each instance; PostgreSQL stopped (fast shutdown) for D seconds in the middle. Each
           add's outcome as its tab saw it: drawn in the list, or refused with a dialog (its title
           given back to the field), or neither. Then the database is read: every add a tab saw
           drawn must be in it (nothing acknowledged lost); what a refused add left; and how long
           after PostgreSQL was back every tab drew a new row (a probe added once it is back).
  flip     a to-do added first, then N tabs opened on it, half on each instance (each draws the
           row from its page, so the server keeps it one element in most of them: issue 60's
           unmade rows). A writer tab on the first instance ticks and clears its checkbox, W
           times, one a second; for every tab, the time from the flip to the frame that sets the
           box's `checked` in it (p50/p99 per instance), and each instance's CPU per flip.
  kill     the same typing tabs; the second instance killed with -9 in the middle and started
           again; its tabs open again on the first (nginx's failover, without nginx). Every add a
           tab saw drawn must be in the database.

Usage:
  store_bench.py TODO_WEB [--tabs N] [--writes W] [--typing T] [--down D] [--workers K]
                 [--phases latency,flip,fault,kill] [--network] [--read-times] [--client-idle]
A frame's arrival (latency and flip) is when the kernel received its bytes (SO_TIMESTAMPNS), not
when the client (Python, on the cores the servers use) got round to reading it; the read times of
the same frames are printed beside them (--read-times: only those, as before 2026-12-06). With
--client-idle, the client runs at idle priority (SCHED_IDLE): the closest a 2-core machine comes
to tabs on other machines. A client that reads a frame more than half a second after it arrived
fails the run (a read that took two changes' frames stamps both with the later's time).
With --network (root), each instance runs in a network namespace of its own, a host reached over a
veth link, and reaches PostgreSQL over that link, as instances on two machines would.
Exit status 1 when an add a tab saw drawn is missing from the database, or a tab never drew a
row it should have.
"""
import argparse
import asyncio
import json
import multiprocessing
import os
import re
import resource
import signal
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import postgres_cluster  # noqa: E402
from tabs_bench import Socket, connect, upgrade, percentile, cpu_seconds, free_port, source_address  # noqa: E402

REFUSED = "Could not add the to-do"
UNAVAILABLE = "database is unavailable"
TOKEN = re.compile(r"\b(z[0-9a-z]+q)\b")
# A row's checkbox, in a page or in a frame's HTML (`<` and quotes escaped there): its id and its row's title.
BOX = re.compile(r'(?:<|\\u003c)input id=\\?"([^"\\]+)\\?" aria-label=\\?"(z[0-9a-z]+q)\\?" class=\\?"row-toggle')
# A checkbox's `checked` set or cleared: the attribute patch's element id.
CHECKED = re.compile(r'\["a",\s*"([^"]+)",\s*"checked",')


class TodoTab:
    """A tab of `todo-web`: its page, its WebSocket, the new to-do field; what it reads notes
    when each title (a token z…q) is first drawn, refusals, and the unavailable notice."""

    def __init__(self, host, port, source, boxes=False, stamp=False):
        self.host, self.port, self.source = host, port, source
        self.watches_boxes = boxes   # (the flip phase: other phases' frames are not searched for boxes)
        self.stamp = stamp           # frames' arrival as the kernel received them (Socket.stamp_arrivals)
        self.ws = None
        self.field = None
        self.number = 0
        self.drawn = {}          # token -> monotonic time its row was first drawn
        self.drawn_read = {}     # token -> when this process read that frame (later, with `stamp`)
        self.boxes = {}          # token -> the id of its row's checkbox, as this tab was sent it
        self.checked = []        # (box id, monotonic time, read time) for each `checked` set or cleared
        self.refusals = []       # monotonic times a refusal dialog came
        self.told_unavailable = False
        self.closed = asyncio.Event()

    async def open(self):
        self.closed.clear()
        self.ws = None   # (a page's rows are noted at the time they are read)
        http = await connect(self.port, self.source, self.host)
        http.transport.write(f"GET / HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nConnection: close\r\n\r\n".encode())
        page = (await http.read_until_closed()).decode(errors="replace")
        session = re.search(r'data-session="(\w+)"', page)
        if not session:
            raise ConnectionError(f"no page: {page[:120]!r}")
        cookie = re.search(r"(?im)^set-cookie: *(mvvm_browser=[0-9a-f]+)", page)
        self.field = re.search(r'<input id="(e\d+)" aria-label="New to-do"', page).group(1)
        self.note(page, ["c", "page", page])
        self.ws = await upgrade(self.port, self.source, cookie.group(1) if cookie else None, self.host)
        self.number = 0
        if self.stamp:
            self.ws.stamp_arrivals()
        self.ws.send_text(json.dumps({"t": "hello", "s": session.group(1), "q": 0}))
        # Frames are read as they arrive (`Socket.on_frames`), not by a task awaiting each.
        self.ws.on_closed = self.closed.set
        self.ws.on_frames = self.take
        early = self.ws.frames()
        if early:
            self.take(early)
        if self.ws.closed:
            self.closed.set()

    def note(self, text, op):
        # When the bytes reached this process (not when this tab's turn came).
        now = self.ws.arrived if self.ws and self.ws.arrived else time.monotonic()
        read = self.ws.read_arrived if self.ws and self.ws.read_arrived else now
        if self.watches_boxes:
            if "row-toggle" in text:
                for box, token in BOX.findall(text):
                    self.boxes.setdefault(token, box)
            if '"checked"' in text:
                self.checked.extend((box, now, read) for box in CHECKED.findall(text))
        for token in TOKEN.findall(text):
            # A row drawn: any op but a field's value ('v': the title given back after a refusal).
            if op[0] != "v" and token not in self.drawn:
                self.drawn[token] = now
                self.drawn_read[token] = read

    def take(self, payloads):
        try:
            for payload in payloads:
                # The common frame (a row drawn, nothing refused, no field's value): its tokens
                # read from the text as it came, without parsing it, so that the client's own CPU
                # (on the cores the servers use) delays the times it notes as little as it can.
                text = payload if isinstance(payload, str) else payload.decode(errors="replace")
                if '["v"' not in text and REFUSED not in text and UNAVAILABLE not in text:
                    self.note(text, ["o"])
                    continue
                for op in json.loads(payload).get("o", []):
                    text = json.dumps(op, ensure_ascii=False)
                    if REFUSED in text:
                        self.refusals.append(time.monotonic())
                        dialog = re.search(r'id="(e\d+)"[^>]*class="[^"]*dialog', op[2] if len(op) > 2 and isinstance(op[2], str) else "")
                        if dialog:   # closed as Escape closes it
                            self.send({"t": "c", "id": dialog.group(1)})
                    if UNAVAILABLE in text:
                        self.told_unavailable = True
                    self.note(text, op)
        except (ConnectionError, OSError):
            self.closed.set()

    def send(self, message):
        if self.ws.closed:   # (uvloop's transport raises RuntimeError on a write once closed)
            raise ConnectionError("the tab's socket is closed")
        self.number += 1
        message["n"] = self.number
        self.ws.send_text(json.dumps(message))

    async def type_and_add(self, title, per_key):
        for end in range(1, len(title) + 1):
            self.send({"t": "i", "id": self.field, "v": title[:end]})
            await asyncio.sleep(per_key)
        self.send({"t": "s", "id": self.field})

    async def outcome(self, token, refusals_before, timeout):
        """'drawn', 'refused' or 'none' (nothing within `timeout` seconds, or the socket closed)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if token in self.drawn:
                return "drawn"
            if len(self.refusals) > refusals_before:
                return "refused"
            if self.closed.is_set():
                return "none"
            await asyncio.sleep(0.02)
        return "none"


# --- worker processes ------------------------------------------------------------------------

def source_for(index, instance, network):
    """The address a tab connects from: many loopback addresses (50 tabs each), or on a network,
    one of twenty addresses of this host on the instance's link (10 tabs each)."""
    return f"10.231.{instance + 1}.{10 + (index // 2) % 20}" if network else source_address(index)


async def worker_main(conn, targets, indices, network, boxes, stamp):
    tabs = {i: TodoTab(*targets[i % 2], source_for(i, i % 2, network), boxes, stamp) for i in indices}
    while True:
        command = conn.recv()
        kind = command[0]
        if kind == "open":
            semaphore = asyncio.Semaphore(32)
            failures = [0]

            async def open_one(tab):
                async with semaphore:
                    for _ in range(5):
                        try:
                            await tab.open()
                            return
                        except (OSError, ConnectionError, AttributeError):
                            await asyncio.sleep(0.3)
                    failures[0] += 1
            await asyncio.gather(*(open_one(t) for t in tabs.values()))
            conn.send(("opened", sum(1 for t in tabs.values() if t.ws and not t.ws.closed), failures[0]))
        elif kind == "wait":
            # Serve the sockets (read frames) for `seconds`, then report what each tab drew.
            await asyncio.sleep(command[1])
            conn.send(("drawn", {i: dict(t.drawn) for i, t in tabs.items()}, {i: dict(t.drawn_read) for i, t in tabs.items()}))
        elif kind == "flipped":
            # Serve the sockets for `seconds`, then report each tab's times its box of `token`
            # was set or cleared.
            _, seconds, token = command
            await asyncio.sleep(seconds)
            conn.send(("flipped", {i: [(at, read) for box, at, read in t.checked if box == t.boxes.get(token)] if token in t.boxes else None
                                   for i, t in tabs.items()}))
        elif kind == "type":
            # Every tab types to-dos until `until` (wall clock); `failover` maps a dead instance
            # to a live one: a tab whose socket closed opens again there.
            _, until, per_key, pause, failover = command
            adds = []   # (tab, token, outcome, sent at)

            async def typist(i, tab):
                k = 0
                await asyncio.sleep((i % 50) * 0.02)
                while time.time() < until:
                    # (A tab that never opened, or whose socket closed, opens again first: typing
                    # into it would fail at once, again and again.)
                    if tab.closed.is_set() or tab.ws is None or tab.ws.closed:
                        instance = failover.get(i % 2, i % 2)
                        tab.host, tab.port = targets[instance]
                        tab.source = source_for(i, instance, network)
                        try:
                            await tab.open()
                        except (OSError, ConnectionError, AttributeError):
                            await asyncio.sleep(0.5)
                            continue
                    k += 1
                    token = f"z{i}n{k}q"
                    before = len(tab.refusals)
                    sent = time.monotonic()
                    try:
                        await tab.type_and_add(token, per_key)
                    except (OSError, ConnectionError, AttributeError):
                        adds.append((i, token, "none", sent))
                        continue
                    result = await tab.outcome(token, before, 40)
                    adds.append((i, token, result, sent))
                    await asyncio.sleep(pause)
            await asyncio.gather(*(typist(i, t) for i, t in tabs.items()))
            conn.send(("typed", adds, {i: t.told_unavailable for i, t in tabs.items()}))
        elif kind == "close":
            for tab in tabs.values():
                if tab.ws:
                    tab.ws.transport.close()
            conn.send(("closed",))
            return


def worker(conn, targets, indices, network, boxes, stamp, idle):
    if idle:
        # The tabs' client runs only when nothing else wants a core (SCHED_IDLE): on the two
        # cores both instances and PostgreSQL use, the closest this machine has to a client on
        # other cores. Its arrival times are then the kernel's (`stamp`), not its late reads.
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    # uvloop, where installed (pip install uvloop), spends a fraction of asyncio's CPU on each
    # socket's read: the tabs' client shares the two cores with both instances and PostgreSQL.
    try:
        import uvloop
        uvloop.run(worker_main(conn, targets, indices, network, boxes, stamp))
    except ImportError:
        asyncio.run(worker_main(conn, targets, indices, network, boxes, stamp))


class Clients:
    def __init__(self, servers, count, workers, boxes=False, stamp=False, idle=False):
        self.pipes, self.processes = [], []
        targets = [(s.host, s.port) for s in servers]
        network = servers[0].netns is not None
        for w in range(workers):
            parent, child = multiprocessing.Pipe()
            process = multiprocessing.Process(target=worker, args=(child, targets, list(range(w, count, workers)), network, boxes, stamp, idle), daemon=True)
            process.start()
            self.pipes.append(parent)
            self.processes.append(process)

    def send(self, *command):
        for pipe in self.pipes:
            pipe.send(command)

    def receive(self):
        return [pipe.recv() for pipe in self.pipes]

    def ask(self, *command):
        self.send(*command)
        return self.receive()

    def close(self):
        try:
            self.ask("close")
        except (EOFError, BrokenPipeError):
            pass
        for process in self.processes:
            process.join(5)


# --- the servers -----------------------------------------------------------------------------

class TodoWeb:
    """An instance of `todo-web`; with `netns`, run in that network namespace (a host of its own)."""

    def __init__(self, binary, database, port, sessions, host="127.0.0.1", netns=None):
        self.binary, self.database, self.port, self.sessions = binary, database, port, sessions
        self.host, self.netns = host, netns
        self.start()

    def start(self):
        self.log = open(f"/tmp/store-bench-{self.port}.log", "a")
        prefix = ["ip", "netns", "exec", self.netns] if self.netns else []
        self.process = subprocess.Popen(prefix + [self.binary, "--host", self.host, "--port", str(self.port), "--database", self.database,
                                                  "--max-sessions", str(self.sessions)], stdout=self.log, stderr=self.log)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if urllib.request.urlopen(f"http://{self.host}:{self.port}/health", timeout=2).status == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"todo-web did not start on {self.port} (see /tmp/store-bench-{self.port}.log)")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Network:
    """Two network namespaces, two hosts: each joined to this one by a veth pair, this side
    10.231.K.1 (PostgreSQL listens there) and 10.231.K.10–29 (the tabs' addresses), the
    namespace's side 10.231.K.2 (its instance). Needs root and `ip`."""

    def __init__(self):
        self.namespaces = []
        for k in (1, 2):
            name = f"storebench{k}"
            subprocess.run(["ip", "netns", "del", name], stderr=subprocess.DEVNULL)
            self.namespaces.append(name)
            here, there = f"sb{k}h", f"sb{k}n"
            for command in (["ip", "netns", "add", name],
                            ["ip", "link", "add", here, "type", "veth", "peer", "name", there],
                            ["ip", "link", "set", there, "netns", name],
                            *(["ip", "addr", "add", f"10.231.{k}.{a}/24", "dev", here] for a in [1] + list(range(10, 31))),
                            ["ip", "link", "set", here, "up"],
                            ["ip", "netns", "exec", name, "ip", "addr", "add", f"10.231.{k}.2/24", "dev", there],
                            ["ip", "netns", "exec", name, "ip", "link", "set", there, "up"],
                            ["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"]):
                subprocess.run(command, check=True)

    def remove(self):
        for name in self.namespaces:   # the veth pair goes with its namespace
            subprocess.run(["ip", "netns", "del", name], stderr=subprocess.DEVNULL)


def stats(values, drawn="rows drawn"):
    values = [v * 1000 for v in values]
    return f"p50 {percentile(values, 50):.1f} ms, p99 {percentile(values, 99):.1f} ms, max {max(values):.1f} ms ({len(values)} {drawn})"


def print_arrivals(args, near, far, near_read, far_read, failures, drawn="rows drawn"):
    """Each instance's times to its tabs' frames; with kernel times, also as the client read them
    (the same frames: how much later its own turn on the shared cores came). A kernel time is
    that of the last segment a read returned: a client so late that one read took frames of two
    changes (a second apart) would stamp the first with the second's time, so a lag of half a
    second fails the run."""
    names = ("the writer's instance:", "the other instance:   ")
    when = " (arrived: the kernel's receive time)" if args.kernel_times else ""
    for name, times in zip(names, (near, far)):
        if times:
            print(f"  {name} {stats(times, drawn)}{when}", flush=True)
    if args.kernel_times:
        for name, read in zip(names, (near_read, far_read)):
            if read:
                print(f"  {name} {stats(read, drawn)} (as read by the client{', at idle priority' if args.client_idle else ''})", flush=True)
        lag = max((r - k for r, k in zip(near_read + far_read, near + far)), default=0.0)
        if lag > 0.5:
            failures.append(f"the client read a frame {lag:.2f} s after the kernel received it: its kernel times are not "
                            "reliable (a read may have taken frames of two changes)")


class Writer:
    """One tab of its own on `port` that adds to-dos, on an event loop of its own (run only while
    it adds: frames wait in the socket meanwhile)."""

    def __init__(self, server, boxes=False):
        self.loop = asyncio.new_event_loop()
        self.server = server
        self.boxes = boxes
        self.tab = None

    def add(self, title, timeout=30):
        """The monotonic time of the add's Enter, and its outcome ('drawn', 'refused', 'none')."""
        return self.loop.run_until_complete(self._add(title, timeout))

    async def _add(self, title, timeout):
        if self.tab is None or self.tab.closed.is_set():
            source = "10.231.1.30" if self.server.netns else "127.0.0.2"
            self.tab = TodoTab(self.server.host, self.server.port, source, self.boxes)
            await self.tab.open()
            await asyncio.sleep(0.2)
        before = len(self.tab.refusals)
        self.tab.send({"t": "i", "id": self.tab.field, "v": title})
        await asyncio.sleep(0.05)
        sent = time.monotonic()
        self.tab.send({"t": "s", "id": self.tab.field})
        return sent, await self.tab.outcome(title, before, timeout)

    def flip(self, token, on):
        """Ticks (or clears) the checkbox of the row `token` this tab drew; the monotonic time sent."""
        return self.loop.run_until_complete(self._flip(token, on))

    async def _flip(self, token, on):
        box = self.tab.boxes[token]
        sent = time.monotonic()
        self.tab.send({"t": "g", "id": box, "v": "true" if on else "false"})
        await asyncio.sleep(0.05)   # (its own frames read meanwhile)
        return sent

    def close(self):
        if self.tab and self.tab.ws:
            self.tab.ws.transport.close()
        self.loop.run_until_complete(asyncio.sleep(0.1))
        self.loop.close()


def latency_phase(args, servers, failures):
    print(f"== latency: {args.tabs} tabs ({args.tabs // 2} on each instance), {args.writes} adds through a tab on the first", flush=True)
    clients = Clients(servers, args.tabs, args.workers, stamp=args.kernel_times, idle=args.client_idle)
    try:
        opened = clients.ask("open")
        print(f"  tabs open: {sum(o[1] for o in opened)} of {args.tabs} ({sum(o[2] for o in opened)} failed to open)", flush=True)
        clients.send("wait", args.writes * 1.0 + 8)
        sent = {}
        cpu_before = [cpu_seconds(s.process.pid) for s in servers]
        client_before = sum(cpu_seconds(p.pid) for p in clients.processes)
        writer = Writer(servers[0])
        for w in range(args.writes):
            token = f"z{w}w{os.getpid()}q"
            at, result = writer.add(token)
            sent[token] = at
            if result != "drawn":
                failures.append(f"latency: the writer's add {token} was {result}")
            time.sleep(max(0.0, 1.0 - (time.monotonic() - at)))
        writer.close()
        cpu = [cpu_seconds(s.process.pid) - b for s, b in zip(servers, cpu_before)]
        client_cpu = sum(cpu_seconds(p.pid) for p in clients.processes) - client_before
        drawn, drawn_read = {}, {}
        for answer in clients.receive():
            drawn.update(answer[1])
            drawn_read.update(answer[2])
        near, far, near_read, far_read, missing = [], [], [], [], 0
        for i, seen in drawn.items():
            for token, at in sent.items():
                if token in seen:
                    (near if i % 2 == 0 else far).append(seen[token] - at)
                    (near_read if i % 2 == 0 else far_read).append(drawn_read[i][token] - at)
                else:
                    missing += 1
        print_arrivals(args, near, far, near_read, far_read, failures)
        print(f"  server CPU per add (both instances, every tab's patch included): {cpu[0] / args.writes * 1000:.1f} ms and {cpu[1] / args.writes * 1000:.1f} ms", flush=True)
        print(f"  the tabs' client CPU per add (on the same cores): {client_cpu / args.writes * 1000:.1f} ms", flush=True)
        if missing:
            failures.append(f"latency: {missing} rows never drawn in a tab")
            print(f"  NOT DRAWN: {missing} (tab, add) pairs", flush=True)
    finally:
        clients.close()


def flip_phase(args, servers, failures):
    print(f"== flip: a to-do, then {args.tabs} tabs on it ({args.tabs // 2} on each instance); its checkbox "
          f"ticked and cleared {args.writes} times through a tab on the first", flush=True)
    writer = Writer(servers[0], boxes=True)
    token = f"zflip{os.getpid()}q"
    _, result = writer.add(token)
    if result != "drawn" or token not in writer.tab.boxes:
        failures.append(f"flip: the writer's add was {result}, its checkbox {'seen' if token in writer.tab.boxes else 'not seen'}")
        writer.close()
        return
    clients = Clients(servers, args.tabs, args.workers, boxes=True, stamp=args.kernel_times, idle=args.client_idle)
    try:
        opened = clients.ask("open")
        print(f"  tabs open: {sum(o[1] for o in opened)} of {args.tabs} ({sum(o[2] for o in opened)} failed to open)", flush=True)
        clients.send("flipped", args.writes * 1.0 + 8, token)
        sent = []
        cpu_before = [cpu_seconds(s.process.pid) for s in servers]
        for w in range(args.writes):
            at = writer.flip(token, w % 2 == 0)
            sent.append(at)
            time.sleep(max(0.0, 1.0 - (time.monotonic() - at)))
        cpu = [cpu_seconds(s.process.pid) - b for s, b in zip(servers, cpu_before)]
        writer.close()
        flipped = {}
        for answer in clients.receive():
            flipped.update(answer[1])
        near, far, near_read, far_read, missing, unseen = [], [], [], [], 0, 0
        for i, times in flipped.items():
            if times is None:
                unseen += 1
                continue
            # A flip a second: the k-th `checked` a tab was sent is the k-th flip's.
            for k, at in enumerate(sent):
                if k < len(times):
                    (near if i % 2 == 0 else far).append(times[k][0] - at)
                    (near_read if i % 2 == 0 else far_read).append(times[k][1] - at)
                else:
                    missing += 1
        print_arrivals(args, near, far, near_read, far_read, failures, "flips drawn")
        print(f"  server CPU per flip (both instances, every tab's patch included): {cpu[0] / args.writes * 1000:.1f} ms and "
              f"{cpu[1] / args.writes * 1000:.1f} ms", flush=True)
        if unseen:
            failures.append(f"flip: {unseen} tabs were not sent the row's checkbox")
        if missing:
            failures.append(f"flip: {missing} (tab, flip) pairs never drawn")
            print(f"  NOT DRAWN: {missing} (tab, flip) pairs", flush=True)
    finally:
        clients.close()


def typing_phase(args, servers, cluster, failures, fault):
    name = "fault" if fault == "postgres" else "kill"
    what = (f"PostgreSQL stopped for {args.down:g} s" if fault == "postgres"
            else "the second instance killed with -9, started again 5 s later")
    print(f"== {name}: {args.typing} tabs typing to-dos ({args.typing // 2} on each instance); {what}", flush=True)
    clients = Clients(servers, args.typing, args.workers)
    try:
        opened = clients.ask("open")
        print(f"  tabs open: {sum(o[1] for o in opened)} of {args.typing}", flush=True)
        if sum(o[1] for o in opened) < args.typing:
            failures.append(f"{name}: {args.typing - sum(o[1] for o in opened)} tabs did not open (the servers' logs say why: "
                            f"/tmp/store-bench-<port>.log)")
        start = time.time()
        lead, tail = 8.0, 10.0
        until = start + lead + (args.down if fault == "postgres" else 5.0) + tail
        failover = {1: 0} if fault == "kill" else {}
        clients.send("type", until, 0.05, args.pause, failover)
        time.sleep(lead)
        back_at = None
        if fault == "postgres":
            stopped = time.monotonic()
            cluster.stop()
            time.sleep(max(0.0, args.down - (time.monotonic() - stopped)))
            cluster.start()
            back_at = time.monotonic()
            print(f"  PostgreSQL was down {back_at - stopped:.1f} s", flush=True)
        else:
            servers[1].kill()
            time.sleep(5)
            servers[1].start()
        # A probe added once PostgreSQL (or the instance) is back: how long until every tab drew it.
        probe, probe_at = None, None
        if back_at is not None:
            writer = Writer(servers[0])
            for attempt in range(100):
                token = f"zprobe{attempt}q"
                at, result = writer.add(token, timeout=10)
                if result == "drawn":
                    probe, probe_at = token, at
                    break
                time.sleep(0.2)
            writer.close()
        typed = clients.receive()
        adds = [a for answer in typed for a in answer[1]]
        told = sum(1 for answer in typed for v in answer[2].values() if v)
        drawn = {}
        for answer in clients.ask("wait", 3):
            drawn.update(answer[1])
        rows = set(cluster.psql("SELECT title FROM todos").split("\n"))
        counts = {o: sum(1 for a in adds if a[2] == o) for o in ("drawn", "refused", "none")}
        lost = [a[1] for a in adds if a[2] == "drawn" and a[1] not in rows]
        refused_saved = [a[1] for a in adds if a[2] == "refused" and a[1] in rows]
        none_saved = [a[1] for a in adds if a[2] == "none" and a[1] in rows]
        print(f"  adds: {len(adds)}; drawn (kept) {counts['drawn']}, refused with a message {counts['refused']}, "
              f"no answer {counts['none']} (of those in the database: {len(none_saved)})", flush=True)
        print(f"  acknowledged (drawn) but not in the database: {len(lost)}", flush=True)
        print(f"  refused but in the database (a timed-out write the server committed): {len(refused_saved)}", flush=True)
        if fault == "postgres":
            print(f"  tabs told the database was unavailable: {told} of {args.typing}", flush=True)
        ours = {a[1] for a in adds} & rows
        behind = sum(1 for seen in drawn.values() for token in ours if token not in seen)
        print(f"  rows in the database a tab never drew: {behind}", flush=True)
        if probe:
            waits = [seen[probe] - back_at for seen in drawn.values() if probe in seen]
            print(f"  after PostgreSQL was back: the probe committed {probe_at - back_at:.2f} s later; drawn in "
                  f"{len(waits)} of {len(drawn)} tabs, the last {max(waits):.2f} s after (p50 {percentile(waits, 50):.2f} s)", flush=True)
            if len(waits) < len(drawn):
                failures.append(f"{name}: the probe was never drawn in {len(drawn) - len(waits)} tabs")
        elif back_at is not None:
            failures.append(f"{name}: no add was kept after PostgreSQL came back")
        if lost:
            failures.append(f"{name}: {len(lost)} adds drawn but not in the database: {lost[:5]}")
        if behind:
            failures.append(f"{name}: {behind} (tab, row) pairs never drawn")
        if counts["none"] - len(none_saved) and fault == "postgres":
            print(f"  adds with no answer and not in the database: {counts['none'] - len(none_saved)}", flush=True)
    finally:
        clients.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("todo_web")
    parser.add_argument("--tabs", type=int, default=1000)
    parser.add_argument("--writes", type=int, default=20)
    parser.add_argument("--typing", type=int, default=100)
    parser.add_argument("--down", type=float, default=10.0)
    parser.add_argument("--pause", type=float, default=2.0, help="seconds a typing tab waits after an add's answer")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--phases", default="latency,flip,fault,kill")
    parser.add_argument("--read-times", action="store_true",
                        help="a frame's arrival is when the client read it (as before 2026-12-06), not the kernel's "
                             "receive time of its bytes (SO_TIMESTAMPNS; both are printed then)")
    parser.add_argument("--client-idle", action="store_true",
                        help="the tabs' client runs at idle priority (SCHED_IDLE): it reads only while the servers and "
                             "PostgreSQL leave a core free")
    parser.add_argument("--network", action="store_true",
                        help="each instance on a host of its own (a network namespace), PostgreSQL reached over a veth link")
    args = parser.parse_args()
    if args.client_idle and args.read_times:
        # (An idle client reads after the servers are done: its read times measure its own wait.)
        parser.error("--client-idle needs the kernel's receive times: not with --read-times")
    args.kernel_times = not args.read_times
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    network = Network() if args.network else None
    failures = []
    servers = []
    cluster = None
    try:
        # Each instance's limit on sessions, of which one client address may hold a quarter: a
        # phase's tabs come 25 to an instance from each address, and the last phase's are still in
        # their grace period, so an address may hold 50 of an instance's sessions.
        sessions = max(args.tabs, args.typing, 4 * 50) + 50
        if network:
            cluster = postgres_cluster.PostgresCluster(listen="10.231.1.1,10.231.2.1", clients=("10.231.0.0/16",))
            servers = [TodoWeb(args.todo_web, cluster.url_at(f"10.231.{k}.1"), free_port(), sessions,
                               host=f"10.231.{k}.2", netns=network.namespaces[k - 1]) for k in (1, 2)]
            print(f"two hosts (network namespaces {', '.join(network.namespaces)}), PostgreSQL on 10.231.1.1 and 10.231.2.1", flush=True)
        else:
            cluster = postgres_cluster.PostgresCluster()
            servers = [TodoWeb(args.todo_web, cluster.url, free_port(), sessions) for _ in range(2)]
        phases = args.phases.split(",")
        if "latency" in phases:
            latency_phase(args, servers, failures)
        if "flip" in phases:
            flip_phase(args, servers, failures)
        if "fault" in phases:
            typing_phase(args, servers, cluster, failures, "postgres")
        if "kill" in phases:
            typing_phase(args, servers, cluster, failures, "kill")
    finally:
        for server in servers:
            server.stop()
        if cluster:
            cluster.remove()
        if network:
            network.remove()
    for failure in failures:
        print(f"FAILED: {failure}", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
