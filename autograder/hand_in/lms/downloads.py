"""An LMS's bulk download of a class's hand-ins (Canvas, Moodle), as the .zip the LMS gave or unpacked into a
folder: file names carry the student id, and one student's files are grouped into one hand-in, its uploads
merged when it is read. Nothing but names is read here: each hand-in is read when its turn comes."""

from __future__ import annotations

import contextlib
import re
import zipfile
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from pathlib import Path, PurePosixPath

from autograder.hand_in import bounded, loading
from autograder.hand_in.hand_in_limits import HandInLimits
from autograder.hand_in.lms import names, times
from autograder.hand_in.lms.found import DiscoveryError, Download, Found, Reader, Reading, student_id
from autograder.hand_in.lms.uploads import UploadConflict, Uploads, merged_uploads, unpacked
from autograder.hand_in.loaded import LoadedHandIn


def read_folder(folder: Path, entries: list[Path], lms: str, roster: set[str] | None) -> Download:
    """An unpacked download, its ``entries`` read in ``lms``'s shape; ``roster``: its ids, where there is one."""
    usable = [entry for entry in entries if not entry.is_symlink()]
    unfit: list[str] = []
    ambiguous: dict[str, list[Reading]] = {}
    groups, late = names.groups([(entry.name, entry.name) for entry in usable], lms, unfit, ambiguous, roster)
    ignored = [entry.name for entry in entries if entry.is_symlink()]

    def loader(student: str, members: dict[str, str]) -> Reader:
        return _group_loader(folder, student, [(folder / name, original) for name, original in members.items()])

    def timer(members: dict[str, str]) -> times.FileTime:
        return times.newest_time([folder / name for name in members])

    candidates = _candidates(folder, lms, groups, late, loader, timer)
    return Download(names.lms_layout(lms), candidates, ignored, lms=lms, unfit=unfit, ambiguous=ambiguous)


def read_zip(archive_path: Path, roster: set[str] | None) -> Download:
    """A download as the LMS's .zip; ``roster``: its ids, where there is one."""
    try:
        with zipfile.ZipFile(archive_path) as archive:
            infos = [info for info in archive.infolist() if not info.is_dir()]
            member_names = [info.filename for info in infos]
    except zipfile.BadZipFile:
        raise DiscoveryError(f"{archive_path}: is not a valid .zip; download it from the LMS again") from None
    except OSError as error:
        raise DiscoveryError(f"{archive_path}: cannot be read ({error.strerror}); check its permissions") from None
    heads = sorted({PurePosixPath(name).parts[0] for name in member_names})
    lms = names.lms_pattern(heads, archive_path)
    if lms is None:
        raise DiscoveryError(
            f"{archive_path}: its file names carry no student ids (Canvas or Moodle style); "
            "unzip it and give the folder instead"
        )
    unfit: list[str] = []
    ambiguous: dict[str, list[Reading]] = {}
    items = [(name, PurePosixPath(name).parts[0]) for name in member_names]
    groups, late = names.groups(items, lms, unfit, ambiguous, roster)

    def loader(student: str, members: dict[str, str]) -> Reader:
        return _zip_group_loader(archive_path, student, members)

    candidates = _candidates(
        archive_path, lms, groups, late, loader, times.newest_member_time(infos), times.downloaded(archive_path)
    )
    return Download(f"LMS bulk download (.zip, {lms})", candidates, lms=lms, unfit=unfit, ambiguous=ambiguous)


def _candidates(
    source: Path,
    lms: str,
    groups: names.Groups,
    late: set[tuple[str, str]],
    loader: Callable[[str, dict[str, str]], Reader],
    timer: Callable[[dict[str, str]], times.FileTime],
    downloaded: datetime | None = None,
) -> list[Found]:
    """One hand-in per (id, name) group; an id written under two names is two hand-ins, each saying its name, so
    that the batch lists both as the student's to choose between and merges neither into the other."""
    slugs: dict[str, int] = defaultdict(int)
    for student, _ in groups:
        slugs[student] += 1
    return [
        Found(
            student_id(student),
            f"{source} ({len(members)} file(s) of {student}"
            + (f", named {slug.replace('/', '_') or 'with no name'})" if slugs[student] > 1 else ")"),
            loader(student, members),
            slug.replace("_", " "),
            late=(student, slug) in late,
            lms=lms,
            file_time=timer(members),
            downloaded=downloaded,
        )
        for (student, slug), members in groups.items()
    ]


def _group_loader(folder: Path, student: str, members: list[tuple[Path, str]]) -> Reader:
    """Each upload is named as the download names it, in messages and in a choice between two."""

    def load(limits: HandInLimits, chosen: Mapping[str, str]) -> LoadedHandIn:
        uploads: Uploads = []
        for path, original in members:
            if path.is_dir():  # Moodle's "one folder per student" option
                uploads.append((f"{path.name}/", loading.load(path, limits, chosen=chosen).files))
            elif path.suffix.lower() == ".zip":
                uploads.append((path.name, bounded.read_zip(path, limits=limits)))
            else:
                try:
                    uploads.append((path.name, {original or path.name: path.read_bytes()}))
                except OSError as error:
                    raise bounded.HandInError(
                        f"{path}: cannot be read ({error.strerror}); check its permissions"
                    ) from None
        files = merged_uploads(_uploads_of(folder, student), uploads, limits, chosen=chosen)
        with _named_as_downloaded(folder / student, _where_uploads_are(folder, student, [p.name for p, _ in members])):
            return loading.from_files(folder / student, files, name=student, limits=limits)

    return load


def _zip_group_loader(archive_path: Path, student: str, members: dict[str, str]) -> Reader:
    """Each upload is named as the download names it (its member's name), in messages and in a choice
    between two; inside the hand-in it has the name the student gave it (``members``)."""

    def load(limits: HandInLimits, chosen: Mapping[str, str]) -> LoadedHandIn:
        held = bounded.read_zip(archive_path, rename=lambda name: name if name in members else None, limits=limits)
        where = _where_uploads_are(archive_path, student, list(members), inside=True)
        with _named_as_downloaded(archive_path.parent / student, where):
            uploads = []
            for item, content in held.items():  # an upload is named by its member's name, inside the .zip
                with _named_as_downloaded(Path(item), _where_uploads_are(archive_path, student, [item], inside=True)):
                    uploads.append((item, unpacked(Path(item), members[item], content, limits)))
            files = merged_uploads(_uploads_of(archive_path, student), uploads, limits, chosen=chosen)
            return loading.from_files(archive_path.parent / student, files, name=student, limits=limits)

    return load


def _uploads_of(download: Path, student: str) -> str:
    """How messages name one student's uploads in an LMS download: the download as it is on disk, and the
    student, never a path that looks like one on disk but is inside the download."""
    return f"{download}, student {student}"


def _where_uploads_are(download: Path, student: str, uploads: list[str], *, inside: bool = False) -> str:
    """A student's uploads as the instructor has them: the one upload's own path in an unpacked download, else the
    download (``inside``: the .zip) and the uploads' names there."""
    if len(uploads) == 1 and not inside:
        return str(download / uploads[0])
    return f"{download}, {student}'s upload{'s' if len(uploads) > 1 else ''} {', '.join(sorted(uploads))}"


@contextlib.contextmanager
def _named_as_downloaded(stand_in: Path, where: str) -> Iterator[None]:
    """A hand-in of an LMS download is read as if it were the folder ``stand_in``, which is not on disk: its
    HandInError names ``where`` (the uploads as the download has them) in its place."""
    try:
        yield
    except (UploadConflict, _Named):
        raise  # names the download and the uploads already (an UploadConflict is the instructor's choice too)
    except bounded.HandInError as error:
        inner = re.compile(r"(?<![\w./-])" + re.escape(str(stand_in)) + r"(?:/(?P<folder>[^\s:;,]+))?(?=:)")
        said = inner.sub(lambda found: where + (f", folder {found['folder']}/" if found["folder"] else ""), str(error))
        raise _Named(said) from None


class _Named(bounded.HandInError):
    """A HandInError that names the uploads as the download has them already."""
