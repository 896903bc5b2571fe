#!/usr/bin/env python3
"""web_test.py — the browser build in Debian's headless Chromium (software WebGL 2), against the
desktop build's own pictures.  Usage: web_test.py BUILD_WEB_DIR [DESKTOP_ROPE_LAB]

  * every view and a sample of lesson steps render at 1280 x 720, and each picture matches
    `rope-lab screenshot` of the same state and size within the tolerance below;
  * a large heatmap is computed in slices between frames (the page keeps drawing), and ends
    with the desktop's picture;
  * keys act: → steps a lesson, D doubles d, the command palette runs a typed line; F5 is
    presentation mode in the browser's full screen (leaving full screen leaves it); the app's
    function and Ctrl keys are not the browser's (no reload, no "save page"), plain letters
    still type;
  * a link's state round-trips: the fragment the page writes opens the same state and picture;
  * a bad fragment shows its message on screen, naming the parameter, the other values applied;
  * a session saved in the browser opens on the desktop, a desktop session file opens in the
    browser, each with the other build's picture of it (the tolerance below); a broken one is
    refused with its reason;
  * Ctrl + P, 2, Enter downloads the 2x picture `rope-lab screenshot --scale 2` draws;
  * Ctrl + S downloads the session's JSON, Ctrl + E the CSV `rope-lab export` writes (the same
    table; a value may differ from the desktop's in its last bits: musl's libm is not glibc's).
Prints one line per check and "N passed, M failed"; exits non-zero on a failure.

Tolerance: the two builds draw with different rasterisers (Mesa's llvmpipe, SwiftShader), so
anti-aliased edges differ by a few levels; a picture matches when the mean difference over all
pixels and channels is at most MEAN_LEVELS and at most FAR_FRACTION of the pixels differ by more
than FAR_LEVELS in a channel (a misplaced label or a missing curve exceeds both)."""
import base64
import json
import os
import subprocess
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

MEAN_LEVELS = 3.0
FAR_LEVELS = 64
FAR_FRACTION = 0.01
SIZE = (1280, 720)

VIEWS = ["pointers", "sinusoidal", "trajectory", "sentence", "heatmap", "decay", "spectrum",
         "precision", "extension", "code", "axial", "multimodal"]
LESSON_STEPS = [("03-rope-2d", 2), ("10-precision", 6), ("12-scaling-methods", 3),
                ("17-multimodal", 3)]

passed, failed = [], []


def check(name, ok, detail=""):
    (passed if ok else failed).append(name)
    print(("ok      " if ok else "FAILED  ") + name + ((": " + detail) if detail else ""),
          flush=True)


def desktop_png(rope_lab, flags, out):
    subprocess.run([rope_lab, "screenshot", "--size", "%dx%d" % SIZE, "-o", out, *flags],
                   check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, HOME=out + ".home"))
    with open(out, "rb") as f:
        return f.read()


def flags_of(fragment):
    flags = []
    for entry in fragment.split("&"):
        name, _, value = entry.partition("=")
        flags += ["--" + name, value]
    return flags


def compare_with_desktop(browser, rope_lab, url, fragment, tmp, name):
    browser.open(url + "#" + fragment, frames=8)
    browser.wait_frames(4)
    shot = browser.screenshot()
    with open(os.path.join(tmp, name + "-web.png"), "wb") as f:
        f.write(shot)
    ref = desktop_png(rope_lab, flags_of(fragment), os.path.join(tmp, name + "-desktop.png"))
    mean, far = cdp.compare(cdp.read_png(shot), cdp.read_png(ref), FAR_LEVELS)
    check("%s matches the desktop" % fragment, mean <= MEAN_LEVELS and far <= FAR_FRACTION,
          "mean %.2f levels, %.2f %% of pixels past %d" % (mean, 100 * far, FAR_LEVELS))


def main():
    web_dir = os.path.abspath(sys.argv[1])
    rope_lab = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(web_dir), "release", "app", "rope-lab")
    tmp = os.environ.get("ROPE_WEB_OUT") or tempfile.mkdtemp(prefix="rope-web-test-")
    os.makedirs(tmp, exist_ok=True)
    print("web: pictures in " + tmp)
    with cdp.serve(web_dir) as url:
        browser = cdp.Browser(*SIZE)
        try:
            first = browser.open(url + "#view=pointers", frames=2)
            check("the page draws its first frame", first is not None,
                  "%.2f s after navigation" % (first or -1))

            for view in VIEWS:
                compare_with_desktop(browser, rope_lab, url, "view=" + view, tmp, view)
            for lesson, step in LESSON_STEPS:
                compare_with_desktop(browser, rope_lab, url, "lesson=%s&step=%d" % (lesson, step),
                                     tmp, "%s-%d" % (lesson, step))

            # a large heatmap (2048 x 2048 x 256, about 1 G multiply-adds) is computed in
            # slices between frames: the page keeps drawing meanwhile, and the matrix it ends
            # with is the desktop's
            # (the first matrix a view shows is waited for, as on the desktop: N doubles twice
            # from 512 instead)
            large = "view=heatmap&positions=2048&content=random&dim=256"
            browser.open(url + "#view=heatmap&positions=512&content=random&dim=256", frames=3)
            browser.key("n")
            browser.key("n")
            first = last = None
            deadline = time.time() + 180
            while time.time() < deadline:
                s = browser.state()
                if s and s.get("computing"):
                    n = browser.frames()
                    first = n if first is None else first
                    last = n
                elif first is not None or (s and browser.frames() > 60):
                    break
                time.sleep(0.02)
            drawn = (last - first) if first is not None else 0
            check("a large heatmap is computed in slices, the page drawing meanwhile",
                  drawn >= 3 and not browser.state()["computing"],
                  "%d frames drawn while it was computed" % drawn)
            browser.wait_frames(2)
            shot = browser.screenshot()
            ref = desktop_png(rope_lab, flags_of(large), os.path.join(tmp, "large-desktop.png"))
            mean, far = cdp.compare(cdp.read_png(shot), cdp.read_png(ref), FAR_LEVELS)
            check("the sliced heatmap matches the desktop's", mean <= MEAN_LEVELS and
                  far <= FAR_FRACTION, "mean %.2f levels, %.2f %% of pixels past %d" % (
                      mean, 100 * far, FAR_LEVELS))

            # keys
            browser.open(url + "#lesson=03-rope-2d&step=1", frames=4)
            browser.key("ArrowRight")
            browser.wait_frames(4)
            check("→ steps a lesson", browser.state()["step"] == 2, str(browser.state()))
            browser.open(url + "#view=pointers&dim=8", frames=4)
            browser.key("d")
            browser.wait_frames(4)
            check("D doubles d", browser.state()["dim"] == 16, str(browser.state()))

            # the command palette: Ctrl + K, a typed line, Enter (its link then holds the change)
            browser.open(url + "#view=pointers&dim=8", frames=4)
            browser.key("k", modifiers=2)
            browser.wait_frames(3)
            for c in "yarn 16":
                browser.key(c)
            browser.wait_frames(2)
            browser.key("Enter")
            browser.wait_frames(4)
            link = browser.state()["link"]
            check("Ctrl + K, 'yarn 16', Enter: the palette sets the method and its factor",
                  "scaling=yarn" in link and "factor=16" in link, link)

            # the app's keys are the app's: F5 presents (not a reload), in the browser's full
            # screen; Ctrl + S is not the browser's "save page"; plain letters stay characters
            browser.open(url + "#lesson=03-rope-2d&step=1", frames=4)
            browser.eval("window.__keys = []; window.addEventListener('keydown', function(e) {"
                         " window.__keys.push([e.key, e.ctrlKey, e.defaultPrevented]); });"
                         " window.__page = performance.timeOrigin; 0")
            browser.key("F5")
            browser.wait_frames(6)
            s = browser.state()
            full = browser.eval("!!document.fullscreenElement")
            same_page = browser.eval("window.__page === performance.timeOrigin")
            check("F5 is presentation mode in the browser's full screen, not a reload",
                  s["presentation"] and full and same_page, "%s; full screen %s" % (s, full))
            browser.eval("document.exitFullscreen().then(function() { return 0; })")
            browser.wait_frames(6)
            s = browser.state()
            check("leaving the browser's full screen leaves presentation mode",
                  not s["presentation"] and not browser.eval("!!document.fullscreenElement"),
                  str(s))
            browser.key("s", modifiers=2)
            browser.key("d")
            browser.wait_frames(2)
            keys = browser.eval("window.__keys")
            prevented = {(k, c): p for k, c, p in keys}
            check("F5 and Ctrl + S are taken from the browser, a plain letter is not",
                  prevented.get(("F5", False)) is True and prevented.get(("s", True)) is True
                  and prevented.get(("d", False)) is False, str(keys))

            # files the browser way: Ctrl + S downloads the session, Ctrl + E the view's CSV
            browser.open(url + "#view=decay&dim=32", frames=4)
            browser.key("s", modifiers=2)
            browser.key("e", modifiers=2)
            browser.wait_frames(4)
            downloads = browser.eval("window.ropeLab.downloads")
            names = [d["name"] for d in downloads]
            session = [d for d in downloads if d["name"].endswith(".json")]
            check("Ctrl + S downloads the session's JSON",
                  len(session) == 1 and '"dim": 32' in session[0]["text"], str(names))
            csv = [d for d in downloads if d["name"].endswith(".csv")]
            ref = os.path.join(tmp, "decay-desktop.csv")
            subprocess.run([rope_lab, "export", "decay", "--dim", "32", "--base", "10000",
                            "--max-distance", "256", "-o", ref], check=True,
                           stdout=subprocess.DEVNULL)
            with open(ref, encoding="utf-8") as f:
                want = f.read()
            # the same table; a value may differ in its last bits, since the browser's libm
            # (musl's sin, cos, exp) is not glibc's
            ok, worst, same = len(csv) == 1, 0.0, 0
            got_rows = csv[0]["text"].splitlines() if ok else []
            want_rows = want.splitlines()
            ok = ok and len(got_rows) == len(want_rows) and got_rows[0] == want_rows[0]
            for g, w in zip(got_rows[1:], want_rows[1:]) if ok else []:
                gv, wv = g.split(","), w.split(",")
                ok = ok and len(gv) == len(wv)
                for a, b in zip(gv, wv):
                    fa, fb = float(a), float(b)
                    worst = max(worst, abs(fa - fb) / max(abs(fb), 1e-300))
                same += g == w
            check("Ctrl + E downloads the CSV rope-lab export writes",
                  ok and worst <= 1e-13, "%d of %d rows identical, largest relative difference "
                  "%.1e" % (same, len(want_rows) - 1, worst))

            # sessions cross over: one saved in the browser opens on the desktop, a desktop
            # session file opened in the browser (as the file picker or a drop hands it over),
            # each with the same state and the same picture as the other build draws
            browser.open(url + "#view=extension&dim=64", frames=4)
            browser.key("b")  # base 500 000
            browser.key("d")  # d = 128
            browser.wait_frames(4)
            shot = browser.screenshot()
            browser.eval("window.ropeLab.downloads = []; 0")
            browser.key("s", modifiers=2)
            browser.wait_frames(3)
            saved = [d for d in browser.eval("window.ropeLab.downloads")
                     if d["name"].endswith(".json")]
            ok = len(saved) == 1
            detail = "no session downloaded"
            if ok:
                session = os.path.join(tmp, "browser-session.json")
                with open(session, "w", encoding="utf-8") as f:
                    f.write(saved[0]["text"])
                ref = desktop_png(rope_lab, ["--session", session],
                                  os.path.join(tmp, "browser-session-desktop.png"))
                mean, far = cdp.compare(cdp.read_png(shot), cdp.read_png(ref), FAR_LEVELS)
                ok = mean <= MEAN_LEVELS and far <= FAR_FRACTION
                detail = "mean %.2f levels, %.2f %% of pixels past %d" % (mean, 100 * far,
                                                                          FAR_LEVELS)
            check("a session saved in the browser opens on the desktop, the same picture", ok,
                  detail)
            here = os.path.dirname(os.path.abspath(__file__))
            desktop_session = os.path.join(here, "..", "fuzz", "corpus", "session",
                                           "scaling.json")
            with open(desktop_session, encoding="utf-8") as f:
                text = f.read()
            browser.open(url + "#view=pointers", frames=4)
            browser.eval("Module.ropeOpenFile(new File([%s], 'scaling.json')); 0"
                         % json.dumps(text))
            browser.wait_frames(4)
            s = browser.state()
            # the "Session opened" notice is not in the desktop's picture: let it go first
            time.sleep(3.5)
            browser.wait_frames(3)
            ref = desktop_png(rope_lab, ["--session", desktop_session],
                              os.path.join(tmp, "desktop-session-desktop.png"))
            web_shot = browser.screenshot()
            with open(os.path.join(tmp, "desktop-session-web.png"), "wb") as f:
                f.write(web_shot)
            mean, far = cdp.compare(cdp.read_png(web_shot), cdp.read_png(ref), FAR_LEVELS)
            check("a desktop session opens in the browser, the same picture",
                  s["view"] == "extension" and s["dim"] == 128 and "opened" in s["notice"]
                  and mean <= MEAN_LEVELS and far <= FAR_FRACTION,
                  "%s; mean %.2f levels, %.2f %% of pixels past %d" % (
                      s["notice"], mean, 100 * far, FAR_LEVELS))

            # a model's config.json opened the same way is read as the model (state/hf_config.h)
            config = os.path.join(here, "..", "fixtures", "configs", "llama-3.1-8b.json")
            with open(config, encoding="utf-8") as f:
                text = f.read()
            browser.open(url + "#view=extension", frames=4)
            browser.eval("Module.ropeOpenFile(new File([%s], 'config.json')); 0" % json.dumps(text))
            browser.wait_frames(4)
            s = browser.state()
            check("a model's config.json opens in the browser as the model",
                  s["dim"] == 128 and "Model config opened" in s["notice"]
                  and not s["notice_is_error"], s["notice"])

            # a broken session file is refused with its reason, the state as it was
            browser.open(url + "#view=decay&dim=32", frames=4)
            browser.eval("Module.ropeOpenFile(new File(['{\"format\": \"rope-lab-session\", "
                         "\"params\": {\"dim\": 7'], 'broken.json')); 0")
            browser.wait_frames(4)
            s = browser.state()
            check("a broken session file is refused with its reason, the state unchanged",
                  s["notice_is_error"] and "broken.json" in s["notice"] and s["view"] == "decay"
                  and s["dim"] == 32, s["notice"])

            # File > Export picture at 2x: drawn at that size in the page, as the desktop draws it
            browser.open(url + "#view=spectrum&dim=64", frames=4)
            browser.key("p", modifiers=2)
            browser.wait_frames(3)
            browser.key("2")
            browser.wait_frames(3)
            browser.key("Enter")
            browser.wait_frames(4)
            picture = browser.eval("window.ropeLab.lastImage || ''")
            ok = bool(picture)
            detail = browser.state()["notice"]
            if ok:
                got = cdp.read_png(base64.b64decode(picture))
                ref_path = os.path.join(tmp, "spectrum-2x-desktop.png")
                subprocess.run([rope_lab, "screenshot", "--size", "%dx%d" % SIZE, "--scale", "2",
                                "--view", "spectrum", "--dim", "64", "-o", ref_path], check=True,
                               stdout=subprocess.DEVNULL, env=dict(os.environ, HOME=tmp))
                with open(os.path.join(tmp, "spectrum-2x-web.png"), "wb") as f:
                    f.write(base64.b64decode(picture))
                with open(ref_path, "rb") as f:
                    want = cdp.read_png(f.read())
                ok = got[:2] == (2 * SIZE[0], 2 * SIZE[1])
                detail += "; %dx%d" % got[:2]
                if ok:
                    mean, far = cdp.compare(got, want, FAR_LEVELS)
                    ok = mean <= MEAN_LEVELS and far <= FAR_FRACTION
                    detail += "; mean %.2f levels, %.2f %% of pixels past %d" % (
                        mean, 100 * far, FAR_LEVELS)
            check("Ctrl + P, 2, Enter downloads the 2x picture the desktop draws", ok, detail)

            # a link round-trips
            link = "view=extension&dim=128&base=10000&scaling=yarn&factor=16&original-context=4096"
            browser.open(url + "#" + link, frames=6)
            written = browser.state()["link"]
            # the page writes the values that differ from a fresh state's (base 10000 and the
            # original context 4096 are the defaults)
            check("the page's link is the state's",
                  written == "view=extension&dim=128&scaling=yarn&factor=16", written)
            first_shot = cdp.read_png(browser.screenshot())
            browser.open(url + "about:blank".replace("about:blank", "") + "#" + written, frames=6)
            again = browser.state()["link"]
            mean, far = cdp.compare(first_shot, cdp.read_png(browser.screenshot()), FAR_LEVELS)
            check("the written link opens the same state and picture",
                  again == written and mean < 0.5, "%s; mean %.2f" % (again, mean))

            # a bad fragment: its message, the rest applied
            browser.open(url + "#view=decay&dim=7&base=500000", frames=6)
            s = browser.state()
            check("a bad fragment names the parameter on screen",
                  s["notice_is_error"] and "dim" in s["notice"], s["notice"])
            check("a bad fragment keeps the other values",
                  s["view"] == "decay" and "base=500000" in s["link"], s["link"])
            with open(os.path.join(tmp, "bad-fragment-web.png"), "wb") as f:
                f.write(browser.screenshot())
        finally:
            browser.close()
    print("%d passed, %d failed" % (len(passed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    # a SIGTERM (ctest's or CI's time-out) unwinds through main's finally, which ends Chromium
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
