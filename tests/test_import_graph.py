"""The package's import graph, read with `ast` from the sources (imports inside functions and under
`if TYPE_CHECKING:` included): no circle, and the layers import only downwards: the core no game,
a game no agents, training, CLI, server or records, the agents no training, CLI or server."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "cardarena"
GAME_MAY_NOT_IMPORT = ("agents", "training", "cli", "serve", "records")
AGENTS_MAY_NOT_IMPORT = ("training", "cli", "serve")


def _source_modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package: its name -> (its file, whether it is a package's __init__)."""
    package_dirs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-dir"
    ]
    modules = {}
    for package, folder in package_dirs.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            is_package = parts[-1] == "__init__"
            name = ".".join((package, *(parts[:-1] if is_package else parts)))
            modules.setdefault(name, (path, is_package))
    return modules


def _imported_modules(path: Path, module: str, is_package: bool, modules: set[str]) -> set[str]:
    """The package's modules `path` imports, relative imports resolved: a name imported from a
    package counts as its submodule when there is one, else as the package."""
    here = module if is_package else module.rpartition(".")[0]
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.rsplit(".", node.level - 1)[0] if node.level > 1 else here
                base = f"{anchor}.{base}" if base else anchor
            imported.update(
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names
            )
    return {name for name in imported if name in modules and name != module}


def _import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    modules = _source_modules()
    return {
        module: _imported_modules(path, module, is_package, set(modules))
        for module, (path, is_package) in modules.items()
    }


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def _layer_breaks(graph: dict[str, set[str]]) -> list[str]:
    def inside(module: str, package: str) -> bool:
        return module == package or module.startswith(package + ".")

    games = {module.split(".")[2] for module in graph if inside(module, f"{PACKAGE}.envs") and module.count(".") >= 3}
    games.discard("core")
    breaks = []
    for module, targets in graph.items():
        for target in sorted(targets):
            if inside(module, f"{PACKAGE}.envs.core"):
                forbidden = [f"{PACKAGE}.envs.{game}" for game in games]
            elif any(inside(module, f"{PACKAGE}.envs.{game}") for game in games):
                forbidden = [f"{PACKAGE}.{layer}" for layer in GAME_MAY_NOT_IMPORT]
            elif inside(module, f"{PACKAGE}.agents"):
                forbidden = [f"{PACKAGE}.{layer}" for layer in AGENTS_MAY_NOT_IMPORT]
            else:
                forbidden = []
            if any(inside(target, layer) for layer in forbidden):
                breaks.append(f"{module} -> {target}")
    return breaks


def test_the_graph_covers_the_package_and_resolves_relative_imports():
    graph = _import_graph()
    assert {"cardarena.cli", "cardarena.envs.core.env", "cardarena.agents.loading", "cardarena.training.train"} <= set(
        graph
    )
    assert "cardarena.envs.core.game" in graph["cardarena.envs.core.env"]
    assert "cardarena.envs.core.errors" in graph["cardarena.envs.core.env"]


def test_the_circle_finder_finds_a_circle_through_three_modules():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert _circles(graph) == [{"a", "b", "c"}]


def test_no_import_circles():
    circles = _circles(_import_graph())
    assert not circles, "import circles: " + "; ".join(" <-> ".join(sorted(circle)) for circle in circles)


def test_layers_import_only_downwards():
    breaks = _layer_breaks(_import_graph())
    assert not breaks, f"imports that break the layer rules: {breaks}"


def test_the_layer_check_names_each_import_against_the_layers():
    graph = {
        "cardarena.envs.core.env": {"cardarena.envs.yokir.game"},
        "cardarena.envs.yokir.game": {"cardarena.envs.core.env", "cardarena.training.train"},
        "cardarena.agents.loading": {"cardarena.training.checkpoint", "cardarena.envs.yokir.game"},
        "cardarena.training.train": {"cardarena.agents.loading"},
    }
    assert _layer_breaks(graph) == [
        "cardarena.envs.core.env -> cardarena.envs.yokir.game",
        "cardarena.envs.yokir.game -> cardarena.training.train",
        "cardarena.agents.loading -> cardarena.training.checkpoint",
    ]
