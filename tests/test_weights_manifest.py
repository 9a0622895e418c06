"""Every shipped weights file says how it was made: an entry in ``bigtwo/bots/weights/MANIFEST.toml`` with its
commands, seed, frames and sha256, the digest held to the bytes that ship (training/ keeps no intermediate
networks: a shipped file is remade by its commands, and checked by its digest)."""

import hashlib
import tomllib
from importlib import resources

WEIGHTS = resources.files("bigtwo.bots") / "weights"


def manifest() -> dict:
    return tomllib.loads((WEIGHTS / "MANIFEST.toml").read_text(encoding="utf-8"))["files"]


def shipped() -> dict[str, bytes]:
    """Every file in the weights folder (its subfolders' by ``folder/name``) but the manifest itself."""
    found = {}
    for entry in WEIGHTS.iterdir():
        for f in entry.iterdir() if entry.is_dir() else [entry]:
            name = f.name if f is entry else f"{entry.name}/{f.name}"
            if f.is_file() and name != "MANIFEST.toml" and not name.startswith("__"):
                found[name] = f.read_bytes()
    return found


def test_every_shipped_weights_file_has_an_entry_whose_digest_is_its_bytes():
    files, entries = shipped(), manifest()
    assert files, "no weights shipped"
    assert sorted(files) == sorted(entries), "the manifest and the weights folder name other files"
    for name, data in files.items():
        assert entries[name]["sha256"] == hashlib.sha256(data).hexdigest(), f"{name}: its bytes are not the manifest's"


def test_each_entry_says_its_commands_seed_and_frames():
    for name, entry in manifest().items():
        assert entry["command"] and all(
            isinstance(c, str) and c.split()[0] in ("bigtwo", "python") for c in entry["command"]
        ), name
        assert isinstance(entry["seed"], int) and isinstance(entry["frames"], int) and entry["frames"] >= 0, name
        assert entry["made"] and entry["data"], name
        if "from" in entry:  # an intermediate no longer in the repository: named, and digested
            assert entry["from"]["file"].startswith("training/") and len(entry["from"]["sha256"]) == 64, name


def test_a_network_s_frames_are_those_its_file_records():
    """The frames the manifest gives a network trained by self-play are those its own description records."""
    from bigtwo.bots.learned import QPolicy

    for name, entry in manifest().items():
        if name.endswith(".npz") and entry["frames"]:
            with resources.as_file(WEIGHTS / name) as path:
                assert QPolicy.load(path).meta["frames"] == entry["frames"], name
