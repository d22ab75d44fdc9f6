"""A Gemini `generateContent` request as a chat.completions request (pure: dict in, dict out).

`translate_request` builds a new request, so what it does not name never reaches the
upstream; a field it cannot carry gets one notice, never an error. The rules:

- Field names may be lowerCamelCase or snake_case (`proto_json.py`).
- The model comes from the path (`models/NAME:generateContent`), chosen by
  `models.upstream_model` (`--model`, `--model-map`); `stream` from the method.
- `systemInstruction` becomes the leading system message, `contents` the messages
  (`contents.py`).
- `tools[].functionDeclarations` become functions: `parametersJsonSchema` as it is,
  else `parameters` in Gemini's OpenAPI subset made JSON Schema (`schema.py`); hosted
  tools (`googleSearch`, `codeExecution`, `urlContext`, …) have no chat.completions
  form: left out with a notice.
- `toolConfig.functionCallingConfig`: `AUTO` (and `VALIDATED`) is `auto`, `NONE` is
  `none`, `ANY` is `required`, or the one function when `allowedFunctionNames` names one;
  with several, only those functions are sent.
- `generationConfig`: `temperature`, `topP`, `topK`, `maxOutputTokens`, `stopSequences`,
  `presencePenalty`, `frequencyPenalty` and `seed` as their chat.completions names;
  `candidateCount` 1 (more: a notice, one candidate); `responseMimeType:
  application/json` with `responseJsonSchema` or `responseSchema` is a `json_schema`
  `response_format` (without one, `json_object`); `thinkingConfig.thinkingLevel` (or a
  `thinkingBudget`: up to 1024 tokens low, up to 8192 medium, more high) becomes
  `reasoning_effort`.
- Google-only fields (`safetySettings`, `cachedContent`, `labels`, …) are left out with
  a notice.
"""

from __future__ import annotations

from ...stream.events import Notice
from ..anthropic.models import ModelChoice, upstream_model
from ..fields import RequestError
from .contents import content_messages, system_text
from .proto_json import camel_keys
from .schema import json_schema

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

__all__ = ["RequestError", "translate_request"]

_KNOWN: Final = frozenset({"contents", "systemInstruction", "tools", "toolConfig", "generationConfig",
                           "model"})
_COPIED: Final = {"temperature": "temperature", "topP": "top_p", "topK": "top_k",
                  "maxOutputTokens": "max_tokens", "presencePenalty": "presence_penalty",
                  "frequencyPenalty": "frequency_penalty", "seed": "seed"}
_CONFIG_KNOWN: Final = frozenset({*_COPIED, "stopSequences", "candidateCount", "responseMimeType",
                                  "responseJsonSchema", "responseSchema", "thinkingConfig"})
_LEVELS: Final = {"MINIMAL": "low", "LOW": "low", "MEDIUM": "medium", "HIGH": "high"}
_MODES: Final = {"AUTO": "auto", "VALIDATED": "auto", "NONE": "none", "ANY": "required"}


def translate_request(body: Any, model: str, *, stream: bool,
                      choice: ModelChoice | None = None) -> tuple[dict[str, Any], list[Notice]]:
    """The chat.completions request for a Gemini request body to `model` (from its path)."""
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    body = camel_keys(body)
    notes: list[Notice] = []
    system = system_text(body.get("systemInstruction"))
    messages = [{"role": "system", "content": system}] if system else []
    messages += content_messages(body.get("contents", []), notes)
    out: dict[str, Any] = {"model": upstream_model(model, choice or ModelChoice()), "messages": messages}
    out.update(_generation(body.get("generationConfig"), notes))
    tools = _tools(body.get("tools"), notes)
    if tools:
        out.update(_tool_config(body.get("toolConfig"), tools, notes))
    if stream:
        out["stream"] = True
        out["stream_options"] = {"include_usage": True}
    if unknown := sorted(set(body) - _KNOWN):
        notes.append(Notice("request-fields-dropped", f"no chat.completions form, not sent: {unknown}"))
    return out, notes


def _tools(tools: Any, notes: list[Notice]) -> list[dict[str, Any]]:
    if not isinstance(tools, list | None):
        raise RequestError("tools: expected a list of Tool objects")
    out: list[dict[str, Any]] = []
    for i, tool in enumerate(tools or []):
        if not isinstance(tool, dict):
            raise RequestError(f"tools.{i}: expected a Tool object")
        if hosted := sorted(set(tool) - {"functionDeclarations"}):
            notes.append(Notice("hosted-tool-dropped", f"tools.{i} {hosted}: Google's hosted tools have no "
                                "chat.completions form: not sent"))
        declarations = tool.get("functionDeclarations") or []
        if not isinstance(declarations, list):
            raise RequestError(f"tools.{i}.functionDeclarations: expected a list")
        for j, declaration in enumerate(declarations):
            name = declaration.get("name") if isinstance(declaration, dict) else None
            if not isinstance(name, str) or not name:
                raise RequestError(f"tools.{i}.functionDeclarations.{j}.name: expected a function name")
            out.append({"type": "function", "function": _function(declaration)})
    return out


def _function(declaration: dict[str, Any]) -> dict[str, Any]:
    schema = declaration.get("parametersJsonSchema")
    if not isinstance(schema, dict):
        schema = declaration.get("parameters")
    parameters = json_schema(schema) if isinstance(schema, dict) else {"type": "object", "properties": {}}
    function: dict[str, Any] = {"name": declaration["name"], "parameters": parameters}
    if isinstance(description := declaration.get("description"), str) and description:
        function["description"] = description
    return function


def _tool_config(config: Any, tools: list[dict[str, Any]], notes: list[Notice]) -> dict[str, Any]:
    calling = config.get("functionCallingConfig") if isinstance(config, dict) else None
    out: dict[str, Any] = {"tools": tools}
    if not isinstance(calling, dict):
        return out
    mode = calling.get("mode", "AUTO")
    if mode not in _MODES:
        notes.append(Notice("tool-choice-dropped", f"functionCallingConfig.mode {mode!r} is unknown: auto"))
        return out
    out["tool_choice"] = _MODES[mode]
    allowed = calling.get("allowedFunctionNames")
    if mode == "ANY" and isinstance(allowed, list) and allowed:
        kept = [tool for tool in tools if tool["function"]["name"] in allowed]
        if len(allowed) == 1 and kept:
            out["tool_choice"] = {"type": "function", "function": {"name": kept[0]["function"]["name"]}}
        elif kept:
            out["tools"] = kept
    return out


def _generation(config: Any, notes: list[Notice]) -> dict[str, Any]:
    if config is None:
        return {}
    if not isinstance(config, dict):
        raise RequestError("generationConfig: expected an object")
    out = {name: config[key] for key, name in _COPIED.items() if config.get(key) is not None}
    stop = config.get("stopSequences")
    if isinstance(stop, list) and stop:
        out["stop"] = stop
    count = config.get("candidateCount")
    if isinstance(count, int) and count > 1:
        note = f"candidateCount {count}: this proxy answers one candidate"
        notes.append(Notice("candidates-dropped", note))
    out.update(_response_format(config, notes))
    if effort := _effort(config.get("thinkingConfig")):
        out["reasoning_effort"] = effort
    if unknown := sorted(set(config) - _CONFIG_KNOWN):
        notes.append(Notice("request-fields-dropped", f"no chat.completions form, not sent: "
                            f"generationConfig {unknown}"))
    return out


def _response_format(config: dict[str, Any], notes: list[Notice]) -> dict[str, Any]:
    mime = config.get("responseMimeType")
    schema = config.get("responseJsonSchema")
    if not isinstance(schema, dict):
        schema = config.get("responseSchema")
    if mime in (None, "text/plain"):
        return {}
    if mime != "application/json":
        notes.append(Notice("request-fields-dropped", f"responseMimeType {mime!r} has no chat.completions "
                            "form: not sent"))
        return {}
    if not isinstance(schema, dict):
        return {"response_format": {"type": "json_object"}}
    return {"response_format": {"type": "json_schema",
                                "json_schema": {"name": "response", "schema": json_schema(schema)}}}


def _effort(thinking: Any) -> str | None:
    if not isinstance(thinking, dict):
        return None
    level = thinking.get("thinkingLevel")
    if isinstance(level, str) and level.upper() in _LEVELS:
        return _LEVELS[level.upper()]
    budget = thinking.get("thinkingBudget")
    if not isinstance(budget, int) or isinstance(budget, bool) or budget <= 0:
        return None  # 0 turns thinking off, -1 leaves it to the model: the provider's default
    return "low" if budget <= 1024 else "medium" if budget <= 8192 else "high"
