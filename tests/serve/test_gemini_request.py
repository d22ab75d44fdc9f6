"""Gemini request -> chat.completions request: one table row per rule."""

from __future__ import annotations

from typing import Any

import pytest

from sse_rewrite.protocols.anthropic.models import ModelChoice
from sse_rewrite.protocols.gemini.request import RequestError, translate_request

HI = {"role": "user", "parts": [{"text": "hi"}]}
SCHEMA = {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}
SHELL = {"name": "shell", "description": "Run", "parametersJsonSchema": SCHEMA}
SHELL_FUNCTION = {
    "type": "function",
    "function": {"name": "shell", "parameters": SCHEMA, "description": "Run"},
}
CALL = {
    "functionCall": {"id": "functions.shell:0", "name": "shell", "args": {"command": "ls"}},
    "thoughtSignature": "skip_thought_signature_validator",
}
RESULT = {"functionResponse": {"id": "functions.shell:0", "name": "shell", "response": {"output": "a.txt\n"}}}
NATIVE_CALL = {
    "id": "functions.shell:0",
    "type": "function",
    "function": {"name": "shell", "arguments": '{"command":"ls"}'},
}


def sent(stream: bool = False, **body: Any) -> dict[str, Any]:
    """The chat.completions request for a Gemini body to model `m` (contents HI unless given)."""
    return translate_request({"contents": [HI], **body}, "m", stream=stream)[0]


def notices(**body: Any) -> list[str]:
    """The codes of the notices a body gets."""
    return [notice.code for notice in translate_request({"contents": [HI], **body}, "m", stream=False)[1]]


def turns(*contents: Any) -> list[dict[str, Any]]:
    """The upstream messages for these contents."""
    return sent(contents=list(contents))["messages"]  # type: ignore[no-any-return]


def model(*parts: Any) -> dict[str, Any]:
    return {"role": "model", "parts": list(parts)}


def user(*parts: Any) -> dict[str, Any]:
    return {"role": "user", "parts": list(parts)}


@pytest.mark.parametrize(
    ("contents", "expected"),
    [
        pytest.param([HI], [{"role": "user", "content": "hi"}], id="one-text-part"),
        pytest.param(
            [{"parts": [{"text": "no role"}]}],
            [{"role": "user", "content": "no role"}],
            id="role-defaults-user",
        ),
        pytest.param(
            [user({"text": "<ctx>"}, {"text": "Write it."})],
            [
                {
                    "role": "user",
                    "content": [{"type": "text", "text": "<ctx>"}, {"type": "text", "text": "Write it."}],
                }
            ],
            id="several-text-parts-stay-parts",
        ),
        pytest.param(
            [user({"inlineData": {"mimeType": "image/png", "data": "iVBO"}}, {"text": "what?"})],
            [
                {
                    "role": "user",
                    "content": [
                        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBO"}},
                        {"type": "text", "text": "what?"},
                    ],
                }
            ],
            id="inline-image",
        ),
        pytest.param(
            [user({"fileData": {"mimeType": "image/jpeg", "fileUri": "https://x.example/a.jpg"}})],
            [
                {
                    "role": "user",
                    "content": [{"type": "image_url", "image_url": {"url": "https://x.example/a.jpg"}}],
                }
            ],
            id="image-file",
        ),
        pytest.param(
            [HI, model({"text": "thinking", "thought": True}, {"text": "I will."}, CALL), user(RESULT)],
            [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "I will.", "tool_calls": [NATIVE_CALL]},
                {"role": "tool", "tool_call_id": "functions.shell:0", "content": "a.txt\n"},
            ],
            id="call-and-result-keep-their-id-thought-dropped",
        ),
        pytest.param(
            [
                HI,
                model({"functionCall": {"name": "shell", "args": {"command": "ls"}}}),
                user(
                    {"functionResponse": {"id": "shell_17_0", "name": "shell", "response": {"output": "x"}}}
                ),
            ],
            [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": None, "tool_calls": [NATIVE_CALL]},
                {"role": "tool", "tool_call_id": "functions.shell:0", "content": "x"},
            ],
            id="a-call-without-id-gets-one-and-its-result-by-name",
        ),
        pytest.param(
            [
                HI,
                model(CALL, {"functionCall": {"id": "b", "name": "read", "args": {}}}),
                user(
                    {"functionResponse": {"name": "read", "response": {"error": "no"}}},
                    RESULT,
                    {"text": "go on"},
                ),
            ],
            [
                {"role": "user", "content": "hi"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        NATIVE_CALL,
                        {"id": "b", "type": "function", "function": {"name": "read", "arguments": "{}"}},
                    ],
                },
                {"role": "tool", "tool_call_id": "b", "content": '{"error":"no"}'},
                {"role": "tool", "tool_call_id": "functions.shell:0", "content": "a.txt\n"},
                {"role": "user", "content": "go on"},
            ],
            id="results-before-the-turns-text-a-response-object-as-json",
        ),
        pytest.param(
            [model({"text": "", "thought": True, "thoughtSignature": "s"})], [], id="a-turn-of-thoughts-only"
        ),
    ],
)
def test_contents_become_messages(contents: list[Any], expected: list[dict[str, Any]]) -> None:
    assert turns(*contents) == expected


def test_the_system_instruction_leads() -> None:
    instruction = {"role": "user", "parts": [{"text": "Be brief."}, {"text": "Be kind."}]}
    assert sent(systemInstruction=instruction)["messages"][0] == {
        "role": "system",
        "content": "Be brief.\nBe kind.",
    }
    assert sent(system_instruction="Plain.")["messages"][0] == {"role": "system", "content": "Plain."}


@pytest.mark.parametrize(
    ("declaration", "parameters"),
    [
        pytest.param(SHELL, SCHEMA, id="parametersJsonSchema-as-is"),
        pytest.param(
            {
                "name": "shell",
                "description": "Run",
                "parameters": {
                    "type": "OBJECT",
                    "properties": {"command": {"type": "STRING"}},
                    "required": ["command"],
                    "propertyOrdering": ["command"],
                },
            },
            SCHEMA,
            id="openapi-parameters-converted",
        ),
        pytest.param(
            {"name": "shell", "description": "Run", "parameters_json_schema": SCHEMA}, SCHEMA, id="snake-case"
        ),
    ],
)
def test_function_declarations_become_functions(
    declaration: dict[str, Any], parameters: dict[str, Any]
) -> None:
    tools = sent(tools=[{"functionDeclarations": [declaration]}])["tools"]
    assert tools == [
        {"type": "function", "function": {**SHELL_FUNCTION["function"], "parameters": parameters}}
    ]


def test_hosted_tools_are_left_out_with_a_notice() -> None:
    body = {"tools": [{"googleSearch": {}}, {"functionDeclarations": [SHELL]}, {"codeExecution": {}}]}
    assert sent(**body)["tools"] == [SHELL_FUNCTION]
    assert notices(**body) == ["hosted-tool-dropped", "hosted-tool-dropped"]
    assert "tools" not in sent(tools=[{"googleSearch": {}}])


READ = {"name": "read", "parametersJsonSchema": SCHEMA}


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        pytest.param(None, {}, id="none"),
        pytest.param({"mode": "AUTO"}, {"tool_choice": "auto"}, id="auto"),
        pytest.param({"mode": "NONE"}, {"tool_choice": "none"}, id="none-mode"),
        pytest.param({"mode": "ANY"}, {"tool_choice": "required"}, id="any"),
        pytest.param(
            {"mode": "ANY", "allowedFunctionNames": ["read"]},
            {"tool_choice": {"type": "function", "function": {"name": "read"}}},
            id="any-of-one",
        ),
        pytest.param(
            {"mode": "ANY", "allowedFunctionNames": ["read", "shell"]},
            {"tool_choice": "required"},
            id="any-of-several",
        ),
        pytest.param({"mode": "SOMETIMES"}, {}, id="unknown-is-auto"),
    ],
)
def test_tool_config_becomes_tool_choice(config: Any, expected: dict[str, Any]) -> None:
    body = {"tools": [{"functionDeclarations": [SHELL, READ]}]}
    if config is not None:
        body["toolConfig"] = {"functionCallingConfig": config}
    request = sent(**body)
    assert {key: request[key] for key in ("tool_choice",) if key in request} == expected
    assert len(request["tools"]) == 2


def test_any_of_some_functions_sends_only_those() -> None:
    body = {
        "tools": [{"functionDeclarations": [SHELL, READ, {**READ, "name": "write"}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["read", "write"]}},
    }
    assert [tool["function"]["name"] for tool in sent(**body)["tools"]] == ["read", "write"]


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        pytest.param(
            {
                "temperature": 1,
                "topP": 0.95,
                "topK": 64,
                "maxOutputTokens": 100,
                "stopSequences": ["END"],
                "presencePenalty": 0.5,
                "frequencyPenalty": 0.25,
                "seed": 7,
                "candidateCount": 1,
            },
            {
                "temperature": 1,
                "top_p": 0.95,
                "top_k": 64,
                "max_tokens": 100,
                "stop": ["END"],
                "presence_penalty": 0.5,
                "frequency_penalty": 0.25,
                "seed": 7,
            },
            id="sampling",
        ),
        pytest.param({"max_output_tokens": 9}, {"max_tokens": 9}, id="snake-case"),
        pytest.param(
            {"responseMimeType": "application/json"},
            {"response_format": {"type": "json_object"}},
            id="json-without-schema",
        ),
        pytest.param(
            {
                "responseMimeType": "application/json",
                "responseJsonSchema": {"type": "OBJECT", "properties": {"score": {"type": "INTEGER"}}},
            },
            {
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {
                        "name": "response",
                        "schema": {"type": "object", "properties": {"score": {"type": "integer"}}},
                    },
                }
            },
            id="json-schema-upper-case",
        ),
        pytest.param({"responseMimeType": "text/plain"}, {}, id="plain-text"),
        pytest.param(
            {"thinkingConfig": {"includeThoughts": True, "thinkingLevel": "HIGH"}},
            {"reasoning_effort": "high"},
            id="thinking-level",
        ),
        pytest.param(
            {"thinkingConfig": {"thinkingLevel": "minimal"}}, {"reasoning_effort": "low"}, id="minimal-is-low"
        ),
        pytest.param(
            {"thinkingConfig": {"thinkingBudget": 1024}}, {"reasoning_effort": "low"}, id="small-budget"
        ),
        pytest.param(
            {"thinkingConfig": {"thinkingBudget": 8192}}, {"reasoning_effort": "medium"}, id="mid-budget"
        ),
        pytest.param(
            {"thinkingConfig": {"thinkingBudget": 8193}}, {"reasoning_effort": "high"}, id="big-budget"
        ),
        pytest.param({"thinkingConfig": {"thinkingBudget": -1}}, {}, id="dynamic-budget-sends-nothing"),
        pytest.param({"thinkingConfig": {"thinkingBudget": 0}}, {}, id="no-budget-sends-nothing"),
    ],
)
def test_generation_config(config: dict[str, Any], expected: dict[str, Any]) -> None:
    request = sent(generationConfig=config)
    assert {key: value for key, value in request.items() if key not in ("model", "messages")} == expected


@pytest.mark.parametrize(
    ("body", "codes"),
    [
        pytest.param(
            {"safetySettings": [{"category": "X", "threshold": "BLOCK_NONE"}], "cachedContent": "c/1"},
            ["request-fields-dropped"],
            id="google-only-fields",
        ),
        pytest.param(
            {"generationConfig": {"candidateCount": 2}}, ["candidates-dropped"], id="more-candidates"
        ),
        pytest.param(
            {"generationConfig": {"responseModalities": ["AUDIO"]}},
            ["request-fields-dropped"],
            id="unknown-config",
        ),
        pytest.param(
            {"generationConfig": {"responseMimeType": "text/x.enum"}},
            ["request-fields-dropped"],
            id="enum-mime",
        ),
        pytest.param(
            {"contents": [user({"inlineData": {"mimeType": "application/pdf", "data": "JVBE"}}), HI]},
            ["request-parts-dropped"],
            id="a-pdf",
        ),
        pytest.param(
            {"contents": [user({"executableCode": {"code": "1"}}, {"text": "x"})]},
            ["request-parts-dropped"],
            id="unknown-part",
        ),
    ],
)
def test_what_has_no_form_is_left_out_with_a_notice(body: dict[str, Any], codes: list[str]) -> None:
    assert notices(**body) == codes
    request = sent(**body)
    assert not {"safetySettings", "cachedContent", "n"} & set(request)


FLASH = ModelChoice(model_map=(("gemini-*-flash*", "kimi"),))


@pytest.mark.parametrize(("requested", "choice", "upstream"), [
    pytest.param("gemini-3.5-flash-lite", FLASH, "kimi", id="mapped"),
    pytest.param("gemini-3.1-pro", FLASH, "gemini-3.1-pro", id="no-match-keeps-it"),
    pytest.param("x", ModelChoice("k"), "k", id="model-for-all"),
])
def test_the_model_comes_from_the_path_and_the_model_map(requested: str, choice: ModelChoice,
                                                         upstream: str) -> None:
    request, _ = translate_request({"contents": [HI]}, requested, stream=False, choice=choice)
    assert request["model"] == upstream


def test_a_stream_asks_for_usage() -> None:
    streamed = {k: v for k, v in sent(stream=True).items() if k.startswith("stream")}
    assert streamed == {"stream": True, "stream_options": {"include_usage": True}}
    assert "stream" not in sent()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param([], "JSON object", id="not-an-object"),
        pytest.param({"contents": "hi"}, "contents: expected a list", id="contents-a-string"),
        pytest.param({"contents": [1]}, "contents.0: expected a Content", id="content-not-an-object"),
        pytest.param({"contents": [{"role": "tool", "parts": []}]}, "contents.0.role", id="bad-role"),
        pytest.param({"contents": [{"parts": [1]}]}, "contents.0.parts.0", id="part-not-an-object"),
        pytest.param({"contents": [HI], "tools": {}}, "tools: expected a list", id="tools-not-a-list"),
        pytest.param(
            {"contents": [HI], "tools": [{"functionDeclarations": [{"description": "x"}]}]},
            "functionDeclarations.0.name",
            id="function-without-name",
        ),
        pytest.param({"contents": [HI], "generationConfig": 1}, "generationConfig", id="config-not-object"),
        pytest.param({"contents": [HI], "systemInstruction": {"parts": 1}}, "systemInstruction", id="system"),
    ],
)
def test_untranslatable_bodies_are_request_errors(body: Any, message: str) -> None:
    with pytest.raises(RequestError, match=message):
        translate_request(body, "m", stream=False)
