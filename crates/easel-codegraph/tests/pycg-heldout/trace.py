"""Ground truth for a held-out case: run it and record who calls whom.

Usage (Python 3.11+):  python3 trace.py <category>/<case>.case [--check]

The case's files are written to a temporary folder and `main.py` is imported under
`sys.setprofile`. Every Python frame entered and every C builtin called is recorded as a
caller -> callee edge in the suite's naming: modules by path (`pkg.mod`), functions by
qualified name (`main.Cls.method`, `main.f.g`), lambdas `<lambdaN>` numbered per enclosing
scope, comprehension and class-body calls given to the enclosing scope, code run by
eval/exec given to the frame that ran it, C builtins as `<builtin>.name`, library functions
as `module.name`. Every module and function of the case is a key. With --check, the graph
is compared with the case's own `=== callgraph`.

What the profiler cannot see, and is added by hand in each case: calls of builtin *types*
(int, list, map, range, super, ValueError, ...; warned about below from the source) and of
library classes (collections.OrderedDict, functools.partial, ...), and library functions in
frozen modules (os.path.exists). Library names are written as the case imports them
(`functools.reduce`, not `_functools.reduce`; `xml.etree.ElementTree.fromstring`, not its
alias `XML`), and calls a library makes inside itself (functools.wraps -> update_wrapper) are
removed by hand. Calls that a library's Python code makes back into the case are dropped (the
caller would be library code); a user function called by a C builtin (map, sorted(key=),
functools.reduce, a partial) is called by the frame that called the builtin. The decorator
types property, staticmethod and classmethod are not listed, as in tests/pycg. A
generator's body runs when it is iterated, so its caller is the frame that iterates it;
the cases only iterate a generator where it is made.
"""

import ast
import builtins
import contextlib
import importlib
import io
import json
import os
import sys
import tempfile

CO_OPTIMIZED = 0x1
COLLAPSED = {"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"}


def read_case(path):
    files, expected, cur, in_json = [], [], None, False
    for line in open(path).read().splitlines():
        if line.startswith("--- "):
            cur = [line[4:].strip(), []]
            files.append(cur)
            in_json = False
        elif line.strip() == "=== callgraph":
            in_json = True
        elif in_json:
            expected.append(line)
        elif cur is not None:
            cur[1].append(line)
    return [(p, "\n".join(src) + "\n") for p, src in files], "\n".join(expected)


def module_name(rel):
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def key(code):
    return (code.co_filename, code.co_firstlineno, code.co_qualname, code.co_code, code.co_names)


def name_codes(code, prefix, node, names, nodes, counter):
    """names[key] = (qualified name or None, node that its calls belong to)."""
    for c in code.co_consts:
        if not hasattr(c, "co_code"):
            continue
        if c.co_name in COLLAPSED:
            names[key(c)] = (None, node)
            name_codes(c, prefix, node, names, nodes, counter)
        elif c.co_name == "<lambda>":
            counter[0] += 1
            q = f"{prefix}.<lambda{counter[0]}>"
            names[key(c)] = (q, q)
            nodes.append(q)
            name_codes(c, q, q, names, nodes, [0])
        elif not c.co_flags & CO_OPTIMIZED:  # a class body
            q = f"{prefix}.{c.co_name}"
            names[key(c)] = (None, node)
            name_codes(c, q, node, names, nodes, [0])
        else:
            q = f"{prefix}.{c.co_name}"
            names[key(c)] = (q, q)
            nodes.append(q)
            name_codes(c, q, q, names, nodes, [0])


def type_call_warnings(rel, src):
    out = []
    for n in ast.walk(ast.parse(src)):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            b = getattr(builtins, n.func.id, None)
            if isinstance(b, type):
                out.append(f"{rel}:{n.lineno}: {n.func.id}(...) is a type: add <builtin>.{n.func.id} by hand if it is the builtin")
    return out


def main():
    case = sys.argv[1]
    files, expected = read_case(case)
    root = tempfile.mkdtemp()
    names, nodes, warnings = {}, [], []
    for rel, src in files:
        full = os.path.join(root, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(src)
        mod = module_name(rel)
        code = compile(src, full, "exec")
        names[key(code)] = (mod, mod)
        nodes.append(mod)
        name_codes(code, mod, mod, names, nodes, [0])
        warnings += type_call_warnings(rel, src)
    edges = {n: set() for n in nodes}
    generators = set()

    def node_of(frame):
        while frame is not None:
            if frame.f_code.co_filename == "<string>":  # eval / exec
                frame = frame.f_back
                continue
            hit = names.get(key(frame.f_code))
            return hit[1] if hit else None
        return None

    def profile(frame, event, arg):
        if event == "call":
            hit = names.get(key(frame.f_code))
            caller = node_of(frame.f_back)
            if caller is None:
                return
            if hit:
                if hit[0] is not None:
                    edges[caller].add(hit[0])
                    if frame.f_code.co_flags & 0x20:
                        generators.add(hit[0])
            elif not frame.f_code.co_filename.startswith("<") and frame.f_code.co_filename != __file__:
                mod = frame.f_globals.get("__name__", "?")
                edges[caller].add(f"{mod}.{frame.f_code.co_qualname}")
        elif event == "c_call":
            caller = node_of(frame)
            if caller is None or arg.__name__.startswith("__"):
                return
            owner = getattr(arg, "__self__", None)
            if owner is builtins:
                edges[caller].add(f"<builtin>.{arg.__name__}")
            elif type(owner) is type(sys) and owner.__name__ not in nodes:
                edges[caller].add(f"{owner.__name__}.{arg.__name__}")

    sys.path.insert(0, root)
    with contextlib.redirect_stdout(io.StringIO()):  # the program's own output
        sys.setprofile(profile)
        try:
            importlib.import_module("main")
        finally:
            sys.setprofile(None)
    got = {k: sorted(v) for k, v in sorted(edges.items())}
    print(json.dumps(got, indent=2))
    for w in warnings:
        print("warning:", w, file=sys.stderr)
    for g in sorted(generators):
        print(f"note: {g} is a generator: its callers are the frames that iterate it", file=sys.stderr)
    if "--check" in sys.argv:
        want = json.loads(expected)
        ge = {(k, v) for k, vs in got.items() for v in vs}
        we = {(k, v) for k, vs in want.items() for v in vs}
        print("only traced:", sorted(ge - we), file=sys.stderr)
        print("only in case:", sorted(we - ge), file=sys.stderr)
        print("keys only traced:", sorted(set(got) - set(want)), "keys only in case:", sorted(set(want) - set(got)), file=sys.stderr)


if __name__ == "__main__":
    main()
