"""Packs: a folder of missions as one file to share (a zip, ``.kakapo`` by custom): its missions, the
catalog they were made with, the campaign measured for it (``difficulty.json``) and a README.

A pack comes from someone else, so it is read as an untrusted file: the file's size, the number
of members, each member's size (declared and actually read) and the total are limited; a member
with an absolute name, ``..``, a folder, a link, anything but a plain file, a name given twice
(in any case), an encrypted one or a kind a pack does not hold is refused, naming the member,
before anything is used. Reading a pack writes nothing: its files are held in memory. A folder
reads into the same form (``MissionFolder``), so that what takes a folder of missions takes a
pack through one door (``read_missions_folder``).
"""

from __future__ import annotations

import io
import re
import stat
import struct
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

from solver.core.errors import InputError
from solver.core.text import clean
from solver.io.catalog import is_catalog_text
from solver.io.safefiles import MAX_FILE_BYTES, UnsafeTarget, megabytes, read_plain_file, read_regular

PACK_SUFFIX = ".kakapo"
MAX_PACK_BYTES = 8_000_000  # the pack file itself (a hundred missions take some tens of kilobytes)
MAX_MEMBERS = 500  # files in a pack
MAX_TOTAL_BYTES = 16_000_000  # every member together, uncompressed
MAX_DIRECTORY_BYTES = MAX_MEMBERS * 400  # the zip's central directory (what zipfile parses whole on opening)
README = "README.md"
DIFFICULTY = "difficulty.json"
NAME = re.compile(r"^\w[\w .+-]{0,119}$")  # a plain file name (letters of any script, digits, _ . - + space)
ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
FIX = "ask for the pack again, or make it with kakapo pack DIR --out FILE"
_EOCD = struct.Struct("<4s4H2LH")  # the zip's end record: signature, disks, entries, directory size/offset, comment


@dataclass(frozen=True)
class FolderFile:
    """One file of a folder or pack: its plain name, its bytes, and how messages name it
    (``club.kakapo/m03.toml``)."""

    name: str
    data: bytes
    label: str

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")

    @property
    def stem(self) -> str:
        return Path(self.name).stem


@dataclass(frozen=True)
class MissionFolder:
    """A folder of missions or a pack, read: its ``.toml`` files (missions and catalogs, by what
    they hold), its ``difficulty.json`` and README, if any."""

    where: str  # the folder or pack as the user named it
    pack: bool
    files: tuple[FolderFile, ...]  # sorted by name
    difficulty: FolderFile | None = None
    readme: FolderFile | None = None

    @property
    def missions(self) -> list[FolderFile]:
        return [f for f in self.files if not is_catalog_text(f.text)]

    @property
    def catalogs(self) -> list[FolderFile]:
        return [f for f in self.files if is_catalog_text(f.text)]

    def file(self, name: str) -> FolderFile | None:
        return next((f for f in self.files if f.name == name), None)

    def mission(self, ref: str) -> FolderFile | None:
        """A mission by its id or file name."""
        return next((f for f in self.missions if ref in (f.name, f.stem)), None)


# ---------------------------------------------------------------- what a path is
def looks_like_zip(path: Path) -> bool:
    """A plain file that begins as a zip does (or ends in .kakapo): read as a pack."""
    try:
        if path.suffix.lower() == PACK_SUFFIX and path.is_file():
            return True
        if not path.is_file():
            return False
        with path.open("rb") as f:
            return f.read(4) in ZIP_MAGIC
    except OSError:
        return False


def pack_member(arg: str | Path) -> tuple[Path, str] | None:
    """``PACK/ID`` (a mission inside a pack, by its id or file name): the pack and the member's
    reference; None when ``arg`` names no such thing (it is then a file or an id as before)."""
    p = Path(arg)
    if p.exists() or p.parent == p or str(p.parent) in ("", "."):
        return None
    if looks_like_zip(p.parent):
        return p.parent, p.name
    return None


# ---------------------------------------------------------------- reading a pack
def read_pack(path: str | Path) -> MissionFolder:
    """The pack at ``path``, every member checked (InputError naming the member otherwise)."""
    p = Path(path)
    try:
        data = read_plain_file(p.parent if str(p.parent) else Path("."), p.name, MAX_PACK_BYTES)
    except FileNotFoundError:
        raise InputError(str(path), "pack not found", "check the path") from None
    except UnsafeTarget as e:
        why = f"over {megabytes(MAX_PACK_BYTES)}, larger than any pack of missions" \
            if e.errno == 27 else e.strerror  # EFBIG
        raise InputError(str(path), f"not read: {why}", "give the pack file itself") from None
    except OSError as e:
        raise InputError(str(path), f"cannot read it ({e.strerror or e})", "give a pack file you can read") from None
    return read_pack_bytes(data, str(path))


def read_pack_bytes(data: bytes, where: str) -> MissionFolder:
    """A pack from its bytes (a file, or a studio's upload named ``where``)."""
    if len(data) > MAX_PACK_BYTES:
        raise InputError(where, f"the pack has {len(data)} bytes, over the limit of {megabytes(MAX_PACK_BYTES)}",
                         "share the missions in smaller packs")
    _check_directory(data, where)
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as e:
        raise InputError(where, f"not a pack: not a zip file ({e})", FIX) from None
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_MEMBERS:
            raise InputError(where, f"the pack has {len(infos)} files, over the limit of {MAX_MEMBERS}", FIX)
        seen: dict[str, str] = {}
        total = 0
        for info in infos:
            name = _check_member(info, where)
            key = unicodedata.normalize("NFC", name).casefold()
            if key in seen:
                raise InputError(where, f"member {_shown(info.filename)}: the name is there twice (also "
                                 f"{_shown(seen[key])}); unpacked, one would replace the other", FIX)
            seen[key] = info.filename
            total += info.file_size
            if total > MAX_TOTAL_BYTES:
                raise InputError(where, f"member {_shown(info.filename)}: the files together are over "
                                 f"{megabytes(MAX_TOTAL_BYTES)} unpacked, more than any pack of missions", FIX)
        files, difficulty, readme = [], None, None
        read_total = 0
        for info in infos:
            body = _read_member(zf, info, where)
            read_total += len(body)
            if read_total > MAX_TOTAL_BYTES:  # the declared sizes lied
                raise InputError(where, f"member {_shown(info.filename)}: the files together are over "
                                 f"{megabytes(MAX_TOTAL_BYTES)} unpacked", FIX)
            item = FolderFile(info.filename, body, f"{where}/{info.filename}")
            if info.filename == DIFFICULTY:
                difficulty = item
            elif info.filename == README:
                readme = item
            else:
                files.append(item)
    return MissionFolder(where, True, tuple(sorted(files, key=lambda f: f.name)), difficulty, readme)


def _shown(name: str) -> str:
    return repr(clean(name)[:80])


def _check_directory(data: bytes, where: str) -> None:
    """Before zipfile parses the central directory whole: its size and entry count are a pack's."""
    tail = data[-(_EOCD.size + 65_535):]
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < _EOCD.size:
        raise InputError(where, "not a pack: not a zip file (no end record)", FIX)
    _, _, _, _, entries, size, _, _ = _EOCD.unpack_from(tail, at)
    if entries == 0xFFFF or size == 0xFFFFFFFF or b"PK\x06\x07" in tail[max(0, at - 20):at]:
        raise InputError(where, "not a pack: a zip64 archive (a pack of missions is never that large)", FIX)
    if entries > MAX_MEMBERS or size > MAX_DIRECTORY_BYTES:
        raise InputError(where, f"the pack lists {entries} files, over the limit of {MAX_MEMBERS}", FIX)


def _check_member(info: zipfile.ZipInfo, where: str) -> str:
    name = info.filename
    parts = re.split(r"[/\\]", name)

    def refuse(problem: str, fix: str = FIX) -> InputError:
        return InputError(where, f"member {_shown(name)}: {problem}", fix)

    if name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name):
        raise refuse("an absolute name (it would be written outside the folder)")
    if ".." in parts:
        raise refuse("a name with '..' (it would be written outside the folder)")
    mode = info.external_attr >> 16
    if info.create_system == 3 and stat.S_ISLNK(mode):
        raise refuse("a symbolic link (a pack holds plain files only)")
    if info.is_dir() or len(parts) > 1:
        raise refuse("inside a folder: a pack's files lie at its top", "make the pack with kakapo pack DIR --out FILE")
    if info.create_system == 3 and stat.S_IFMT(mode) not in (0, stat.S_IFREG):  # 0: no type written (a file)
        raise refuse("not a plain file (a pack holds plain files only)")
    if not NAME.match(name) or name != clean(name) or name.endswith((" ", ".")):
        raise refuse("not a plain file name (letters, digits, spaces, _ . - +, not starting with a dot)")
    if name not in (DIFFICULTY, README) and not name.endswith(".toml"):
        raise refuse("not a mission or catalog (.toml), difficulty.json or README.md, which is all a pack holds")
    if info.flag_bits & 0x1:
        raise refuse("encrypted")
    if info.file_size > MAX_FILE_BYTES:
        raise refuse(f"{info.file_size} bytes, over the limit of {megabytes(MAX_FILE_BYTES)} a file "
                     "(a mission has a few hundred bytes)")
    return name


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, where: str) -> bytes:
    """The member's bytes, never more than the limit read whatever its header declares (a zip bomb)."""
    try:
        with zf.open(info) as f:
            body = f.read(MAX_FILE_BYTES + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, ValueError, OSError,
            EOFError) as e:
        raise InputError(where, f"member {_shown(info.filename)}: cannot be read ({e})", FIX) from None
    if len(body) > MAX_FILE_BYTES:
        raise InputError(where, f"member {_shown(info.filename)}: over the limit of "
                         f"{megabytes(MAX_FILE_BYTES)} a file once unpacked (its header said "
                         f"{info.file_size} bytes)", FIX)
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(where, f"member {_shown(info.filename)}: not UTF-8 text", FIX) from None
    return body


# ---------------------------------------------------------------- reading a folder
def scan_folder(path: str | Path, *, follow_links: bool = False) -> MissionFolder:
    """A folder's ``*.toml`` files, sorted by name, each a mission or a catalog by what it holds
    (``MissionFolder.missions`` and ``.catalogs``): the one scan of a folder that tells them apart,
    for every command, the studio and packs. Only regular files of at most MAX_FILE_BYTES are
    read (checked before reading: a FIFO is never waited on); a link is left out unless
    ``follow_links``; a file that cannot be read is left out."""
    folder = Path(path)
    files = []
    for p in sorted(folder.glob("*.toml")):
        try:
            data = read_regular(p, MAX_FILE_BYTES) if follow_links else read_plain_file(folder, p.name, MAX_FILE_BYTES)
        except OSError:
            continue  # a link, a FIFO, a folder, a file too large: not a file of the folder's missions
        files.append(FolderFile(p.name, data, str(p)))
    return MissionFolder(str(path), False, tuple(files))


def read_folder(path: str | Path) -> MissionFolder:
    """A folder's ``.toml`` files, ``difficulty.json`` and ``README.md`` (plain files of at most
    the member limit with plain names, UTF-8 text; links and anything else are left out), as a
    pack would hold them."""
    folder = Path(path)
    if not folder.is_dir():
        raise InputError(str(path), "not a folder", "give a folder of missions (or a pack)")
    files = tuple(f for f in scan_folder(folder).files if NAME.match(f.name) and _utf8(f.data))
    found = {}
    for name in (DIFFICULTY, README):
        try:
            data = read_plain_file(folder, name, MAX_FILE_BYTES)
        except OSError:
            continue
        if _utf8(data):
            found[name] = FolderFile(name, data, str(folder / name))
    return MissionFolder(str(path), False, files, found.get(DIFFICULTY), found.get(README))


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def read_missions_folder(path: str | Path) -> MissionFolder:
    """A folder of missions or a pack: what every command that takes a folder reads."""
    p = Path(path)
    return read_pack(p) if looks_like_zip(p) else read_folder(p)


# ---------------------------------------------------------------- writing a pack
def pack_bytes(files: list[FolderFile]) -> bytes:
    """The pack of ``files`` (plain names), the same bytes for the same files: sorted, with a fixed
    date, plain-file permissions."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for f in sorted(files, key=lambda f: f.name):
            info = zipfile.ZipInfo(f.name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            zf.writestr(info, f.data)
    return out.getvalue()
