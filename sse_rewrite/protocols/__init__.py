"""Client protocols: one package each, owning both directions of that protocol.

`openai/` (chat.completions, what upstreams speak) and `anthropic/` (Messages). Each holds
how a repaired chat.completions stream or body becomes that protocol's events or body
(`output.py`, used by `--to` and by `serve`) and, for `serve`, its front (`front.py`) with
how a request in that protocol becomes a chat.completions request.
"""
