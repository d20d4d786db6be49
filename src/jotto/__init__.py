"""jotto: game-theoretic strategies for the word game Jotto."""
