"""A pure-Python stand-in for the part of msgspec that :mod:`.messages` uses, for where msgspec cannot be
installed (the device host under Pyodide, docs/architecture.md "The device host").

:class:`Struct` takes the same class keywords (``omit_defaults``, ``tag_field``, ``tag``) and
:func:`encode` writes the same JSON as ``msgspec.json.Encoder().encode`` for the same message: the tag
field first, then the fields in the order they are declared (a base's first), a field equal to its
default left out when ``omit_defaults``, compact separators, no ASCII escaping.

>>> class Base(Struct, omit_defaults=True, tag_field="type"):
...     v: int
>>> class Ping(Base, tag="ping"):
...     text: str
...     extra: int | None = None
>>> encode(Ping(v=2, text="ñ"))
b'{"type":"ping","v":2,"text":"\\xc3\\xb1"}'
>>> Ping(2, "a", extra=3)
Ping(v=2, text='a', extra=3)
"""

from __future__ import annotations

import inspect
import json
from typing import Any, ClassVar

_MISSING: Any = object()


class Struct:
    """A record with declared fields (class annotations), made with positional or keyword arguments."""

    __struct_fields__: ClassVar[tuple[str, ...]] = ()
    __struct_defaults__: ClassVar[dict[str, Any]] = {}
    __struct_omit_defaults__: ClassVar[bool] = False
    __struct_tag_field__: ClassVar[str | None] = None
    __struct_tag__: ClassVar[str | None] = None

    def __init_subclass__(
        cls,
        *,
        omit_defaults: bool | None = None,
        tag_field: str | None = None,
        tag: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        fields = list(cls.__struct_fields__)
        defaults = dict(cls.__struct_defaults__)
        for name, annotation in inspect.get_annotations(cls).items():
            if "ClassVar" in str(annotation) or name.startswith("__"):
                continue
            if name not in fields:
                fields.append(name)
            value = cls.__dict__.get(name, _MISSING)
            if value is not _MISSING:
                defaults[name] = value
                delattr(cls, name)
        with_default = [name in defaults for name in fields]
        if any(with_default) and not all(with_default[with_default.index(True) :]):
            raise TypeError(f"{cls.__name__}: a required field follows a field with a default")
        cls.__struct_fields__ = tuple(fields)
        cls.__struct_defaults__ = defaults
        if omit_defaults is not None:
            cls.__struct_omit_defaults__ = omit_defaults
        if tag_field is not None:
            cls.__struct_tag_field__ = tag_field
        cls.__struct_tag__ = tag

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self.__struct_fields__
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__} takes at most {len(fields)} positional arguments")
        given = dict(zip(fields, args, strict=False))
        for name, value in kwargs.items():
            if name not in fields:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
            if name in given:
                raise TypeError(f"{type(self).__name__}: {name!r} given twice")
            given[name] = value
        for name in fields:
            if name in given:
                value = given[name]
            elif name in self.__struct_defaults__:
                value = self.__struct_defaults__[name]
            else:
                raise TypeError(f"{type(self).__name__} is missing required field {name!r}")
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__struct_fields__)
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__struct_fields__)

    __hash__ = None  # type: ignore[assignment]

    def _to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        tag_field, tag = self.__struct_tag_field__, self.__struct_tag__
        if tag_field is not None and tag is not None:
            out[tag_field] = tag
        defaults, omit = self.__struct_defaults__, self.__struct_omit_defaults__
        for name in self.__struct_fields__:
            value = getattr(self, name)
            if omit and name in defaults and _same(value, defaults[name]):
                continue
            out[name] = value
        return out


def _same(value: Any, default: Any) -> bool:
    """Whether ``value`` is its field's default, as msgspec's ``omit_defaults`` decides it."""
    if value is default:
        return True
    if default is None or isinstance(default, bool):
        return False
    return type(value) is type(default) and bool(value == default)


def _default(value: Any) -> Any:
    if isinstance(value, Struct):
        return value._to_json()
    raise TypeError(f"Encoding objects of type {type(value).__name__} is unsupported")


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_default, allow_nan=False)


def encode(message: Any) -> bytes:
    """``message`` (a :class:`Struct` or plain JSON data) as compact UTF-8 JSON."""
    return _ENCODER.encode(message).encode("utf-8")


__all__ = ["Struct", "encode"]
