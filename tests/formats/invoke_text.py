"""Text of the invoke/parameter syntaxes, built for tests: DSML blocks, MiniMax M2 and M3."""

from __future__ import annotations

BAR = "｜DSML｜"
NS = "]<]minimax[>["


def dsml(*invokes: str, mark: str = BAR, block: str = "tool_calls") -> str:
    """A DSML block of `invokes` (made by `invoke`) spelled with `mark`."""
    return f"<{mark}{block}>\n" + "\n".join(invokes) + f"\n</{mark}{block}>"


def invoke(name: str, *params: tuple[str, str, str | None], mark: str = BAR) -> str:
    """One invoke: `(key, value, string attribute or None)` parameters."""
    attributes = ["" if typed is None else f' string="{typed}"' for _, _, typed in params]
    body = "".join(
        f'<{mark}parameter name="{key}"{attribute}>{value}</{mark}parameter>\n'
        for (key, value, _), attribute in zip(params, attributes, strict=True)
    )
    return f'<{mark}invoke name="{name}">\n{body}</{mark}invoke>'


def m2(*invokes: str) -> str:
    return "<minimax:tool_call>\n" + "\n".join(invokes) + "\n</minimax:tool_call>"


def m2_invoke(name: str, **params: str) -> str:
    body = "".join(f'<parameter name="{k}">{v}</parameter>\n' for k, v in params.items())
    return f'<invoke name="{name}">\n{body}</invoke>'


def m3(name: str, **params: str) -> str:
    body = "".join(f"{NS}<{k}>{v}{NS}</{k}>" for k, v in params.items())
    return f'{NS}<tool_call>\n{NS}<invoke name="{name}">{body}{NS}</invoke>\n{NS}</tool_call>'
