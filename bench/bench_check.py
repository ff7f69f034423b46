"""How fast is the dictionary? `check` through the library and `binscrabble check` on stdin.

A fixed corpus of 100,000 strings (seed 2026): true equations built by construction, false
ones made by changing one symbol of a true one, malformed random symbol strings, and some
written the way people type (spaces, words, aliases). Prints strings per second.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from binscrabble.expr import check, side_value
from binscrabble.rules import Rules

CORPUS_SIZE = 100_000
SEED = 2026
OPERATORS = "+-x/&|^"
SPOKEN = {"&": " AND ", "|": " OR ", "^": " XOR ", "~": "NOT ", "x": " × ", "-": " − "}


def random_number(rng: random.Random) -> str:
    width = rng.choice((1, 1, 1, 2, 2, 3, 3, 4, 5))
    if width == 1:
        return rng.choice("01")
    return "1" + "".join(rng.choice("01") for _ in range(width - 1))


def random_side(rng: random.Random) -> str:
    parts = [random_number(rng)]
    for _ in range(rng.choice((0, 1, 1, 1, 2, 2, 3))):
        parts.append(rng.choice(OPERATORS))
        operand = random_number(rng)
        if rng.random() < 0.1:
            operand = "~" + operand
        parts.append(operand)
    if rng.random() < 0.05:
        parts[0] = "~" + parts[0]
    return "".join(parts)


def true_equation(rng: random.Random, rules: Rules) -> str:
    """A random side and its value in binary (sometimes the other way round)."""
    from binscrabble.expr import EquationError, parse

    while True:
        side = random_side(rng)
        try:
            value = side_value(parse(side + "=0", rules).sides[0], rules)
        except EquationError:
            continue
        right = format(value, "b")
        equation = f"{side}={right}" if rng.random() < 0.8 else f"{right}={side}"
        if check(equation, rules).valid:
            return equation


def corpus(rules: Rules) -> list[str]:
    rng = random.Random(SEED)
    texts: list[str] = []
    for _ in range(CORPUS_SIZE):
        roll = rng.random()
        if roll < 0.4:
            text = true_equation(rng, rules)
        elif roll < 0.75:
            symbols = list(true_equation(rng, rules))
            index = rng.randrange(len(symbols))
            symbols[index] = rng.choice("01=+-x/&|^~")
            text = "".join(symbols)
        else:
            length = rng.randint(1, 15)
            text = "".join(rng.choice("0101011=+-x/&|^~") for _ in range(length))
        if rng.random() < 0.1:
            text = " ".join(SPOKEN.get(symbol, symbol) for symbol in text)
        texts.append(text)
    return texts


def library_rate(texts: list[str], rules: Rules) -> tuple[float, int]:
    best = float("inf")
    valid = 0
    for _ in range(3):
        # A fresh process state is not possible here; clear the caches for a cold run.
        from binscrabble import expr

        for evaluator in expr._EVALUATORS_BY_KEY.values():
            evaluator.equations.clear()
            evaluator.sides.clear()
        started = time.perf_counter()
        valid = sum(1 for text in texts if check(text, rules).valid)
        best = min(best, time.perf_counter() - started)
    return len(texts) / best, valid


def command_rate(texts: list[str]) -> float:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(texts) + "\n")
        path = handle.name
    try:
        best = float("inf")
        for _ in range(3):
            with open(path, "rb") as stdin:
                started = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "binscrabble", "check"],
                    stdin=stdin,
                    stdout=subprocess.DEVNULL,
                    check=False,
                )
                best = min(best, time.perf_counter() - started)
        return len(texts) / best
    finally:
        os.unlink(path)


def main() -> None:
    rules = Rules()
    started = time.perf_counter()
    texts = corpus(rules)
    print(f"corpus: {len(texts)} strings, built in {time.perf_counter() - started:.1f} s")
    rate, valid = library_rate(texts, rules)
    print(f"valid: {valid} ({100 * valid / len(texts):.0f} %), distinct: {len(set(texts))}")
    print(f"library check(): {rate:,.0f} strings/s ({1e6 / rate:.2f} µs per string, cold caches)")
    if (Path(__file__).resolve().parents[1] / "src" / "binscrabble" / "cli").is_dir():
        rate_command = command_rate(texts)
        print(f"binscrabble check < corpus: {rate_command:,.0f} strings/s (whole process)")


if __name__ == "__main__":
    main()
