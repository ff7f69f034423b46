"""The equation language of Binary Scrabble (docs/rules.md §6 and §7): this game's dictionary.

Everything that asks "is this run an equation, and what is it worth?" asks here.

>>> from binscrabble.rules import Rules
>>> equation_value("1+1=10", Rules())
2
>>> check("11 x 11 = 1001", Rules()).bonus
8
>>> check("100 AND 1 = 101", Rules()).reason
'the left side is 0 but the right side is 101'
>>> normalize("NOT 101 = 10")
'~101=10'
>>> parse("1+1x10=11", Rules()).sides[0].right
BinaryOperation(operator='x', left=Number(digits='1'), right=Number(digits='10'))

The modules, each one concern, each importing only those listed before it:

- ``limits``, ``errors``, ``symbols``: bounds, :class:`EquationError` and its kinds, and
  the symbols' tables (precedence, identity switches, neutral literals) and values;
- ``normalizing``: people's input (aliases, words, spaces) to codes, and positions back;
- ``diagnosis``: the first grammar error of codes, with its sentence;
- ``evaluation``: exact evaluation of a side, its identity fragments and failing steps;
- ``shapes`` and ``columns``: evaluators made for a side's shape, and their batch form;
- ``results``, ``checker``, ``batch``, ``checks``: :class:`CheckResult`, the fast
  checker with its caches (the hot path of the game and the move generator), many texts
  at once, and the public checks;
- ``tree``: the parse tree, the reference the fast checker is held to;
- ``explanations``: step-by-step explanations for learners.

Errors are :class:`EquationError` values with a ``kind``, the ``position`` of the offending
symbol in the text as given, and a sentence. docs/equations.md tells users the same story.
"""

from binscrabble.expr.checks import (
    check,
    check_many,
    clear_caches,
    equation_value,
    equation_value_or_none,
    number_value,
)
from binscrabble.expr.errors import ERROR_KINDS, EquationError
from binscrabble.expr.explanations import Explanation, explain
from binscrabble.expr.limits import MAX_SYMBOLS
from binscrabble.expr.normalizing import normalize
from binscrabble.expr.results import CheckResult
from binscrabble.expr.symbols import binary, bonus
from binscrabble.expr.tree import (
    BinaryOperation,
    Equation,
    Expression,
    IdentityFragment,
    Not,
    Number,
    identity_fragments,
    parse,
    side_value,
)

__all__ = [
    "ERROR_KINDS",
    "MAX_SYMBOLS",
    "BinaryOperation",
    "CheckResult",
    "Equation",
    "EquationError",
    "Explanation",
    "Expression",
    "IdentityFragment",
    "Not",
    "Number",
    "binary",
    "bonus",
    "check",
    "check_many",
    "clear_caches",
    "equation_value",
    "equation_value_or_none",
    "explain",
    "identity_fragments",
    "normalize",
    "number_value",
    "parse",
    "side_value",
]
