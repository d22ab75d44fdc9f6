"""The request's tools, as one lookup: names and JSON Schemas of parameters (sans-IO).

`ToolSchemas.read` takes a request body (`{"tools": [...]}`) or a `tools` array, in the
OpenAI shape (`{"type": "function", "function": {"name", "parameters"}}`) or Anthropic's
(`{"name", "input_schema"}`). The parsers use it to type raw-text parameter values
(`formats/machines/raw_values.py`), to take a call's name that matches a tool only loosely, and to
check arguments (docs/behaviour.md, "Types"). A tool list never decides whether text is a
call: it only types and names.
"""

from __future__ import annotations

import orjson

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    Schema = dict[str, Any]

_MAX_DEPTH: Final = 32  # `$ref` chains and nesting looked through, at most


class Parameters:
    """One tool's parameters schema, `$ref`s resolved against its own `$defs`/`definitions`."""

    __slots__ = ("root",)

    def __init__(self, root: Schema) -> None:
        self.root = root

    def resolve(self, schema: object, depth: int = 0) -> Schema:
        """`schema` with a local `$ref` (`#/$defs/X`, `#/definitions/X`) followed; `{}` if none."""
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and depth < _MAX_DEPTH:
            target: object = self.root
            for part in schema["$ref"].removeprefix("#").strip("/").split("/"):
                key = part.replace("~1", "/").replace("~0", "~")
                target = target.get(key) if isinstance(target, dict) else None
            schema, depth = target, depth + 1
        return schema if isinstance(schema, dict) else {}

    def property(self, key: str) -> Schema | None:
        """The schema of parameter `key`, or None when the tool declares no such parameter."""
        properties = self.resolve(self.root).get("properties")
        if not isinstance(properties, dict) or key not in properties:
            return None
        return self.resolve(properties[key])

    def member(self, schema: Schema | None, key: str) -> Schema | None:
        """The schema of `key` inside the value `schema` types: its property, else its
        `additionalProperties`; an array's members are its `items`, whatever their key."""
        schema = self.resolve(schema)
        if "array" in self.types(schema):
            found = schema.get("items")
        else:
            properties = schema.get("properties")
            found = properties[key] if isinstance(properties, dict) and key in properties else None
            found = schema.get("additionalProperties") if found is None else found
        return self.resolve(found) if isinstance(found, dict) else None

    def types(self, schema: Schema, depth: int = 0) -> set[str]:
        """The JSON types `schema` allows (`type`, type lists, `anyOf`/`oneOf`/`allOf`, `enum`,
        `const`); empty when it does not say (any type)."""
        schema = self.resolve(schema)
        declared = schema.get("type")
        found = {declared} if isinstance(declared, str) else set()
        if isinstance(declared, list):
            found |= {t for t in declared if isinstance(t, str)}
        for key in ("anyOf", "oneOf", "allOf"):
            members = schema.get(key)
            if isinstance(members, list) and depth < _MAX_DEPTH:
                for member in members:
                    found |= self.types(member, depth + 1) if isinstance(member, dict) else set()
        enum = schema.get("enum")
        found |= {json_type(value) for value in enum} if isinstance(enum, list) else set()
        if "const" in schema:
            found.add(json_type(schema["const"]))
        return found

    def problems(self, arguments: str) -> list[str]:
        """How the arguments (JSON text) differ from the schema: missing required keys, wrong types."""
        try:
            value = orjson.loads(arguments)
        except orjson.JSONDecodeError:
            return []  # (told already: invalid-arguments)
        found: list[str] = []
        self._check(value, self.root, "arguments", found, 0)
        return found

    def _check(self, value: object, schema: object, where: str, found: list[str], depth: int) -> None:
        schema = self.resolve(schema)
        if depth > _MAX_DEPTH or not schema:
            return
        allowed = self.types(schema)
        kind = json_type(value)
        if allowed and kind not in allowed and not (kind == "integer" and "number" in allowed):
            found.append(f"{where} is {kind}, the schema says {'|'.join(sorted(allowed))}")
            return
        if isinstance(value, dict):
            required = schema.get("required")
            for key in required if isinstance(required, list) else ():
                if isinstance(key, str) and key not in value:
                    found.append(f"{where} lacks the required {key!r}")
            properties = schema.get("properties")
            if isinstance(properties, dict):
                for key, item in value.items():
                    if key in properties:
                        self._check(item, properties[key], f"{where}.{key}", found, depth + 1)
        elif isinstance(value, list) and isinstance(schema.get("items"), dict):
            for index, item in enumerate(value):
                self._check(item, schema["items"], f"{where}[{index}]", found, depth + 1)


def json_type(value: object) -> str:
    """The JSON Schema type name of a decoded JSON value (`integer` for whole numbers)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


class ToolSchemas:
    """The request's tools by name (see module docstring)."""

    __slots__ = ("_by_name", "source")

    def __init__(self, by_name: dict[str, Schema], source: list[Any] | None = None) -> None:
        self._by_name = by_name
        self.source = source or []
        """The `tools` array as read (what a capture's `.tools` sidecar keeps)."""

    @classmethod
    def of_request(cls, body: object) -> ToolSchemas | None:
        """The tools a request body declares, or None when it declares none."""
        tools = body.get("tools") if isinstance(body, dict) else None
        return cls.read(tools) if isinstance(tools, list) and tools else None

    @classmethod
    def read(cls, value: object) -> ToolSchemas:
        """From a request body or a `tools` array; entries of another shape are skipped.
        Raises ValueError when `value` is neither."""
        tools = value.get("tools") if isinstance(value, dict) else value
        if not isinstance(tools, list):
            raise ValueError("expected a request body with `tools`, or a `tools` array")
        by_name: dict[str, Schema] = {}
        for tool in tools:
            if not isinstance(tool, dict):
                continue
            function = tool.get("function")
            spec: dict[str, Any] = function if isinstance(function, dict) else tool
            name = spec.get("name")
            schema = spec.get("parameters", spec.get("input_schema"))
            if isinstance(name, str) and name:
                by_name[name] = schema if isinstance(schema, dict) else {}
        return cls(by_name, tools)

    def __bool__(self) -> bool:
        return bool(self._by_name)

    def names(self) -> list[str]:
        """The declared tool names, in order."""
        return list(self._by_name)

    def resolve(self, name: str) -> tuple[str, str | None]:
        """The declared name a call's `name` stands for, and a notice text when it is not `name`
        itself: a unique case-insensitive or namespace-stripped match (`functions.Bash` -> `Bash`,
        `default_api.read` -> `read`) is taken; an unknown name stays as the model wrote it."""
        if not self._by_name or name in self._by_name:
            return name, None
        matches = self._matches(name)
        if len(matches) == 1:
            return matches[0], f"call name {name!r} taken for the declared tool {matches[0]!r}"
        return name, f"call name {name!r} matches no declared tool (it stays as written)"

    def declares(self, name: str) -> bool:
        """Whether a call's `name` names a declared tool: itself, or one or more it matches
        case-insensitively or without a namespace (`resolve`)."""
        return name in self._by_name or bool(self._matches(name))

    def _matches(self, name: str) -> list[str]:
        candidates = {name.lower(), name.rpartition(".")[2].lower(), name.rpartition(":")[0].lower()}
        candidates.discard("")
        return [tool for tool in self._by_name if tool.lower() in candidates]

    def review(self, name: str, arguments: str | None) -> tuple[str, list[str]]:
        """A call's name as declared (`resolve`), and notice texts: how the name was taken, how
        the arguments (JSON text; None: not known yet) differ from the tool's schema."""
        declared, note = self.resolve(name)
        notes = [note] if note else []
        parameters = self.parameters(declared)
        if parameters is not None and arguments is not None:
            notes += [f"call {declared}: {problem}" for problem in parameters.problems(arguments)]
        return declared, notes

    def parameters(self, name: str) -> Parameters | None:
        """The parameters schema of the tool `name` (as declared), or None when unknown."""
        schema = self._by_name.get(name)
        return None if schema is None else Parameters(schema)
