"""bpe-kit's autograder: student code in a cage, tests in the trusted process."""

# The one place the version is written (pyproject.toml reads it from here). A literal, not
# importlib.metadata: that import alone would cost every `grade` a fifth of its start-up.
__version__ = "0.1.0"
