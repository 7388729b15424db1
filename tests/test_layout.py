"""docs/layout.md against the code: every module named, the floors of the import graph, no private imports."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ringmaster"
LAYOUT = ROOT / "docs" / "layout.md"


def modules() -> dict[str, Path]:
    """{'ringmaster/run/paths.py': path} for every module but the packages' __init__ files."""
    return {str(path.relative_to(ROOT)): path for path in sorted(PACKAGE.rglob("*.py"))
            if path.name != "__init__.py"}


def room(module: str) -> str | None:
    """The folder ('run/') or top-level module ('cli.py') a dotted module name belongs to."""
    parts = module.split(".")
    if parts[0] != "ringmaster" or len(parts) < 2 or parts[1] == "__version__":
        return None
    return parts[1] + "/" if (PACKAGE / parts[1]).is_dir() else parts[1] + ".py"


def imports(path: Path) -> list[ast.ImportFrom | ast.Import]:
    """Every import statement of a module, at any depth (lazy ones included)."""
    return [node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.Import, ast.ImportFrom))]


def imported_modules(node: ast.ImportFrom | ast.Import) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.module == "ringmaster":   # from ringmaster import x: x may be a module
        return [f"ringmaster.{alias.name}" for alias in node.names]
    return [node.module or ""]


def room_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in modules().items() | {(str(p.relative_to(ROOT)), p)
                                            for p in PACKAGE.glob("*/__init__.py")}:
        source = room(name[:-3].replace("/", ".").removesuffix(".__init__"))
        if source is None:
            continue
        graph.setdefault(source, set())
        for node in imports(path):
            for module in imported_modules(node):
                target = room(module)
                if target is not None and target != source:
                    graph[source].add(target)
    return graph


def floors(graph: dict[str, set[str]]) -> dict[str, int]:
    """Each room's floor: 1 if it imports none of ours, else one above the highest it imports.

    Raises AssertionError naming the rooms of a cycle, if there is one.
    """
    result: dict[str, int] = {}
    visiting: list[str] = []

    def floor(name: str) -> int:
        if name in result:
            return result[name]
        assert name not in visiting, f"import cycle: {' -> '.join(visiting + [name])}"
        visiting.append(name)
        result[name] = 1 + max((floor(t) for t in graph.get(name, ())), default=0)
        visiting.pop()
        return result[name]

    for name in graph:
        floor(name)
    return result


def documented_floors() -> dict[str, int]:
    rows = re.findall(r"^\| (\d+) \| `([^`]+)` \|", LAYOUT.read_text(encoding="utf-8"), re.M)
    return {name: int(number) for number, name in rows}


def test_the_layout_page_names_every_module_and_only_modules_that_exist():
    text = LAYOUT.read_text(encoding="utf-8")
    named = set(re.findall(r"`(ringmaster/[\w/]+\.py)`", text))
    assert sorted(set(modules()) - named) == [], "modules docs/layout.md doesn't describe"
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_the_import_graph_has_the_floors_the_layout_page_gives():
    graph = room_graph()
    assert floors(graph) == documented_floors()
    for source, targets in graph.items():
        documented = re.search(rf"^\| \d+ \| `{re.escape(source)}` \| (.*) \|$",
                               LAYOUT.read_text(encoding="utf-8"), re.M)
        assert documented is not None
        assert set(re.findall(r"`([^`]+)`", documented.group(1))) == targets, source


def test_the_floors_catch_a_cycle():
    graph = {"a/": {"b.py"}, "b.py": {"c/"}, "c/": {"a/"}}
    try:
        floors(graph)
    except AssertionError as exc:
        assert "a/ -> b.py -> c/ -> a/" in str(exc)
    else:
        raise AssertionError("a cycle went unnoticed")


def test_no_module_imports_a_private_name_from_another():
    private = [f"{name}: from {node.module} import {alias.name}"
               for name, path in modules().items() for node in imports(path)
               if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ringmaster")
               for alias in node.names if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert private == []
