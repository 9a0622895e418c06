"""Opening a numpy archive (``.npz``) that a user named: the learned bot's weights, a recorded bot's decisions.

A path that is a folder, no file, or a file of another kind is refused in one sentence naming it, in the words
its reader gives (:class:`NpzWords`), not Python's ``[Errno 2]`` or numpy's advice about pickles. Here, below
the readers (:meth:`bigtwo.bots.learned.QPolicy.load`, :func:`bigtwo.arena.decisions.read_decisions`), so
that both can import it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import IO, NamedTuple

import numpy as np

from bigtwo.errors import BigTwoError


class NpzWords(NamedTuple):
    """What a reader says of a path it refuses, each a whole message: ``{path}`` is the path as given, and
    ``{reason}`` (in ``unreadable``) the system's words for why it cannot be read."""

    folder: str  # the path is a folder
    missing: str  # no file there (or not a regular file)
    not_npz: str  # a file numpy does not read (text, a truncated archive)
    one_array: str  # a single array (.npy), not an archive
    unreadable: str | None = None  # a file that may not be read; None: said as ``not_npz``


def check_file(path: str | Path, words: NpzWords) -> None:
    """Refuse, naming it, a path that is no file: a folder, or nothing (or a device or pipe) there."""
    if not Path(path).is_file():
        raise BigTwoError((words.folder if Path(path).is_dir() else words.missing).format(path=path))


def open_npz(source: str | Path | IO[bytes], words: NpzWords) -> np.lib.npyio.NpzFile:
    """The archive at ``source`` (a path, checked by :func:`check_file`, or a readable binary file), open: a
    :class:`numpy.lib.npyio.NpzFile` to read in a ``with`` block. Whatever is not an archive raises
    :class:`BigTwoError` in ``words``."""
    if isinstance(source, str | Path):
        check_file(source, words)
    try:
        archive = np.load(source, allow_pickle=False)
    except PermissionError as e:
        if words.unreadable is None:
            raise BigTwoError(words.not_npz.format(path=source)) from None
        raise BigTwoError(words.unreadable.format(path=source, reason=e.strerror)) from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):  # numpy's words: pickles; zipfile's: a cut-off file
        raise BigTwoError(words.not_npz.format(path=source)) from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise BigTwoError(words.one_array.format(path=source))
    return archive
