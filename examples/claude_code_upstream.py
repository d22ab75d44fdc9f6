"""A fake upstream for trying Claude Code through `sse-rewrite serve`, leaking Kimi tokens.

Claude Code offers a dozen tools and makes side calls (a title, a quota probe). This
fake answers the main conversation like Kimi K2 on OpenRouter (`leaky_upstream`'s
stream: one token per chunk, `role` on every delta, a usage chunk): a request that offers
a tool named `Bash` gets one leaked Bash call running the text after the last `$ ` of the
user's prompt (or `ls`); once the tool result comes back, a final text quoting it. Any
request without a Bash tool gets a short plain text. Loopback only; it exits by itself.

    python examples/claude_code_upstream.py --port 9998 &
    sse-rewrite serve --upstream http://127.0.0.1:9998/v1 --port 8787 &
    ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ANTHROPIC_API_KEY=x \\
        claude -p 'Run $ echo hello from bash' --allowedTools Bash
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parent))
import leaky_upstream  # beside this file

TOOL: str = "Bash"


def reply_text(body: dict[str, Any]) -> str:
    """What the model says to `body`: a leaked Bash call, a final answer, or a plain text."""
    messages = body.get("messages") or [{}]
    bash = [t for t in body.get("tools") or [] if t.get("function", {}).get("name") == TOOL]
    if messages[-1].get("role") == "tool":
        return leaky_upstream.answer(body)  # quotes the result
    if not bash:
        return "Bash session"  # titles, probes and the like
    return leaky_upstream.answer({**body, "tools": bash})


async def chat_completions(request: web.Request) -> web.StreamResponse:
    """Answer one chat request, streamed or whole."""
    body = await request.json()
    messages = body.get("messages") or [{}]
    tool_ids = [m.get("tool_call_id") for m in messages if "tool_call_id" in m]
    log = {"model": body.get("model"), "tools": len(body.get("tools") or []),
           "last": messages[-1].get("role"), "stream": body.get("stream"), "tool_ids": tool_ids}
    print("upstream got", json.dumps(log), flush=True)
    model, text = body.get("model") or leaky_upstream.MODEL, reply_text(body)
    if not body.get("stream"):
        message = {"role": "assistant", "content": text}
        return web.json_response({"id": "gen-whole", "object": "chat.completion", "created": 1763900000,
                                  "model": model,
                                  "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    for event in leaky_upstream.stream_events(f"gen-{id(body)}", model, text):
        await response.write(event)
    await response.write_eof()
    return response


async def _main(port: int, lifetime: float) -> None:
    app = web.Application()
    app.router.add_post("/v1/chat/completions", chat_completions)
    app.router.add_get("/v1/models", leaky_upstream.models)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    bound = runner.addresses[0][1]
    print(f"Claude Code fake upstream on http://127.0.0.1:{bound}/v1 for {lifetime:g}s", flush=True)
    await asyncio.sleep(lifetime)
    await runner.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--port", type=int, default=9998)
    parser.add_argument("--lifetime", type=float, default=600.0, help="seconds before it exits")
    arguments = parser.parse_args()
    asyncio.run(_main(arguments.port, arguments.lifetime))
