"""The worker's answers read by a thread of their own: the portable path's reader, where ``select`` takes no
pipe (Windows) or the portable path is forced to be tested (``isolation.portable_path``).

The same frames, checked the same way (``codec.FrameReader``, whose parsing this keeps): only the waiting
differs. A thread blocks in the pipe's read and hands each chunk over; the one awaiting an answer takes the
chunks until the message is whole or its time is up. The thread stops reading while a few chunks wait
untaken, so a worker that floods the pipe still waits, as it does for the reader that uses ``select``.
"""

from __future__ import annotations

import os
import queue
import threading

from autograder.cage.inside import codec

CHUNK_BYTES = 1 << 16
WAITING_CHUNKS = 16  # what the thread reads ahead of the one awaiting an answer, at most


class ThreadedFrameReader(codec.FrameReader):
    """``codec.FrameReader``'s messages from a pipe, read by a thread (see the module's text)."""

    def __init__(self, fd: int) -> None:
        super().__init__(fd)
        # The thread's own descriptor: the pipe's may be closed while the thread still waits in its read, and
        # a number closed and given to another file must never be read by it.
        self._own = os.dup(fd)
        self._chunks: queue.Queue[bytes] = queue.Queue(maxsize=WAITING_CHUNKS)
        self._thread = threading.Thread(target=self._pump, name="worker-answers", daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        try:
            while True:
                try:
                    chunk = os.read(self._own, CHUNK_BYTES)
                except OSError:
                    chunk = b""
                self._chunks.put(chunk)
                if not chunk:
                    return
        finally:
            os.close(self._own)

    def _chunk(self, left: float) -> bytes:
        """The next chunk the thread read (b"" at the pipe's end) within ``left`` s, else TimeoutError."""
        if left <= 0:
            raise TimeoutError
        try:
            return self._chunks.get(timeout=left)
        except queue.Empty:
            raise TimeoutError from None

    def waiting(self) -> bool:
        """Whether bytes have come that no request asked for yet."""
        return bool(self.buffer) or (not self.ended and not self._chunks.empty())
