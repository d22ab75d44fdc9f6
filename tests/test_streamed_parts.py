"""`--stream-arguments`' hot path: a chunk that only streams more of an open call's arguments
is taken by `StreamChoices.absorbed` (one event a read) or the token runs (runs of look-alike
events in a read) and encoded by the output's `parts` (a byte template for OpenAI), without
the rewrite. The output is the rewrite's alone (no accelerator, no hot path), byte for byte,
for every syntax of `SYNTAXES`, every field a token may come in, and every protocol."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sse_rewrite.protocols import PROTOCOLS, stream_output
from sse_rewrite.protocols.openai.output import OpenAIOutput, arguments_events
from sse_rewrite.protocols.openai.part_heads import PART_TAIL
from sse_rewrite.stream.choice import ChoiceRewriter
from sse_rewrite.stream.choice_state import ChoiceState
from sse_rewrite.stream.chunks import tool_call_delta
from sse_rewrite.stream.rewrite import RewriteOptions, StreamRewriter
from sse_rewrite.stream.streamed_calls import part_counts
from tests.chunking import chunk_event, cut
from tests.formats.test_streamed_fast_paths import JSON_BODY_RESTS
from tests.formats.test_streamed_prefix import SYNTAXES, keys, values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sse_rewrite.stream.streamed_calls import Part


def event(field: str, token: str, stream_id: str) -> bytes:
    """A token in `field`, as providers send it (reasoning mirrored in `reasoning_details`)."""
    delta: dict[str, object] = {"role": "assistant", "content": ""}
    delta[field] = token
    if field != "content":
        detail = {"type": "reasoning.text", "text": token, "format": "unknown", "index": 0}
        delta["reasoning_details"] = [detail]
    return chunk_event(delta, stream_id=stream_id)


def rewritten(stream: list[bytes], fmt: str, to: str, per_event: bool, accelerators: bool = True) -> bytes:
    options = RewriteOptions(format=fmt, to=to, stream_arguments=True, plain_runs=accelerators,
                             token_runs=accelerators)  # fmt: skip
    rewriter = StreamRewriter(options)
    reads = stream if per_event else [stream[0], b"".join(stream[1:])]  # (the first tells the format)
    out = [o for read in reads for o in rewriter.feed(read)] + rewriter.flush()
    return b"".join(o for o in out if isinstance(o, bytes))


@settings(max_examples=40, deadline=None)
@given(
    syntax=st.sampled_from(sorted(SYNTAXES)),
    pairs=st.lists(st.tuples(keys, values), min_size=1, max_size=3),
    field=st.sampled_from(["content", "reasoning", "reasoning_content"]),
    to=st.sampled_from(PROTOCOLS),
    per_event=st.booleans(),
    stream_id=st.sampled_from(["gen-1", "gen-2"]),
    data=st.data(),
)
def test_streamed_parts_are_the_rewrites_bytes(
    syntax: str, pairs: list[tuple[str, str]], field: str, to: str, per_event: bool, stream_id: str,
    data: st.DataObject,
) -> None:  # fmt: skip
    row = SYNTAXES[syntax]
    calls = row.render("f", list(dict(pairs).items()), " ") + "\n" + row.render("g", [("a", "b")], "")
    text = "Go.\n" + calls
    size = data.draw(st.integers(1, 6), label="size")  # tokens of about this size, cut at random
    more = data.draw(st.lists(st.integers(1, len(text) - 1)), label="cuts")
    points = [*range(size, len(text), size), *more]
    every = data.draw(st.integers(2, 9), label="every")  # an envelope that changes now and then
    tokens = [token for token in cut(text, points) if token]
    stream = [event(field, token, "gen-x" if i % every == 0 else stream_id) for i, token in enumerate(tokens)]
    stream += [chunk_event({}, "stop"), b"data: [DONE]\n\n"]
    fast = rewritten(stream, row.parsers[0], to, per_event)
    with pytest.MonkeyPatch.context() as patch:
        absorb = ChoiceState.absorb
        patch.setattr(ChoiceState, "absorb", lambda self, choice, parts=None: absorb(self, choice))
        assert fast == rewritten(stream, row.parsers[0], to, True, accelerators=False)


def test_a_streamed_call_token_takes_the_hot_path(monkeypatch: pytest.MonkeyPatch) -> None:
    encoded: list[bytes] = []
    argument = OpenAIOutput.argument  # (a live event's one argument part)

    def spy(self: OpenAIOutput, *args: object) -> list[bytes]:
        out = argument(self, *args)  # type: ignore[arg-type]
        encoded.extend(out)  # type: ignore[arg-type]
        return out  # type: ignore[return-value]

    monkeypatch.setattr(OpenAIOutput, "argument", spy)
    for syntax in ("kimi", "deepseek", "hermes"):
        encoded.clear()
        text = SYNTAXES[syntax].render("write", [("content", "x = 1\n" * 40)], " ")
        tokens = [text[i : i + 4] for i in range(0, len(text), 4)]
        stream = [event("content", t, "gen-1") for t in tokens] + [b"data: [DONE]\n\n"]
        rewritten(stream, SYNTAXES[syntax].parsers[0], "openai", True)
        assert len(encoded) > 50, syntax  # (of ~70 argument tokens)
        entries = [orjson.loads(e[6:])["choices"][0]["delta"]["tool_calls"][0] for e in encoded]
        arguments = "".join(entry["function"]["arguments"] for entry in entries)
        assert "x = 1\\n" * 30 in arguments, syntax


@pytest.mark.parametrize("per_event", [True, False])
def test_the_end_of_a_call_streamed_whole_takes_the_hot_path(monkeypatch: pytest.MonkeyPatch,
                                                             per_event: bool) -> None:
    rewritten_texts = _general_path_texts(monkeypatch)
    text = SYNTAXES["harmony"].render("write", [("content", "x = 1\n" * 4)], " ")
    header, marker, body = text.removesuffix("<|call|>").partition("<|message|>")
    tokens = [header, marker, *(body[i : i + 4] for i in range(0, len(body), 4)), "<|call|>", "Done."]
    stream = [event("content", t, "gen-1") for t in tokens] + [b"data: [DONE]\n\n"]
    out = rewritten(stream, "gpt-oss+special-tokens", "openai", per_event)
    assert "<|call|>" not in rewritten_texts and b'"content":"Done."' in out
    monkeypatch.undo()
    with pytest.MonkeyPatch.context() as patch:  # (no hot path: every text fed)
        absorb = ChoiceState.absorb
        patch.setattr(ChoiceState, "absorb", lambda self, choice, parts=None: absorb(self, choice))
        assert rewritten(stream, "gpt-oss+special-tokens", "openai", per_event, False) == out


@pytest.mark.parametrize("per_event", [True, False])
@pytest.mark.parametrize("syntax", ["qwen3-coder", "glm"])
def test_the_end_of_a_call_with_a_last_part_takes_the_hot_path(monkeypatch: pytest.MonkeyPatch, syntax: str,
                                                                per_event: bool) -> None:
    """A call's end that adds to its streamed arguments (XML values: the closing `}`) sends that
    last part alone, fed ahead (`ChoiceState._feed_ahead`), as the rewrite would."""
    rewritten_texts = _general_path_texts(monkeypatch)
    text = SYNTAXES[syntax].render("write", [("path", "a.py"), ("content", "x = 1\n" * 4)], " ")
    tokens = [text[i : i + 4] for i in range(0, len(text), 4)]
    end = max(text.rfind(marker) for marker in ("</tool_call>", "</invoke>", "</minimax:tool_call>"))
    tokens = [*(text[i : min(i + 4, end)] for i in range(0, end, 4)), text[end:], "Done."]
    stream = [event("content", t, "gen-1") for t in tokens] + [b"data: [DONE]\n\n"]
    fmt = SYNTAXES[syntax].parsers[0]
    out = rewritten(stream, fmt, "openai", per_event)
    assert text[end:] not in rewritten_texts and b'"content":"Done."' in out
    arguments = "".join(entry["function"]["arguments"] for entry in _entries(out))
    assert arguments.endswith("}") and orjson.loads(arguments)["path"].strip() == "a.py"
    monkeypatch.undo()
    with pytest.MonkeyPatch.context() as patch:  # (no hot path: every text fed)
        absorb = ChoiceState.absorb
        patch.setattr(ChoiceState, "absorb", lambda self, choice, parts=None: absorb(self, choice))
        assert rewritten(stream, fmt, "openai", per_event, False) == out


def _general_path_texts(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The content texts of the choices the general path rewrites (`ChoiceRewriter._rewrite`) from now
    on, until `monkeypatch.undo()`."""
    texts: list[object] = []
    rewrite = ChoiceRewriter._rewrite

    def spy(self: ChoiceRewriter, choice: dict[str, Any], *args: Any) -> Any:
        texts.append(choice.get("delta", {}).get("content"))
        return rewrite(self, choice, *args)

    monkeypatch.setattr(ChoiceRewriter, "_rewrite", spy)
    return texts


def _entries(out: bytes) -> list[dict[str, Any]]:
    """The `tool_calls` entries of an OpenAI stream's events."""
    events = [orjson.loads(e[6:]) for e in out.split(b"\n\n") if e.startswith(b"data: {")]
    return [call for e in events for choice in e["choices"] for call in choice["delta"].get("tool_calls", [])]


ENVELOPES = [  # the same envelope but for one thing (key order, a value's type, spacing, escapes)
    {"id": "gen-1", "object": "chat.completion.chunk", "created": 1, "model": "moonshotai/kimi-k2"},
    {"object": "chat.completion.chunk", "id": "gen-1", "created": 1, "model": "moonshotai/kimi-k2"},
    {"id": "gen-1", "object": "chat.completion.chunk", "created": 1.0, "model": "moonshotai/kimi-k2"},
    {"id": "gen-1", "object": "chat.completion.chunk", "created": True, "model": "moonshotai/kimi-k2"},
    {"id": "gen-1", "object": "chat.completion.chunk", "created": 1, "model": "moonshotai/kimi-k2",
     "usage": None},
    {"id": '"x"', "object": "chat.completion.chunk", "created": 1, "model": "moonshotai/kimi-k2"},
]


def written(envelope: dict[str, object], token: str, spaced: bool, ascii_only: bool) -> bytes:
    """An event as another server's JSON writer might write it (the hot path must not care)."""
    chunk = {**envelope, "choices": [{"index": 0, "delta": {"content": token}, "finish_reason": None}]}
    separators = (", ", ": ") if spaced else (",", ":")
    return b"data: " + json.dumps(chunk, separators=separators, ensure_ascii=ascii_only).encode() + b"\n\n"


@settings(max_examples=30, deadline=None)
@given(
    tokens=st.lists(st.sampled_from(["x", "é", '"', "\\", "1", "gen-1", ' "x"', "{", "\n"]), max_size=40),
    envelopes=st.lists(st.sampled_from(range(len(ENVELOPES))), min_size=1, max_size=40),
    spaced=st.booleans(),
    ascii_only=st.booleans(),
)
def test_the_kept_head_is_the_rewrites_whatever_changes_between_events(
    tokens: list[str], envelopes: list[int], spaced: bool, ascii_only: bool
) -> None:
    """An argument part's head is kept while the event is a look-alike of a learned one, or its
    envelope encodes the same; any other change (key order, 1 against 1.0, `usage`) is seen."""
    text = SYNTAXES["kimi"].render("f", [("a", "".join(tokens) + "tail")], " ")
    head, call, rest = text.partition('{"a": "')
    pieces = [head, call, *tokens, *cut(rest, range(3, len(rest), 3))]
    stream = [written(ENVELOPES[envelopes[i % len(envelopes)]], piece, spaced, ascii_only)
              for i, piece in enumerate(pieces) if piece]
    stream += [b"data: [DONE]\n\n"]
    fast = rewritten(stream, "kimi", "openai", True)
    with pytest.MonkeyPatch.context() as patch:
        absorb = ChoiceState.absorb
        patch.setattr(ChoiceState, "absorb", lambda self, choice, parts=None: absorb(self, choice))
        assert fast == rewritten(stream, "kimi", "openai", True, accelerators=False)


@given(st.lists(st.text(st.sampled_from(['"', ",", "\\", "a", "é", "\n", "\x00", "\u2028"])), min_size=1))
def test_argument_parts_encoded_together_are_each_encoded_alone(texts: list[str]) -> None:
    head = b'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":'
    alone = b"".join(head + orjson.dumps(text) + PART_TAIL for text in texts)
    assert arguments_events(head, texts) == alone


@settings(max_examples=25, deadline=None)
@given(
    syntax=st.sampled_from(["kimi", "deepseek", "hermes", "mistral"]),
    values=st.lists(values, min_size=2, max_size=2),
    order=st.lists(st.booleans(), max_size=200),
    size=st.integers(1, 5),
)
def test_interleaved_choices_keep_their_own_heads(
    syntax: str, values: list[str], order: list[bool], size: int
) -> None:
    """Two choices streaming calls at once: a live event's part is headed by its own choice
    and call (`OpenAIOutput.argument` keeps one head), as the rewrite alone heads it."""
    row = SYNTAXES[syntax]
    queues = []
    for choice, value in enumerate(values):
        text = row.render(f"f{choice}", [("a", value)], " ")
        queues.append([chunk_event({"content": text[i : i + size]}, choice=choice)
                       for i in range(0, len(text), size)])  # fmt: skip
    stream = []
    for second in [*order, *[False] * len(queues[0]), *[True] * len(queues[1])]:
        if queues[second]:
            stream.append(queues[second].pop(0))
    stream += [chunk_event({}, "stop"), chunk_event({}, "stop", choice=1), b"data: [DONE]\n\n"]
    fast = rewritten(stream, row.parsers[0], "openai", True)
    with pytest.MonkeyPatch.context() as patch:
        absorb = ChoiceState.absorb
        patch.setattr(ChoiceState, "absorb", lambda self, choice, parts=None: absorb(self, choice))
        assert fast == rewritten(stream, row.parsers[0], "openai", True, accelerators=False)


RUN_CHUNK = {"id": "gen-1", "object": "chat.completion.chunk", "created": 1, "model": "m",
             "choices": [{"index": 0, "delta": {"content": "x"}, "finish_reason": None}]}  # fmt: skip
ARGUMENT_TEXTS = st.text(st.sampled_from(['"', ",", "\\", "a", "é"]), min_size=1)
HEADERS: list[Part] = [tool_call_delta(0, "call_0", "f", ""), tool_call_delta(1, "call_1", "g", "")]


@settings(max_examples=30, deadline=None)
@given(
    parts=st.lists(st.tuples(st.sampled_from([0, 1]), st.lists(ARGUMENT_TEXTS, min_size=1, max_size=4))),
    singles=st.lists(st.booleans()),
    to=st.sampled_from(PROTOCOLS),
)  # fmt: skip
def test_a_token_runs_one_part_sends_what_a_part_a_text_sends(
    parts: list[tuple[int, list[str]]], singles: list[bool], to: str
) -> None:
    """A token run's argument texts of one call as one part, `(index, texts)` (`StreamedCalls.add`):
    the same events as a part a text, in every protocol, and counted as many."""
    runs: list[Part] = [*HEADERS]
    alone: list[Part] = [*HEADERS]
    for n, (index, texts) in enumerate(parts):
        single = n < len(singles) and singles[n]  # (mixed, as `feed_ahead` and `add` make them)
        runs += [(index, text) for text in texts] if single else [(index, texts)]
        alone += [(index, text) for text in texts]
    sent = [o for o in stream_output(to).parts(RUN_CHUNK, 0, runs) if isinstance(o, bytes)]
    one_each = [o for o in stream_output(to).parts(RUN_CHUNK, 0, alone) if isinstance(o, bytes)]
    assert b"".join(sent) == b"".join(one_each)
    assert part_counts(runs) == part_counts(alone) == (2, len(alone))


@pytest.mark.parametrize("body", JSON_BODY_RESTS)
@pytest.mark.parametrize("size", [1, 3])
@pytest.mark.parametrize("to", PROTOCOLS)
def test_the_rest_of_a_json_body_sends_the_rewrites_bytes(body: str, size: int, to: str) -> None:
    """Hermes bodies whose arguments value closes before the body (`TagStreamAbsorb._scanned`,
    `_absorb_body_rest`), in token runs and one event a read: the rewrite's bytes alone, in
    every protocol."""
    text = "Go. <tool_call>\n" + body + " Done."
    stream = [event("content", text[i : i + size], "gen-1") for i in range(0, len(text), size)]
    stream += [chunk_event({}, "stop"), b"data: [DONE]\n\n"]
    with pytest.MonkeyPatch.context() as patch:  # (no hot path: every text fed)
        absorb = ChoiceState.absorb
        patch.setattr(ChoiceState, "absorb", lambda self, choice, parts=None: absorb(self, choice))
        alone = rewritten(stream, "hermes", to, True, accelerators=False)
    for per_event in (False, True):
        assert rewritten(stream, "hermes", to, per_event) == alone


@pytest.mark.parametrize("syntax", ["kimi", "hermes", "mistral"])
def test_token_runs_count_the_events_the_rewrite_counts(syntax: str) -> None:
    text = SYNTAXES[syntax].render("write", [("content", 'x = "1",\n' * 30)], " ")
    stream = [event("content", text[i : i + 3], "gen-1") for i in range(0, len(text), 3)]
    stream += [chunk_event({}, "stop"), b"data: [DONE]\n\n"]
    counts = []
    for accelerators in (True, False):
        options = RewriteOptions(format=SYNTAXES[syntax].parsers[0], stream_arguments=True,
                                 plain_runs=accelerators, token_runs=accelerators)  # fmt: skip
        rewriter = StreamRewriter(options)
        reads = [stream[0], b"".join(stream[1:])] if accelerators else stream
        out = [o for read in reads for o in rewriter.feed(read)] + rewriter.flush()
        counts.append((b"".join(o for o in out if isinstance(o, bytes)), rewriter.stats.events_out,
                       rewriter.stats.tool_calls))  # fmt: skip
    assert counts[0] == counts[1]
