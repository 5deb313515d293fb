"""Open a report page in headless Chromium and check what a reader sees.

Chromium runs with ``--remote-debugging-pipe``: it reads DevTools-protocol commands
(JSON, each ended by a NUL byte) from file descriptor 3 and writes answers and events
to descriptor 4 (only the standard library here). The check opens a page target,
enables the Page, Runtime, Log and Network domains, sets a fixed viewport, navigates
to the file and waits for its load event; then it reads the DOM (tables, plots,
section titles, the ``data-aeskit`` elements and their laid-out sizes), takes a PNG
screenshot of the viewport, and keeps every failed resource load (Network
``loadingFailed``, HTTP status >= 400, network log entries) and every console error
(``console.error``/``assert``, uncaught exceptions, error log entries). With the
``report.json`` beside the page it also lists what the page lacks against
:func:`aeskit.report.layout.expected_layout`.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import signal
import struct
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aeskit.report.layout import compare, expected_layout

CHROMIUM = Path("/usr/bin/chromium")
VIEWPORT: tuple[int, int] = (1280, 1800)
TIMEOUT_S = 60.0

#: evaluated in the loaded page: what the check counts
_DOM_QUERY = """(() => {
  const named = {};
  for (const el of document.querySelectorAll('[data-aeskit]')) {
    const r = el.getBoundingClientRect();
    named[el.getAttribute('data-aeskit')] = [r.width, r.height];
  }
  return JSON.stringify({
    tables: document.querySelectorAll('table').length,
    plots: Array.from(document.querySelectorAll('svg'))
      .filter(s => !s.parentElement.closest('svg')).length,
    titles: Array.from(document.querySelectorAll('h2')).map(h => h.textContent.trim()),
    named: named,
    images: Array.from(document.images)
      .filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
    height: document.documentElement.scrollHeight,
  });
})()"""


class BrowserError(RuntimeError):
    """Chromium is missing, did not start, or did not answer in time."""


@dataclass
class BrowserCheck:
    """What Chromium found on the page. ``missing`` is empty when every section title,
    table and plot ``report.json`` implies is on the page (``None``: no report to
    compare against)."""

    url: str
    tables: int
    plots: int
    section_titles: list[str]
    elements: dict[str, tuple[float, float]]
    failed_loads: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    missing: list[str] | None = None
    screenshot: Path | None = None
    screenshot_size: tuple[int, int] | None = None
    page_height: int = 0

    @property
    def ok(self) -> bool:
        return not self.failed_loads and not self.console_errors and not self.missing

    def summary(self) -> str:
        lines = [f"browser check of {self.url}: {'OK' if self.ok else 'FAILED'}",
                 f"  {self.tables} tables, {self.plots} SVG plots, "
                 f"{len(self.section_titles)} section titles, page {self.page_height} px high",
                 f"  sections: {', '.join(self.section_titles) or '-'}"]
        if self.screenshot is not None and self.screenshot_size is not None:
            w, h = self.screenshot_size
            lines.append(f"  screenshot: {self.screenshot} ({w} x {h} PNG)")
        lines.append("  every table and plot of report.json present: " + (
            "not compared (no report.json)" if self.missing is None
            else "yes" if not self.missing else "NO"))
        lines += [f"  missing: {m}" for m in self.missing or []]
        lines.append(f"  failed resource loads: {len(self.failed_loads)}")
        lines += [f"    {f}" for f in self.failed_loads]
        lines.append(f"  console errors: {len(self.console_errors)}")
        lines += [f"    {e}" for e in self.console_errors]
        return "\n".join(lines)


def find_chromium() -> Path:
    """Chromium's launcher (``AESKIT_CHROMIUM`` overrides ``/usr/bin/chromium``)."""
    path = Path(os.environ.get("AESKIT_CHROMIUM", str(CHROMIUM)))
    if not (path.is_file() and os.access(path, os.X_OK)):
        raise BrowserError(f"Chromium not found at {path}: the browser check needs Debian's "
                           f"chromium (tools/setup_venv.sh installs it as root; elsewhere "
                           f"sudo apt-get install --no-install-recommends chromium)")
    return path


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk; ``ValueError`` if ``data`` is not a PNG."""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    w, h = struct.unpack(">II", data[16:24])
    return int(w), int(h)


class _Pipe:
    """The DevTools protocol over Chromium's descriptors 3 (in) and 4 (out)."""

    def __init__(self, chromium: Path, profile: Path, log: Path) -> None:
        to_child_r, self._w = os.pipe()
        self._r, from_child_w = os.pipe()
        # the child's ends above 4, so that placing them on 3 and 4 cannot clobber one
        child_in = fcntl.fcntl(to_child_r, fcntl.F_DUPFD_CLOEXEC, 10)
        child_out = fcntl.fcntl(from_child_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_child_r)
        os.close(from_child_w)
        args = [str(chromium), "--headless", "--remote-debugging-pipe",
                f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
                "--disable-gpu", "--disable-extensions", "--disable-background-networking",
                "--disable-sync", "--hide-scrollbars", "--mute-audio",
                "--allow-file-access-from-files"]
        if os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses its sandbox as root
        actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 1, str(log), os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                    0o644),
                   (os.POSIX_SPAWN_DUP2, 1, 2),
                   (os.POSIX_SPAWN_DUP2, child_in, 3),
                   (os.POSIX_SPAWN_DUP2, child_out, 4)]
        try:
            self.pid = os.posix_spawn(str(chromium), args, dict(os.environ),
                                      file_actions=actions, setsid=True)
        finally:
            os.close(child_in)
            os.close(child_out)
        self._log = log
        self._buf = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, params: Mapping[str, Any] | None = None,
             session: str | None = None, timeout: float = TIMEOUT_S) -> dict[str, Any]:
        """Send a command and wait for its answer (events meanwhile go to ``events``)."""
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": dict(params or {})}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        want = self._next
        answer = self._until(lambda m: m.get("id") == want, timeout, method)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error'].get('message', answer['error'])}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    def wait_event(self, method: str, timeout: float = TIMEOUT_S) -> dict[str, Any]:
        for ev in self.events:
            if ev.get("method") == method:
                return ev
        return self._until(lambda m: m.get("method") == method, timeout, method)

    def _until(self, done: Callable[[dict[str, Any]], bool], timeout: float,
               what: str) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "id" not in msg:
                    self.events.append(msg)
                if done(msg):
                    return msg
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError(f"Chromium did not answer {what} within {timeout:g} s "
                                   f"(its output: {self._log})")
            ready, _, _ = select.select([self._r], [], [], left)
            if ready:
                chunk = os.read(self._r, 1 << 20)
                if not chunk:
                    raise BrowserError(f"Chromium exited before answering {what}: "
                                       f"{self._log.read_text(errors='replace')[-2000:]}")
                self._buf += chunk

    def close(self) -> None:
        try:
            os.write(self._w, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
        except OSError:
            pass
        os.close(self._w)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            pid, _ = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.1)
        else:
            os.killpg(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        try:  # helpers left in the session Chromium was started in (setsid: its id)
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.close(self._r)


def _failures(events: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """Failed loads and console errors from the page's events."""
    urls: dict[str, str] = {}
    loads: list[str] = []
    errors: list[str] = []
    for ev in events:
        m, p = ev.get("method"), ev.get("params", {})
        if m == "Network.requestWillBeSent":
            urls[p["requestId"]] = p["request"]["url"]
        elif m == "Network.loadingFailed" and not p.get("canceled"):
            loads.append(f"{urls.get(p['requestId'], p['requestId'])}: {p.get('errorText')}")
        elif m == "Network.responseReceived" and p["response"].get("status", 0) >= 400:
            r = p["response"]
            loads.append(f"{r['url']}: HTTP {r['status']}")
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])
            errors.append(f"console.{p['type']}: {text}")
        elif m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            errors.append("uncaught: " + " ".join(
                str(d.get("exception", {}).get("description", d["text"])).split()))
        elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
            e = p["entry"]
            if e.get("source") == "network":
                url = e.get("url", "")
                if not any(f.startswith(f"{url}:") for f in loads):
                    loads.append(f"{url}: {e['text']}")
            else:
                errors.append(f"{e.get('source')}: {e['text']}")
    return loads, errors


def _wait_loaded(pipe: _Pipe, session: str, url: str, timeout: float) -> None:
    """Until the page shows ``url`` fully loaded (a load event of the blank page the
    target opened with must not count)."""
    deadline = time.monotonic() + timeout
    while True:
        state = pipe.send("Runtime.evaluate", {
            "expression": "document.readyState + ' ' + location.href",
            "returnByValue": True}, session=session)["result"].get("value", "")
        if state == f"complete {url}":
            return
        if time.monotonic() > deadline:
            raise BrowserError(f"{url} did not finish loading within {timeout:g} s ({state})")
        time.sleep(0.05)


def check_report(html_path: Path, screenshot: Path | None = None, *,
                 report: Mapping[str, Any] | None = None,
                 viewport: tuple[int, int] = VIEWPORT,
                 timeout: float = TIMEOUT_S) -> BrowserCheck:
    """Load ``html_path`` in headless Chromium and report what it shows; write a PNG of
    the ``viewport`` (width, height in CSS pixels, device scale 1) to ``screenshot``.
    ``report``: the report dict to compare against (default: ``report.json`` beside the
    page, when there is one). Raises :class:`BrowserError` when Chromium is missing or
    fails; a page with problems is a result (``BrowserCheck.ok`` false), not an error."""
    chromium = find_chromium()
    html_path = html_path.resolve()
    if not html_path.is_file():
        raise BrowserError(f"no page at {html_path}")
    if report is None and (html_path.parent / "report.json").is_file():
        report = json.loads((html_path.parent / "report.json").read_text())
    url = html_path.as_uri()
    tmp = Path(tempfile.mkdtemp(prefix="aeskit-chromium-"))
    try:
        pipe = _Pipe(chromium, tmp / "profile", tmp / "chromium.log")
        try:
            target = pipe.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = pipe.send("Target.attachToTarget",
                                {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log", "Network"):
                pipe.send(f"{domain}.enable", session=session)
            pipe.send("Emulation.setDeviceMetricsOverride",
                      {"width": viewport[0], "height": viewport[1], "deviceScaleFactor": 1,
                       "mobile": False}, session=session)
            pipe.events.clear()
            nav = pipe.send("Page.navigate", {"url": url}, session=session, timeout=timeout)
            if nav.get("errorText"):
                raise BrowserError(f"Chromium could not open {url}: {nav['errorText']}")
            pipe.wait_event("Page.loadEventFired", timeout)
            _wait_loaded(pipe, session, url, timeout)
            dom = json.loads(pipe.send("Runtime.evaluate",
                                       {"expression": _DOM_QUERY, "returnByValue": True},
                                       session=session)["result"]["value"])
            shot = size = None
            if screenshot is not None:
                data = base64.b64decode(pipe.send("Page.captureScreenshot", {"format": "png"},
                                                  session=session, timeout=timeout)["data"])
                screenshot.parent.mkdir(parents=True, exist_ok=True)
                screenshot.write_bytes(data)
                shot, size = screenshot, png_size(data)
            pipe.send("Runtime.evaluate", {"expression": "0"}, session=session)  # flush events
            events = [e for e in pipe.events if e.get("sessionId") == session]
        finally:
            pipe.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    loads, errors = _failures(events)
    for src in dom["images"]:
        if not any(f.startswith(f"{src}:") for f in loads):
            loads.append(f"{src}: image did not load")
    elements = {k: (float(v[0]), float(v[1])) for k, v in dom["named"].items()}
    check = BrowserCheck(url=url, tables=int(dom["tables"]), plots=int(dom["plots"]),
                         section_titles=list(dom["titles"]), elements=elements,
                         failed_loads=loads, console_errors=errors, screenshot=shot,
                         screenshot_size=size, page_height=int(dom["height"]))
    if report is not None:
        check.missing = compare(expected_layout(report), check.section_titles, elements,
                                check.tables, check.plots)
    return check


def check_and_print(html_path: Path, screenshot: Path | None,
                    say: Callable[[str], None] = print) -> bool:
    """``aeskit report --check-browser``: run the check, print its summary (or why it
    could not run); True when the page passed."""
    try:
        check = check_report(html_path, screenshot)
    except BrowserError as exc:
        say(f"browser check of {html_path} could not run: {exc}")
        return False
    say(check.summary())
    return check.ok
