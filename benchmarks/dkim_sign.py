"""DKIM signing (pbem.mail.dkim_signing, dkimpy with a 2048-bit RSA key): the CPU time one
signature adds to each mail sent, for a short acknowledgement and for a report with a map
picture attached. CPU time of this process, median and worst over the rounds."""

from __future__ import annotations

import os
import statistics
import time
from email.message import EmailMessage

from pbem.mail.dkim_signing import DkimSigner, new_private_key

ROUNDS = 50


def _mail(body_lines: int, attachment: bytes | None) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Little Bighorn judge <lb1@games.example>"
    msg["To"] = "us-player@players.example"
    msg["Subject"] = "[lb1] T3: report"
    msg["Message-ID"] = "<bench@games.example>"
    msg.set_content("\n".join(f"Line {i}: 7th Cavalry moved 1203 -> 1304 (3 MP)." for i in range(body_lines)))
    if attachment:
        msg.add_attachment(attachment, maintype="image", subtype="png", filename="map.png")
    return msg.as_bytes().replace(b"\n", b"\r\n")


def run(rounds: int = ROUNDS) -> dict:
    signer = DkimSigner("pbem", "games.example", new_private_key())
    mails = {"acknowledgement (1 KB)": _mail(12, None),
             "report with a 120 KB map": _mail(150, os.urandom(120_000))}
    out = {}
    for name, raw in mails.items():
        signer.sign(raw)
        times = []
        for _ in range(rounds):
            t = time.process_time()
            signer.sign(raw)
            times.append((time.process_time() - t) * 1000)
        out[name] = {"bytes": len(raw), "median_ms": round(statistics.median(times), 2),
                     "max_ms": round(max(times), 2), "rounds": rounds}
    return out


if __name__ == "__main__":
    for name, figures in run().items():
        print(name, figures)
