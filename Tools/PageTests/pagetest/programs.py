"""The programs the test starts, each in a process group of its own so that stopping it stops
everything it started; one-off runs of a program; and plain HTTP GETs against the inspector."""

import json
import os
import queue
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request

from .failure import Failure


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
    """The programs running now, so that whatever happens they can all be stopped."""

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
    """Runs a program to its end; returns what it printed, or raises Failure if it failed."""
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
