"""What the web benchmarks share: stopping the ``binscrabble serve`` they started."""

from __future__ import annotations

import signal
import subprocess


def stop_server(process: subprocess.Popen[str]) -> None:
    """Ask the server to stop (SIGTERM); kill it when it has not ended within 30 s."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
