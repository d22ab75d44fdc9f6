"""InvokeSyntax: the declaration of one invoke/parameter XML syntax, and its pure body reader.

    <BLOCK>                                           DSML `<｜DSML｜tool_calls>`, `<minimax:tool_call>`
    <invoke name="NAME">
    <parameter name="KEY" string="true">VALUE</parameter>      (MiniMax M3: `<KEY>VALUE</KEY>`)
    </invoke>
    </BLOCK>

A syntax declares how its tags are spelled (`Spelling`: what stands before the tag word in
an opening and in a closing tag), the words its block tag may have, how a value is written
(`Values`) and typed, and whether an invoke with no block around it opens a call. The
streaming machine (`_invoke.InvokeParser`) finds where an invoke ends; `read_invoke` turns
its text into arguments (docs/behaviour.md, "Invoke/parameter XML").
"""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import KW_ONLY, dataclass, field, replace

import orjson

from ._invoke_heads import invoke_name, tag_attributes, tagged_name
from ._json import is_json
from .raw_values import tool_parameters, value_json
from .tool_call_bodies import typed_object

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from ...tool_schemas import Parameters, Schema, ToolSchemas


class Spelling:
    """What stands before a tag word: in an opening tag (`<｜DSML｜`), in a closing one (`</｜DSML｜`).

    `distinctive`: prose cannot contain it, so an invoke spelled so opens a call in any stream.
    """

    __slots__ = ("close", "distinctive", "open")

    def __init__(self, opening: str, closing: str, distinctive: bool = True) -> None:
        self.open, self.close, self.distinctive = opening, closing, distinctive


PLAIN: Final = Spelling("<", "</", distinctive=False)
"""Tags without a marker: `<invoke name=…>` (the Anthropic-style grammar prose may quote)."""


class Values(enum.Enum):
    """How a syntax writes an argument."""

    PARAMETERS = "parameter tags"  # <parameter name="KEY" [string="true|false"]>VALUE</parameter>
    NAMED_TAGS = "named tags"  # <KEY>VALUE</KEY> (nested tags: an object)


@dataclass(eq=False, slots=True)  # (eq=False: hashed and compared as itself, a key of `_INSIDE`)
class InvokeSyntax:
    """One syntax of the family, as data (see the module docstring)."""

    name: str
    blocks: tuple[Spelling, ...]  # `<{spelling.open}{word}>` opens a block, for each of `block_words`
    block_words: tuple[str, ...]
    tags: tuple[Spelling, ...]  # spellings of invoke and parameter tags, mixed freely within a block
    _: KW_ONLY
    values: Values = Values.PARAMETERS
    strip_values: bool = False  # values lose surrounding whitespace before they are typed
    bare_plain: bool = False  # a `<invoke` without a marker opens a call outside a block too
    unwraps: bool = False  # a lone undeclared `arguments`/`input` object is the arguments (`unwrapped`)
    think: tuple[str, str] | None = None  # reasoning tags (opener, closer): what is between is reasoning
    angle_optional: bool = True  # a block opener may lack its `>` (else the `>` is its own)
    hash_calls: tuple[str, str] | None = None  # the wrapper (opener, closer) of one `{tool => …}` call
    fenced_words: tuple[str, ...] = ()  # `<{block spelling}{word}>NAME`, a fenced object (`fenced_calls`)
    words: tuple[str, str] = ("invoke", "parameter")  # the tag words of an invoke and a parameter (MiniCPM 5:
    # `function`, `param`)
    json_blocks: bool = False  # a block whose body opens with `{` holds one JSON call (dots3)
    equals_names: bool = False  # `<function=NAME>`, `<parameter=KEY>` name too (Seed-OSS)
    spaced_tags: bool = False  # an invoke or parameter opener is its word then spacing
    # (`invoke name=`): so a spelling without `<` opens (`invoke `) where the same word closes (`invoke>`)
    prose_blocks: bool = False  # a block that read no call was prose: its closer, or its opener
    # left alone at the end, stays text (an opener of words prose may write: MiniMax without angles)
    byte_level: bool = False  # values may spell spaces and newlines `Ġ`, `Ċ` (MiniCPM 5's BPE)
    tag_end: str = ">"  # what ends a tag (Kimi K3: `<|sep|>`); `end` is its bytes
    inner_spacing: str = ""  # one byte of it may stand after a tag's token and before its end
    names: tuple[str, str] = ("name", "name")  # the attributes naming the tool and a key (K3: `tool`, `key`)
    typed_by: str | None = None  # an attribute typing a value (K3's `type`): `string` raw, others JSON
    escaped: bool = False  # attribute values escape `&` and `"` as `&amp;`, `&quot;`
    markup_words: tuple[str, ...] = ()  # tag words that are markup wherever they stand (K3's `response`)
    orphan_words: tuple[str, ...] = ()  # tag words whose closer is syntax only where it adjoins syntax or
    # ends the message (K3's `message`: `_orphans`), else words
    rescan_prose: bool = False  # an opener found prose is text up to its token (K3: rescanned)
    opened_by: str = ""  # the one block opener, a token a call follows (K3's `<|sep|>` under any id)
    end: bytes = field(init=False)

    def __post_init__(self) -> None:
        self.end = self.tag_end.encode()

    def __deepcopy__(self, memo: dict[int, object]) -> InvokeSyntax:
        """Itself: a declaration, shared by the parsers of its syntax (and by a parser's copy)."""
        return self

    def but(self, **changes: Any) -> InvokeSyntax:
        """The same declaration with some fields changed."""
        return replace(self, **changes)

    def block_openers(self) -> list[str]:
        """Every spelling of the block opener, without its `>` if it may lack it (or `opened_by`)."""
        if self.opened_by:
            return [self.opened_by]
        angle = "" if self.angle_optional else self.tag_end
        return self._respaced([(s.open, word, angle) for s in self.blocks for word in self.block_words])

    def block_closers(self) -> list[str]:
        """Every spelling of the block closer, the tags' included (any closes a block opened in another)."""
        spellings = dict.fromkeys((*self.blocks, *self.tags))
        return self._respaced([(s.close, word, self.tag_end) for s in spellings for word in self.block_words])

    def invoke_openers(self, bare: bool = False) -> list[str]:
        """`<…invoke` in every tag spelling; with `bare`, those that open a call outside a block."""
        spellings = [s for s in self.tags if not bare or s.distinctive or self.bare_plain]
        return self._spaced(self._respaced([(s.open, self.words[0], "") for s in spellings]))

    def parameter_openers(self) -> list[str]:
        """`<…parameter` in every tag spelling (none for values in named tags)."""
        if self.values is not Values.PARAMETERS:
            return []
        return self._spaced(self._respaced([(s.open, self.words[1], "") for s in self.tags]))

    def parameter_closers(self) -> list[str]:
        """`</…parameter>` in every tag spelling (none for values in named tags)."""
        if self.values is not Values.PARAMETERS:
            return []
        return self._respaced([(s.close, self.words[1], self.tag_end) for s in self.tags])

    def _spaced(self, openers: list[str]) -> list[str]:
        """`openers`, each followed by every spacing byte if the syntax's tags are `spaced_tags`."""
        if not self.spaced_tags:
            return openers
        return [opener + space for opener in dict.fromkeys(openers) for space in _SPACE]

    def _respaced(self, tags: list[tuple[str, str, str]]) -> list[str]:
        """Each (token, word, end) spelled whole, and with each `inner_spacing` byte after its token and
        before its end (an end of `""`: the tag goes on; a tag without a token only as written)."""
        spacing = ("", *self.inner_spacing)
        return list(dict.fromkeys(token + before + word + (after + end if end else "")
                                  for token, word, end in tags for before in (spacing if token else ("",))
                                  for after in (spacing if end and token else ("",))))  # fmt: skip

    def invoke_closers(self) -> list[str]:
        """`</…invoke>` in every tag spelling."""
        return self._respaced([(s.close, self.words[0], self.tag_end) for s in self.tags])

    def think_markers(self) -> tuple[list[str], list[str]]:
        """The reasoning opener's spellings and the closer's (none without `think`); with `inner_spacing`,
        they are tags of the first tag spelling (`<|open|>think<|sep|>`), spaced as tags are."""
        if self.think is None or not self.inner_spacing:
            return ([self.think[0]], [self.think[1]]) if self.think else ([], [])
        (opening, closing), tag, end = self.think, self.tags[0], self.tag_end
        return (self._respaced([(tag.open, opening[len(tag.open) : -len(end)], end)]),
                self._respaced([(tag.close, closing[len(tag.close) : -len(end)], end)]))  # fmt: skip

    def markup(self) -> list[str]:
        """Every spelling of the tags that are markup wherever they stand, opening and closing."""
        return self._respaced([(token, word, self.tag_end) for s in self.tags for token in (s.open, s.close)
                               for word in self.markup_words])  # fmt: skip

    def orphan_closers(self) -> list[str]:
        """Every spelling of the `orphan_words` closers (`<|close|>message<|sep|>`)."""
        words = self.orphan_words
        return self._respaced([(s.close, word, self.tag_end) for s in self.tags for word in words])

    def header_name(self, header: bytes) -> str | None:
        """The tool name an invoke header (from after `<…invoke` to its tag end) gives, if any."""
        if self.tag_end == ">" and self.names[0] == "name":
            return invoke_name(header, self.equals_names)
        return tagged_name(header, self.end, self.names[0], self.escaped, self.spaced_tags)

    def typed(self, attributes: dict[str, str]) -> str | None:
        """How a parameter's `attributes` type its value: `"true"` a raw string, `"false"` JSON (else
        the raw string), None by the tool's schema or the guess (`typed_by`: `string` or another type)."""
        if self.typed_by is None:
            return attributes.get("string")
        kind = attributes.get(self.typed_by)
        return None if kind is None else "true" if kind == "string" else "false"


_SPACE: Final = " \t\r\n"
_BETWEEN: Final = " \t\r\nĠĊ"  # (spacing between tags, byte-level spellings too: `BYTE_SPACING`)
_CDATA: Final = ("<![CDATA[", "]]>")


@functools.cache
def _parameter_tags(syntax: InvokeSyntax) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Patterns of a parameter opener (its attributes in group 1) and closer, in every spelling."""
    opens = "|".join(re.escape(s.open) for s in syntax.tags)
    closes = "|".join(re.escape(s.close) for s in syntax.tags)
    end = re.escape(syntax.tag_end)
    attributes = r"""((?:[\sĠĊ]*[A-Za-z_][\w:-]*\s*=\s*(?:"[^"]*"|'[^']*'|[^"'<>=\s/]+))*)[\sĠĊ]*""" + end
    if syntax.equals_names:  # (`<parameter=KEY>`: the key in group 2)
        attributes = f"(?:{attributes}|=([^<>]*)>)"
    word = re.escape(syntax.words[1])
    spaced = "(?=[ \t\r\n])" if syntax.spaced_tags else ""
    inner = f"[{re.escape(syntax.inner_spacing)}]?" if syntax.inner_spacing else ""
    return (re.compile(f"(?:{opens}){inner}{word}{spaced}{attributes}"),
            re.compile(f"(?:{closes}){inner}{word}{inner}{end}"))  # fmt: skip


def read_invoke(
    syntax: InvokeSyntax, body: str, complete: bool = True, parameters: Parameters | None = None
) -> str | None:
    """The arguments (JSON object text) of an invoke body, the text after its header's `>`.

    None when it is not a body of `syntax`. With `complete` False (the input ended inside
    the invoke) a value left open makes it None; otherwise it ends at the body's end.
    A body that is one JSON object is the arguments as written; no values give `{}`. Raw
    values are typed by `parameters` (the tool's schema, `raw_values`), else guessed.
    """
    stripped = body.strip(_SPACE)
    if stripped.startswith("{"):
        return stripped if is_json(stripped) else None
    try:
        if syntax.values is Values.NAMED_TAGS:
            pairs = _named_members(syntax.tags[0], stripped, parameters, getattr(parameters, "root", None))
            members = None if pairs is None else _grouped(pairs)
        else:
            members = parameter_members(syntax, body, complete, parameters)
    except orjson.JSONEncodeError:  # text orjson cannot write (lone surrogates)
        return None
    if members is None:
        return None
    if syntax.unwraps and (inner := unwrapped(members, parameters)) is not None:
        return inner
    return "{" + ", ".join(members) + "}"


def read_lone_invoke(syntax: InvokeSyntax, text: str, tools: ToolSchemas | None) -> tuple[str, str] | None:
    """(name, arguments) of a text that is one invoke of `syntax` (Step-3's call body inside its
    section tokens; its closer may be lost, if no value is left open), its values typed by the
    named tool's schema; None if it is not."""
    stripped = text.strip(_SPACE)
    opener = next((o for o in syntax.invoke_openers() if stripped.startswith(o)), None)
    closer = next((c for c in syntax.invoke_closers() if stripped.endswith(c)), "")
    angle = stripped.find(syntax.tag_end)
    if opener is None or angle == -1:
        return None
    name = syntax.header_name(stripped[len(opener) : angle + len(syntax.tag_end)].encode())
    if name is None:
        return None
    parameters = tool_parameters(tools, name)
    body = stripped[angle + len(syntax.tag_end) : len(stripped) - len(closer)]
    arguments = read_invoke(syntax, body, bool(closer), parameters)  # (no closer: no value left open)
    return None if arguments is None else (name, arguments)


WRAPPERS: Final = ("arguments", "input")


def unwrapped(members: list[str], parameters: Parameters | None) -> str | None:
    """DeepSeek V4's reading of a lone `arguments` or `input` parameter the tool does not declare:
    if its value (or the JSON its string holds) is an object of declared parameters, that
    object is the arguments. None when it is not so, or the tool's schema is not known."""
    if len(members) != 1 or parameters is None:
        return None
    properties = parameters.resolve(parameters.root).get("properties")
    ((key, value),) = orjson.loads("{" + members[0] + "}").items()
    if key not in WRAPPERS or not isinstance(properties, dict) or not properties or key in properties:
        return None
    text = members[0][len(orjson.dumps(key)) + 2 :]
    if isinstance(value, str):
        try:
            text, value = value.strip(_SPACE), orjson.loads(value)
        except orjson.JSONDecodeError:
            return None
    return text if isinstance(value, dict) and value.keys() <= properties.keys() else None


def parameter_members(
    syntax: InvokeSyntax, body: str, complete: bool, parameters: Parameters | None = None
) -> list[str] | None:
    """`<…parameter name=… [string=…]>VALUE</…parameter>` pairs: a value left open ends at
    the next parameter or the body's end; only spacing may stand between them."""
    opener, closer = _parameter_tags(syntax)
    members: list[str] = []
    pos, end = 0, len(body)
    while (found := opener.search(body, pos)) is not None:
        if body[pos : found.start()].strip(_BETWEEN):
            return None
        attributes = tag_attributes(found.group(1) or "", syntax.escaped)
        key = attributes.get(syntax.names[1]) if found.group(1) is not None else found.group(2).strip(_SPACE)
        if key is None:
            return None
        following = opener.search(body, found.end())
        value_end = end if following is None else following.start()
        closed = closer.search(body, found.end(), value_end)
        if closed is None and following is None and not complete:
            return None
        string = syntax.typed(attributes)
        if closed is None:  # (the line end before the next tag is markup, as between tags)
            raw = body[found.end() : value_end]
            raw = raw[:-2] if raw.endswith("\r\n") else raw.removesuffix("\n")
        else:
            raw = body[found.end() : closed.start()]
        members.append(_member(syntax, key, raw, string, parameters))
        pos = value_end if closed is None else closed.end()
    return None if body[pos:].strip(_BETWEEN) else members


def _member(
    syntax: InvokeSyntax, key: str, raw: str, string: str | None, parameters: Parameters | None
) -> str:
    """`"KEY": VALUE`: `string="true"` a raw string, `string="false"` JSON (else the raw
    string); otherwise typed by the tool's schema, else guessed (`typed_object`)."""
    if string == "true":
        return f"{orjson.dumps(key).decode()}: {orjson.dumps(raw).decode()}"
    if string == "false":
        value = raw.strip(_SPACE)
        return f"{orjson.dumps(key).decode()}: {value if is_json(value) else orjson.dumps(raw).decode()}"
    value = raw.strip(_SPACE) if syntax.strip_values else raw
    if syntax.byte_level:  # (`Ġ`, `Ċ`: the value's spaces and newlines, undecoded, as its tags')
        value = value.replace("Ġ", " ").replace("Ċ", "\n").strip(_SPACE if syntax.strip_values else "")
    if (inner := value.strip(_SPACE)).startswith(_CDATA[0]) and inner.endswith(_CDATA[1]):
        value = inner[len(_CDATA[0]) : -len(_CDATA[1])]  # (MiniCPM 5 may wrap a value so)
    return typed_object([(key, value)], parameters)[1:-1]


_KEY_TAG: Final = r"<([A-Za-z_][\w.:-]*)>"
_SPACING: Final = re.compile(r"[ \t\r\n]*")


def _named_members(
    spelling: Spelling, body: str, parameters: Parameters | None = None, schema: Schema | None = None
) -> list[tuple[str, str]] | None:
    """`(KEY, JSON value)` of the `<KEY>VALUE</KEY>` tags behind `spelling`'s marker, typed by their
    schemas in `schema` (`Parameters.member`); a value of such tags is an object, or the array of their values
    where its schema is an array (`<items><item>…</item></items>`, as vLLM reads it)."""
    lead = spelling.open[:-1]
    opener = re.compile(re.escape(lead) + _KEY_TAG)
    pairs: list[tuple[str, str]] = []
    pos = 0
    while pos < len(body):
        found = opener.match(body, pos)
        if found is None:
            return None
        close = f"{spelling.close}{found.group(1)}>"
        value_end = body.find(close, found.end())
        if value_end == -1:
            return None
        inner = body[found.end() : value_end].strip(_SPACE)
        member = parameters.member(schema, found.group(1)) if parameters is not None else None
        nested = _named_members(spelling, inner, parameters, member) if inner.startswith(lead) else None
        if nested is None:
            value = value_json(inner, member, parameters)
        elif parameters is not None and member is not None and "array" in parameters.types(member):
            value = "[" + ", ".join(value for _, value in nested) + "]"
        else:
            value = "{" + ", ".join(_grouped(nested)) + "}"
        pairs.append((found.group(1), value))
        after = _SPACING.match(body, value_end + len(close))
        pos = len(body) if after is None else after.end()  # (it always matches)
    return pairs


def _grouped(pairs: list[tuple[str, str]]) -> list[str]:
    """`"KEY": VALUE` members of `pairs`, each repeated key's values as one array."""
    values: dict[str, list[str]] = {}
    for key, value in pairs:
        values.setdefault(key, []).append(value)
    return [f"{orjson.dumps(key).decode()}: {found[0] if len(found) == 1 else '[' + ', '.join(found) + ']'}"
            for key, found in values.items()]  # fmt: skip
