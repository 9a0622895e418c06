"""No import cycles in the package (DESIGN.md's habits): the graph of every ``bigtwo`` import, at module level and
inside functions alike, read from the source with ``ast``, is acyclic. Imports only a type checker sees
(``if TYPE_CHECKING:``) are left out: they never run. A function-level import that hides a cycle still counts,
so a cycle cannot be papered over by moving its import into a function."""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "bigtwo"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(node: ast.AST, here: str, is_package: bool) -> list[str]:
    """The ``bigtwo`` names an import statement brings in: ``import bigtwo.x`` names ``bigtwo.x``, ``from bigtwo.x
    import y`` names ``bigtwo.x.y`` (a module of its own, or a name the graph reads as ``bigtwo.x``); relative
    imports are resolved against ``here``."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "bigtwo"]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        package = here.split(".") if is_package else here.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    if base.split(".")[0] != "bigtwo":
        return []
    return [f"{base}.{a.name}" for a in node.names]


def runtime_imports(tree: ast.AST, here: str, is_package: bool) -> list[str]:
    out: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        out.extend(imported(node, here, is_package))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def import_graph() -> dict[str, set[str]]:
    """Each module's edges to the modules it imports. ``from bigtwo.server import store`` is an edge to the module
    ``bigtwo.server.store`` alone: the package ``bigtwo.server`` runs first, as the parent of every module inside it,
    and a parent is not counted (else every package re-exporting its modules would be a cycle); ``from
    bigtwo.bots import RandomBot`` is an edge to the package, whose front door then counts."""
    paths = {module_name(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        edges: set[str] = set()
        for target in runtime_imports(ast.parse(path.read_text()), name, path.name == "__init__.py"):
            while target not in paths and "." in target:  # a name defined in a module: the module
                target = target.rsplit(".", 1)[0]
            if target in paths and target != name:
                edges.add(target)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as the modules along it (first repeated last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_the_finder_names_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_function_level_imports_count():
    tree = ast.parse("def f():\n    from bigtwo.game import Game\nif TYPE_CHECKING:\n    import bigtwo.match\n")
    assert runtime_imports(tree, "bigtwo.positions", False) == ["bigtwo.game.Game"]


def test_no_import_cycles():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
