"""The Chrome DevTools protocol over a pipe (Chromium's --remote-debugging-pipe).

Commands are written to the browser's file descriptor 3 and answers read from its file descriptor
4, each message a JSON object followed by a NUL byte. A reader thread matches answers to the calls
waiting for them, and collects what the page reports on its own: uncaught exceptions, console
errors and Content-Security-Policy violations.
"""

import json
import os
import threading

from .failure import Failure


class DevTools:
    """A connection to the browser; call() sends a command (to a page when given its session)."""

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
