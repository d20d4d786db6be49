"""The ``jotto`` command (``python -m jotto`` and the installed script)."""

import sys


def run() -> None:
    """Run the command.  A Ctrl-C at any moment, even while NumPy and the core still load,
    ends it quietly with exit status 130 (``import jotto`` itself loads nothing heavy)."""
    try:
        from .cli import main
    except KeyboardInterrupt:
        sys.exit(130)
    main(prog_name="jotto")


if __name__ == "__main__":
    run()
