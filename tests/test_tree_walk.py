"""tree_walk's walks visit the same nodes in the same order as the ast module's."""
import ast
import glob
import os

from gather_lint.static import tree_walk

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _trees():
    paths = sorted(glob.glob(os.path.join(ROOT, "examples", "*", "*.py")) + glob.glob(os.path.join(ROOT, "gather_lint", "static", "*.py")))
    return [ast.parse(open(p, encoding="utf-8").read()) for p in paths]


def _own_nodes_by_iter_child_nodes(scope):
    found, stack = [], [node for node in reversed(scope.body) if not isinstance(node, _NESTED)]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(c for c in reversed(list(ast.iter_child_nodes(node))) if not isinstance(c, _NESTED))
    return found


def test_own_nodes_are_the_scope_s_nodes_depth_first_without_nested_scopes():
    scopes = 0
    for tree in _trees():
        for scope in tree_walk.scopes(tree):
            want = _own_nodes_by_iter_child_nodes(scope)
            assert tree_walk.own_nodes(scope) == want
            assert tree_walk.own_nodes(scope) is tree_walk.own_nodes(scope)  # walked once, kept on the scope
            scopes += 1
    assert scopes > 100


def test_all_nodes_is_ast_walk_in_order():
    for tree in _trees():
        assert tree_walk.all_nodes(tree) == list(ast.walk(tree))


def test_stored_names_are_the_walk_s_stored_names_for_every_statement():
    statements = 0
    for tree in _trees():
        for stmt in ast.walk(tree):
            if not isinstance(stmt, ast.stmt):
                continue
            want = sorted((n.lineno, n.col_offset, n.id) for n in ast.walk(stmt)
                          if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
            got = sorted((n.lineno, n.col_offset, n.id) for n in tree_walk.stored_names(stmt))
            assert got == want, ast.unparse(stmt)[:200]
            assert tree_walk.stored_names(stmt) is tree_walk.stored_names(stmt)  # kept, not walked again
            statements += 1
    assert statements > 1000



def test_function_defs_are_the_walk_s_and_kept_without_a_cycle():
    for tree in _trees():
        for top in tree.body:
            want = [n for n in ast.walk(top) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            assert tree_walk.function_defs(top) == want and tree_walk.function_defs(top) == want  # kept, same answer
            assert all(n is not top for n in getattr(top, "_gather_lint_functions", []))
