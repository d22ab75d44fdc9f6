"""Seed-OSS: `<seed:tool_call>` blocks of function bodies, `<seed:think>` reasoning.

    <seed:tool_call><function=NAME><parameter=P>value</parameter></function></seed:tool_call>
    <seed:tool_call><function name="f"><parameter name="a" string="true">x</parameter></function>
    </seed:tool_call>

A block may hold several functions. The first body is Qwen3-Coder's (`equals_names`), the second
the spelling ByteDance's hosted Doubao leaks, whose `string="true"` values are raw strings and
`string="false"` values JSON (raw text on failure); values without `string=` are typed by the
tool's schema, else guessed. The machine is `_invoke.InvokeParser`. `<seed:tool_call>` is read in
every stream; a closer alone is the text's own words; `<seed:think>` only where `--format seed`
or a Seed id picks it (a tag quoted in prose would otherwise move the rest of an answer to reasoning).
"""

from __future__ import annotations

from ..machines._invoke import InvokeParser
from ..machines._invoke_syntax import PLAIN, InvokeSyntax, Spelling

# typing is imported for type checkers only: it costs start-up time (see entry.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_SEED: Final = Spelling("<seed:", "</seed:", distinctive=False)  # (so an orphan closer stays text)
SEED: Final = InvokeSyntax("seed", (_SEED,), ("tool_call",), (PLAIN,), angle_optional=False,
                           words=("function", "parameter"), equals_names=True)  # fmt: skip
"""Seed-OSS's blocks: read in every stream."""
SEED_THINK: Final = SEED.but(think=("<seed:think>", "</seed:think>"))
"""With its reasoning tags: `--format seed` and Seed ids."""


class SeedParser(InvokeParser, SYNTAXES=(SEED,)):
    """Seed-OSS tool calls (read in every stream)."""


class SeedThinkParser(InvokeParser, SYNTAXES=(SEED_THINK,)):
    """Seed-OSS tool calls and `<seed:think>` reasoning (`--format seed`, and Seed ids)."""
