"""``release``, the source: the checks package without its answer keys and hidden cases.

Edits are made on the text, at the places the syntax tree names, so every comment and
line the student edition keeps reads as it does here:

- a key written in ``checks/`` loses its definition; in its place stands
  ``WITHHELD = withheld(id)`` (``checks/released.py``), which raises when called,
  and every reference to the key (in its module, ``module.key``, or imported by name)
  is renamed to it;
- ``hidden=`` goes from every ``Spec(...)`` call;
- then private top-level definitions no file refers to any more (the key's helpers,
  the hidden cases' builders) are removed, until none is left.

Left out: a helper that the key shares with the check's own code (an observer, a fault)
stays, since the check needs it; ``release.py`` lists those exercises as partly open.
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from dataclasses import dataclass

__all__ = ["STUB", "KeyPlace", "drop_from_all", "drop_hidden", "remove_dead", "remove_key", "rename_imports"]

STUB = "WITHHELD"


@dataclass(frozen=True)
class KeyPlace:
    """Where an exercise's key is defined: a module of the package (a path in it) and a name."""

    exercise: str
    path: str  # e.g. "checks/lesson02/one_step.py"
    name: str


def _offsets(source: str) -> list[int]:
    """The text offset where each line starts (line 1 is index 1)."""
    starts, total = [0, 0], 0
    for line in source.splitlines(keepends=True):
        total += len(line)
        starts.append(total)
    return starts


def _at(source: str, starts: list[int], line: int, column: int) -> int:
    """The text offset of a syntax-tree position, whose column counts UTF-8 bytes."""
    text = source[starts[line]:starts[line + 1]] if line + 1 < len(starts) else source[starts[line]:]
    return starts[line] + len(text.encode("utf-8")[:column].decode("utf-8"))


def _apply(source: str, edits: list[tuple[int, int, int, int, str]]) -> str:
    """Replace each (line, col, end line, end col) span by its text, last span first."""
    starts = _offsets(source)
    spans = sorted(((_at(source, starts, a, b), _at(source, starts, c, d), text)
                    for a, b, c, d, text in edits), reverse=True)
    for start, end, text in spans:
        source = source[:start] + text + source[end:]
    return source


def _bound(node: ast.AST) -> set[str]:
    """Names a function, lambda or comprehension binds (an over-estimate: nested ones too)."""
    names = {arg.arg for arg in ast.walk(node.args) if isinstance(arg, ast.arg)} if hasattr(
        node, "args") and isinstance(node.args, ast.arguments) else set()
    return names | {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _global_uses(tree: ast.Module, name: str) -> list[ast.Name]:
    """The loads of ``name`` that mean the module's global, not a local of the same name."""
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp,
              ast.DictComp, ast.GeneratorExp)
    found: list[ast.Name] = []

    def visit(node: ast.AST, shadowed: bool) -> None:
        if isinstance(node, scopes):
            shadowed = shadowed or name in _bound(node)
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load) and not shadowed:
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child, shadowed)

    visit(tree, False)
    return found


def _span(node: ast.AST, text: str) -> tuple[int, int, int, int, str]:
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, text


def _drop_examples(source: str, tree: ast.Module, name: str) -> list[tuple[int, int, int, int, str]]:
    """Edits leaving out the module docstring's examples that call ``name`` (they could not run)."""
    first = tree.body[0] if tree.body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return []
    lines, edits, dropping = source.splitlines(), [], False
    for number in range(first.lineno, first.end_lineno + 1):
        text = lines[number - 1].strip()
        if text.startswith(">>>"):
            dropping = f"{name}(" in text
        elif not text or text.endswith('"""'):
            dropping = False
        if dropping:
            edits.append((number, 0, number + 1, 0, ""))
    return edits


def remove_key(source: str, place: KeyPlace, depth: int) -> str:
    """``source`` without the definition of ``place.name``; its uses call ``WITHHELD``.

    ``depth`` is the dots that lead to ``checks/`` (1 for ``checks/lesson00.py``, 2 below it).
    """
    tree = ast.parse(source)
    definition = next((node for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)
                       and node.name == place.name), None)
    if definition is None:
        raise ValueError(f"{place.path} does not define {place.name} at its top level")
    first = min([definition.lineno, *(d.lineno for d in definition.decorator_list)])
    stub = f"{STUB} = withheld({place.exercise!r})  # the answer key is not in the student edition"
    edits = [(first, 0, definition.end_lineno, definition.end_col_offset, stub)]
    edits += [_span(use, STUB) for use in _global_uses(tree, place.name)
              if not first <= use.lineno <= definition.end_lineno]  # uses inside the key go with it
    edits += _drop_examples(source, tree, place.name)
    future = next((n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "__future__"), None)
    line = future.end_lineno + 1 if future else 1
    edits.append((line, 0, line, 0, f"from {'.' * depth}released import withheld\n"))
    return drop_from_all(_apply(source, edits), place.name)


def rename_imports(source: str, module: str, name: str) -> str:
    """Elsewhere: ``from .module import name`` and ``module.name`` now mean ``WITHHELD``."""
    tree = ast.parse(source)
    edits = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Name)
                and node.value.id == module):
            edits.append(_span(node, f"{module}.{STUB}"))
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == module:
            for alias in node.names:
                if alias.name == name:
                    edits.append(_span(alias, f"{STUB} as {alias.asname}" if alias.asname else STUB))
                    if not alias.asname:  # the name is gone here too, not only in its own module
                        edits += [_span(use, STUB) for use in _global_uses(tree, name)]
    return drop_from_all(_apply(source, edits), name) if edits else source


def drop_from_all(source: str, name: str) -> str:
    r"""``source`` whose ``__all__`` no longer lists ``name``.

    >>> drop_from_all('__all__ = ["SPEC", "key"]\n', "key")
    '__all__ = ["SPEC"]\n'
    """
    for node in ast.parse(source).body:
        if (isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["__all__"]
                and isinstance(node.value, ast.List | ast.Tuple)):
            names = [e.value for e in node.value.elts if isinstance(e, ast.Constant)]
            if name in names:
                kept = ", ".join(json.dumps(n) for n in names if n != name)
                return _apply(source, [_span(node.value, f"[{kept}]")])
    return source


def drop_hidden(source: str) -> str:
    """``source`` with every ``hidden=...`` argument of a call left out (with its comma)."""
    tree = ast.parse(source)
    edits = []
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        parts = sorted([*call.args, *call.keywords], key=lambda n: (n.lineno, n.col_offset))
        for before, part in zip([None, *parts], parts, strict=False):
            if isinstance(part, ast.keyword) and part.arg == "hidden":
                if before is None:
                    edits.append(_span(part, ""))
                else:  # from the end of the argument before, so its comma goes too
                    edits.append((before.end_lineno, before.end_col_offset, part.end_lineno,
                                  part.end_col_offset, ""))
    return _apply(source, edits) if edits else source


def _defined(node: ast.stmt) -> str | None:
    if isinstance(node, ast.FunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return None


def _used(statement: ast.AST) -> set[str]:
    """The names a statement uses, with the texts in it (a name in ``__all__``)."""
    names: set[str] = set()
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.add(node.name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
    return names


def _reached(trees: dict[str, ast.Module]) -> dict[str, set[str]]:
    """By file: the names other files can mean by one of its own (imported by name, or any attribute)."""
    attributes = {n.attr for tree in trees.values() for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    imported: dict[str, set[str]] = {}  # module (a file's name) -> the names other files import from it
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = (node.module or "").split(".")[-1]
                imported.setdefault(module, set()).update(alias.name for alias in node.names)
    return {path: attributes | imported.get(path.rsplit("/", 1)[-1].removesuffix(".py"), set())
            for path in trees}


def _in_all(tree: ast.Module, name: str) -> bool:
    """Is ``name`` listed in the module's ``__all__``?"""
    return any(isinstance(n, ast.Assign) and [getattr(t, "id", "") for t in n.targets] == ["__all__"]
               and name in [getattr(e, "value", None) for e in getattr(n.value, "elts", ())]
               for n in tree.body)


def _removable(name: str | None) -> bool:
    """Private names, and the hidden cases' (``HIDDEN``), go when nothing uses them."""
    return bool(name) and ((name.startswith("_") and not name.startswith("__")) or "hidden" in name.lower())


def _unused_imports(source: str) -> str:
    """``source`` without the imported hidden cases it no longer uses (``from .x import HIDDEN``)."""
    tree = ast.parse(source)
    used = set().union(*(_used(n) for n in tree.body if not isinstance(n, ast.ImportFrom)))
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            kept = [a for a in node.names if "hidden" not in a.name.lower() or (a.asname or a.name) in used]
            if len(kept) < len(node.names):
                names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in kept)
                line = f"from {'.' * node.level}{node.module or ''} import {names}" if kept else ""
                return _unused_imports(_apply(source, [_span(node, line)]))
    return source


def _first_line(node: ast.stmt) -> int:
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])


def _dead(tree: ast.Module, others: set[str]) -> list[ast.stmt]:
    """The removable top-level definitions of ``tree`` that nothing uses (its ``__all__`` aside
    for the hidden cases)."""
    each = [_used(n) for n in tree.body]
    counts = Counter(name for names in each for name in names)

    def unused(name: str, own: set[str]) -> bool:
        listed = "hidden" in name.lower() and _in_all(tree, name)
        return name not in others and counts[name] - (name in own) - listed <= 0

    return [node for node, own in zip(tree.body, each, strict=True)
            if _removable(name := _defined(node)) and unused(name, own)]


def remove_dead(files: dict[str, str]) -> dict[str, str]:
    """Leave out private top-level definitions no file uses, again until none is left."""
    files = {path: _unused_imports(text) for path, text in files.items()}
    while True:
        trees = {path: ast.parse(text) for path, text in files.items()}
        reached, removed = _reached(trees), False
        for path, tree in trees.items():
            dead = _dead(tree, reached[path])
            if not dead:
                continue
            spans = [(_first_line(node), 0, node.end_lineno, node.end_col_offset, "") for node in dead]
            text = _apply(files[path], spans)
            for node in dead:
                text = drop_from_all(text, _defined(node))
            files[path], removed = _unused_imports(text), True
        if not removed:
            return files
