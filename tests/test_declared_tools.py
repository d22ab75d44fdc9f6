"""The request's tools as evidence, through the filter with `--tools FILE` (docs/behaviour.md,
"Types"): under a model id of no tag family (`gpt-4o`, as a gateway aliases a Qwen backend),
a call in a tag prose can contain (Hermes, Qwen3-Coder, GLM, `<tool_call>[…]`, `<tool_calls>`,
`<TOOLCALL>`, Olmo's `<function_calls>`, LongCat's) that names a declared tool is a call, one that names
no declared tool stays text byte for byte with a notice, and special tokens make calls whatever the name.
Every row runs whole, one token per event and one character per event, with and without
`--stream-arguments`, the accelerators on and off."""

from __future__ import annotations

import functools
from pathlib import Path

import orjson
import pytest

from sse_rewrite.formats import FORMATS
from sse_rewrite.formats.catalogue.declared import DECLARED_SUFFIX
from sse_rewrite.formats.catalogue.routing import FAMILIES
from sse_rewrite.stream.choice import ChoiceRewriter
from sse_rewrite.tool_schemas import ToolSchemas
from tests.chunking import chunk_event, feed_pieces, rejoin, settled, token_stream, tokens
from tests.cli_runs import invoke

pytestmark = pytest.mark.usefixtures("accelerators")  # each test with and without fast/

ALIAS = "gpt-4o"
QWEN_ID = "Qwen/Qwen3-235B-A22B"
GEMMA_ID = "google/gemma-4-31b-it"
READ = {"type": "function", "function": {"name": "read", "parameters": {
    "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}  # fmt: skip
HERMES = '<tool_call>\n{{"name": "{}", "arguments": {{"path": "/etc/hosts"}}}}\n</tool_call>'
QWEN_XML = "<tool_call>\n<function={}>\n<parameter=path>\n/etc/hosts\n</parameter>\n</function>\n</tool_call>"
KIMI = "<|tool_calls_section_begin|><|tool_call_begin|>functions.{}:0<|tool_call_argument_begin|>" \
       '{{"path": "/etc/hosts"}}<|tool_call_end|><|tool_calls_section_end|>'  # fmt: skip
TOOL_CALLS = '<tool_calls>[{{"name": "{}", "arguments": {{"path": "/etc/hosts"}}}}]</tool_calls>'
NEMOTRON = '<TOOLCALL>[{{"name": "{}", "arguments": {{"path": "/etc/hosts"}}}}]</TOOLCALL>'
OLMO = '<function_calls>{}(path="/etc/hosts")</function_calls>'
LONGCAT = "<longcat_tool_call>{}\n<longcat_arg_key>path</longcat_arg_key>\n" \
          "<longcat_arg_value>/etc/hosts</longcat_arg_value>\n</longcat_tool_call>"  # fmt: skip
GLM = "<tool_call>{}\n<arg_key>path</arg_key>\n<arg_value>/etc/hosts</arg_value>\n</tool_call>"
STRIPPED_KIMI = 'functions.{}:0{{"path": "/etc/hosts"}}'
KIMI_ID = "moonshotai/kimi-k2.5"
LIST = '<tool_call>[{{"name": "{}", "arguments": {{"path": "/etc/hosts"}}}}]'
HY3 = "<tool_calls>\n<tool_call>{}<tool_sep>\n<arg_key>path</arg_key>\n<arg_value>/etc/hosts</arg_value>\n" \
      "</tool_call>\n</tool_calls>"  # fmt: skip
M1 = '<tool_calls>\n{{"name": "{}", "arguments": {{"path": "/etc/hosts"}}}}\n</tool_calls>'
GLUED_KIMI = "the file" + STRIPPED_KIMI
LEFT = {HY3: "\n", GLUED_KIMI: "the file"}
"""What a block read as calls leaves as text: Hunyuan 3's newline before its closer (as under its ids)."""
UNREAD = {STRIPPED_KIMI}
"""Found by a declared name (`functions.read:`): a call that names none is never read, so no notice."""
CALL = ("read", '{"path": "/etc/hosts"}')

ROWS = [
    pytest.param(HERMES, "read", True, [CALL], id="hermes-declared"),
    pytest.param(QWEN_XML, "read", True, [CALL], id="qwen3-coder-declared"),
    pytest.param(HERMES, "Read", True, [CALL], id="hermes-declared-other-case"),
    pytest.param(HERMES, "rm", True, [], id="hermes-undeclared"),
    pytest.param(QWEN_XML, "rm", True, [], id="qwen3-coder-undeclared"),
    pytest.param(HERMES, "read", False, [], id="hermes-without-tools"),
    pytest.param(QWEN_XML, "read", False, [], id="qwen3-coder-without-tools"),
    pytest.param(KIMI, "rm", True, [("rm", '{"path": "/etc/hosts"}')], id="special-tokens-undeclared"),
    # the other tags of syntaxes read under their ids (Hunyuan A13B, Nemotron, Olmo 3, LongCat)
    pytest.param(TOOL_CALLS, "read", True, [CALL], id="tool-calls-list-declared"),
    pytest.param(TOOL_CALLS, "rm", True, [], id="tool-calls-list-undeclared"),
    pytest.param(NEMOTRON, "read", True, [CALL], id="nemotron-declared"),
    pytest.param(NEMOTRON, "rm", True, [], id="nemotron-undeclared"),
    pytest.param(OLMO, "read", True, [CALL], id="olmo-declared"),
    pytest.param(OLMO, "rm", True, [], id="olmo-undeclared"),
    pytest.param(OLMO, "read", False, [], id="olmo-without-tools"),
    pytest.param(LONGCAT, "read", True, [CALL], id="longcat-declared"),
    pytest.param(LONGCAT, "rm", True, [], id="longcat-undeclared"),
    pytest.param(GLM, "read", True, [CALL], id="glm-declared"),  # (`<tool_call>`'s body decides)
    pytest.param(GLM, "rm", True, [], id="glm-undeclared"),
    pytest.param(GLM, "read", False, [], id="glm-without-tools"),
    pytest.param(LIST, "read", True, [CALL], id="tool-call-list-declared"),  # (Granite 3.1's, xLAM's)
    pytest.param(LIST, "rm", True, [], id="tool-call-list-undeclared"),
    pytest.param(LIST, "read", False, [], id="tool-call-list-without-tools"),
    # `<tool_calls>` holding Hunyuan 3's block or MiniMax M1's lines: the body tells them from Jamba's list
    pytest.param(HY3, "read", True, [CALL], id="hy3-block-declared"),
    pytest.param(HY3, "rm", True, [], id="hy3-block-undeclared"),
    pytest.param(HY3, "read", False, [], id="hy3-block-without-tools"),
    pytest.param(M1, "read", True, [CALL], id="minimax-m1-declared"),
    pytest.param(M1, "rm", True, [], id="minimax-m1-undeclared"),
    pytest.param(M1, "read", False, [], id="minimax-m1-without-tools"),
    pytest.param(STRIPPED_KIMI, "read", True, [CALL], id="stripped-kimi-declared"),
    pytest.param(STRIPPED_KIMI, "rm", True, [], id="stripped-kimi-undeclared"),
    pytest.param(STRIPPED_KIMI, "read", False, [], id="stripped-kimi-without-tools"),
    pytest.param(GLUED_KIMI, "read", True, [CALL], id="stripped-kimi-glued"),
    pytest.param(STRIPPED_KIMI, "Read", True, [], id="stripped-kimi-other-case"),
]


def run(tmp_path: Path, leak: str, cut: str, with_tools: bool, streamed: bool) -> tuple[object, object, str]:
    """The leak between two sentences under the alias, cut by `cut`: text, calls, stderr."""
    text = "Let me look.\n" + leak + "\nDone."
    pieces = {"whole": [text], "token": tokens(text), "character": list(text)}[cut]
    args = ["--stats", *(["--stream-arguments"] if streamed else [])]
    if with_tools:
        (tmp_path / "tools.json").write_bytes(orjson.dumps({"model": ALIAS, "messages": [], "tools": [READ]}))
        args += ["--tools", str(tmp_path / "tools.json")]
    result = invoke(args, token_stream(pieces, model=ALIAS))
    assert result.exit_code == 0, result.output
    texts, calls, _ = settled(result.stdout_bytes)[0]
    return texts, [(name, arguments) for _, name, arguments in calls], result.stderr


@pytest.mark.parametrize("streamed", [False, True], ids=["calls-whole", "stream-arguments"])
@pytest.mark.parametrize("cut", ["whole", "token", "character"])
@pytest.mark.parametrize(("template", "name", "with_tools", "expected"), ROWS)
def test_a_tag_call_under_an_alias_is_read_when_it_names_a_declared_tool(
    tmp_path: Path, template: str, name: str, with_tools: bool, expected: list[tuple[str, str]], cut: str,
    streamed: bool,
) -> None:  # fmt: skip
    leak = template.format(name)
    texts, calls, stderr = run(tmp_path, leak, cut, with_tools, streamed)
    assert calls == expected
    assert texts == {"content": "Let me look.\n" + (LEFT.get(template, "") if expected else leak) + "\nDone."}
    assert ("undeclared-tool" in stderr) == (with_tools and not expected and template not in UNREAD)
    assert ("names a declared tool (the request's tools are known)" in stderr) == with_tools


@pytest.mark.parametrize("name", sorted(name for name in FORMATS if name.endswith(DECLARED_SUFFIX)))
def test_every_declared_tools_variant_loads_its_parts_together(name: str) -> None:
    """The added tags meet each composition's own markers (none may begin another: `_CLASHES`)."""
    text = "a <tool_calls> b <function_calls> c <TOOLCALL> d"
    assert rejoin(feed_pieces(FORMATS[name](), [text])) == text


@pytest.mark.parametrize("cut", ["whole", "token", "character"])
@pytest.mark.parametrize("model", ["tencent/Hy3", "tencent/Hy4"])
def test_a_block_whose_call_names_no_declared_tool_keeps_its_closer(
    tmp_path: Path, model: str, cut: str
) -> None:
    """Under Hunyuan's own ids, a block's call that names no declared tool is text, its block's closer
    with it (it was dropped as an orphan alone on its line: a lost word)."""
    suffix, sep = ("", "<tool_sep>") if model.endswith("3") else (":6124c78e", "")
    leak = (f"<tool_calls{suffix}>\n<tool_call{suffix}>rm{sep}\n<arg_key{suffix}>path</arg_key{suffix}>\n"
            f"<arg_value{suffix}>/etc/hosts</arg_value{suffix}>\n</tool_call{suffix}>\n</tool_calls{suffix}>")
    text = "Let me look.\n" + leak + "\nDone."
    pieces = {"whole": [text], "token": tokens(text), "character": list(text)}[cut]
    (tmp_path / "tools.json").write_bytes(orjson.dumps({"model": model, "messages": [], "tools": [READ]}))
    result = invoke(["--stats", "--tools", str(tmp_path / "tools.json")], token_stream(pieces, model=model))
    texts, calls, _ = settled(result.stdout_bytes)[0]
    assert (texts, calls) == ({"content": text}, [])
    assert "undeclared-tool" in result.stderr


K3_SEP = ('Let me look.\ntools<|sep|>call tool="{}" index="1"<|sep|>argument key="path" type="string"<|sep|>'
          "/etc/hosts argument<|sep|>call<|sep|>tools<|sep|>\nDone.")


def _read_cut(
    tmp_path: Path, text: str, model: str, with_tools: bool, cut: str, streamed: bool
) -> tuple[dict[str, str], list[tuple[str, str]], str]:
    """`text` under `model`, cut as `cut` says (`random`: at every 37th character), with `read` declared
    or no tools known: its texts, its calls (name, arguments) and the filter's stderr."""
    cuts = sorted({(i * 37) % len(text) for i in range(1, 12)} - {0})
    random = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    pieces = {"whole": [text], "token": tokens(text), "character": list(text), "random": random}[cut]
    args = ["--stream-arguments"] if streamed else []
    if with_tools:
        (tmp_path / "tools.json").write_bytes(orjson.dumps({"model": model, "messages": [], "tools": [READ]}))
        args += ["--tools", str(tmp_path / "tools.json")]
    result = invoke(args, token_stream(pieces, model=model))
    texts, calls, _ = settled(result.stdout_bytes)[0]
    return texts, [(tool, arguments) for _, tool, arguments in calls], result.stderr


@pytest.mark.parametrize("streamed", [False, True], ids=["calls-whole", "stream-arguments"])
@pytest.mark.parametrize("cut", ["whole", "token", "character", "random"])
@pytest.mark.parametrize(("model", "name", "with_tools", "kept"), [
    pytest.param("moonshotai/kimi-k3", "read", True, "Let me look.\n\nDone.", id="k3-id"),
    pytest.param(ALIAS, "read", True, "Let me look.\ntools\nDone.", id="alias-declared"),
    pytest.param(ALIAS, "rm", True, "Let me look.\ntools\nDone.", id="alias-undeclared"),
    pytest.param(ALIAS, "read", False, "Let me look.\ntools\nDone.", id="alias-without-tools"),
    pytest.param(QWEN_ID, "read", True, "Let me look.\ntools\nDone.", id="qwen-id"),
])  # fmt: skip
def test_k3_sep_under_any_id(
    tmp_path: Path, model: str, name: str, with_tools: bool, kept: str, cut: str, streamed: bool
) -> None:
    """Kimi K3's XTML with only `<|sep|>` left is read under any id from its distinctive `<|sep|>call `
    (a special token spelled out, which prose cannot hold: whatever the call names), the word `tools`
    before it kept as text (it went out before `<|sep|>` came); under Kimi ids as before, `tools` read."""
    texts, calls, stderr = _read_cut(tmp_path, K3_SEP.format(name), model, with_tools, cut, streamed)
    assert (texts, calls) == ({"content": kept}, [(name, '{"path": "/etc/hosts"}')])
    assert "undeclared-tool" not in stderr


HARMONY_CALL = "analysisUser wants the hosts file.assistantcommentary to=functions.{}{}{}"
HARMONY_KEPT = "Let me look.\nanalysisUser wants the hosts file.assistantcommentary to\nDone."
BODY = '{"path": "/etc/hosts"}'


@pytest.mark.parametrize("streamed", [False, True], ids=["calls-whole", "stream-arguments"])
@pytest.mark.parametrize("cut", ["whole", "token", "character", "random"])
@pytest.mark.parametrize(("name", "kind", "body", "with_tools", "read"), [
    pytest.param("read", " json", BODY, True, True, id="declared"),
    pytest.param("read", " <|constrain|>json", BODY, True, True, id="declared-constrain"),
    pytest.param("read", "", BODY, True, True, id="declared-no-content-type"),
    pytest.param("rm", " json", BODY, True, False, id="undeclared"),
    pytest.param("Read", " json", BODY, True, False, id="declared-other-case"),
    pytest.param("readme", " json", BODY, True, False, id="a-declared-name-goes-on"),
    pytest.param("read", " json", BODY, False, False, id="without-tools"),
    pytest.param("read", " json", '{"path": /etc/hosts}', True, False, id="invalid-json"),
    pytest.param("read", " json", f"[{BODY}]", True, False, id="not-an-object"),
    pytest.param("read", " json", BODY[:-1], True, False, id="cut-off"),
])  # fmt: skip
def test_stripped_harmony_under_any_id_where_its_call_names_a_declared_tool(
    tmp_path: Path, name: str, kind: str, body: str, with_tools: bool, read: bool, cut: str, streamed: bool
) -> None:
    """gpt-oss harmony with its tokens stripped, under `gpt-4o` with the tools known: its call is read
    from `=functions.NAME` where NAME is a tool as declared, then `json` or `<|constrain|>json` or
    nothing, then one whole valid object; the text before it (`…assistantcommentary to`) stays text.
    A name not declared as written, or a body that is not one valid object, stays text byte for byte,
    with no notice (found by the declared name's bytes: an event without them is never read)."""
    text = "Let me look.\n" + HARMONY_CALL.format(name, kind, body) + "\nDone."
    texts, calls, stderr = _read_cut(tmp_path, text, ALIAS, with_tools, cut, streamed)
    assert (texts, calls) == (({"content": HARMONY_KEPT}, [CALL]) if read else ({"content": text}, []))
    assert "undeclared-tool" not in stderr


GEMMA_KEPT = "Let me look.\n{}\nDone."


@pytest.mark.parametrize("streamed", [False, True], ids=["calls-whole", "stream-arguments"])
@pytest.mark.parametrize("cut", ["whole", "token", "character", "random"])
@pytest.mark.parametrize(("before", "name", "body", "with_tools", "read"), [
    pytest.param("", "read", "{path:/etc/hosts}", True, True, id="declared"),
    pytest.param("", "read", '(path="/etc/hosts")', True, True, id="declared-keywords"),
    pytest.param("the file", "read", "{path:/etc/hosts}", True, True, id="declared-glued-to-a-word"),
    pytest.param("", "rm", "{path:/etc/hosts}", True, False, id="undeclared"),
    pytest.param("", "Read", "{path:/etc/hosts}", True, False, id="declared-other-case"),
    pytest.param("", "readme", "{path:/etc/hosts}", True, False, id="a-declared-name-goes-on"),
    pytest.param("", "read", "{path:/etc/hosts}", False, False, id="without-tools"),
    pytest.param("", "read", "{path /etc/hosts}", True, False, id="invalid"),
    pytest.param("", "read", "(path=)", True, False, id="invalid-keywords"),
    pytest.param("", "read", "{path:/etc/hosts}call:rm{path:/x}", True, False, id="then-an-undeclared-one"),
    pytest.param("", "read", "{path:/etc/hosts", True, False, id="cut-off"),
])  # fmt: skip
def test_stripped_gemma_under_any_id_where_its_call_names_a_declared_tool(
    tmp_path: Path, before: str, name: str, body: str, with_tools: bool, read: bool, cut: str, streamed: bool
) -> None:
    """Gemma 4 with its tokens stripped, under `gpt-4o` with the tools known: `call:NAME{key:value,…}`
    or `call:NAME(key=value, …)` is read where NAME is a tool as declared and the call is whole and
    valid, glued to a word too (as stripped Kimi's: under Gemma ids `recall:x{…}` is prose, which
    would need every text read here). Anything else stays text byte for byte, with no notice (found
    by the declared name's bytes: an event without them is never read)."""
    text = GEMMA_KEPT.format(f"{before}call:{name}{body}")
    texts, calls, stderr = _read_cut(tmp_path, text, ALIAS, with_tools, cut, streamed)
    kept = GEMMA_KEPT.format(before)
    assert (texts, calls) == (({"content": kept}, [CALL]) if read else ({"content": text}, []))
    assert "undeclared-tool" not in stderr


OWN_IDS = [  # (a stripped form under its own ids: `model`, then the answer with the call's name left out)
    pytest.param(KIMI_ID, "Let me look.\n" + STRIPPED_KIMI + "\nDone.", id="kimi-k2"),
    pytest.param("moonshotai/kimi-k3", 'Let me look.\ntools<|sep|>call tool="{}" index="1"<|sep|>argument '
                 'key="path" type="string"<|sep|>/etc/hosts argument<|sep|>call<|sep|>tools<|sep|>\nDone.',
                 id="kimi-k3-sep"),
    pytest.param("openai/gpt-oss-120b", "analysisUser wants the hosts file.assistantcommentary "
                 'to=functions.{} json{{"path": "/etc/hosts"}}', id="harmony"),
    pytest.param(GEMMA_ID, "Let me look.\ncall:{}{{path:/etc/hosts}}\nDone.", id="gemma-4"),
    pytest.param("google/functiongemma-270m-it", "Let me look.\ncall:{}{{path:/etc/hosts}}\nDone.",
                 id="functiongemma"),
]  # fmt: skip


@pytest.mark.parametrize("streamed", [False, True], ids=["calls-whole", "stream-arguments"])
@pytest.mark.parametrize("cut", ["whole", "token", "character"])
@pytest.mark.parametrize(("name", "with_tools", "expected"), [
    pytest.param("read", True, [CALL], id="declared"),
    pytest.param("Read", True, [CALL], id="declared-other-case"),
    pytest.param("rm", True, [], id="undeclared"),
    pytest.param("rm", False, [("rm", '{"path": "/etc/hosts"}')], id="without-tools"),
])  # fmt: skip
@pytest.mark.parametrize(("model", "template"), OWN_IDS)
def test_a_stripped_call_under_its_ids_must_name_a_declared_tool(
    tmp_path: Path, model: str, template: str, name: str, with_tools: bool, expected: list[tuple[str, str]],
    cut: str, streamed: bool,
) -> None:  # fmt: skip
    """Under its own ids, where the tools are known, a stripped call (a syntax prose can contain)
    that names no declared tool stays text, byte for byte, with a notice (`PROSE`): stripped Kimi's,
    K3's and Gemma 4's in the answer (K3's section around it too), stripped harmony's in the reasoning."""
    text = template.format(name)
    texts, calls, stderr = _read_cut(tmp_path, text, model, with_tools, cut, streamed)
    assert calls == expected
    if not expected:
        field = "reasoning_content" if text.startswith("analysis") else "content"
        assert texts == {field: text.removeprefix("analysis")}
    assert ("undeclared-tool" in stderr) == (not expected)


@pytest.mark.parametrize("streamed", [False, True], ids=["calls-whole", "stream-arguments"])
@pytest.mark.parametrize("cut", ["whole", "token", "character"])
def test_gemma_tokens_make_calls_whatever_the_name(tmp_path: Path, cut: str, streamed: bool) -> None:
    """Under Gemma ids with the tools known, only the stripped `call:` must name a declared tool:
    a call in Gemma's `<|tool_call>` tokens (which prose cannot hold) is a call whatever its name."""
    text = 'Let me look.\n<|tool_call>call:rm{path:<|"|>/etc/hosts<|"|>}<tool_call|>\nDone.'
    pieces = {"whole": [text], "token": tokens(text), "character": list(text)}[cut]
    (tmp_path / "tools.json").write_bytes(orjson.dumps({"model": GEMMA_ID, "messages": [], "tools": [READ]}))
    args = ["--tools", str(tmp_path / "tools.json"), *(["--stream-arguments"] if streamed else [])]
    result = invoke(args, token_stream(pieces, model=GEMMA_ID))
    texts, calls, _ = settled(result.stdout_bytes)[0]
    assert [(tool, arguments) for _, tool, arguments in calls] == [("rm", '{"path": "/etc/hosts"}')]
    assert texts == {"content": "Let me look.\n\nDone."}


@pytest.mark.parametrize("streamed", [False, True], ids=["calls-whole", "stream-arguments"])
@pytest.mark.parametrize("cut", ["whole", "token", "character"])
def test_the_three_tool_calls_bodies_in_one_stream(tmp_path: Path, cut: str, streamed: bool) -> None:
    """Jamba's list, Hunyuan 3's block and MiniMax M1's lines after one another under the alias: each
    body is read by its own part, and the closer of a block kept as text (its call names no declared
    tool) is words, whichever part finds it, while the closers of the blocks read are not."""
    blocks = [(HY3, "rm"), (TOOL_CALLS, "read"), (HY3, "read"), (M1, "rm"), (M1, "read"), (HY3, "rm"),
              (HY3, "read")]  # fmt: skip
    leak = "\n".join(template.format(name) for template, name in blocks)
    texts, calls, stderr = run(tmp_path, leak, cut, True, streamed)
    assert calls == [CALL] * 4
    kept = "\n".join(LEFT.get(template, "") if name == "read" else template.format(name)
                     for template, name in blocks)  # fmt: skip
    assert texts == {"content": "Let me look.\n" + kept + "\nDone."}
    assert "orphan-marker" not in stderr


WHOLE = [  # (the whole answer: Llama 3/4's, Llama 3.2's and LFM2's, Mistral's and the bare lists' forms)
    pytest.param('{{"name": "{}", "parameters": {{"path": "/etc/hosts"}}}}', id="llama-json"),
    pytest.param('{{"name": "{}", "parameters": {{"path": "/etc/hosts"}}}};\n{{"name": "{}", "parameters": '
                 '{{"path": "/etc/hosts"}}}}', id="llama-json-twice"),
    pytest.param('[{}(path="/etc/hosts")]', id="pythonic-list"),
    pytest.param('{}{{"path": "/etc/hosts"}}', id="mistral-stripped"),
    pytest.param('[{{"name": "{}", "arguments": {{"path": "/etc/hosts"}}}}]', id="bare-list"),
    pytest.param('{{"tool_calls": [{{"name": "{}", "arguments": {{"path": "/etc/hosts"}}}}]}}',
                 id="envelope"),
]


@pytest.mark.parametrize("cut", ["whole", "token", "character"])
@pytest.mark.parametrize(("name", "with_tools", "read"), [
    pytest.param("read", True, True, id="declared"),
    pytest.param("Read", True, True, id="declared-other-case"),
    pytest.param("rm", True, False, id="undeclared"),
    pytest.param("read", False, False, id="without-tools"),
])  # fmt: skip
@pytest.mark.parametrize("template", WHOLE)
@pytest.mark.parametrize("model", [ALIAS, QWEN_ID])
def test_a_whole_answer_of_bare_calls_is_read_under_any_id_when_it_names_a_declared_tool(
    tmp_path: Path, model: str, template: str, name: str, with_tools: bool, read: bool, cut: str
) -> None:
    """The whole-answer syntaxes, read under its ids only without tools, under any id where the first
    call names a declared tool (an alias's, a tag family's); quoted in prose, or followed by prose,
    they stay text."""
    leak = template.replace("{}", name).replace("{{", "{").replace("}}", "}")
    calls = [CALL] * leak.count("/etc/hosts")
    for text, expected in ((f" {leak}\n", calls if read else []), (f"See {leak}", []), (f"{leak} ok", [])):
        pieces = {"whole": [text], "token": tokens(text), "character": list(text)}[cut]
        args = ["--stats"]
        if with_tools:
            request = {"model": model, "messages": [], "tools": [READ]}
            (tmp_path / "tools.json").write_bytes(orjson.dumps(request))
            args += ["--tools", str(tmp_path / "tools.json")]
        result = invoke(args, token_stream(pieces, model=model))
        texts, found, _ = settled(result.stdout_bytes)[0]
        assert [(n.lower(), a) for _, n, a in found] == expected, text
        assert texts == {"content": " \n" if expected else text}


COMPOSED = [pytest.param(family.ids[0], family.format, id=family.format) for family in FAMILIES
            if isinstance(family.parser, type)]  # fmt: skip
"""Every family whose `auto` is a composition (the wrapped ones read whole answers of their own)."""


@pytest.mark.parametrize(("template", "name"), [
    pytest.param(WHOLE[0].values[0], "read", id="llama-json-declared"),
    pytest.param(WHOLE[0].values[0], "rm", id="llama-json-undeclared"),
    pytest.param(WHOLE[3].values[0], "read", id="mistral-stripped-declared"),
])  # fmt: skip
@pytest.mark.parametrize(("model", "format_name"), COMPOSED)
def test_a_whole_answer_is_read_under_every_familys_ids(
    tmp_path: Path, model: str, format_name: str, template: str, name: str
) -> None:
    """Under a tag family's ids too (Qwen, Hermes, GLM, Hunyuan...: no tags are added, they read their
    own), the gate reads a whole answer of bare calls whose first call names a declared tool, and
    `--stats` names the variant and what it adds."""
    text = " " + template.replace("{}", name).replace("{{", "{").replace("}}", "}") + "\n"
    (tmp_path / "tools.json").write_bytes(orjson.dumps({"model": model, "messages": [], "tools": [READ]}))
    args = ["--stats", "--think", "off", "--tools", str(tmp_path / "tools.json")]  # (some ids open reasoning)
    result = invoke(args, token_stream(tokens(text), model=model))
    texts, calls, _ = settled(result.stdout_bytes)[0]
    expected = ([CALL], {"content": " \n"}) if name == "read" else ([], {"content": text})
    assert ([(n, a) for _, n, a in calls], texts) == expected
    assert f"format {format_name}{DECLARED_SUFFIX} (" in result.stderr
    assert "bare calls as the whole answer" in result.stderr


@pytest.mark.parametrize("format_name", ["native+special-tokens", "qwen+special-tokens"])
@pytest.mark.parametrize(("answer", "released"), [
    ('{"name": "Paris", "country": "France"}', len('{"name": "Paris"')),
    ('{"city": "Paris"}', len('{"c')),
    ("[1, 2, 3]", len("[1")),
    ("Hello world", len("H")),
    ('{"name": "read", "parameters": {"path": ', None),  # (a declared tool: held to its end, then text)
])  # fmt: skip
def test_a_json_mode_answer_streams_once_its_name_is_no_declared_tool(
    format_name: str, answer: str, released: int | None
) -> None:
    """The gate holds an answer only until its first name is read (JSON mode under `gpt-4o` or a Qwen
    id streams)."""
    parser = FORMATS[format_name + DECLARED_SUFFIX](tools=ToolSchemas.read([READ]))
    out = [parser.feed(character) for character in answer]
    first = next((i + 1 for i, pieces in enumerate(out) if pieces), None)
    assert first == released
    assert rejoin([*(piece for pieces in out for piece in pieces), *parser.flush()]) == answer


def test_only_the_first_choice_is_held_from_its_start(tmp_path: Path) -> None:
    """Reading every choice's start would cost every event a search: a later choice (`n` > 1) is
    read by the gate's `INNER` (its bare call stays text), the first one's bare call is a call."""
    answer = '{"name": "read", "parameters": {"path": "/etc/hosts"}}'
    role = {"role": "assistant", "content": ""}
    events = [chunk_event(role, choice=choice, model=ALIAS) for choice in (0, 1)]
    events += [chunk_event({"content": token}, choice=choice, model=ALIAS)
               for token in tokens(answer) for choice in (0, 1)]  # fmt: skip
    events += [chunk_event({}, "stop", choice=choice, model=ALIAS) for choice in (0, 1)]
    (tmp_path / "tools.json").write_bytes(orjson.dumps({"model": ALIAS, "messages": [], "tools": [READ]}))
    result = invoke(["--tools", str(tmp_path / "tools.json")], b"".join(events) + b"data: [DONE]\n\n")
    choices = settled(result.stdout_bytes)
    assert [(name, arguments) for _, name, arguments in choices[0][1]] == [CALL]
    assert (choices[1][0], choices[1][1]) == ({"content": answer}, [])


@pytest.mark.parametrize("answer", ['{"name": "Paris", "country": "France"}', "Plain prose."])
def test_once_the_gate_decides_the_choice_holds_its_inner_parser(answer: str) -> None:
    """Decided, the gate leaves the choice's parsers: its `INNER`'s parser takes its place there, an
    object of its own class (the gate swapped into that class reads its attributes slower)."""
    make = functools.partial(FORMATS["qwen+special-tokens" + DECLARED_SUFFIX], tools=ToolSchemas.read([READ]))
    rewriter = ChoiceRewriter(0, make, lambda i, call: f"id{i}")
    gate = rewriter._parsers["content"]
    choices = [{"index": 0, "delta": {"content": token}} for token in tokens(answer)]
    out = [rewriter.rewrite(choice).rewritten() or choice for choice in choices]
    held = rewriter._parsers["content"]
    assert held is not gate and held is gate._inner and type(held) is not type(gate)
    assert "".join(choice["delta"]["content"] for choice in out) == answer
