#!/usr/bin/env python3
"""Check the include graph of common/ and stages/ against the layering that
common/README.md and each folder's README.md declare.

common/README.md lists the folders bottom to top, one `- **name/**` item
each; a folder's README has one line `May include: a, b` (or `none`) naming
the folders below it that its files may include.  The rules:

  1. every folder of common/ is listed and has a README with that line;
  2. a folder may only name folders listed before it (so no folder cycle);
  3. every #include of a project header is written "folder/name.h" and its
     folder is the file's own or one its README allows;
  4. no module (name.c + name.h) reaches itself through includes;
  5. a stage includes only common/ headers, never another stage;
  6. no file of common/ but util/cli.c includes util/cli.h, whose helpers
     exit: library code returns errors.

Exit 0 if all hold, else 1 with one line per violation.
"""
import os
import re
import sys

TOP = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
COMMON = os.path.join(TOP, "common")
STAGE_ONLY = {"util/cli.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
errors = []


def folder_order():
    text = open(os.path.join(COMMON, "README.md"), encoding="utf-8").read()
    return re.findall(r"^- \*\*([a-z_]+)/\*\*", text, re.M)


def allowed_of(folder):
    path = os.path.join(COMMON, folder, "README.md")
    if not os.path.exists(path):
        errors.append(f"common/{folder}/: no README.md")
        return set()
    m = re.search(r"^May include: *(.*)$", open(path, encoding="utf-8").read(), re.M)
    if not m:
        errors.append(f"common/{folder}/README.md: no 'May include:' line")
        return set()
    names = [n.strip() for n in m.group(1).split(",")]
    return {n for n in names if n and n != "none"}


def sources(folder):
    for name in sorted(os.listdir(folder)):
        if name.endswith((".c", ".h")):
            yield os.path.join(folder, name)


def includes(path):
    return INCLUDE.findall(open(path, encoding="utf-8", errors="replace").read())


def module_of(path):
    return os.path.splitext(os.path.relpath(path, COMMON))[0]


def find_cycle(graph):
    state = {}

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, stack)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return None


def main():
    order = folder_order()
    present = sorted(d for d in os.listdir(COMMON) if os.path.isdir(os.path.join(COMMON, d)))
    for d in present:
        if d not in order:
            errors.append(f"common/{d}/: not listed in common/README.md")
    for loose in sources(COMMON):
        errors.append(f"{os.path.relpath(loose, TOP)}: sources belong in a subsystem folder")
    graph = {}
    for i, folder in enumerate(order):
        if folder not in present:
            errors.append(f"common/README.md lists {folder}/, which does not exist")
            continue
        allowed = allowed_of(folder)
        for a in sorted(allowed - set(order[:i])):
            errors.append(f"common/{folder}/README.md: may not include {a}/ (not below it)")
        for path in sources(os.path.join(COMMON, folder)):
            rel = os.path.relpath(path, TOP)
            for inc in includes(path):
                parts = inc.split("/")
                if len(parts) != 2 or parts[0] not in order:
                    errors.append(f'{rel}: #include "{inc}" is not "folder/name.h"')
                    continue
                if parts[0] != folder and parts[0] not in allowed:
                    errors.append(f'{rel}: #include "{inc}": {folder}/ may not include {parts[0]}/')
                if inc in STAGE_ONLY and module_of(path) != os.path.splitext(inc)[0]:
                    errors.append(f'{rel}: #include "{inc}": for stages only (its helpers exit)')
                src, dst = module_of(path), os.path.splitext(inc)[0]
                if src != dst:
                    graph.setdefault(src, set()).add(dst)
    cycle = find_cycle(graph)
    while cycle:
        errors.append("module cycle: " + " -> ".join(cycle))
        graph[cycle[-2]].discard(cycle[-1])
        cycle = find_cycle(graph)
    stages = os.path.join(TOP, "stages")
    for path in sources(stages):
        for inc in includes(path):
            parts = inc.split("/")
            if len(parts) != 2 or parts[0] not in order:
                errors.append(f'{os.path.relpath(path, TOP)}: #include "{inc}": stages include only common/ headers')
    for e in errors:
        print(e)
    if not errors:
        print(f"layers ok: {' < '.join(order)}; {len(graph)} modules, no cycle")
    return 1 if errors else 0


sys.exit(main())
