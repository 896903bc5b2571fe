#!/usr/bin/python3
"""bench_scores.py: RoPE Lab's fast score matrix against NumPy on this machine (issue 32).

The job, for N positions (2048 and 4096), d = 128, base 10 000, interleaved pairs, q and k random
per position: rotate every q_m and k_n by RoPE, then S = Q' K'^T ([N][N], float32).

  RoPE Lab  tests/core/score_timer (encode_qk_fast + score_rows_fast, the heatmap's path), with
            1 and 2 threads sharing the rows.
  NumPy f32 the fastest NumPy this script's author found: q and k viewed as complex64 pairs
            (re, im) = (x_2i, x_2i+1) and multiplied by a precomputed table of e^{i m theta_i}
            (one pass; the float cos/sin formulation with four products was 5x slower), then
            np.matmul(Q', K'.T, out=S) into a preallocated S. The table is built outside the
            timing, as a model caches it.
  NumPy f64 the same job as it is usually written: float64 arrays, cos and sin tables of shape
            [N][d], x * cos + rotate_every_two(x) * sin, then Q' @ K'.T into a new array.
NumPy's BLAS threads are set to 1 and 2 through OpenBLAS's own openblas_set_num_threads.
OpenBLAS picks its kernels by the CPU model it recognises, and a virtual CPU can defeat that (a
Xeon with AVX-512 that names itself "Intel(R) Xeon(R) Processor" got Prescott's SSE3 kernels,
4.5x slower than its own). So unless OPENBLAS_CORETYPE is set, the script first times a bare
float32 matmul under each core type the CPU can run and reruns itself with the fastest.

Runs alternate (RoPE Lab, NumPy f32, NumPy f64, then the next setting) for --rounds rounds; the
table shows the median over rounds of each run's median of --reps repetitions. Before timing,
the C++ matrix is checked against an independent float64 NumPy reference entry by entry within
the fp32 error bound of core/src/attention.cpp:
  |S_fast - S| <= gamma_{d+2} sum_i |q'_i||k'_i|,  gamma_n = n u / (1 - n u),  u = 2^-24.

Usage: scripts/bench_scores.py [--timer build/release/tests/core/score_timer] [--sizes 2048,4096]
       [--rounds 5] [--reps 10]
Needs python3-numpy and, for NumPy to use OpenBLAS, libopenblas0-pthread (scripts/deps.sh bench).
Runs on Debian's /usr/bin/python3, which is where python3-numpy installs.
"""
import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError:
    sys.exit("bench_scores: NumPy is missing for " + sys.executable + ": install the Debian "
             "package python3-numpy (with libopenblas0-pthread: scripts/deps.sh bench) and run "
             "this script with /usr/bin/python3")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = 10000.0
U = 2.0 ** -24


def gamma(n):
    return n * U / (1.0 - n * U)


# --- NumPy's BLAS ------------------------------------------------------------------------------

def loaded_blas():
    """The BLAS libraries mapped into this process (after NumPy ran a product)."""
    found = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            name = os.path.basename(path)
            if ("blas" in name or "mkl" in name or "blis" in name) and path not in found:
                found.append(path)
    return found


class OpenBlas:
    """openblas_set_num_threads and the build string, when NumPy's BLAS is OpenBLAS."""

    def __init__(self):
        np.ones((64, 64), np.float32) @ np.ones((64, 64), np.float32)  # maps the library
        self.paths = loaded_blas()
        self.lib = None
        for path in self.paths:
            if "openblas" in os.path.basename(path):
                lib = ctypes.CDLL(path)
                if hasattr(lib, "openblas_set_num_threads"):
                    self.lib = lib
                    break

    def describe(self):
        if self.lib is None:
            return "not OpenBLAS: " + (", ".join(self.paths) or "no BLAS library mapped")
        self.lib.openblas_get_config.restype = ctypes.c_char_p
        return "%s (%s)" % (self.lib.openblas_get_config().decode(), self.paths[0])

    def set_threads(self, n):
        if self.lib is not None:
            self.lib.openblas_set_num_threads(n)


# OpenBLAS core types worth trying, with the CPU flags (/proc/cpuinfo) each one's kernels need:
# forcing a type the CPU cannot run would stop the process on an illegal instruction.
CORETYPES = [
    ("SkylakeX", {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}),
    ("Cooperlake", {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512_bf16"}),
    ("Haswell", {"avx2", "fma"}),
    ("Zen", {"avx2", "fma"}),
]


def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def probe_matmul(n, d):
    """Prints the OpenBLAS core in use and the median CPU time (ms) of one float32 S = Q K^T."""
    blas = OpenBlas()
    blas.set_threads(1)
    rng = np.random.default_rng(4)
    q = rng.uniform(-1.0, 1.0, (n, d)).astype(np.float32)
    k = rng.uniform(-1.0, 1.0, (n, d)).astype(np.float32)
    s = np.empty((n, n), np.float32)
    _, cpu = median_ms(lambda: np.matmul(q, k.T, out=s), 9)
    core = blas.describe().split(" MAX_THREADS")[0].split()[-1] if blas.lib else "none"
    print("%s %.3f" % (core, cpu))


def fastest_coretype(n, d):
    """(name or None, summary): the fastest OpenBLAS core type for float32 matmul, by CPU time."""
    flags = cpu_flags()
    tried = []
    for name, needs in [(None, set())] + CORETYPES:
        if not needs <= flags:
            continue
        env = dict(os.environ)
        if name:
            env["OPENBLAS_CORETYPE"] = name
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--probe-matmul",
                              "%d,%d" % (n, d)], env=env, check=True, capture_output=True,
                             text=True).stdout.split()
        tried.append((float(out[1]), name, out[0]))
    best = min(tried)
    summary = ", ".join("%s%s %.2f ms" % (core, "" if name else " (its own choice)", ms)
                        for ms, name, core in tried)
    return best[1], summary


# --- the job in NumPy --------------------------------------------------------------------------

def angles(n, d):
    thetas = BASE ** (-np.arange(0, d, 2, dtype=np.float64) / d)  # [d/2]
    return np.arange(n, dtype=np.float64)[:, None] * thetas[None, :]  # [N][d/2], radians


class NumpyF32:
    """q, k float32 [N][d]: the phasor table and the output are made once, outside the timing."""

    def __init__(self, q, k):
        n, d = q.shape
        self.q, self.k = q, k
        self.phasors = np.exp(1j * angles(n, d)).astype(np.complex64)  # [N][d/2]
        self.qr = np.empty_like(q)
        self.kr = np.empty_like(k)
        self.s = np.empty((n, n), np.float32)

    def run(self):
        np.multiply(self.q.view(np.complex64), self.phasors, out=self.qr.view(np.complex64))
        np.multiply(self.k.view(np.complex64), self.phasors, out=self.kr.view(np.complex64))
        np.matmul(self.qr, self.kr.T, out=self.s)
        return self.s


def rotate_every_two(x):
    return np.stack((-x[:, 1::2], x[:, 0::2]), axis=-1).reshape(x.shape)


class NumpyF64:
    """The float64 version as commonly written (GPT-J's rotate_every_two), new arrays each run."""

    def __init__(self, q, k):
        a = np.repeat(angles(*q.shape), 2, axis=1)  # [N][d]: each block's angle twice
        self.cos, self.sin = np.cos(a), np.sin(a)
        self.q, self.k = q.astype(np.float64), k.astype(np.float64)

    def run(self):
        qr = self.q * self.cos + rotate_every_two(self.q) * self.sin
        kr = self.k * self.cos + rotate_every_two(self.k) * self.sin
        return qr @ kr.T


def median_ms(fn, reps):
    """Median wall time and median CPU time of the process (all its threads), ms."""
    fn()  # warm-up
    wall, cpu = [], []
    for _ in range(reps):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        wall.append((time.perf_counter() - t0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
    return statistics.median(wall), statistics.median(cpu)


# --- the C++ side ------------------------------------------------------------------------------

def run_timer(timer, *args):
    out = subprocess.run([timer, *map(str, args)], check=True, capture_output=True, text=True)
    return dict(field.split("=", 1) for field in out.stdout.split())


def check_against_reference(timer, n, d, seed):
    """Every kernel the CPU runs, and NumPy f32, against float64 within the bound."""
    rng = np.random.default_rng(seed)
    q = rng.uniform(-1.0, 1.0, (n, d)).astype(np.float32)
    k = rng.uniform(-1.0, 1.0, (n, d)).astype(np.float32)
    # independent reference: exact angles, rotation and product in float64
    a = angles(n, d)
    c, s = np.cos(a), np.sin(a)

    def rotated(x):
        x = x.astype(np.float64)
        y = np.empty_like(x)
        y[:, 0::2] = x[:, 0::2] * c - x[:, 1::2] * s
        y[:, 1::2] = x[:, 0::2] * s + x[:, 1::2] * c
        return y

    qr, kr = rotated(q), rotated(k)
    exact = qr @ kr.T
    bound = gamma(d + 2) * (np.abs(qr) @ np.abs(kr).T)
    kernels = subprocess.run([timer, "kernels"], check=True, capture_output=True,
                             text=True).stdout.split()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = os.path.join(tmp, "qk.f32"), os.path.join(tmp, "s.f32")
        np.concatenate([q.ravel(), k.ravel()]).astype("<f4").tofile(inp)
        for kernel in kernels:
            run_timer(timer, "scores", "--n", n, "--dim", d, "--input", inp, "--output", out,
                      "--kernel", kernel)
            got = np.fromfile(out, dtype="<f4").reshape(n, n).astype(np.float64)
            rows.append(("RoPE Lab " + kernel, got))
    rows.append(("NumPy f32", NumpyF32(q, k).run().astype(np.float64)))
    ok = True
    for name, got in rows:
        err = np.abs(got - exact)
        worst = float(np.max(err / bound))
        ok = ok and worst <= 1.0
        print("  check N=%d d=%d %-18s max |error| %.3g, max error/bound %.4f, bound at that "
              "entry %.3g%s" % (n, d, name, float(err.max()), worst,
                                float(bound.flat[np.argmax(err / bound)]),
                                "" if worst <= 1.0 else "  OUT OF BOUND"))
    print("  scores spread over [%.3g, %.3g]; largest bound %.3g" %
          (float(exact.min()), float(exact.max()), float(bound.max())))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--timer", default=os.path.join(ROOT, "build/release/tests/core/score_timer"))
    ap.add_argument("--sizes", default="2048,4096")
    ap.add_argument("--dim", type=int, default=128)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--probe-matmul", help=argparse.SUPPRESS)  # N,d: one core type's time
    args = ap.parse_args()
    if args.probe_matmul:
        probe_matmul(*(int(x) for x in args.probe_matmul.split(",")))
        return
    if "OPENBLAS_CORETYPE" not in os.environ:
        name, summary = fastest_coretype(int(args.sizes.split(",")[0]), args.dim)
        print("OpenBLAS core types, float32 matmul CPU time: " + summary, flush=True)
        if name:
            os.environ["OPENBLAS_CORETYPE"] = name
            os.execv(sys.executable, [sys.executable] + sys.argv)
    if not os.access(args.timer, os.X_OK):
        sys.exit("bench_scores: %s is missing: cmake --preset release && cmake --build "
                 "build/release --target score_timer (or pass --timer)" % args.timer)
    sizes = [int(x) for x in args.sizes.split(",")]
    thread_counts = [int(x) for x in args.threads.split(",")]
    d = args.dim

    blas = OpenBlas()
    print("NumPy %s, BLAS: %s%s" % (np.__version__, blas.describe(),
                                     ", OPENBLAS_CORETYPE=" + os.environ["OPENBLAS_CORETYPE"]
                                     if "OPENBLAS_CORETYPE" in os.environ else ""))
    if blas.lib is None:
        print("  (NumPy does not use OpenBLAS here: install libopenblas0-pthread)")
    peak = float(run_timer(args.timer, "peak")["peak_gflops"])
    print("fp32 FMA peak of one core (score_timer peak): %.1f GFLOP/s" % peak)
    with open("/proc/loadavg") as f:
        print("load average before: %s" % " ".join(f.read().split()[:3]))

    print("checking the matrices:")
    ok = check_against_reference(args.timer, 300, 130, 1)  # ragged: 300 rows, d past 128
    ok = check_against_reference(args.timer, sizes[0], d, 2) and ok
    if not ok:
        sys.exit("bench_scores: a matrix is outside the error bound")

    rng = np.random.default_rng(3)
    results = {}  # (n, threads, who) -> [round medians, ms]
    gflops = {}
    jobs = {}
    for n in sizes:
        q = rng.uniform(-1.0, 1.0, (n, d)).astype(np.float32)
        k = rng.uniform(-1.0, 1.0, (n, d)).astype(np.float32)
        jobs[n] = (NumpyF32(q, k), NumpyF64(q, k))
    for r in range(args.rounds):
        for n in sizes:
            for t in thread_counts:
                ours = run_timer(args.timer, "time", "--n", n, "--dim", d, "--threads", t,
                                 "--reps", args.reps)
                results.setdefault((n, t, "ours"), []).append(
                    (float(ours["median_ms"]), float(ours["cpu_median_ms"])))
                blas.set_threads(t)
                f32, f64 = jobs[n]
                results.setdefault((n, t, "f32"), []).append(median_ms(f32.run, args.reps))
                results.setdefault((n, t, "f64"), []).append(
                    median_ms(f64.run, max(3, args.reps // 2)))
        print("round %d of %d done" % (r + 1, args.rounds), file=sys.stderr)
    with open("/proc/loadavg") as f:
        print("load average after: %s" % " ".join(f.read().split()[:3]))

    def med(key, which):  # which: 0 wall, 1 CPU
        return statistics.median(x[which] for x in results[key])

    print()
    print("| N | threads | RoPE Lab | NumPy f32 | NumPy f64 | × vs f32 | × vs f64 | "
          "RoPE Lab GFLOP/s (% of peak) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for n in sizes:
        for t in thread_counts:
            ours, f32, f64 = (med((n, t, w), 0) for w in ("ours", "f32", "f64"))
            rate = 2.0 * n * n * d / (ours * 1e6)
            print("| %d | %d | %.2f ms | %.2f ms | %.2f ms | %.2f | %.2f | %.0f (%.0f %%) |" %
                  (n, t, ours, f32, f64, f32 / ours, f64 / ours, rate, 100.0 * rate / (peak * t)))
    print()
    print("times: median over %d alternating rounds of the median of %d runs; RoPE Lab and NumPy "
          "f32 include the rotation of q and k (RoPE Lab: the angles too; NumPy: a cached table)"
          % (args.rounds, args.reps))
    if 1 in thread_counts:
        # CPU time with one thread: what each costs when other processes take turns on the core
        print()
        print("| N | 1 thread, CPU time | RoPE Lab | NumPy f32 | × | RoPE Lab GFLOP/s (% of peak) |")
        print("| --- | --- | --- | --- | --- | --- |")
        for n in sizes:
            ours, f32 = med((n, 1, "ours"), 1), med((n, 1, "f32"), 1)
            rate = 2.0 * n * n * d / (ours * 1e6)
            print("| %d | | %.2f ms | %.2f ms | %.2f | %.0f (%.0f %%) |" %
                  (n, ours, f32, f32 / ours, rate, 100.0 * rate / peak))

if __name__ == "__main__":
    main()
