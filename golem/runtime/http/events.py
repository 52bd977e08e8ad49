"""/events: the golem's decisions as server-sent events, as they are made. An ASGI
response of its own rather than a streamed generator, so that the feed's listener lives
exactly as long as the request, however the client leaves."""

from __future__ import annotations

import trio
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from golem.runtime.http.feed import DecisionEntry, DecisionFeed

__all__ = ["KEEP_ALIVE_S", "DecisionEvents"]

KEEP_ALIVE_S = 15.0  # a comment after this long with nothing sent


class DecisionEvents(Response):
    """Each decision (of `subsystem`, or all) as `event: decision` with its JSON line, a
    comment when nothing was sent for `keep_alive` seconds. The feed's listener is taken
    before the first byte is sent (a client that has read the opening comment misses no
    decision made after it) and given back when the client leaves, whatever the stream
    was doing, or when the feed drops it for falling behind (the stream then ends)."""

    media_type = "text/event-stream"

    def __init__(
        self, feed: DecisionFeed, subsystem: str | None, *, keep_alive: float = KEEP_ALIVE_S
    ) -> None:
        self.status_code = 200
        self.background = None
        self.init_headers({"Cache-Control": "no-cache"})  # no body: no Content-Length
        self._feed, self._subsystem, self._keep_alive = feed, subsystem, keep_alive

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        with self._feed.listen() as decisions:
            start = {"type": "http.response.start", "status": 200, "headers": self.raw_headers}
            await send(start)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_until_disconnect, receive, nursery.cancel_scope)
                await self._stream(decisions, send)
                nursery.cancel_scope.cancel()

    async def _stream(
        self, decisions: trio.MemoryReceiveChannel[DecisionEntry], send: Send
    ) -> None:
        await _send(send, b": golem decisions\n\n")
        wanted = self._subsystem
        quiet_until = trio.current_time() + self._keep_alive
        while True:
            entry: DecisionEntry | None = None
            with trio.move_on_at(quiet_until):
                try:
                    entry = await decisions.receive()
                except trio.EndOfChannel:
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    return
            if entry is None:
                await _send(send, b": keep-alive\n\n")
            elif wanted is None or entry.subsystem == wanted:
                await _send(send, b"event: decision\ndata: " + entry.line + b"\n\n")
            else:
                continue  # another subsystem's: the quiet goes on
            quiet_until = trio.current_time() + self._keep_alive


async def _send(send: Send, chunk: bytes) -> None:
    await send({"type": "http.response.body", "body": chunk, "more_body": True})


async def _until_disconnect(receive: Receive, stream: trio.CancelScope) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
    stream.cancel()
