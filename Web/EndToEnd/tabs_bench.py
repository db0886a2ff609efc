#!/usr/bin/env python3
"""The tabs benchmark (issue 41): many browser tabs on one `showcase --web`, and a bare WebSocket
echo on Hummingbird 2 (Benchmarks/Echo) measured the same way in the same run.

A tab is what a person's tab costs the server: GET / (the launcher, a new session and its
cookie), the WebSocket and its hello, and a click into Flickr search; then it types into the
search field. Each keystroke is an input message; its latency is from sending it to the frame
that acknowledges it. The server's CPU is read from /proc (user + system time of its process),
so the client's own CPU (Python, on the same machine) is not counted in it.

Phases, each printed as it ends:
  one tab     one tab typing (a keystroke, its acknowledgement, the next), echo alike
  open        N tabs opened, then idle: the server's memory per tab (RSS growth / N)
  one among   one more tab typing 200 keys a second while the N stay open and idle:
              keystroke p50/p99 (the echo alike)
  typing      every tab typing RATE keys a second for SECONDS: server CPU per edit,
              keystroke p50/p99; the echo with N connections at the same rate
  saturation  every tab typing as fast as its acknowledgements come: edits a second, and the
              server's CPU then (100% = one core)

Usage:
  tabs_bench.py SHOWCASE [--tabs N] [--rate R] [--seconds S] [--workers W] [--echo ECHO]
                [--rounds R] [--budget-ratio X] [--budget-kb K]
With --echo, the echo's figures are printed beside the showcase's and the ratios computed (CPU
per edit, keystroke p99). The echo's connections are opened first and stay open, and the typing
phase is cut into R windows (--rounds, 4 unless told; 1: one phase each), the showcase's and the
echo's taken in turn, so that a stall of the machine (another process, the kernel's own threads)
falls on both alike rather than on one server's whole phase. With --budget-ratio or
--budget-kb, it exits 1 when the CPU per edit (with every tab typing) is over X times the echo's
per message, or the memory per tab over K KB (CI's regression gate).
"""
import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def cpu_seconds(pid):
    """User + system time of process `pid` so far, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def source_address(index):
    """Tabs come from many loopback addresses (50 each), as many users would: one address may
    hold a quarter of the server's sessions."""
    block = index // 50
    return f"127.{10 + block // 250}.{block % 250}.1"


# --- the client: one asyncio loop per worker process ----------------------------------------

class Socket(asyncio.Protocol):
    """A WebSocket client connection (text frames), or, before the upgrade, raw HTTP."""

    def __init__(self):
        self.buffer = b""
        self.waiter = None
        self.closed = False
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport
        transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    arrived = None   # time.monotonic() of the last bytes received
    # Given each batch of whole text frames as it arrives, in place of a reader that awaits
    # `more()`: no task woken for each frame, so that a client of a thousand tabs spends less of
    # the cores it shares with the servers it measures. Pings are answered first.
    on_frames = None
    on_closed = None   # called once the connection is lost

    def data_received(self, data, arrived=None):
        self.arrived = arrived or time.monotonic()
        self.buffer += data
        if self.on_frames is not None:
            frames = self.frames()
            if frames:
                self.on_frames(frames)
        elif self.waiter and not self.waiter.done():
            self.waiter.set_result(None)
        elif self.upgraded:
            self.answer_pings()

    upgraded = False

    def pong(self, payload):
        """The pong for a ping: its payload back (RFC 6455 §5.5.3; Hummingbird ignores a pong
        that does not match and closes the connection a ping period later), masked with zeros."""
        if len(payload) <= 125:  # a control frame's most (RFC 6455 §5.5): a broken ping is not answered
            self.transport.write(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)

    def answer_pings(self):
        """Answers the pings received while nobody waits, as a browser does at once (a tab idle
        past a server's ping would otherwise be closed as gone); the other frames stay."""
        kept = b""
        for opcode, payload, frame in self.whole_frames():
            if opcode == 9:
                self.pong(payload)
            else:
                kept += frame
        self.buffer = kept + self.buffer[self.frames_end:]

    def whole_frames(self):
        """Each whole frame at the buffer's start, in order: its opcode, its payload, the whole
        frame; `frames_end` is then where the first incomplete one begins."""
        start = 0
        while len(self.buffer) - start >= 2:
            length, offset = self.buffer[start + 1] & 0x7F, 2
            if length == 126:
                if len(self.buffer) - start < 4:
                    break
                length, offset = int.from_bytes(self.buffer[start + 2:start + 4], "big"), 4
            elif length == 127:
                if len(self.buffer) - start < 10:
                    break
                length, offset = int.from_bytes(self.buffer[start + 2:start + 10], "big"), 10
            if len(self.buffer) - start < offset + length:
                break
            yield self.buffer[start] & 0x0F, self.buffer[start + offset:start + offset + length], self.buffer[start:start + offset + length]
            start += offset + length
        self.frames_end = start

    stamped = None   # the duplicate socket `stamp_arrivals` reads from

    def connection_lost(self, exc):
        if self.stamped is not None:
            stamped, self.stamped = self.stamped, None
            asyncio.get_running_loop().remove_reader(stamped.fileno())
            stamped.close()
        if self.closed:
            return
        self.closed = True
        if self.on_closed is not None:
            self.on_closed()
        if self.waiter and not self.waiter.done():
            self.waiter.set_result(None)

    async def more(self):
        if self.closed:
            raise ConnectionError("closed")
        self.waiter = asyncio.get_running_loop().create_future()
        await self.waiter

    async def read_head(self):
        while b"\r\n\r\n" not in self.buffer:
            await self.more()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        return head.decode(errors="replace")

    async def read_until_closed(self):
        while not self.closed:
            await self.more()
        return self.buffer

    def send_text(self, text):
        data = text.encode()
        mask = os.urandom(4)
        if len(data) < 126:
            head = bytes([0x81, 0x80 | len(data)])
        else:
            head = bytes([0x81, 0x80 | 126]) + len(data).to_bytes(2, "big")
        masked = (int.from_bytes(data, "little") ^ int.from_bytes((mask * (len(data) // 4 + 1))[:len(data)], "little")).to_bytes(len(data), "little")
        self.transport.write(head + mask + masked)

    # The kernel's receive time of the bytes each read returns (SO_TIMESTAMPNS, Linux's value:
    # Python names neither it nor its control message), as a `time.monotonic()` in `arrived`.
    SO_TIMESTAMPNS = 35
    read_arrived = None     # when this process read the last bytes (monotonic clock), when stamped

    def stamp_arrivals(self):
        """From now on, `arrived` is when the kernel received the bytes (the last segment of each
        read), not when this process got round to reading them: a client that shares its cores
        with the servers it measures then notes a frame's arrival as a client on other cores
        would, however late it reads it. Reads go through `recvmsg` on a duplicate of the
        socket (the transport's own reads are paused); `read_arrived` keeps the process's time."""
        sock = self.transport.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, self.SO_TIMESTAMPNS, 1)
        self.transport.pause_reading()
        self.stamped = socket.socket(fileno=os.dup(sock.fileno()))
        self.stamped.setblocking(False)
        asyncio.get_running_loop().add_reader(self.stamped.fileno(), self._read_stamped)

    def _read_stamped(self):
        try:
            data, ancillary, _, _ = self.stamped.recvmsg(262144, socket.CMSG_SPACE(16))
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data, ancillary = b"", []
        if not data:
            self.transport.close()
            self.connection_lost(None)
            return
        now = time.monotonic()
        self.read_arrived = now
        arrived = now   # (no stamp: the read's own time)
        for level, kind, blob in ancillary:
            if level == socket.SOL_SOCKET and kind == self.SO_TIMESTAMPNS and len(blob) >= 16:
                seconds, nanoseconds = int.from_bytes(blob[:8], "little", signed=True), int.from_bytes(blob[8:16], "little", signed=True)
                arrived = seconds + nanoseconds / 1e9 - (time.time() - now)   # the real-time stamp on the monotonic clock
        self.data_received(data, arrived)

    def frames(self):
        """The whole text frames received so far (taken out of the buffer); pings answered."""
        out = []
        for opcode, payload, _ in self.whole_frames():
            if opcode == 1:
                out.append(payload)
            elif opcode == 9:  # ping: answer it, as a browser does
                self.pong(payload)
        self.buffer = self.buffer[self.frames_end:]
        return out


async def connect(port, source, host="127.0.0.1"):
    loop = asyncio.get_running_loop()
    _, protocol = await loop.create_connection(Socket, host, port, local_addr=(source, 0))
    return protocol


async def upgrade(port, source, cookie=None, host="127.0.0.1"):
    ws = await connect(port, source, host)
    key = base64.b64encode(os.urandom(16)).decode()
    cookie_line = f"Cookie: {cookie}\r\n" if cookie else ""
    ws.transport.write((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nOrigin: http://{host}:{port}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n{cookie_line}\r\n").encode())
    head = await ws.read_head()
    if " 101 " not in head.split("\r\n")[0]:
        raise ConnectionError(head[:80])
    ws.upgraded = True
    return ws


class Tab:
    """A tab of the showcase: its page, its WebSocket, the search field it types into."""

    def __init__(self, port, source):
        self.port, self.source = port, source
        self.ws = None
        self.field = None
        self.number = 1
        self.acknowledged = 0
        self.frame = 0
        self.text = ""

    async def open(self):
        http = await connect(self.port, self.source)
        http.transport.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nConnection: close\r\n\r\n".encode())
        page = (await http.read_until_closed()).decode(errors="replace")
        head = page.split("\r\n\r\n", 1)[0] if "\r\n\r\n" in page else ""
        head = head or page[:2000]
        session = re.search(r'data-session="(\w+)"', page)
        if not session:
            raise ConnectionError(f"no page: {page[:120]!r}")
        cookie = re.search(r"(?im)^set-cookie: *(mvvm_browser=[0-9a-f]+)", page)
        row = re.search(r'<li id="(e\d+)"[^>]*><div[^>]*><(?:span|a)[^>]*class="title"[^>]*>Flickr search<', page).group(1)
        self.ws = await upgrade(self.port, self.source, cookie.group(1) if cookie else None)
        # The hello names the frame the page was sent as (its body's data-frame), as the
        # page's script does: nothing to catch up on.
        self.frame = int(re.search(r'data-frame="(\d+)"', page).group(1))
        self.ws.send_text(json.dumps({"t": "hello", "s": session.group(1), "q": self.frame}))
        self.ws.send_text(json.dumps({"t": "c", "id": row, "n": 1}))
        while self.field is None:
            await self.ws.more()
            for payload in self.ws.frames():
                frame = json.loads(payload)
                self.frame = max(self.frame, frame.get("s", 0))
                for op in frame.get("o", []):
                    match = re.search(r'<input id="(e\d+)"', op[2]) if op[0] == "c" and isinstance(op[2], str) else None
                    self.field = self.field or (match and match.group(1))
        # As the page's script does a second after frames stop when it has nothing to send:
        # it has applied them, so the server forgets them.
        self.ws.send_text(json.dumps({"t": "a", "q": self.frame}))

    async def keystroke(self):
        """Types one character (or clears the field); the seconds until it is acknowledged."""
        self.number += 1
        self.text = self.text + "a" if len(self.text) < 20 else ""
        number = self.number
        started = time.perf_counter()
        # Each message says which frames the page applied (`q`), as the page's script does.
        self.ws.send_text(f'{{"t":"i","id":"{self.field}","v":"{self.text}","n":{number},"q":{self.frame}}}')
        while self.acknowledged < number:
            await asyncio.wait_for(self.ws.more(), 10)
            for payload in self.ws.frames():
                found = re.search(rb'"a":(\d+)', payload)
                if found:
                    self.acknowledged = max(self.acknowledged, int(found.group(1)))
                frame = re.search(rb'"s":(\d+)', payload)
                if frame:
                    self.frame = max(self.frame, int(frame.group(1)))
        return time.perf_counter() - started


class TodoTab(Tab):
    """A tab of `todo-web` (every session on an executor of its own): GET / (the list, a new
    session), the WebSocket and its hello; it types into the "New to-do" field, or with
    --search-list into the search field (each keystroke filters the list and patches its rows)."""
    search = False

    async def open(self):
        http = await connect(self.port, self.source)
        http.transport.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nConnection: close\r\n\r\n".encode())
        page = (await http.read_until_closed()).decode(errors="replace")
        session = re.search(r'data-session="(\w+)"', page)
        if not session:
            raise ConnectionError(f"no page: {page[:120]!r}")
        cookie = re.search(r"(?im)^set-cookie: *(mvvm_browser=[0-9a-f]+)", page)
        fields = re.findall(r'<input id="(e\d+)"', page)
        # The search field (the second) with --search-list: each keystroke filters the list.
        self.field = fields[1] if TodoTab.search else fields[0]
        self.ws = await upgrade(self.port, self.source, cookie.group(1) if cookie else None)
        # The hello names the frame the page was sent as (its body's data-frame), as the
        # page's script does: nothing to catch up on.
        self.frame = int(re.search(r'data-frame="(\d+)"', page).group(1))
        self.ws.send_text(json.dumps({"t": "hello", "s": session.group(1), "q": self.frame}))
        self.number = 0


class EchoTab:
    """A connection to the echo: a message, its echo, the next."""

    def __init__(self, port, source):
        self.port, self.source = port, source
        self.ws = None
        self.number = 0

    async def open(self):
        self.ws = await upgrade(self.port, self.source)

    async def keystroke(self):
        self.number += 1
        message = f'{{"t":"i","id":"e12","v":"aaaa","n":{self.number}}}'
        started = time.perf_counter()
        self.ws.send_text(message)
        while True:
            if self.ws.frames():
                return time.perf_counter() - started
            await self.ws.more()


async def worker_main(conn, port, indices, kind):
    TodoTab.search = kind == "todo-search"
    tabs = [{"echo": EchoTab, "todo": TodoTab, "todo-search": TodoTab}.get(kind, Tab)(port, source_address(i)) for i in indices]
    while True:
        command = conn.recv()
        if command[0] == "open":
            failures = 0
            semaphore = asyncio.Semaphore(64)

            async def open_one(tab):
                nonlocal failures
                async with semaphore:
                    for attempt in range(3):
                        try:
                            await tab.open()
                            return
                        except (OSError, ConnectionError, AttributeError):
                            await asyncio.sleep(0.2)
                    failures += 1
            await asyncio.gather(*(open_one(tab) for tab in tabs))
            tabs = [tab for tab in tabs if tab.ws and not tab.ws.closed]
            conn.send(("opened", len(tabs), failures))
        elif command[0] == "type":
            _, rate, seconds, start_at = command
            latencies, done, lost = [], [0], [0]
            # Not before every tab's first key is scheduled: a START_AT already past would make
            # the first tabs' keys due at once, a burst those tabs would repeat every second.
            start = time.monotonic() + max(0.2, start_at - time.time())
            deadline = time.time() + (start - time.monotonic()) + seconds

            async def type_one(tab, offset):
                due = start + offset
                await asyncio.sleep(max(0, due - time.monotonic()))
                while time.time() < deadline:
                    try:
                        latencies.append(await tab.keystroke())
                    except (ConnectionError, asyncio.TimeoutError):
                        lost[0] += 1
                        return
                    done[0] += 1
                    if rate:
                        # The next key a second after this one was due, not after it was sent:
                        # a moment's delay does not bunch the tabs it delayed.
                        due = max(due + 1 / rate, time.monotonic())
                        await asyncio.sleep(max(0, due - time.monotonic()))
            await asyncio.gather(*(type_one(tab, (i / max(1, len(tabs))) / rate if rate else 0) for i, tab in enumerate(tabs)))
            conn.send(("typed", done[0], latencies, lost[0]))
        elif command[0] == "close":
            for tab in tabs:
                if tab.ws:
                    tab.ws.transport.close()
            conn.send(("closed",))
            return


def worker(conn, port, indices, kind):
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    asyncio.run(worker_main(conn, port, indices, kind))


class Clients:
    """W worker processes, each with its share of the tabs."""

    def __init__(self, port, count, workers, kind):
        self.pipes, self.processes = [], []
        for w in range(workers):
            parent, child = multiprocessing.Pipe()
            indices = list(range(w, count, workers))
            process = multiprocessing.Process(target=worker, args=(child, port, indices, kind), daemon=True)
            process.start()
            self.pipes.append(parent)
            self.processes.append(process)

    def ask(self, *command):
        for pipe in self.pipes:
            pipe.send(command)
        return [pipe.recv() for pipe in self.pipes]

    def close(self):
        self.ask("close")
        for process in self.processes:
            process.join(5)


class SwiftClients:
    """The same tabs driven by Benchmarks/Echo's TabsClient (Swift on SwiftNIO, one thread):
    a few microseconds of CPU a message, where the Python client takes tens, so that more tabs
    can type than Python can drive on the same cores. Answers as `Clients` does."""
    KINDS = {"tabs": "showcase", "todo": "todo", "todo-search": "todo-search", "echo": "echo"}
    binary = None

    def __init__(self, port, count, kind):
        self.process = subprocess.Popen([SwiftClients.binary, str(port), str(count), self.KINDS[kind]],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, *command):
        self.process.stdin.write(" ".join(str(word) for word in command) + "\n")
        self.process.stdin.flush()
        words = self.process.stdout.readline().split()
        if not words:
            raise SystemExit(f"TabsClient ended (status {self.process.poll()})")
        if words[0] == "opened":
            return [("opened", int(words[1]), int(words[2]))]
        if words[0] == "typed":
            return [("typed", int(words[1]), [float(ms) / 1000 for ms in words[3:]], int(words[2]))]
        return [tuple(words)]

    def close(self):
        self.ask("close")
        self.process.wait(10)


def clients_for(port, count, workers, kind):
    """The Swift client if `--client` named one, otherwise W Python worker processes."""
    return SwiftClients(port, count, kind) if SwiftClients.binary else Clients(port, count, workers, kind)


class Server:
    def __init__(self, command, port, ready_path):
        self.log = open(f"/tmp/tabs-bench-{port}.log", "w")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=self.log)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                    s.sendall(f"GET {ready_path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
                    if s.recv(12).startswith(b"HTTP/1.1 200"):
                        return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"the server did not start: {command}")

    @property
    def pid(self):
        return self.process.pid

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def measure(server, clients, rate, seconds):
    """Every tab typing `rate` keys a second (0: as fast as acknowledged) for `seconds`: edits,
    server CPU seconds, latencies (ms)."""
    start_at = time.time() + 0.5
    time.sleep(max(0, start_at - time.time()))
    cpu_before = cpu_seconds(server.pid)
    wall_before = time.monotonic()
    answers = clients.ask("type", rate, seconds, start_at)
    cpu = cpu_seconds(server.pid) - cpu_before
    wall = time.monotonic() - wall_before
    edits = sum(a[1] for a in answers)
    latencies = [l * 1000 for a in answers for l in a[2]]
    lost = sum(a[3] for a in answers)
    if lost:
        print(f"  ({lost} keystrokes never acknowledged: those tabs stopped typing)", flush=True)
    return edits, cpu, wall, latencies


def measure_in_turn(pairs, rate, seconds, rounds):
    """`measure` cut into `rounds` windows of seconds / rounds, taking the (server, clients) pairs
    in turn in each round: a stall of the machine (another process, the kernel's own threads, a
    neighbour on the host) then falls on each server alike instead of on one server's whole phase.
    For each pair: what `measure` gives, summed over its windows, and the keystroke p99 of each
    of its windows."""
    totals = [[0, 0.0, 0.0, []] for _ in pairs]
    windows = [[] for _ in pairs]
    for _ in range(rounds):
        for total, p99s, (server, clients) in zip(totals, windows, pairs):
            measured = measure(server, clients, rate, seconds / rounds)
            for i, value in enumerate(measured):
                total[i] += value
            p99s.append(percentile(measured[3], 99))
    return [(tuple(total), p99s) for total, p99s in zip(totals, windows)]


def one_among(port, kind, rate=200, seconds=3.0):
    """One more tab typing `rate` keys a second while the others stay open and idle: a
    keystroke's latency on a server that holds them all (the latency a person typing sees when
    the others are reading). Returns its latencies (ms)."""
    clients = clients_for(port, 1, 1, kind)
    try:
        clients.ask("open")
        time.sleep(0.5)
        answers = clients.ask("type", rate, seconds, time.time() + 0.2)
        return [l * 1000 for l in answers[0][2]]
    finally:
        clients.close()


def one_tab(server_command, port, ready, kind, count=2000):
    server = Server(server_command, port, ready)
    try:
        clients = clients_for(port, 1, 1, kind)
        clients.ask("open")
        time.sleep(0.5)
        cpu_before = cpu_seconds(server.pid)
        # 2.5 s: a session takes 1,000 messages a second after a burst of 5,000 (WebSessions.Limits).
        # The Swift client, which would type about 10,000 a second, keeps to 2,000 (Python's
        # makes about 2,400 a second here, a keystroke after each acknowledgement).
        answers = clients.ask("type", 2000 if SwiftClients.binary else 0, 2.5, time.time() + 0.2)
        cpu = cpu_seconds(server.pid) - cpu_before
        edits = answers[0][1]
        latencies = [l * 1000 for l in answers[0][2]]
        clients.close()
        return cpu / max(1, edits) * 1e6, edits, latencies
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("showcase", help="the showcase binary, or todo-web's with --app todo")
    parser.add_argument("--app", choices=["showcase", "todo"], default="showcase",
                        help="showcase: each tab on an executor of its own (Person's on the main actor); "
                             "todo: todo-web, each session on an executor of its own")
    parser.add_argument("--tabs", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--echo", help="the EchoServer binary (Benchmarks/Echo)")
    parser.add_argument("--saturation-seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=4,
                        help="with --echo: every tab typing cut into R windows, the showcase's and the echo's in turn "
                             "(both open at once), so that the machine's stalls fall on both alike; 1: the showcase's whole "
                             "phase, then the echo's")
    parser.add_argument("--main-actor", action="store_true",
                        help="with --app todo: todo-web --main-actor (every session on the main actor), to compare")
    parser.add_argument("--search-list", type=int, default=0,
                        help="with --app todo: a list of N to-dos, and each tab types into the search (a view model with work to do per keystroke)")
    parser.add_argument("--event-loops", type=int,
                        help="the server's --event-loops (how many event loops serve its connections; by default one per core)")
    parser.add_argument("--client", help="Benchmarks/Echo's TabsClient binary: the tabs driven from Swift on SwiftNIO instead of Python")
    parser.add_argument("--budget-ratio", type=float)
    parser.add_argument("--budget-kb", type=float)
    args = parser.parse_args()
    SwiftClients.binary = args.client
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    failures = []
    figures = {}

    kind = ("todo-search" if args.search_list else "todo") if args.app == "todo" else "tabs"
    todo_file = None
    if args.search_list:
        todo_file = f"/tmp/tabs-bench-list-{os.getpid()}.json"
        with open(todo_file, "w") as f:
            json.dump({"todos": [{"id": i + 1, "title": f"to-do {i} " + "a" * (i % 21), "done": i % 3 == 0}
                                 for i in range(args.search_list)]}, f)

    # Every tab, and room for the others' (one more typing, a reconnect); at least 240, since a
    # server gives one address a quarter of its sessions (WebSessions.Limits.sessionsPerAddress)
    # and the tabs come 50 from each loopback address, the one more tab from the first: with
    # 50 tabs and 150 sessions, 13 tabs were refused.
    max_sessions = max(args.tabs + 100, 4 * 60)

    def showcase_command(port):
        loops = ["--event-loops", str(args.event_loops)] if args.event_loops else []
        return server_command(port) + loops

    def server_command(port):
        if args.app == "todo":
            if todo_file:
                # A database file of its own for each server (the import needs one).
                database = f"/tmp/tabs-bench-{port}.sqlite"
                for leftover in (database, database + "-wal", database + "-shm"):
                    if os.path.exists(leftover):
                        os.remove(leftover)
                return [args.showcase, "--port", str(port), "--max-sessions", str(max_sessions), "--database", database, "--todo-file", todo_file] + (
                    ["--main-actor"] if args.main_actor else [])
            return [args.showcase, "--port", str(port), "--max-sessions", str(max_sessions), "--database", ":memory:"] + (
                ["--main-actor"] if args.main_actor else [])
        return [args.showcase, "--web", "--port", str(port), "--max-sessions", str(max_sessions)]

    print(f"== one tab typing (a keystroke, its acknowledgement, the next; 2.5 s)", flush=True)
    port = free_port()
    per_edit, edits, latencies = one_tab(showcase_command(port), port, "/mvvm.css", kind)
    figures["one tab: server CPU per edit"] = per_edit
    print(f"  showcase: {per_edit:.1f} us of server CPU per edit ({edits} edits; keystroke p50 {percentile(latencies, 50):.2f} ms, p99 {percentile(latencies, 99):.2f} ms)", flush=True)
    if args.echo:
        port = free_port()
        echo_per, echo_edits, echo_latencies = one_tab([args.echo, str(port)], port, "/", "echo")
        figures["one tab: echo CPU per message"] = echo_per
        print(f"  echo:     {echo_per:.1f} us of server CPU per message ({echo_edits} messages; p50 {percentile(echo_latencies, 50):.2f} ms, p99 {percentile(echo_latencies, 99):.2f} ms)", flush=True)
        print(f"  ratio:    {per_edit / echo_per:.2f}x", flush=True)

    echo = None
    if args.echo:
        # Opened before the showcase's tabs, and idle while they are measured, so that with
        # --rounds the two can type in turn.
        print(f"== the echo: {args.tabs} connections, each {args.rate:g} messages a second for {args.seconds:g} s", flush=True)
        port = free_port()
        echo_server = Server([args.echo, str(port)], port, "/")
        try:
            time.sleep(0.5)
            before = rss_kb(echo_server.pid)
            echo_clients = clients_for(port, args.tabs, args.workers, "echo")
            answers = echo_clients.ask("open")
            time.sleep(1.0)
            after = rss_kb(echo_server.pid)
            opened = sum(a[1] for a in answers)
            print(f"  opened {opened} connections; echo RSS {before / 1024:.1f} -> {after / 1024:.1f} MiB: {(after - before) / max(1, opened):.1f} KB each", flush=True)
            latencies = one_among(port, "echo")
            print(f"  one more connection sending 200 messages a second while the {opened} stay idle: p50 {percentile(latencies, 50):.2f} ms, "
                  f"p99 {percentile(latencies, 99):.2f} ms ({len(latencies)} messages)", flush=True)
        except BaseException:
            echo_server.stop()
            raise
        echo = (echo_server, echo_clients)

    print(f"== {args.tabs} tabs: open, idle, each typing {args.rate:g} a second for {args.seconds:g} s, then as fast as acknowledged", flush=True)
    port = free_port()
    server = Server(showcase_command(port), port, "/mvvm.css")
    try:
        time.sleep(0.5)
        before = rss_kb(server.pid)
        clients = clients_for(port, args.tabs, args.workers, kind)
        opened_at = time.monotonic()
        answers = clients.ask("open")
        opened = sum(a[1] for a in answers)
        failed = sum(a[2] for a in answers)
        took = time.monotonic() - opened_at
        time.sleep(2.0)
        after = rss_kb(server.pid)
        per_tab = (after - before) / max(1, opened)
        figures["memory per tab (KB)"] = per_tab
        print(f"  opened {opened} tabs in {took:.1f} s ({failed} failed); server RSS {before / 1024:.1f} -> {after / 1024:.1f} MiB: {per_tab:.1f} KB per tab", flush=True)
        if failed:
            failures.append(f"{failed} tabs could not be opened")
        latencies = one_among(port, kind)
        print(f"  one more tab typing 200 keys a second while the {opened} stay idle: keystroke p50 {percentile(latencies, 50):.2f} ms, "
              f"p99 {percentile(latencies, 99):.2f} ms ({len(latencies)} keystrokes)", flush=True)
        if echo and args.rounds > 1:
            ((edits, cpu, wall, latencies), windows), (echo_typed, echo_windows) = measure_in_turn(
                [(server, clients), echo], args.rate, args.seconds, args.rounds)
            print(f"  (in {args.rounds} rounds, the echo's {args.seconds / args.rounds:g} s after each of the showcase's)", flush=True)
            print(f"  keystroke p99 of each window (ms), the showcase's: {' '.join(f'{p:.2f}' for p in windows)}", flush=True)
            print(f"                                     the echo's:     {' '.join(f'{p:.2f}' for p in echo_windows)}", flush=True)
            figures["windows: median p99 ratio"] = statistics.median(windows) / max(statistics.median(echo_windows), 1e-9)
            print(f"  the windows' median p99: showcase {statistics.median(windows):.2f} ms, echo {statistics.median(echo_windows):.2f} ms: "
                  f"{figures['windows: median p99 ratio']:.2f}x", flush=True)
        else:
            edits, cpu, wall, latencies = measure(server, clients, args.rate, args.seconds)
        per_edit = cpu / max(1, edits) * 1e6
        figures["all typing: server CPU per edit"] = per_edit
        figures["all typing: keystroke p99 (ms)"] = percentile(latencies, 99)
        print(f"  typing: {edits} edits in {wall:.1f} s ({edits / wall:.0f} a second); server CPU {cpu:.2f} s ({cpu / wall * 100:.0f}%): "
              f"{per_edit:.1f} us per edit; keystroke p50 {percentile(latencies, 50):.2f} ms, p99 {percentile(latencies, 99):.2f} ms", flush=True)
        if args.saturation_seconds > 0:
            edits, cpu, wall, latencies = measure(server, clients, 0, args.saturation_seconds)
            print(f"  saturation: {edits / wall:.0f} edits a second; server CPU {cpu / wall * 100:.0f}% (of 100% a core): "
                  f"{cpu / max(1, edits) * 1e6:.1f} us per edit; keystroke p50 {percentile(latencies, 50):.2f} ms, p99 {percentile(latencies, 99):.2f} ms", flush=True)
        clients.close()
    except BaseException:
        if echo:
            echo[0].stop()
        raise
    finally:
        server.stop()

    if echo:
        print(f"== the echo: its {args.tabs} connections typing", flush=True)
        echo_server, echo_clients = echo
        try:
            if args.rounds <= 1:
                echo_typed = measure(echo_server, echo_clients, args.rate, args.seconds)
            edits, cpu, wall, latencies = echo_typed
            echo_per = cpu / max(1, edits) * 1e6
            figures["all typing: echo CPU per message"] = echo_per
            print(f"  echo: {edits} messages in {wall:.1f} s; CPU {cpu:.2f} s: {echo_per:.1f} us per message; p50 {percentile(latencies, 50):.2f} ms, p99 {percentile(latencies, 99):.2f} ms", flush=True)
            print(f"  ratio (every tab typing): CPU per edit {figures['all typing: server CPU per edit'] / echo_per:.2f}x the echo's, "
                  f"keystroke p99 {figures['all typing: keystroke p99 (ms)'] / max(percentile(latencies, 99), 1e-9):.2f}x", flush=True)
            echo_clients.close()
        finally:
            echo_server.stop()

    if args.budget_ratio and args.echo:
        ratio = figures["all typing: server CPU per edit"] / figures["all typing: echo CPU per message"]
        if ratio > args.budget_ratio:
            failures.append(f"CPU per edit {ratio:.2f}x the echo's (budget {args.budget_ratio}x)")
    if args.budget_kb and figures.get("memory per tab (KB)", 0) > args.budget_kb:
        failures.append(f"memory per tab {figures['memory per tab (KB)']:.1f} KB (budget {args.budget_kb} KB)")
    for failure in failures:
        print(f"FAIL  {failure}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
