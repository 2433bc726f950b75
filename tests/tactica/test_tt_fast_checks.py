"""The fast deployment and movement checks (envs/tactica/battlefield.py reach_from_zone,
zone_separators, has_destination; setup._piece_hexes) against plain-Python references:
random passable masks on every battlefield, and every placement decision of random wars
(TT-B.6.4-6.6, TT-A.10.2-10.3, TT-A.10.9) compared hex by hex with a search per candidate."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from agents.tactica.baselines import AGENT_RANDOM_FIGHTER, choose_action
from envs.registry import get
from envs.tactica import battlefield as bf
from envs.tactica import kernels, setup
from envs.tactica.actions import (
    A_HEX,
    A_SIDE,
    N_ACTIONS,
    N_SIDES,
    STAGE_CHOOSE_LANDMARK,
    STAGE_PLACE_LANDMARK,
    STAGE_PLACE_SPIRE,
    STAGE_PLACE_WALL,
    STAGE_SUMMON_HEX,
)
from envs.tactica.state import STAGE_GAME_OVER, allocate
from envs.tactica.tables import load_tables

H = bf.MAX_HEXES
GEO = load_tables().battlefield
I = np.int64  # noqa: E741 - the kernels take int64 indices


def _py_reach(neighbours, wall_zone, passable, zone: int, removed: int = -1) -> np.ndarray:
    """Hexes a troop from wall zone `zone` can enter through passable hexes but `removed`."""
    reached = np.zeros(H, bool)
    todo = deque(h for h in range(H) if wall_zone[zone, h] and passable[h] and h != removed)
    for h in todo:
        reached[h] = True
    while todo:
        h = todo.popleft()
        for y in neighbours[h]:
            if y >= 0 and y != removed and passable[y] and not reached[y]:
                reached[y] = True
                todo.append(int(y))
    return reached


def _random_passable(rng, bfi: int, p_closed: float) -> np.ndarray:
    real = np.array([GEO.distance[bfi, h, h] == 0 for h in range(H)])
    return real & (rng.random(H) >= p_closed)


@pytest.mark.parametrize("bfi", range(GEO.neighbours.shape[0]))
def test_reach_and_separators_match_a_search_without_each_hex(bfi):
    """reach_from_zone is a breadth-first search from the zone; zone_separators marks
    exactly the hexes whose closing cuts some other hex off (so elsewhere the reach without
    the hex is the reach less the hex, which setup._piece_hexes relies on)."""
    rng = np.random.default_rng(bfi)
    nb, zones = GEO.neighbours[bfi], GEO.wall_zone[bfi]
    reached = np.zeros(H, bool)
    sep = np.zeros(H, bool)
    queue = np.zeros(H, np.int64)
    work = np.zeros((5, H), np.int64)
    seps = 0
    for _ in range(12):
        passable = _random_passable(rng, bfi, rng.choice([0.1, 0.3, 0.45]))
        for zone in (0, 1):
            base = _py_reach(nb, zones, passable, zone)
            bf.reach_from_zone(nb, zones, passable, I(zone), I(-1), reached, queue)
            assert (reached == base).all()
            bf.zone_separators(nb, zones, passable, I(zone), sep, work)
            for v in range(H):
                without = _py_reach(nb, zones, passable, zone, v)
                less = base.copy()
                less[v] = False
                assert sep[v] == (not (without == less).all()), (v, zone)
                bf.reach_from_zone(nb, zones, passable, I(zone), I(v), reached, queue)
                assert (reached == without).all()
            seps += int(sep.sum())
    assert seps > 0  # the masks made some separators


def test_has_destination_is_reachable_hexes_nonempty():
    rng = np.random.default_rng(5)
    nb = GEO.neighbours[0]
    dist = np.zeros(H, np.int64)
    queue = np.zeros(H, np.int64)
    out = np.zeros(H, np.int64)
    for _ in range(200):
        passable = _random_passable(rng, 0, 0.3)
        stops = rng.random(H) < 0.2
        may_end = passable & (rng.random(H) < 0.5)
        start, steps = I(rng.integers(0, 45)), I(rng.integers(0, 5))
        n = bf.reachable_hexes(nb, start, steps, passable, stops, may_end, out)
        found = bf.has_destination(nb, start, steps, passable, stops, may_end, dist, queue)
        assert found == (n > 0)


# --- placements: the old search per candidate hex, in Python ------------------------------


def _features(S, tb):
    """kind, block, owner (seats 1 / 2) of game 0's features (setup._feature_arrays)."""
    kind = S["hex_feature"][0].astype(np.int64)
    owner = np.where(S["hex_feature_owner"][0] < 0, 0, S["hex_feature_owner"][0] + 1)
    block = np.zeros(H, bool)
    for h in np.flatnonzero(kind == bf.FEATURE_LANDMARK):
        p, j = S["hex_feature_owner"][0, h], S["hex_feature_card"][0, h]
        block[h] = tb["landmark_block"][tb["army_landmark"][j], S["landmark_side"][0, p, j]] != 0
    return kind, block, owner


def _py_access_ok(nb, zones, kind, block, owner) -> bool:
    """TT-B.6.6: every wall and spire touches a hex the other seat's troops reach."""
    passable = (kind == bf.FEATURE_NONE) | ((kind == bf.FEATURE_LANDMARK) & ~block)
    for seat in (1, 2):
        homes = np.flatnonzero(
            (owner == seat) & ((kind == bf.FEATURE_WALL) | (kind == bf.FEATURE_SPIRE))
        )
        if len(homes) == 0:
            continue
        reached = _py_reach(nb, zones, passable, 2 - seat)
        for h in homes:
            if not any(y >= 0 and reached[y] for y in nb[h]):
                return False
    return True


def _reference_hexes(S, tb, p: int, piece: int, side: int) -> list[int]:
    """Where p may put `piece` (TT-B.6.4-6.6, TT-A.10.3): placed and searched hex by hex."""
    bfi = int(S["battle"][0]) - 1
    nb, dist, zones = (
        tb["geo_neighbours"][bfi],
        tb["geo_distance"][bfi],
        tb["geo_wall_zone"][bfi],
    )
    kind, block, owner = _features(S, tb)
    walls = [(q, int(x)) for q in (0, 1) for x in S["wall_hex"][0, q] if x >= 0]
    new_block = False
    if piece == bf.FEATURE_LANDMARK:
        j = S["setup_piece_next"][0, p]
        new_block = tb["landmark_block"][tb["army_landmark"][j], side] != 0
    hexes = []
    for h in range(H):
        empty = kind[h] == 0 and S["hex_troop"][0, h] < 0 and S["hex_summon"][0, h] < 0
        if dist[h, h] != 0 or not empty:
            continue
        is_open = not zones[0, h] and not zones[1, h]
        if piece == bf.FEATURE_WALL:
            ok = zones[p, h]
        elif piece == bf.FEATURE_LANDMARK:
            ok = is_open and all(dist[h, x] >= tb["landmark_wall_distance"] for _, x in walls)
        else:
            ok = is_open and any(
                q == p and dist[h, x] <= tb["spire_wall_distance"] for q, x in walls
            )
        if not ok:
            continue
        k2, b2, o2 = kind.copy(), block.copy(), owner.copy()
        k2[h], b2[h], o2[h] = piece, new_block, p + 1
        if _py_access_ok(nb, zones, k2, b2, o2):
            hexes.append(h)
    return hexes


PIECE_OF_STAGE = {
    STAGE_PLACE_WALL: bf.FEATURE_WALL,
    STAGE_PLACE_LANDMARK: bf.FEATURE_LANDMARK,
    STAGE_PLACE_SPIRE: bf.FEATURE_SPIRE,
    STAGE_SUMMON_HEX: bf.FEATURE_SPIRE,  # a spire's base (TT-A.10.2)
}


def test_placement_lists_match_a_search_per_candidate_hex():
    """Every wall, landmark, spire and spire-base decision of random advanced wars lists
    exactly the hexes the per-hex search allows, and a landmark's faces are offered exactly
    when the face has such a hex."""
    tb = get("tactica", options={"game": "advanced"}).tables_batch[0]
    out = np.empty(N_ACTIONS, np.int16)
    buf = np.empty(N_ACTIONS, np.int16)
    seen = dict.fromkeys([*PIECE_OF_STAGE, STAGE_CHOOSE_LANDMARK], 0)
    for g in range(3):
        S = allocate(1)
        n = kernels.start(S, tb, I(0), I(7), I(g), out)
        while S["stage"][0] != STAGE_GAME_OVER:
            stage, p = int(S["stage"][0]), int(S["current"][0])
            if stage in PIECE_OF_STAGE:
                side = -1
                if stage == STAGE_PLACE_LANDMARK:
                    side = int(S["landmark_side"][0, p, S["setup_piece_next"][0, p]])
                want = _reference_hexes(S, tb, p, PIECE_OF_STAGE[stage], side)
                got = [int(a) - A_HEX for a in out[:n]]
                assert got == want, (g, stage)
                seen[stage] += 1
            elif stage == STAGE_CHOOSE_LANDMARK:
                want = [
                    A_SIDE + s
                    for s in range(N_SIDES)
                    if _reference_hexes(S, tb, p, bf.FEATURE_LANDMARK, s)
                ]
                assert [int(a) for a in out[:n]] == want, g
                seen[stage] += 1
            a = choose_action(S, tb, I(0), I(AGENT_RANDOM_FIGHTER), buf)
            n = kernels.apply(S, tb, I(0), I(a), out)
    assert all(seen.values()), seen  # every kind of placement was checked


def _blocking_face(tb) -> tuple[int, int]:
    """A landmark card j and a face whose BLOCK closes its hex (TT-B.2.7)."""
    for j in range(int(tb["n_landmark_cards"])):
        for side in range(N_SIDES):
            if tb["landmark_block"][tb["army_landmark"][j], side]:
                return j, side
    raise AssertionError("no landmark face has BLOCK")


@pytest.mark.parametrize("bfi", range(GEO.neighbours.shape[0]))
def test_placements_on_crowded_battlefields_match_a_search_per_candidate_hex(bfi):
    """Synthetic battlefields crowded with BLOCK landmarks (narrow passages, so that many
    candidate hexes are separators): every piece's hex list is the per-hex search's."""
    tb = get("tactica").tables_batch[0]
    rng = np.random.default_rng(100 + bfi)
    nb, dist, zones = (tb["geo_neighbours"][bfi], tb["geo_distance"][bfi], tb["geo_wall_zone"][bfi])
    j, side = _blocking_face(tb)
    real = np.array([dist[h, h] == 0 for h in range(H)])
    out = np.zeros(H, bool)
    checked = 0
    for _ in range(25):
        S = allocate(1)
        S["battle"][0] = bfi + 1
        for q in range(2):
            S["landmark_side"][0, q, j] = side
            spots = rng.permutation(np.flatnonzero(zones[q] & real))
            for w in range(int(rng.integers(0, int(tb["n_walls"]) + 1))):
                h = spots[w]
                S["wall_hex"][0, q, w] = h
                S["hex_feature"][0, h] = bf.FEATURE_WALL
                S["hex_feature_owner"][0, h] = q
                S["hex_feature_card"][0, h] = w
        density = rng.choice([0.25, 0.4, 0.5])
        for h in np.flatnonzero(real & ~zones[0] & ~zones[1]):
            if rng.random() < density:
                q = int(rng.integers(0, 2))
                S["hex_feature"][0, h] = bf.FEATURE_LANDMARK
                S["hex_feature_owner"][0, h] = q
                S["hex_feature_card"][0, h] = j
        for p in range(2):
            S["setup_piece_next"][0, p] = j
            for piece, face in (
                (bf.FEATURE_WALL, -1),
                (bf.FEATURE_SPIRE, -1),
                (bf.FEATURE_LANDMARK, side),
                (bf.FEATURE_LANDMARK, 1 - side),
            ):
                want = _reference_hexes(S, tb, p, piece, face)
                args = (S, tb, nb, dist, zones, I(0), I(p), I(piece), I(face), out)
                n = setup._piece_hexes(*args, I(H))
                assert n == len(want) and list(np.flatnonzero(out)) == want, (piece, face)
                assert setup._piece_hexes(*args, I(1)) == min(n, 1)
                checked += n
    assert checked > 0
