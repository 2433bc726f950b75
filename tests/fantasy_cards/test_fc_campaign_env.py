"""FC PART VII through the env option (envs/fantasy_cards/campaign_env.py, R37, R46-R49): one
AEC episode is a whole two-player campaign; the force choice and the spending of Campaign
Points are actions of the env; the runner (campaign.run_campaign) plays the same campaign
from the same seed and choices."""

from __future__ import annotations

import numpy as np
import pytest
from fc_tabletop_helpers import battlefield_doc, write
from pettingzoo.test import api_test

from agents.cli import UsageError, check_ruleset
from envs.fantasy_cards import campaign as cp
from envs.fantasy_cards import campaign_env as ce
from envs.fantasy_cards import fantasy_cards_v0 as v0
from envs.fantasy_cards import tabletop as tt
from envs.fantasy_cards.ruleset import ruleset
from envs.fantasy_cards.tables import load_tables
from envs.tactical_assault.actions import A_PASS, A_UNIT, N_ACTIONS
from envs.tactical_assault.observe import observation_size

FC = load_tables()
IDX = FC.unit_type_index
PTS = {n: int(FC.unit_points[i]) for n, i in IDX.items()}
C0 = observation_size()  # the campaign block starts here


def _small_force(mask: np.ndarray, rng: np.random.Generator, size: int) -> int:
    """A random force of about `size` units (short games): a random type, then done."""
    types = np.flatnonzero(mask[A_UNIT : A_UNIT + len(PTS)])
    if mask[A_PASS] and (rng.random() < 1 / size or types.size == 0):
        return A_PASS
    return int(A_UNIT + rng.choice(types))


def play(env, seed: int, policy_seed: int, size: int = 2, log=None, final=None):
    """A whole campaign of uniformly random legal decisions (forces of ~`size` units), its
    CampaignResult; `log(env, agent, action)` sees each decision before it is taken, `final`
    (a dict) gets each agent's reward and infos at the end."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            if final is not None:
                final[agent] = (reward, info)
            env.step(None)
            continue
        m = obs["action_mask"]
        if info["phase"] == ce.PHASE_FORCE:
            a = _small_force(m, rng, size)
        else:
            a = int(rng.choice(np.flatnonzero(m)))
        if log is not None:
            log(env.unwrapped, agent, a)
        env.step(a)
    return env.unwrapped.result


def test_a_two_game_campaign_passes_the_pettingzoo_api_test():
    api_test(v0.env(campaign=2), num_cycles=3000)


def test_one_episode_is_the_whole_campaign_and_its_result_is_the_reward():
    """FC Steps 3-5, "Winning The Campaign": force choice, 2 games, 2 spendings each; the
    most Promotion Awards wins (+1 / -1, 0 each when equal, R47); games give 0 reward."""
    env = v0.env(campaign=2)
    phases: list[str] = []
    rewards: list[dict] = []

    def log(u, agent, a):
        phases.append(u.phase)
        rewards.append(dict(u.rewards))

    final: dict[str, tuple] = {}
    res = play(env, seed=11, policy_seed=1, log=log, final=final)
    u = env.unwrapped
    assert phases[0] == ce.PHASE_FORCE and u.phase == ce.PHASE_OVER
    assert len(res.games) == 2 and u.games_played == 2
    # the spendings come in two runs of decisions, one after each game
    runs = [p for i, p in enumerate(phases) if i == 0 or p != phases[i - 1]]
    assert runs == ["force", "game", "spend", "game", "spend"]
    assert all(r == {"player_0": 0.0, "player_1": 0.0} for r in rewards)  # none until the end
    assert sum(res.earned) in (30, 21, 12)  # 9 + 6 per decided game, 3 + 3 per draw
    assert res.winners == cp.winners(res.awards)
    want = (
        [0.0, 0.0] if len(res.winners) == 2 else [1.0 if i in res.winners else -1.0 for i in (0, 1)]
    )
    assert [final[a][0] for a in ("player_0", "player_1")] == want
    info = final["player_0"][1]
    assert info["winners"] == res.winners and info["awards"] == res.awards
    last = info["last_game"]
    assert last["game"] == 1 and last["winner"] == res.games[1][4]
    assert sum(last["campaign_points"]) in (15, 6)


def test_the_env_plays_the_campaign_run_campaign_plays_with_the_same_seed_and_choices():
    """The one implementation: the env's random campaign, its choices replayed by
    CampaignPlayers through run_campaign, gives the same games, points, awards and forces."""
    forces: dict[int, list[str]] = {}
    spends: dict[int, list[cp.Spend]] = {0: [], 1: []}
    acts: dict[int, list[int]] = {0: [], 1: []}

    def log(u, agent, a):
        p = int(agent[-1])
        if u.phase == ce.PHASE_GAME:
            if not forces:  # the forces as chosen, in their order (the games' unit slots)
                forces.update({q: list(f) for q, f in enumerate(u.result.forces)})
            acts[p].append(a)
        elif u.phase == ce.PHASE_SPEND and a == ce.C_DONE:
            spends[p].append(u.draft.spend())

    env = v0.env(campaign=2)
    res = play(env, seed=5, policy_seed=2, size=3, log=log)
    assert len(spends[0]) == len(spends[1]) == 2

    class Replay(cp.CampaignPlayer):
        def __init__(self, p: int, force: list[str]):
            self.p, self.force = p, force
            self.spends, self.acts = list(spends[p]), list(acts[p])

        def choose_force(self, allowed, fc, rng):
            return self.force

        def spend(self, points, force, fc, rng):
            return self.spends.pop(0)

        def act(self, S, tb, legal, rng):
            a = self.acts.pop(0)
            assert a in legal
            return a

    players = [Replay(0, forces[0]), Replay(1, forces[1])]
    again = cp.run_campaign(players, rounds=2, seed=5)
    assert again.games == res.games
    assert (again.awards, again.earned, again.winners) == (res.awards, res.earned, res.winners)
    assert [sorted(f) for f in again.forces] == [sorted(f) for f in res.forces]
    assert all(not p.acts and not p.spends for p in players)


def _to_spending(seed: int) -> tuple:
    """An env at its first spending: forces INFANTRY + MILITIA each, the game played at random."""
    env = v0.env(campaign=2)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    force = [A_UNIT + IDX["INFANTRY"], A_UNIT + IDX["MILITIA"], A_PASS]
    chosen = {0: list(force), 1: list(force)}
    u = env.unwrapped
    while u.phase != ce.PHASE_SPEND:
        if u.phase == ce.PHASE_FORCE:
            env.step(chosen[u.current_player].pop(0))
        else:
            env.step(int(rng.choice(u.legal())))
    return env, u


def _snapshot(env, u):
    return (
        u.phase,
        u.current_player,
        u.draft.spend(),
        [list(f) for f in u.result.forces],
        list(u.result.awards),
        env.observe(env.agent_selection)["observation"].copy(),
    )


def _refused(env, u, a: int, match: str = "is illegal") -> None:
    before = _snapshot(env, u)
    with pytest.raises(ValueError, match=match):
        env.step(a)
    after = _snapshot(env, u)
    assert before[:5] == after[:5] and (before[5] == after[5]).all()  # nothing changed


def test_spending_is_3_per_award_and_a_swap_of_equal_value_and_the_rest_lapses():
    """FC "Using Campaign Points" (R39, R48), through the env's actions: a unit swapped out
    costs 1 point per unit point and must be replaced by units worth exactly as much before
    "done"; 3 points buy a Promotion Award; an illegal step raises and changes nothing;
    points left at "done" lapse."""
    env, u = _to_spending(seed=4)
    p = u.current_player
    pts = u.draft.points
    assert pts in (9, 6, 3)
    obs = env.observe(env.agent_selection)["observation"]
    assert obs[C0 + ce.O_SPENDING] == 1 and obs[C0 + ce.O_POINTS] == pts
    assert obs[C0 + ce.O_FORCE + IDX["INFANTRY"]] == 1 and obs[:C0].sum() == 0
    legal = set(u.legal().tolist())
    assert ce.C_AWARD in legal and ce.C_DONE in legal
    assert ce.C_OUT + IDX["INFANTRY"] in legal  # 3 unit points, 3 Campaign Points
    assert ce.C_OUT + IDX["CAVALRY"] not in legal  # not in the force
    _refused(env, u, ce.C_OUT + IDX["CAVALRY"])
    _refused(env, u, ce.C_IN + IDX["ARCHER"])  # nothing swapped out to replace
    _refused(env, u, N_ACTIONS + 999)
    env.step(ce.C_OUT + IDX["INFANTRY"])
    assert u.draft.left(FC) == pts - 3 and u.draft.unmatched(FC) == 3
    _refused(env, u, ce.C_DONE)  # the force's total must still match
    _refused(env, u, ce.C_IN + IDX["CAVALRY"])  # 4 unit points for 3
    env.step(ce.C_IN + IDX["ARCHER"])  # 3 for 3
    bought = 0
    while ce.C_AWARD in u.legal():
        env.step(ce.C_AWARD)
        bought += 1
    assert bought == (pts - 3) // 3
    _refused(env, u, ce.C_AWARD)  # fewer than 3 points left
    lapsed = u.draft.left(FC)
    env.step(ce.C_DONE)
    assert u.result.awards[p] == bought and sorted(u.result.forces[p]) == ["ARCHER", "MILITIA"]
    assert sum(PTS[n] for n in u.result.forces[p]) == PTS["INFANTRY"] + PTS["MILITIA"]
    # the other player spends next, not yet seeing the awards just bought (R48)
    assert u.current_player == 1 - p and u.draft.points in (9, 6, 3)
    other = env.observe(env.agent_selection)["observation"]
    assert other[C0 + ce.O_AWARDS + 1] == 0 and other[C0 + ce.O_LEFT] == u.draft.points
    env.step(ce.C_DONE)
    # then game 2, with the awards known to both and the lapsed points gone
    assert u.phase == ce.PHASE_GAME and lapsed >= 0
    assert env.observe(f"player_{1 - p}")["observation"][C0 + ce.O_AWARDS + 1] == bought
    assert u.result.earned[p] == pts  # earned, whatever was spent or lapsed


def test_every_game_starts_with_both_forces_at_full_strength():
    """FC "Select Forces": losses replaced, swaps kept; each game a new record (game_record)
    on the drawn battlefield with the seats drawn."""
    env, u = _to_spending(seed=3)
    g1 = u.game
    assert g1.S["units_lost"][0].sum() > 0  # the first game ended with a unit eliminated
    while u.phase == ce.PHASE_SPEND:
        env.step(ce.C_DONE)
    g2 = u.game
    assert g2 is not g1 and int(g2.S["decisions"][0]) == 0
    S = g2.S
    for seat, p in enumerate(u.order):
        want = np.zeros(S["force"].shape[2], dtype=np.int64)
        for n in u.result.forces[p]:
            want[IDX[n]] += 1
        assert (S["force"][0, seat] == want).all()
        assert int(S["points_lost"][0, seat]) == 0
        mine = S["unit_side"][0] == seat
        assert mine.sum() == len(u.result.forces[p]) and (S["unit_pos"][0][mine] == -1).all()


def test_same_seed_same_campaign_bit_for_bit():
    seen: list[list] = [[], []]

    def logger(k):
        def log(u, agent, a):
            obs = u.observe(agent)["observation"]
            seen[k].append((agent, a, obs.tobytes()))

        return log

    a = play(v0.env(campaign=2), seed=9, policy_seed=3, log=logger(0))
    b = play(v0.env(campaign=2), seed=9, policy_seed=3, log=logger(1))
    assert seen[0] == seen[1]
    assert (a.games, a.awards, a.earned, a.forces) == (b.games, b.awards, b.earned, b.forces)


def test_an_alternate_campaign_env_plays_its_fixed_sequence(tmp_path):
    """FC "Alternate Campaigns" through the env option: the fixed sequence, in order."""
    doc = battlefield_doc()
    doc["name"] = "Open Field"
    other = write(doc, tmp_path)
    res = play(v0.env(campaign={"sequence": [other, tt.STANDARD_PATH]}), seed=2, policy_seed=4)
    assert [g[1] for g in res.games] == ["Open Field", "Standard Battlefield"]


def test_the_option_is_checked_and_named():
    env = v0.env(options={"campaign": "1"})
    env.reset(seed=0)
    assert env.unwrapped.spec.games == 1 and env.unwrapped.phase == ce.PHASE_FORCE
    with pytest.raises(ValueError, match="rounds must be 1 or more, got 0"):
        v0.env(campaign=0)
    with pytest.raises(ValueError, match="rounds must be 1 or more, got 0"):
        v0.env(campaign=cp.CampaignSpec(games=0))
    with pytest.raises(ValueError, match="campaign must be a number of games, got 'many'"):
        v0.env(options={"campaign": "many"})
    with pytest.raises(ValueError, match="unknown key 'maps'"):
        v0.env(campaign={"maps": []})
    with pytest.raises(ValueError, match="is not a file"):
        v0.env(campaign={"games": 1, "battlefields": ["nowhere.yaml"]})
    with pytest.raises(ValueError, match="a campaign env is two players"):
        v0.env(campaign=1, num_players=3)
    with pytest.raises(ValueError, match="campaign is an option of the AEC env only"):
        ruleset(options={"campaign": "2"})
    with pytest.raises(UsageError, match="fantasy_cards: campaign is an option of the AEC env"):
        check_ruleset("fantasy_cards", ["campaign=2"])  # tacsim selfplay --option campaign=2
    with pytest.raises(ValueError, match="must be an integer"):
        env.step("pass")


def test_a_swap_is_offered_only_if_it_can_be_finished_within_32_units():
    """I17, R48: with 32 units a force may swap a 4-point Cavalry only for units it can still
    hold: another 4-point unit, not a 3-point one (its last point would need a 33rd unit)."""
    assert PTS["CIVILIAN"] == 1 and PTS["CAVALRY"] == 4 and PTS["ARCHER"] == 3
    force = ["CAVALRY"] + ["CIVILIAN"] * (cp.MAX_FORCE_UNITS - 1)
    d = cp.SpendDraft(points=9, force=force)
    assert d.can_swap_out("CAVALRY", FC) and not d.can_swap_in("CAVALRY", FC)
    d.swap_out.append("CAVALRY")
    assert not d.can_finish(FC)
    assert d.can_swap_in("CHARIOT", FC) and PTS["CHARIOT"] == 4
    assert not d.can_swap_in("ARCHER", FC) and not d.can_swap_in("CIVILIAN", FC)
    small = cp.SpendDraft(points=9, force=["CAVALRY", "CIVILIAN"], swap_out=["CAVALRY"])
    assert small.can_swap_in("ARCHER", FC) and small.can_swap_in("CIVILIAN", FC)
    small.swap_in += ["ARCHER", "CIVILIAN"]
    assert small.can_finish(FC) and small.left(FC) == 5
    assert cp.apply_spend(9, small.force, small.spend(), FC, 36)[1] == [
        "CIVILIAN",
        "ARCHER",
        "CIVILIAN",
    ]
