#!/bin/sh
# links.sh SRC -- README.md and docs/*.md: README.md within 300 lines; every
# relative link names a file of the repository (and an anchor, when given,
# a heading of that file); no path outside the repository; no link to a
# sample block that is not closed.
SRC=$1
cd "$SRC" || exit 1
python3 - README.md docs/*.md <<'PY'
import os, re, sys
bad = []
def anchors(path):
    out = set()
    for line in open(path):
        m = re.match(r'#+ (.*)', line)
        if m:
            a = m.group(1).strip().lower()
            a = re.sub(r'[^\w\- ]', '', a).replace(' ', '-')
            out.add(a)
    return out
n = sum(1 for _ in open('README.md'))
if n > 300:
    bad.append(f'README.md: {n} lines (at most 300)')
for f in sys.argv[1:]:
    text = open(f).read()
    if len(re.findall(r'^<!-- sample [a-z0-9-]+ -->$', text, re.M)) != len(re.findall(r'^<!-- /sample -->$', text, re.M)):
        bad.append(f'{f}: unbalanced sample markers')
    if '../shared' in text:
        bad.append(f'{f}: names a path outside the repository')
    for m in re.finditer(r'\]\(([^)\s]+)\)', text):
        target = m.group(1)
        if re.match(r'[a-z]+:', target):
            continue
        path, _, anchor = target.partition('#')
        full = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not full.startswith('..') and not os.path.exists(full):
            bad.append(f'{f}: link to a missing file: {target}')
        elif full.startswith('..'):
            bad.append(f'{f}: link outside the repository: {target}')
        elif anchor and full.endswith('.md') and anchor not in anchors(full):
            bad.append(f'{f}: link to a missing heading: {target}')
for b in bad:
    print('docs:', b)
sys.exit(1 if bad else 0)
PY
