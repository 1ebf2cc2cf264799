"""Files the package reads and writes, checked in one place.

Reading. A path where a file is expected must name a regular file: /dev/zero never ends, a FIFO blocks
until someone writes to it, a directory has no text. Records are streamed a line at a time, each line at
most MAX_LINE bytes; weight and policy files, which the C++ loaders read whole, may have at most MAX_JSON
bytes. Text that is not JSON, including JSON nested too deeply for Python's parser (a RecursionError), is
a ValueError naming the file and the line. A missing or unreadable file stays an OSError (FileNotFoundError,
PermissionError), which names it.

Writing. Files are written whole: into a temporary file beside the target, then renamed over it, so that a
crash leaves the old file or the new one, never half of one (a rerun reads what a run wrote). JSON is
written with allow_nan=False: NaN and infinities are not JSON, and a file holding them would be refused by
every reader, this package's C++ loaders included.
"""
from __future__ import annotations

import json
import math
import os
import stat

MAX_LINE = 16 << 20  # bytes in one record line; a whole 6-player game with every expansion is about 40 KB
MAX_JSON = 64 << 20  # bytes in a JSON document; the largest weight file (an MLP of 64-wide layers) is ~100 KB


def check_regular(path, what: str = "file") -> str:
    """`path` as a string if it names a regular file (or a link to one); ValueError if it names something
    else, OSError if nothing is there or it cannot be looked at."""
    path = os.fspath(path)
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else \
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else \
            "something else"
        raise ValueError(f"{path!r} is {kind}, not a regular file: a {what} is expected there")
    return path


def check_size(path, what: str = "file", limit: int | None = None) -> str:
    """check_regular, and at most `limit` bytes (default MAX_JSON; for files another reader, e.g. C++, loads
    whole)."""
    path = check_regular(path, what)
    limit = MAX_JSON if limit is None else limit
    size = os.stat(path).st_size
    if size > limit:
        raise ValueError(f"{path!r} has {size} bytes, more than a {what} may have ({limit})")
    return path


def open_regular(path, what: str = "file"):
    """The file opened for reading in binary, once it is known to be a regular file. It is opened without
    blocking and checked on the open descriptor, so a FIFO put in its place after a check cannot hang the
    read."""
    path = os.fspath(path)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            check_regular(path, what)  # raises, naming what it is
            raise ValueError(f"{path!r} is not a regular file: a {what} is expected there")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_lines(path, what: str = "record file", limit: int | None = None):
    """(line number from 1, the line's bytes with its newline) of each line of a regular file, streamed. The
    last line may lack its newline (a run killed while writing it). A line longer than `limit` (default
    MAX_LINE) is a ValueError naming it."""
    limit = MAX_LINE if limit is None else limit
    with open_regular(path, what) as f:
        number = 0
        while True:
            line = f.readline(limit + 1)
            if not line:
                return
            number += 1
            if len(line) > limit and not line.endswith(b"\n"):
                raise ValueError(f"{os.fspath(path)}: line {number} is longer than {limit} bytes; not a {what}")
            yield number, line


def read_text(path, what: str = "file", limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (default MAX_JSON; ValueError beyond)."""
    limit = MAX_JSON if limit is None else limit
    with open_regular(path, what) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{os.fspath(path)!r} is longer than {limit} bytes; not a {what}")
    return data


def loads(text, where: str):
    """json.loads, every failure a ValueError that starts with `where` (e.g. "FILE: line 3")."""
    try:
        return json.loads(text.decode("utf-8") if isinstance(text, (bytes, bytearray)) else text)
    except RecursionError:
        raise ValueError(f"{where}: not valid JSON (nested too deeply)") from None
    except UnicodeDecodeError as e:
        raise ValueError(f"{where}: not valid JSON (not UTF-8 text: {e.reason} at byte {e.start})") from None
    except ValueError as e:  # JSONDecodeError, and numbers with too many digits
        raise ValueError(f"{where}: not valid JSON ({e})") from None


def finite(value):
    """`value` with every float that is NaN or infinite (in dicts, lists and tuples) replaced by None:
    "not computed", which JSON can say."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def dumps(value, **kwargs) -> str:
    """json.dumps that refuses NaN and infinities (ValueError) instead of writing what is not JSON."""
    return json.dumps(value, allow_nan=False, **kwargs)


def make_folder(path) -> str:
    """Makes the folder `path` (and its parents) unless it is there; ValueError if a file has its name."""
    path = os.fspath(path)
    if os.path.exists(path) and not os.path.isdir(path):
        raise ValueError(f"{path!r} is a file, not a folder")
    os.makedirs(path, exist_ok=True)
    return path


def write_atomic(path, text: str, newline: str | None = None) -> None:
    """Writes `text` to `path` whole (replace_whole)."""
    def write(tmp):
        with open(tmp, "w", newline=newline) as f:
            f.write(text)

    replace_whole(path, write)


def save_figure(fig, path, **kwargs) -> None:
    """fig.savefig(path) whole (replace_whole), in the format of path's extension."""
    path = os.fspath(path)
    replace_whole(path, lambda tmp: fig.savefig(tmp, format=os.path.splitext(path)[1][1:] or None, **kwargs))


def replace_whole(path, write) -> None:
    """write(tmp) makes PATH.tmp-PID, which is then renamed over `path`: a reader or a stopped run never sees
    half a file, and a file hard-linked from elsewhere is not written through. A failure removes the
    temporary file and leaves `path` as it was."""
    path = os.fspath(path)
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def copy_atomic(source, path) -> None:
    """Copies a (text) file this package wrote, a weight file, to `path` whole."""
    write_atomic(path, read_text(source).decode("utf-8"))
