"""OpenCL address spaces: which memory every pointer of the emitted program points into.

OpenCL C 1.2 has no generic address space.  A pointer's type names the memory it points
into -- ``__global``, ``__local``, ``__constant``, or ``__private`` -- and a pointer into one
space does not convert to another.  OKL, like C, leaves this implicit, so okl infers it:

* a kernel's pointer arguments point to ``__global`` memory, its @shared arrays are
  ``__local``, file-scope constants ``__constant``; everything a thread declares itself
  (locals, @exclusive variables, value arguments) is ``__private``;
* a local pointer variable points where the value it is set to points;
* a device function's pointer parameters point where the arguments of its calls point.  One
  function may be called with a @shared array in one place and a global pointer in another,
  so it is emitted once per combination of spaces its calls use, each copy named after its
  combination (``f_lg`` for (__local, __global)); a function called with one combination
  keeps its name.  A @shared parameter is always ``__local``.  A pointer whose target okl
  cannot tell keeps ``__global``, the only space OCCA ever gave pointer parameters.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field

from pycparser import c_ast

from ..ctree import clone, walk
from ..errors import Diagnostics

#: one letter per space, for the names of specialised device functions
_CODES = {"__global": "g", "__local": "l", "__constant": "c", "__private": "p"}
#: attributes of device-function parameters that declare where the argument points
_DECLARED = {"shared": "__local", "global": "__global"}
_WHAT = {"__global": "global memory", "__constant": "constant memory",
         "__local": "@shared memory",
         "__private": "a thread's own memory (a local or @exclusive variable)"}
Spaces = tuple[str, ...]
CallSpace = Callable[[c_ast.FuncCall, dict], "str | None"]


def address_spaces(nodes: list[c_ast.Node], program, diags: Diagnostics) -> None:
    """Give every pointer in ``nodes`` (the emitted file-scope items) its address space,
    replacing each device function by its specialised copies."""
    _Specialiser(nodes, program, diags).run()


@dataclass
class _Copy:
    """One specialised copy of a device function and the calls it makes."""

    node: c_ast.FuncDef
    calls: list[tuple[c_ast.FuncCall, str, Spaces]] = field(default_factory=list)
    returns: str | None = None  # where a returned pointer points


class _Specialiser:
    """Walks the call graph from the kernels, one copy of a device function per combination
    of argument spaces, then names the copies and points every call at its copy."""

    def __init__(self, nodes: list[c_ast.Node], program, diags: Diagnostics):
        self.nodes = nodes
        self.types = program.types
        self.expanded = program.expanded
        self.diags = diags
        self.constants = {n.name: "__constant" for n in nodes if isinstance(n, c_ast.Decl)
                          and n.name and "__constant" in n.storage}
        self.defs = {n.decl.name: n for n in nodes if isinstance(n, c_ast.FuncDef)
                     and "__kernel" not in n.decl.storage}
        # parameters whose space is declared: @shared (local memory), @global
        self.fixed = {name: {k: space for k, p in enumerate(_params(fn.decl.type))
                             for attr, space in _DECLARED.items()
                             if program.attrs.has(p, attr)}
                      for name, fn in self.defs.items()}
        self.copies: dict[str, dict[Spaces, _Copy]] = {name: {} for name in self.defs}
        self.pending: list[_Copy] = []
        self.kernel_calls: list[tuple[c_ast.FuncCall, str, Spaces]] = []
        self.reported: set[tuple] = set()

    def run(self) -> None:
        for n in self.nodes:
            if isinstance(n, c_ast.FuncDef) and "__kernel" in n.decl.storage:
                for p in _params(n.decl.type):
                    if _pointee(p.type, self.types, True) is not None and \
                            _space_of(p.type, self.types, True) is None:
                        _set_space(p, "__global", self.types, True)
                self._visit(n, self.kernel_calls)
        for name, fn in self.defs.items():  # functions no kernel calls: as declared
            if not self.copies[name]:
                self._request(name, tuple(self.fixed[name].get(k, "__global")
                                          for k in _pointer_params(fn.decl.type, self.types)))
        names = self._names()
        calls = self.kernel_calls + [c for by in self.copies.values() for cp in by.values()
                                     for c in cp.calls]
        for call, callee, spaces in calls:
            call.name = c_ast.ID(names[callee, spaces], coord=call.name.coord)
        self.nodes[:] = [x for n in self.nodes for x in self._replacement(n, names)]

    # -- the call graph ----------------------------------------------------------------------
    def _request(self, name: str, spaces: Spaces) -> None:
        """Make sure the copy of ``name`` for ``spaces`` exists and is (or will be) visited;
        visiting one copy can request others, so the queue drains here."""
        if spaces in self.copies[name]:
            return
        node = clone(self.defs[name])
        _apply(node.decl.type, spaces, self.types)
        self.copies[name][spaces] = made = _Copy(node)
        made.returns = self._returns(node)
        self.pending.append(made)
        if len(self.pending) == 1:
            while self.pending:
                cp = self.pending[0]
                self._visit(cp.node, cp.calls)
                self.pending.pop(0)

    def _env(self, fn: c_ast.FuncDef) -> dict[str, str]:
        """Where each name of ``fn`` points (pointers) or lives (everything else)."""
        env = dict(self.constants)
        for p in _params(fn.decl.type):
            if isinstance(p, c_ast.Decl) and p.name:
                env[p.name] = _space_of(p.type, self.types, True) or "__private"
        _local_spaces(fn.body, env, self.types, self._call_space)
        return env

    def _returns(self, fn: c_ast.FuncDef) -> str | None:
        """Where the pointer a copy returns points (the first return that says), set on its
        return type: without it the pointer would be private in OpenCL 1.2."""
        if _pointee(fn.decl.type.type, self.types) is None:
            return None
        env = self._env(fn)
        spaces = [_expr_space(n.expr, env, self._call_space) for n in walk(fn.body)
                  if isinstance(n, c_ast.Return) and n.expr is not None]
        space = next((sp for sp in spaces if sp), None)
        if space is not None:
            _set_space(fn.decl.type, space, self.types)
        return space

    def _call_space(self, call: c_ast.FuncCall, env: dict[str, str]) -> str | None:
        name = call.name.name if isinstance(call.name, c_ast.ID) else None
        if name is None or name not in self.defs:
            return None
        spaces = self._argument_spaces(call, env)
        cp = self.copies[name].get(spaces)
        if cp is None:
            self._request(name, spaces)
            cp = self.copies[name][spaces]
        return cp.returns

    def _visit(self, fn: c_ast.FuncDef, calls: list) -> None:
        env = self._env(fn)
        _cast_spaces(fn.body, env, self.types, self._call_space)
        for n in walk(fn.body):
            if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and \
                    n.name.name in self.defs:
                spaces = self._argument_spaces(n, env)
                calls.append((n, n.name.name, spaces))
                self._request(n.name.name, spaces)

    def _argument_spaces(self, call: c_ast.FuncCall, env: dict[str, str]) -> Spaces:
        name = call.name.name
        params = _params(self.defs[name].decl.type)
        args = call.args.exprs if call.args is not None else []
        out = []
        for k in _pointer_params(self.defs[name].decl.type, self.types):
            space = _expr_space(args[k], env, self._call_space) if k < len(args) else None
            fixed = self.fixed[name].get(k)
            if fixed is not None:
                if space not in (None, fixed):
                    self._wrong_space(args[k], name, params[k].name, fixed, space)
                space = fixed
            out.append(space or "__global")
        return tuple(out)

    def _wrong_space(self, arg: c_ast.Node, name: str, param: str, fixed: str,
                     space: str) -> None:
        loc = self.expanded.locate(arg.coord.line, arg.coord.column) if arg.coord else None
        if (loc, space) in self.reported:  # the same call in another copy of its function
            return
        self.reported.add((loc, space))
        attr = next(a for a, sp in _DECLARED.items() if sp == fixed)
        self.diags.error(f"'{name}' takes {_WHAT[fixed]} as '{param}' (@{attr}), but this "
                         f"argument points to {_WHAT[space]}", loc,
                         hint=f"pass {_WHAT[fixed]}, or remove @{attr} from '{param}'")

    # -- the output --------------------------------------------------------------------------
    def _names(self) -> dict[tuple[str, Spaces], str]:
        """The copy of a function called with one combination keeps the function's name;
        otherwise each is suffixed with its combination's letters (unique in the file)."""
        taken = {n.decl.name if isinstance(n, c_ast.FuncDef) else getattr(n, "name", None)
                 for n in self.nodes}
        names = {}
        for name, by in self.copies.items():
            for spaces in by:
                if len(by) == 1:
                    names[name, spaces] = name
                    continue
                new = f"{name}_{''.join(_CODES[s] for s in spaces)}"
                while new in taken:
                    new += "_"
                taken.add(new)
                names[name, spaces] = new
        return names

    def _replacement(self, n: c_ast.Node, names) -> list[c_ast.Node]:
        """A device function's definition or prototype becomes one per copy."""
        if isinstance(n, c_ast.FuncDef) and n.decl.name in self.defs:
            out = []
            for spaces, cp in self.copies[n.decl.name].items():
                _renamed(cp.node.decl, names[n.decl.name, spaces])
                out.append(cp.node)
            return out
        if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.FuncDecl):
            if n.name not in self.defs:  # defined elsewhere: pointers into global memory
                _apply(n.type, tuple("__global" for _ in _pointer_params(n.type, self.types)),
                       self.types)
                return [n]
            out = []
            for spaces, cp in self.copies[n.name].items():
                proto = clone(n)
                _apply(proto.type, spaces, self.types)
                if cp.returns is not None:
                    _set_space(proto.type, cp.returns, self.types)
                _renamed(proto, names[n.name, spaces])
                out.append(proto)
            return out
        return [n]


def _params(ftype: c_ast.FuncDecl) -> list[c_ast.Node]:
    return list(ftype.args.params) if ftype.args is not None else []


def _pointer_params(ftype: c_ast.FuncDecl, types) -> list[int]:
    """Positions of the parameters that point to data: pointers and arrays."""
    return [k for k, p in enumerate(_params(ftype)) if isinstance(p, (c_ast.Decl,
            c_ast.Typename)) and _pointee(p.type, types, True) is not None]


def _apply(ftype: c_ast.FuncDecl, spaces: Spaces, types) -> None:
    """Give the pointer parameters of ``ftype`` the spaces of one combination."""
    params = _params(ftype)
    for k, space in zip(_pointer_params(ftype, types), spaces, strict=False):
        _set_space(params[k], space, types, True)


def _renamed(decl: c_ast.Decl, name: str) -> None:
    decl.name = name
    t = decl.type.type
    while not isinstance(t, c_ast.TypeDecl):
        t = t.type
    t.declname = name


# -- pointer types ----------------------------------------------------------------------------
def _pointer_type(t: c_ast.Node, types) -> c_ast.Node | None:
    """``t`` as an explicit pointer type (typedefs expanded), else None."""
    quals: list[str] = []
    for _ in range(16):
        if isinstance(t, c_ast.PtrDecl):
            if quals:
                t = copy.copy(t)
                t.quals = list(t.quals) + [q for q in quals if q not in t.quals]
            return t
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType):
            target = types.typedefs.get(" ".join(t.type.names))
            if target is None:
                return None
            quals += t.quals
            t = target
            continue
        return None
    return None


def _pointee(t: c_ast.Node, types, params: bool = False) -> c_ast.TypeDecl | None:
    """The type whose qualifiers name the space that ``t`` points into, when ``t`` points
    to data (not to a pointer).  A parameter declared as an array is a pointer; any other
    array is an array of its elements, which may be pointers (``double *rows[4]``)."""
    if params and isinstance(t, c_ast.ArrayDecl):
        return _innermost(t.type)
    while isinstance(t, c_ast.ArrayDecl):
        t = t.type
    t = _pointer_type(t, types)
    return _innermost(t.type) if t is not None else None


def _innermost(t: c_ast.Node) -> c_ast.TypeDecl | None:
    while isinstance(t, c_ast.ArrayDecl):
        t = t.type
    return t if isinstance(t, c_ast.TypeDecl) else None


def _space_of(t: c_ast.Node, types, params: bool = False) -> str | None:
    inner = _pointee(t, types, params)
    return next((q for q in inner.quals if q in _CODES), None) if inner is not None else None


def _set_space(decl: c_ast.Node, space: str, types, params: bool = False) -> None:
    """Make ``decl`` point into ``space``, expanding a typedef'd pointer type if needed."""
    holder, t = decl, decl.type
    while not params and isinstance(t, c_ast.ArrayDecl):
        holder, t = t, t.type
    if not isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
        ptr = _pointer_type(t, types)
        if ptr is None:
            return
        ptr = clone(ptr)
        inner = ptr.type
        while not isinstance(inner, c_ast.TypeDecl):
            inner = inner.type
        inner.declname = t.declname
        holder.type = ptr
    inner = _pointee(decl.type, types, params)
    if inner is not None and not any(q in _CODES for q in inner.quals):
        inner.quals = [space] + list(inner.quals)


# -- what pointer values point to ----------------------------------------------------------
def _expr_space(e: c_ast.Node, env: dict[str, str], calls: CallSpace | None = None
                ) -> str | None:
    """Address space that the pointer value of expression ``e`` points into, if known;
    ``env`` maps a pointer variable to where it points and any other variable to where it
    lives; ``calls`` tells where the pointer a device function returns points."""
    if isinstance(e, c_ast.ID):
        return env.get(e.name)
    if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-"):
        return _expr_space(e.left, env, calls) or _expr_space(e.right, env, calls)
    if isinstance(e, c_ast.Cast):
        return _expr_space(e.expr, env, calls)
    if isinstance(e, c_ast.TernaryOp):
        return _expr_space(e.iftrue, env, calls) or _expr_space(e.iffalse, env, calls)
    if isinstance(e, c_ast.ArrayRef):  # a row of a multi-dimensional array
        return _expr_space(e.name, env, calls)
    if isinstance(e, c_ast.FuncCall):
        return calls(e, env) if calls is not None else None
    if isinstance(e, c_ast.UnaryOp) and e.op == "&":
        x = e.expr
        while isinstance(x, (c_ast.ArrayRef, c_ast.StructRef)):
            if isinstance(x, c_ast.StructRef) and x.type == "->":
                return _expr_space(x.name, env, calls)
            x = x.name
        return _expr_space(x, env, calls)
    return None


def _local_spaces(body: c_ast.Node, env: dict[str, str], types,
                  calls: CallSpace | None = None) -> None:
    """Add a function's own variables to ``env`` and give each local pointer variable the
    space of what it is set to (OpenCL 1.2 pointers that name no space are private, so
    ``float *row = x + i * n;`` into a ``__global`` argument would not compile)."""
    candidates: list[c_ast.Decl] = []
    sources: dict[tuple[str, int], list[c_ast.Node]] = {}  # (name, subscripts): values
    for n in walk(body):
        if isinstance(n, c_ast.Decl) and n.name and not isinstance(n.type, c_ast.FuncDecl):
            if "__local" in n.storage:
                env[n.name] = "__local"
            elif _pointee(n.type, types) is None:
                env[n.name] = "__private"
            elif space := _space_of(n.type, types):
                env[n.name] = space
            else:
                env.pop(n.name, None)
                candidates.append(n)
                if n.init is not None and not isinstance(n.type, c_ast.ArrayDecl):
                    sources.setdefault((n.name, 0), []).append(n.init)
        elif isinstance(n, c_ast.Assignment) and n.op == "=":
            target, depth = n.lvalue, 0
            while isinstance(target, c_ast.ArrayRef):  # an element of an array of pointers
                target, depth = target.name, depth + 1
            if isinstance(target, c_ast.ID):
                sources.setdefault((target.name, depth), []).append(n.rvalue)
    changed = True
    while changed:
        changed = False
        for decl in candidates:
            if decl.name in env:
                continue
            for rhs in sources.get((decl.name, _dims(decl.type)), []):
                space = _expr_space(rhs, env, calls)
                if space:
                    env[decl.name] = space
                    changed = True
                    break
    for decl in candidates:
        if decl.name in env:
            _set_space(decl, env[decl.name], types)


def _cast_spaces(body: c_ast.Node, env: dict[str, str], types, calls: CallSpace) -> None:
    """A cast to a pointer type names no space, which in OpenCL 1.2 means private: give it
    the space of the pointer it converts (``(float *)p`` of a __global p)."""
    for n in walk(body):
        if isinstance(n, c_ast.Cast) and _pointee(n.to_type.type, types) is not None and \
                _space_of(n.to_type.type, types) is None:
            space = _expr_space(n.expr, env, calls)
            if space is not None:
                _set_space(n.to_type, space, types)


def _dims(t: c_ast.Node) -> int:
    n = 0
    while isinstance(t, c_ast.ArrayDecl):
        t, n = t.type, n + 1
    return n
