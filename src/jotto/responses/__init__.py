"""Responses and searches: GuesserGBR (the paper's greedy best response), the exact best response
by branch and bound for the mean and for other objectives, and the oracles solvers draw trees
from."""
