"""Records: dataclasses whose methods are not compiled when their module is imported.

``@dataclass`` writes the source text of every method it adds (``__init__``, ``__repr__``,
``__eq__``; for a frozen class also ``__hash__``, ``__setattr__`` and ``__delattr__``) and
compiles each with ``exec``: about 0.5 ms a class and 0.8 ms a frozen one on the 2-core VM
where okl is measured.  ``oklc translate`` loads some forty such classes: 20 ms, a tenth of
its CPU time (issue 30).  :func:`record` makes the same class with methods that read the
fields from a table instead: 0.07 ms a class, and 1.3 us more to build a record (a
translation builds about two hundred).

A record is a dataclass to everything that asks (``dataclasses.fields``, ``replace``,
``is_dataclass``, mypy through ``dataclass_transform``), with the dataclass's behaviour:
positional and keyword ``__init__`` arguments in field order, defaults and default
factories, ``__post_init__``, ``repr`` and ``compare`` of ``field()``, equality between
records of the same class, and for ``frozen=True`` hashing and no assignment after
``__init__``.  A method the class defines itself is kept, as ``@dataclass`` keeps it.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**_kwargs):  # typing's only from Python 3.11, and for checkers
        return lambda f: f

_T = TypeVar("_T", bound=type)
_MISSING: Any = dataclasses.MISSING


@overload
def record(cls: _T, /) -> _T: ...
@overload
def record(*, frozen: bool = False) -> Callable[[_T], _T]: ...


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: Any = None, /, *, frozen: bool = False) -> Any:
    """``@dataclass`` or ``@dataclass(frozen=True)``, without compiling methods (see above)."""
    def wrap(c: _T) -> _T:
        return _build(c, frozen)
    return wrap if cls is None else wrap(cls)


def _build(cls: Any, frozen: bool) -> Any:
    own = set(vars(cls))  # what the class defines itself: kept
    # dataclass's rule: a __hash__ of the class's own, not the None that Python puts in
    # for a class that defines __eq__, is kept
    own_hash = "__hash__" in own and not (vars(cls)["__hash__"] is None and "__eq__" in own)
    if not cls.__doc__:  # dataclass would write one from inspect.signature: 1-2 ms
        cls.__doc__ = f"{cls.__name__}({', '.join(vars(cls).get('__annotations__', ()))})"
    cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False)  # fields only
    fields = dataclasses.fields(cls)
    methods = {"__init__": _init(cls, fields, frozen), "__repr__": _repr(fields),
               "__eq__": _eq(fields)}
    if frozen:
        methods.update(_frozen(cls, fields))
    for name, method in methods.items():
        if name not in own or name == "__hash__" and not own_hash:
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    if not frozen and not own_hash:
        cls.__hash__ = None  # type: ignore[assignment]  # as a dataclass with eq: unhashable
    return cls


def _default(f: dataclasses.Field) -> Callable[[], Any] | None:
    """A function giving the field's default, or None where it has none."""
    factory: Any = f.default_factory
    if factory is not _MISSING:
        return factory
    if f.default is not _MISSING:
        value = f.default
        return lambda: value
    return None


def _init(cls: type, fields: tuple[dataclasses.Field, ...], frozen: bool) -> Callable:
    names = tuple(f.name for f in fields if f.init)
    defaults = {f.name: d for f in fields if f.init and (d := _default(f)) is not None}
    later = [(f.name, d) for f in fields if not f.init and (d := _default(f)) is not None]
    post_init = hasattr(cls, "__post_init__")
    put = object.__setattr__ if frozen else setattr  # a frozen record's own setattr refuses
    count = len(names)
    # fills[n]: for a call with n positional arguments and no keywords (most of a
    # translation's records), each later init field with its default function, in order;
    # None where one has no default (the general path below says which).  Such a call
    # sets the fields without the two dict tests per field of the general path.  (Writing
    # the instance's __dict__ instead of setattr costs more: it turns the instance's
    # shared-key attributes into a dict of its own.)
    fills: list[tuple[tuple[str, Callable[[], Any]], ...] | None] = [
        None if any(n not in defaults for n in names[k:]) else
        tuple((n, defaults[n]) for n in names[k:]) for k in range(count + 1)]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if not kwargs and len(args) <= count:
            fill = fills[len(args)]
            if fill is not None:
                for name, value in zip(names, args, strict=False):  # len(args) <= count
                    put(self, name, value)
                for name, make in fill:
                    put(self, name, make())
                for name, default in later:
                    put(self, name, default())
                if post_init:
                    self.__post_init__()
                return
        if len(args) > count:
            raise TypeError(f"{type(self).__qualname__}() takes {count} positional "
                            f"arguments but {len(args)} were given")
        for name, value in zip(names, args, strict=False):  # len(args) <= count
            put(self, name, value)
        for name in names[len(args):]:
            if name in kwargs:
                put(self, name, kwargs.pop(name))
            elif name in defaults:
                put(self, name, defaults[name]())
            else:
                raise TypeError(f"{type(self).__qualname__}() missing argument '{name}'")
        if kwargs:  # unknown, or given by position too
            raise TypeError(f"{type(self).__qualname__}() got unexpected or repeated "
                            f"arguments: {', '.join(kwargs)}")
        for name, default in later:
            put(self, name, default())
        if post_init:
            self.__post_init__()
    return __init__


def _values(fields: list[str]) -> Callable[[Any], tuple]:
    """A function giving a record's values of ``fields`` as a tuple (what dataclass's
    ``__eq__`` and ``__hash__`` compare and hash)."""
    names = tuple(fields)
    return lambda self: tuple([getattr(self, n) for n in names])


def _repr(fields: tuple[dataclasses.Field, ...]) -> Callable:
    names = [f.name for f in fields if f.repr]

    @reprlib.recursive_repr()  # "..." for a record that holds itself, as dataclass does
    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{type(self).__qualname__}({inner})"
    return __repr__


def _eq(fields: tuple[dataclasses.Field, ...]) -> Callable:
    values = _values([f.name for f in fields if f.compare])

    def __eq__(self, other: object) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented
    return __eq__


def _frozen(cls: Any, fields: tuple[dataclasses.Field, ...]) -> dict[str, Callable]:
    names = frozenset(f.name for f in fields)
    values = _values([f.name for f in fields
                      if f.compare and (f.hash is None or f.hash)])

    def __setattr__(self, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self) -> int:
        return hash(values(self))
    return {"__setattr__": __setattr__, "__delattr__": __delattr__, "__hash__": __hash__}
