#!/bin/sh
# folders.sh ROOT -- docs/architecture.md kept honest where the code can say:
#
#   1. every folder of its "Folders" table exists, and every top-level
#      folder of the source tree is in the table;
#   2. its "Which folder may use what" table matches the #include graph:
#      a folder includes another folder's headers (or <sqlite3.h>,
#      <isl/...>, <clang-c/...>) only when the table allows it, and every
#      use the table names for a folder happens (a row of "everything" is
#      only checked one way);
#   3. outside db/ and testsuite/ nothing includes <sqlite3.h>;
#   4. every source file the note names (`plugin/walker.c`, `db_log.c`,
#      `db_mca*.c`) exists.
#
# Fails (exit 1) with one line per finding, "architecture.md: ...".
# With a second argument, the text of the note is read from that file
# instead (folders_planted.sh uses it to show the check can fail).
ROOT=${1:?usage: folders.sh ROOT [NOTE]}
NOTE=${2:-$ROOT/docs/architecture.md}
exec python3 - "$ROOT" "$NOTE" <<'PY'
import os, re, subprocess, sys

root, note_path = sys.argv[1], sys.argv[2]
note = open(note_path, encoding="utf-8").read()
bad = []

def section(title):
    m = re.search(r"^## " + re.escape(title) + r"\n(.*?)(?=^## |\Z)", note, re.M | re.S)
    if not m:
        bad.append("no section '## %s'" % title)
        return ""
    return m.group(1)

def table_rows(text):
    rows = []
    for line in text.splitlines():
        m = re.match(r"\|\s*`([^`/]+)/`\s*\|(.*)\|\s*$", line)
        if m:
            rows.append((m.group(1), m.group(2).strip()))
    return rows

# the tree: git's files when ROOT is a checkout, else a walk
try:
    files = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others",
                            "--exclude-standard"], capture_output=True, text=True,
                           check=True).stdout.split("\n")
    files = [f for f in files if f]
except (OSError, subprocess.CalledProcessError):
    files = []
    for d, dirs, fs in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith((".", "build"))]
        files += [os.path.relpath(os.path.join(d, f), root) for f in fs]
tops = sorted({f.split("/")[0] for f in files if "/" in f and not f.startswith(".")})

# 1. the Folders table
listed = [f for f, _ in table_rows(section("Folders"))]
for f in listed:
    if not os.path.isdir(os.path.join(root, f)):
        bad.append("Folders lists %s/, which does not exist" % f)
for t in tops:
    if t not in listed:
        bad.append("Folders does not list %s/" % t)

# 2. the "may use" table against the #include graph
code = ["util", "ipda", "analysis", "plugin", "db", "runtime", "cli"]
libs = {"sqlite": "SQLite", "isl": "isl", "libclang": "libclang"}
allowed, everything = {}, set()
for folder, text in table_rows(section("Which folder may use what")):
    words = set(re.findall(r"[A-Za-z]+", text.lower()))
    if "everything" in words:
        everything.add(folder)
        uses = set(code) | set(libs.values())
        if "but" in words:
            uses -= {w for w in words if w in code}
    else:
        uses = {w for w in words if w in code} | {libs[w] for w in words if w in libs}
    allowed[folder] = uses - {folder}
for f in code + ["testsuite"]:
    if f not in allowed:
        bad.append("'may use' has no row for %s/" % f)

home = {}
for f in files:
    parts = f.split("/")
    if len(parts) == 2 and parts[0] in code and f.endswith(".h"):
        home.setdefault(parts[1], parts[0])
inc = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
used = {}
for f in files:
    top = f.split("/")[0]
    if top not in allowed or not f.endswith((".c", ".h")):
        continue
    path = os.path.join(root, f)
    if not os.path.isfile(path):
        continue
    text = open(path, encoding="utf-8", errors="replace").read()
    for kind, name in inc.findall(text):
        target = None
        if name == "sqlite3.h":
            target = "SQLite"
        elif name.startswith("isl/"):
            target = "isl"
        elif name.startswith("clang-c/"):
            target = "libclang"
        elif kind == '"' and "/" not in name and name in home:
            target = home[name]
        if target and target != top:
            used.setdefault(top, {}).setdefault(target, f)
for folder, uses in sorted(used.items()):
    for target, where in sorted(uses.items()):
        if target not in allowed[folder]:
            bad.append("%s/ uses %s (%s), which 'may use' does not allow" % (folder, target, where))
for folder, uses in sorted(allowed.items()):
    if folder in everything:
        continue
    for target in sorted(uses - set(used.get(folder, {}))):
        bad.append("'may use' says %s/ uses %s, but no file of %s/ includes it"
                   % (folder, target, folder))

# 3. SQLite's header only in db/ (and the tests, which craft databases)
for folder, uses in sorted(used.items()):
    if "SQLite" in uses and folder not in ("db", "testsuite"):
        bad.append("%s includes <sqlite3.h>: only db/ may" % uses["SQLite"])

# 4. the files the note names
names = set(files) | {f.split("/")[-1] for f in files}
for m in sorted(set(re.findall(r"`([A-Za-z0-9_./*-]+\.(?:c|h|sh))`", note))):
    if "..." in m:
        continue
    pat = re.compile(re.escape(m).replace(r"\*", "[^/]*") + r"\Z")
    if not any(pat.match(n) for n in names):
        bad.append("names %s, which is not in the tree" % m)

for b in bad:
    print("architecture.md: " + b)
if bad:
    sys.exit(1)
print("ok: %d folders, %d 'may use' rows match the tree and its #includes"
      % (len(listed), len(allowed)))
PY
