"""The documents the code cites are in the repository, and say what the citations point at.

- Every citation ``<name>.md <number>`` (``docs/rules/eighty-three.md 4.6.3``, ``crazy-eights.md
  1.3-1.5, 2.2``) in ``server/``, ``tests/`` and ``client-protocol/`` names a file the clone
  holds; when that file is one of ``docs/`` (the rules, the architecture), every number cited
  is a numbered heading (``### 4.6 …``) or a numbered item under one (``3.`` under ``### 4.6``
  is 4.6.3) of that file.
- No file cites a path outside the repository: no ``../`` path that climbs above the
  repository's root, no absolute path into the machine the project was written on, no copy
  of the rules kept beside the repository.
- Every relative link of ``docs/`` and the README opens a file the clone holds.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CITING = ("server", "tests", "client-protocol")

#: ``name.md`` then numbers: ``1.3``, ``1.3-1.5``, ``4.6.3, 4.6.5`` (a list of numbers or ranges).
_NUMBER = r"\d+(?:\.\d+)*"
_NUMBERS = rf"{_NUMBER}(?:[-–]{_NUMBER})?(?:, {_NUMBER}(?:[-–]{_NUMBER})?)*"
CITATION = re.compile(rf"(?<![\w.-])((?:[\w.-]+/)*)([\w-]+\.md)(?:,)? (?:§ ?|section )?({_NUMBERS})\b")
#: ``../`` paths, resolved against the citing file's folder; a ``/`` before them makes a URL path.
UPWARD = re.compile(r"(?<![\w/.])((?:\.\./)+[\w.-][\w./-]*)")
#: Places outside the repository that earlier documents were cited from (built so that this
#: file does not cite them itself).
FORBIDDEN = ("/" + "work/", "shared" + "/rules", "../" + "shared")
LINK = re.compile(r"\]\(([^)\s]+)\)")


@cache
def tracked() -> tuple[Path, ...]:
    """The repository's files: tracked ones and new ones not ignored (a fresh clone has only the first)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):  # pragma: no cover - no git: walk the tree
        return tuple(p for p in ROOT.rglob("*") if p.is_file() and ".venv" not in p.parts and ".git" not in p.parts)
    return tuple(ROOT / name for name in out.split("\0") if name and (ROOT / name).is_file())


def text_of(path: Path) -> str | None:
    """The file's text, or None for a binary file (msgpack fixtures, images)."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode()
    except UnicodeDecodeError:
        return None


def numbers_in(markdown: str) -> set[str]:
    """The numbers a document defines: numbered headings, and numbered items under a numbered heading."""
    out: set[str] = set()
    section = ""
    for line in markdown.splitlines():
        heading = re.match(rf"#+\s+({_NUMBER})\.?\s", line)
        if heading:
            section = heading.group(1)
            out.add(section)
            continue
        if line.startswith("#"):
            section = ""
            continue
        item = re.match(r"(\d+)\.\s", line)
        if item and section:
            out.add(f"{section}.{item.group(1)}")
    return out


@cache
def doc_numbers() -> dict[str, set[str]]:
    """Each document of ``docs/`` by its path from the root, with the numbers it defines."""
    return {p.relative_to(ROOT).as_posix(): numbers_in(p.read_text()) for p in sorted(DOCS.rglob("*.md"))}


def resolve(prefix: str, name: str) -> str | None:
    """The document of ``docs/`` a citation names, by its path or (bare) by its file name."""
    docs = doc_numbers()
    if prefix:
        path = (prefix + name).lstrip("./")
        return path if path in docs else None
    matches = [p for p in docs if p.rsplit("/", 1)[-1] == name]
    return matches[0] if len(matches) == 1 else None


def citations() -> list[tuple[str, int, str, str, str]]:
    """``(file, line, prefix, name, numbers)`` for every citation under the citing folders."""
    found = []
    for path in tracked():
        rel = path.relative_to(ROOT).as_posix()
        if rel.split("/", 1)[0] not in CITING or "/vendor/" in rel:
            continue
        text = text_of(path)
        if text is None:
            continue
        for m in CITATION.finditer(text):
            found.append((rel, text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2), m.group(3)))
    return found


def test_there_are_citations_to_check() -> None:
    """The scan sees the engines' citations (a broken pattern would make the next test pass blind)."""
    names = {(prefix + name) for _, _, prefix, name, _ in citations()}
    assert {"docs/rules/crazy-eights.md", "docs/rules/kartu-terakhir.md", "docs/rules/eighty-three.md"} <= names
    assert len(citations()) > 50


def test_every_cited_number_exists_in_the_document_it_names() -> None:
    held = {p.name for p in tracked()}
    problems = []
    for rel, line, prefix, name, numbers in citations():
        doc = resolve(prefix, name)
        if doc is None:
            if prefix.startswith("docs/") or name not in held:
                problems.append(f"{rel}:{line}: {prefix}{name} is not a file of this repository")
            continue
        for number in re.findall(_NUMBER, numbers):
            if number not in doc_numbers()[doc]:
                problems.append(f"{rel}:{line}: {doc} has no {number}")
    assert not problems, "citations that point nowhere:\n" + "\n".join(problems)


def test_no_file_cites_a_path_outside_the_repository() -> None:
    problems = []
    for path in tracked():
        rel = path.relative_to(ROOT).as_posix()
        if path == Path(__file__).resolve():
            continue
        text = text_of(path)
        if text is None:
            continue
        for bad in FORBIDDEN:
            if bad in text:
                problems.append(f"{rel}:{text.count(chr(10), 0, text.index(bad)) + 1}: {bad!r}")
        for m in UPWARD.finditer(text):
            target = (path.parent / m.group(1)).resolve()
            if not target.is_relative_to(ROOT):
                problems.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(1)} leaves the repository")
    assert not problems, "paths outside the repository:\n" + "\n".join(problems)


@pytest.mark.parametrize("doc", ["README.md", *sorted(doc_numbers())])
def test_every_relative_link_opens_a_file_of_the_repository(doc: str) -> None:
    path = ROOT / doc
    broken = []
    for m in LINK.finditer(path.read_text()):
        target = m.group(1).split("#", 1)[0]
        if not target or re.match(r"[a-z]+:", target):
            continue  # an anchor in the same page, or a web address
        if not (path.parent / target).resolve().exists():
            broken.append(target)
    assert not broken, f"{doc}: links to nothing: {broken}"


def test_the_number_parser_sees_headings_and_items() -> None:
    """What the citation test relies on, on a small document."""
    doc = "# Title\n\n## 4. Game\n\n### 4.6 Kitty\n1. one\n2. two\n   3. nested, not an item\n### Notes\n1. none\n"
    assert numbers_in(doc) == {"4", "4.6", "4.6.1", "4.6.2"}


def test_the_docs_index_lists_every_page() -> None:
    """docs/README.md is the table of ``docs/``: every page there (and the rules' folder) is linked
    from it, so a page added without a line in the table fails here (talk.md once was missing)."""
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    linked = {target.split("#")[0] for target in LINK.findall(index)}
    pages = {p.name for p in DOCS.glob("*.md") if p.name != "README.md"}
    missing = sorted(page for page in pages if page not in linked)
    assert not missing, f"docs/README.md does not list: {missing}"
    assert "rules/README.md" in linked
