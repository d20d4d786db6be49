"""The game: rule sets, word lists, replies, decision trees and their files, the counting bound,
the paper's numbers, objectives and the race's rules."""
