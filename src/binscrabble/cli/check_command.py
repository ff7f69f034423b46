"""``binscrabble check``: is it an equation, what is it worth (INTERFACES.md §1).

Expressions come from the arguments, or from standard input one per line. A blank line is
reported as invalid ("empty input") so that output line N always answers input line N.
"""

from __future__ import annotations

import argparse
import functools
import io
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from json.encoder import encode_basestring_ascii
from typing import BinaryIO, Final, TextIO

from binscrabble import i18n
from binscrabble.cli.common import CliError, add_rules_options, rules_from_options, use_color
from binscrabble.expr import CheckResult, check, check_many, explain
from binscrabble.expr.explanations import signed
from binscrabble.expr.sentences import say
from binscrabble.i18n import _
from binscrabble.limits import escape_controls
from binscrabble.rules import Rules

_Render = Callable[[CheckResult], str]

#: Results are written in batches of this many lines: one write call per batch, no flush.
_BATCH = 4096
#: Piped lines are checked this many at a time (a batch shares its work, and memory stays
#: bounded however long the input).
_LINES_PER_BATCH = 65536
#: The longest piped line read, in bytes (an equation on the board has at most 15 tiles).
MAX_LINE_BYTES = 64 * 1024

#: An option as typed: -h, or two dashes and a name (--json, --rule=identity_chains=on).
_OPTION = re.compile(r"-h|--[A-Za-z][A-Za-z_-]*(?:=.*)?", re.DOTALL)
#: The options that take no value (and any prefix of them argparse would accept).
_FLAGS = ("-h", "--help", "--json", "--explain")

_GREEN = "\033[32m"
_RED = "\033[31m"
_DIM = "\033[2m"
_RESET = "\033[0m"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``binscrabble check`` to the command line."""
    parser = subparsers.add_parser(
        "check",
        help=_("check equations: valid or not, value, bonus, and why"),
        description=_(
            "Check equations under the house rules. Give them as arguments, or one per line on "
            "standard input. Input accepts codes (0 1 = + - x / & | ~ ^), the words AND OR NOT "
            "XOR in any case, the symbols − * × ÷ : ∧ ∨ ¬ ! ⊕, and spaces. Exit status: 0 when "
            "all are valid, 1 when any is not, 2 for a usage error."
        ),
    )
    parser.add_argument("expressions", nargs="*", metavar="EXPR", help=_("equations to check"))
    add_rules_options(parser)
    output = parser.add_mutually_exclusive_group()
    output.add_argument(
        "--json", action="store_true", help=_("one JSON object per expression, one per line")
    )
    output.add_argument(
        "--explain",
        action="store_true",
        help=_("explain each expression step by step (in binary, with decimals beside)"),
    )
    parser.set_defaults(handler=run)


def expressions_last(arguments: Sequence[str]) -> list[str]:
    """The arguments of ``check`` with every expression moved after ``--``, options first.

    An argument that starts with ``-`` but is not an option (``-1+1=0``, ``--1=1``) is an
    expression; argparse alone would refuse it as an unknown option.

    >>> expressions_last(["-1+1=0", "--json", "1=1", "--rule", "xor_tiles=2"])
    ['--json', '--rule', 'xor_tiles=2', '--', '-1+1=0', '1=1']
    """
    options: list[str] = []
    expressions: list[str] = []
    takes_value = False
    for index, argument in enumerate(arguments):
        if takes_value:
            options.append(argument)
            takes_value = False
        elif argument == "--":
            expressions.extend(arguments[index + 1 :])
            break
        elif _OPTION.fullmatch(argument):
            options.append(argument)
            takes_value = "=" not in argument and not any(
                flag.startswith(argument) for flag in _FLAGS
            )
        else:
            expressions.append(argument)
    return [*options, "--", *expressions] if expressions else options


def run(args: argparse.Namespace) -> int:
    """Check every expression; 0 when all are valid, 1 when any is not, 2 for bad rules."""
    rules = rules_from_options(args)
    stdout = sys.stdout
    render: _Render
    if args.json:
        render = _render_json
    elif args.explain:
        render = _explainer(rules)
    else:
        render = _render_colored if use_color(stdout) else _render_plain
    if args.expressions:
        return _answer_all([list(args.expressions)], rules, render, stdout)
    if not sys.stdin.isatty():
        try:
            return _answer_all(_piped_batches(sys.stdin), rules, render, stdout)
        except _LineTooLong as error:
            stdout.flush()
            raise CliError(str(error)) from error
    if isinstance(sys.stdin, io.TextIOWrapper):
        # A typed byte that is not UTF-8 becomes U+FFFD (then an unknown symbol), whatever
        # the locale's error handler, rather than a crash.
        sys.stdin.reconfigure(errors="replace")
    return _answer_as_typed(_interactive_lines(sys.stdin), rules, render, stdout)


def _answer_all(batches: Iterable[list[str]], rules: Rules, render: _Render, stdout: TextIO) -> int:
    """Many lines at a time: one batch call checks each distinct text and side of a batch
    once, and the answers are written in large pieces."""
    all_valid = True
    for texts in batches:
        results = check_many(texts, rules)
        for start in range(0, len(results), _BATCH):
            chunk = results[start : start + _BATCH]
            _write(stdout, [render(result) for result in chunk], flush=False)
        all_valid = all_valid and all(result.reason is None for result in results)
    stdout.flush()
    return 0 if all_valid else 1


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


class _LineTooLong(Exception):
    """A piped line longer than :data:`MAX_LINE_BYTES`: the input is not expressions."""


def _piped_batches(stream: TextIO) -> Iterator[list[str]]:
    """The lines of a pipe or file, :data:`_LINES_PER_BATCH` at a time, each read whole
    only up to :data:`MAX_LINE_BYTES`; undecodable bytes become U+FFFD."""
    if hasattr(stream, "buffer"):
        source: BinaryIO = stream.buffer
    else:  # a text stream with no bytes under it (a test's StringIO)
        source = io.BytesIO(stream.read().encode())
    batch: list[str] = []
    number = 0
    while True:
        data = source.readline(MAX_LINE_BYTES + 1)
        if not data:
            break
        number += 1
        if len(data) > MAX_LINE_BYTES and not data.endswith(b"\n"):
            if batch:
                yield batch  # the lines before it are answered
            raise _LineTooLong(
                _(
                    "line {number} of the input is longer than {size} KiB: give one "
                    "expression a line"
                ).format(number=number, size=MAX_LINE_BYTES // 1024)
            )
        line = data.decode("utf-8", errors="replace").removesuffix("\n").removesuffix("\r")
        batch.append(line)
        if len(batch) >= _LINES_PER_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


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


@functools.cache
def _verdicts(language: str) -> tuple[str, str]:
    """The two lines of a verdict in ``language``; ``{good}``, ``{bad}``, ``{dim}`` and
    ``{plain}`` are the colours (empty without them)."""
    with i18n.use_language(language):
        return (
            _("{input}: {good}valid{plain}, value {binary} {dim}({value}){plain}, bonus {bonus}"),
            _("{input}: {bad}invalid{plain}, {reason}"),
        )


def _render(result: CheckResult, colours: dict[str, str]) -> str:
    # What was typed is shown with its control characters escaped: it cannot drive the
    # terminal it is printed on.
    shown = escape_controls(result.input)
    valid, invalid = _verdicts(i18n.language())
    if result.valid:
        # A person reads the minus sign of the tiles (U+2212); --json keeps plain numbers.
        return valid.format(
            input=shown,
            binary=(result.binary or "").replace("-", "−"),
            value=signed(result.value or 0),
            bonus=result.bonus,
            **colours,
        )
    reason = escape_controls(say(result.reason or ""))
    return invalid.format(input=shown, reason=reason, **colours)


_PLAIN: Final = {"good": "", "bad": "", "dim": "", "plain": ""}


def _render_plain(result: CheckResult) -> str:
    return _render(result, _PLAIN)


def _render_colored(result: CheckResult) -> str:
    return _render(result, {"good": _GREEN, "bad": _RED, "dim": _DIM, "plain": _RESET})


def _explainer(rules: Rules) -> _Render:
    def render(result: CheckResult) -> str:
        lines = str(explain(result.input, rules, options=True)).split("\n")
        return "\n".join(escape_controls(line) for line in lines) + "\n"

    return render
