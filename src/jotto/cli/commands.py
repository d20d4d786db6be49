"""The ``jotto`` command's subcommands: one table.

Each module of this package defines its commands without knowing the group; the table below
names them, and the group (:class:`jotto.cli.main.JottoGroup`) imports a command's module only
when that command is asked for: ``jotto stats`` does not load the solvers, the proof search or
the web server (a command starts in about half the CPU time it took when every module was
imported up front).  The list of commands is read here, not gathered from what some import did
on the way.  Adding a command is a row here."""

from __future__ import annotations

__all__ = ["COMMANDS"]

#: Subcommand name -> ``module:attribute`` of its click command, the module relative to
#: :mod:`jotto.cli` (``jotto --help`` lists them sorted by name, and loads them all to do so).
COMMANDS: dict[str, str] = {
    "solve": "solve:solve_command",
    "check-proof": "proof:check_proof_command",
    "evaluate": "evaluate:evaluate_command",
    "race": "race:race_command",
    "tree": "tree:tree_command",
    "openers": "openers:openers_command",
    "analyze": "analyze:analyze",
    "play": "play:play_command",
    "assist": "play:assist_command",
    "review": "review:review_command",
    "stats": "stats:stats_command",
    "serve": "serve:serve_command",
}
