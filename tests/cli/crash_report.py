"""crash_report.py: tests/crash_report.sh for the Python checkers that run rope-lab.

    from crash_report import run
    proc = run([exe, "export", ...], capture_output=True, text=True, check=False)

run() is subprocess.run; when the program died by a signal (or exited above 128) or a sanitizer
spoke on its stderr ("ERROR: AddressSanitizer", "runtime error:", ...), its stderr and stdout
are printed and kept in the crash-report folder ($ROPE_CRASH_DIR, else crash-reports/ at the top
of the build tree CTest runs the test in), and the checker stops with a failure (issue 33).
"""
import os
import re
import subprocess
import sys
import tempfile

PATTERN = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: ThreadSanitizer|"
                     r"LeakSanitizer has encountered a fatal error|"
                     r"ThreadSanitizer: |runtime error:")


def crash_dir():
    if os.environ.get("ROPE_CRASH_DIR"):
        return os.environ["ROPE_CRASH_DIR"]
    d = os.getcwd()
    while d != os.path.dirname(d):
        if os.path.isfile(os.path.join(d, "CMakeCache.txt")):
            return os.path.join(d, "crash-reports")
        d = os.path.dirname(d)
    return os.path.join(tempfile.gettempdir(), "rope-lab-crash-reports")


def text(stream):
    if stream is None:
        return ""
    return stream if isinstance(stream, str) else stream.decode("utf-8", "replace")


def run(cmd, **kwargs):
    check = kwargs.pop("check", False)
    proc = subprocess.run(cmd, check=False, **kwargs)
    code = proc.returncode
    err, out = text(proc.stderr), text(proc.stdout)
    why = []
    if code < 0 or (128 < code < 256 and code != 141):  # Python gives -N for signal N
        why.append(f"killed by signal {-code if code < 0 else code - 128}")
    if PATTERN.search(err) or PATTERN.search(out):
        why.append("a sanitizer report in its output")
    if why:
        folder = crash_dir()
        os.makedirs(folder, exist_ok=True)
        name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
        path = os.path.join(folder, f"{name}-{os.getpid()}.log")
        k = 1
        while os.path.exists(path):
            path = os.path.join(folder, f"{name}-{os.getpid()}.{k}.log")
            k += 1
        report = (f"crash report: {' '.join(map(str, cmd))}\nexit status {code}: {'; '.join(why)}\n"
                  f"===== stderr\n{err}\n===== stdout (last 50 lines)\n"
                  + "\n".join(out.splitlines()[-50:]) + "\n")
        with open(path, "w", encoding="utf-8") as f:
            f.write(report)
        print(f"===== CRASH: {report}===== kept in {path}", flush=True)
        raise SystemExit(f"FAIL: {cmd[0]} crashed ({'; '.join(why)}); report kept in {path}")
    if check and code != 0:
        raise subprocess.CalledProcessError(code, cmd, proc.stdout, proc.stderr)
    return proc
