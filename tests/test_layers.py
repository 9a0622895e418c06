"""Layers import downward only (docs/architecture.md, "Layers"): every import between the package's modules,
read from the source, goes from a higher layer to a lower one. Imports only a type checker sees
(``if TYPE_CHECKING:``) are not imports at run time and are left out."""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "bigtwo"

# lowest first; a module may import from its own layer's package and from any lower layer
LAYERS = {
    "errors": 0,
    "cards": 1,
    "words": 2,  # how the tables word things for players (the terminal's and the browser's): cards only
    "rules": 2,
    "combos": 3,
    "moves": 4,
    "native": 4,  # the compiled core's tables (bigtwo._core, C++, plays a round from them)
    "scoring": 4,
    "utilities": 5,
    "actions": 5,
    "deal": 5,
    "observation": 6,
    "legal": 7,
    "game": 8,
    "positions": 9,
    "bounds": 9,
    "exchange": 9,
    "match": 10,
    "state": 11,
    "bots": 12,
    "record": 13,
    "envs": 13,
    "arena": 13,
    "rl": 14,
    "server": 14,
    "cli": 15,
    "__main__": 16,
}
# the one upward import kept on purpose: the deprecated Game.from_observation hands over to positions
ALLOWED = {("game", "positions")}


def unit(module: str) -> str:
    """The layer a module belongs to: its package under bigtwo (``bigtwo.bots.heuristic`` -> ``bots``)."""
    parts = [p for p in module.split(".") if p != "__init__"]
    return parts[1] if len(parts) > 1 else "bigtwo"


def runtime_imports(tree: ast.AST) -> list[str]:
    out: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bigtwo"):
            out.append(node.module)
        elif isinstance(node, ast.Import):
            out.extend(a.name for a in node.names if a.name.startswith("bigtwo"))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def test_every_module_has_a_layer():
    units = {unit(".".join(p.relative_to(SRC.parent).with_suffix("").parts)) for p in SRC.rglob("*.py")}
    assert units - {"bigtwo"} <= set(LAYERS), sorted(units - {"bigtwo"} - set(LAYERS))


def test_layers_import_downward_only():
    upward = []
    for path in SRC.rglob("*.py"):
        here = unit(".".join(path.relative_to(SRC.parent).with_suffix("").parts))
        if here == "bigtwo":  # the package's front door re-exports the engine
            continue
        for module in runtime_imports(ast.parse(path.read_text())):
            there = unit(module)
            if there in ("bigtwo", here) or (here, there) in ALLOWED:
                continue
            if LAYERS[there] > LAYERS[here]:
                upward.append(f"{path.relative_to(SRC)} imports {module}")
    assert not upward, "\n".join(upward)
