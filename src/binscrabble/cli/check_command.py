"""``binscrabble check``: is it an equation, what is it worth (INTERFACES.md §1).

Expressions come from the arguments, or from standard input one per line. A blank line is
reported as invalid ("empty input") so that output line N always answers input line N.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator
from json.encoder import encode_basestring_ascii
from typing import TextIO

from binscrabble.cli.common import add_rules_options, rules_or_exit, use_color
from binscrabble.expr import CheckResult, check, check_many, explain
from binscrabble.rules import Rules

_Render = Callable[[CheckResult], str]

#: Results are written in batches of this many lines: one write call per batch, no flush.
_BATCH = 4096

_GREEN = "\033[32m"
_RED = "\033[31m"
_DIM = "\033[2m"
_RESET = "\033[0m"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``binscrabble check`` to the command line."""
    parser = subparsers.add_parser(
        "check",
        help="check equations: valid or not, value, bonus, and why",
        description=(
            "Check equations under the house rules. Give them as arguments, or one per line on "
            "standard input. Input accepts codes (0 1 = + - x / & | ~ ^), the words AND OR NOT "
            "XOR in any case, the symbols − * × ÷ : ∧ ∨ ¬ ! ⊕, and spaces. Exit status: 0 when "
            "all are valid, 1 when any is not, 2 for a usage error."
        ),
    )
    parser.add_argument("expressions", nargs="*", metavar="EXPR", help="equations to check")
    add_rules_options(parser)
    output = parser.add_mutually_exclusive_group()
    output.add_argument(
        "--json", action="store_true", help="one JSON object per expression, one per line"
    )
    output.add_argument(
        "--explain",
        action="store_true",
        help="explain each expression step by step (in binary, with decimals beside)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Check every expression; 0 when all are valid, 1 when any is not, 2 for bad rules."""
    rules = rules_or_exit(args)
    if isinstance(rules, int):
        return rules
    stdout = sys.stdout
    render: _Render
    if args.json:
        render = _render_json
    elif args.explain:
        render = _explainer(rules)
    else:
        render = _render_colored if use_color(stdout) else _render_plain
    if args.expressions:
        return _answer_all(list(args.expressions), rules, render, stdout)
    if not sys.stdin.isatty():
        return _answer_all(_piped_lines(sys.stdin), rules, render, stdout)
    return _answer_as_typed(_interactive_lines(sys.stdin), rules, render, stdout)


def _answer_all(texts: list[str], rules: Rules, render: _Render, stdout: TextIO) -> int:
    """Everything is known at once: one batch call checks each distinct text and side
    once, and the answers are written in large pieces."""
    results = check_many(texts, rules)
    for start in range(0, len(results), _BATCH):
        _write(stdout, [render(result) for result in results[start : start + _BATCH]], flush=False)
    stdout.flush()
    return 0 if all(result.reason is None for result in results) else 1


def _answer_as_typed(lines: Iterable[str], rules: Rules, render: _Render, stdout: TextIO) -> int:
    """Each line is answered as soon as it is typed."""
    all_valid = True
    for text in lines:
        result = check(text, rules)
        if not result.valid:
            all_valid = False
        _write(stdout, [render(result)], flush=True)
    return 0 if all_valid else 1


def _write(stream: TextIO, lines: list[str], *, flush: bool) -> None:
    if lines:
        stream.write("\n".join(lines))
        stream.write("\n")
    if flush:
        stream.flush()


def _piped_lines(stream: TextIO) -> list[str]:
    """Every line of a pipe or file, read at once; undecodable bytes become U+FFFD."""
    data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read().encode()
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line does not start another
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _interactive_lines(stream: TextIO) -> Iterator[str]:
    """Lines as they are typed, so each answer appears at once."""
    for line in stream:
        yield line.rstrip("\r\n")


def _render_json(result: CheckResult) -> str:
    # Written by hand instead of json.dumps: the same keys in the same order, several
    # times faster, which matters for 100,000-line batches.
    text = encode_basestring_ascii(result.input)
    if result.valid:
        return (
            f'{{"input": {text}, "valid": true, "value": {result.value}, '
            f'"binary": "{result.binary}", "bonus": {result.bonus}, "reason": null}}'
        )
    reason = encode_basestring_ascii(result.reason or "")
    return (
        f'{{"input": {text}, "valid": false, "value": null, "binary": null, '
        f'"bonus": null, "reason": {reason}}}'
    )


def _render_plain(result: CheckResult) -> str:
    if result.valid:
        return (
            f"{result.input}: valid, value {result.binary} ({result.value}), bonus {result.bonus}"
        )
    return f"{result.input}: invalid, {result.reason}"


def _render_colored(result: CheckResult) -> str:
    if result.valid:
        return (
            f"{result.input}: {_GREEN}valid{_RESET}, value {result.binary} "
            f"{_DIM}({result.value}){_RESET}, bonus {result.bonus}"
        )
    return f"{result.input}: {_RED}invalid{_RESET}, {result.reason}"


def _explainer(rules: Rules) -> _Render:

    def render(result: CheckResult) -> str:
        return str(explain(result.input, rules)) + "\n"

    return render
