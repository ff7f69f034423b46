"""A real nginx in front of several ``binscrabble serve`` processes, for the tests.

The site's configuration is the one docs/deploy.md shows (its ``nginx`` block), with the
addresses of the processes and of nginx itself put in place of the doc's; around it, a
main configuration of the test's own keeps everything nginx writes in a temporary folder
(``-p``): pid file, logs, temporary files; ``daemon off``, so the process started is nginx's
master and stopping it stops nginx.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from postgres_server import free_port

DOC = Path(__file__).resolve().parent.parent / "docs" / "deploy.md"
#: The addresses docs/deploy.md writes: the processes' and the one nginx listens on.
DOC_SERVERS = re.compile(r"^(\s*server )127\.0\.0\.1:800\d( .*;)$", re.MULTILINE)
DOC_LISTEN = "listen 127.0.0.1:8080;"
#: What the access log says of each request: the client, the request, the answer's status and
#: the process that answered.
LOG_FORMAT = '$remote_addr "$request" $status upstream=$upstream_addr'


def site_configuration() -> str:
    """The nginx configuration docs/deploy.md shows (its one ``nginx`` block)."""
    blocks = re.findall(r"^```nginx\n(.*?)^```$", DOC.read_text(), re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, "docs/deploy.md shows one nginx configuration"
    return str(blocks[0])


def site_for(upstreams: list[str], port: int) -> str:
    """The doc's configuration with ``upstreams`` (``host:port`` of each process) in place
    of its processes, and nginx listening on ``port``."""
    site = site_configuration()
    found = DOC_SERVERS.findall(site)
    assert found and DOC_LISTEN in site, "docs/deploy.md's nginx block names its processes"
    prefix, suffix = found[0]
    lines = "\n".join(f"{prefix}{address}{suffix}" for address in upstreams)
    written: list[str] = []

    def in_place(_match: re.Match[str]) -> str:
        written.append(lines)
        return lines if len(written) == 1 else ""

    site = DOC_SERVERS.sub(in_place, site)
    return site.replace(DOC_LISTEN, f"listen 127.0.0.1:{port};")


def main_configuration(folder: Path) -> str:
    """nginx's main configuration for a test: every file it writes is in ``folder``."""
    user = "user root root;\n" if os.geteuid() == 0 else ""
    temp = "".join(
        f"    {kind}_temp_path {folder / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} info;\n"
        "events { worker_connections 1024; }\n"
        f"http {{\n    log_format upstreams '{LOG_FORMAT}';\n"
        f"    access_log {folder / 'access.log'} upstreams;\n{temp}"
        f"    include {folder / 'binscrabble.conf'};\n}}\n"
    )


class Nginx:
    """nginx on a free port of 127.0.0.1 in front of ``upstreams``, its files in ``folder``."""

    def __init__(self, folder: Path, upstreams: list[str]) -> None:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        assert Path(binary).exists(), "nginx is missing: install Debian's nginx (make deps)"
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        (folder / "binscrabble.conf").write_text(site_for(upstreams, self.port))
        (folder / "nginx.conf").write_text(main_configuration(folder))
        command = [binary, "-p", str(folder), "-c", str(folder / "nginx.conf")]
        command += ["-e", str(folder / "error.log")]
        self.process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not self.listening():
            assert self.process.poll() is None, f"nginx stopped: see {folder / 'error.log'}"
            assert time.monotonic() < deadline, "nginx did not listen within 30 s"
            time.sleep(0.05)

    def listening(self) -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", self.port)) == 0

    def log(self) -> str:
        """What nginx wrote to its error log."""
        return (self.folder / "error.log").read_text(errors="replace")

    def stop(self) -> None:
        """Stop nginx (SIGQUIT: a graceful stop), killing it after 10 s."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
