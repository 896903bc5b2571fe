#!/usr/bin/env python3
"""bench.py — the browser build's figures for README "In a browser" (a benchmark, not a test):
page load to first drawn frame, download sizes (raw and gzip), and the median frame time of each
view at 1280 x 720 in headless Chromium (SwiftShader), beside `rope-lab bench` of the desktop
build (llvmpipe) on the same machine in the same run, and the longest frame while the heatmap
computes its largest matrix (N = 4096, random content) a slice per frame.
Usage: bench.py BUILD_WEB_DIR [DESKTOP_ROPE_LAB]"""
import gzip
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

VIEWS = ["pointers", "sinusoidal", "trajectory", "sentence", "heatmap", "decay", "spectrum",
         "derivation", "precision", "extension", "code", "axial", "multimodal"]
# The largest matrix the heatmap computes: without threads the page computes it in slices between
# frames (views/heatmap_scores.h); the longest frame while it runs is what a class would see.
LARGE_HEATMAP = "#view=heatmap&positions=4096&content=random&dim=128"


def native_median(rope_lab, view):
    """The desktop's median frame time (ms) of the same view and size, still (no animation)."""
    out = subprocess.run([rope_lab, "bench", "--size", "1280x720", "--frames", "60", "--view",
                          view], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("frame time: median "):
            return float(line.split()[3])
    raise RuntimeError("no median in: " + out)


def main():
    web_dir = os.path.abspath(sys.argv[1])
    rope_lab = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(web_dir), "release", "app", "rope-lab")
    total_raw = total_gz = 0
    print("| file | bytes | gzip -9 |")
    print("| --- | --- | --- |")
    for name in ("index.html", "rope-lab.js", "rope-lab.wasm", "rope-lab.data"):
        with open(os.path.join(web_dir, name), "rb") as f:
            data = f.read()
        gz = len(gzip.compress(data, 9))
        total_raw += len(data)
        total_gz += gz
        print("| %s | %.2f MB | %.2f MB |" % (name, len(data) / 1e6, gz / 1e6))
    print("| all | %.2f MB | %.2f MB |" % (total_raw / 1e6, total_gz / 1e6))
    with cdp.serve(web_dir) as url:
        loads = []
        for _ in range(3):
            b = cdp.Browser(1280, 720)
            try:
                loads.append(b.open(url + "#view=pointers", frames=1))
            finally:
                b.close()
        print("page load to first frame: %s s (median %.2f s)" %
              (", ".join("%.2f" % t for t in loads), statistics.median(loads)))
        b = cdp.Browser(1280, 720)
        try:
            print("| view | browser: frame work (median ms) | browser: frame interval (median ms)"
                  " | desktop `rope-lab bench` (median ms) | browser work / desktop |")
            print("| --- | --- | --- | --- | --- |")
            for view in VIEWS:
                b.open(url + "#view=" + view, frames=20)
                b.wait_frames(60, timeout=240)
                times = b.eval("window.ropeLab.frameTimes.slice(-60)")
                stamps = b.eval("window.ropeLab.frameStamps.slice(-61)")
                gaps = [b2 - a for a, b2 in zip(stamps, stamps[1:])]
                native = native_median(rope_lab, view)
                print("| %s | %.1f | %.1f | %.1f | %.2f |" % (
                    view, statistics.median(times), statistics.median(gaps), native,
                    statistics.median(times) / native))
            # every frame from the page's load until the matrix is shown (the page keeps the
            # last 600 frame times; the slices of N = 4096 take fewer frames than that)
            b.open(url + LARGE_HEATMAP, frames=1)
            b.wait_frames(400, timeout=600)
            # the page's first frames build the font atlas and load the lessons (0.5-0.8 s in
            # the first one, measured): that is the page's start, not the heatmap's slices
            times = b.eval("window.ropeLab.frameTimes")[3:]
            print("heatmap N = 4096, random content, computed a slice per frame: frames 4 to %d, "
                  "longest frame work %.1f ms, median %.1f ms" %
                  (len(times) + 3, max(times), statistics.median(times)))
        finally:
            b.close()


if __name__ == "__main__":
    main()
