"""okl.record.record behaves as dataclasses.dataclass (issue 30: records are not compiled at
import): the same class is declared both ways and every behaviour is compared."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from okl.record import record


def _pair(decorate):
    """Two declarations of one class: plain and frozen, with every kind of field okl uses."""

    @decorate()
    class Plain:
        """A plain record."""

        name: str
        count: int
        items: list[int] = field(default_factory=list)
        label: str = "x"
        hidden: int = field(default=0, repr=False, compare=False)
        derived: list[str] = field(init=False, default_factory=list)

        def __post_init__(self) -> None:
            self.derived.append(self.name * 2)

    @decorate(frozen=True)
    class Frozen:
        file: str
        line: int
        extra: tuple | None = None

    return Plain, Frozen


def _dataclass(frozen: bool = False):
    return dataclass(frozen=frozen)


def _record(frozen: bool = False):
    return record(frozen=frozen)


CALLS = [((("a", 1), {})), (("a", 1, [2]), {"label": "y"}), (("a",), {"count": 3}),
         ((), {"name": "b", "count": 2, "hidden": 5})]


@pytest.mark.parametrize("args, kwargs", CALLS)
def test_init_repr_eq_as_dataclass(args, kwargs):
    (dc, _), (rc, _) = _pair(_dataclass), _pair(_record)
    a, b = dc(*args, **kwargs), rc(*args, **kwargs)
    assert vars(a) == vars(b)
    assert repr(a) == repr(b)
    assert (dc(*args, **kwargs) == a) and (rc(*args, **kwargs) == b)
    assert rc("other", 1) != b and b != a  # another class is never equal
    assert rc.__hash__ is None and dc.__hash__ is None
    assert [f.name for f in dataclasses.fields(rc)] == [f.name for f in dataclasses.fields(dc)]
    assert vars(dataclasses.replace(b, label="z")) == vars(dataclasses.replace(a, label="z"))


def test_hidden_fields_are_not_compared():
    rc, _ = _pair(_record)
    assert rc("a", 1, hidden=1) == rc("a", 1, hidden=2)


@pytest.mark.parametrize("args, kwargs", [((), {}), (("a", 1, 2), {"count": 3}),
                                          (("a", 1, [], "l", 0, 9), {}),
                                          (("a", 1), {"derived": []}), (("a", 1), {"no": 1})])
def test_bad_arguments_are_type_errors(args, kwargs):
    (dc, _), (rc, _) = _pair(_dataclass), _pair(_record)
    with pytest.raises(TypeError):
        dc(*args, **kwargs)
    with pytest.raises(TypeError):
        rc(*args, **kwargs)


def test_frozen_as_dataclass():
    (_, df), (_, rf) = _pair(_dataclass), _pair(_record)
    a, b = df("f", 1, ("m", None)), rf("f", 1, ("m", None))
    assert repr(a) == repr(b) and hash(a) == hash(b) and {b: 1}[rf("f", 1, ("m", None))] == 1
    for obj in (a, b):
        with pytest.raises(dataclasses.FrozenInstanceError):
            obj.line = 2
        with pytest.raises(dataclasses.FrozenInstanceError):
            del obj.line
        with pytest.raises(dataclasses.FrozenInstanceError):
            obj.other = 1
    assert dataclasses.replace(b, line=3).line == 3


def test_own_methods_are_kept_and_self_reference_repr():
    @record
    class Node:
        name: str
        parent: object = None

        def __repr__(self) -> str:
            return f"<{self.name}>"

    @record
    class Loop:
        body: list = field(default_factory=list)

    assert repr(Node("n")) == "<n>"
    loop = Loop()
    loop.body.append(loop)
    assert repr(loop).endswith("Loop(body=[...])")


def test_descriptor_fields_as_dataclass():
    """okl.model.kernel's Deferred: a data descriptor as a field, without a default."""

    class Lazy:
        def __set_name__(self, owner, name):
            self.name = name

        def __get__(self, obj, owner=None):
            if obj is None:
                raise AttributeError(self.name)
            value = obj.__dict__[self.name]
            return value() if callable(value) else value

        def __set__(self, obj, value):
            obj.__dict__[self.name] = value

    def declare(decorate):
        @decorate
        class Param:
            name: str
            loc: str = Lazy()  # type: ignore[assignment]
            restrict: bool = False
        return Param

    for cls in (declare(dataclass), declare(record)):
        assert cls("p", lambda: "here").loc == "here"
        with pytest.raises(TypeError):
            cls("p")
