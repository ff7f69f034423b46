"""The package as a user installs it: a source archive and a wheel built by `python -m build`
(the wheel from the archive, so the archive is known to be complete), installed into a
fresh virtual environment away from the checkout, where the command line, a game between
computer players and the data shipped inside the package all work.

The build runs without isolation (build and hatchling are development dependencies) and the
install with ``--no-index``: nothing is fetched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import binscrabble

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    # The installed package must be found by itself: no path into the checkout leaks in.
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(
        [str(arg) for arg in args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


class Installed:
    """The built archives and the environment they were installed into."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        dist = folder / "dist"
        built = _run(
            [sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, ROOT], folder
        )
        assert built.returncode == 0, built.stdout + built.stderr
        (self.sdist,) = dist.glob("binscrabble-*.tar.gz")
        (self.wheel,) = dist.glob("binscrabble-*.whl")
        environment = folder / "env"
        made = _run([sys.executable, "-m", "venv", "--without-pip", environment], folder)
        assert made.returncode == 0, made.stderr
        self.python = environment / "bin" / "python"
        self.command = environment / "bin" / "binscrabble"
        pip = [sys.executable, "-m", "pip", "--python", self.python]
        installed = _run(
            [*pip, "install", "--no-index", "--no-deps", "--quiet", self.wheel], folder
        )
        assert installed.returncode == 0, installed.stdout + installed.stderr

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return _run([self.command, *args], self.folder)

    def python_prints(self, code: str) -> str:
        result = _run([self.python, "-c", code], self.folder)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    return Installed(tmp_path_factory.mktemp("packaging"))


def test_the_installed_package_is_the_wheel_not_the_checkout(installed: Installed) -> None:
    location = Path(installed.python_prints("import binscrabble; print(binscrabble.__file__)"))
    assert installed.folder / "env" in location.parents
    assert ROOT not in location.parents


def test_the_installed_command_checks_an_equation(installed: Installed) -> None:
    valid = installed.run("check", "--json", "1+1=10")
    assert valid.returncode == 0, valid.stderr
    assert json.loads(valid.stdout)["value"] == 2
    invalid = installed.run("check", "1=10")
    assert invalid.returncode == 1


def test_the_installed_command_plays_games_with_the_shipped_leave_table(
    installed: Installed,
) -> None:
    played = installed.run("selfplay", "--players", "greedy,equity", "--games", "2", "--json")
    assert played.returncode == 0, played.stderr
    summary = json.loads(played.stdout.strip().splitlines()[-1])
    assert summary["games"] == 2
    assert summary["players"] == ["greedy", "equity"]
    assert sum(summary["wins"]) + summary["draws"] == 2


def test_the_package_data_is_installed(installed: Installed) -> None:
    weights = installed.python_prints(
        "from binscrabble.engine.leaves import LeaveTable;"
        " table = LeaveTable.default(); print(len(table.weights))"
    )
    assert int(weights) > 0
    data = installed.python_prints(
        "from importlib import resources;"
        " folder = resources.files('binscrabble.engine') / 'data';"
        " print(sorted(path.name for path in folder.iterdir()))"
    )
    assert "leaves.json" in data
    # The rules card's words are messages of the same compiled catalogues.
    card = installed.python_prints(
        "from binscrabble.print.card_words import card_words;"
        " print(card_words('bg')['tiles']['heading'], card_words('he')['direction'])"
    )
    assert card == "Плочките rtl"
    typed = installed.python_prints(
        "from importlib import resources;"
        " print((resources.files('binscrabble') / 'py.typed').is_file())"
    )
    assert typed == "True"
    # The compiled catalogues come with the wheel: no build step on installing.
    french = installed.python_prints(
        "from binscrabble import i18n; i18n.set_language('fr');"
        " print(i18n._('the game is over: no more moves can be played'))"
    )
    assert french == "la partie est finie\u00a0: on ne peut plus jouer de coup"


def test_one_version_everywhere(installed: Installed) -> None:
    versions = installed.python_prints(
        "import binscrabble, importlib.metadata;"
        " print(binscrabble.__version__, importlib.metadata.version('binscrabble'))"
    )
    assert versions.split() == [binscrabble.__version__] * 2
    assert installed.wheel.name.startswith(f"binscrabble-{binscrabble.__version__}-")
    assert installed.sdist.name == f"binscrabble-{binscrabble.__version__}.tar.gz"


def test_the_wheel_declares_its_licence(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = wheel.namelist()
        (metadata_name,) = [name for name in names if name.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(wheel.read(metadata_name).decode("utf-8"))
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert metadata["Requires-Python"] == ">=3.11"


def test_the_source_archive_holds_what_a_reader_needs(installed: Installed) -> None:
    prefix = f"binscrabble-{binscrabble.__version__}/"
    with tarfile.open(installed.sdist) as archive:
        names = {name.removeprefix(prefix) for name in archive.getnames()}
    for needed in ("LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml", "docs/rules.md"):
        assert needed in names, needed
    assert "src/binscrabble/engine/data/leaves.json" in names
    assert not any(name.startswith(".venv/") for name in names)
