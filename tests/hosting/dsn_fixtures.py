"""The delivery status notifications in tests/hosting/dsn/, filled in for a mail the test sent."""

from __future__ import annotations

from pathlib import Path
from string import Template

FOLDER = Path(__file__).with_name("dsn")


def report(name: str, *, return_path: str, recipient: str, message_id: str = "<sent@pbem.test>", domain: str = "pbem.test") -> bytes:
    """The file ``name`` (without .eml) as its sender would have sent it back, CRLF line ends."""
    text = Template((FOLDER / f"{name}.eml").read_text("utf-8")).substitute(
        return_path=return_path, recipient=recipient, message_id=message_id, domain=domain)
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")
