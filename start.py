"""Start the desk on any laptop — Linux, macOS or Windows — with nothing but Python 3.11 or newer:

    python3 start.py          (Windows: py start.py)

It makes a virtual environment in .venv, installs the pinned requirements into it, compiles
the translation catalogues, and runs `manage.py serve`: the database migrations, the static
files, the first director account, and the desk on 0.0.0.0:8000 for the hall's network, its
address printed. Options it does not know go to `manage.py serve` (--port 8080, --threads 6,
--host 127.0.0.1). Its own:

    --requirements FILE  the requirements to install (requirements.txt; the tests install
                         requirements-dev.txt)
    --venv PATH          use the virtual environment at PATH as it is: none is made and nothing
                         is installed (a laptop without internet whose environment is ready)
    --setup-only         install and compile, then stop without serving (scripts/setup)

The standard library only: it runs before anything is installed. scripts/setup, scripts/serve
(and so scripts/test and CI) call it, so the start has one home.
"""

# Annotations stay text, so an older Python gets this file's own message, not a TypeError.
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
OLDEST = (3, 11)


def venv_python(venv: Path, platform: str = sys.platform) -> Path:
    """The interpreter of the virtual environment at `venv`: Scripts\\python.exe on Windows,
    bin/python on Linux and macOS."""
    if platform == "win32":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def parse(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """This script's own options, and the rest for `manage.py serve`."""
    parser = argparse.ArgumentParser(
        prog="start.py",
        description="Install the desk in .venv and serve it on the hall's network. Other "
        "options go to manage.py serve: --port 8080, --threads 6, --host 127.0.0.1.",
    )
    parser.add_argument(
        "--requirements", default="requirements.txt", metavar="FILE", help="what to install"
    )
    parser.add_argument(
        "--venv",
        type=Path,
        metavar="PATH",
        help="use this virtual environment as it is: none made, nothing installed",
    )
    parser.add_argument(
        "--setup-only", action="store_true", help="install and compile, do not serve"
    )
    return parser.parse_known_args(argv)


def step(python: Path, *args: str) -> None:
    """Run the virtual environment's Python in the repository; stop here if it fails."""
    done = subprocess.run([str(python), *args], cwd=ROOT)
    if done.returncode != 0:
        sys.exit(done.returncode)


def prepare(requirements: str, venv: Path | None) -> Path:
    """The virtual environment's Python, made and filled unless `venv` names one to use as it
    is; the translation catalogues compiled."""
    if venv is not None:
        python = venv_python(venv.resolve())
        if not python.exists():
            sys.exit(f"--venv: there is no virtual environment at {venv} (no {python}).")
    else:
        python = venv_python(ROOT / ".venv")
        if not python.exists():
            print("Making the virtual environment in .venv …", flush=True)
            made = subprocess.run([sys.executable, "-m", "venv", str(ROOT / ".venv")])
            if made.returncode != 0 or not python.exists():
                sys.exit(
                    "Python could not make the virtual environment .venv. On Debian or Ubuntu "
                    "install the python3-venv package (sudo apt install python3-venv), then "
                    "run this again."
                )
        print(f"Installing {requirements} …", flush=True)
        quiet = ["--quiet", "--disable-pip-version-check"]
        step(python, "-m", "pip", "install", *quiet, "--upgrade", "pip")
        step(python, "-m", "pip", "install", *quiet, "-r", requirements)
    # the translations: locale/*/django.po compiled to .mo (pure Python, no GNU gettext)
    step(python, "manage.py", "compile_catalogues")
    return python


def serve(python: Path, args: list[str], os_name: str = os.name) -> int:
    """Run `manage.py serve`. On Linux and macOS the server takes this process's place (as
    `exec` did in scripts/serve), so a stop signal reaches it directly; Windows has no such
    call, so there the server runs as a child until it ends or Ctrl+C stops both."""
    command = [str(python), "manage.py", "serve", *args]
    if os_name != "nt":
        os.chdir(ROOT)
        os.execv(command[0], command)
    server = subprocess.Popen(command, cwd=ROOT)
    try:
        return server.wait()
    except KeyboardInterrupt:  # Ctrl+C reaches the server too, in the same console
        return server.wait()


def main(argv: list[str] | None = None) -> int:
    if sys.version_info < OLDEST:
        sys.exit(
            f"The desk needs Python {OLDEST[0]}.{OLDEST[1]} or newer; this is "
            f"{sys.version.split()[0]}. Install a newer Python from python.org and run "
            "start.py with it."
        )
    options, rest = parse(sys.argv[1:] if argv is None else argv)
    if options.setup_only and rest:
        sys.exit(f"--setup-only does not serve: {' '.join(rest)} is for serving.")
    python = prepare(options.requirements, options.venv)
    if options.setup_only:
        return 0
    return serve(python, rest)


if __name__ == "__main__":
    sys.exit(main())
