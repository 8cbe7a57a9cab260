#!/usr/bin/env python3
"""dom.py DOM RANK_JSON -- read the DOM headless Chromium dumped of keel
report --html's page (after its scripts ran) and print what report.sh checks,
one fact a line:

    selfcheck STATUS nests=N ranked=M      the page's own check (#selfcheck)
    selfcheck-text TEXT
    script-errors TEXT                     what window.onerror caught
    first-screen N / more M                ranking rows shown / behind <details>
    order-as-json yes|no                   the rows in `keel report --json`'s order
    rank POS NK VERDICT reason=CODE at=AT  each ranking row
    nest NK VERDICT CODE / why NK TEXT     the same by nest
    site-why NK TEXT / no-answer NK TEXT   the nest's reasons under its why
    links-ok yes|no                        every link of the ranking names a nest
                                           row and every nest row is linked
    crossover-cell NK CLASS                the first device's crossover cell
    chart NK nestchart|noeval / charts N   each nest's chart or its box
    roofline-pairs DEVICE N                CPU/GPU pairs of a roofline
    hull-max-nests N                       most nests in one boat-hull chart

Exit 1 when the self-check is not "ok", a script error was caught, or the
links do not join the ranking and the nests.
"""
import json
import sys
from html.parser import HTMLParser


class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []          # (tag, attrs) of open elements
        self.texts = {}          # id -> text of elements we follow
        self.follow = []         # ids whose text is being collected
        self.rank_rows = []      # [pos, nest, verdict-class, reason, cells, in_details]
        self.cell = None
        self.links = []
        self.nest_rows = {}      # id -> {'xover': class, 'chart': kind}
        self.cur_nest = None
        self.rooflines = []      # [device, pairs]
        self.hulls = []          # nests per hull chart
        self.in_details = 0
        self.in_ranking = 0
        self.svg = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get('class') or '').split()
        if tag not in ('meta', 'br', 'hr', 'img', 'input', 'link', 'col', 'wbr', 'area', 'base',
                       'source', 'path', 'rect', 'circle', 'line', 'polyline'):
            self.stack.append((tag, a))
        if a.get('id') in ('selfcheck', 'script-errors'):
            self.follow.append(a['id'])
            self.texts[a['id']] = ''
            self.texts[a['id'] + '@'] = a
        if tag == 'section' and a.get('id') == 'ranking':
            self.in_ranking = len(self.stack)
        if tag == 'details':
            self.in_details += 1
        if tag == 'tr' and 'rank' in cls:
            verdict = [c[2:] for c in cls if c.startswith('r-')]
            self.rank_rows.append({'nest': a.get('data-nest'), 'reason': a.get('data-reason'),
                                   'class': verdict[0] if verdict else '?', 'cells': [],
                                   'details': self.in_details > 0})
        if tag == 'td' and self.rank_rows and self.stack_has('tr', 'rank'):
            self.cell = ''
        if tag == 'a' and self.in_ranking and a.get('href', '').startswith('#nest-'):
            self.links.append(a['href'][1:])
        if tag == 'tr' and 'nest' in cls:
            self.cur_nest = a.get('id')
            self.nest_rows[self.cur_nest] = {'xover': None, 'chart': None}
        kind = [c for c in cls if c in ('gpu', 'cpu', 'unk')]
        if self.cur_nest and tag == 'td' and kind and self.nest_rows[self.cur_nest]['xover'] is None:
            self.nest_rows[self.cur_nest]['xover'] = kind[0]
        if self.cur_nest and tag == 'svg' and 'nestchart' in cls:
            self.nest_rows[self.cur_nest]['chart'] = 'nestchart'
        if self.cur_nest and tag == 'div' and 'noeval' in cls:
            self.nest_rows[self.cur_nest]['chart'] = 'noeval'
        if tag == 'svg' and 'roofline' in cls:
            self.rooflines.append([a.get('data-device'), 0])
            self.svg = 'roofline'
        if tag == 'g' and 'pair' in cls and self.svg == 'roofline':
            self.rooflines[-1][1] += 1
        if tag == 'svg' and 'hull' in cls:
            self.hulls.append(set())
            self.svg = 'hull'
        if tag == 'title' and self.svg == 'hull':
            self.cell_title = ''

    def stack_has(self, tag, cls):
        return any(t == tag and cls in (x.get('class') or '').split() for t, x in self.stack)

    def handle_endtag(self, tag):
        while self.stack:
            t, a = self.stack.pop()
            if a.get('id') in self.follow:
                self.follow.remove(a['id'])
            if t == 'section' and self.in_ranking and len(self.stack) < self.in_ranking:
                self.in_ranking = 0
            if t == tag:
                break
        if tag == 'details':
            self.in_details -= 1
        if tag == 'td' and self.cell is not None:
            self.rank_rows[-1]['cells'].append(self.cell.strip())
            self.cell = None
        if tag == 'tr':
            self.cur_nest = None
        if tag == 'svg':
            self.svg = None

    def handle_data(self, data):
        for i in self.follow:
            self.texts[i] += data
        note = [k for k in ('site-why', 'no-answer') if self.stack_has('small', k)]
        if self.cell is not None and note:
            r = self.rank_rows[-1]
            r[note[0]] = r.get(note[0], '') + data
        elif self.cell is not None:
            self.cell += data
        if self.svg == 'hull' and self.stack and self.stack[-1][0] == 'title':
            w = data.split()
            if len(w) == 2 and w[0].startswith('N') and w[1] == 'cpu':
                self.hulls[-1].add(w[0])


def main():
    d = Dom()
    d.feed(open(sys.argv[1], encoding='utf-8').read())
    d.close()
    order = [str(x['nest']) for x in json.load(open(sys.argv[2]))['ranking']]
    sc = d.texts.get('selfcheck@', {})
    status = sc.get('data-status')
    print('selfcheck %s nests=%s ranked=%s' % (status, sc.get('data-nests'), sc.get('data-ranked')))
    print('selfcheck-text ' + d.texts.get('selfcheck', '').strip())
    errors = d.texts.get('script-errors', '').strip()
    print('script-errors ' + errors)
    print('first-screen %d' % sum(not r['details'] for r in d.rank_rows))
    print('more %d' % sum(r['details'] for r in d.rank_rows))
    print('order-as-json ' + ('yes' if [r['nest'] for r in d.rank_rows] == order else 'no'))
    for pos, r in enumerate(d.rank_rows, 1):
        c = r['cells']
        verdict, at, why = (c[4], c[5], c[10]) if len(c) == 11 else ('?', '?', '?')
        print('rank %d N%s %s reason=%s at=%s' % (pos, r['nest'], verdict, r['reason'], at.replace(' ', '_')))
        print('nest N%s %s %s' % (r['nest'], verdict, r['reason']))
        for k in ('site-why', 'no-answer'):
            if k in r:
                print('%s N%s %s' % (k, r['nest'], r[k].strip()))
        print('why N%s %s' % (r['nest'], why))
    ids = set(d.nest_rows)
    links_ok = set(d.links) == ids and len(d.links) == len(ids)
    print('links-ok ' + ('yes' if links_ok else 'no'))
    charts = 0
    for nid, v in sorted(d.nest_rows.items()):
        k = nid.replace('nest-', 'N') if nid else '?'
        print('crossover-cell %s %s' % (k, v['xover']))
        print('chart %s %s' % (k, v['chart']))
        charts += v['chart'] is not None
    print('charts %d' % charts)
    for dev, pairs in d.rooflines:
        print('roofline-pairs %s %d' % (dev, pairs))
    print('hull-max-nests %d' % max((len(h) for h in d.hulls), default=0))
    return 0 if status == 'ok' and not errors and links_ok else 1


sys.exit(main())
