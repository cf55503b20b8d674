#!/usr/bin/env python3
"""Fails on citations of documents this repository does not have.

A comment or document may cite `docs/<file>.md` (with `§N` or `, "Heading"` when it names a
section), the README by heading, an RFC, a man page, or a public source by name. It may not cite
keys of a document kept outside the repository (`[A-ENT]`, `AND-CONF`, `OBSERVED`, ...) or a
path outside it: a reader of the repository cannot follow those.

A Markdown page's code spans that name the repository's own files must name files it has:
`Sources/...`, `Tests/...` and the other top-level folders as they stand, a path below a target
(`AASALoop/Loop/EventLoop.swift`), and any other `.swift`, `.py` or `.sh` name by its tail
(`Loop/EventLoop.swift`: some file's path must end so; a bare file name is not checked), so a doc cannot name a file at a path
it left.

Usage: check-citations.py [ROOT]   (ROOT defaults to the repository holding this script)
Prints `file:line: citation: why` for each finding; exit 1 when there is one.
"""

import functools
import os
import re
import sys

SCANNED = ["Sources", "Tests", "Fuzz", "bench", "docs", "docker", "README.md", "Makefile", "Package.swift"]
SKIPPED_DIRS = {".build", "Corpus", "Dictionaries", "__pycache__"}
TEXT_SUFFIXES = {
    ".swift", ".h", ".c", ".md", ".py", ".sh", ".json", ".yml", ".yaml", ".txt", ".modulemap", ".service", "",
}

RULE = (
    "cite docs/<file>.md that exists (with §N or a heading), README by heading, an RFC, a man page, "
    "or a public source by name"
)

# Keys of the outside reference list: a source class (A Apple, AND Android, C community,
# G Google, M other vendors, T third-party tools) and an upper-case name, e.g. A-ARCH-UL.
KEY = re.compile(r"(?<![\w-])(?:A|AND|C|G|M|T)-[A-Z]{2,}[A-Z0-9]*(?:-[A-Z0-9]+)*(?![\w-])")
# The outside document's markers for how settled a point is.
MARKER = re.compile(r"\b(?:OBSERVED|UNCERTAIN)\b")
OUTSIDE = re.compile(r"\.\./shared\b|(?<![\w/-])(?:aasa-spec|product|server-engineering-notes)\.md\b")
DOC = re.compile(r'(?<![\w./-])docs/([A-Za-z0-9_-]+\.md)(?:(?: ?§([0-9]+(?:\.[0-9]+)*))|,? "([^"]+)")?')
README = re.compile(r'\bREADME(?:\.md)?,? "([^"]+)"')
LINK = re.compile(r"\]\(([^)\s#]+\.md)(?:#[^)]*)?\)")
# A code span holding one relative path (no spaces, wildcards or placeholders).
CODE_PATH = re.compile(r"`([A-Za-z0-9_.+-]+(?:/[A-Za-z0-9_.+-]+)*/?)`")
TOP_FOLDERS = ("Sources/", "Tests/", "Config/", "docker/", "bench/", "scripts/", "certs/", "Fuzz/", ".ci/")
SOURCE_SUFFIXES = (".swift", ".py", ".sh")


@functools.lru_cache(maxsize=None)
def repository_paths(root):
    """Every file and folder below the scanned tops, relative to `root`, folders with a `/`."""
    paths = set()
    for top in [folder.rstrip("/") for folder in TOP_FOLDERS] + ["docs"]:
        for folder, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = [name for name in dirs if name not in {".build", "__pycache__"}]
            relative = os.path.relpath(folder, root)
            paths.add(relative + "/")
            paths.update(os.path.join(relative, name) for name in names)
    return frozenset(paths)


@functools.lru_cache(maxsize=None)
def targets(root):
    return frozenset(os.listdir(os.path.join(root, "Sources"))) if os.path.isdir(os.path.join(root, "Sources")) else frozenset()


def missing_path(root, token):
    """Why `token` names no file or folder of the repository, or None when it does (or is not one of ours)."""
    paths = repository_paths(root)
    tail = "/" in token and any(path.endswith("/" + token) for path in paths)
    if token.startswith("certs/acme"):
        return None  # made at run time by ACME (docs/acme.md, "Automatic certificates")
    if token.startswith(TOP_FOLDERS):
        return None if token in paths or token + "/" in paths or tail else "no such path"
    head = token.split("/", 1)[0]
    if "/" in token and head in targets(root):
        below = "Sources/" + token
        return None if below in paths or below + "/" in paths or below.rstrip("/") in paths else "no such path below Sources/"
    if "/" in token and token.endswith(SOURCE_SUFFIXES):
        return None if tail else "no file ends so"
    return None


@functools.lru_cache(maxsize=None)
def headings(path):
    """The Markdown headings of `path` without their `#`s (none in fenced code)."""
    found = []
    try:
        with open(path, encoding="utf-8") as handle:
            fenced = False
            for line in handle:
                if line.startswith("```"):
                    fenced = not fenced
                elif not fenced and line.startswith("#"):
                    found.append(line.lstrip("#").strip())
    except OSError:
        pass
    return tuple(found)


def has_heading(path, name):
    """A heading that starts with `name`, ignoring case (`"Patterns"` names `Patterns (observed)`)."""
    return any(heading.lower().startswith(name.lower()) for heading in headings(path))


def has_section(path, number):
    """A numbered heading `N.` or `N.M` (`## 2. Components` is §2)."""
    return any(re.match(re.escape(number) + r"\.?(\s|$)", heading) for heading in headings(path))


def findings(root, relative, text):
    is_markdown = relative.endswith(".md")
    for number, line in enumerate(text.splitlines(), 1):
        for match in KEY.finditer(line):
            yield number, match.group(0), "a key of a document outside the repository"
        for match in MARKER.finditer(line):
            yield number, match.group(0), "a marker of a document outside the repository"
        for match in OUTSIDE.finditer(line):
            yield number, match.group(0), "a path outside the repository"
        for match in DOC.finditer(line):
            name, section, heading = match.groups()
            path = os.path.join(root, "docs", name)
            if not os.path.isfile(path):
                yield number, "docs/" + name, "no such file in docs/"
            elif section and not has_section(path, section):
                yield number, match.group(0), "no section " + section + " in docs/" + name
            elif heading and not has_heading(path, heading):
                yield number, match.group(0), "no such heading in docs/" + name
        for match in README.finditer(line):
            if not has_heading(os.path.join(root, "README.md"), match.group(1)):
                yield number, match.group(0), "no such heading in README.md"
        if is_markdown:
            for match in CODE_PATH.finditer(line):
                why = missing_path(root, match.group(1))
                if why:
                    yield number, match.group(1), f"a path the repository does not have ({why})"
            for match in LINK.finditer(line):
                target = match.group(1)
                if "://" in target:
                    continue
                if not os.path.isfile(os.path.normpath(os.path.join(root, os.path.dirname(relative), target))):
                    yield number, target, "a link to a file the repository does not have"


def files(root):
    for entry in SCANNED:
        top = os.path.join(root, entry)
        if os.path.isfile(top):
            yield entry
        for folder, dirs, names in os.walk(top):
            dirs[:] = sorted(name for name in dirs if name not in SKIPPED_DIRS)
            for name in sorted(names):
                if os.path.splitext(name)[1] in TEXT_SUFFIXES:
                    yield os.path.relpath(os.path.join(folder, name), root)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    count = 0
    for relative in files(root):
        try:
            with open(os.path.join(root, relative), encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError):
            continue
        for number, citation, why in findings(root, relative, text):
            print(f"{relative}:{number}: {citation}: {why}")
            count += 1
    if count:
        print(f"{count} citation(s) of documents the repository does not have; {RULE}.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
