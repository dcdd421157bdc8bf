"""The words of the grader-worker protocol: one home for both sides.

Standard library only and free of imports: this file is copied into the
cage beside the bootstrap, which imports it as the grader does.
"""

# What the grader asks (a message's "op").
CALL = "call"  # run module.function(*args, **kwargs)
CALLS = "calls"  # run a list of calls one after another until one fails; their answers come in a few writes
# Answers to calls sent together are held and written together, once a run is done or once this many seconds
# have passed since the last write: a slow run still shows its progress.
HOLD_SECONDS = 0.05
# Fork a process that imports a module, then makes calls into it (forks); the worker compiles the module
# and imports what it names first, the first time it is asked (bootstrap.prepare).
FORK = "fork"
END = "end"  # end that process; the worker removes what it left, then says ENDED
STOP = "stop"

# Why a call has no value (a failed reply's "kind").
NOT_STARTED = "not_started"  # the function still raises NotImplementedError
MISSING_MODULE = "missing_module"  # the part's module or notebook was not handed in
MISSING_FUNCTION = "missing_function"  # the module loaded but has no such function
IMPORT_FAILED = "import_failed"  # the module raised (or would not compile) while loading
CELL_FAILED = "cell_failed"  # a notebook's function is missing, and a cell of that notebook raised as it ran
RAISED = "raised"  # the function raised
UNREADABLE = "unreadable"  # the function returned something that is not plain data, or too much of it
PROTOCOL = "protocol"  # a request the worker does not understand (a grader bug)

# Fields of a message that is not about a call: the worker is set up (nothing of the student's has run
# yet), the submission is loaded, a module is imported.
STARTED = "started"
READY = "ready"
IMPORTED = "imported"
ENDED = "ended"  # its value: the word of the mark that ends what the process wrote past its calls
# With ENDED, for a process forked to measure one call (a FORK's "measure"): how far its memory grew past what
# it held at birth, in bytes, as the worker read it from the kernel (forks.growth); None where it cannot.
GROWN_BYTES = "grown_bytes"


def stray_mark(word: str) -> bytes:
    """The mark the worker writes into the output the grader reads apart once a forked process and its
    children are gone: what came before it and after the last one is theirs. ``word`` is made after the
    process ended, so none can write the mark of its own end ahead."""
    return b"\x1e" + word.encode("ascii") + b"\x1e"


STRAY_MARK_PATTERN = rb"\x1e([0-9a-f]{32})\x1e"
