"""The least an aiohttp proxy does: `bench/serve.py`'s floor for serve's CPU per event.

Usage: `python bench/passthrough.py --upstream URL [--port 0] [--lifetime 900]`; prints
`passthrough on http://127.0.0.1:PORT/v1`. `POST /v1/chat/completions` is sent on to the
upstream (body and `x-fake` header as they came) over one pooled session, and its answer
streamed back unchanged: each upstream read written to the client as it arrives, nothing
parsed. It exits by itself after `--lifetime` seconds.
"""

from __future__ import annotations

import argparse
import asyncio

import aiohttp
from aiohttp import web

SESSION: web.AppKey[aiohttp.ClientSession] = web.AppKey("session", aiohttp.ClientSession)
UPSTREAM: web.AppKey[str] = web.AppKey("upstream", str)


async def relay(request: web.Request) -> web.StreamResponse:
    """The upstream's answer to this request, read by read."""
    headers = {"Content-Type": "application/json", **({"x-fake": request.headers["x-fake"]}
                                                      if "x-fake" in request.headers else {})}
    url = request.app[UPSTREAM] + "/chat/completions"
    async with request.app[SESSION].post(url, data=await request.read(), headers=headers) as upstream:
        response = web.StreamResponse(status=upstream.status,
                                      headers={"Content-Type": upstream.headers.get("Content-Type", "")})
        await response.prepare(request)
        async for chunk in upstream.content.iter_any():
            await response.write(chunk)
        await response.write_eof()
        return response


async def main(upstream: str, port: int, lifetime: float) -> None:
    """Serve until `lifetime` has passed."""
    app = web.Application()
    app[UPSTREAM] = upstream.rstrip("/")
    app[SESSION] = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    app.router.add_post("/v1/chat/completions", relay)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    print(f"passthrough on http://127.0.0.1:{runner.addresses[0][1]}/v1", flush=True)
    await asyncio.sleep(lifetime)
    await app[SESSION].close()
    await runner.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=900.0)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.upstream, arguments.port, arguments.lifetime))
