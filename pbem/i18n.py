"""Translations: gettext catalogs read with Babel, used by Jinja's i18n extension.

Catalogs are the .po files under pbem/locale/<lang>/LC_MESSAGES/pbem.po; they
are compiled in memory on first use, so the repository holds no binary .mo.
Extract new message ids with ``pybabel extract -F babel.cfg -o pbem/locale/pbem.pot .``.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DEFAULT_LANGUAGE = "en"


def available_languages() -> list[str]:
    langs = {DEFAULT_LANGUAGE}
    if LOCALE_DIR.is_dir():
        langs.update(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES" / "pbem.po").is_file())
    return sorted(langs)


@lru_cache(maxsize=None)
def translations(lang: str | None) -> NullTranslations:
    path = LOCALE_DIR / (lang or DEFAULT_LANGUAGE) / "LC_MESSAGES" / "pbem.po"
    if not path.is_file():
        return NullTranslations()
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(fp=buf, domain="pbem")


def N_(msgid: str) -> str:
    """Marks a message id for extraction; it is translated where it is shown."""
    return msgid


def gettext_for(lang: str | None):
    return translations(lang).gettext
