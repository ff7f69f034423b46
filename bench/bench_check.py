"""How fast is the dictionary? `check` through the library and `binscrabble check` on stdin.

A fixed corpus of 100,000 strings (seed 2026): true equations built by construction, false
ones made by changing one symbol of a true one, malformed random symbol strings, and some
written the way people type (spaces, words, aliases). Prints strings per second, for one
`check()` call per string and for one `check_many()` call for the whole corpus (what
`binscrabble check` does with piped input), each pass starting with empty caches.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from binscrabble import expr
from binscrabble.expr import EquationError, check, check_many, parse, side_value
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


def library_rate(
    texts: list[str], rules: Rules, *, batch: bool, passes: int = 5
) -> tuple[float, float, int, float]:
    """Strings per second through the library, by wall clock and by process CPU time (best
    pass), and by the median pass's CPU time: one ``check()`` call per string, or one
    ``check_many()`` call for the corpus.

    This machine may be shared: CPU time is the figure that other processes disturb least.
    Its speed also drifts with what the host does (a plain counting loop's time can vary by
    half from one second to the next), so the best pass is the figure of the code, as
    ``timeit`` takes it, and the median shows the spread.
    """
    best_wall = best_cpu = float("inf")
    cpu_times: list[float] = []
    valid = 0
    for _ in range(passes):
        # Every pass starts cold: no result, equation, side or shape is known yet.
        expr.clear_caches()
        wall, cpu = time.perf_counter(), time.process_time()
        if batch:
            valid = sum(1 for result in check_many(texts, rules) if result.valid)
        else:
            valid = sum(1 for text in texts if check(text, rules).valid)
        cpu_times.append(time.process_time() - cpu)
        best_cpu = min(best_cpu, cpu_times[-1])
        best_wall = min(best_wall, time.perf_counter() - wall)
    median_cpu = statistics.median(cpu_times)
    return len(texts) / best_wall, len(texts) / best_cpu, valid, len(texts) / median_cpu


def command_rate(texts: list[str], passes: int = 3) -> tuple[float, float]:
    """Strings per second through `binscrabble check` reading the corpus on standard input.

    Whole process, start-up included; by wall clock and by the child's CPU time.
    """
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("".join(text + "\n" for text in texts))
        path = handle.name
    try:
        best_wall = best_cpu = float("inf")
        for _ in range(passes):
            with open(path, "rb") as stdin:
                before = os.times()
                started = time.perf_counter()
                completed = subprocess.run(
                    [sys.executable, "-m", "binscrabble", "check"],
                    stdin=stdin,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    check=False,
                )
                best_wall = min(best_wall, time.perf_counter() - started)
                after = os.times()
                cpu = (after.children_user - before.children_user) + (
                    after.children_system - before.children_system
                )
                best_cpu = min(best_cpu, cpu)
            if completed.returncode not in (0, 1):
                raise SystemExit(f"binscrabble check failed: {completed.stderr.decode()}")
        # With no texts, the figures are 1 / seconds: the cost of starting up.
        count = len(texts) or 1
        return count / best_wall, count / best_cpu
    finally:
        os.unlink(path)


def machine_speed(passes: int = 5) -> float:
    """CPU milliseconds of a fixed counting loop (3 million additions), best of `passes`.

    The machine's own speed drifts (on a shared machine the same loop's time can vary by
    half from one minute to the next): printed before and after the library figures, it
    tells a slow spell of the host from a slow change of the code.
    """
    best = float("inf")
    for _ in range(passes):
        started = time.process_time()
        total = 0
        for number in range(3_000_000):
            total += number
        best = min(best, time.process_time() - started)
    return 1000 * best


def main() -> None:
    rules = Rules()
    print(f"machine speed: a 3-million-addition loop takes {machine_speed():.0f} ms (CPU)")
    started = time.perf_counter()
    texts = corpus(rules)
    built = time.perf_counter() - started
    print(f"corpus: {len(texts):,} strings (seed {SEED}), built in {built:.1f} s")
    wall, cpu, valid, median = library_rate(texts, rules, batch=False)
    print(f"valid: {valid:,} ({100 * valid / len(texts):.0f} %), distinct: {len(set(texts)):,}")
    print(
        f"library check(), one call per string, cold caches: {wall:,.0f} strings/s wall "
        f"({1e6 / wall:.2f} µs), {cpu:,.0f} strings/s CPU ({1e6 / cpu:.2f} µs); "
        f"median pass {median:,.0f}/s"
    )
    wall, cpu, batch_valid, median = library_rate(texts, rules, batch=True, passes=10)
    assert batch_valid == valid, "check_many and check disagree"
    print(
        f"library check_many(), one call for the corpus, cold caches: {wall:,.0f} strings/s "
        f"wall ({1e6 / wall:.2f} µs), {cpu:,.0f} strings/s CPU ({1e6 / cpu:.2f} µs); "
        f"median pass {median:,.0f}/s"
    )
    print(f"machine speed: the same loop now takes {machine_speed():.0f} ms (CPU)")
    wall, cpu = command_rate(texts)
    print(
        f"binscrabble check < corpus (whole process): {wall:,.0f} strings/s wall, "
        f"{cpu:,.0f} strings/s CPU"
    )
    empty_wall, empty_cpu = command_rate([])
    start_wall, start_cpu = 1 / empty_wall, 1 / empty_cpu
    per_line_wall = len(texts) / (len(texts) / wall - start_wall)
    per_line_cpu = len(texts) / (len(texts) / cpu - start_cpu)
    print(
        f"  of which start-up (empty input): {start_wall:.2f} s wall, {start_cpu:.2f} s CPU; "
        f"lines after start-up: {per_line_wall:,.0f} strings/s wall, "
        f"{per_line_cpu:,.0f} strings/s CPU"
    )


if __name__ == "__main__":
    main()
