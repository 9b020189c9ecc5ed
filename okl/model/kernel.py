"""The kernel model: what the user wrote, as facts the transforms and the runtime consume."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Any, overload

from pycparser import c_ast

from ..errors import Diagnostic, SourceLoc
from ..parser.cpp.preprocess import Expanded
from ..record import record
from .attach import AttributeMap
from .loops import LoopForm
from .types import CType, TypeTable

if TYPE_CHECKING:
    import numpy as np


class Deferred:
    """A dataclass field that may be given a zero-argument function instead of its value:
    the function is called when the field is first read, and its result kept.

    The model records where every kernel, parameter, loop and variable is, for diagnostics
    and for the runtime's messages; finding a column aligns the tokens of an expanded line
    with the original (Expanded.locate, about 40 us), and a translation that succeeds reads
    few of these locations (a fifteenth of a bk5 translate went to them).  Typed for the
    checker as a field that takes a location or a function giving one, and reads as a
    location."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Deferred: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> SourceLoc: ...

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:  # the dataclass asks for a default: there is none
            raise AttributeError(self.name)
        value = obj.__dict__[self.name]
        if callable(value):
            value = obj.__dict__[self.name] = value()
        return value

    def __set__(self, obj: object,
                value: SourceLoc | Callable[[], SourceLoc | None] | None) -> None:
        obj.__dict__[self.name] = value


@record
class Param:
    name: str
    ctype: CType
    node: c_ast.Decl
    loc: Deferred = Deferred()
    restrict: bool = False

    @property
    def dtype(self) -> np.dtype | None:
        """The numpy dtype (made when first asked for: the runtime asks, translation not)."""
        return self.ctype.dtype

    @property
    def descr(self):
        """The type as numpy describes it (okl.model.types.CType.descr); None for void."""
        return self.ctype.descr

    @property
    def is_pointer(self) -> bool:
        return self.ctype.pointer

    @property
    def is_const(self) -> bool:
        return self.ctype.const

    @property
    def c_type(self) -> str:
        return self.ctype.text


@record
class Loop:
    """An @outer or @inner loop and the attributed loops nested in it."""

    kind: str  # "outer" | "inner"
    node: c_ast.For
    form: LoopForm
    loc: Deferred = Deferred()
    parent: Loop | None = None
    children: list[Loop] = field(default_factory=list)
    axis: int = 0
    explicit_axis: bool = False
    in_regular: bool = False  # a plain loop sits between this loop and its attributed parent
    nobarrier: bool = False
    max_inner_dims: tuple[int, ...] | None = None

    @property
    def iterator(self) -> str:
        return self.form.iterator

    def trip_count(self) -> c_ast.Node:
        return self.form.trip_count()

    @property
    def trip_value(self) -> int | None:
        return self.form.trip_value()

    def path(self) -> list[Loop]:
        """This loop and its first descendants down to a leaf (OCCA's 'first deepest path')."""
        out, loop = [self], self
        while loop.children:
            loop = max(loop.children, key=lambda c: c.depth())
            out.append(loop)
        return out

    def depth(self) -> int:
        return 1 + max((c.depth() for c in self.children), default=0)

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


@record
class Variable:
    """A @shared or @exclusive declaration."""

    kind: str  # "shared" | "exclusive"
    name: str
    node: c_ast.Decl
    loc: Deferred = Deferred()
    # the innermost @outer loop it lives in (a Deferred field has no default at run time;
    # the checker takes its descriptor for one)
    outer: Loop  # type: ignore[misc]
    sizes: list[int | None] = field(default_factory=list)  # declared array sizes
    slots: int | None = None  # exclusive: threads per block = copies needed on CPU backends


@record
class Barrier:
    node: c_ast.Node
    kind: str  # "" (block), "warp", or the legacy "local"/"global"
    loc: Deferred = Deferred()


@record
class Atomic:
    node: c_ast.Node
    loc: Deferred = Deferred()


@record
class HostVar:
    """A variable computed on the host before an @outer loop and used inside it."""

    name: str
    ctype: CType
    node: c_ast.Node


@record
class Kernel:
    name: str
    node: c_ast.FuncDef
    loc: Deferred = Deferred()
    params: list[Param] = field(default_factory=list)
    outers: list[Loop] = field(default_factory=list)  # top-level @outer loops, source order
    shared: list[Variable] = field(default_factory=list)
    exclusive: list[Variable] = field(default_factory=list)
    barriers: list[Barrier] = field(default_factory=list)
    atomics: list[Atomic] = field(default_factory=list)
    captures: dict[int, list[HostVar]] = field(default_factory=dict)  # id(outer.node) -> vars

    def loops(self):
        for o in self.outers:
            yield from o.walk()

    def captured(self, outer: Loop) -> list[HostVar]:
        return self.captures.get(id(outer.node), [])


@record
class Program:
    """One translation unit after the front end: AST, attributes and kernels."""

    ast: c_ast.FileAST
    attrs: AttributeMap
    types: TypeTable
    expanded: Expanded
    kernels: list[Kernel]
    functions: list[c_ast.FuncDef]  # non-kernel functions (device functions)
    constants: list[c_ast.Decl]  # file-scope variables (const globals)
    warnings: list[Diagnostic]

    def kernel(self, name: str) -> Kernel:
        for k in self.kernels:
            if k.name == name:
                return k
        raise KeyError(name)
