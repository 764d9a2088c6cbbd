#!/usr/bin/env python3
"""Import cycles between the source files of the workspace's crates.

A module-level count misses the cycles that `pub use` hides: a parent
re-exports a child's type while the child imports a type the parent
defines. This script follows every `use` and `pub use` to the file that
defines the name it imports (through any chain of re-exports: a child's
`use super::X` of a sibling's X is an import of the sibling) and draws an
edge from the importing file to that file when the importing module's code
uses the name (in code or an inline format argument). A `pub use` that only
passes a name on is no edge of its own, `mod` declarations are none, and
`#[cfg(test)]` code is left out. A strongly connected group of two or more
files is a cycle: the script prints each one, with the names that make its
edges, and exits with status 1.

Usage: import_cycles.py [ROOT]   (ROOT: the repository, by default the one
holding this script). It reads the library and binary sources (src/) of
every crate under ROOT/crates. Exit status: 0 no cycle, 1 cycles, 2 a file
it cannot read.
"""

import os
import re
import sys

KEYWORD_QUALIFIERS = {"unsafe", "async", "default", "safe"}
DEFINING = {"struct", "enum", "union", "trait", "type", "fn", "const", "static"}


class ScanError(Exception):
    pass


# ---------------------------------------------------------------- tokens

TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<line>//[^\n]*)
  | (?P<block>/\*)
  | (?P<raw>(?:br|cr|r)(?P<hashes>\#*)")
  | (?P<string>(?:b|c)?"(?:\\.|[^"\\])*")
  | (?P<char>b?'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'\n])')
  | (?P<lifetime>'[A-Za-z_][A-Za-z0-9_]*)
  | (?P<ident>(?:r\#)?[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9][0-9A-Za-z_.]*)
  | (?P<path>::)
  | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)


FORMAT_ARGUMENT = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)[:}]")


class Literal(str):
    """A string literal's token ("LIT"), with the inline format arguments
    its text names."""

    def __new__(cls, text, names):
        token = super().__new__(cls, text)
        token.names = names
        return token


def identifiers(tokens):
    """The identifiers among tokens, those inside format strings included."""
    for t in tokens:
        yield t
        yield from getattr(t, "names", ())


def tokenize(text, path):
    """The file's tokens (identifiers, `::`, single punctuation; literals
    as the placeholder "LIT"), without comments or whitespace."""
    tokens = []
    i = 0
    while i < len(text):
        m = TOKEN.match(text, i)
        if m is None:
            raise ScanError(f"{path}: cannot read at offset {i}")
        kind = m.lastgroup
        if kind == "hashes":
            kind = "raw"
        if kind == "block":
            depth, j = 1, m.end()
            while depth and j < len(text):
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            i = j
            continue
        if kind == "raw":
            close = '"' + m.group("hashes")
            end = text.find(close, m.end())
            if end < 0:
                raise ScanError(f"{path}: unterminated raw string")
            tokens.append("LIT")
            i = end + len(close)
            continue
        if kind == "string":
            # Inline format arguments, `{NAME}` and `{NAME:...}`, use NAME.
            names = FORMAT_ARGUMENT.findall(m.group())
            tokens.append(Literal("LIT", names))
        elif kind in ("char", "number"):
            tokens.append("LIT")
        elif kind == "ident":
            tokens.append(m.group()[2:] if m.group().startswith("r#") else m.group())
        elif kind in ("path", "punct"):
            tokens.append(m.group())
        elif kind == "lifetime":
            tokens.append("LIFETIME")
        i = m.end()
    return tokens


def matching(tokens, i):
    """The index just past the bracket group that opens at tokens[i]."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[tokens[i]]]
    j = i + 1
    while stack:
        if j >= len(tokens):
            raise ScanError("unbalanced brackets")
        t = tokens[j]
        if t in pairs:
            stack.append(pairs[t])
        elif t in (")", "]", "}"):
            if t != stack.pop():
                raise ScanError("mismatched brackets")
        j += 1
    return j


# ---------------------------------------------------------------- modules


class Module:
    def __init__(self, name, file, parent, directory):
        self.name = name
        self.file = file
        self.parent = parent
        self.directory = directory  # where `mod child;` looks for child's file
        self.children = {}
        self.items = set()
        self.uses = []  # (segments, alias, glob)
        self.code = set()  # the identifiers its items use, imports left out


def parse_use_tree(tokens, i, prefix, out):
    """Reads a use tree from tokens[i]; appends (segments, alias, glob)."""
    segments = list(prefix)
    if i < len(tokens) and tokens[i] == "::":
        segments.append("::")
        i += 1
    while True:
        t = tokens[i]
        if t == "{":
            end = matching(tokens, i)
            j = i + 1
            while j < end - 1:
                j = parse_use_tree(tokens, j, segments, out)
                if tokens[j] == ",":
                    j += 1
            return end
        if t == "*":
            out.append((segments, None, True))
            return i + 1
        segments = segments + [t]
        i += 1
        if i < len(tokens) and tokens[i] == "::":
            i += 1
            continue
        alias = None
        if i < len(tokens) and tokens[i] == "as":
            alias = tokens[i + 1]
            i += 2
        out.append((segments, alias, False))
        return i


def is_test_only(attribute):
    """`#[cfg(test)]`, `#[cfg(all(test, ...))]`: code left out of builds."""
    return attribute[:1] == ["cfg"] and "test" in attribute and "not" not in attribute


def uses_in(tokens, start, end, module):
    """Every `use` statement in tokens[start:end] (a function or impl body),
    taken as an import of `module`; skips `#[cfg(test)]` items inside."""
    i = start
    while i < end:
        t = tokens[i]
        if t == "#" and i + 1 < end and tokens[i + 1] == "[":
            close = matching(tokens, i + 1)
            if is_test_only(tokens[i + 2 : close - 1]):
                i = skip_item(tokens, close, end)
                continue
            i = close
            continue
        if t == "use" and i + 1 < end and tokens[i + 1] != "<":
            found = []
            i = parse_use_tree(tokens, i + 1, [], found)
            module.uses.extend(found)
            continue
        i += 1


def skip_item(tokens, i, end):
    """The index past the item starting at tokens[i]: through its first `;`
    at bracket depth 0, or its first top-level brace group (plus a `;`)."""
    # An item's attributes first.
    while i < end and tokens[i] == "#":
        i = matching(tokens, i + 1 if tokens[i + 1] == "[" else i + 2)
    while i < end:
        t = tokens[i]
        if t == ";":
            return i + 1
        if t in ("(", "["):
            i = matching(tokens, i)
            continue
        if t == "{":
            i = matching(tokens, i)
            if i < end and tokens[i] == ";":
                i += 1
            return i
        i += 1
    return i


class Crate:
    def __init__(self, root_file):
        self.files = {}
        self.root = self.load(root_file, "crate", None, os.path.dirname(root_file))

    def load(self, file, name, parent, directory):
        with open(file, encoding="utf-8") as f:
            tokens = tokenize(f.read(), file)
        module = Module(name, file, parent, directory)
        self.files.setdefault(file, module)
        self.parse_items(tokens, 0, len(tokens), module)
        return module

    def child_file(self, module, name):
        for candidate in (
            os.path.join(module.directory, name + ".rs"),
            os.path.join(module.directory, name, "mod.rs"),
        ):
            if os.path.exists(candidate):
                return candidate
        raise ScanError(f"{module.file}: no file for `mod {name};`")

    def parse_items(self, tokens, i, end, module):
        while i < end:
            attributes = []
            while i < end and tokens[i] == "#":
                inner = tokens[i + 1] == "!"
                open_at = i + 2 if inner else i + 1
                close = matching(tokens, open_at)
                if not inner:
                    attributes.append(tokens[open_at + 1 : close - 1])
                i = close
            if i >= end:
                break
            if any(is_test_only(a) for a in attributes):
                i = skip_item(tokens, i, end)
                continue
            start = i
            if tokens[i] == "pub":
                i += 1
                if tokens[i] == "(":
                    i = matching(tokens, i)
            # Qualifiers: `const fn`, `unsafe extern "C" fn`, `async fn`...
            while True:
                t = tokens[i]
                if t in KEYWORD_QUALIFIERS and tokens[i + 1] != "!":
                    i += 1
                elif t == "const" and tokens[i + 1] in ("fn", "unsafe", "async", "extern"):
                    i += 1
                elif t == "extern" and tokens[i + 1] == "LIT" and tokens[i + 2] != "{":
                    i += 2
                elif t == "extern" and tokens[i + 1] == "fn":
                    i += 1
                else:
                    break
            t = tokens[i]
            if t == "use":
                found = []
                i = parse_use_tree(tokens, i + 1, [], found)
                module.uses.extend(found)
                i = skip_item(tokens, i, end)
            elif t == "mod":
                name = tokens[i + 1]
                if tokens[i + 2] == ";":
                    if any(a[:1] == ["path"] for a in attributes):
                        raise ScanError(f"{module.file}: #[path] on `mod {name};` is not supported")
                    file = self.child_file(module, name)
                    child = self.load(file, name, module, os.path.dirname(file)
                                      if os.path.basename(file) == "mod.rs"
                                      else os.path.splitext(file)[0])
                    module.children[name] = child
                    i += 3
                else:
                    close = matching(tokens, i + 2)
                    child = Module(name, module.file, module, os.path.join(module.directory, name))
                    module.children[name] = child
                    self.parse_items(tokens, i + 3, close - 1, child)
                    i = close
            elif t == "extern" and tokens[i + 1] == "crate":
                i = skip_item(tokens, i, end)
            else:
                if t == "macro_rules":
                    module.items.add(tokens[i + 2])
                    i = skip_item(tokens, i, end)
                elif t in DEFINING:
                    if tokens[i + 1] != "_":
                        module.items.add(tokens[i + 1])
                    i = skip_body(tokens, i, end, module)
                elif t == "impl" or (t == "extern" and tokens[i + 1] == "LIT"):
                    i = skip_body(tokens, i, end, module)
                else:
                    # A macro invocation at item level, or anything unknown.
                    i = skip_item(tokens, start, end)
                module.code.update(identifiers(tokens[start:i]))


def skip_body(tokens, i, end, module):
    """Past a fn, impl, struct... item; the `use` statements in its body
    count as the module's imports."""
    j = i
    while j < end:
        t = tokens[j]
        if t == ";":
            return j + 1
        if t in ("(", "["):
            j = matching(tokens, j)
            continue
        if t == "{":
            close = matching(tokens, j)
            uses_in(tokens, j + 1, close - 1, module)
            if close < end and tokens[close] == ";":
                close += 1
            return close
        j += 1
    return j


# ---------------------------------------------------------------- names


class Resolver:
    def __init__(self, crate):
        self.crate = crate

    def lookup(self, module, name, seen):
        """What `name` means inside `module`: [("module", Module)] or
        [("item", file, name)], following imports; [] if outside the crate."""
        key = (id(module), name)
        if key in seen:
            return []
        seen = seen | {key}
        found = []
        if name in module.children:
            found.append(("module", module.children[name]))
        if name in module.items:
            found.append(("item", module.file, name))
        for segments, alias, glob in module.uses:
            if glob:
                for kind, *rest in self.resolve(module, segments, seen):
                    if kind == "module":
                        found.extend(self.lookup(rest[0], name, seen))
            elif (alias or segments[-1]) == name and name != "self":
                found.extend(self.resolve(module, segments, seen))
            elif segments[-1] == "self" and alias is None and segments[-2:-1] == [name]:
                found.extend(self.resolve(module, segments[:-1], seen))
        return found

    def resolve(self, module, segments, seen=frozenset()):
        if not segments or segments[0] == "::":
            return []
        first, rest = segments[0], segments[1:]
        if first == "crate":
            current = [("module", self.crate.root)]
        elif first == "self":
            current = [("module", module)]
        elif first == "super":
            current = [("module", module.parent)] if module.parent else []
        else:
            current = self.lookup(module, first, seen)
        for segment in rest:
            following = []
            for kind, *value in current:
                if segment == "self":
                    following.append((kind, *value))
                elif segment == "super" and kind == "module":
                    if value[0].parent:
                        following.append(("module", value[0].parent))
                elif kind == "module":
                    following.extend(self.lookup(value[0], segment, seen))
                else:
                    following.append((kind, *value))  # a variant or associated item
            current = following
        return current


def modules_of(module):
    yield module
    for child in module.children.values():
        yield from modules_of(child)


def edges_of(crate):
    """{(importing file, defining file): {names}} for one crate. An import
    is an edge where the importing module's code uses the name: a `pub use`
    that only passes a name on is followed by the files importing it."""
    resolver = Resolver(crate)
    edges = {}
    for module in modules_of(crate.root):
        for segments, alias, glob in module.uses:
            if glob:
                found = []
                for kind, *value in resolver.resolve(module, segments):
                    if kind == "module":
                        names = names_of(value[0]) & module.code
                        for name in names:
                            found += [(name, t) for t in resolver.lookup(value[0], name, frozenset())]
            else:
                name = alias or segments[-1]
                if name == "self":
                    name = segments[-2]
                if name not in module.code:
                    continue
                found = [(name, t) for t in resolver.resolve(module, segments)]
            for name, (kind, *value) in found:
                file = value[0].file if kind == "module" else value[0]
                if file != module.file:
                    edges.setdefault((module.file, file), set()).add(name)
    return edges


def names_of(module):
    """Every name a module holds: children, items, imports (globs aside)."""
    names = set(module.children) | module.items
    for segments, alias, glob in module.uses:
        if not glob:
            names.add(alias or (segments[-2] if segments[-1] == "self" else segments[-1]))
    return names


def cycles(edges):
    """The strongly connected groups of two or more files (Tarjan)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups)


def crate_roots(root):
    crates = os.path.join(root, "crates")
    for name in sorted(os.listdir(crates)):
        src = os.path.join(crates, name, "src")
        for candidate in ("lib.rs", "main.rs"):
            if os.path.exists(os.path.join(src, candidate)):
                yield os.path.join(src, candidate)
        bins = os.path.join(src, "bin")
        if os.path.isdir(bins):
            for entry in sorted(os.listdir(bins)):
                if entry.endswith(".rs"):
                    yield os.path.join(bins, entry)


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    root = os.path.abspath(root)
    found = 0
    files = 0
    for root_file in crate_roots(root):
        try:
            crate = Crate(root_file)
        except (ScanError, IndexError, OSError) as e:
            print(f"import_cycles: {root_file}: {e}", file=sys.stderr)
            return 2
        files += len(crate.files)
        edges = edges_of(crate)
        for group in cycles(edges):
            found += 1
            rel = lambda f: os.path.relpath(f, root)
            print(f"cycle between {len(group)} files:")
            for a in group:
                for b in group:
                    if (a, b) in edges:
                        names = ", ".join(sorted(edges[(a, b)]))
                        print(f"  {rel(a)} -> {rel(b)} ({names})")
    if found:
        print(f"import_cycles: {found} cycle(s) among the crates' files", file=sys.stderr)
        return 1
    print(f"import_cycles: no cycle among {files} files", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
