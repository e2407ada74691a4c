"""A read-only table of definitions looked up by id (orders, weapons, vehicle types)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar


class Catalog:
    """Mixin for a frozen attrs table holding items with an ``id`` in a tuple field.

    The class names that field in ``_ITEMS`` and what its items are in ``_WHAT``
    (for messages), and fills ``_by_id`` in ``__attrs_post_init__``. Iteration
    is in file order; :meth:`get` raises :class:`KeyError` with a readable message.
    """

    __slots__ = ()
    _ITEMS: ClassVar[str]
    _WHAT: ClassVar[str]
    _by_id: dict[str, Any]

    def _all(self) -> tuple[Any, ...]:
        items: tuple[Any, ...] = getattr(self, self._ITEMS)
        return items

    def __iter__(self) -> Iterator[Any]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._by_id

    def get(self, item_id: str) -> Any:
        """The item with id ``item_id``. Raises :class:`KeyError` if there is none."""
        try:
            return self._by_id[item_id]
        except KeyError:
            raise KeyError(f"unknown {self._WHAT} {item_id!r}") from None
