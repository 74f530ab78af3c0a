"""PageTest: what the scenarios share. It counts and prints the checks, takes the screenshots,
records with the fixture, serves recordings with katana-inspector, opens the page, and runs the
scenarios asked for in a browser it starts. cleanup() stops every process it started."""

import os
import shutil
import tempfile

from . import browser
from .failure import Failure, log
from .programs import Processes, run
from .scenarios import SCENARIOS


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

    def record(self, name, extra=None):
        """Has the fixture write its recording (with extra more items) to name in the work folder."""
        path = os.path.join(self.work, name)
        argv = [self.args.fixture, "record", path]
        if extra is not None:
            argv += ["--extra", str(extra)]
        run(argv, f"inspector-page-fixture record ({name})", timeout=300)
        if not os.path.exists(path):
            raise Failure(f"inspector-page-fixture record did not write {path}")
        return path

    def serve(self, name, path, token=None):
        """Starts katana-inspector on the recording at path; returns it and the address it printed."""
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

    # -- all of it

    def run(self):
        os.makedirs(self.logs, exist_ok=True)
        for name in os.listdir(self.out):
            if name.endswith(".png"):
                os.remove(os.path.join(self.out, name))
        for program in (self.args.inspector, self.args.fixture):
            if not os.access(program, os.X_OK):
                raise Failure(f"not an executable: {program}")
        self.devtools, self.page = browser.launch(self.processes, self.args.chromium, self.work, self.logs)
        for name in self.args.only or list(SCENARIOS):
            SCENARIOS[name](self)

    def cleanup(self):
        self.processes.stop_all()
        shutil.rmtree(self.work, ignore_errors=True)
