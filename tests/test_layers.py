"""The package's import graph has no circle, not even between modules of one package.

`lint-imports` (in `make lint`) keeps the layers; a circle inside one layer is what it cannot see.
"""

from __future__ import annotations

import grimp

PACKAGE = 'observable_harness'


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(edges[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, pending = work[-1]
            if pending:
                child = pending.pop()
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, sorted(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_of_the_package_imports_itself_back() -> None:
    graph = grimp.build_graph(PACKAGE)
    ours = {module for module in graph.modules if module.split('.')[0] == PACKAGE}
    edges = {module: graph.find_modules_directly_imported_by(module) & ours for module in ours}
    assert circles(edges) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({'a': {'b'}, 'b': {'c'}, 'c': {'a'}, 'd': {'a'}}) == [['a', 'b', 'c']]
    assert circles({'a': {'b'}, 'b': set()}) == []
