"""The Tactical Assault tables record: every rule table the kernels read, as ONE numpy record.

Built once from the Fantasy Cards loader (envs/fantasy_cards/tables.py: cards, plays, Table 3)
plus a ground (the ``g_*`` arrays: Legendary Battles' zone map, envs/legendary_battles/zones.py;
Fantasy Cards' tabletop is the next part) and a force set-up (the ``sc_*``/``vc_*`` fields:
who stands where, reinforcements, victory conditions). Kernels take it as ``tb`` (a np.record):
``tb.card_result[k]``. Arrays are padded to the capacities below; ``n_*`` fields say how much is
used. Whatever differs between the two rulesets is data here, never a branch in the kernels.
"""

from __future__ import annotations

import numpy as np

from envs.fantasy_cards import tables as fct
from envs.tactical_assault.state import MAX_CARDS, MAX_DIRS, MAX_POS, MAX_UNITS, N_PLAYERS

MAX_PLAYS = 40  # card-effect rows (33 in card_effects.yaml)
MAX_STEPS = fct.MAX_STEPS  # effect steps per play
N_TYPES = 20  # Table 3 unit types
N_DISTANCES = 5  # Table 2: Very Short .. Very Long (fantasy_cards.tables distance codes)
N_RANGED_CONDITIONS = len(fct.RANGED_CONDITIONS)
N_MELEE_CONDITIONS = len(fct.MELEE_CONDITIONS)
FB_LEN = 12  # steps of a stored Fall Back route (a Short Distance is at most a few zones)
N_RESULTS = len(fct.RESULT_NAMES)  # Table 6 Combat Results
N_DRIFT = 2  # Random Drift distances tabulated: Very Short and Short (FC I6)
MAX_FP = 6  # zones of an oversized unit beyond its centre zone (LB "Oversized units", I2)
BBOX_MARGIN = 1e-6  # widening of the positions' boxes (g_bbox; derive_ground)

# vc_at_limit: who wins when the turn limit is reached (LB I3; FC R10)
AT_LIMIT_MOST_UNITS = 0
AT_LIMIT_HOLD_ZONES = 1
AT_LIMIT_SIDE_0 = 2
AT_LIMIT_SIDE_1 = 3
AT_LIMIT_NAMES = ("most_units_eliminated", "hold_zones", "side_0_wins", "side_1_wins")

TA_TABLE_FIELDS = [
    # --- cards (deck.yaml, FC I5) ---
    ("n_cards", np.int16, ()),  # cards per deck (72)
    ("hand_size", np.int16, ()),  # FC "Draw Hand (Six Cards)"
    ("card_number", np.int16, (MAX_CARDS,)),  # [72] printed number (deployment draw)
    ("card_action", np.int16, (MAX_CARDS,)),  # [72] play index of the card's Action
    ("card_situation", np.int16, (MAX_CARDS,)),  # [72] play index of its Situation
    ("card_result", np.int8, (MAX_CARDS,)),  # [72] Combat Result code (Table 6 rank)
    # --- the card-effect table (card_effects.yaml, FC I1-I4) ---
    ("n_plays", np.int16, ()),
    ("play_part", np.int8, (MAX_PLAYS,)),  # [P] PART_ACTION / PART_SITUATION
    ("play_timing", np.int8, (MAX_PLAYS,)),  # [P] TIMING_*
    ("play_trigger", np.int8, (MAX_PLAYS,)),  # [P] index into fct.TRIGGERS
    ("play_condition", np.int8, (MAX_PLAYS,)),  # [P] index into fct.CONDITIONS
    ("play_all_available", np.uint8, (MAX_PLAYS,)),  # [P] FC I12
    ("play_on", np.uint8, (MAX_PLAYS, N_TYPES)),  # [P, T] unit types it may be played on
    ("step_kind", np.int8, (MAX_PLAYS, MAX_STEPS)),  # [P, 4] EFFECT_*, -1 no step
    ("step_distance", np.int8, (MAX_PLAYS, MAX_STEPS)),  # distance code, -1
    ("step_contact", np.uint8, (MAX_PLAYS, MAX_STEPS)),  # move may end in contact
    ("step_direction", np.int8, (MAX_PLAYS, MAX_STEPS)),  # index into fct.DIRECTIONS
    ("step_range", np.int8, (MAX_PLAYS, MAX_STEPS)),  # distance code or RANGE_DISTANCE_CODE
    ("step_radius", np.int8, (MAX_PLAYS, MAX_STEPS)),  # distance code, -1
    ("step_shift", np.int8, (MAX_PLAYS, MAX_STEPS)),  # extra result shift, +1 = Up One
    ("step_what", np.int8, (MAX_PLAYS, MAX_STEPS)),  # index into fct.WHATS, -1
    ("step_min_enemy_distance", np.int8, (MAX_PLAYS, MAX_STEPS)),  # distance code, -1
    # --- Table 3 ---
    ("type_ranged", np.int8, (N_TYPES,)),  # [T] Ranged rating level, 0 none
    ("type_range", np.int8, (N_TYPES,)),  # [T] Range Distance code, -1 none
    ("type_protection", np.int8, (N_TYPES,)),  # [T] Protection level, 0 none (never attacked)
    ("type_melee", np.int8, (N_TYPES,)),  # [T] Melee rating level
    ("type_points", np.int16, (N_TYPES,)),  # [T] point value
    ("drift_distance", np.int8, (N_RESULTS,)),  # [5] by Combat Result: Random Drift
    # distance code (Very Short or Short), -1 none (FC I6, random_drift.yaml)
    ("drift_reference", np.int8, (N_RESULTS,)),  # [5] fct.DRIFT_REFERENCES index
    ("rmod_shift", np.int8, (N_RANGED_CONDITIONS,)),  # Table 4 shift by fct.RANGED_CONDITIONS
    ("mmod_shift", np.int8, (N_MELEE_CONDITIONS,)),  # Table 5 shift by fct.MELEE_CONDITIONS
    ("type_aerial", np.int16, ()),  # unit type codes the rules single out by name
    ("type_obstacle", np.int16, ()),
    ("type_infiltrator", np.int16, ()),
    ("type_war_machine", np.int16, ()),
    # --- the ground: geometry reduced to arrays (envs/legendary_battles/zones.py) ---
    ("g_n_pos", np.int16, ()),  # positions used
    ("g_n_dirs", np.int16, ()),  # sides per position (= facings)
    ("g_dist_units", np.int16, (N_DISTANCES,)),  # Table 2 distances in positions' units
    ("g_extreme_extra", np.int16, ()),  # how far past its range an attack still reaches a
    # part of the target (FC Step 3 "Extreme Range"); 0 on a zone map (LB R19)
    ("g_dist", np.int16, (MAX_POS, MAX_POS)),  # [P, P] distance between positions
    ("g_contact", np.uint8, (MAX_POS, MAX_POS)),  # [P, P] units at p and q are in physical
    # contact (Close Combat, FC "Melee Attacks" Step 1): the identity on a zone map (LB
    # "Sharing a zone"), neighbouring cells on the tabletop (FC R28)
    ("g_cc_share", np.uint8, ()),  # 1: Close Combat is sharing a position (a contact move
    # enters the enemy's zone, LB); 0: units never share a position and a contact move ends
    # on a position in contact with the enemy (the tabletop, FC R28, R31)
    ("g_centre", np.float64, (MAX_POS, 2)),  # [P, 2] centre point (LOS is drawn between them)
    ("g_vertex", np.float64, (MAX_POS, MAX_DIRS, 2)),  # [P, D, 2] outline; side k: k -> k+1
    ("g_normal", np.float64, (MAX_POS, MAX_DIRS, 2)),  # [P, D, 2] outward side normals
    ("g_offset", np.float64, (MAX_POS, MAX_DIRS)),  # [P, D] inside: normal . p <= offset
    ("g_neighbour", np.int16, (MAX_POS, MAX_DIRS)),  # [P, D] position across side k, -1
    ("g_entry_cost", np.int8, (MAX_POS, MAX_DIRS)),  # [P, D] movement to cross side k, -1 not
    ("g_wm_cost", np.int8, (MAX_POS, MAX_DIRS)),  # [P, D] the same, its linear terrain ignored
    # (a friendly War Machine in contact with it: FC "War Machine" NOTE, LB reading R21)
    ("g_standable", np.uint8, (MAX_POS,)),  # [P] a unit may stand here (not Impassable)
    ("g_ground", np.int8, (MAX_POS,)),  # [P] ground elevation level (units stand on it)
    ("g_top", np.int8, (MAX_POS,)),  # [P] highest elevation of the position
    ("g_covering", np.uint8, (MAX_POS,)),  # [P] Covering template terrain
    ("g_obstructing", np.uint8, (MAX_POS,)),  # [P] Obstructing template terrain
    ("g_template", np.int16, (MAX_POS,)),  # [P] terrain template id, -1 none
    ("g_side_covering", np.uint8, (MAX_POS, MAX_DIRS)),  # [P, D] Covering linear terrain
    ("g_side_obstructing", np.uint8, (MAX_POS, MAX_DIRS)),  # [P, D] Obstructing linear terrain
    ("g_side_top", np.int8, (MAX_POS, MAX_DIRS)),  # [P, D] top elevation of that terrain
    ("g_bbox", np.float64, (MAX_POS, 4)),  # [P, 4] xmin, ymin, xmax, ymax of the outline,
    # widened by BBOX_MARGIN: a line whose box misses it cannot meet it (derive_ground; LOS)
    ("g_radius", np.float64, (MAX_POS,)),  # [P] centre to farthest corner, + BBOX_MARGIN
    ("g_yorder", np.int16, (MAX_POS,)),  # [P] positions by g_bbox ymin (derive_ground) ...
    ("g_ysorted", np.float64, (MAX_POS,)),  # [P] ... and those ymins, ascending
    ("g_max_height", np.float64, ()),  # the tallest box (ymax - ymin)
    ("g_n_lsides", np.int16, ()),  # sides with Covering or Obstructing linear terrain ...
    ("g_lside", np.int16, (MAX_POS * MAX_DIRS,)),  # ... as z * MAX_DIRS + k, in (z, k) order
    ("g_arc", np.uint8, (MAX_POS, MAX_DIRS, MAX_POS)),  # [P, F, P] other in the LOS Arc of a
    # unit at p facing f (LB "Line-of-sight arcs", "LOS & zone corners")
    ("g_drift", np.int16, (MAX_POS, MAX_POS, N_DRIFT, 2)),  # [P, R, d, option] where a
    # Target Point at P drifting towards a reference unit at R ends after Table 2 distance d
    # (0 Very Short, 1 Short): stopped on R if it would pass it; a second option where the
    # route meets two positions equally (LB "Random drift movement", FC I6), else -1
    ("g_fb_route", np.int16, (MAX_POS, MAX_POS, FB_LEN, 2)),  # [A, T, k, option] Fall Back
    # route of a unit at T attacked from A: the positions the line from A through T enters
    # after T, in order; a second option where the line meets two equally (else -1)
    # the ground's LOS with no unit on it (derive_los; geometry.line_of_sight_fast)
    ("g_los_ready", np.uint8, ()),  # 1: the g_los_* tables below hold this ground's LOS
    ("g_los_centre", np.uint8, (MAX_POS, MAX_POS)),  # [A, B] LOS_* bits of the line from
    # A's centre to B's, 0 terrain blocks it
    ("g_los_any", np.uint8, (MAX_POS, MAX_POS)),  # [A, B] line_of_sight(A, B): 0 terrain hides
    # every point of B
    ("g_los_cells", np.uint8, (MAX_POS, MAX_POS, MAX_POS // 8)),  # [A, B, P / 8] a bit per
    # position the centre line meets (where g_los_centre is not 0): the units it may meet
    # --- the forces and the scenario (sc_*, vc_*) ---
    ("sc_n_units", np.int16, ()),  # unit slots used
    ("sc_unit_side", np.int8, (MAX_UNITS,)),  # [U] seat
    ("sc_unit_type", np.int8, (MAX_UNITS,)),  # [U] Table 3 index
    ("sc_unit_pos", np.int16, (MAX_UNITS,)),  # [U] starting position, -1 deployed by choice
    ("sc_unit_facing", np.int8, (MAX_UNITS,)),  # [U] starting facing
    ("sc_unit_arrives", np.int16, (MAX_UNITS,)),  # [U] own turn it enters (reinforcement), 0
    # LB "Oversized (multi-zone) units": the zones unit u covers beyond its centre zone; part f
    # is reached from the centre across side sc_fp_step[u, f, 0], then sc_fp_step[u, f, 1]
    # (-1: none; a square's corner is two sides)
    ("sc_fp_n", np.int8, (MAX_UNITS,)),  # [U] parts beyond the centre, 0 a one-zone unit
    ("sc_fp_step", np.int8, (MAX_UNITS, MAX_FP, 2)),  # [U, F, 2] side indices
    ("sc_deploy", np.uint8, (N_PLAYERS, MAX_POS)),  # [2, P] deployment area of each seat
    ("sc_arrive_zone", np.uint8, (N_PLAYERS, MAX_POS)),  # [2, P] where reinforcements enter
    ("sc_first_turn", np.int8, ()),  # seat taking the first turn, -1 FC rule
    ("sc_deploy_first", np.int8, ()),  # seat placing first, -1 FC card draw
    ("sc_deploy_min", np.int8, ()),  # Table 2 code: a unit placed at the start must be at
    # least this far from every enemy unit (FC "Deploy Forces": Medium), -1 no such rule
    ("sc_turn_limit", np.int16, ()),  # turns per player before time is called
    ("sc_force_points", np.int16, (N_PLAYERS,)),  # [2] points to choose units with, 0 fixed
    ("sc_allowed", np.uint8, (N_PLAYERS, N_TYPES)),  # [2, T] types a side may choose
    ("vc_exit_side", np.int8, ()),  # units_exit: this seat wins once vc_exit_count left, -1
    ("vc_exit_count", np.int16, ()),
    ("vc_exit", np.uint8, (MAX_POS,)),  # [P] zones on the exit edge (a unit may leave from)
    ("vc_half_points", np.uint8, ()),  # half of a side's points eliminated loses
    ("vc_no_units", np.uint8, ()),  # no units left on the battlefield loses
    ("vc_points_side", np.int8, ()),  # points_eliminated: this seat loses at vc_points, -1
    ("vc_points", np.int16, ()),
    ("vc_unit", np.int8, ()),  # unit_eliminated: this unit slot's loss loses, -1
    ("vc_hold_side", np.int8, ()),  # hold_zones side, -1
    ("vc_hold", np.uint8, (MAX_POS,)),  # [P] the zones to hold
    ("vc_at_limit", np.int8, ()),  # AT_LIMIT_*
]
TA_TABLES_DTYPE = np.dtype(TA_TABLE_FIELDS)


def derive_ground(r: np.ndarray) -> None:
    """The g_* fields computed from the others, for speed only (geometry.line_of_sight reads
    them): each position's box and radius, the positions in order of their boxes' tops (a line meets only
    those whose boxes overlap its rows) and the list of sides with linear terrain that matters
    to LOS.
    Called by every ground builder once its g_* fields are filled.

    The box and radius are widened by BBOX_MARGIN, far more than the LOS kernels' tolerances (1e-9, on unit
    normals), so skipping a position whose box misses a line's box changes no result."""
    n = int(r["g_n_pos"])
    nd = int(r["g_n_dirs"])
    v = r["g_vertex"][:n, :nd]
    r["g_bbox"][:n, 0:2] = v.min(axis=1) - BBOX_MARGIN
    r["g_bbox"][:n, 2:4] = v.max(axis=1) + BBOX_MARGIN
    reach = np.linalg.norm(v - r["g_centre"][:n, None, :], axis=-1)
    r["g_radius"][:n] = (reach.max(axis=1) if nd else 0.0) + BBOX_MARGIN
    order = np.argsort(r["g_bbox"][:n, 1], kind="stable")
    r["g_yorder"][:] = -1
    r["g_yorder"][:n] = order
    r["g_ysorted"][:] = np.inf
    r["g_ysorted"][:n] = r["g_bbox"][order, 1]
    r["g_max_height"] = (r["g_bbox"][:n, 3] - r["g_bbox"][:n, 1]).max() if n else 0.0
    norms = np.linalg.norm(r["g_normal"][:n, :nd], axis=-1)
    if n and not np.allclose(norms, 1.0, atol=1e-6):
        raise ValueError("ground: side normals (g_normal) must be unit vectors")
    has = (r["g_side_covering"][:n, :nd] != 0) | (r["g_side_obstructing"][:n, :nd] != 0)
    z, k = np.nonzero(has)  # row-major: (z, k) order, as the full scan visits them
    r["g_n_lsides"] = len(z)
    r["g_lside"][:] = -1
    r["g_lside"][: len(z)] = z * MAX_DIRS + k
    derive_los(r)


# what the ground's LOS is computed from (geometry._los_point, line_of_sight)
_LOS_INPUTS = (
    "g_n_pos",
    "g_n_dirs",
    "g_dist_units",
    "g_dist",
    "g_centre",
    "g_vertex",
    "g_normal",
    "g_offset",
    "g_ground",
    "g_top",
    "g_covering",
    "g_obstructing",
    "g_template",
    "g_side_covering",
    "g_side_obstructing",
    "g_side_top",
    "g_bbox",
    "g_radius",
    "g_yorder",
    "g_ysorted",
    "g_max_height",
    "g_n_lsides",
    "g_lside",
)
_LOS_OUTPUTS = ("g_los_centre", "g_los_any", "g_los_cells")


def derive_los(r: np.ndarray) -> None:
    """The g_los_* fields: the ground's LOS with no unit on it, for every pair of positions
    (geometry.los_tables), which geometry.line_of_sight_fast reads instead of tracing lines.

    A few tenths of a second of tracing, paid once per ground and source version: the result
    is kept as a file in the numba cache folder of the core (envs/core/jit.py; its name
    hashes these inputs, its folder the kernels' sources), so a cached start only reads it."""
    import hashlib
    import os
    import tempfile

    from envs.core.jit import cache_dir
    from envs.tactical_assault import geometry

    h = hashlib.sha256()
    for name in _LOS_INPUTS:
        h.update(np.ascontiguousarray(r[name]).tobytes())
    path = cache_dir("tactical_assault") / f"los-{h.hexdigest()[:24]}.npz"
    try:
        with np.load(path) as got:
            for name in _LOS_OUTPUTS:
                r[name][...] = got[name]
        r["g_los_ready"] = 1
        return
    except (OSError, KeyError, ValueError):
        pass  # not there yet (or unreadable): computed below
    from numba.core import config

    if config.DISABLE_JIT:
        return  # traced in Python it would take minutes; line_of_sight_fast then traces
    rec = np.zeros(1, dtype=TA_TABLES_DTYPE)
    rec[0] = r
    tb = as_tb(rec)
    geometry.los_tables(tb, r["g_los_centre"], r["g_los_any"], r["g_los_cells"])
    r["g_los_ready"] = 1
    try:  # written whole, then renamed: a concurrent start reads the old file or the new one
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz")
        with os.fdopen(fd, "wb") as f:
            np.savez(f, **{name: r[name] for name in _LOS_OUTPUTS})
        os.replace(tmp, path)
    except OSError:
        pass  # an unwritable cache only costs the tracing at the next start


def card_record(t: fct.Tables) -> np.ndarray:
    """A 1-element record holding the Fantasy Cards data (cards, plays, Table 3); the ground and
    the forces are filled by the ruleset (envs/legendary_battles/zones.py).

    Raises ValueError when the data outgrow a capacity."""
    if len(t.card_names) != MAX_CARDS:
        raise ValueError(f"a deck has {len(t.card_names)} cards; the state holds {MAX_CARDS}")
    if len(t.play_names) > MAX_PLAYS:
        raise ValueError(f"{len(t.play_names)} card-effect rows exceed the capacity {MAX_PLAYS}")
    if len(t.unit_type_names) != N_TYPES:
        raise ValueError(f"{len(t.unit_type_names)} unit types; Table 3 has {N_TYPES}")
    rec = np.zeros(1, dtype=TA_TABLES_DTYPE)
    r = rec[0]
    r["n_cards"] = len(t.card_names)
    r["hand_size"] = t.standard_game.hand_size
    r["card_number"][:] = t.card_number
    r["card_action"][:] = t.card_action
    r["card_situation"][:] = t.card_situation
    r["card_result"][:] = t.card_result
    n = len(t.play_names)
    r["n_plays"] = n
    for name in ("step_kind", "step_distance", "step_range", "step_radius", "step_what"):
        r[name][:] = -1
    r["step_min_enemy_distance"][:] = -1
    for name in (
        "play_part",
        "play_timing",
        "play_trigger",
        "play_condition",
        "play_all_available",
        "play_on",
        "step_kind",
        "step_distance",
        "step_contact",
        "step_direction",
        "step_range",
        "step_radius",
        "step_shift",
        "step_what",
        "step_min_enemy_distance",
    ):
        r[name][:n] = getattr(t, name)
    if (t.drift_distance >= N_DRIFT).any():
        raise ValueError("a Random Drift longer than a Short Distance is not tabulated (g_drift)")
    r["drift_distance"][:] = t.drift_distance
    r["drift_reference"][:] = t.drift_reference
    r["type_ranged"][:] = t.unit_ranged_attack
    r["type_range"][:] = t.unit_range_distance
    r["type_protection"][:] = t.unit_protection
    r["type_melee"][:] = t.unit_melee_attack
    r["type_points"][:] = t.unit_points
    for c, s in zip(t.ranged_modifier_condition, t.ranged_modifier_shift, strict=True):
        r["rmod_shift"][c] += s
    for c, s in zip(t.melee_modifier_condition, t.melee_modifier_shift, strict=True):
        r["mmod_shift"][c] += s
    r["type_aerial"] = t.unit_type_index[fct.AERIAL]
    r["type_obstacle"] = t.unit_type_index[fct.OBSTACLE]
    r["type_infiltrator"] = t.unit_type_index[fct.INFILTRATOR]
    r["type_war_machine"] = t.unit_type_index["WAR MACHINE"]
    # no ground, no forces yet
    for name in (
        "g_neighbour",
        "g_entry_cost",
        "g_wm_cost",
        "g_template",
        "g_fb_route",
        "g_drift",
        "sc_unit_side",
    ):
        r[name] = -1
    r["sc_unit_type"] = -1
    r["sc_unit_pos"] = -1
    r["sc_fp_step"] = -1
    for name in (
        "sc_first_turn",
        "sc_deploy_first",
        "sc_deploy_min",
        "vc_points_side",
        "vc_unit",
        "vc_hold_side",
        "vc_exit_side",
    ):
        r[name] = -1
    return rec


def as_tb(rec: np.ndarray) -> np.record:
    """The np.record the serial kernels take as `tb` (attribute access in Python and numba)."""
    return rec.view(np.recarray)[0]
