#!/bin/sh
# Run the whole test suite under every CPython 3.11 or newer found on this machine, each in
# its own virtual environment (.venvs/VERSION-ID), and print one line per interpreter.
# `make test` runs only the interpreter of the Makefile's PYTHON; this is how the project
# checks the others its pyproject.toml admits (requires-python >= 3.11). Interpreters
# looked at: python3, /usr/bin/python3, pyenv's versions and python3.11 to python3.14 on
# the PATH, or those named in PYTHONS (space-separated). Exit status 1 when a suite failed.
#
#     make test-pythons                      # or: PYTHONS="/usr/bin/python3" make test-pythons
set -u
candidates="${PYTHONS:-}"
if [ -z "$candidates" ]; then
    candidates="python3 /usr/bin/python3 python3.11 python3.12 python3.13 python3.14"
    for found in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3; do
        [ -x "$found" ] && candidates="$candidates $found"
    done
fi
seen=""
report=""
status=0
for python in $candidates; do
    # Only interpreters that run and are 3.11 or newer; each real executable once.
    executable=$("$python" -c 'import sys; print(sys.executable if sys.version_info >= (3, 11) else "")' 2>/dev/null) || continue
    [ -n "$executable" ] || continue
    real=$(readlink -f "$executable")
    case " $seen " in *" $real "*) continue ;; esac
    seen="$seen $real"
    version=$("$python" -c 'import platform; print(platform.python_version())')
    venv=".venvs/$version-$(printf '%s' "$real" | cksum | cut -d ' ' -f 1)"
    echo "== CPython $version ($real) in $venv"
    # Set up again whenever pyproject.toml (the dependencies) changed since the last setup.
    if [ ! -x "$venv/bin/pytest" ] || [ pyproject.toml -nt "$venv/.installed" ] \
        || ! "$venv/bin/python" -c 'import setuptools, fpdf, cairosvg, PIL, pypdf' 2>/dev/null; then
        if ! "$python" -m venv "$venv" || ! "$venv/bin/python" -m pip install --quiet -e '.[dev,print]'; then
            report="$report
CPython $version ($real): could not set up $venv"
            status=1
            continue
        fi
        touch "$venv/.installed"
    fi
    log="$venv/pytest.log"
    # Each interpreter compiles the move generator for itself (its own extension suffix).
    if ! "$venv/bin/python" scripts/build_compiled.py >"$venv/build.log" 2>&1; then
        report="$report
CPython $version ($real): could not compile the move generator (log: $venv/build.log)"
        status=1
        continue
    fi
    if "$venv/bin/pytest" -p no:cacheprovider >"$log" 2>&1; then
        outcome="passed"
    else
        outcome="FAILED"
        status=1
    fi
    summary=$(tail -n 1 "$log")
    echo "$summary"
    report="$report
CPython $version ($real): $outcome: $summary (log: $log)"
done
if [ -z "$seen" ]; then
    echo "no CPython 3.11 or newer found" >&2
    exit 1
fi
echo
echo "Test suite by interpreter:$report"
exit $status
