"""A Responses API request as a chat.completions request (pure: dict in, dict out).

`translate_request` builds a new request, so what it does not name never reaches the
upstream; fields it does not know get one notice, never an error. The rules:

- `instructions` becomes the leading system message; `input` becomes messages by the
  rules of `input_items`, after the stored conversation of `previous_response_id`
  (the caller's `previous`; instructions are not inherited, as at OpenAI). System
  messages before the first other message are joined into one (chat templates such as
  Qwen's take a system message only at the start).
- `tools`: `function` tools become chat.completions functions; `custom` (freeform)
  tools such as Codex's `apply_patch` become a function with one string parameter,
  `input`, their grammar quoted in its description, and their calls come back as
  `custom_tool_call` items (`ResponseContext.custom_tools`); other tools (`web_search`,
  `local_shell`, hosted tools) have no chat.completions form: dropped, with a notice.
- `tool_choice` auto/none/required as it is, a named function or custom tool as the
  named function; `parallel_tool_calls` copied; both only if tools remain.
- `max_output_tokens` becomes `max_tokens`; `temperature`, `top_p`, `user` and
  `prompt_cache_key` are copied; `reasoning.effort` becomes `reasoning_effort`
  (`minimal` as `low`, `xhigh` as `high`, `none` not sent); `text.format` json_schema
  becomes `response_format` (json_object too).
- `stream: true` is kept and asks for `stream_options.include_usage`.
- The model is chosen by `models.upstream_model` (`--model`, `--model-map`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...stream.events import Notice
from ..anthropic.models import ModelChoice, upstream_model
from ..fields import RequestError, requested_model
from .input_items import input_messages

# typing is imported for type checkers only, as in the core (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

__all__ = ["RequestError", "Translation", "translate_request"]

_COPIED: Final = ("temperature", "top_p", "user", "prompt_cache_key")
_ECHOED: Final = ("model", "instructions", "max_output_tokens", "parallel_tool_calls", "previous_response_id",
                  "reasoning", "temperature", "text", "tool_choice", "tools", "top_p", "user", "metadata")
_KNOWN: Final = {*_COPIED, *_ECHOED, "input", "stream", "store"}
_EFFORTS: Final = {"minimal": "low", "low": "low", "medium": "medium", "high": "high", "xhigh": "high"}
_CHOICES: Final = frozenset({"auto", "none", "required"})


@dataclass(frozen=True, slots=True)
class Translation:
    """A translated request: the chat.completions body, the conversation it holds (without
    the instructions: what a stored response keeps), the custom tools by name, the
    request fields the response repeats, and notices."""

    request: dict[str, Any]
    conversation: list[dict[str, Any]]
    custom_tools: frozenset[str]
    echo: dict[str, Any]
    notices: list[Notice]


def translate_request(body: Any, previous: list[dict[str, Any]] | None = None,
                      choice: ModelChoice | None = None) -> Translation:
    """The chat.completions request for a Responses request body (after `previous` messages)."""
    model = requested_model(body)
    notes: list[Notice] = []
    conversation = [*(previous or []), *input_messages(body.get("input", []), notes)]
    instructions = body.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        raise RequestError("instructions: expected a string")
    leading = [{"role": "system", "content": instructions}] if instructions else []
    out: dict[str, Any] = {"model": upstream_model(model, choice or ModelChoice()),
                           "messages": _joined_system(leading + conversation)}
    out.update({name: body[name] for name in _COPIED if body.get(name) is not None})
    if isinstance(limit := body.get("max_output_tokens"), int):
        out["max_tokens"] = limit
    reasoning = body.get("reasoning")
    effort = reasoning.get("effort") if isinstance(reasoning, dict) else None
    if isinstance(effort, str) and effort in _EFFORTS:
        out["reasoning_effort"] = _EFFORTS[effort]
    out.update(_response_format(body.get("text"), notes))
    tools, custom = _tools(body.get("tools"), notes)
    if tools:
        out["tools"] = tools
        out.update(_tool_choice(body.get("tool_choice"), notes))
        if isinstance(parallel := body.get("parallel_tool_calls"), bool):
            out["parallel_tool_calls"] = parallel
    if body.get("stream") is True:
        out["stream"] = True
        out["stream_options"] = {"include_usage": True}
    if unknown := sorted(set(body) - _KNOWN):
        notes.append(Notice("request-fields-dropped", f"no chat.completions form, not sent: {unknown}"))
    echo = {name: body[name] for name in _ECHOED if body.get(name) is not None}
    return Translation(out, conversation, frozenset(custom), echo, notes)


def _joined_system(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The system messages before any other joined into one (text only)."""
    lead = 0
    while lead < len(messages) and messages[lead]["role"] == "system":
        lead += 1
    if lead < 2:
        return messages
    text = "\n\n".join(str(m["content"]) for m in messages[:lead] if m["content"])
    return [{"role": "system", "content": text}, *messages[lead:]]


def _tools(tools: Any, notes: list[Notice]) -> tuple[list[dict[str, Any]], list[str]]:
    if not isinstance(tools, list | None):
        raise RequestError("tools: expected a list of tools")
    out: list[dict[str, Any]] = []
    custom: list[str] = []
    for i, tool in enumerate(tools or []):
        if not isinstance(tool, dict):
            raise RequestError(f"tools.{i}: expected an object")
        kind, name = tool.get("type"), tool.get("name")
        if kind not in ("function", "custom") or not isinstance(name, str) or not name:
            note = f"tools.{i} ({kind!s} {name!r}) has no chat.completions form: not sent"
            notes.append(Notice("hosted-tool-dropped", note))
            continue
        description = tool["description"] if isinstance(tool.get("description"), str) else ""
        if kind == "function":
            parameters = tool.get("parameters")
            parameters = parameters if isinstance(parameters, dict) else {"type": "object", "properties": {}}
        else:
            custom.append(name)
            description, parameters = custom_function(description, tool.get("format"))
        function: dict[str, Any] = {"name": name, "parameters": parameters}
        if description:
            function["description"] = description
        out.append({"type": "function", "function": function})
    return out, custom


def custom_function(description: str, text_format: Any) -> tuple[str, dict[str, Any]]:
    """The description and parameters of the function that stands for a custom tool."""
    about = "The tool's whole input, as raw text (not JSON)"
    if isinstance(text_format, dict) and text_format.get("type") == "grammar":
        syntax, definition = text_format.get("syntax"), text_format.get("definition")
        about += f", in this {syntax} grammar:\n{definition}"
    parameters = {"type": "object", "properties": {"input": {"type": "string", "description": about}},
                  "required": ["input"]}
    note = "Through this proxy the tool is a function: call it with one argument, `input`, the raw text."
    return (description + "\n\n" if description else "") + note, parameters


def _tool_choice(choice: Any, notes: list[Notice]) -> dict[str, Any]:
    if choice is None:
        return {}
    if isinstance(choice, str) and choice in _CHOICES:
        return {"tool_choice": choice}
    if isinstance(choice, dict) and choice.get("type") in ("function", "custom") and isinstance(
            name := choice.get("name"), str):
        return {"tool_choice": {"type": "function", "function": {"name": name}}}
    notes.append(Notice("tool-choice-dropped", f"tool_choice {choice!r} has no chat.completions form: auto"))
    return {}


def _response_format(text: Any, notes: list[Notice]) -> dict[str, Any]:
    if not isinstance(text, dict):
        return {}
    if other := sorted(set(text) - {"format"}):
        notes.append(Notice("request-fields-dropped", f"no chat.completions form, not sent: text {other}"))
    fmt = text.get("format")
    if not isinstance(fmt, dict) or fmt.get("type") in (None, "text"):
        return {}
    if fmt.get("type") == "json_object":
        return {"response_format": {"type": "json_object"}}
    if fmt.get("type") == "json_schema":
        schema = {key: fmt[key] for key in ("name", "schema", "strict", "description") if key in fmt}
        return {"response_format": {"type": "json_schema", "json_schema": schema}}
    note = f"text.format {fmt.get('type')!r} has no chat.completions form, not sent"
    notes.append(Notice("request-fields-dropped", note))
    return {}
