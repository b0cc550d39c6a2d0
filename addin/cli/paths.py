"""The rules every ``napkin`` subcommand shares for its files, and its errors.

* IN must be a regular file (a symbolic link is followed); folders, devices and pipes
  are refused (``check_input``).
* OUT must end in ``.xlsx`` or ``.xlsm`` (the same as IN's), and be a new path or a
  regular file. A symbolic link is followed: the file it points to is written and the
  link stays. Folders, devices, pipes and a folder that does not exist are refused
  (``check_output``).
* ``--in-place`` writes over IN (its link target, for a link), keeping ``IN.bak``
  (``add_in_out``, ``in_out``).

A problem the user can fix is a ``CliError`` whose message is one sentence with the
fix; ``napkin`` prints it and exits with its ``code``.
"""

from __future__ import annotations

import argparse
import difflib
import errno
import os
import stat
from pathlib import Path

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")

EXIT_OK, EXIT_FILE, EXIT_USAGE, EXIT_BENCH_MISS = 0, 1, 2, 3
#: napkin calc (strict): computed and written, some cells keeping the values Excel saved
EXIT_KEPT = 4


# --------------------------------------------------------------------------- errors


class CliError(Exception):
    """A problem the user can fix; the message is one sentence with the fix."""

    code = EXIT_FILE


class UsageError(CliError):
    """The command line itself is wrong (exit 2, as argparse's own errors)."""

    code = EXIT_USAGE


_OS_FIX = {
    errno.EACCES: "check its permissions, or choose another path",
    errno.EPERM: "check its permissions, or choose another path",
    errno.ENOSPC: "free some disk space and run again",
    errno.EROFS: "that file system is read-only: choose another path",
    errno.ENOENT: "check the path",
    errno.EISDIR: "give the path of a file, not a folder",
    errno.ENOTDIR: "a part of the path is a file, not a folder: check the path",
    errno.EDQUOT: "your disk quota is full: free some space and run again",
    errno.ENAMETOOLONG: "choose a shorter name",
}


def os_message(exc: OSError) -> str:
    """An OSError as one sentence: the file, what went wrong, what to do."""
    what = (exc.strerror or "input/output error").rstrip(".")
    what = what[0].lower() + what[1:] if what else what
    name = f"{exc.filename}: " if exc.filename else ""
    fix = _OS_FIX.get(exc.errno, "check the path and run again")
    return f"{name}{what}; {fix}"


# --------------------------------------------------------------------------- paths


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_input(path, what: str = "IN") -> Path:
    """The regular file ``path`` names (a symbolic link followed), or CliError."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        if p.is_symlink():
            raise CliError(f"{p} is a symbolic link to {os.readlink(p)}, which does not "
                           "exist: fix the link or give the workbook itself") from None
        near = _near_names(p)
        hint = f": did you mean {near}?" if near else ": check the name and the folder"
        raise CliError(f"{p} does not exist{hint}") from None
    except OSError as exc:
        raise CliError(os_message(OSError(exc.errno, exc.strerror, str(p)))) from None
    if not stat.S_ISREG(st.st_mode):
        fix = ("give the path of a workbook inside it" if stat.S_ISDIR(st.st_mode)
               else "napkin reads workbooks from regular files only")
        raise CliError(f"{p} is {_kind(st.st_mode)}, not a workbook: {fix}")
    if not os.access(p, os.R_OK):
        raise CliError(f"{p}: permission denied; check its permissions")
    return p


def _near_names(p: Path) -> str | None:
    try:
        names = [q.name for q in p.parent.iterdir()] if p.parent.is_dir() else []
    except OSError:
        return None
    close = difflib.get_close_matches(p.name, names, n=1, cutoff=0.75)
    return str(p.with_name(close[0])) if close else None


def check_output(path, suffixes=WORKBOOK_SUFFIXES, what: str = "OUT") -> Path:
    """The path to write for ``path``: itself, or the target of a symbolic link. Refuses
    (CliError) a wrong suffix (exit 2), folders, devices, pipes, a dangling link and a
    folder that does not exist (exit 1)."""
    p = Path(path)
    real = p
    if p.is_symlink():
        real = Path(os.path.realpath(p))
        if not real.exists():
            raise CliError(f"{p} is a symbolic link to {real}, which does not exist: "
                           "fix the link, or give another path")
    try:
        st = real.stat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise CliError(os_message(OSError(exc.errno, exc.strerror, str(p)))) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        fix = (f"give the path of a file inside it, e.g. {p / ('out' + (suffixes or ('',))[0])}"
               if stat.S_ISDIR(st.st_mode) else "napkin writes only regular files: "
               "give another path")
        raise CliError(f"{p} is {_kind(st.st_mode)}: {fix}")
    if suffixes and p.suffix.lower() not in suffixes:
        names = " or ".join(suffixes)
        example = (p.stem or "out") + suffixes[0]
        raise UsageError(f"{p}: {what} must be named {names}, since napkin writes an Excel "
                         f"workbook there (for example -o {example})")
    parent = real.parent
    if not parent.exists():
        raise CliError(f"the folder {parent} does not exist: create it first "
                       f"(mkdir -p '{parent}') or choose another path")
    if not parent.is_dir():
        raise CliError(f"{parent} is not a folder: check the path of {what}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CliError(f"cannot write in the folder {parent}: permission denied; "
                       "choose another folder")
    return real


def add_in_out(p: argparse.ArgumentParser, verb: str = "write the result") -> None:
    """IN.xlsx, then either ``-o OUT.xlsx`` or ``--in-place`` (checked by ``in_out``)."""
    p.add_argument("input", metavar="IN.xlsx", help="the workbook to read (.xlsx or .xlsm)")
    p.add_argument("-o", "--output", metavar="OUT.xlsx",
                   help=f"{verb} to this new workbook (same suffix as IN; a link is "
                        "followed to its target); IN is never changed")
    p.add_argument("--in-place", action="store_true",
                   help=f"{verb} over IN itself, keeping a copy as IN.bak")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bar and no summary line (errors are still printed)")


def in_out(args) -> tuple[Path, Path, bool]:
    """(IN, OUT, in_place) checked: IN readable, OUT writable (see ``check_output``)."""
    if bool(args.in_place) == bool(args.output):
        both = "not both" if args.in_place else "one of them"
        raise UsageError(f"give either -o OUT.xlsx or --in-place ({both}): "
                         f"napkin {args.command} {args.input} -o OUT.xlsx")
    src = check_input(args.input)
    if args.in_place:
        real = Path(os.path.realpath(src))
        check_output(real, suffixes=(), what="IN")
        return real, real, True
    dst = check_output(args.output)
    src_suffix = src.suffix.lower()
    if src_suffix in WORKBOOK_SUFFIXES and Path(args.output).suffix.lower() != src_suffix:
        raise UsageError(f"{args.output}: IN is {src_suffix} and Excel opens a workbook only "
                         f"under its own suffix: name OUT {src_suffix} "
                         f"(-o {Path(args.output).with_suffix(src_suffix).name})")
    if dst.exists() and os.path.samefile(src, dst):
        raise UsageError(f"{args.output} is IN itself: to write over it, use --in-place "
                         "(which keeps IN.bak), or give another -o")
    return src, dst, False


def written(src: Path, dst: Path, in_place: bool) -> str:
    return f"{dst} (was kept as {dst.name}.bak)" if in_place else str(dst)


def atomic_path(dst: Path) -> Path:
    """A temporary name beside ``dst`` for a writer that cannot write atomically itself;
    ``os.replace`` it over ``dst`` when done."""
    import secrets

    return dst.with_name(f".{dst.stem}.{secrets.token_hex(6)}.tmp{dst.suffix}")

