"""The package's modules import each other without circles (lazy and type-only imports included)."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "sse_rewrite"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every sse_rewrite module `path` imports, anywhere in the file."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base.startswith("sse_rewrite"):
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("sse_rewrite"))
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    return {name: {m for m in imports(path) if m in modules and m != name} for name, path in modules.items()}


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One import circle, or [] (a package's own `__init__` importing its modules is no circle)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if node.startswith(nxt + "."):  # a module and its own package's __init__
                continue
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_graph_finds_a_circle_when_there_is_one() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_through_others() -> None:
    assert cycle(graph()) == []


def test_no_module_is_over_400_lines_and_the_formats_stay_under_10000() -> None:
    """STYLE.md's module bound (split by meaning, 400 lines at most), and issue #34's: the machines and
    the catalogue read every syntax in under 10,000 lines."""
    sizes = {path: len(path.read_text().splitlines()) for path in PACKAGE.rglob("*.py")}
    assert [str(path) for path, size in sizes.items() if size > 400] == []
    assert sum(size for path, size in sizes.items() if "formats" in path.relative_to(PACKAGE).parts) < 10_000
