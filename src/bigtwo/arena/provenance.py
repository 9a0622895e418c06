"""What played a match, beyond its bots' spec words: saved with every arena run so that a match is reused or
pooled only with one its bots would play again.

A spec names only the options it sets; the bot's defaults, the package's shipped models (the networks and
the heuristic's weights) and the weights files it names decide its play too. ``isearch(budget_ms=1000)`` saved
before a default changed reads the same as today's, and plays differently.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from bigtwo.bots.named import factory_of
from bigtwo.bots.spec import BotSpec

DIGEST = 16  # hex digits of sha256 kept: enough to tell files apart, short enough to read


def file_digest(path: Any) -> str:
    """A file's digest as a match's provenance records it (a path, or a package resource)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:DIGEST]


def _plain(value: Any) -> Any:
    """A default as JSON would keep it (a non-JSON default by its repr)."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return repr(value)


def bot_settings(spec: BotSpec, table: tuple[str, int] | None = None) -> dict[str, Any]:
    """The spec's bot with every setting it is built with: its constructor's defaults under the spec's options
    (``seed`` left out: the arena sets it), and the digest of each file an option names (a network's weights)
    or, at ``table`` (preset, players), of the shipped network an option's setting reads there (a bot class
    says which with ``shipped_files(settings)``: option to folder under ``weights/``)."""
    factory = factory_of(spec.name)
    settings: dict[str, Any] = {}
    if factory is not None:
        try:
            params = list(inspect.signature(factory).parameters.values())
        except (TypeError, ValueError):  # a builtin or C callable: only the spec's options are known
            params = []
        for p in params:
            if p.name != "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.default is not p.empty:
                settings[p.name] = _plain(p.default)
    settings.update({k: _plain(v) for k, v in spec.options.items()})
    files = {
        k: file_digest(Path(v))
        for k, v in sorted(spec.options.items())
        if isinstance(v, str) and Path(v).suffix and Path(v).is_file()  # a file name, not a word like 'cards'
    }
    shipped = getattr(factory, "shipped_files", None)
    if table is not None and callable(shipped):
        models = shipped_models(tuple(table))
        for option, folder in shipped(settings).items():
            name = next((n for n in models if n.startswith(f"{folder}/")), None)
            if name is not None:
                files.setdefault(option, models[name])
    return {"name": spec.name, "settings": dict(sorted(settings.items())), "files": dict(sorted(files.items()))}


@cache
def shipped_models(table: tuple[str, int] | None = None) -> dict[str, str]:
    """The package's shipped models (``bigtwo/bots/weights``: networks, heuristic weights, and in its folders the
    networks for a search's play-outs, named ``folder/file``) by file name, digested; with ``table`` (preset,
    players), only those made for it (each file names its table, ``...<preset>-<n>p``): a model for another
    table cannot change play at this one."""
    folder = resources.files("bigtwo.bots") / "weights"
    if not folder.is_dir():
        return {}
    found = {}
    for entry in folder.iterdir():
        inside = sorted(entry.iterdir(), key=lambda f: f.name) if entry.is_dir() else [entry]
        for f in inside:
            name = f.name if f is entry else f"{entry.name}/{f.name}"
            # a model is a network (.npz) or heuristic weights (.json); MANIFEST.toml only says how they were made
            if f.is_file() and f.name.endswith((".npz", ".json")) and _for_table(f.name, table):
                found[name] = file_digest(f)
    return dict(sorted(found.items()))


def _for_table(name: str, table: tuple[str, int] | list[Any] | None) -> bool:
    if table is None:
        return True
    preset, players = table
    stem = name.rsplit(".", 1)[0]
    return stem == f"{preset}-{players}p" or stem.endswith(f"-{preset}-{players}p")


@cache
def source_digest() -> str:
    """One digest of the package's Python source: which code played, for the record (any edit changes it)."""
    import bigtwo

    root = Path(bigtwo.__file__).parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:DIGEST]


def provenance(specs: list[BotSpec], table: tuple[str, int] | None = None) -> dict[str, Any]:
    """The arena's record of what plays: the package version, its shipped models (those for ``table``, the
    preset and player count played, where given), each lineup entry's settings and the source digest."""
    import bigtwo

    out: dict[str, Any] = {"table": list(table)} if table is not None else {}
    return out | {
        "version": bigtwo.__version__,
        "models": shipped_models(table),
        "bots": [bot_settings(s, table) for s in specs],
        "source": source_digest(),
    }


def differences(saved: dict[str, Any] | None, now: dict[str, Any]) -> list[str]:
    """How a saved run's provenance differs from ``now`` where it changes play (version, shipped models, a bot's
    settings or files), in words; empty when they would play alike. The source digest is not compared: code
    edits that leave play alone (most do) would otherwise make every saved match useless."""
    if not saved:
        return ["it was saved without a record of its bots' settings and models"]
    out = []
    if saved.get("version") != now["version"]:
        out.append(f"package version {saved.get('version')} (now {now['version']})")
    old_models, new_models = saved.get("models") or {}, now["models"]
    # models for other tables play no part here (an older record lists every model)
    table = now.get("table") or saved.get("table")
    names = {n for n in (*old_models, *new_models) if _for_table(n, table)}
    changed = sorted(n for n in names if old_models.get(n) != new_models.get(n))
    if changed:
        out.append(f"shipped models {', '.join(changed)} differ")
    old_bots = saved.get("bots") or []
    if len(old_bots) != len(now["bots"]):
        out.append(f"{len(old_bots)} lineup entries (now {len(now['bots'])})")
        return out
    for old, new in zip(old_bots, now["bots"], strict=True):
        a, b = old.get("settings") or {}, new["settings"]
        # an option the bot no longer takes, saved at the value that plays as the bot does today, changes nothing
        retired = getattr(factory_of(new["name"]), "retired_settings", {})
        a = {k: v for k, v in a.items() if not (k not in b and k in retired and _plain(retired[k]) == v)}
        out += [f"{new['name']}'s setting {key}: {was!r} (now {now_!r})" for key, was, now_ in changed_keys(a, b)]
        a, b = old.get("files") or {}, new["files"]
        for key, was, now_ in changed_keys(a, b):
            if key in a and key not in b and key in new["settings"]:  # named, but no such file here to compare
                out.append(
                    f"{new['name']}'s weights file {key}: {new['settings'][key]!r} is not found here "
                    f"(it was {was!r}), so whether it is the same is unknown"
                )
            else:
                out.append(f"{new['name']}'s weights file {key}: {was!r} (now {now_!r})")
    return out


def changed_keys(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """``(key, value in a, value in b)`` for every key whose value differs, in key order (``'unset'`` where a
    side lacks it)."""
    return [(k, a.get(k, "unset"), b.get(k, "unset")) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
