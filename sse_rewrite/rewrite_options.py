"""RewriteOptions: how a stream is rewritten (`options.py` makes them command-line options)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .formats import DEFAULT_MAX_SECTION_BYTES

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from .tool_schemas import ToolSchemas


@dataclass(frozen=True, slots=True)
class RewriteOptions:
    """How to rewrite: `format` (a `--format` name), id style, section cap, output protocol,
    which accelerators run (`fast/`; off, the general path alone gives the same output),
    whether call arguments stream as they arrive, `<think>` handling (`think.py`), and the
    request's tools (`tool_schemas.py`: they type raw values and name calls; None: unknown)."""

    format: str = "auto"
    id_style: Literal["native", "openai"] = "native"
    max_section_bytes: int = DEFAULT_MAX_SECTION_BYTES
    to: str = "openai"
    """The client protocol of the output (`protocols.PROTOCOLS`)."""
    plain_runs: bool = True
    token_runs: bool = True
    stream_arguments: bool = False
    think: Literal["auto", "on", "off"] = "auto"
    prompt_think: bool = True
    """False when the request turned thinking off: no model id's prompt is taken to open a think
    block (`think.think_mode`), so its answer stays in `content`."""
    tools: ToolSchemas | None = field(default=None, compare=False)
