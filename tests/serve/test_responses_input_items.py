"""`output_messages`: a response's own output items read as `input_messages` reads them, whatever they are."""

from __future__ import annotations

from typing import Any

import pytest

from sse_rewrite.protocols.fields import RequestError
from sse_rewrite.protocols.responses.input_items import input_messages, output_messages


def text(value: str) -> dict[str, Any]:
    return {"type": "output_text", "text": value, "annotations": []}


def said(*parts: dict[str, Any], role: str = "assistant") -> dict[str, Any]:
    return {"id": "msg_1", "type": "message", "status": "completed", "role": role, "content": list(parts)}


def call(name: str = "bash", arguments: Any = '{"command": "ls"}',
         call_id: Any = "functions.bash:0") -> dict[str, Any]:
    return {"id": "fc_1", "type": "function_call", "status": "completed", "arguments": arguments,
            "call_id": call_id, "name": name}


THINKING = {"id": "rs_1", "type": "reasoning", "summary": [],
            "content": [{"type": "reasoning_text", "text": "hm"}]}
CUSTOM = {"id": "ctc_1", "type": "custom_tool_call", "status": "completed", "input": "*** Begin Patch",
          "call_id": "functions.apply_patch:1", "name": "apply_patch"}


@pytest.mark.parametrize("output", [
    pytest.param([], id="empty"),
    pytest.param([said(text(" I will run it. ")), call()], id="text-then-call"),
    pytest.param([call(), call("cat", "{}", "functions.cat:1")], id="calls-only"),
    pytest.param([said(text("a"), text("b"))], id="two-parts-joined"),
    pytest.param([said()], id="no-parts"),
    pytest.param([THINKING, said(text("done"))], id="reasoning-dropped"),
    pytest.param([said(text("a")), call(), said(text("b")), call()], id="call-after-each-text"),
    pytest.param([said(text("x")), CUSTOM], id="custom-call-falls-back"),
    pytest.param([said({"type": "refusal", "refusal": "no"})], id="refusal-falls-back"),
    pytest.param([said(text("x"), role="user")], id="other-role-falls-back"),
    pytest.param([{"role": "assistant", "content": "untyped"}], id="untyped-falls-back"),
    pytest.param([said(text("x")) | {"content": "plain"}], id="string-content-falls-back"),
    pytest.param([{"type": "function_call_output", "call_id": "c", "output": "ok"}], id="output-falls-back"),
])
def test_output_messages_are_input_messages(output: list[dict[str, Any]]) -> None:
    assert output_messages(output) == input_messages(output, [], "output")


@pytest.mark.parametrize("output", [
    pytest.param([call(arguments=None)], id="call-without-arguments"),
    pytest.param([said(text("x")), call(call_id=3)], id="call-id-not-a-string"),
    pytest.param([said({"type": "output_text"})], id="part-without-text"),
    pytest.param(["not an item"], id="not-an-object"),
    pytest.param({"not": "a list"}, id="not-a-list"),
])
def test_output_messages_raise_as_input_messages(output: Any) -> None:
    with pytest.raises(RequestError) as expected:
        input_messages(output, [], "output")
    with pytest.raises(RequestError) as got:
        output_messages(output)
    assert str(got.value) == str(expected.value)
