"""Responses API request -> chat.completions request: one table row per rule."""

from __future__ import annotations

from typing import Any

import pytest

from sse_rewrite.protocols.anthropic.models import ModelChoice
from sse_rewrite.protocols.responses.request import RequestError, translate_request

HI = {"role": "user", "content": "hi"}
SCHEMA = {"type": "object", "properties": {"cmd": {"type": "string"}}}
SHELL = {"type": "function", "name": "shell", "description": "Run", "parameters": SCHEMA, "strict": False}
SHELL_FUNCTION = {"type": "function",
                  "function": {"name": "shell", "parameters": SCHEMA, "description": "Run"}}
CALL = {"type": "function_call", "id": "fc_1", "call_id": "functions.shell:0", "name": "shell",
        "arguments": '{"cmd":"ls"}'}
NATIVE_CALL = {"id": "functions.shell:0", "type": "function",
               "function": {"name": "shell", "arguments": '{"cmd":"ls"}'}}
PATCH_TOOL = {"type": "custom", "name": "apply_patch", "description": "Edit files",
              "format": {"type": "grammar", "syntax": "lark", "definition": "start: x"}}
IMAGE = "data:image/png;base64,iVBORw0KGgo="


def sent(**body: Any) -> dict[str, Any]:
    """The chat.completions request for a Responses body (model `m`, input HI unless given)."""
    return translate_request({"model": "m", "input": [HI], **body}).request


def messages(*items: Any, **body: Any) -> list[dict[str, Any]]:
    """The upstream messages for these input items."""
    return sent(input=list(items), **body)["messages"]  # type: ignore[no-any-return]


def message(role: str, *parts: dict[str, Any]) -> dict[str, Any]:
    """An input message item with content parts."""
    return {"type": "message", "role": role, "content": list(parts)}


def said(value: str, kind: str = "input_text") -> dict[str, Any]:
    """A text part (`input_text`, `output_text`)."""
    return {"type": kind, "text": value}


def output(content: Any, call_id: str = "functions.shell:0", kind: str = "function_call_output") -> Any:
    """A call's output item."""
    return {"type": kind, "call_id": call_id, "output": content}


def system(content: str) -> dict[str, Any]:
    """A system message."""
    return {"role": "system", "content": content}


def fields(request: dict[str, Any], *names: str) -> dict[str, Any]:
    """`names` of `request`."""
    return {name: request[name] for name in names}


def input_schema_text(tool: dict[str, Any]) -> str:
    """The description of a translated custom tool's one parameter."""
    function = sent(tools=[tool])["tools"][0]["function"]
    return str(function["parameters"]["properties"]["input"]["description"])


ASSISTANT_CALL = {"role": "assistant", "content": None, "tool_calls": [NATIVE_CALL]}
PATCH_CALL = {"type": "custom_tool_call", "call_id": "c1", "name": "apply_patch", "input": "*** Begin"}
PATCH_FUNCTION = {"name": "apply_patch", "arguments": '{"input":"*** Begin"}'}
JSON_FORMAT = {"type": "json_schema", "name": "r", "schema": SCHEMA, "strict": True}
CASES: list[tuple[str, Any, Any]] = [
    ("instructions lead as the system message", sent(instructions="Be brief.")["messages"],
     [system("Be brief."), HI]),
    ("input as a string is one user message", sent(input="hello")["messages"],
     [{"role": "user", "content": "hello"}]),
    ("developer and system messages at the start join the instructions",
     messages(message("developer", said("d1")), system("s2"), HI, instructions="i0"),
     [system("i0\n\nd1\n\ns2"), HI]),
    ("a developer message later stays where it is", messages(HI, message("developer", said("late"))),
     [HI, system("late")]),
    ("input_text parts join with a newline", messages(message("user", said("a"), said("b"))),
     [{"role": "user", "content": "a\nb"}]),
    ("an input_image becomes an image_url part",
     messages(message("user", said("see"), {"type": "input_image", "image_url": IMAGE, "detail": "low"})),
     [{"role": "user", "content": [{"type": "text", "text": "see"},
                                   {"type": "image_url", "image_url": {"url": IMAGE, "detail": "low"}}]}]),
    ("an assistant output_text message is the assistant's text",
     messages(HI, message("assistant", said("ok", "output_text"))),
     [HI, {"role": "assistant", "content": "ok"}]),
    ("a function_call joins the assistant message before it, with the model's own id",
     messages(HI, message("assistant", said("run", "output_text")), CALL),
     [HI, {"role": "assistant", "content": "run", "tool_calls": [NATIVE_CALL]}]),
    ("a function_call alone is an assistant message without content",
     messages(HI, CALL), [HI, ASSISTANT_CALL]),
    ("a function_call_output is a tool message", messages(HI, CALL, output("a.txt"))[-1],
     {"role": "tool", "tool_call_id": "functions.shell:0", "content": "a.txt"}),
    ("an output given as parts is joined into text",
     messages(HI, CALL, output([said("x"), said("y")]))[-1]["content"], "x\ny"),
    ("a custom_tool_call is a call whose arguments wrap the raw input", messages(HI, PATCH_CALL)[-1],
     {"role": "assistant", "content": None,
      "tool_calls": [{"id": "c1", "type": "function", "function": PATCH_FUNCTION}]}),
    ("a custom_tool_call_output is a tool message", messages(output("Done", "c1", "custom_tool_call_output")),
     [{"role": "tool", "tool_call_id": "c1", "content": "Done"}]),
    ("reasoning items are dropped, encrypted_content and all",
     messages(HI, {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA"}), [HI]),
    ("function tools become chat.completions functions", sent(tools=[SHELL])["tools"], [SHELL_FUNCTION]),
    ("a custom tool is a function with one string parameter, its grammar quoted",
     input_schema_text(PATCH_TOOL).endswith("lark grammar:\nstart: x"), True),
    ("hosted tools are dropped",
     sent(tools=[{"type": "web_search"}, {"type": "local_shell"}]).get("tools"), None),
    ("tool_choice required stays", sent(tools=[SHELL], tool_choice="required")["tool_choice"], "required"),
    ("a named function tool_choice names the function",
     sent(tools=[SHELL], tool_choice={"type": "function", "name": "shell"})["tool_choice"],
     {"type": "function", "function": {"name": "shell"}}),
    ("a named custom tool_choice names its function",
     sent(tools=[PATCH_TOOL], tool_choice={"type": "custom", "name": "apply_patch"})["tool_choice"],
     {"type": "function", "function": {"name": "apply_patch"}}),
    ("parallel_tool_calls is copied",
     sent(tools=[SHELL], parallel_tool_calls=False)["parallel_tool_calls"], False),
    ("tool_choice without tools is not sent", "tool_choice" in sent(tool_choice="required"), False),
    ("max_output_tokens becomes max_tokens", sent(max_output_tokens=99)["max_tokens"], 99),
    ("temperature and top_p are copied", fields(sent(temperature=0.2, top_p=0.9), "temperature", "top_p"),
     {"temperature": 0.2, "top_p": 0.9}),
    ("reasoning.effort becomes reasoning_effort",
     sent(reasoning={"effort": "high"})["reasoning_effort"], "high"),
    ("minimal effort is low",
     sent(reasoning={"effort": "minimal", "summary": "auto"})["reasoning_effort"], "low"),
    ("effort none is not sent", "reasoning_effort" in sent(reasoning={"effort": "none"}), False),
    ("text.format json_schema becomes response_format", sent(text={"format": JSON_FORMAT})["response_format"],
     {"type": "json_schema", "json_schema": {"name": "r", "schema": SCHEMA, "strict": True}}),
    ("user and prompt_cache_key are copied",
     fields(sent(user="u", prompt_cache_key="p"), "user", "prompt_cache_key"),
     {"user": "u", "prompt_cache_key": "p"}),
    ("stream asks for usage", fields(sent(stream=True), "stream", "stream_options"),
     {"stream": True, "stream_options": {"include_usage": True}}),
    ("fields without a chat.completions form are not sent",
     set(sent(include=["x"], store=False, metadata={"a": "b"}, truncation="auto")), {"model", "messages"}),
]


@pytest.mark.parametrize(("rule", "got", "expected"), CASES, ids=[case[0] for case in CASES])
def test_translation_rule(rule: str, got: Any, expected: Any) -> None:
    assert got == expected


def test_previous_conversation_comes_first_and_instructions_are_not_inherited() -> None:
    earlier = [HI, ASSISTANT_CALL]
    translation = translate_request({"model": "m", "instructions": "new", "input": [output("ok")]}, earlier)
    tool = {"role": "tool", "tool_call_id": "functions.shell:0", "content": "ok"}
    assert translation.request["messages"] == [{"role": "system", "content": "new"}, *earlier, tool]
    assert translation.conversation == [*earlier, tool]


def test_notices_name_what_was_left_out() -> None:
    body = {"model": "m", "input": [HI, {"type": "item_reference", "id": "x"}],
            "tools": [{"type": "web_search"}, PATCH_TOOL], "include": ["reasoning.encrypted_content"]}
    translation = translate_request(body)
    codes = [notice.code for notice in translation.notices]
    assert codes == ["item-dropped", "hosted-tool-dropped", "request-fields-dropped"]
    assert translation.custom_tools == {"apply_patch"}
    assert translation.echo["tools"] == body["tools"]


def test_the_model_is_chosen_as_for_messages() -> None:
    translation = translate_request({"model": "gpt-5.5", "input": "x"}, None, ModelChoice(model="kimi"))
    assert translation.request["model"] == "kimi"


@pytest.mark.parametrize(("body", "message"), [
    ([], "must be a JSON object"),
    ({"input": "x"}, "model: expected"),
    ({"model": "m", "input": 3}, "input: expected a string or a list"),
    ({"model": "m", "input": [{"type": "message", "role": "tool", "content": "x"}]}, "input.0.role"),
    ({"model": "m", "input": [{"type": "function_call", "name": "f", "arguments": "{}"}]}, "input.0.call_id"),
    ({"model": "m", "input": "x", "tools": {}}, "tools: expected a list"),
    ({"model": "m", "input": "x", "instructions": 5}, "instructions: expected a string"),
])
def test_bad_requests_name_the_place(body: Any, message: str) -> None:
    with pytest.raises(RequestError, match=message):
        translate_request(body)
