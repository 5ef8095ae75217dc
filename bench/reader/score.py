#!/usr/bin/python3
"""Scores text dumps of the reader corpus: for each page, the share of its paragraphs that a dump shows whole (the
paragraph's words in order, none run together).

Usage: score.py MANIFEST PAGES_DIR OUT_DIR TOOL...  (OUT_DIR/<tool>/<page>.txt are the dumps)

A page's paragraphs are the text of its innermost block elements (p, li, dd, dt, h1-h6, td, th, pre, blockquote,
caption, figcaption, and divs holding text directly), with the quotation marks browsers draw around `<q>`, read from the page's bytes in the charset a browser would use
(the encoding its bytes are really in, from manifest.tsv), skipping script, style, template and hidden elements; those of fewer than 20
characters are left out. Both sides are normalised the same way: whitespace runs become one space, and spaces next
to a CJK character are dropped (a dump may wrap lines between any two of them). Faro's link targets (` <url>`),
image markers (`[image: …]`), the `#` of its headings and its list markers are removed first, as are lynx's list bullets; a paragraph
is "whole" when its normalised text is a substring of the normalised dump.

Prints one line per page with each tool's share, then key=value lines:
  reader_pages=N reader_<tool>_share=… (all paragraphs of all pages) reader_<tool>_min_page=… reader_<tool>_min_page_name=…
"""
import html.parser
import os
import re
import sys

BLOCKS = {"p", "li", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "pre", "blockquote", "caption",
          "figcaption", "div", "section", "article", "header", "footer", "main", "nav", "aside", "ul", "ol", "dl",
          "table", "tr", "tbody", "thead", "body", "html", "form", "fieldset", "address", "center", "figure"}
SKIP = {"script", "style", "template", "head", "title", "select", "textarea", "button", "option"}
VOID = {"br", "img", "hr", "meta", "link", "input", "area", "base", "col", "embed", "param", "source", "track", "wbr"}
CJK = r"\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
CODECS = {"shift_jis": "cp932", "sjis": "cp932", "euc-jp": "euc_jp", "euc-kr": "cp949", "gb2312": "gbk", "gbk": "gbk",
          "big5": "big5hkscs", "windows-1251": "cp1251", "iso-8859-1": "cp1252", "us-ascii": "cp1252",
          "utf-8": "utf-8"}


class Paragraphs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, hidden)
        self.skip = 0
        self.hidden = 0
        self.current = []
        self.out = []

    def flush(self):
        text = "".join(self.current)
        self.current = []
        if text.strip():
            self.out.append(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        style = (attrs.get("style") or "").replace(" ", "").lower()
        hidden = "hidden" in attrs or "display:none" in style or (attrs.get("aria-hidden") or "") == "true"
        if tag in BLOCKS:
            self.flush()
        if tag == "br":
            self.current.append(" ")
        if tag == "q" and self.skip == 0 and self.hidden == 0:
            self.current.append("\u201c")
        if tag in VOID:
            return
        self.stack.append((tag, hidden))
        if tag in SKIP:
            self.skip += 1
        if hidden:
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if tag == "q" and self.skip == 0 and self.hidden == 0:
            self.current.append("\u201d")
        # Close up to the matching tag (HTML lets some end tags be left out).
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                for name, hidden in self.stack[i:]:
                    if name in SKIP:
                        self.skip -= 1
                    if hidden:
                        self.hidden -= 1
                del self.stack[i:]
                break
        if tag in BLOCKS:
            self.flush()

    def handle_data(self, data):
        if self.skip == 0 and self.hidden == 0:
            self.current.append(data)


def normalise(text):
    text = re.sub(r"\s+", " ", text)
    text = re.sub(rf"(?<=[{CJK}]) | (?=[{CJK}])", "", text)
    return text.strip()


def clean(tool, text):
    if tool == "faro":
        text = re.sub(r" ?<(?:https?|mailto|tel):[^>\s]*>", "", text)
        text = re.sub(r"\[image(?:: [^\]]*)?\]", "", text)
        text = re.sub(r"(?m)^#{1,6} ", "", text)
        text = re.sub(r"(?m)^\s*[-=]{3,}\s*$", "", text)
        text = re.sub(r"(?m)^(\s*)(?:- |\d+\. |> )", r"\1", text)
    if tool == "lynx":
        text = re.sub(r"(?m)^\s*[*+o#@-] ", "", text)
    return text



def main():
    manifest, pages_dir, out_dir, tools = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    rows = [line.rstrip("\n").split("\t") for line in open(manifest, encoding="utf-8") if not line.startswith("#")]
    totals = {t: [0, 0] for t in tools}
    per_page = {t: [] for t in tools}
    print("%-36s %6s  %s" % ("page", "paras", "  ".join("%6s" % t for t in tools)))
    for row in rows:
        name, encoding = row[0], row[2]
        raw = open(os.path.join(pages_dir, name), "rb").read()
        # The reference is the page's text in the encoding its bytes really are in (manifest.tsv), whatever it says.
        text = raw.decode(CODECS[encoding], errors="replace")
        parser = Paragraphs()
        parser.feed(text)
        parser.close()
        parser.flush()
        paragraphs = [p for p in (normalise(p) for p in parser.out) if len(p) >= 20]
        shares = []
        for tool in tools:
            dump_path = os.path.join(out_dir, tool, name + ".txt")
            dump = open(dump_path, encoding="utf-8", errors="replace").read() if os.path.exists(dump_path) else ""
            dump = normalise(clean(tool, dump))
            whole = sum(1 for p in paragraphs if p in dump)
            if os.environ.get("SCORE_MISSES") == tool:
                for p in paragraphs:
                    if p not in dump:
                        print("  MISS %s: %s" % (name, p[:300]))
            share = whole / len(paragraphs) if paragraphs else 1.0
            totals[tool][0] += whole
            totals[tool][1] += len(paragraphs)
            per_page[tool].append((share, name))
            shares.append(share)
        print("%-36s %6d  %s" % (name, len(paragraphs), "  ".join("%6.3f" % s for s in shares)))
    print("reader_pages=%d" % len(rows))
    for tool in tools:
        whole, count = totals[tool]
        worst = min(per_page[tool])
        print("reader_%s_share=%.3f reader_%s_paragraphs=%d/%d reader_%s_min_page=%.3f reader_%s_min_page_name=%s" % (
            tool, whole / count if count else 1.0, tool, whole, count, tool, worst[0], tool, worst[1]))


if __name__ == "__main__":
    main()
