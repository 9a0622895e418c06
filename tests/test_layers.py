"""Layers import downward only (docs/architecture.md, "Layers"): every import between the package's modules,
read from the source, goes from a higher layer to a lower one. Imports only a type checker sees
(``if TYPE_CHECKING:``) are not imports at run time and are left out."""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "bigtwo"

# lowest first; a module may import from its own layer's package and from any lower layer
LAYERS = {
    "errors": 0,
    "vocabulary": 0,  # the base of the fixed vocabularies (a StrEnum whose repr is its word)
    "i18n": 0,  # the player's language: every message for players is translated through it
    "locale": 0,  # the catalogs, and Babel's extractor for the presets' files and the browser's scripts
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
    "lesson": 13,  # the guided first round (`bigtwo learn`, the browser's /learn): a scripted game
    "review": 13,  # a round's decisions rated from the seat's own view: replays records, plays bots
    "envs": 13,
    "arena": 13,
    "rl": 14,
    "server": 14,
    "cli": 15,
    "__main__": 16,
    "lab": 16,  # the research pipelines (`bigtwo lab`): above the product, which never imports them
}


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
            if there in ("bigtwo", here):
                continue
            if LAYERS[there] > LAYERS[here]:
                upward.append(f"{path.relative_to(SRC)} imports {module}")
    assert not upward, "\n".join(upward)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in SRC.rglob("*.py")}


def imported_modules(path: Path) -> set[str]:
    """The package's modules a module imports, anywhere in it (in functions too, and for a type checker alone): a
    ``from a import b`` counts ``a.b`` where that is a module, and importing a module imports its packages too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        for name in names:
            parts = name.split(".")
            found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return found & set(MODULES)


def in_lab(module: str) -> bool:
    return module == "bigtwo.lab" or module.startswith("bigtwo.lab.")


def test_the_product_never_imports_the_lab():
    """The lab (``bigtwo.lab``: research pipelines) is the top layer, and nothing outside it imports it, not even
    inside a function: ``bigtwo lab`` reaches the command line as a plugin (an entry point), named by no module."""
    reached = [
        f"{module} imports {', '.join(sorted(filter(in_lab, imported_modules(path))))}"
        for module, path in sorted(MODULES.items())
        if not in_lab(module) and any(in_lab(m) for m in imported_modules(path))
    ]
    assert not reached, "\n".join(reached)


# where the product is entered: the package, its command (and ``python -m bigtwo``), the server, the environments,
# the arena and training, and the migrations Alembic loads by their paths
ENTRY_POINTS = ("bigtwo", "bigtwo.__main__", "bigtwo.cli", "bigtwo.server", "bigtwo.envs", "bigtwo.arena", "bigtwo.rl")
LOADED_BY_PATH = "bigtwo.server.migrations"
# Babel's extractors, named in babel.cfg and loaded by pybabel when the catalogs' template is extracted
LOADED_BY_BABEL = "bigtwo.locale.extract"


def test_every_product_module_is_reached_from_an_entry_point():
    """No module of the product is there for tests or benchmarks alone: each is imported, directly or through
    others (in functions too), from one of the product's entry points. A module only a test, a benchmark or the
    lab reads belongs in the lab (or the tests), not in the installed product."""
    product = {m: p for m, p in MODULES.items() if not in_lab(m)}
    reached, todo = set(), [m for m in ENTRY_POINTS if m in product]
    while todo:
        module = todo.pop()
        if module in reached:
            continue
        reached.add(module)
        todo.extend(m for m in imported_modules(product[module]) if m in product)
    alone = sorted(m for m in product if m not in reached and not m.startswith(LOADED_BY_PATH) and m != LOADED_BY_BABEL)
    assert not alone, f"modules of the product no entry point reaches: {alone}"
