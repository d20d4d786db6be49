"""Ganzfried's fictitious play in oracular form: the step-driven algorithm, its solution type, and
the codec of its strategy files."""
