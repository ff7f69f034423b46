"""The port the web app listens on: ``make play PORT=N`` serves on port N, and a port in use
gets one sentence that says how to choose another, exit status 2, no traceback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def listening() -> Iterator[int]:
    """A port of 127.0.0.1 another program listens on, for the block."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on (just now)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_make_play_serves_on_the_port_given(tmp_path: Path) -> None:
    """The Makefile's own ``play`` recipe, run from another folder (its database is made
    there) with this interpreter's scripts and the compiled move generator taken as done."""
    port = free_port()
    command = ["make", "-s", "-f", str(ROOT / "Makefile"), "-o", "compiled", "play"]
    command += [f"PORT={port}", f"BIN={Path(sys.executable).parent}"]
    process = subprocess.Popen(
        command,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().rstrip("\n")
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        if process.stdout is not None:
            process.stdout.close()
    assert line == f"binscrabble serving on http://127.0.0.1:{port}/"
    assert (tmp_path / "binscrabble.db").is_file()


def test_a_busy_port_says_how_to_choose_another(tmp_path: Path) -> None:
    with listening() as port:
        command = [sys.executable, "-m", "binscrabble", "serve", "--port", str(port)]
        command += ["--db", str(tmp_path / "games.db")]
        finished = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 2
    assert finished.stdout == ""
    said = finished.stderr
    assert said.count("\n") == 1 and "Traceback" not in said
    assert said.startswith(f"binscrabble serve: 127.0.0.1:{port} is in use by another program")
    assert f"--port {port + 1}" in said and f"make play PORT={port + 1}" in said


def test_a_proxy_that_is_not_an_ip_address_gets_a_sentence_and_exit_2(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "binscrabble", "serve", "--port", "0", "--proxy", "nginx"]
    command += ["--db", str(tmp_path / "games.db")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--proxy 'nginx' is not an IP address" in done.stderr
    assert not (tmp_path / "games.db").exists()
