"""The double oracle: the step-driven algorithm with certified value bounds, and its solution type
with its strategy-file codec."""
