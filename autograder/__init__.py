"""bpe-kit's autograder: student code in a cage, tests in the trusted process."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("bpe-kit")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0.0.0+checkout"
