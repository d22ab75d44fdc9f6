"""Gemini's schemas and field names: the OpenAPI subset as JSON Schema, snake_case as camelCase."""

from __future__ import annotations

from typing import Any

import pytest

from sse_rewrite.protocols.gemini.proto_json import camel_keys
from sse_rewrite.protocols.gemini.schema import json_schema

SCHEMA = {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        pytest.param({"type": "STRING", "nullable": True}, {"type": ["string", "null"]}, id="nullable"),
        pytest.param(
            {"type": "ARRAY", "items": {"type": "NUMBER"}, "minItems": 1},
            {"type": "array", "items": {"type": "number"}, "minItems": 1},
            id="array",
        ),
        pytest.param(
            {"anyOf": [{"type": "INTEGER"}, {"type": "BOOLEAN"}], "nullable": True},
            {"anyOf": [{"type": "integer"}, {"type": "boolean"}, {"type": "null"}]},
            id="any-of-nullable",
        ),
        pytest.param(
            {"type": "OBJECT", "properties": {"type": {"type": "STRING", "enum": ["OBJECT"]}}},
            {"type": "object", "properties": {"type": {"type": "string", "enum": ["OBJECT"]}}},
            id="a-property-named-type-and-enum-values-kept",
        ),
        pytest.param(
            {"type": ["STRING", "null"], "format": "date-time"},
            {"type": ["string", "null"], "format": "date-time"},
            id="type-list",
        ),
        pytest.param(SCHEMA, SCHEMA, id="json-schema-unchanged"),
    ],
)
def test_gemini_schemas_become_json_schema(schema: dict[str, Any], expected: dict[str, Any]) -> None:
    assert json_schema(schema) == expected


def test_snake_case_names_become_camel_case_but_data_stays() -> None:
    body = {
        "generation_config": {"max_output_tokens": 5},
        "contents": [{"parts": [{"function_call": {"name": "f", "args": {"file_path": "a"}}}]}],
        "tools": [
            {
                "function_declarations": [
                    {
                        "name": "f",
                        "parameters": {
                            "type": "OBJECT",
                            "properties": {"file_path": {"type": "STRING", "max_length": 9}},
                        },
                    }
                ]
            }
        ],
    }
    assert camel_keys(body) == {
        "generationConfig": {"maxOutputTokens": 5},
        "contents": [{"parts": [{"functionCall": {"name": "f", "args": {"file_path": "a"}}}]}],
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "f",
                        "parameters": {
                            "type": "OBJECT",
                            "properties": {"file_path": {"type": "STRING", "maxLength": 9}},
                        },
                    }
                ]
            }
        ],
    }
