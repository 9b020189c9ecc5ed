"""The C emitter: pycparser's generator with okl's braces, parentheses and ``#line``.

:class:`Emitter` prints the lowered ASTs of every target with ``#line`` directives so that a
backend compiler's errors point at the .okl file; :func:`uses_of` finds what a target's
prologue must declare for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from pycparser import c_ast, c_generator

from ..ctree import REVERSED_SLOTS, reversed_child_slots
from ..parser.cpp.preprocess import Expanded
from ..parser.linemarker import line_directive


def uses_of(nodes) -> set[str]:
    """Type and function names used in the given ASTs (for prologues)."""
    out: set[str] = set()
    # the slots read from the table here (the order does not matter): a call of child_slots
    # per node of the output cost more
    table = REVERSED_SLOTS
    for root in nodes:
        stack = [root]
        while stack:
            n = stack.pop()
            cls = type(n)
            if cls is c_ast.IdentifierType:
                out.update(n.names)
            elif cls is c_ast.FuncCall and isinstance(n.name, c_ast.ID):
                out.add(n.name.name)
            elif cls is c_ast.Constant and n.type == "double":
                if not n.value.lower().endswith("f"):
                    out.add("double")
            elif cls is c_ast.Decl and n.funcspec:  # a function's specifier macro
                out.update(n.funcspec)
            slots = table.get(cls)
            for slot in reversed_child_slots(cls) if slots is None else slots:
                value = getattr(n, slot)
                if value is None:
                    continue
                if type(value) is list:
                    stack.extend(value)
                else:
                    stack.append(value)
    return out


_SIMPLE = (c_ast.Assignment, c_ast.UnaryOp, c_ast.FuncCall, c_ast.Return, c_ast.Break,
           c_ast.Continue, c_ast.EmptyStatement)


_BITWISE = {"&", "|", "^"}
#: CGenerator._is_simple_node's classes: never parenthesized as operands (pycparser's node
#: classes have no subclasses, so the class itself decides)
_SIMPLE_NODES = frozenset({c_ast.Constant, c_ast.ID, c_ast.ArrayRef, c_ast.StructRef,
                           c_ast.FuncCall, c_ast.GenericSelection})


def _warns(parent: str, child: str) -> bool:
    """Would ``a child b`` unparenthesised inside ``parent`` draw -Wparentheses?"""
    if parent in _BITWISE:
        return child != parent
    if parent in ("<<", ">>"):
        return child in ("+", "-")
    return parent == "||" and child == "&&"


class Emitter(c_generator.CGenerator):
    """pycparser's generator with K&R braces plus exact ``#line`` directives.

    Every statement is printed with an invisible mark naming the source line it came from;
    :meth:`resolve` then walks the finished text line by line, keeps the line number the
    backend compiler will assume for each line, and writes ``#line`` only where that number
    would be wrong.  Lines okl made up (braces of lowered loops, pragmas, bookkeeping
    statements) carry no mark: they may be counted as any line.
    """

    _MARK = "\x00"

    def __init__(self, expanded: Expanded, *, line_directives: bool = True):
        super().__init__(reduce_parentheses=True)
        self.expanded = expanded
        self.line_directives = line_directives
        self._origins: list[tuple[str, int]] = []
        self._methods: dict[type, Callable[[c_ast.Node], str]] = {}

    def visit(self, node: c_ast.Node) -> str:
        """CGenerator.visit with the method found once per node class (it built the name
        ``visit_<class>`` and looked it up for every node)."""
        method = self._methods.get(node.__class__)
        if method is None:
            method = self._methods[node.__class__] = cast(Callable[[c_ast.Node], str], getattr(
                self, "visit_" + node.__class__.__name__, self.generic_visit))
        return method(node)

    def origin(self, node: c_ast.Node) -> tuple[str, int] | None:
        c = node.coord
        if c is None or not c.line:
            return None
        if 0 < c.line <= len(self.expanded.origins):
            return self.expanded.origins[c.line - 1]
        return None

    def _mark(self, node: c_ast.Node) -> str:
        if not self.line_directives or isinstance(node, (c_ast.Compound, c_ast.Pragma)):
            return ""
        where = self.origin(node)
        if where is None:
            return ""
        self._origins.append(where)
        return f"{self._MARK}{len(self._origins) - 1}{self._MARK}"

    def resolve(self, text: str) -> str:
        """Replace the marks in ``text`` by the ``#line`` directives that are needed."""
        out: list[str] = []
        current: tuple[str, int] | None = None  # (file, number of the next line)
        for line in text.split("\n"):
            where = None
            if self._MARK in line:
                parts = line.split(self._MARK)
                where = self._origins[int(parts[1])]
                line = "".join(parts[0::2])
            if where is not None and where != current:
                out.append(line_directive(where[1], where[0]))
                current = where
            out.append(line)
            if current is not None:
                current = (current[0], current[1] + 1)
        return "\n".join(out)

    def visit_BinaryOp(self, n: c_ast.BinaryOp) -> str:
        """Minimal parentheses, except where C compilers' -Wparentheses asks for them
        (``(k + 1) & 7``, ``(a && b) || c``): what reads well and compiles without noise."""
        def side(d: c_ast.Node, right: bool) -> str:
            text = self.visit(d)
            if type(d) in _SIMPLE_NODES:
                return text
            if isinstance(d, c_ast.BinaryOp):
                mine, theirs = self.precedence_map[n.op], self.precedence_map[d.op]
                tighter = theirs > mine if right else theirs >= mine
                if tighter and not _warns(n.op, d.op):
                    return text
            return f"({text})"
        return f"{side(n.left, False)} {n.op} {side(n.right, True)}"

    def _parenthesize_unless_simple(self, n: c_ast.Node) -> str:
        """pycparser's, without the closure it builds per call and the isinstance test
        over a tuple (array, member and call operands, about a tenth of the printing)."""
        s = self._visit_expr(n)
        return s if type(n) in _SIMPLE_NODES else "(" + s + ")"

    def visit_Cast(self, n: c_ast.Cast) -> str:
        """``(T)(a, b)`` as written: C reads it as a cast of a comma expression, OpenCL C as
        a vector literal (pycparser would print ``(T) ((a, b))``, a comma expression in both)."""
        if isinstance(n.expr, c_ast.ExprList):
            to = self._generate_type(n.to_type, emit_declname=False)
            return f"({to})({self.visit_ExprList(n.expr)})"
        return super().visit_Cast(n)

    # -- statements ------------------------------------------------------------------------
    def _generate_stmt(self, n: c_ast.Node, add_indent: bool = False) -> str:
        if add_indent:
            self.indent_level += 2
        indent = self._make_indent()
        if add_indent:
            self.indent_level -= 2
        mark = self._mark(n)
        if isinstance(n, (c_ast.Decl, c_ast.Assignment, c_ast.Cast, c_ast.UnaryOp,
                          c_ast.BinaryOp, c_ast.TernaryOp, c_ast.FuncCall, c_ast.ArrayRef,
                          c_ast.StructRef, c_ast.Constant, c_ast.ID, c_ast.Typedef,
                          c_ast.ExprList)):
            return mark + indent + self.visit(n) + ";\n"
        if isinstance(n, c_ast.Compound):
            return self.visit(n)
        return mark + indent + self.visit(n) + "\n"

    def _body(self, stmt: c_ast.Node, header: c_ast.Node | None = None) -> str:
        """What follows a control header: `` {`` ... ``}``, or one statement -- on the header's
        line when it was written there (``if (i < n) x[i] = 0;``), else indented below."""
        if isinstance(stmt, c_ast.Compound):
            s = " {\n"
            self.indent_level += 2
            s += "".join(self._generate_stmt(x) for x in stmt.block_items or [])
            self.indent_level -= 2
            return s + self._make_indent() + "}"
        if header is not None and isinstance(stmt, _SIMPLE) and \
                self.origin(stmt) is not None and self.origin(stmt) == self.origin(header):
            text = self._generate_stmt(stmt)
            if self._MARK in text:  # the header's line already says where this is
                text = "".join(text.split(self._MARK)[0::2])
            return " " + text.strip()
        return "\n" + self._generate_stmt(stmt, add_indent=True).rstrip("\n")

    def visit_FuncDef(self, n: c_ast.FuncDef) -> str:
        decl = self.visit(n.decl)
        self.indent_level = 0
        return decl + self._body(n.body) + "\n"

    def visit_If(self, n: c_ast.If) -> str:
        s = "if (" + (self.visit(n.cond) if n.cond else "") + ")" + self._body(n.iftrue, n)
        if n.iffalse is not None:
            s += " else" if isinstance(n.iftrue, c_ast.Compound) else \
                "\n" + self._make_indent() + "else"
            if isinstance(n.iffalse, c_ast.If):
                s += " " + self._mark(n.iffalse) + self.visit(n.iffalse)
            else:
                s += self._body(n.iffalse)
        return s

    def visit_For(self, n: c_ast.For) -> str:
        s = "for ("
        if n.init:
            s += self.visit(n.init)
        s += ";"
        if n.cond:
            s += " " + self.visit(n.cond)
        s += ";"
        if n.next:
            s += " " + self.visit(n.next)
        return s + ")" + self._body(n.stmt, n)

    def visit_While(self, n: c_ast.While) -> str:
        return "while (" + (self.visit(n.cond) if n.cond else "") + ")" + \
            self._body(n.stmt, n)

    def visit_DoWhile(self, n: c_ast.DoWhile) -> str:
        s = "do" + self._body(n.stmt)
        s += " " if isinstance(n.stmt, c_ast.Compound) else "\n" + self._make_indent()
        return s + "while (" + (self.visit(n.cond) if n.cond else "") + ");"

    def visit_Switch(self, n: c_ast.Switch) -> str:
        return "switch (" + self.visit(n.cond) + ")" + self._body(n.stmt)

    def visit_Pragma(self, n: c_ast.Pragma) -> str:
        return "#pragma " + n.string if n.string else "#pragma"

    def emit_external(self, node: c_ast.Node) -> str:
        """One file-scope item (function, declaration, typedef), marked with its origin."""
        mark = self._mark(node)
        if isinstance(node, (c_ast.FuncDef, c_ast.Pragma)):
            return tidy(mark + self.visit(node))
        return tidy(mark + self.visit(node) + ";")


def tidy(text: str) -> str:
    """Drop blank lines before a closing brace and runs of them, and trailing blanks."""
    lines = text.rstrip().split("\n")
    out: list[str] = []
    for line in lines:
        if line.strip() == "" and (not out or out[-1].strip() == ""):
            continue
        if line.strip() == "}" and out and out[-1].strip() == "":
            out.pop()
        out.append(line.rstrip())
    return "\n".join(out) + "\n"


def emit_file(nodes: list[c_ast.Node], expanded: Expanded, target, *,
              line_directives: bool = True) -> str:
    """The text of one translated file: ``target``'s prologue for what ``nodes`` use (and
    do not define), the user's system includes the target has no builtin for, then every
    node printed with ``#line`` directives."""
    emitter = Emitter(expanded, line_directives=line_directives)
    defined = {n.decl.name for n in nodes if isinstance(n, c_ast.FuncDef)} | \
        {n.name for n in nodes if isinstance(n, c_ast.Typedef)}
    uses = uses_of(nodes) - defined  # what the prologue must declare
    parts = [target.prologue(uses)]
    for inc in dict.fromkeys(expanded.system_includes):
        if not (target.gpu and inc in target.builtin_headers) and \
                f"#include {inc}\n" not in parts[0]:
            parts.append(f"#include {inc}\n")
    parts.append("\n")
    parts.append("\n".join(emitter.emit_external(node) for node in nodes))
    return emitter.resolve("".join(parts))
