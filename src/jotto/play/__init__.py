"""Play at the terminal: sessions (you guess, you hide, the race, assist), the Jotto sheet, what
the computer says, which words people know, and the history of games."""
