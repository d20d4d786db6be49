"""Responses and searches: GuesserGBR (the paper's greedy best response), the exact best response
by branch and bound for the mean and for other objectives, and the oracles solvers draw trees
from.

Inside, imports run one way: ``result`` (what every best response shares) below the mean's
search (``mean_search``), the cost search (``cost_search``) and the distributed proof
(``proof/``), and the dispatcher ``best_responses`` (:func:`jotto.best_response`) on top.
"""
