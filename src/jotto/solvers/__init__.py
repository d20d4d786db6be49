"""Solvers: the solution base and its registry (one row per solver), the strategy-file
container, matrix games, ``solve`` and the loop every run shares (``driver``), the bundled
strategies, and one subpackage per solver (``fictitious_play``, ``double_oracle``) owning its
algorithm, its run, its result type with its report and plot, and its file codec."""
