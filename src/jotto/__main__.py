"""``python -m jotto``: the ``jotto`` command."""

from .cli import main

main(prog_name="jotto")
