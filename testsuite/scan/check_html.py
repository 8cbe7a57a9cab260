#!/usr/bin/env python3
"""check_html.py PAGE -- keel report --html's page, read with html.parser.

Fails (exit 1, one line per problem) unless the page is well formed (every
element closed, in order; void elements only as void), self-contained (no
script file -- inline scripts only --, no iframe, no link, no src or href that
leaves the page) and holds its sections.  Prints one line per nest row:
    nest FILE LINE h100=CROSSOVER v100=CROSSOVER ...
and one line per chart: "chart roofline h100", "chart hull CLASS".
"""
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "input", "link", "source", "wbr", "col", "area", "base"}
FORBIDDEN = {"iframe", "link", "object", "embed", "img"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems, self.nests, self.charts, self.ids = [], [], [], [], set()

    def handle_starttag(self, tag, attrs, selfclosing=False):
        a = dict(attrs)
        if tag in FORBIDDEN:
            self.problems.append("forbidden element <%s>" % tag)
        if tag == "script" and "src" in a:
            self.problems.append("script file %s" % a["src"])
        for k in ("src", "href"):
            v = a.get(k)
            if v is not None and not v.startswith("#"):
                self.problems.append("external reference %s=%s" % (k, v))
        if "id" in a:
            if a["id"] in self.ids:
                self.problems.append("duplicate id %s" % a["id"])
            self.ids.add(a["id"])
        if tag == "tr" and a.get("class") == "nest":
            xs = sorted((k[len("data-crossover-"):], v) for k, v in a.items()
                        if k.startswith("data-crossover-"))
            self.nests.append((a.get("data-file"), a.get("data-line"), xs))
        if tag == "svg":
            self.charts.append((a.get("class"), a.get("data-device") or a.get("data-class")))
        if tag in VOID:
            return
        if selfclosing:
            return
        self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs, selfclosing=True)

    def handle_endtag(self, tag):
        if tag in VOID:
            self.problems.append("end tag of void element </%s>" % tag)
            return
        if not self.stack:
            self.problems.append("stray </%s> at %s" % (tag, self.getpos()))
            return
        top, pos = self.stack.pop()
        if top != tag:
            self.problems.append("</%s> at %s closes <%s> of %s" % (tag, self.getpos(), top, pos))


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    p = Page()
    p.feed(text)
    p.close()
    if not text.startswith("<!DOCTYPE html>"):
        p.problems.append("no doctype")
    for tag, pos in p.stack:
        p.problems.append("<%s> of %s never closed" % (tag, pos))
    for sec in ("ranking", "ranking-table", "selfcheck", "summary", "roofline", "hull", "nests"):
        if sec not in p.ids:
            p.problems.append("no section #%s" % sec)
    for f, line, xs in p.nests:
        print("nest %s %s %s" % (f, line, " ".join("%s=%s" % (d, v.replace(" ", "_")) for d, v in xs)))
    for cls, what in p.charts:
        print("chart %s %s" % (cls, what))
    for msg in p.problems:
        print("PROBLEM " + msg)
    return 1 if p.problems else 0


sys.exit(main())
