"""The words of the rules card, as messages of the program's gettext catalogues.

The card's texts are messages like every other (``locale/LANG/LC_MESSAGES/binscrabble.po``,
``make messages``): its English is the message id, and a text the web also shows (a premium
square's name) is the web's own message, so that both say it in the same words. A context
(``pgettext("rules card", ...)``) marks the few English words that read otherwise on the card
than on the web ("on": "כן" on the card, "פעיל" in the lobby's switch).

Text between backticks is an equation or a tile, read left to right also on the Hebrew card
(``binscrabble.print.rules_card`` sets it so); names in braces are filled in from the rules
in force. The keys ending in ``_on`` and ``_off`` hold the sentence for each setting of a
house rule: the card prints only the one in force.

>>> card_words("fr")["tiles"]["heading"], card_words("he")["direction"]
('Les jetons', 'rtl')
"""

from __future__ import annotations

from typing import Any

from binscrabble import i18n
from binscrabble.i18n import _, pgettext


def card_words(language: str) -> dict[str, Any]:
    """The words of the rules card in ``language`` (``en``, ``fr``, ``he``, ``bg``), by
    section, with the language's code and writing direction."""
    with i18n.use_language(language):
        return {
            "code": language,
            "direction": i18n.direction(language),
            # A house rule or an identity move, then its setting: "Leading zeros: off".
            "term_value": _("{term}: {value}"),
            "title": _("Binary Scrabble"),
            "subtitle": _("The rules of the game: {preset}"),
            "page": _("page {page} of {pages}"),
            "tiles": _tiles(),
            "board": _board(),
            "placement": _placement(),
            "equations": _equations(),
            "precedence": _precedence(),
            "identity": _identity(),
            "scoring": _scoring(),
            "end": _end(),
            "house_rules": _house_rules(),
        }


def _tiles() -> dict[str, Any]:
    return {
        "heading": _("The tiles"),
        "intro": _(
            "{total} tiles. A blank may stand for any tile of the game; it keeps that face "
            "until the end and always scores 0."
        ),
        "face": _("Tile"),
        "name": _("Name"),
        "count": _("Count"),
        "points": _("Points"),
        "names": {
            "0": _("zero"),
            "1": _("one"),
            "=": _("equals"),
            "+": _("plus"),
            "-": _("minus"),
            "x": _("times"),
            "/": _("divided by"),
            "&": _("and (bitwise)"),
            "|": _("or (bitwise)"),
            "~": _("not (flips digits)"),
            "^": _("exclusive or (bitwise)"),
            "?": pgettext("rules card", "blank"),
        },
    }


def _board() -> dict[str, Any]:
    return {
        "heading": _("Players, board and turns"),
        "text": _(
            "Two to four players play on the classic 15 × 15 Scrabble board with its premium "
            "squares. Each player holds {rack_size} tiles. On your turn you do one of three "
            "things:"
        ),
        "turns": [
            _("play tiles, then draw back up to {rack_size};"),
            _(
                "exchange any of your tiles, while the bag still holds at least {rack_size}; "
                "you score nothing;"
            ),
            _("pass; you score nothing."),
        ],
    }


def _placement() -> dict[str, Any]:
    return {
        "heading": _("Where tiles go"),
        "items": [
            _(
                "All the tiles of a play go in one row or one column and, together with the "
                "tiles already there, form one unbroken line."
            ),
            _(
                "The first play covers the centre square H8 and uses at least 3 tiles: the "
                "shortest equation is {shortest}."
            ),
            _("Every later play touches a tile already on the board."),
            _("A play adds at most one new `=`."),
        ],
        "parallel_numbers_off": _(
            "Every line of two or more tiles that a play forms or extends, across or down, must "
            "be a true equation."
        ),
        "parallel_numbers_on": _(
            "Every line of two or more tiles that a play forms or extends must be a true "
            "equation, except a line of digits alone across the play: it must be a number, "
            "scores nothing and does not count as touching the board."
        ),
        "rotated_equals_off": _("An `=` tile is always laid upright, as `=`."),
        "rotated_equals_on": _(
            "An `=` tile (or a blank) may be laid turned a quarter: it then reads `11` both "
            "ways and is no longer an `=`."
        ),
    }


def _equations() -> dict[str, Any]:
    return {
        "heading": _("Equations"),
        "text": _(
            "Numbers are written in binary. An equation has two or more sides joined by `=`, "
            "all of equal value. Its value is that common value."
        ),
        "grammar": _(
            "No sign in front of a number, no two operators in a row, no brackets, no implied "
            "multiplication: {example} is refused."
        ),
        "leading_zeros_off": _("No leading zeros: `01` is not a number, so {example} is refused."),
        "leading_zeros_on": _("A number may begin with zeros: {example} is true."),
        "division": _("`÷` must divide exactly: {example} is refused."),
        "allow_negatives_off": _(
            "A subtraction may never give a negative number, even on the way: {example} is refused."
        ),
        "allow_negatives_on": _("A subtraction may go below zero: {example} is true."),
        "bitwise": _("AND, OR and XOR work digit by digit: {first}, {second}."),
        "not": _(
            "NOT flips the digits of the number right after it, as written: {first}, {second}."
        ),
        "examples": _("True equations under these rules:"),
        "example": _("{equation}: value {value}, in binary {binary}; bonus {bonus}"),
        "not_equations": _("Not an equation: {example}, its sides differ."),
    }


def _precedence() -> dict[str, Any]:
    return {
        "heading": _("Order of operations"),
        "standard": _(
            "Standard order: NOT first, then × and ÷, then + and −, then AND, then XOR, then "
            "OR; from left to right within each level."
        ),
        "left-to-right": _(
            "Left to right, like a pocket calculator: NOT applies to its number, then every "
            "operator is applied in the order it is written."
        ),
        "example": _("So {valid} is true and {invalid} is not."),
    }


def _identity() -> dict[str, Any]:
    return {
        "heading": _("Identity moves"),
        "text": _(
            "An operation that changes nothing, such as multiplying by one, is an identity "
            "move. Here is each kind, and whether these rules allow it:"
        ),
        "allowed": _("allowed"),
        "forbidden": _("not allowed"),
        "times_one": _("× 1 and ÷ 1, as in {example}"),
        "plus_minus_zero": _("+ 0 and − 0, as in {example}"),
        "and_one_or_zero": _("AND 1, OR 0 and XOR 0, as in {example}"),
        "chains": _("more than one identity move in one equation, as in {example}"),
        "chains_none": _(
            "more than one identity move in one equation: none, as no single one is allowed"
        ),
    }


def _scoring() -> dict[str, Any]:
    return {
        "heading": _("Scoring"),
        "text": _(
            "Each equation the play forms scores the points of its new tiles (with the letter "
            "premiums under them), plus a bonus, all multiplied by the word premiums of the "
            "newly covered squares. Tiles already on the board score nothing, and a premium "
            "counts only when it is first covered."
        ),
        "bonus": _(
            "The bonus is the weight of the leading digit of the equation's value written in "
            "binary, the largest power of two not above the value: {first} gives 2, {second} "
            "gives 8."
        ),
        "bingo": _("Playing all {rack_size} tiles at once earns {bingo_bonus} extra points."),
        "example": _(
            "Worked example: the first play {play}, laid across starting on {start}, covers "
            "{premiums}. It scores {formula}; the bonus, {bonus}, is the last number in the "
            "brackets."
        ),
        "example_bingo": _(
            "Worked example: the first play {play}, laid across starting on {start}, covers "
            "{premiums}. It scores {formula}; the bonus, {bonus}, is the last number in the "
            "brackets, and the {bingo_bonus} after them is for playing the whole rack."
        ),
        "and": _(" and "),
        "premiums": {
            "DL": _("double letter"),
            "TL": _("triple letter"),
            "DW": _("double word"),
            "TW": _("triple word"),
        },
    }


def _end() -> dict[str, Any]:
    return {
        "heading": _("End of the game"),
        "items": [
            _(
                "The game ends when the bag is empty and a player has played all their tiles, "
                "or after six scoreless turns in a row."
            ),
            _(
                "The player who went out adds the points of the tiles left on the other racks; "
                "every other player subtracts their own."
            ),
            _(
                "After six scoreless turns every player subtracts the points left on their own "
                "rack."
            ),
            _("The player with the most points wins; equal totals are a draw."),
        ],
    }


def _house_rules() -> dict[str, Any]:
    return {
        "heading": _("House rules chosen"),
        "text": _("Agree on these before the game:"),
        "on": pgettext("rules card", "on"),
        "off": pgettext("rules card", "off"),
        "learning": _("learning rules"),
        "standard": _("standard rules"),
        "expert": _("expert rules"),
        "custom": _("house rules"),
        "names": {
            "precedence": _("Order of operations"),
            "identity_times_one": _("Identity: × 1 and ÷ 1"),
            "identity_plus_minus_zero": _("Identity: + 0 and − 0"),
            "identity_and_one_or_zero": _("Identity: AND 1, OR 0, XOR 0"),
            "identity_chains": _("Several identity moves in one equation"),
            "allow_negatives": _("Negative numbers"),
            "leading_zeros": _("Leading zeros"),
            "parallel_numbers": _("A bare number alongside a play"),
            "rotated_equals": _("An `=` turned to read `11`"),
            "xor_tiles": _("XOR tiles in the bag"),
            "rack_size": _("Tiles on a rack"),
            "bingo_bonus": _("Bonus for playing a whole rack"),
        },
        "values": {
            "standard": pgettext("rules card", "standard"),
            "left-to-right": _("left to right"),
        },
    }
