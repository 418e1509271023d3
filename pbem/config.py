"""Settings: embedded defaults, overridden by environment variables and CLI flags."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

#: how `pbem` and the processes `pbem serve` spawns write their logs
LOG_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None


def _cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass(frozen=True)
class Settings:
    db_path: Path = Path("var/pbem.db")
    mail_domain: str = "pbem.localhost"
    smtp_url: str | None = None  # outbound relay; None = write to the Maildir
    maildir: Path = Path("var/outbox")
    secret_key: str | None = None  # web sessions; generated and stored in the database when unset
    smtp_host: str = "127.0.0.1"
    smtp_port: int = 2525
    http_host: str = "127.0.0.1"
    http_port: int = 8000
    base_url: str | None = None  # public address of the web app, for links in mail
    max_message_bytes: int = 2_000_000
    max_orders_chars: int = 20_000
    replies_per_address_per_hour: int = 20
    stranger_replies_per_hour: int = 20  # answers to mail without a valid token, all addresses together
    stranger_replies_per_address_per_hour: int = 10  # ... to one address: one forged From spends half of them at most
    replies_per_game_per_hour: int = 100  # answers about one game, to its players and to strangers naming it
    join_hold_hours: int = 24  # how long JOIN holds a role for an address that has not sent CONFIRM yet
    outbox_backoff_seconds: float = 30.0
    outbox_backoff_max_seconds: float = 3600.0
    outbox_gather_seconds: float = 0.2  # under load, mail gathers this long so one disk sync serves a batch
    scheduler_sync_seconds: float = 10.0
    db_busy_timeout_seconds: float = 10.0  # how long a write waits for a lock before answering "try again later"
    # Worker processes `pbem serve` works closes out in (pbem.service.close_pool); 0 = in the
    # scheduler's own threads. ``from_env`` (what the CLI reads) defaults to one per core.
    close_workers: int = 0
    # Hosting on the internet (docs/hosting.md): STARTTLS on the embedded SMTP server, DKIM
    # signing of every mail sent; where the backups are kept (`pbem doctor` checks their age).
    tls_cert: Path | None = None
    tls_key: Path | None = None
    tls_required: bool = False  # refuse MAIL FROM before STARTTLS
    dkim_selector: str | None = None
    dkim_key: Path | None = None
    backup_dir: Path | None = None
    extra: dict = field(default_factory=dict)

    @property
    def server_address(self) -> str:
        return f"pbem@{self.mail_domain}"

    @property
    def web_url(self) -> str:
        return (self.base_url or f"http://{self.http_host}:{self.http_port}").rstrip("/")

    @classmethod
    def from_env(cls, **overrides) -> "Settings":
        env = os.environ
        s = cls(
            db_path=Path(env.get("PBEM_DB", "var/pbem.db")),
            mail_domain=env.get("PBEM_MAIL_DOMAIN", "pbem.localhost"),
            smtp_url=env.get("PBEM_SMTP_URL") or None,
            maildir=Path(env.get("PBEM_MAILDIR", "var/outbox")),
            secret_key=env.get("PBEM_SECRET_KEY") or None,
            base_url=env.get("PBEM_BASE_URL") or None,
            max_message_bytes=_env_int("PBEM_MAX_MESSAGE_BYTES", 2_000_000),
            max_orders_chars=_env_int("PBEM_MAX_ORDERS_CHARS", 20_000),
            replies_per_address_per_hour=_env_int("PBEM_REPLIES_PER_HOUR", 20),
            stranger_replies_per_hour=_env_int("PBEM_STRANGER_REPLIES_PER_HOUR", 20),
            stranger_replies_per_address_per_hour=_env_int("PBEM_STRANGER_REPLIES_PER_ADDRESS_PER_HOUR", 10),
            replies_per_game_per_hour=_env_int("PBEM_REPLIES_PER_GAME_PER_HOUR", 100),
            join_hold_hours=_env_int("PBEM_JOIN_HOLD_HOURS", 24),
            db_busy_timeout_seconds=float(env.get("PBEM_DB_BUSY_TIMEOUT") or 10.0),
            outbox_gather_seconds=float(env.get("PBEM_OUTBOX_GATHER") or 0.2),
            close_workers=_env_int("PBEM_CLOSE_WORKERS", _cores()),
            tls_cert=_env_path("PBEM_TLS_CERT"),
            tls_key=_env_path("PBEM_TLS_KEY"),
            tls_required=env.get("PBEM_TLS_REQUIRED", "").strip().lower() in ("1", "yes", "true", "on"),
            dkim_selector=env.get("PBEM_DKIM_SELECTOR") or None,
            dkim_key=_env_path("PBEM_DKIM_KEY"),
            backup_dir=_env_path("PBEM_BACKUP_DIR"),
        )
        return s.with_(**{k: v for k, v in overrides.items() if v is not None})

    def with_(self, **changes) -> "Settings":
        for key in ("db_path", "maildir", "tls_cert", "tls_key", "dkim_key", "backup_dir"):
            if key in changes and changes[key] is not None:
                changes[key] = Path(changes[key])
        return replace(self, **changes)
