#!/usr/bin/env python3
"""layers_test.py — fails when a source under app/ includes a header of a layer above its own.

Usage: layers_test.py SOURCE_DIR

The table below is the layer diagram of README.md ("Layout"): each layer and the layers it may
include (directly or not). The build enforces the same rule through per-layer include roots
(app/CMakeLists.txt); this test also catches what a build cannot, such as a relative include
("../shell/frame.h") or a layer reached through a dependency it should not have.
"""

import pathlib
import re
import sys

# layer -> the layers it may include, besides itself (core is rope/..., outside app/)
ALLOWED = {
    "io": set(),
    "state": {"io"},
    "typeset": {"io"},
    "lessons": {"io", "state", "typeset"},
    "render": {"io", "typeset"},
    "export": {"io", "state"},
    "ui": {"io", "state", "render", "typeset"},
    "views": {"io", "state", "typeset", "lessons", "render", "ui"},
    "shell": {"io", "state", "typeset", "lessons", "render", "export", "ui", "views"},
    "cli": {"io", "state", "typeset", "lessons", "render", "export", "ui", "views", "shell"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of_include(include, including_file, app):
    """The app layer a quoted include names, or None for core, packages and typeset's own."""
    target = (including_file.parent / include).resolve()
    if app in target.parents and target.exists():  # a relative path such as "../shell/x.h"
        return target.relative_to(app).parts[0]
    first = include.split("/")[0]
    if first in ALLOWED:
        return first
    if include.startswith("rope/typeset/"):
        return "typeset"
    return None


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    app = root / "app"
    problems = []
    checked = 0
    for path in sorted(app.rglob("*")):
        if path.suffix not in (".h", ".cpp") or not path.is_file():
            continue
        rel = path.relative_to(app)
        layer = rel.parts[0] if len(rel.parts) > 1 else "cli"  # main.cpp sits with the cli
        if layer not in ALLOWED:
            problems.append(f"{rel}: folder '{layer}' is not a layer of the table")
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            checked += 1
            target = layer_of_include(m.group(1), path, app)
            if target is None or target == layer or target in ALLOWED[layer]:
                continue
            problems.append(
                f"app/{rel}:{number}: layer '{layer}' includes \"{m.group(1)}\" of layer "
                f"'{target}' (allowed: {', '.join(sorted(ALLOWED[layer])) or 'none'})")
    for p in problems:
        print(p)
    print(f"{checked} includes checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
