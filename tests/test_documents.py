"""The repository explains itself: the rules it cites are its own document (docs/rules.md), every
section the code, the tests and the documents cite exists there, and nothing points outside the
repository for them."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
DOCS = ROOT / "docs"
#: the kinds of file that cite the rules
CITING = (".py", ".md", ".json", ".toml", ".sh", ".js", ".html")


def tracked() -> list[Path]:
    """The repository's own text files: git's list (no virtual environment, no build output), or
    every file outside hidden and cache folders where there is no git."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        listing = [
            str(path.relative_to(ROOT))
            for path in ROOT.rglob("*")
            if not any(
                part.startswith(".") or part == "__pycache__"
                for part in path.relative_to(ROOT).parts
            )
        ]
    return [ROOT / name for name in listing if name.endswith(CITING)]


def sections(text: str) -> set[str]:
    """The section numbers of the rules: «## 1. …» is 1, «### 4.2 …» is 4.2."""
    return set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", text, re.M))


def cited(text: str) -> set[str]:
    """Every section a text cites: «§4.2», «§1–§3» (both ends), «§1.2–§1.5»."""
    return set(re.findall(r"§(\d+(?:\.\d+)?)", text))


def test_the_rules_have_their_sections() -> None:
    numbers = sections(RULES.read_text(encoding="utf-8"))
    assert {"1", "1.1", "1.5", "2", "3", "4", "4.4", "5"} <= numbers


def test_every_section_cited_exists_in_the_rules() -> None:
    numbers = sections(RULES.read_text(encoding="utf-8"))
    missing = {}
    for path in tracked():
        if path == RULES or not path.exists():
            continue
        unknown = cited(path.read_text(encoding="utf-8")) - numbers
        if unknown:
            missing[str(path.relative_to(ROOT))] = sorted(unknown)
    assert not missing, f"sections cited but not in docs/rules.md: {missing}"


def test_the_section_check_can_fail() -> None:
    made_up = "docs/rules.md " + "\N{SECTION SIGN}9.9"  # spelt so this file cites no such section
    assert cited(made_up + ", and §1–§3") == {"9.9", "1", "3"}
    assert "9.9" not in sections(RULES.read_text(encoding="utf-8"))


def test_nothing_points_outside_the_repository_for_the_rules() -> None:
    outside = re.compile(r"RULES\.md|\.\./shared|DESIGN\.md|STYLE\.md")
    found = [
        str(path.relative_to(ROOT))
        for path in tracked()
        if path.exists() and outside.search(path.read_text(encoding="utf-8"))
    ]
    assert not found, f"these cite documents outside the repository: {found}"


#: how a file names a tracker's issue: the word issue, item or defect and a number (this file,
#: whose examples match, is left out of the search)
TRACKER = re.compile(r"(?i)\b(?:issues? ?#?|items? |defects? )\d+")


def test_no_file_names_an_issue_number() -> None:
    """History lives in git: a file says what it means, not which issue asked for it."""
    found = {}
    for path in tracked():
        if not path.exists() or path == Path(__file__).resolve():
            continue
        hits = TRACKER.findall(path.read_text(encoding="utf-8"))
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    assert not found, f"rewrite these to say what is meant: {found}"


def test_the_issue_number_check_can_fail() -> None:
    for text in ("(issue 13)", "Issues 5 and 6", "issue #4", "item 7", "Defect 15"):
        assert TRACKER.search(text), text
    assert not TRACKER.search("an issue of the day, three items, a point")


def walked_path() -> list[tuple[str, list[str]]]:
    """The button press's path in docs/architecture.md: each line's file and the functions it
    names there («Presenter.press / show» is ``Presenter.press`` and ``show``)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## One button press", 1)[1]
    block = section.split("```", 2)[1]
    path = []
    for line in block.strip().splitlines():
        file, rest = line.split(maxsplit=1)
        named = re.split(r"\s{2,}", rest.strip())[0]  # then, two spaces on, what it does
        names = [name for name in re.split(r"[\s,/]+", named) if name]
        path.append((file, names))
    return path


def test_the_walked_button_press_names_real_functions() -> None:
    path = walked_path()
    assert len(path) >= 8
    missing = []
    for file, names in path:
        source = ROOT / file
        assert source.exists(), file
        text = source.read_text(encoding="utf-8")
        for name in names:
            for part in name.split("."):
                if not re.search(rf"^\s*(?:async def|def|class) {part}\b", text, re.M):
                    missing.append(f"{file}: {part}")
    assert not missing, f"docs/architecture.md walks through what is not there: {missing}"


#: a path of the repository as the documents write it, in backquotes
NAMED_PATH = re.compile(
    r"`((?:game|storage|tables|bot|web|tests|bench|scripts|locales|docs)/[A-Za-z0-9_./-]*)`"
)


def test_every_path_the_documents_name_exists() -> None:
    """The README and the documents under docs/ name files that are there. Not
    docs/performance.md: a notebook of measurements names the code as it was when measured."""
    documents = [ROOT / "README.md", ROOT / "tests" / "e2e" / "README.md"]
    documents += [path for path in sorted(DOCS.glob("*.md")) if path.name != "performance.md"]
    missing = [
        f"{document.relative_to(ROOT)}: {named}"
        for document in documents
        for named in NAMED_PATH.findall(document.read_text(encoding="utf-8"))
        if not (ROOT / named).exists()
    ]
    assert not missing, f"the documents name what is not there: {missing}"
