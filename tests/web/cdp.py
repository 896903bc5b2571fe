"""cdp.py — the browser build's test harness: serves build/web/ on 127.0.0.1, starts Debian's
headless Chromium (software WebGL 2 through SwiftShader) and drives one page through the
DevTools protocol (python3-websocket): load a link, wait for frames, press keys, read the
page's window.ropeLab record (app/shell/web_page.js), take screenshots.

Also a small PNG reader (zlib only) for comparing pictures with the desktop's."""
import base64
import contextlib
import http.server
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import urllib.request
import zlib

import websocket


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(folder):
    """build/web/ over http://127.0.0.1:PORT/ in a thread (file:// cannot fetch .wasm)."""
    handler = lambda *a, **k: QuietHandler(*a, directory=folder, **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield "http://127.0.0.1:%d/" % server.server_address[1]
    finally:
        server.shutdown()


class Browser:
    """One headless Chromium with one page, at a window size in CSS pixels (ratio 1)."""

    def __init__(self, width=1280, height=720, extra=()):
        self.profile = tempfile.mkdtemp(prefix="rope-web-")
        self.port = free_port()
        self.proc = subprocess.Popen(
            ["chromium-headless-shell", "--no-sandbox", "--use-angle=swiftshader",
             "--enable-unsafe-swiftshader", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             "--disable-gpu-vsync", "--user-data-dir=" + self.profile,
             "--remote-debugging-port=%d" % self.port,
             "--window-size=%d,%d" % (width, height), *extra, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # its own process group: close() ends the zygote, GPU and renderer children with it
            start_new_session=True)
        self.ws = None
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % self.port,
                                            timeout=2) as r:
                    pages = [t for t in json.load(r) if t["type"] == "page"]
                if pages:
                    self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"],
                                                          timeout=60)
                    break
            except OSError:
                pass
            time.sleep(0.2)
        if self.ws is None:
            self.close()
            raise RuntimeError("headless Chromium did not start")
        self.next_id = 0
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)

    def send(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})

    def eval(self, expression):
        r = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expression, r["exceptionDetails"]))
        return r["result"].get("value")

    def open(self, url, frames=3, timeout=60):
        """Loads url and waits until the app has drawn `frames` frames; returns the seconds
        from navigation to the first frame."""
        # a new query each time: a change of the fragment alone is not a new page
        self.loads = getattr(self, "loads", 0) + 1
        base, _, fragment = url.partition("#")
        url = base + ("&" if "?" in base else "?") + "load=%d" % self.loads + (
            "#" + fragment if fragment else "")
        self.send("Page.navigate", url=url)
        self.wait_frames(frames, timeout, fresh=True)
        return self.eval("window.ropeLab.firstFrameAt / 1000")

    def frames(self):
        return self.eval("window.ropeLab ? window.ropeLab.frames : 0") or 0

    def wait_frames(self, n, timeout=60, fresh=False):
        base = 0 if fresh else self.frames()
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.frames() >= base + n:
                    return
                errors = self.eval("window.ropeLab ? window.ropeLab.errors : []")
                if errors:
                    raise RuntimeError("the page failed: %s" % errors)
            except (RuntimeError, websocket.WebSocketException):
                if fresh and time.time() < deadline:
                    time.sleep(0.2)
                    continue
                raise
            time.sleep(0.05)
        raise RuntimeError("timeout: fewer than %d frames in %d s" % (n, timeout))

    def state(self):
        return self.eval("window.ropeLab.state")

    KEYS = {"ArrowRight": (39, "ArrowRight", ""), "ArrowLeft": (37, "ArrowLeft", ""),
            "F12": (123, "F12", ""), "F5": (116, "F5", ""), "F1": (112, "F1", ""),
            "Escape": (27, "Escape", ""), " ": (32, "Space", " "), "Enter": (13, "Enter", "\r")}

    def key(self, key, modifiers=0):
        """A key press and release as the browser delivers a typed key ('d', 'D', 'ArrowRight')."""
        if key in self.KEYS:
            code, name, text = self.KEYS[key]
        else:
            code, name, text = ord(key.upper()), "Key" + key.upper(), key
        if key.isupper() and len(key) == 1:
            modifiers |= 8
        if modifiers & 2:  # with Ctrl held a key types no character
            text = ""
        common = dict(windowsVirtualKeyCode=code, nativeVirtualKeyCode=code, code=name, key=key,
                      modifiers=modifiers)
        # GLFW in the page knows modifiers from their own key events: press them around the key
        held = [(2, 17, "ControlLeft", "Control"), (8, 16, "ShiftLeft", "Shift")]
        held = [h for h in held if modifiers & h[0] and not (h[0] == 8 and key.isupper())]
        for _, c, n, k in held:
            self.send("Input.dispatchKeyEvent", type="rawKeyDown", windowsVirtualKeyCode=c,
                      nativeVirtualKeyCode=c, code=n, key=k, modifiers=modifiers)
        self.send("Input.dispatchKeyEvent", type="keyDown", text=text, **common)
        self.send("Input.dispatchKeyEvent", type="keyUp", **common)
        for _, c, n, k in reversed(held):
            self.send("Input.dispatchKeyEvent", type="keyUp", windowsVirtualKeyCode=c,
                      nativeVirtualKeyCode=c, code=n, key=k, modifiers=0)

    def screenshot(self):
        data = self.send("Page.captureScreenshot", format="png")["data"]
        return base64.b64decode(data)

    def close(self):
        with contextlib.suppress(Exception):
            if self.ws:
                self.ws.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        # whatever of the group is left (a renderer that ignored SIGTERM)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        shutil.rmtree(self.profile, ignore_errors=True)


def read_png(data):
    """(width, height, rows of RGBA bytes) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "only 8-bit RGB(A) PNGs"
            channels = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        prev = line
        if channels == 3:
            line = bytearray(b for px in range(width) for b in (*line[px * 3:px * 3 + 3], 255))
        rows.append(bytes(line))
    return width, height, rows


def compare(a, b, threshold=48):
    """(mean absolute difference in levels over RGB, fraction of pixels where a channel differs
    by more than threshold) of two decoded pictures of the same size."""
    (wa, ha, ra), (wb, hb, rb) = a, b
    if (wa, ha) != (wb, hb):
        raise ValueError("sizes differ: %dx%d and %dx%d" % (wa, ha, wb, hb))
    total, far = 0, 0
    for y in range(ha):
        la, lb = ra[y], rb[y]
        for x in range(0, wa * 4, 4):
            d = max(abs(la[x] - lb[x]), abs(la[x + 1] - lb[x + 1]), abs(la[x + 2] - lb[x + 2]))
            total += abs(la[x] - lb[x]) + abs(la[x + 1] - lb[x + 1]) + abs(la[x + 2] - lb[x + 2])
            if d > threshold:
                far += 1
    n = wa * ha
    return total / (3.0 * n), far / float(n)
