"""The ``jotto`` command (``python -m jotto`` and the installed script)."""

import signal
import sys
import warnings


def run() -> None:
    """Run the command.  A Ctrl-C at any moment, even while NumPy and the core still load,
    ends it quietly with exit status 130 (``import jotto`` itself loads nothing heavy).

    SIGINT is held back while the commands load: a compiled module whose initialisation it
    interrupts reports an ImportError (HiGHS's does), not a KeyboardInterrupt, and a module
    interrupted halfway stays broken.  A Ctrl-C held back arrives once they are loaded.

    Warnings given while the group loads are kept and then shown as the command shows every
    warning, one line each (the group loads a command's module when it is run, with SIGINT
    held back in the same way and its warnings shown alike)."""
    try:
        # held here by hand, not by jotto.util.interrupts.sigint_held (which the group uses):
        # importing that module could itself be interrupted
        hold = hasattr(signal, "pthread_sigmask")
        if hold:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            with warnings.catch_warnings(record=True) as loading:
                from .cli import main
                from .cli.main import warnings_as_lines
        finally:
            if hold:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        with warnings_as_lines() as show:
            for w in loading:
                show(w.message)
        main(prog_name="jotto")  # ends the process: Ctrl-C within it exits 130 too
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    run()
