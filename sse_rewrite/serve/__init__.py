"""`sse-rewrite serve`: a local HTTP proxy that repairs leaked tool calls as they stream.

A second shell around the sans-IO core, like `cli.py`: `app.py` (routes, start-up,
shutdown), `guard.py` (the middleware every request passes: the one access decision of
`access.py`, the body read of `request_body.py`, errors, one log line per request), the
fronts, one per client protocol, in `protocols/NAME/front.py` (`/v1/chat/completions`,
`/v1/messages`), `relay.py` (one upstream stream through a `StreamRewriter` to the
client, with keep-alives and caps), `upstream.py` (the one client session, its timeouts,
error mapping, untouched forwarding; `upstream_body.py` reads answers within bounds),
`connections.py` (the connection cap and header deadline), `supervisor.py` (`--workers`),
`state.py` (what the app shares with its fronts), `errors.py` (OpenAI-shaped errors).
`settings.py`, `target.py`, `access.py`, `limits.py`, `request_log.py` and `capture.py`
are pure or plain file I/O and import without aiohttp, which is why this file imports
nothing: aiohttp is loaded only when `serve` runs. How each guard holds against a hostile
client or upstream: README's Security section.
"""
