"""HTML mail bodies to plain text with the stdlib :mod:`html.parser`.

Block elements end lines, ``<br>`` is a line break, ``<blockquote>`` content
comes out as ``> `` quoted lines (so :func:`pbem.mail.reply_text.new_text`
drops it like any quote), list items get ``- ``, table cells are separated by
a space, ``<script>``/``<style>``/``<head>`` and ``display:none`` elements are
dropped, entities are decoded and whitespace is collapsed outside ``<pre>``.

:func:`html_to_text` never raises. Before parsing, comments are removed and
every ``<`` that does not open a plausible tag is escaped: the stdlib parser is
quadratic on inputs such as ``"<a" * 100000``, and this pre-pass (linear) keeps
hostile HTML from stalling it.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["html_to_text"]

MAX_QUOTE_DEPTH = 10
MAX_OUTPUT_CHARS = 2_000_000

_BLOCK = frozenset(
    "address article aside blockquote center dd details dialog div dl dt fieldset figcaption figure footer form "
    "h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody thead tfoot tr ul caption".split()
)
_SKIP = frozenset("script style head title template xml o:documentproperties noframes".split())
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_CELL = frozenset(("td", "th"))

# "<" that opens something HTMLParser can finish: a tag, an end tag, a declaration, a processing instruction.
_BAD_LT = re.compile(r"<(?!/?[A-Za-z][^<>]*>|![^<>]*>|\?[^<>]*>)")
_WS = re.compile(r"[ \t\n\r\f\v\u00a0\u200b]+")
_HIDDEN = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden|mso-hide\s*:\s*all", re.IGNORECASE)


def _defang(html: str) -> str:
    """Drop comments (an unclosed one runs to the end) and escape stray ``<``. Linear time."""
    out: list[str] = []
    pos = 0
    n = len(html)
    while pos < n:
        start = html.find("<!--", pos)
        if start < 0:
            out.append(html[pos:])
            break
        out.append(html[pos:start])
        end = html.find("-->", start + 4)
        if end < 0:
            break
        pos = end + 3
    return _BAD_LT.sub("&lt;", "".join(out))


class _Converter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.cur: list[str] = []
        self.cur_depth = 0
        self.quote = 0
        self.pre = 0
        self.skip_tag: str | None = None
        self.skip_nesting = 0
        self.hidden_stack: list[str] = []
        self.size = 0
        self.full = False

    # -- output
    def _push(self) -> None:
        line = "".join(self.cur).rstrip()
        self.cur = []
        depth = min(self.cur_depth, MAX_QUOTE_DEPTH)
        if depth:
            line = ">" * depth + (" " + line if line else "")
        self.lines.append(line)
        self.size += len(line) + 1
        if self.size > MAX_OUTPUT_CHARS:
            self.full = True

    def soft_break(self) -> None:
        if self.cur and "".join(self.cur).strip():
            self._push()
        else:
            self.cur = []
        self.cur_depth = self.quote

    def hard_break(self) -> None:
        if not self.cur:
            self.cur_depth = self.quote
        self._push()
        self.cur_depth = self.quote

    def emit(self, text: str) -> None:
        if self.full or not text:
            return
        if not self.cur:
            self.cur_depth = self.quote
        if self.pre:
            parts = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            for i, part in enumerate(parts):
                if i:
                    self.hard_break()
                if part:
                    self.cur.append(part.replace("\u00a0", " "))
            return
        text = _WS.sub(" ", text)
        if not self.cur or "".join(self.cur[-1:]).endswith(" "):
            text = text.lstrip(" ")
        if text:
            self.cur.append(text)
            self.size += len(text)
            if self.size > MAX_OUTPUT_CHARS:
                self.full = True

    # -- parser callbacks
    def handle_starttag(self, tag: str, attrs) -> None:  # noqa: ANN001
        if self.full:
            return
        if self.skip_tag is not None:
            if tag == self.skip_tag:
                self.skip_nesting += 1
            return
        if self.hidden_stack:
            if tag not in _VOID:
                self.hidden_stack.append(tag)
            return
        if "@" in tag:  # an unescaped <addr@example.com> in the text
            self.emit(self.get_starttag_text() or "")
            return
        if tag in _SKIP:
            self.skip_tag, self.skip_nesting = tag, 1
            return
        style = ""
        for k, v in attrs:
            if k == "style" and v:
                style = v
            elif k == "hidden":
                style = "display:none"
        if style and _HIDDEN.search(style) and tag not in _VOID:
            self.hidden_stack.append(tag)
            return
        if tag == "br":
            self.hard_break()
        elif tag == "blockquote":
            self.soft_break()
            self.quote += 1
            self.cur_depth = self.quote
        elif tag == "pre":
            self.soft_break()
            self.pre += 1
        elif tag == "li":
            self.soft_break()
            self.emit("- ")
        elif tag == "hr":
            self.soft_break()
            self.emit("-----")
            self.soft_break()
        elif tag in _CELL:
            if self.cur and not "".join(self.cur).endswith(" "):
                self.cur.append(" ")
        elif tag in _BLOCK:
            self.soft_break()

    def handle_startendtag(self, tag: str, attrs) -> None:  # noqa: ANN001
        if tag in _VOID or tag == "br":
            self.handle_starttag(tag, attrs)
        else:
            self.handle_starttag(tag, attrs)
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.full:
            return
        if self.skip_tag is not None:
            if tag == self.skip_tag:
                self.skip_nesting -= 1
                if self.skip_nesting <= 0:
                    self.skip_tag = None
            return
        if self.hidden_stack:
            if tag in self.hidden_stack:
                while self.hidden_stack and self.hidden_stack.pop() != tag:
                    pass
            elif tag in ("body", "html", "table", "tr"):
                self.hidden_stack.clear()  # an unclosed hidden element ends with its container
            return
        if tag == "blockquote":
            self.soft_break()
            self.quote = max(0, self.quote - 1)
            self.cur_depth = self.quote
        elif tag == "pre":
            self.soft_break()
            self.pre = max(0, self.pre - 1)
        elif tag in _BLOCK:
            self.soft_break()

    def handle_data(self, data: str) -> None:
        if self.skip_tag is not None or self.hidden_stack or self.full:
            return
        self.emit(data)

    def text(self) -> str:
        self.soft_break()
        lines = self.lines
        # collapse runs of more than two blank lines (layout tables make many)
        out: list[str] = []
        blanks = 0
        for line in lines:
            if not line.strip(">").strip():
                blanks += 1
                if blanks > 2:
                    continue
            else:
                blanks = 0
            out.append(line)
        return "\n".join(out).strip("\n")


def html_to_text(html: str) -> str:
    """Readable plain text of an HTML mail body. Never raises."""
    try:
        if not html:
            return ""
        conv = _Converter()
        try:
            conv.feed(_defang(html))
            conv.close()
        except Exception:
            pass  # keep what was converted before the parser gave up
        return conv.text()
    except Exception:
        return ""
