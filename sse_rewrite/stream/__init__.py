"""The per-event core: the path one SSE event takes from bytes in to bytes out.

`sse` and `chunks` read and write the wire, `events` holds the values, `rewrite`'s
`StreamRewriter` drives each choice (`choices`, `choice*`, `deltas`, `think`,
`content_thinking`, `undecided`, `streamed_calls`, `call_indexes`) through the format
parsers of `..formats`, and `fast/` holds the accelerators proven equal to that path.
Sans-IO: nothing here reads or writes a file or a socket.
"""
