"""Binary Scrabble: tiles are binary digits, ``=`` and operators; every run is a true equation.

The rules core (rules, equations, board, game) uses only the standard library.
"""

from binscrabble.rules import Rules, RulesError

__all__ = ["Rules", "RulesError"]
__version__ = "0.1.0"
