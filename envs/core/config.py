"""Loading rule data from configs/ (ARCHITECTURE.md section 7).

Every rule table is a YAML file of this shape::

    kind: tac.units            # which table this is (checked against the loader)
    entries:                   # one mapping per row
      - name: Leopard 2        # every row has a unique `name`
        origin: invented       # `seed` (taken from the rulebook) or `invented` (ours)
        ...                    # the table's own fields

Rows are validated with pydantic models. Any problem raises :class:`ConfigError`
whose message names the file, the entry and the field, e.g.::

    configs/tac/units.yaml: entry 3 'Leopard 2': field 'hit_points': Input should be a valid integer

Cross-references (a card naming an unknown weapon) are checked by the ruleset's
tables.py with :func:`require_known`, which raises the same error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

CONFIG_ROOT = Path(__file__).resolve().parents[2] / "configs"

Origin = Literal["seed", "invented"]


class ConfigError(ValueError):
    """A rule-data file is wrong. Names the file, the entry and the field."""

    def __init__(self, path: Path | str, entry: str | None, field: str | None, message: str):
        self.path = str(path)
        self.entry = entry
        self.field = field
        self.message = message
        parts = [self.path]
        if entry is not None:
            parts.append(f"entry {entry}")
        if field is not None:
            parts.append(f"field '{field}'")
        parts.append(message)
        super().__init__(": ".join(parts))


class Entry(BaseModel):
    """Base of every config row: a unique name and where it came from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    origin: Origin


E = TypeVar("E", bound=BaseModel)


def _entry_label(index: int, raw: Any) -> str:
    name = raw.get("name") if isinstance(raw, dict) else None
    return f"{index} '{name}'" if name is not None else str(index)


# libyaml's safe loader when PyYAML has it (its wheels do): the same documents, ~10x faster;
# Tactics David's units and abilities took 2.7 s to parse in pure Python, most of a start
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path | str) -> Any:
    """Parse a YAML file, turning parse errors into ConfigError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(path, None, None, f"cannot read file ({exc.strerror})") from exc
    try:
        return yaml.load(text, Loader=_SAFE_LOADER)
    except yaml.YAMLError as exc:
        raise ConfigError(path, None, None, f"not valid YAML: {exc}") from exc


def load_entries(path: Path | str, kind: str, model: type[E]) -> list[E]:
    """Load and validate every row of a `kind`/`entries` table file."""
    path = Path(path)
    doc = read_yaml(path)
    if not isinstance(doc, dict):
        raise ConfigError(path, None, None, "top level must be a mapping with 'kind' and 'entries'")
    if doc.get("kind") != kind:
        raise ConfigError(path, None, "kind", f"expected {kind!r}, found {doc.get('kind')!r}")
    raw_entries = doc.get("entries")
    if not isinstance(raw_entries, list) or not raw_entries:
        raise ConfigError(path, None, "entries", "must be a non-empty list")
    rows: list[E] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(raw_entries):
        label = _entry_label(i, raw)
        if not isinstance(raw, dict):
            raise ConfigError(path, label, None, "must be a mapping")
        try:
            row = model.model_validate(raw)
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"]) or None
            msg = err["msg"]
            if err["type"] == "missing":
                msg = "missing required field"
            elif err["type"] == "extra_forbidden":
                msg = "unknown field"
            raise ConfigError(path, label, field, msg) from None
        name = getattr(row, "name", None)
        if name is not None:
            if name in seen:
                raise ConfigError(path, label, "name", f"duplicate of entry {seen[name]}")
            seen[name] = i
        rows.append(row)
    return rows


def load_mapping(path: Path | str, kind: str, model: type[E]) -> E:
    """Load a single-object file (`kind` plus the model's fields at top level)."""
    path = Path(path)
    doc = read_yaml(path)
    if not isinstance(doc, dict):
        raise ConfigError(path, None, None, "top level must be a mapping")
    if doc.get("kind") != kind:
        raise ConfigError(path, None, "kind", f"expected {kind!r}, found {doc.get('kind')!r}")
    body = {k: v for k, v in doc.items() if k != "kind"}
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or None
        msg = "missing required field" if err["type"] == "missing" else err["msg"]
        raise ConfigError(path, None, field, msg) from None


def require_known(
    path: Path | str,
    rows: Sequence[BaseModel],
    field: str,
    known: Iterable[str],
    what: str,
) -> None:
    """Check that `field` of every row (a name or list of names) is in `known`."""
    known_set = set(known)
    for i, row in enumerate(rows):
        value = getattr(row, field)
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if v is not None and v not in known_set:
                label = f"{i} '{getattr(row, 'name', '?')}'"
                raise ConfigError(path, label, field, f"unknown {what} {v!r}")


def readonly(values: Any, dtype: Any = None) -> np.ndarray:
    """A table column as a read-only numpy array (copies only when the dtype changes)."""
    arr = np.asarray(values, dtype=dtype) if dtype is not None else np.asarray(values)
    arr.setflags(write=False)
    return arr
