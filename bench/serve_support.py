"""What the web benchmarks share: starting a ``binscrabble serve`` and stopping it."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

#: The line ``binscrabble serve`` prints once it accepts connections: its address.
READY = re.compile(r"binscrabble serving on (http://127\.0\.0\.1:\d+)/")


def start_server(database: Path, *options: str) -> tuple[subprocess.Popen[str], str]:
    """``binscrabble serve`` on a free port of 127.0.0.1 and the database file ``database``,
    one worker for people's games, and the further ``options``: the process and its address
    (without the final slash). Its standard error is not read."""
    command = [sys.executable, "-m", "binscrabble", "serve", "--host", "127.0.0.1"]
    command += ["--port", "0", "--db", str(database), "--workers", "1", *options]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdout is not None
    found = READY.search(process.stdout.readline())
    if found is None:
        stop_server(process)
        raise RuntimeError("binscrabble serve did not start")
    return process, found.group(1)


def stop_server(process: subprocess.Popen[str]) -> None:
    """Ask the server to stop (SIGTERM); kill it when it has not ended within 30 s."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
