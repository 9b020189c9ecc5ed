"""What every backend shares: the Target hooks and the C emitter.

A backend is a :class:`Target` subclass that answers a few questions -- how to spell a
kernel's qualifiers, a thread or group index, a barrier, an atomic update, shared memory,
``restrict``, which headers to put first -- and nothing else.  The lowering passes in
``okl.transforms`` ask those questions while they turn OKL into plain C ASTs, and
:class:`Emitter` prints the result with ``#line`` directives so that a backend compiler's
errors point at the .okl file.
"""

from __future__ import annotations

from pycparser import c_ast, c_generator

from ..parser.cparse import PRELUDE, PRELUDE_TYPES
from ..parser.preprocess import Expanded


class Target:
    """Hooks with the defaults of a C host target; GPU backends override."""

    mode = "serial"
    gpu = False
    restrict = "restrict"
    shared_storage: str | None = None  # e.g. "__shared__"; None: plain local arrays
    constant_storage: str | None = None
    device_function_storage: tuple[str, ...] = ()
    hoist_shared = False  # OpenCL: __local arrays must be declared at kernel scope
    math_names: dict[str, str] = {}
    reserved: frozenset[str] = frozenset()  # user identifiers to rename (prefix _okl_)
    # libc headers a device compiler provides itself (their functions are builtins there)
    builtin_headers = frozenset({"<math.h>", "<stdint.h>", "<stddef.h>", "<stdbool.h>",
                                 "<float.h>", "<limits.h>", "<cmath>", "<cstdint>",
                                 "<cstddef>", "<stdio.h>", "<stdlib.h>"})

    # -- text around the code ----------------------------------------------------------------
    def prologue(self, uses: set[str]) -> str:
        """Headers and definitions placed before the user's code; ``uses`` holds type names,
        function names and features (e.g. "double", "atomic_float") the code needs."""
        return ""

    def typedefs_for(self, uses: set[str]) -> str:
        out = []
        for name, spelled in PRELUDE_TYPES.items():
            if name in uses and name not in self.native_types():
                out.append(f"typedef {spelled} {name};\n")
        return "".join(out)

    def native_types(self) -> set[str]:
        return set()

    # -- kernels -------------------------------------------------------------------------------
    def kernel_storage(self, inner_dims: tuple[int, ...] | None,
                       max_threads: int | None) -> list[str]:
        return []

    def pointer_param_space(self) -> str | None:
        """Address-space qualifier for pointer parameters (OpenCL: __global)."""
        return None

    def index(self, kind: str, axis: int) -> c_ast.Node:
        raise NotImplementedError(f"{self.mode} has no thread indices")

    def barrier(self, kind: str) -> c_ast.Node | None:
        """The statement for a barrier; kind is "" (explicit), "warp" or "auto"."""
        return None

    def atomic(self, node: c_ast.Node, base: str, space: str, diags, loc) -> c_ast.Node:
        """Lower one @atomic statement; ``base`` is the target's C type ("" for a block),
        ``space`` "global" or "shared".  Serial code runs one thread: nothing to do."""
        return node


def uses_of(nodes) -> set[str]:
    """Type and function names used in the given ASTs (for prologues)."""
    out: set[str] = set()
    for root in nodes:
        stack = [root]
        while stack:
            n = stack.pop()
            if isinstance(n, c_ast.IdentifierType):
                out.update(n.names)
            elif isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID):
                out.add(n.name.name)
            elif isinstance(n, c_ast.Constant) and n.type == "double":
                if not n.value.lower().endswith("f"):
                    out.add("double")
            stack.extend(c for _, c in n.children())
    return out


class Emitter(c_generator.CGenerator):
    """pycparser's generator plus ``#line`` directives back to the original source."""

    def __init__(self, expanded: Expanded, *, line_directives: bool = True):
        super().__init__(reduce_parentheses=True)
        self.expanded = expanded
        self.line_directives = line_directives
        self._last: tuple[str, int] | None = None

    def origin(self, node: c_ast.Node) -> tuple[str, int] | None:
        c = node.coord
        if c is None or not c.line or c.file == PRELUDE:
            return None
        if 0 < c.line <= len(self.expanded.origins):
            return self.expanded.origins[c.line - 1]
        return None

    def line_marker(self, node: c_ast.Node) -> str:
        if not self.line_directives:
            return ""
        where = self.origin(node)
        if where is None or where == self._last:
            return ""
        last, self._last = self._last, where
        if last is not None and last[0] == where[0] and where[1] == last[1] + 1:
            return ""
        file = where[0].replace("\\", "\\\\").replace('"', '\\"')
        return f'#line {where[1]} "{file}"\n'

    def _generate_stmt(self, n: c_ast.Node, add_indent: bool = False) -> str:
        return self.line_marker(n) + super()._generate_stmt(n, add_indent)

    def visit_Pragma(self, n: c_ast.Pragma) -> str:
        return "#pragma " + n.string if n.string else "#pragma"

    def emit_external(self, node: c_ast.Node) -> str:
        """One file-scope item (function, declaration, typedef) with its #line."""
        marker = self.line_marker(node)
        if isinstance(node, (c_ast.FuncDef, c_ast.Pragma)):
            return tidy(marker + self.visit(node))
        return tidy(marker + self.visit(node) + ";")


def tidy(text: str) -> str:
    """pycparser leaves blank lines after every nested block; drop those before a closing
    brace and runs of them, so the output reads like hand-written code."""
    lines = text.rstrip().split("\n")
    out: list[str] = []
    for line in lines:
        if line.strip() == "" and (not out or out[-1].strip() == ""):
            continue
        if line.strip() == "}" and out and out[-1].strip() == "":
            out.pop()
        out.append(line.rstrip())
    return "\n".join(out) + "\n"
