"""YAML data files with line numbers, and the one cattrs converter that structures them.

Data is parsed only here, at the edge: a YAML file becomes plain Python data
plus a table of line numbers (:class:`DataFile`); :func:`structure` turns it
into frozen attrs classes through :data:`converter`, which forbids unknown keys
and accepts no silent type coercion. Every problem is collected and raised at
once as a :class:`~solo.core.errors.DataError` whose problems read
``path:line: message``.

Model classes know nothing about YAML; loaders call :func:`read` (or
:func:`read_card_file`) then :func:`structure`, then run their own checks with a
:class:`Problems` bag that names paths inside the document
(``("cards", 3, "initiative")``) and turns them into lines; :func:`check_unique`
is the one check for ids given twice, and :data:`SNAKE_ID` the one pattern of an id.

PyYAML and cattrs are imported when first needed (a file parsed, a document structured): a
process whose data all come from the parsed-data cache (:mod:`solo.data.data_cache`) imports
neither (issue 10, start-up). Hooks registered on :data:`converter` before then are kept, in
order, and given to the cattrs converter when it is built.
"""

from __future__ import annotations

import enum
import functools
import re
import typing
from collections.abc import Callable, Hashable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from solo.core.bounds import OutOfRangeError, range_of
from solo.core.errors import DataError, Problem
from solo.core.resources import cards_dir, display_name

T = TypeVar("T")
DocPath = tuple[str | int, ...]
"""A path inside a YAML document: mapping keys and list indices from the root."""


@attrs.frozen
class DataFile:
    """A YAML document read into plain Python data, with the line of every node.

    ``name`` is how problems name the file (a path relative to the data root
    when possible). ``lines`` maps each :data:`DocPath` to the 1-based line of
    the node's value; ``key_lines`` to the line of a mapping key.
    """

    name: str
    data: Any
    lines: dict[DocPath, int] = attrs.field(repr=False, eq=False)
    key_lines: dict[DocPath, int] = attrs.field(repr=False, eq=False)
    spans: dict[DocPath, tuple[int, int]] = attrs.field(factory=dict, repr=False, eq=False)
    """Source character span of every scalar node (for token lines)."""
    text: str = attrs.field(default="", repr=False, eq=False)

    def line_of(self, path: DocPath) -> int | None:
        """The line of ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        while True:
            if path in self.lines:
                return self.lines[path]
            if not path:
                return None
            path = path[:-1]

    def key_line_of(self, path: DocPath) -> int | None:
        """The line of the mapping key that ends ``path`` (else :meth:`line_of`)."""
        path = tuple(path)
        return self.key_lines.get(path) or self.line_of(path)

    def token_line(self, path: DocPath, n: int) -> int | None:
        """The line of the ``n``-th whitespace-separated token of the scalar at ``path``.

        For lists of hexes written over several lines (``sides: >-``); falls back
        to :meth:`line_of`.
        """
        span = self.spans.get(tuple(path))
        if span is None:
            return self.line_of(path)
        start, end = span
        if self.text[start : start + 1] in ("|", ">"):  # block scalar: skip the indicator line
            start = self.text.find("\n", start, end) + 1 or end
        chunk = self.text[start:end]
        count = -1
        in_token = False
        for i, ch in enumerate(chunk):
            if ch.isspace() or ch in "\"'|>":
                in_token = False
                continue
            if not in_token:
                in_token = True
                count += 1
                if count == n:
                    return self.text.count("\n", 0, start + i) + 1
        return self.line_of(path)

    def token_problem(self, path: DocPath, n: int, message: str) -> Problem:
        """A :class:`Problem` at the ``n``-th token of the scalar at ``path``."""
        return Problem(self.name, self.token_line(path, n), message)

    def problem(self, path: DocPath, message: str, *, at_key: bool = False) -> Problem:
        """A :class:`Problem` at ``path`` in this file."""
        line = self.key_line_of(path) if at_key else self.line_of(path)
        return Problem(self.name, line, message)


if TYPE_CHECKING:
    import cattrs


@functools.cache
def _yaml() -> Any:
    """The ``yaml`` module (PyYAML), imported on the first parse."""
    import yaml

    return yaml


@functools.cache
def _loader_class() -> Any:
    """libyaml's safe loader when PyYAML has it (ten times faster), else the pure-Python one."""
    yaml = _yaml()
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_text(text: str, name: str) -> DataFile:
    """Parse YAML ``text`` into a :class:`DataFile` named ``name``.

    Raises :class:`DataError` for malformed YAML, duplicate keys, or
    non-string-or-int mapping keys.
    """
    yaml = _yaml()
    try:
        loader = _loader_class()(text)
    except yaml.YAMLError as exc:  # e.g. a control character in the text
        raise DataError([Problem(name, 1, f"malformed YAML: {_first_line(exc)}")]) from None
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else last_line(text)
        what = _first_line(exc)
        if mark is not None and not text[mark.index :].strip():
            line = last_line(text)
            what = f"the file ends early (last line read: {line}): {what}"
        raise DataError([Problem(name, line, f"malformed YAML: {what}")]) from None
    except yaml.YAMLError as exc:
        raise DataError([Problem(name, last_line(text), f"malformed YAML: {_first_line(exc)}")]) from None
    except RecursionError:
        raise DataError([Problem(name, 1, "malformed YAML: nested too deeply")]) from None
    finally:
        loader.dispose()
    lines: dict[DocPath, int] = {}
    key_lines: dict[DocPath, int] = {}
    spans: dict[DocPath, tuple[int, int]] = {}
    problems: list[Problem] = []
    if node is None:
        return DataFile(name, None, lines, key_lines, spans, text)
    try:
        data = _build(loader, node, (), lines, key_lines, problems, name, spans, set())
    except RecursionError:
        raise DataError([Problem(name, 1, "malformed YAML: nested too deeply")]) from None
    if problems:
        raise DataError(problems)
    return DataFile(name, data, lines, key_lines, spans, text)


def last_line(text: str) -> int:
    """The number of the last line of ``text`` that holds anything (1 for an empty text)."""
    return max(1, len(text.rstrip().split("\n")) if text.strip() else 1)


def read(path: Path | Any, name: str | None = None) -> DataFile:
    """Read the YAML file at ``path`` (a :class:`~pathlib.Path` or importlib Traversable).

    Raises :class:`DataError` if the file cannot be read or parsed.
    """
    display = name if name is not None else str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError([Problem(display, None, f"cannot read file: {exc}")]) from None
    return read_text(text, display)


def read_card_file(path: Path | str | None, filename: str) -> DataFile:
    """Read the card file at ``path``, or the shipped ``cards/<filename>`` when ``path`` is None.

    Problems name the file by :func:`~solo.core.resources.display_name`. Raises
    :class:`DataError` if the file cannot be read or parsed.
    """
    p = cards_dir() / filename if path is None else Path(path)
    return read(p, display_name(p))


def _first_line(exc: BaseException) -> str:
    if "maximum nesting depth" in str(exc):  # libyaml's words
        return "nested too deeply"
    if isinstance(exc, _yaml().MarkedYAMLError) and exc.problem:
        return str(exc.problem)
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _construct_errors() -> tuple[type[BaseException], ...]:
    """What constructing a YAML node may raise (a bad value, not a bug)."""
    return (_yaml().YAMLError, ValueError, TypeError, OverflowError)


def _build(
    loader: Any,
    node: Any,
    path: DocPath,
    lines: dict[DocPath, int],
    key_lines: dict[DocPath, int],
    problems: list[Problem],
    name: str,
    spans: dict[DocPath, tuple[int, int]],
    seen: set[int],
) -> Any:
    line = node.start_mark.line + 1
    lines[path] = line
    if id(node) in seen:  # an alias: the same node met again
        problems.append(
            Problem(
                name, line, "YAML anchors and aliases (&name, *name) are not allowed; write the value out"
            )
        )
        return None
    seen.add(id(node))
    if node.id == "mapping":  # PyYAML's MappingNode (``id`` names a node's class)
        out: dict[Any, Any] = {}
        if any(k.tag == "tag:yaml.org,2002:merge" for k, _v in node.value):
            problems.append(Problem(name, line, "YAML merge keys (<<) are not allowed; write the keys out"))
            return None
        for knode, vnode in node.value:
            try:
                key = loader.construct_object(knode, deep=True)
            except _construct_errors() as exc:
                problems.append(Problem(name, knode.start_mark.line + 1, f"bad key: {_first_line(exc)}"))
                continue
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                problems.append(
                    Problem(
                        name,
                        knode.start_mark.line + 1,
                        f"mapping key {key!r} must be a string or an integer",
                    )
                )
                continue
            if key in out:
                problems.append(
                    Problem(
                        name,
                        knode.start_mark.line + 1,
                        f"duplicate key {key!r} (first on line {key_lines[(*path, key)]})",
                    )
                )
                continue
            key_lines[(*path, key)] = knode.start_mark.line + 1
            out[key] = _build(loader, vnode, (*path, key), lines, key_lines, problems, name, spans, seen)
        return out
    if node.id == "sequence":
        return [
            _build(loader, child, (*path, i), lines, key_lines, problems, name, spans, seen)
            for i, child in enumerate(node.value)
        ]
    spans[path] = (node.start_mark.index, node.end_mark.index)
    try:
        return loader.construct_object(node, deep=True)
    except _construct_errors() as exc:
        problems.append(Problem(name, line, f"bad value: {_first_line(exc)}"))
        return None


# ---------------------------------------------------------------------------
# The converter


def _strict(kind: type, label: str) -> Callable[[Any, type], Any]:
    def hook(value: Any, _type: type) -> Any:
        if isinstance(value, bool) and kind is not bool:
            raise TypeError(f"expected {label}, got {value!r}")
        if kind is float and isinstance(value, int):
            return float(value)
        if not isinstance(value, kind):
            raise TypeError(f"expected {label}, got {describe(value)}")
        return value

    return hook


def describe(value: Any) -> str:
    """How a problem names a value that has the wrong shape: ``nothing``, ``a mapping``, ``a list``
    or its ``repr``."""
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{value!r}"


def _enum_hook(value: Any, cls: type[enum.Enum]) -> enum.Enum:
    try:
        return cls(value)
    except ValueError:
        options = ", ".join(repr(m.value) for m in cls)
        raise ValueError(f"unknown value {value!r} (expected one of {options})") from None


def str_enum_hook(value: Any, cls: type[enum.StrEnum]) -> enum.StrEnum:
    """Structure a :class:`enum.StrEnum` strictly (the converter's ``str`` hook would take any string).

    Modules register it for their own StrEnums:
    ``converter.register_structure_hook(Weather, str_enum_hook)``.
    """
    if isinstance(value, str):
        try:
            return cls(value)
        except ValueError:
            pass
    options = ", ".join(repr(m.value) for m in cls)
    raise ValueError(f"unknown value {value!r} (expected one of {options})")


def make_converter() -> cattrs.Converter:
    """A converter that forbids unknown keys and never coerces types silently.

    ``int`` fields take only YAML integers, ``str`` only strings, ``bool`` only
    booleans, ``float`` numbers; enums take their values; tuples take lists.
    Modules register hooks for their own value types (e.g. ``Hex``) on
    :data:`converter` at import time.
    """
    import cattrs
    import cattrs.cols

    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    conv.register_structure_hook(int, _strict(int, "an integer"))
    conv.register_structure_hook(str, _strict(str, "a string"))
    conv.register_structure_hook(bool, _strict(bool, "true or false"))
    conv.register_structure_hook(float, _strict(float, "a number"))
    conv.register_structure_hook_func(lambda t: isinstance(t, type) and issubclass(t, enum.Enum), _enum_hook)
    strict_int = _strict(int, "an integer")

    def _bounded(value: Any, tp: Any) -> Any:
        value = strict_int(value, int)
        bound = range_of(tp)
        if bound is not None and not bound.lo <= value <= bound.hi:
            raise OutOfRangeError(value, bound)
        return value

    conv.register_structure_hook_func(lambda t: range_of(t) is not None, _bounded)

    # Sequences take YAML lists only (a string would otherwise be split into
    # characters); mappings take YAML mappings only.
    def _is_homogeneous(t: Any) -> bool:
        args = typing.get_args(t)
        origin = typing.get_origin(t)
        return (origin is tuple and len(args) == 2 and args[1] is Ellipsis) or origin is list

    def _sequence_factory(t: Any) -> Callable[[Any, Any], Any]:
        if typing.get_origin(t) is list:
            inner = cattrs.cols.list_structure_factory(t, conv)
        else:
            inner = cattrs.cols.homogenous_tuple_structure_factory(t, conv)

        def hook(value: Any, tp: Any) -> Any:
            if not isinstance(value, list):
                raise TypeError(f"expected a list, got {describe(value)}")
            return inner(value, tp)

        return hook

    def _mapping_factory(t: Any) -> Callable[[Any, Any], Any]:
        inner = conv.gen_structure_mapping(t)

        def hook(value: Any, tp: Any) -> Any:
            if not isinstance(value, dict):
                raise TypeError(f"expected a mapping, got {describe(value)}")
            return inner(value, tp)

        return hook

    conv.register_structure_hook_factory(_is_homogeneous, _sequence_factory)
    conv.register_structure_hook_factory(_is_dict, _mapping_factory)
    return conv


def _is_dict(t: Any) -> bool:
    origin: Any = typing.get_origin(t)
    return origin is dict


class _Converter:
    """The one converter, built by :func:`make_converter` on first use.

    ``register_structure_hook``, ``register_structure_hook_func`` and
    ``register_structure_hook_factory`` called before it is built are kept and made on it, in
    the same order, when it is; every other attribute is the built converter's.
    """

    _REGISTER = frozenset(
        ("register_structure_hook", "register_structure_hook_func", "register_structure_hook_factory")
    )

    def __init__(self) -> None:
        self._built: cattrs.Converter | None = None
        self._kept: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def built(self) -> cattrs.Converter:
        """The cattrs converter, with every hook registered so far."""
        if self._built is None:
            conv = make_converter()
            for name, args, kwargs in self._kept:
                getattr(conv, name)(*args, **kwargs)
            self._kept.clear()
            self._built = conv
        return self._built

    def __getattr__(self, name: str) -> Any:
        if name in self._REGISTER and self._built is None:

            def keep(*args: Any, **kwargs: Any) -> Any:
                if len(args) < 2 and not kwargs:  # the decorator form: it needs the converter
                    return getattr(self.built(), name)(*args)
                self._kept.append((name, args, kwargs))
                return None

            return keep
        return getattr(self.built(), name)


converter: cattrs.Converter = _Converter()  # type: ignore[assignment]  # a lazy proxy: forwards to the built Converter
"""The one converter for every data file (see :func:`make_converter`), built on first use."""


def structure(doc: DataFile, cls: type[T], at: DocPath = ()) -> T:
    """Structure the node at ``at`` of ``doc`` into ``cls``.

    Raises :class:`DataError` listing every problem with its line.
    """
    data = doc.data
    for step in at:
        data = data[step]
    if data is None and not at and attrs.has(cls):
        n = last_line(doc.text)
        raise DataError(
            [Problem(doc.name, n, f"the file holds no data (last line read: {n}); is it cut short?")]
        )
    try:
        return converter.structure(data, cls)
    except Exception as exc:  # cattrs raises groups of arbitrary exceptions
        raise DataError(list(_problems_from(exc, doc, tuple(at), cls))) from None


def structure_all(doc: DataFile, cls: type[T]) -> tuple[T, DataFile, list[Problem]]:
    """Structure all of ``doc`` into ``cls``, going on past the problems it can step over.

    Returns ``(obj, used, problems)``. Without a problem: ``(obj, doc, [])``. Else
    ``problems`` are the ones :func:`structure` raises, and the structuring is tried again
    with each offending mapping key left out (a wrong value of a key with a default, a key
    that is not known), so that a checker can go on to the independent problems of the rest
    (hexes, ids...) in one run: ``obj`` is then built from ``used``, a copy of ``doc`` with
    those keys left out (the same lines). When that is not possible (a required key missing
    or wrong, a wrong list item, a file with no data) :class:`DataError` is raised with
    ``problems``, as :func:`structure` raises it.
    """
    try:
        return structure(doc, cls), doc, []
    except DataError as exc:
        problems = list(exc.problems)
        if doc.data is None:
            raise
    import copy

    data = copy.deepcopy(doc.data)
    for _ in range(_STRUCTURE_TRIES):
        try:
            obj = converter.structure(data, cls)
        except Exception as exc:  # cattrs raises groups of arbitrary exceptions
            found = list(_located(exc, doc, (), cls))
            if not found or not all(removable for _path, _problem, removable in found):
                break
            if not all([_leave_out(data, path) for path, _problem, _removable in found]):
                break
            continue
        return obj, attrs.evolve(doc, data=data), problems
    raise DataError(problems)


_STRUCTURE_TRIES = 4
"""How many rounds of leaving keys out :func:`structure_all` tries (a round per nesting level)."""


_MISSING = object()


def node_at(data: Any, path: DocPath, default: Any = None) -> Any:
    """The node of the unstructured ``data`` at ``path`` (mapping keys and list indexes), or
    ``default`` where the path leads nowhere."""
    node = data
    for step in path:
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]  # (one branch each: mypy narrows the index type apart)
        else:
            return default
    return node


def _leave_out(data: Any, path: DocPath) -> bool:
    """Delete the mapping key at ``path`` of ``data``; False when ``path`` is not one."""
    if not path or not isinstance(path[-1], str):
        return False
    node = node_at(data, path[:-1], _MISSING)
    if not isinstance(node, dict) or path[-1] not in node:
        return False
    del node[path[-1]]
    return True


def _problems_from(exc: BaseException, doc: DataFile, path: DocPath, cls: Any) -> Iterator[Problem]:
    for _path, problem, _removable in _located(exc, doc, path, cls):
        yield problem


def _located(
    exc: BaseException, doc: DataFile, path: DocPath, cls: Any
) -> Iterator[tuple[DocPath, Problem, bool]]:
    """Each problem of ``exc`` with the path of its node and whether leaving that mapping key
    out may get past it (False: a required key is missing)."""
    from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError

    if isinstance(exc, IterableValidationError):
        with_notes, without = exc.group_exceptions()
        for sub, note in with_notes:
            yield from _located(sub, doc, (*path, note.index), note.type)
        for sub in without:
            yield from _located(sub, doc, path, None)
    elif isinstance(exc, ClassValidationError):
        attr_notes, attr_without = exc.group_exceptions()
        for sub, attr_note in attr_notes:
            if isinstance(sub, KeyError):
                yield path, doc.problem(path, f"missing required key {attr_note.name!r}"), False
            else:
                yield from _located(sub, doc, (*path, attr_note.name), attr_note.type)
        for sub in attr_without:
            yield from _located(sub, doc, path, None)
    elif isinstance(exc, ForbiddenExtraKeysError):
        allowed = sorted(f.name for f in attrs.fields(exc.cl)) if attrs.has(exc.cl) else []
        for key in sorted(exc.extra_fields, key=str):
            at = (*path, key)
            yield (
                at,
                doc.problem(at, f"unknown key {key!r} (expected one of: {', '.join(allowed)})", at_key=True),
                True,
            )
    elif isinstance(exc, BaseExceptionGroup):
        for member in exc.exceptions:
            yield from _located(member, doc, path, cls)
    elif isinstance(exc, OutOfRangeError):
        yield path, doc.problem(path, f"{_field(path)}: {exc}"), True
    else:
        yield path, doc.problem(path, f"{_message(exc, cls)}{_where(path)}"), True


def _field(path: DocPath) -> str:
    names = [step for step in path if isinstance(step, str)]
    return names[-1] if names else format_path(path)


def _message(exc: BaseException, cls: Any) -> str:
    """What a designer reads for ``exc``: never a Python class name nor a raw exception text."""
    text = str(exc) if isinstance(exc, (TypeError, ValueError)) else ""
    if text and (isinstance(exc, ValueError) or "expected" in text or "unknown" in text or "must" in text):
        return text  # the converter's hooks and the parsers speak the designer's language
    if attrs.has(cls) or (isinstance(cls, type) and issubclass(cls, dict)) or _is_mapping_type(cls):
        return "expected a mapping"
    if typing.get_origin(cls) in (list, tuple):
        return "expected a list"
    return "invalid value"


def _is_mapping_type(tp: Any) -> bool:
    return typing.get_origin(tp) is dict


def _where(path: DocPath) -> str:
    return f" (at {format_path(path)})" if path else ""


def format_path(path: DocPath) -> str:
    """``("cards", 3, "id")`` → ``cards[3].id``."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "(top)"


class Problems:
    """A bag of problems found while checking a structured document.

    ``add`` takes a path inside ``doc``; ``raise_if_any`` raises one
    :class:`DataError` with everything collected (this bag's and ``others``).
    """

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, doc: DataFile, path: DocPath, message: str, *, at_key: bool = False) -> None:
        """Record a problem at ``path`` of ``doc``."""
        self.items.append(doc.problem(path, message, at_key=at_key))

    def extend(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        """Record problems found elsewhere."""
        self.items.extend(problems)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        """Raise :class:`DataError` if any problem was recorded."""
        if self.items:
            raise DataError(self.items)


SNAKE_ID = re.compile(r"^[a-z][a-z0-9_]*$")
"""The pattern of an id in the data files: snake_case, starting with a letter (``"aimed_fire"``)."""


def check_unique(
    probs: Problems, doc: DataFile, ids: Iterable[tuple[DocPath, Hashable | None]], message: str
) -> dict[Any, DocPath]:
    """Record a problem at every id already met in ``ids``; return where each id is first met.

    ``ids`` gives, in file order, each id (``None``: none given, not checked) with the path it
    is written at. ``message`` is a :meth:`str.format` template naming the repeated ``id`` and
    the first one's ``index`` in ``ids`` (from 0), ``number`` (from 1), ``line`` and path
    ``first``: ``"duplicate weapon id {id!r} (first in entry {number})"``.
    """
    first: dict[Any, tuple[int, DocPath]] = {}
    for k, (path, key) in enumerate(ids):
        if key is None:
            continue
        if key in first:
            n, at = first[key]
            text = message.format(id=key, index=n, number=n + 1, line=doc.line_of(at), first=at)
            probs.add(doc, path, text)
        else:
            first[key] = (k, path)
    return {key: at for key, (_n, at) in first.items()}


def each(items: Any) -> list[Any]:
    """``items`` if it is a list, else an empty list (for checks on unstructured data)."""
    return items if isinstance(items, list) else []
