"""No import circles between the library's modules: where two modules need one thing, it lives
below both (docs/development.md). Every `crate::` and `super::` path in `src/` (in `use` trees
and in code, comments and test modules aside) is an edge from the module it is written in to the
deepest module it names, or to the module an item of it lives in; the graph of those edges, over
`src/` and over each folder's submodules, has no cycle."""
import os
import re

from conftest import ROOT

PATH = re.compile(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE = re.compile(r"(?ms)^\s*(?:pub(?:\([a-z]+\))?\s+)?use\s+(.*?);")


def expand(tree):
    """The paths of a `use` tree: `a::{b, c::{d, e}}` gives a::b, a::c::d, a::c::e."""
    tree = re.sub(r"\s+", "", tree)
    depth, cut = 0, None
    for i, ch in enumerate(tree):
        if ch == "{" and depth == 0:
            cut = i
            break
    if cut is None:
        return [tree.split(" as ")[0]]
    prefix, inner = tree[:cut], tree[cut + 1 : -1]
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    return [p for part in parts if part for p in expand(prefix + part)]


def code_of(text):
    """A file's code: comments, strings and `#[cfg(test)]` modules left out."""
    text = re.sub(r"(?m)//.*$", "", text)
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
    cut = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)
    return text[: cut.start()] if cut else text


def modules(src):
    """Each module of the crate rooted at `src`, as a tuple of names, with its file."""
    found = {}
    for folder, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(folder, name), src)[:-3].split(os.sep)
            if rel[-1] == "mod":
                rel = rel[:-1]
            if rel in (["lib"], ["main"]) or rel[-1] == "tests":
                continue
            found[tuple(rel)] = os.path.join(folder, name)
    return found


def edges(src):
    mods = modules(src)
    graph = {m: set() for m in mods}
    for module, path in mods.items():
        with open(path) as f:
            code = code_of(f.read())
        paths = [p for tree in USE.findall(code) for p in expand(tree)]
        paths += [m.group(0) for m in PATH.finditer(USE.sub("", code))]
        for p in paths:
            names = p.split("::")
            if names[0] == "crate":
                base, rest = (), names[1:]
            elif names[0] == "super":
                base, rest = module[:-1], names[1:]
            else:
                continue
            target = base
            for name in rest:
                if target + (name,) in mods:
                    target += (name,)
                else:
                    break
            if target and target != module and not module[: len(target)] == target:
                graph[module].add(target)
    return graph


def cycle(graph, level):
    """A cycle among the modules `level` names apart (each module read as its ancestor that many
    names deep), or None."""
    cut = {}
    for a, targets in graph.items():
        if len(a) < level:
            continue
        for b in targets:
            if len(b) >= level and a[: level - 1] == b[: level - 1] and a[:level] != b[:level]:
                cut.setdefault(a[:level], set()).add(b[:level])
    state, stack = {}, []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(cut.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(cut):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_circles():
    graph = edges(os.path.join(ROOT, "src"))
    assert ("net", "exchange") in graph and ("net", "line_end") in graph["net", "exchange"]
    for level in range(1, max(len(m) for m in graph) + 1):
        found = cycle(graph, level)
        assert found is None, "import circle: " + " -> ".join("::".join(m) for m in found)


def test_a_circle_is_found(tmp_path):
    # Two sibling modules that import each other, one by a `use` tree, one by a path in code.
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "mod.rs").write_text("mod a;\nmod b;\n")
    (tmp_path / "net" / "a.rs").write_text("use super::{b::{x, y}};\n// use super::c;\n")
    (tmp_path / "net" / "b.rs").write_text("fn f() { crate::net::a::g() }\n")
    (tmp_path / "facts.rs").write_text("use crate::net::b;\n")
    graph = edges(str(tmp_path))
    assert cycle(graph, 1) is None
    assert cycle(graph, 2) == [("net", "a"), ("net", "b"), ("net", "a")]
    (tmp_path / "net" / "a.rs").write_text("use crate::facts::z;\n")
    assert cycle(edges(str(tmp_path)), 1) == [("facts",), ("net",), ("facts",)]
