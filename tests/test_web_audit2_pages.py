"""The pages' words of the second newcomer audits (en/he N12): every text a person reads is
in the page's language, the clock menu's group headings (``<optgroup label>``) included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from web_api_support import web_client

GROUPS = {
    "fr": ("En direct\u00a0: des minutes pour tous vos coups", "Par correspondance"),
    "he": ("שעון חי: דקות לכל המהלכים שלכם", "משחק בהתכתבות"),
    "bg": ("На живо: минути за всичките ви ходове", "По кореспонденция"),
}


@pytest.mark.parametrize("language", list(GROUPS))
def test_the_clock_menus_group_headings_are_in_the_pages_language(
    tmp_path: Path, language: str
) -> None:
    with web_client(tmp_path / "g.db") as client:
        page = client.get(f"/?lang={language}").text
    labels = re.findall(r'<optgroup label="([^"]*)"', page)
    assert labels == list(GROUPS[language])
