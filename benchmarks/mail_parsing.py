"""Reading mail without the server: `parse_message` on every complete message of the real-mail
corpus, `new_text` (reply trimming) on every corpus body and HTML part, and `new_text` on a
pathological text (attribution lines, rules and a long quote, repeated) at two sizes, to show
its time grows linearly. CPU time of this process, so other processes do not inflate it.
The tests check what these functions return; how fast they are is measured here."""

from __future__ import annotations

import statistics
import time

from pbem.mail import new_text, parse_message
from pbem.mail.html_text import html_to_text
from tests.mail.mailcorpus import body_files, html_files, message_files

PATHOLOGICAL_BLOCK = "On Mon, 1 Jan 2024\n" * 5 + "_" * 200 + "\n> " + "x" * 500 + "\n" + "-" * 1000 + "\n"


def _cpu_ms(fn, arg) -> float:
    t = time.process_time()
    fn(arg)
    return (time.process_time() - t) * 1000


def _figures(times_ms: list[float]) -> dict:
    if not times_ms:
        return {"count": 0}
    return {"count": len(times_ms), "median_ms": round(statistics.median(times_ms), 2), "max_ms": round(max(times_ms), 1)}


def run(repeats: int = 3) -> dict:
    messages = [p.read_bytes() for p in message_files()]
    texts = [p.read_text("utf-8", errors="replace") for p in body_files()]
    texts += [html_to_text(p.read_text("utf-8", errors="replace")) for p in html_files()]
    # each input's best of a few runs: the figure of the code, not of a moment's interruption
    parse = [min(_cpu_ms(parse_message, raw) for _ in range(repeats)) for raw in messages]
    trim = [min(_cpu_ms(new_text, text) for _ in range(repeats)) for text in texts]
    sizes = {n: min(_cpu_ms(new_text, PATHOLOGICAL_BLOCK * n) for _ in range(repeats)) for n in (1000, 2000)}
    return {"parse_message": _figures(parse), "new_text": _figures(trim),
            "pathological_ms": {str(n): round(ms, 1) for n, ms in sizes.items()},
            "pathological_ratio_2000_to_1000": round(sizes[2000] / sizes[1000], 2) if sizes[1000] else None}


def table(result: dict) -> list[tuple[str, str]]:
    p, t, path = result["parse_message"], result["new_text"], result["pathological_ms"]
    return [
        ("mail parsing: parse_message on each corpus message (CPU)",
         f"{p['count']} messages: median {p.get('median_ms')} ms, slowest {p.get('max_ms')} ms"),
        ("mail parsing: new_text on each corpus body and HTML part (CPU)",
         f"{t['count']} texts: median {t.get('median_ms')} ms, slowest {t.get('max_ms')} ms"),
        ("mail parsing: new_text on a pathological text, 1,000 and 2,000 blocks (CPU)",
         f"{path['1000']} ms and {path['2000']} ms (ratio {result['pathological_ratio_2000_to_1000']}; 2 is linear)"),
    ]


if __name__ == "__main__":
    import json
    print(json.dumps(run(), indent=1))
