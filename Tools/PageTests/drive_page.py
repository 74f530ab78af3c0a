#!/usr/bin/env python3
"""End-to-end test of the inspector's page in a real headless Chromium.

Python standard library only. Chromium is driven over the DevTools protocol on a pipe
(--remote-debugging-pipe): commands are written to its file descriptor 3 and answers read from
its file descriptor 4, each message a JSON object followed by a NUL byte.

The test starts the programs it is given (katana-inspector and inspector-page-fixture), opens the
page, clicks and types through the DOM like a user, checks what the page shows, and saves a
screenshot of each view. Every process it starts is stopped at the end, also when a check fails.

Usage: drive_page.py --inspector BIN --fixture BIN [--out DIR] [--docs-image PNG] [--timeout S]
"""

import argparse
import base64
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request


class Failure(Exception):
    """A check failed, or something the test waited for did not happen."""


def log(message):
    print(message, flush=True)


# ---- processes ---------------------------------------------------------------------------------

class Process:
    """A program the test started, in a process group of its own, its stdout read line by line."""

    def __init__(self, name, argv, log_path, stdin=False, **popen_args):
        self.name = name
        self.log_path = log_path
        self.log_file = open(log_path, "wb")
        self.lines = queue.Queue()
        self.seen = []
        try:
            self.popen = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                stdout=subprocess.PIPE if popen_args.pop("read_stdout", True) else subprocess.DEVNULL,
                stderr=self.log_file,
                start_new_session=True,
                **popen_args)
        except OSError as error:
            raise Failure(f"cannot start {name} ({argv[0]}): {error}")
        if self.popen.stdout is not None:
            threading.Thread(target=self._read_stdout, daemon=True).start()

    def _read_stdout(self):
        for raw in self.popen.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def log_tail(self, count=15):
        try:
            with open(self.log_path, "rb") as handle:
                text = handle.read().decode("utf-8", "replace")
        except OSError:
            return ""
        lines = text.strip().splitlines()[-count:]
        return "\n".join("    " + line for line in lines)

    def expect_line(self, pattern, what, timeout):
        """Waits for a stdout line matching pattern; returns the match."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure(f"{self.name} did not print {what} within {timeout} s"
                              f" (it printed: {self.seen[-5:]!r}); its log ({self.log_path}):\n{self.log_tail()}")
            try:
                line = self.lines.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if line is None:
                self.lines.put(None)
                code = self.popen.poll()
                raise Failure(f"{self.name} exited (code {code}) before printing {what};"
                              f" its log ({self.log_path}):\n{self.log_tail()}")
            self.seen.append(line)
            match = re.search(pattern, line)
            if match:
                return match

    def send(self, line):
        try:
            self.popen.stdin.write((line + "\n").encode("utf-8"))
            self.popen.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise Failure(f"cannot send {line!r} to {self.name}: {error}")

    def stop(self):
        if self.popen.poll() is None:
            for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
                try:
                    os.killpg(self.popen.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.popen.wait(timeout=wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        for stream in (self.popen.stdin, self.popen.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        self.log_file.close()


class Processes:
    def __init__(self):
        self.running = []

    def start(self, *args, **kwargs):
        process = Process(*args, **kwargs)
        self.running.append(process)
        return process

    def stop(self, process):
        process.stop()
        if process in self.running:
            self.running.remove(process)

    def stop_all(self):
        for process in reversed(self.running):
            process.stop()
        self.running = []


def run(argv, what, timeout=120):
    try:
        done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure(f"{what} took longer than {timeout} s: {' '.join(argv)}")
    except OSError as error:
        raise Failure(f"cannot run {what} ({argv[0]}): {error}")
    if done.returncode != 0:
        raise Failure(f"{what} failed (code {done.returncode}): {' '.join(argv)}\n"
                      + done.stdout.decode("utf-8", "replace")[-2000:])
    return done.stdout.decode("utf-8", "replace")


def http_get(url, timeout=10):
    """Returns (status, parsed JSON or None)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            body = response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        body = error.read()
        status = error.code
    except (urllib.error.URLError, OSError) as error:
        raise Failure(f"cannot GET {url}: {error}")
    try:
        return status, json.loads(body)
    except ValueError:
        return status, None


# ---- DevTools protocol over a pipe -------------------------------------------------------------

class DevTools:
    def __init__(self, write_fd, read_fd):
        self.write_fd = write_fd
        self.read_fd = read_fd
        self.lock = threading.Lock()
        self.next_id = 0
        self.pending = {}
        self.closed = False
        self.exceptions = []    # uncaught JavaScript exceptions on the page
        self.problems = []      # console errors and CSP violations
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = bytearray()
        while True:
            try:
                chunk = os.read(self.read_fd, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer.extend(chunk)
            while True:
                end = buffer.find(b"\0")
                if end < 0:
                    break
                raw = bytes(buffer[:end])
                del buffer[:end + 1]
                try:
                    self._dispatch(json.loads(raw))
                except ValueError:
                    continue
        with self.lock:
            self.closed = True
            for waiter in self.pending.values():
                waiter["done"].set()

    def _dispatch(self, message):
        if "id" in message:
            with self.lock:
                waiter = self.pending.get(message["id"])
            if waiter:
                waiter["answer"] = message
                waiter["done"].set()
            return
        method = message.get("method")
        params = message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text", "")
            self.exceptions.append(text)
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            if entry.get("level") == "error" or entry.get("source") == "security":
                self.problems.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}".strip())
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            self.problems.append("console.error: " + " ".join(str(a.get("value", a.get("description", "")))
                                                               for a in params.get("args", [])))

    def call(self, method, params=None, session=None, timeout=30):
        with self.lock:
            if self.closed:
                raise Failure(f"Chromium is gone (DevTools pipe closed) before {method}")
            self.next_id += 1
            ident = self.next_id
            waiter = {"done": threading.Event(), "answer": None}
            self.pending[ident] = waiter
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode("utf-8") + b"\0"
        try:
            while data:
                written = os.write(self.write_fd, data)
                data = data[written:]
        except OSError as error:
            raise Failure(f"cannot send {method} to Chromium: {error}")
        try:
            if not waiter["done"].wait(timeout):
                raise Failure(f"Chromium did not answer {method} within {timeout} s")
        finally:
            with self.lock:
                self.pending.pop(ident, None)
        answer = waiter["answer"]
        if answer is None:
            raise Failure(f"Chromium closed the DevTools pipe while answering {method}")
        if "error" in answer:
            raise Failure(f"DevTools {method} failed: {answer['error'].get('message')} {answer['error'].get('data', '')}")
        return answer.get("result", {})


KEYS = {
    "ArrowUp": ("ArrowUp", 38), "ArrowDown": ("ArrowDown", 40), "End": ("End", 35), "Home": ("Home", 36),
    "j": ("KeyJ", 74), "k": ("KeyK", 75),
}


class Page:
    def __init__(self, devtools, session):
        self.devtools = devtools
        self.session = session

    def call(self, method, params=None, timeout=30):
        return self.devtools.call(method, params, self.session, timeout)

    def js(self, expression, timeout=30):
        result = self.call("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True, "userGesture": True,
        }, timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise Failure(f"JavaScript failed: {text}\n  in: {expression[:300]}")
        return result.get("result", {}).get("value")

    def wait_for(self, what, expression, timeout=20, interval=0.1):
        """Polls expression until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                value = self.js(expression, timeout=max(5, min(30, timeout)))
                if value:
                    return value
                last = value
            except Failure as error:    # e.g. the page is navigating
                last = str(error).splitlines()[0]
            if time.monotonic() > deadline:
                raise Failure(f"timed out after {timeout} s waiting for {what} (last result: {last!r})")
            time.sleep(interval)

    def frames(self, count=2):
        self.js("new Promise(done => { let n = %d; const tick = () => --n <= 0 ? done(true) : requestAnimationFrame(tick);"
                " requestAnimationFrame(tick); })" % count)

    def click(self, selector, what):
        """Clicks the element's center with the mouse, after bringing it into view."""
        spot = self.js("""(async () => {
            const find = () => document.querySelector(%s);
            const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
            const spot = (e) => {
                const r = e.getBoundingClientRect();
                const x = r.left + Math.min(r.width / 2, 40), y = r.top + r.height / 2;
                const hit = document.elementFromPoint(x, y);
                return {x, y, width: r.width, hit: !!hit && (hit === e || e.contains(hit))};
            };
            let e = find();
            if (!e) return {missing: true};
            let s = spot(e);
            if (!s.hit) { e.scrollIntoView({block: "center"}); await frames(); e = find(); if (!e) return {missing: true}; s = spot(e); }
            return s;
        })()""" % json.dumps(selector))
        if not spot or spot.get("missing"):
            raise Failure(f"cannot click {what}: nothing on the page matches {selector}")
        if not spot["hit"] or spot["width"] == 0:
            raise Failure(f"cannot click {what} ({selector}): it is hidden or covered")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": spot["x"], "y": spot["y"],
                                                   "button": "left", "buttons": 1 if kind == "mousePressed" else 0,
                                                   "clickCount": 1})

    def wheel(self, selector, delta_y):
        spot = self.js("(() => { const r = document.querySelector(%s).getBoundingClientRect();"
                       " return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()" % json.dumps(selector))
        self.call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": spot["x"], "y": spot["y"],
                                               "deltaX": 0, "deltaY": delta_y})

    def press(self, key):
        code, keycode = KEYS[key]
        text = key if len(key) == 1 else None
        down = {"type": "keyDown" if text else "rawKeyDown", "key": key, "code": code,
                "windowsVirtualKeyCode": keycode, "nativeVirtualKeyCode": keycode}
        if text:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", down)
        self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code,
                                             "windowsVirtualKeyCode": keycode, "nativeVirtualKeyCode": keycode})

    def type_into(self, selector, text, what):
        self.click(selector, what)
        self.js("document.querySelector(%s).select()" % json.dumps(selector))
        if text:
            self.call("Input.insertText", {"text": text})
        else:
            self.call("Input.dispatchKeyEvent", {"type": "rawKeyDown", "key": "Backspace", "code": "Backspace",
                                                 "windowsVirtualKeyCode": 8})
            self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Backspace", "code": "Backspace",
                                                 "windowsVirtualKeyCode": 8})

    def choose(self, selector, label, what):
        """Picks the option whose text is label, as a keyboard user would, and fires change."""
        chosen = self.js("""(() => {
            const s = document.querySelector(%s);
            if (!s) return "no select";
            const o = Array.from(s.options).find(o => o.textContent.trim() === %s);
            if (!o) return "no option; options are: " + Array.from(s.options).map(o => o.textContent).join(", ");
            s.focus(); s.value = o.value; s.dispatchEvent(new Event("change", {bubbles: true}));
            return true;
        })()""" % (json.dumps(selector), json.dumps(label)))
        if chosen is not True:
            raise Failure(f"cannot choose {label!r} in {what}: {chosen}")

    def navigate(self, url):
        result = self.call("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise Failure(f"cannot open {url}: {result['errorText']}")

    def screenshot(self, path):
        self.frames(2)
        data = self.call("Page.captureScreenshot", {"format": "png"}, timeout=60)["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))


# ---- JavaScript snippets the checks use ---------------------------------------------------------

ROW_POSITIONS = ("Array.from(document.querySelectorAll('[data-testid=timeline-row]'))"
                 ".map(r => Number(r.dataset.position))")
ROWS_IN_VIEW = """(() => {
    const box = document.querySelector('[data-testid=timeline-scroll]').getBoundingClientRect();
    return Array.from(document.querySelectorAll('[data-testid=timeline-row]')).filter(r => {
        const b = r.getBoundingClientRect(); return b.top >= box.top - 1 && b.bottom <= box.bottom + 1;
    }).map(r => Number(r.dataset.position));
})()"""


def row_sel(position):
    return f'[data-testid=timeline-row][data-position="{position}"]'


def text_of(page, selector):
    return page.js("(() => { const e = document.querySelector(%s); return e ? e.textContent : null; })()"
                   % json.dumps(selector))


# ---- the test ----------------------------------------------------------------------------------

class PageTest:
    def __init__(self, args):
        self.args = args
        self.out = os.path.abspath(args.out)
        self.logs = os.path.join(self.out, "logs")
        self.work = tempfile.mkdtemp(prefix="katana-page-tests-")
        self.processes = Processes()
        self.page = None
        self.devtools = None
        self.checks = 0
        self.metrics = {}
        self.screens = []

    # -- reporting

    def ok(self, message):
        self.checks += 1
        log(f"  ok   {message}")

    def expect(self, condition, message, detail=""):
        if not condition:
            raise Failure(message + (f" ({detail})" if detail else ""))
        self.ok(message)

    def shot(self, name):
        path = os.path.join(self.out, name + ".png")
        self.page.screenshot(path)
        self.screens.append(path)
        log(f"  shot {path}")
        return path

    def no_page_errors(self, where):
        problems = self.devtools.exceptions + [p for p in self.devtools.problems if "favicon" not in p]
        if problems:
            raise Failure(f"the page reported errors during {where}:\n    " + "\n    ".join(problems[:10]))
        self.ok(f"no JavaScript exceptions, console errors or CSP violations during {where}")

    # -- set-up

    def start_browser(self):
        chromium = shutil.which(self.args.chromium) or self.args.chromium
        profile = os.path.join(self.work, "chromium-profile")
        os.makedirs(profile, exist_ok=True)
        to_browser_read, to_browser_write = os.pipe()
        from_browser_read, from_browser_write = os.pipe()

        def wire_pipes():    # runs in the child before exec: fd 3 = its input, fd 4 = its output
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        argv = [chromium, "--headless=new", "--remote-debugging-pipe", "--disable-gpu",
                f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--disable-dev-shm-usage", "--disable-background-timer-throttling",
                "--disable-renderer-backgrounding", "--enable-precise-memory-info", "--disable-smooth-scrolling",
                "--window-size=1400,900", "--lang=en-US", "about:blank"]
        if os.geteuid() == 0:
            argv.insert(1, "--no-sandbox")
        browser = self.processes.start("chromium", argv, os.path.join(self.logs, "chromium.log"),
                                       read_stdout=False, pass_fds=(3, 4), preexec_fn=wire_pipes)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.devtools = DevTools(to_browser_write, from_browser_read)
        version = self.devtools.call("Browser.getVersion", timeout=60)
        log(f"  {version.get('product')} (DevTools over a pipe)")
        targets = self.devtools.call("Target.getTargets")["targetInfos"]
        page_target = next((t["targetId"] for t in targets if t["type"] == "page"), None)
        if page_target is None:
            page_target = self.devtools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.devtools.call("Target.attachToTarget", {"targetId": page_target, "flatten": True})["sessionId"]
        self.page = Page(self.devtools, session)
        for domain in ("Page.enable", "Runtime.enable", "Log.enable", "Performance.enable"):
            self.page.call(domain)
        self.page.call("Emulation.setDeviceMetricsOverride",
                       {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        return browser

    def record(self, name, extra=None):
        path = os.path.join(self.work, name)
        argv = [self.args.fixture, "record", path]
        if extra is not None:
            argv += ["--extra", str(extra)]
        run(argv, f"inspector-page-fixture record ({name})", timeout=300)
        if not os.path.exists(path):
            raise Failure(f"inspector-page-fixture record did not write {path}")
        return path

    def serve(self, name, path, token=None):
        argv = [self.args.inspector, path, "--port", "0"]
        if token:
            argv += ["--token", token]
        server = self.processes.start(name, argv, os.path.join(self.logs, name + ".log"))
        match = server.expect_line(r"katana-inspector: serving .* at (http://127\.0\.0\.1:\d+/\S*)",
                                   "the 'serving … at http://…' line", timeout=60)
        return server, match.group(1)

    def open_page(self, url, what, timeout=30):
        self.page.navigate(url)
        self.page.wait_for(f"the page to load {what}",
                           "!!(window.inspector && window.inspector.isLoaded())", timeout=timeout, interval=0.05)

    # -- scenarios

    def recording_scenario(self):
        log("recording: timeline, filters, selection, diff, tree, stepping")
        path = self.record("todos.jsonl")
        server, url = self.serve("inspector-recording", path)
        page = self.page
        self.open_page(url, "the recording")

        self.expect(page.js("inspector.totalCount()") == 308 and page.js("inspector.loadedCount()") == 308,
                    "the page loads the recording: 308 items",
                    f"total {page.js('inspector.totalCount()')}, loaded {page.js('inspector.loadedCount()')}")
        count_text = text_of(page, "[data-testid=summary-count]")
        self.expect(count_text and "308" in count_text, "the header shows the count", repr(count_text))
        source = text_of(page, "[data-testid=summary-source]") or ""
        self.expect("todos.jsonl" in source, "the header names the source", repr(source))
        state_type = text_of(page, "[data-testid=summary-state-type]") or ""
        self.expect(state_type.strip() not in ("", "…", "—"), "the header names the state type", repr(state_type))

        rows = page.js(ROW_POSITIONS)
        self.expect(rows and rows[0] == 1 and 0 < len(rows) < 200,
                    f"the timeline shows rows from #1 with only {len(rows)} row elements in the DOM (of 308)",
                    f"rows: {rows[:5]}…")
        first = page.js("""(() => { const r = document.querySelector('[data-testid=timeline-row][data-position="1"]');
            return Array.from(r.children).map(c => c.textContent); })()""")
        self.expect(first[2] == "AddTodo" and first[3] == "outside" and "handled" in first[4]
                    and re.fullmatch(r"\d\d:\d\d:\d\d\.\d\d\d", first[1]) and "Buy milk" in first[5],
                    "row 1 shows time HH:MM:SS.mmm, type AddTodo, origin outside, handled, and the item", repr(first))
        full_type = page.js("document.querySelector('%s .col-type').title" % row_sel(1))
        self.expect(full_type.startswith("InspectorPageFixture.AddTodo"), "the full type name shows on hover",
                    repr(full_type))
        origin4 = text_of(page, row_sel(4) + " .col-origin") or ""
        self.expect(re.search(r"side effect\s+ImportTodos\s+#5", origin4) is not None,
                    "row 4's origin reads 'side effect ImportTodos #5'", repr(origin4))
        outcomes = page.js("[7, 8].map(p => document.querySelector(`[data-testid=timeline-row][data-position='${p}']"
                           " [data-testid=row-outcome]`).textContent)")
        self.expect(outcomes == ["rejected", "blocked"], "rows 7 and 8 are badged rejected and blocked", repr(outcomes))
        self.shot("timeline")

        # Filters: type.
        page.choose("[data-testid=filter-type]", "ToggleTodo", "the type filter")
        page.wait_for("the type filter to leave one row", "inspector.filteredCount() === 1")
        rows = page.js(ROW_POSITIONS)
        self.expect(rows == [3], "type filter ToggleTodo: one row, #3", repr(rows))
        count_text = text_of(page, "[data-testid=filter-count]") or ""
        self.expect("showing 1 of 308" in count_text, "the count reads 'showing 1 of 308'", repr(count_text))
        page.choose("[data-testid=filter-type]", "All types", "the type filter")

        # Filters: outcome.
        page.click("[data-testid=filter-outcome-handled]", "the 'handled' checkbox")
        page.click("[data-testid=filter-outcome-blocked]", "the 'blocked' checkbox")
        page.wait_for("the outcome filter to leave one row", "inspector.filteredCount() === 1")
        rows = page.js(ROW_POSITIONS)
        error = text_of(page, row_sel(7) + " [data-testid=row-error]") or ""
        self.expect(rows == [7] and "no todo with id 99" in error,
                    "outcome filter 'rejected': row #7 with its error", f"rows {rows}, error {error!r}")
        self.shot("filtered")
        page.click("[data-testid=filter-clear]", "Clear filters")
        page.wait_for("the filters to clear", "inspector.filteredCount() === 308")

        # Search.
        page.type_into("[data-testid=filter-search]", "Anna", "the search box")
        page.wait_for("the search to leave two rows", "inspector.filteredCount() === 2")
        rows = page.js(ROW_POSITIONS)
        self.expect(rows == [4, 5], "search 'Anna': rows #4 and #5", repr(rows))

        # Filters: origin, by side effect name.
        page.click("[data-testid=filter-clear]", "Clear filters")
        page.choose("[data-testid=filter-origin]", "ImportTodos", "the origin filter")
        page.wait_for("the origin filter to leave one row", "inspector.filteredCount() === 1")
        rows = page.js(ROW_POSITIONS)
        self.expect(rows == [4], "origin filter 'side effect ImportTodos': row #4", repr(rows))
        page.choose("[data-testid=filter-origin]", "From outside", "the origin filter")
        page.wait_for("the origin filter 'from outside'", "inspector.filteredCount() === 307")
        self.ok("origin filter 'From outside': 307 rows")
        page.click("[data-testid=filter-clear]", "Clear filters")
        page.wait_for("the filters to clear", "inspector.filteredCount() === 308")

        # Select row 3: the tree and the diff.
        page.click(row_sel(3), "row #3")
        page.wait_for("the detail of #3", "document.querySelector('#detail-body').dataset.position === '3'")
        self.expect(page.js("inspector.selectedPosition()") == 3 and page.js("location.hash") == "#p=3",
                    "clicking row #3 selects it, and the address keeps #p=3")
        self.expect(page.js("document.querySelector(%s).getAttribute('aria-selected')" % json.dumps(row_sel(3))) == "true",
                    "row #3 is marked selected")
        node = page.js("""(() => { const n = document.querySelector('[data-testid=tree-node][data-path="todos.0.done"]');
            if (!n) return null; const line = n.querySelector('.tree-line');
            return {text: line.textContent, changed: n.dataset.changed === 'true',
                    visible: line.getBoundingClientRect().height > 0,
                    background: getComputedStyle(line).backgroundColor}; })()""")
        self.expect(node and node["visible"] and node["text"].strip().endswith("true") and node["changed"]
                    and node["background"] not in ("rgba(0, 0, 0, 0)", "transparent"),
                    "the state tree shows todos.0.done: true, expanded and highlighted as changed", repr(node))
        others = page.js("Array.from(document.querySelectorAll('[data-testid=tree-node][data-changed=true]'))"
                         ".map(n => n.dataset.path)")
        self.expect(others == ["todos.0.done"], "only the changed field is highlighted", repr(others))
        diff = page.js("""Array.from(document.querySelectorAll('[data-testid=diff-entry]')).map(e => ({
            path: e.dataset.path, op: e.dataset.op,
            before: (e.querySelector('[data-testid=diff-before]') || {}).textContent,
            after: (e.querySelector('[data-testid=diff-after]') || {}).textContent}))""")
        self.expect(diff == [{"path": "todos.0.done", "op": "replace", "before": "false", "after": "true"}],
                    "the diff lists todos.0.done: false → true", repr(diff))
        item = text_of(page, "[data-testid=item-json]") or ""
        self.expect('"id"' in item and "1" in item, "the item's JSON is shown", repr(item))
        self.shot("item-selected")
        if self.args.docs_image:
            os.makedirs(os.path.dirname(os.path.abspath(self.args.docs_image)), exist_ok=True)
            shutil.copyfile(os.path.join(self.out, "item-selected.png"), self.args.docs_image)
            log(f"  copy {self.args.docs_image}")

        # Collapse and expand a tree node.
        page.click('[data-testid=tree-node][data-path="todos"] > .tree-line > .tree-toggle', "the todos toggle")
        hidden = page.js("document.querySelector('[data-testid=tree-node][data-path=\"todos.0.done\"]')"
                         ".getBoundingClientRect().height === 0")
        page.click('[data-testid=tree-node][data-path="todos"] > .tree-line > .tree-toggle', "the todos toggle")
        shown = page.js("document.querySelector('[data-testid=tree-node][data-path=\"todos.0.done\"]')"
                        ".getBoundingClientRect().height > 0")
        self.expect(hidden and shown, "tree nodes collapse and expand")

        # Step back.
        page.click("[data-testid=step-back]", "the step back button")
        page.wait_for("the detail of #2", "document.querySelector('#detail-body').dataset.position === '2'")
        self.expect(page.js("inspector.selectedPosition()") == 2, "step back selects #2")
        diff = page.js("""Array.from(document.querySelectorAll('[data-testid=diff-entry]')).map(e => ({
            path: e.dataset.path, op: e.dataset.op,
            after: (e.querySelector('[data-testid=diff-after]') || {}).textContent}))""")
        added = [d for d in diff if d["op"] == "add" and d["path"] == "todos.1"]
        self.expect(added and "Write report" in added[0]["after"],
                    "#2's diff shows the added todo at todos.1", repr(diff))
        title = page.js("(() => { const n = document.querySelector('[data-testid=tree-node][data-path=\"todos.1.title\"]');"
                        " return n && n.textContent; })()")
        self.expect(title and "Write report" in title, "the tree shows the state after #2", repr(title))
        self.shot("stepped-back")

        # Keyboard.
        page.js("document.querySelector('[data-testid=timeline-scroll]').focus()")
        page.press("j")
        page.wait_for("j to select #3", "inspector.selectedPosition() === 3")
        page.press("ArrowDown")
        page.wait_for("ArrowDown to select #4", "inspector.selectedPosition() === 4")
        page.press("k")
        page.press("ArrowUp")
        page.wait_for("k and ArrowUp to select #2", "inspector.selectedPosition() === 2")
        self.ok("j / ArrowDown and k / ArrowUp move the selection")
        page.click("[data-testid=step-forward]", "the step forward button")
        page.wait_for("step forward to select #3", "inspector.selectedPosition() === 3")
        self.ok("step forward selects #3")

        # The origin: from the row, and from the detail panel.
        page.click(row_sel(4) + " [data-testid=row-origin-link]", "row #4's origin")
        page.wait_for("row #4's origin to select #5", "inspector.selectedPosition() === 5")
        self.ok("clicking row #4's origin selects the side effect, #5")
        page.click(row_sel(4), "row #4")
        page.wait_for("the detail of #4", "document.querySelector('#detail-body').dataset.position === '4'")
        page.click("[data-testid=detail-origin-link]", "the origin in #4's detail")
        page.wait_for("the detail's origin to select #5", "document.querySelector('#detail-body').dataset.position === '5'")
        self.ok("clicking the origin in #4's detail selects #5")

        # A rejected item's detail shows the error.
        page.click(row_sel(7), "row #7")
        page.wait_for("the detail of #7", "document.querySelector('#detail-body').dataset.position === '7'")
        error = text_of(page, "[data-testid=detail-error]") or ""
        none = text_of(page, "[data-testid=diff-none]") or ""
        self.expect("no todo with id 99" in error and none, "#7's detail shows its error and that nothing changed",
                    f"{error!r} / {none!r}")

        # A reload returns to the selected item.
        page.call("Page.reload")
        self.page.wait_for("the page to reload", "!!(window.inspector && window.inspector.isLoaded()"
                           " && inspector.selectedPosition() === 7)", timeout=30)
        page.wait_for("the detail of #7 after the reload", "document.querySelector('#detail-body').dataset.position === '7'")
        self.ok("a reload returns to #7 (#p=7 in the address)")
        self.no_page_errors("the recording scenario")
        self.processes.stop(server)

    def large_scenario(self):
        count = 100000
        log(f"large recording: {count:,} items")
        started = time.monotonic()
        path = self.record("large.jsonl", extra=count - 8)
        record_seconds = time.monotonic() - started
        server, url = self.serve("inspector-large", path)
        page = self.page
        page.navigate("about:blank")
        page.call("HeapProfiler.collectGarbage")
        started = time.monotonic()
        self.open_page(url, f"{count:,} items", timeout=self.args.large_timeout)
        load_ms = round((time.monotonic() - started) * 1000)
        loaded = page.js("inspector.loadedCount()")
        self.expect(loaded == count, f"{count:,} items load in {load_ms} ms", f"loaded {loaded}")
        in_dom = page.js("document.querySelectorAll('[data-testid=timeline-row]').length")
        self.expect(0 < in_dom < 200, f"only {in_dom} row elements are in the DOM")

        # Scroll through the whole list in steps, timing frames, then to the end.
        scroll = page.js("""(async () => {
            const box = document.querySelector('[data-testid=timeline-scroll]');
            const frame = () => new Promise(r => requestAnimationFrame(r));
            const times = []; let most = 0;
            for (let i = 1; i <= 60; i++) {
                const t0 = performance.now();
                box.scrollTop = (box.scrollHeight - box.clientHeight) * i / 60;
                await frame(); await frame();
                times.push(performance.now() - t0);
                most = Math.max(most, document.querySelectorAll('[data-testid=timeline-row]').length);
            }
            times.sort((a, b) => a - b);
            return {steps: times.length, medianMs: times[30], p95Ms: times[56], maxMs: times[59], mostRows: most};
        })()""", timeout=120)
        self.expect(scroll["mostRows"] < 200, f"scrolling keeps fewer than 200 row elements (at most {scroll['mostRows']})")
        self.expect(scroll["medianMs"] < 250,
                    f"scrolling is smooth: 60 jumps across the list, median {scroll['medianMs']:.0f} ms for two frames,"
                    f" 95th percentile {scroll['p95Ms']:.0f} ms", repr(scroll))
        page.click("[data-testid=timeline-scroll]", "the timeline")
        page.press("End")
        page.wait_for("the last row to show", "(%s).includes(%d)" % (ROWS_IN_VIEW, count), timeout=20)
        self.expect(page.js("inspector.selectedPosition()") == count,
                    f"End selects the last item, and row #{count:,} shows at the end of the timeline")
        page.wait_for("the detail of the last item", "document.querySelector('#detail-body').dataset.position === '%d'" % count)
        title = page.js("(() => { const n = document.querySelector('[data-testid=tree-node][data-path=\"todos.1.title\"]');"
                        " return n && n.textContent; })()")
        self.expect(title and f"Write report v{count - 8}" in title, "its state shows the last rename", repr(title))

        search_started = time.monotonic()
        page.type_into("[data-testid=filter-search]", f"v{count - 8}", "the search box")
        page.wait_for("the search over 100,000 items", "inspector.filteredCount() === 1", timeout=30)
        search_ms = round((time.monotonic() - search_started) * 1000)
        self.ok(f"a search over {count:,} items finds the one match ({search_ms} ms including typing)")
        self.shot("large-recording")
        page.click("[data-testid=filter-clear]", "Clear filters")
        page.wait_for("the filters to clear", f"inspector.filteredCount() === {count}", timeout=30)

        page.call("HeapProfiler.collectGarbage")
        metrics = {m["name"]: m["value"] for m in page.call("Performance.getMetrics")["metrics"]}
        memory = page.js("performance.memory ? {used: performance.memory.usedJSHeapSize,"
                         " total: performance.memory.totalJSHeapSize} : null")
        self.metrics = {
            "items": count,
            "recordingBytes": os.path.getsize(path),
            "fixtureRecordSeconds": round(record_seconds, 2),
            "loadMilliseconds": load_ms,
            "pageLoadMilliseconds": page.js("inspector.loadTimeMs()"),
            "jsHeapUsedBytes": int(metrics.get("JSHeapUsedSize", 0)),
            "jsHeapTotalBytes": int(metrics.get("JSHeapTotalSize", 0)),
            "performanceMemory": memory,
            "domNodes": int(metrics.get("Nodes", 0)),
            "rowElementsInDOM": in_dom,
            "scroll": scroll,
            "searchMilliseconds": search_ms,
            "measuredAt": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "cpus": os.cpu_count(),
        }
        metrics_path = os.path.join(self.out, "large-recording.json")
        with open(metrics_path, "w") as handle:
            json.dump(self.metrics, handle, indent=2)
        log(f"  JS heap after load: {self.metrics['jsHeapUsedBytes'] / 1e6:.1f} MB used"
            f" ({self.metrics['jsHeapTotalBytes'] / 1e6:.1f} MB allocated); written to {metrics_path}")
        self.no_page_errors("the large recording scenario")
        self.processes.stop(server)

    def token_scenario(self):
        log("token: the page passes the token; the API refuses requests without it")
        path = os.path.join(self.work, "todos.jsonl")
        if not os.path.exists(path):
            path = self.record("todos.jsonl")
        server, url = self.serve("inspector-token", path, token="s3cret")
        self.expect(url.endswith("/?token=s3cret"), "the printed address carries the token", url)
        base = url.split("?")[0]
        status, body = http_get(base + "api/summary")
        self.expect(status == 401 and isinstance(body, dict) and body.get("error"),
                    "GET /api/summary without the token: 401 with an error", f"{status} {body!r}")
        status, _ = http_get(base)
        self.expect(status == 401, "GET / (the page) without the token: 401", str(status))
        status, _ = http_get(base + "api/summary?token=wrong")
        self.expect(status == 401, "a wrong token: 401", str(status))
        status, body = http_get(base + "api/summary?token=s3cret")
        self.expect(status == 200 and body.get("count") == 308, "with the token: 200", f"{status}")

        page = self.page
        page.navigate("about:blank")
        self.devtools.exceptions.clear()
        self.devtools.problems.clear()
        self.open_page(url, "the recording, with the token")
        self.expect(page.js("inspector.loadedCount()") == 308 and
                    page.js("document.querySelector('[data-testid=error-banner]').hidden"),
                    "with ?token= in its address the page loads all 308 items, no error banner")
        styled = page.js("getComputedStyle(document.querySelector('.app-header')).display")
        self.expect(styled == "flex", "the stylesheet loaded with the token too", repr(styled))
        page.click(row_sel(3), "row #3")
        page.wait_for("the detail of #3 with the token", "document.querySelector('#detail-body').dataset.position === '3'")
        self.ok("item details load with the token")
        self.no_page_errors("the token scenario")

        # When the server goes away, the page says so in its banner.
        self.processes.stop(server)
        page.click(row_sel(6), "row #6")
        page.wait_for("the error banner", "!document.querySelector('[data-testid=error-banner]').hidden")
        banner = text_of(page, "[data-testid=error-banner]") or ""
        self.expect("Could not load item #6" in banner, "an API failure shows in a visible banner", repr(banner))
        self.devtools.problems.clear()    # the failed request is logged as a network error: expected

    def live_scenario(self):
        log("live: new items arrive without a reload; the view stays still while the user reads")
        fixture = self.processes.start("inspector-page-fixture-live", [self.args.fixture, "live", "--port", "0"],
                                       os.path.join(self.logs, "fixture-live.log"), stdin=True)
        match = fixture.expect_line(r"inspector-page-fixture: live at (http://127\.0\.0\.1:\d+/\S*)",
                                    "the 'live at http://…' line", timeout=60)
        url = match.group(1)
        page = self.page
        page.navigate("about:blank")
        self.devtools.exceptions.clear()
        self.devtools.problems.clear()
        self.open_page(url, "the live store")
        page.wait_for("the live connection", "inspector.connectionState() === 'live'", timeout=20)
        self.expect(page.js("inspector.loadedCount()") == 8 and page.js(ROW_POSITIONS) == list(range(1, 9)),
                    "the live page shows the 8 items", repr(page.js(ROW_POSITIONS)))
        status = text_of(page, "[data-testid=live-status]") or ""
        self.expect("Live" in status, "the header shows the live connection", repr(status))
        self.shot("live-before")

        page.js("window.__notReloaded = true")
        fixture.send("add Live item")
        position = int(fixture.expect_line(r"^dispatched (\d+)$", "'dispatched <position>'", timeout=20).group(1))
        self.expect(position == 9, "the fixture dispatched the new item at #9", str(position))
        page.wait_for("row #9 to appear", "(() => { const r = document.querySelector(%s);"
                      " return !!r && r.textContent.includes('Live item'); })()" % json.dumps(row_sel(9)), timeout=10)
        self.expect(page.js("window.__notReloaded === true"), "row #9 'Live item' appears within 10 s, without a reload")
        self.shot("live-after-new-item")

        # Fill the timeline past its height: at the bottom, the view follows.
        for i in range(1, 41):
            fixture.send(f"add Filler {i}")
            fixture.expect_line(r"^dispatched \d+$", f"'dispatched' for filler {i}", timeout=20)
        page.wait_for("the filler rows", "inspector.loadedCount() === 49", timeout=15)
        page.wait_for("the view to follow to #49", "(%s).includes(49)" % ROWS_IN_VIEW, timeout=10)
        self.ok("at the bottom, the view follows new items (#49 in view)")

        # Scroll up a little: the view must not move when an item arrives.
        page.wheel("[data-testid=timeline-scroll]", -300)
        page.wait_for("the wheel to scroll up", "document.querySelector('[data-testid=timeline-scroll]').scrollTop > 0 &&"
                      " !(%s).includes(49)" % ROWS_IN_VIEW, timeout=10)
        page.wait_for("the scrolling to settle", """new Promise(done => {
            const box = document.querySelector('[data-testid=timeline-scroll]'); const top = box.scrollTop;
            setTimeout(() => done(box.scrollTop === top), 300); })""", timeout=10)
        before = page.js("({top: document.querySelector('[data-testid=timeline-scroll]').scrollTop, rows: %s})" % ROWS_IN_VIEW)
        fixture.send("add While reading")
        fixture.expect_line(r"^dispatched 50$", "'dispatched 50'", timeout=20)
        page.wait_for("#50 to reach the page", "inspector.loadedCount() === 50", timeout=10)
        page.wait_for("the new items button", "!document.querySelector('[data-testid=new-items]').hidden", timeout=5)
        page.frames(3)
        after = page.js("({top: document.querySelector('[data-testid=timeline-scroll]').scrollTop, rows: %s})" % ROWS_IN_VIEW)
        self.expect(before == after, "scrolled away from the bottom, the view does not move when #50 arrives",
                    f"before {before}, after {after}")
        label = text_of(page, "[data-testid=new-items]") or ""
        self.expect("1 new item" in label, "a '1 new item ↓' button shows", repr(label))
        self.shot("live-new-items-button")
        page.click("[data-testid=new-items]", "the new items button")
        page.wait_for("#50 in view after the button", "(%s).includes(50)" % ROWS_IN_VIEW, timeout=5)
        self.expect(page.js("document.querySelector('[data-testid=new-items]').hidden"),
                    "the button scrolls to the new item and goes away")
        self.no_page_errors("the live scenario")
        fixture.send("quit")
        self.processes.stop(fixture)

    # -- all of it

    def run(self):
        os.makedirs(self.logs, exist_ok=True)
        for name in os.listdir(self.out):
            if name.endswith(".png"):
                os.remove(os.path.join(self.out, name))
        for program in (self.args.inspector, self.args.fixture):
            if not os.access(program, os.X_OK):
                raise Failure(f"not an executable: {program}")
        self.start_browser()
        scenarios = {"recording": self.recording_scenario, "large": self.large_scenario,
                     "token": self.token_scenario, "live": self.live_scenario}
        for name in self.args.only or list(scenarios):
            scenarios[name]()

    def cleanup(self):
        self.processes.stop_all()
        shutil.rmtree(self.work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inspector", required=True, help="the katana-inspector executable")
    parser.add_argument("--fixture", required=True, help="the inspector-page-fixture executable")
    parser.add_argument("--out", default=os.environ.get("PAGE_TEST_OUTPUT", "Tools/.build/page-tests"),
                        help="folder for screenshots, measurements and logs")
    parser.add_argument("--docs-image", help="also copy the item-selected screenshot here")
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--timeout", type=int, default=900, help="seconds for the whole test")
    parser.add_argument("--only", action="append", choices=["recording", "large", "token", "live"],
                        help="run only this scenario (repeatable; for working on the page)")
    parser.add_argument("--large-timeout", type=int, default=180, help="seconds to load 100,000 items")
    args = parser.parse_args()

    test = PageTest(args)

    def give_up(signum, _frame):
        if signum == signal.SIGALRM:
            raise Failure(f"the page test took longer than {args.timeout} s in all")
        raise Failure(f"stopped by signal {signum}")

    signal.signal(signal.SIGALRM, give_up)
    signal.signal(signal.SIGTERM, give_up)
    signal.signal(signal.SIGINT, give_up)
    signal.alarm(args.timeout)
    started = time.monotonic()
    failure = None
    try:
        test.run()
    except Failure as error:
        failure = error
        if test.devtools is not None:
            for problem in (test.devtools.exceptions + test.devtools.problems)[:10]:
                log(f"  page: {problem}")
        if test.page is not None:
            try:
                path = os.path.join(test.out, "failure.png")
                test.page.screenshot(path)
                log(f"  (screenshot of the failure: {path})")
            except Exception:  # the browser may be the thing that failed
                pass
    finally:
        signal.alarm(0)
        test.cleanup()

    seconds = time.monotonic() - started
    if failure is not None:
        log(f"\nFAIL page tests: {failure}")
        log(f"  ({test.checks} checks passed before it; logs in {test.logs})")
        return 1
    log(f"\npage tests: {test.checks} checks passed in {seconds:.0f} s")
    if test.metrics:
        m = test.metrics
        log(f"  {m['items']:,} items: loaded in {m['loadMilliseconds']} ms (the page's own count:"
            f" {m['pageLoadMilliseconds']} ms), JS heap {m['jsHeapUsedBytes'] / 1e6:.1f} MB used,"
            f" scroll median {m['scroll']['medianMs']:.0f} ms per jump")
    log(f"  screenshots in {test.out}: " + ", ".join(os.path.basename(p) for p in test.screens))
    return 0


if __name__ == "__main__":
    sys.exit(main())
