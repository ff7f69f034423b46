"""The fonts every PDF embeds: DejaVu Sans, from the Debian package fonts-dejavu-core.

One font everywhere, embedded in each file, so a PDF looks the same on every machine; DejaVu
Sans has the Latin, Hebrew and Cyrillic letters and the ``−×÷`` signs the tiles show.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

from binscrabble.i18n import _
from binscrabble.print import PrintError

if TYPE_CHECKING:
    from fpdf import FPDF

#: Where distributions put DejaVu (Debian and Ubuntu first, then Fedora and Arch).
FONT_FOLDERS: Final = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu-sans-fonts"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/share/fonts/dejavu"),
)
#: The family name the PDFs use, and its files by style ("" regular, "B" bold).
FAMILY: Final = "DejaVuSans"
FILES: Final = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}


class FontMissing(PrintError, FileNotFoundError):
    """A DejaVu font file is not on this machine; the message names the package to install."""


def font_file(name: str) -> Path:
    """The path of one DejaVu font file, or :class:`FontMissing` saying how to get it."""
    for folder in FONT_FOLDERS:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    raise FontMissing(
        _(
            "the font {name} was not found in {folders}: "
            "install it with  apt-get install fonts-dejavu-core  (Debian, Ubuntu)"
        ).format(name=name, folders=", ".join(str(folder) for folder in FONT_FOLDERS))
    )


def add_fonts(pdf: FPDF) -> None:
    """Embed DejaVu Sans, regular and bold, in the document."""
    for style, name in FILES.items():
        pdf.add_font(FAMILY, style, str(font_file(name)))
