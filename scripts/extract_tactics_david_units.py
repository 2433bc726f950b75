"""Extract the Tactics David unit table from the seed into configs/tactics_david/units.yaml.

Usage::

    python scripts/extract_tactics_david_units.py [SEED] [OUT]

The seed's text extraction is irregular (Unit and Item Book, "Unit List"): empty cells are
sometimes kept as empty tab fields and sometimes dropped, some pages lost their "Move. R." header
column (the values are still there), and rows end in HTML bar-chart leftovers. So each row is read
as: ten fixed fields (number, name, class, unit type, attack mode, front, left, right, back, core),
then movement rating and movement type, then the non-empty remainder
``[range rating] [range modifier] attack-area [special] [ability] cost``.

Where a unit has a Special the table drops its ability (048 Apprentice, 060 Contraption, ...);
the "Ability List" index equals the unit number and is authoritative, so the ability is always
taken from the Ability List by number (docs/rules/tactics_david_abilities.md, RU1, RU2).
The extracted file is checked by eye afterwards; readings are recorded per row in `reading:`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SEED = ROOT.parent / "shared" / "seeds" / "004_10748bf01204f971.txt"  # ../shared/seeds/
DEFAULT_OUT = ROOT / "configs" / "tactics_david" / "units.yaml"

SPECIALS = ("Swarm", "Relentless", "Hulking")  # "Special List" 001-003
CLASS = {"L": "Light", "M": "Medium", "H": "Heavy"}
UNIT_TYPE = {"P": "Physical", "M": "Magical", "E": "Ethereal"}
ATTACK_MODE = {"M": "Melee", "R": "Ranged"}
AREA_RE = re.compile(r"^(M[A-K]|R[A-I])$")
INT_RE = re.compile(r"^-?\d+$")

# Row-specific readings (ids defined in docs/rules/tactics_david_abilities.md).
ROW_READINGS: dict[int, list[str]] = {
    26: ["RU3"],  # Dreadnaught: class M with core 19 (Heavy range)
    32: ["RU3"],  # Assassin: class H with core 17 (Medium range)
    86: ["RU4"],  # Crystal Golem: Ranged unit printed with melee attack area MH, read as RH
    94: ["RU5"],  # table writes "Stoopid Strong", Ability List "Stoupid Strong"
}


def number_reads_rh(number: int, area: str) -> bool:
    """RU4: Crystal Golem (086) is Ranged but printed MH; a Ranged area is never attached to
    the unit ("Ranged Area of Attack"), so MH is read as the one-letter misprint of RH."""
    return number == 86 and area == "MH"


def parse_abilities(lines: list[str]) -> dict[int, tuple[str, str, str, str]]:
    """Ability List rows: number -> (name, occurs, instructions, raw row)."""
    start = next(i for i, ln in enumerate(lines) if ln.strip() == "ABILITY LIST")
    end = next(i for i, ln in enumerate(lines) if ln.strip() == "SPECIAL LIST")
    out: dict[int, tuple[str, str, str, str]] = {}
    for ln in lines[start:end]:
        parts = ln.rstrip("\n").split("\t")
        if len(parts) >= 4 and re.fullmatch(r"\d{3}", parts[0]):
            out[int(parts[0])] = (parts[1].strip(), parts[2].strip(), parts[3].strip(), ln.strip())
    return out


def parse_units(lines: list[str], abilities: dict[int, tuple[str, str, str, str]]) -> list[dict]:
    start = next(i for i, ln in enumerate(lines) if ln.strip() == "UNIT LIST")
    end = next(i for i, ln in enumerate(lines) if ln.strip() == "ABILITY LIST")
    units = []
    for ln in lines[start:end]:
        parts = ln.rstrip("\n").split("\t")
        if not re.fullmatch(r"\d{3}", parts[0]):
            continue
        raw = "\t".join(p for p in parts if not p.startswith("<div")).rstrip("\t")
        num, name, cls, utype, mode = parts[:5]
        front, left, right, back, core = (int(x) for x in parts[5:10])
        move_rating, move_type = int(parts[10]), parts[11]
        rest = [p.strip() for p in parts[12:] if p.strip() and not p.startswith("<div")]
        cost = int(rest.pop())
        ints: list[int] = []
        while rest and INT_RE.match(rest[0]):
            ints.append(int(rest.pop(0)))
        area = rest.pop(0)
        if not AREA_RE.match(area):
            raise ValueError(f"unit {num}: bad attack area {area!r} in {rest}")
        if number_reads_rh(int(num), area):
            area = "RH"
        special = None
        if rest and rest[0] in SPECIALS:
            special = rest.pop(0)
        table_ability = rest.pop(0) if rest else None
        if rest:
            raise ValueError(f"unit {num}: unparsed fields {rest}")
        number = int(num)
        ab_name = abilities[number][0]
        readings = list(ROW_READINGS.get(number, []))
        if table_ability is None:
            readings.append("RU1")  # ability dropped by the extraction; taken from Ability List
        elif table_ability != ab_name and number not in ROW_READINGS:
            raise ValueError(f"unit {num}: table ability {table_ability!r} != list {ab_name!r}")
        range_rating = range_modifier = None
        if ATTACK_MODE[mode] == "Ranged":
            range_rating = ints[0]
            if len(ints) > 1:
                range_modifier = ints[1]
            else:
                range_modifier = 0
                readings.append("RU2")  # blank Range M. cell read as 0
        elif ints:
            raise ValueError(f"unit {num}: melee unit with range fields {ints}")
        row = {
            "name": name.strip(),
            "origin": "seed",
            "number": number,
            "unit_class": CLASS[cls],
            "unit_type": UNIT_TYPE[utype],
            "attack_mode": ATTACK_MODE[mode],
            "strength": {"front": front, "left": left, "right": right, "back": back},
            "core_strength": core,
            "movement_rating": move_rating,
            "movement_type": move_type,
            "range_rating": range_rating,
            "range_modifier": range_modifier,
            "attack_area": area,
            "special": special,
            "ability": ab_name,
            "purchase_cost": cost,
            "text": raw,
        }
        if readings:
            row["reading"] = sorted(set(readings), key=lambda r: int(r[2:]))
        units.append(row)
    return units


def _scalar(v: object) -> str:
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if re.fullmatch(r"[A-Za-z][A-Za-z .'!?-]*", s) and s not in ("null", "true", "false"):
        return s if not s.endswith(("?", "!")) and ":" not in s else '"' + s + '"'
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'


def write_yaml(units: list[dict], out: Path) -> None:
    lines = [
        '# Tactics David unit table (Unit and Item Book V3.2, "Unit List"), 202 units.',
        "# Generated by scripts/extract_tactics_david_units.py, then checked by eye.",
        "# `text` is the seed row with tabs shown as \\t; `reading` ids are defined in",
        "# docs/rules/tactics_david_abilities.md (section Readings).",
        "kind: tactics_david.units",
        "entries:",
    ]
    for u in units:
        first = True
        for key, val in u.items():
            lead = "  - " if first else "    "
            first = False
            if key == "strength":
                s = ", ".join(f"{k}: {v}" for k, v in val.items())
                lines.append(f"{lead}{key}: {{{s}}}")
            elif key == "reading":
                lines.append(f"{lead}{key}: [{', '.join(val)}]")
            else:
                lines.append(f"{lead}{key}: {_scalar(val)}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str]) -> None:
    seed = Path(argv[1]) if len(argv) > 1 else DEFAULT_SEED
    out = Path(argv[2]) if len(argv) > 2 else DEFAULT_OUT
    lines = seed.read_text(encoding="utf-8").splitlines()
    abilities = parse_abilities(lines)
    units = parse_units(lines, abilities)
    if len(units) != 202 or len(abilities) != 202:
        raise SystemExit(f"expected 202 units and 202 abilities, got {len(units)}/{len(abilities)}")
    write_yaml(units, out)
    print(f"wrote {len(units)} units to {out}")


if __name__ == "__main__":
    main(sys.argv)
