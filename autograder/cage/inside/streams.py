"""A streamed call: an iterable argument fed to the function piece by piece, and its iterator answer read.

Part 6's ``chunk_text`` takes any iterable of strings and yields chunks. Neither crosses between the grader
and the worker as plain data, and what the tests judge is how the two meet: which chunks come out, and how
many pieces had been read when each did (a lazy function reads only what it needs). So the grader sends
the pieces as a list and says which argument they are; the worker passes the function a generator over
them (repeated without end where the grader asks, as a stream that never ends) that counts what it hands
out, reads the answer's items, and sends back the items and, beside each, the count when it came.

Standard library only and no import of the bootstrap's: copied into the cage beside it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any


class ReadTooFar(Exception):
    """Raised into the function by an endless stream it read past the grader's bound without an item coming
    out: an eager function (one that joins everything first) fails at once rather than at the time limit."""


class Feed:
    """The pieces a streamed call is given, handed out one at a time and counted."""

    def __init__(self, pieces: list[Any], endless: bool, most: int) -> None:
        self.pieces, self.endless, self.most = pieces, endless, most
        self.read = 0  # pieces handed out so far
        self.mark = 0  # what ``read`` was when the answer's last item came (or at the start)

    def __iter__(self) -> Iterator[Any]:
        while True:
            for piece in self.pieces:
                if self.endless and self.read - self.mark >= self.most:
                    raise ReadTooFar(
                        f"read {self.most} pieces of an endless stream and yielded nothing from them: "
                        "yield each chunk as soon as it is whole"
                    )
                self.read += 1
                yield piece
            if not self.endless or not self.pieces:
                return


def prepared(args: list[Any], stream: dict[str, Any]) -> tuple[list[Any], Feed]:
    """The call's arguments with the one ``stream["arg"]`` names replaced by a Feed's generator over it."""
    feed = Feed(list(args[stream["arg"]]), bool(stream["endless"]), int(stream["most"]))
    given = list(args)
    given[stream["arg"]] = iter(feed)
    return given, feed


def taken(answer: Any, feed: Feed, stream: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """The answer's items (at most ``stream["take"]``, all of them where that is None), and what the grader
    is told beside them: how many pieces had been read when each item came, and whether the answer ended."""
    items: list[Any] = []
    read: list[int] = []
    take = stream["take"]
    iterator = iter(answer)
    ended = False
    while take is None or len(items) < take:
        try:
            item = next(iterator)
        except StopIteration:
            ended = True
            break
        items.append(item)
        read.append(feed.read)
        feed.mark = feed.read
    return items, {"read": read, "ended": ended}
