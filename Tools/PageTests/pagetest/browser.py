"""Chromium for the test: launching it headless with DevTools on a pipe, and Page, the tab the
scenarios use, with what a user does (click, type, press keys, scroll, pick from a menu) and what
a test needs (evaluate JavaScript, wait for a condition, take a screenshot)."""

import base64
import json
import os
import shutil
import time

from .cdp import DevTools
from .failure import Failure, log


def launch(processes, chromium, work, logs):
    """Starts Chromium (stopped with the other processes) and returns its DevTools and one Page."""
    chromium = shutil.which(chromium) or chromium
    profile = os.path.join(work, "chromium-profile")
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
    processes.start("chromium", argv, os.path.join(logs, "chromium.log"),
                    read_stdout=False, pass_fds=(3, 4), preexec_fn=wire_pipes)
    os.close(to_browser_read)
    os.close(from_browser_write)
    devtools = DevTools(to_browser_write, from_browser_read)
    version = devtools.call("Browser.getVersion", timeout=60)
    log(f"  {version.get('product')} (DevTools over a pipe)")
    targets = devtools.call("Target.getTargets")["targetInfos"]
    page_target = next((t["targetId"] for t in targets if t["type"] == "page"), None)
    if page_target is None:
        page_target = devtools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = devtools.call("Target.attachToTarget", {"targetId": page_target, "flatten": True})["sessionId"]
    page = Page(devtools, session)
    for domain in ("Page.enable", "Runtime.enable", "Log.enable", "Performance.enable"):
        page.call(domain)
    page.call("Emulation.setDeviceMetricsOverride",
              {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    return devtools, page


# The keys press() knows: key -> (code, Windows virtual key code).
KEYS = {
    "ArrowUp": ("ArrowUp", 38), "ArrowDown": ("ArrowDown", 40), "End": ("End", 35), "Home": ("Home", 36),
    "j": ("KeyJ", 74), "k": ("KeyK", 75),
}


class Page:
    """The tab the test drives, through its DevTools session."""

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
