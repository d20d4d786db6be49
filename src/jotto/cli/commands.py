"""The ``jotto`` command's subcommands: one table.

Each module of this package defines its commands without knowing the group; the table below
adds them to it, so the list of commands is read here, not gathered from what some import did on
the way.  Adding a command is a row here."""

from __future__ import annotations

import click

from .analyze import analyze
from .evaluate import evaluate_command
from .main import main
from .openers import openers_command
from .play import assist_command, play_command
from .proof import check_proof_command
from .race import race_command
from .review import review_command
from .serve import serve_command
from .solve import solve_command
from .stats import stats_command
from .tree import tree_command

__all__ = ["COMMANDS", "main"]

#: Subcommand name -> its click command (``jotto --help`` lists them sorted by name).
COMMANDS: dict[str, click.Command] = {
    "solve": solve_command,
    "check-proof": check_proof_command,
    "evaluate": evaluate_command,
    "race": race_command,
    "tree": tree_command,
    "openers": openers_command,
    "analyze": analyze,
    "play": play_command,
    "assist": assist_command,
    "review": review_command,
    "stats": stats_command,
    "serve": serve_command,
}

for _name, _command in COMMANDS.items():
    main.add_command(_command, _name)
