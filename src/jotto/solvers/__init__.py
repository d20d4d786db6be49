"""Solvers: the solution base and its registry, the strategy-file container, matrix games,
``solve``, the bundled strategies, and one subpackage per solver (``fictitious_play``,
``double_oracle``) owning its algorithm, result type and file codec."""
