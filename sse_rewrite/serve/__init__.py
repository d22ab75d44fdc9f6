"""`sse-rewrite serve`: a local HTTP proxy that repairs leaked tool calls as they stream.

A second shell around the sans-IO core, like `cli.py`: `app.py` (routes, start-up,
shutdown, the access token, one log line per request), the fronts, one per client
protocol, in `protocols/NAME/front.py` (`/v1/chat/completions`, `/v1/messages`),
`relay.py` (one upstream stream through a `StreamRewriter` to the client, with
keep-alives), `upstream.py` (the one client session, its timeouts, error mapping,
untouched forwarding), `state.py` (what the app shares with its fronts), `errors.py`
(OpenAI-shaped errors). `settings.py`, `request_log.py` and `capture.py` are pure or
plain file I/O and import without aiohttp, which is why this file imports nothing:
aiohttp is loaded only when `serve` runs.
"""
