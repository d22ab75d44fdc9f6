"""Special-token frames around calls: Step-3, Solar Open and PLaMo 3, on the section machine.

    Step-3:     <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>
                <steptml:invoke name="NAME"><steptml:parameter name="K">V</steptml:parameter></steptml:invoke>
                <｜tool_call_end｜><｜tool_calls_end｜>
    Solar Open: <|tool_calls|><|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{json}
                <|tool_call:end|><|calls|>
    Solar Open 2: <|tool_call:start|>NAME\n<|tool_arg:start|>K<|tool_arg:value|>V<|tool_arg:end|>…
                <|tool_call:end|>
    PLaMo 3:    <|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|>
                <|plamo:begin_tool_name:plamo|>NAME<|plamo:end_tool_name:plamo|>
                <|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{json}
                <|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>

Step-3 is DeepSeek V3's frame spelled with ASCII `_`; its call type `function` is followed by one
invoke of the invoke/parameter grammar behind `steptml:` (`STEPTML`), whose values are raw text
typed by the tool's schema (a string keeps its spacing, as vLLM's current parser keeps it; 0.33.0
stripped it). vLLM's own tests also write the invoke right after `<｜tool_call_begin｜>` (its
`<steptml:invoke` is a body's opening token) and a name line after `<｜tool_sep｜>`: both are read.
Solar Open's header is the call id, then the name behind a frame token; PLaMo 3's name sits
between frame tokens (`Token.FRAME`). Every marker is a special token (PLaMo's several tokens,
as vLLM matches them): read in every stream.
"""

from __future__ import annotations

from ..machines._invoke_syntax import InvokeSyntax, Spelling, read_lone_invoke
from ..machines._scanner import MarkerTable
from ..machines._section_syntax import SectionSyntax, Token
from ..machines.raw_values import tool_parameters
from ..machines.tool_call_bodies import typed_object
from .deepseek import deepseek_call_parts

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ...tool_schemas import ToolSchemas

STEPTML: Final = InvokeSyntax("steptml", (), (), (Spelling("<steptml:", "</steptml:"),))
"""Step-3's call body: `<steptml:invoke name=…>` with `<steptml:parameter name=…>` values."""
_STEPTML_INVOKE: Final = STEPTML.invoke_openers()[0]
_CALL_TYPE: Final = "function"

_STEP3_MARKERS: Final[MarkerTable[Token]] = MarkerTable({
    "<｜tool_calls_begin｜>".encode(): Token.SECTION_BEGIN,
    "<｜tool_calls_end｜>".encode(): Token.SECTION_END,
    "<｜tool_call_begin｜>".encode(): Token.CALL_BEGIN,
    "<｜tool_sep｜>".encode(): Token.ARGUMENT_BEGIN,
    "<｜tool_call_end｜>".encode(): Token.CALL_END,
    _STEPTML_INVOKE.encode(): Token.BODY_BEGIN,
})  # fmt: skip


def step3_call_parts(
    header: str, arguments: str, tools: ToolSchemas | None = None
) -> tuple[str | None, str, str]:
    """A Step-3 call: `function` (or nothing) then one steptml invoke, which a name line may
    precede; its raw text if it does not read. Another body is read as DeepSeek reads its calls."""
    body = arguments.strip()
    if header in ("", _CALL_TYPE) and not body.startswith(_STEPTML_INVOKE):
        line, _, rest = body.partition("\n")
        body = rest.lstrip() if line and rest.lstrip().startswith(_STEPTML_INVOKE) else body
    if header not in ("", _CALL_TYPE) or not body.startswith(_STEPTML_INVOKE):
        return deepseek_call_parts(header, arguments)
    read = read_lone_invoke(STEPTML, body, tools)
    return (None, header or _CALL_TYPE, body) if read is None else (None, read[0], read[1])


def step3_names_the_call(header: str) -> bool:
    """The name is in the body after `function` or no header at all: such a call comes out whole."""
    return header not in ("", _CALL_TYPE)


STEP3: Final = SectionSyntax("step3", _STEP3_MARKERS, step3_call_parts, step3_names_the_call)
"""Step-3 (`stepfun-ai/step3`): its name is in the body, so a call comes out whole."""

_SOLAR_NAME: Final = "<|tool_call:name|>"
_SOLAR_MARKERS: Final[MarkerTable[Token]] = MarkerTable({
    b"<|tool_calls|>": Token.SECTION_BEGIN,
    b"<|calls|>": Token.SECTION_END,
    b"<|tool_call:begin|>": Token.CALL_BEGIN,
    _SOLAR_NAME.encode(): Token.FRAME,
    b"<|tool_call:args|>": Token.ARGUMENT_BEGIN,
    b"<|tool_call:end|>": Token.CALL_END,
})  # fmt: skip


def solar_call_parts(header: str, arguments: str, tools: object = None) -> tuple[str | None, str, str]:
    """A Solar Open call: `ID<|tool_call:name|>NAME` (the id is the call's), JSON arguments."""
    call_id, marked, name = header.partition(_SOLAR_NAME)
    if not marked:
        call_id, name = "", call_id
    return call_id.strip() or None, name.strip(), arguments.strip() or "{}"


SOLAR_OPEN: Final = SectionSyntax("solar-open", _SOLAR_MARKERS, solar_call_parts)
"""Solar Open 100B (`upstage/Solar-Open-100B`)."""


_SOLAR2_VALUE: Final = ("<|tool_arg:value|>", "<|tool_arg:end|>")
_SOLAR2_MARKERS: Final[MarkerTable[Token]] = MarkerTable({
    b"<|tool_call:start|>": Token.CALL_BEGIN,
    b"<|tool_arg:start|>": Token.ARGUMENT_BEGIN,
    b"<|tool_call:end|>": Token.CALL_END,
})  # fmt: skip


def solar2_call_parts(
    header: str, arguments: str, tools: ToolSchemas | None = None
) -> tuple[str | None, str, str]:
    """A Solar Open 2 call: the name line, then `K<|tool_arg:value|>V<|tool_arg:end|>` pairs
    (`<|tool_arg:start|>` between them), each value raw text typed by the tool's schema."""
    name = header.strip()
    if not arguments.strip():  # (a call without arguments)
        return None, name, "{}"
    pairs = []
    for pair in arguments.split("<|tool_arg:start|>"):
        key, marked, value = pair.partition(_SOLAR2_VALUE[0])
        if not marked:
            return None, name, arguments  # (not pairs: the raw text, a notice says so)
        pairs.append((key.strip(), value.partition(_SOLAR2_VALUE[1])[0]))
    return None, name, typed_object(pairs, tool_parameters(tools, name))


def typed_whole(header: str) -> bool:
    """The arguments are key/value pairs made JSON at the call's end: it comes out whole."""
    return False


SOLAR_OPEN_2: Final = SectionSyntax("solar-open-2", _SOLAR2_MARKERS, solar2_call_parts, typed_whole)
"""Solar Open 2: one `<|tool_arg:start|>` per argument, the first ending the name line."""


def _plamo(word: str) -> bytes:
    return f"<|plamo:{word}:plamo|>".encode()


_PLAMO_NAME: Final = (_plamo("begin_tool_name").decode(), _plamo("end_tool_name").decode())
_PLAMO_MARKERS: Final[MarkerTable[Token]] = MarkerTable({
    _plamo("begin_tool_requests"): Token.SECTION_BEGIN,
    _plamo("end_tool_requests"): Token.SECTION_END,
    b"<|plamo:tag|>": Token.SECTION_END,  # (the end of turn: ends a section that lost its closer, or orphan)
    _plamo("begin_tool_request"): Token.CALL_BEGIN,
    _plamo("begin_tool_name"): Token.FRAME,
    _plamo("end_tool_name"): Token.FRAME,
    _plamo("begin_tool_arguments"): Token.FRAME,
    b"<|plamo:constrain|>": Token.FRAME,
    b"<|plamo:msg|>": Token.ARGUMENT_BEGIN,
    _plamo("end_tool_arguments"): Token.CALL_END,
    _plamo("end_tool_request"): Token.FRAME,
})  # fmt: skip


def plamo_call_parts(header: str, arguments: str, tools: object = None) -> tuple[str | None, str, str]:
    """A PLaMo 3 call: the name between its frame tokens, JSON arguments (`{}` if empty)."""
    name = header.partition(_PLAMO_NAME[0])[2].partition(_PLAMO_NAME[1])[0] or header
    return None, name.strip(), arguments.strip() or "{}"


PLAMO3: Final = SectionSyntax("plamo3", _PLAMO_MARKERS, plamo_call_parts)
"""PLaMo 3 (`pfnet/plamo-3-nict-2b-base`)."""
