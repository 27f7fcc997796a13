"""gather_lint's own imports read one way: no module imports, directly or through others, one that imports it.

The graph counts every import, at module level or inside a function (an import moved into a function to
dodge a circle is still a circle), and `from . import x` as an import of the package as well as of x: the
package's `__init__` runs first and may itself import x's importers. A circle is named in the failure.
"""
import ast
import pathlib
import sys
from typing import Dict, List, Set

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "gather_lint"


def module_files(package: pathlib.Path) -> Dict[str, pathlib.Path]:
    """Dotted module name -> file, for every .py file of the package (a package's own name for __init__)."""
    found = {}
    for path in package.rglob("*.py"):
        name = ".".join(path.relative_to(package.parent).with_suffix("").parts)
        found[name[: -len(".__init__")] if name.endswith(".__init__") else name] = path
    return found


def import_graph(modules: Dict[str, pathlib.Path]) -> Dict[str, Set[str]]:
    """Module -> the modules of the package it imports, anywhere in its text."""
    graph: Dict[str, Set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    base = parts[: len(parts) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                # `from pkg import x`: pkg itself, and x where x is a module
                candidates = [target] + [f"{target}.{alias.name}" for alias in node.names]
                graph[name].update(c for c in candidates if c in modules and c != name)
            elif isinstance(node, ast.Import):
                graph[name].update(alias.name for alias in node.names if alias.name in modules and alias.name != name)
    return graph


def circles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def a_cycle(graph: Dict[str, Set[str]], component: List[str]) -> List[str]:
    """A shortest closed path through the component's first module, for the message: a -> b -> ... -> a."""
    inside, start = set(component), component[0]
    came_from: Dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(graph[v] & inside):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start] + path[::-1][1:] + [start]
                if w not in came_from:
                    came_from[w] = v
                    following.append(w)
        frontier = following
    return [start]  # not reached for a strongly connected component


def test_the_package_has_no_import_circle():
    graph = import_graph(module_files(PACKAGE))
    assert len(graph) > 100  # the whole package was read
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(
        f"  {len(c)} modules: {', '.join(c)}\n    e.g. {' -> '.join(a_cycle(graph, c))}" for c in found) + \
        "\nmove the shared piece into a module both sides import; inside gather_lint.runtime, whose __init__ " \
        "imports its modules, import a sibling by module path (`import gather_lint.runtime.values as values`)"


def test_a_circle_is_found_and_named(tmp_path):
    """The checker itself: module-level, function-level and package circles are caught, a tree without one passes."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import thing\n")
    (pkg / "b.py").write_text("def thing():\n    from . import a\n")  # hidden in a function: still a circle
    (pkg / "c.py").write_text("import pkg.a\n")
    (pkg / "sub" / "__init__.py").write_text("from . import inner\n")
    (pkg / "sub" / "inner.py").write_text("from . import helper\n")  # names the package sub, which imports inner
    (pkg / "sub" / "helper.py").write_text("from ..c import x\n")
    graph = import_graph(module_files(pkg))
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg", "pkg.a"} and graph["pkg.c"] == {"pkg.a"}
    assert graph["pkg.sub.inner"] == {"pkg.sub", "pkg.sub.helper"}
    assert sorted(circles(graph)) == [["pkg.a", "pkg.b"], ["pkg.sub", "pkg.sub.inner"]]
    assert a_cycle(graph, ["pkg.a", "pkg.b"]) == ["pkg.a", "pkg.b", "pkg.a"]
    (pkg / "b.py").write_text("def thing():\n    return 1\n")
    (pkg / "sub" / "inner.py").write_text("from .helper import x\n")
    assert circles(import_graph(module_files(pkg))) == []
