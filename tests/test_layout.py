"""The library's layout holds: no import cycles, short modules, and READMEs that match the tree.

- No cycle in the import graph, whether the import is at the top of a module or
  inside a function (an import needed only for type hints, under
  ``if TYPE_CHECKING:``, is not a dependency and is left out).
- Every module stays near one idea: under ``MAX_LINES`` lines.
- Every module is listed in the README that maps its folder: the top README's
  library table for ``react_course/`` and ``tools/``, each subpackage's own README
  for its files, in reading order.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "react_course"
MAX_LINES = 300  # "about 300" (issue 31): a module past this is two ideas
SUBPACKAGES = ("scripted_api", "course", "lessons", "evaluate", "context_cost", "tracing", "backends", "web",
               "tools", "checks", *(f"checks/lesson{n:02d}" for n in range(1, 13)))


def module_name(path: Path) -> tuple[str, list[str]]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
        return ".".join(parts), parts
    return ".".join(parts), parts[:-1]


def _typing_only(tree: ast.Module) -> set[int]:
    """Line numbers of imports under ``if TYPE_CHECKING:``."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The library modules ``path`` imports, at any depth of the file."""
    name, package = module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip, found = _typing_only(tree), set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the file's package, one level up per extra dot
                base = package[:len(package) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            submodules = {f"{target}.{alias.name}" for alias in node.names} & modules
            found |= submodules or ({target} & modules)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names} & modules
    return found - {name}


def import_graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p)[0] for p in paths}
    return {module_name(p)[0]: imports_of(p, modules) for p in paths}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif step not in index:
                index[step] = low[step] = len(index)
                stack.append(step)
                work.append((step, iter(sorted(graph[step]))))
            elif step in stack:
                low[node] = min(low[node], index[step])
    return found


def test_the_import_graph_has_no_cycle() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_module_is_short(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines: split it (one idea per module)"


def _listed(readme: Path) -> set[str]:
    return set(re.findall(r"`([\w/]+\.py)`", readme.read_text(encoding="utf-8")))


@pytest.mark.parametrize("folder", SUBPACKAGES)
def test_each_subpackage_readme_lists_its_files(folder: str) -> None:
    files = {p.name for p in (PACKAGE / folder).glob("*.py") if p.name != "__init__.py"}
    listed = _listed(PACKAGE / folder / "README.md")
    assert files - listed == set(), f"not in {folder}/README.md"
    assert listed - files == set(), f"{folder}/README.md lists files that do not exist"


def test_the_top_readme_lists_every_top_level_module_and_folder() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## The library, in reading order"):]
    table = table[:table.index("\n## ", 5)]
    modules = {p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")}
    listed = set(re.findall(r"^\| `(\w+\.py)`|, `(\w+\.py)`", table, re.M))
    listed = {name for pair in listed for name in pair if name}
    assert modules - listed == set(), "modules missing from the README's library table"
    assert listed - modules == set(), "the README's library table names modules that do not exist"
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    named = set(re.findall(r"`(\w+)/`", table))
    assert folders - named == set(), "subpackages missing from the README's library table"


def test_every_package_has_a_readme() -> None:
    packages = [p.parent for p in PACKAGE.rglob("__init__.py") if "__pycache__" not in p.parts]
    missing = [str(p.relative_to(ROOT)) for p in packages if not (p / "README.md").exists()]
    assert missing == [], f"packages without a README.md: {missing}"


def test_the_top_level_holds_the_agent_and_about_25_modules() -> None:
    """The agent a student reads sits at the top; what is not the agent lives in a folder."""
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(modules) <= 25, f"{len(modules)} top-level modules: move what is not the agent into a folder"


def test_the_package_readme_maps_every_top_level_module_and_folder() -> None:
    text = (PACKAGE / "README.md").read_text(encoding="utf-8")
    modules = {p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")}
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists() or p.name == "data"}
    assert modules - set(re.findall(r"`(\w+\.py)`", text)) == set()
    assert folders - set(re.findall(r"`(\w+)/`", text)) == set()
