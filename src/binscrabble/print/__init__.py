"""Pictures and printables that need the ``print`` extra (CairoSVG, Pillow, fpdf2).

- :mod:`binscrabble.print.pictures`: PNG pictures and game animations (GIF, WebP) of the
  board drawn by :mod:`binscrabble.svg`;
- :mod:`binscrabble.print.tiles`: the printable tile set and racks (PDF) and laser cut
  paths (SVG);
- :mod:`binscrabble.print.rules_card`: the rules on two A4 pages, in English, French,
  Hebrew and Bulgarian; its words (:mod:`binscrabble.print.card_words`) are messages of the
  program's gettext catalogues.
"""

from __future__ import annotations

from binscrabble.i18n import _


class PrintError(Exception):
    """A picture or printable that cannot be made; the message says why and what to do."""


class PrintExtraMissing(PrintError, ImportError):
    """A package of the ``print`` extra is not installed; the message says how to get it."""


def missing_extra(package: str, what: str) -> PrintExtraMissing:
    """The error for a missing package of the ``print`` extra, naming what needed it
    (``what``, in the reader's language: ``_("a PDF")``)."""
    return PrintExtraMissing(
        _(
            "{what} needs the package {package}, which is not installed: "
            "install the print extra with  pip install 'binscrabble[print]'"
        ).format(what=what, package=package)
    )
