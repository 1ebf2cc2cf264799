"""meeple.vector.VectorEnv: N games stepped in C++ threads as a Gymnasium vector environment. Its spaces hold
what it returns; games restart at the step after they end (Gymnasium's next-step autoreset), ignoring that
step's action; self-play names the seat to move; a seed fixes everything; bad actions are named by env index
and move no game; threads sharing one VectorEnv take turns.

(Gymnasium 1.4 has no checker for vector environments, only gymnasium.utils.env_checker.check_env for single
ones: the checks here follow what gymnasium.vector.VectorEnv documents.)"""
import decimal
import threading

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import meeple
import meeple.environment
from meeple.vector import VectorEnv

IDS = meeple.NUM_ACTION_IDS
ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]


def pick(obs, rng):
    """A random legal id per env, picked in numpy from the mask (0 where an env has none: it is restarting)."""
    mask = obs["action_mask"]
    noise = rng.random(mask.shape, dtype=np.float32)
    ids = np.argmax(np.where(mask, noise, -1), axis=1)
    return np.where(mask.any(axis=1), ids, 0)


def states(env):
    return [env.state(i) for i in range(env.num_envs)]


def test_it_is_a_gymnasium_vector_env_and_its_spaces_hold_what_it_returns():
    env = VectorEnv(num_envs=5, rules="players=3 expansions=river2,count", opponents=["random", "greedy", "random", "heuristic", "random"], seed=2)
    assert isinstance(env, gymnasium.vector.VectorEnv) and env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    encoding = meeple.Encoding(3)
    assert env.single_observation_space["observation"].shape == encoding.plane_shape
    assert env.single_observation_space["flat"].shape == (encoding.flat_size,)
    assert env.single_action_space == gymnasium.spaces.Discrete(IDS)
    obs, infos = env.reset(seed=4)
    rng, ended = np.random.default_rng(1), 0
    for _ in range(120):
        assert env.observation_space.contains(obs)
        for i in range(5):
            assert env.single_observation_space.contains({k: v[i] for k, v in obs.items()})
        assert obs["action_mask"].dtype == np.bool_ and obs["observation"].dtype == np.uint8 and obs["flat"].dtype == np.float32
        actions = pick(obs, rng)
        assert env.action_space.contains(actions.astype(np.int64))
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert rewards.shape == terminated.shape == truncated.shape == infos["to_play"].shape == (5,)
        assert infos["returns"].shape == (5, 3)
        ended += int(terminated.sum())
    assert ended > 0


def test_the_rows_are_each_games_encoding_from_the_learners_seat():
    env = VectorEnv(num_envs=4, rules="players=2 expansions=abbey_mayor,king_robber", opponents=["greedy"], seed=3)
    encoding, rng = meeple.Encoding(2), np.random.default_rng(2)
    obs, infos = env.reset()
    for step in range(60):
        for i in range(4):
            state = env.state(i)
            if state.is_terminal:
                continue
            seat = int(infos["to_play"][i])  # against opponents: the learner, whose turn it is
            assert seat == state.current_player
            planes, flat, fits = encoding.observe(state, seat)
            assert fits and np.array_equal(obs["observation"][i], planes) and np.array_equal(obs["flat"][i], flat)
            assert np.array_equal(obs["action_mask"][i], encoding.legal_mask(state))
        obs, rewards, terminated, truncated, infos = env.step(pick(obs, rng))


def test_a_game_restarts_at_the_step_after_it_ends_and_that_steps_action_is_ignored():
    env = VectorEnv(num_envs=3, rules="players=2", opponents=["random"], seed=5)
    obs, _ = env.reset(seed=5)
    rng, restarts = np.random.default_rng(3), 0
    for _ in range(400):
        actions = pick(obs, rng)
        obs, rewards, terminated, truncated, infos = env.step(actions)
        ended = terminated | truncated
        if not ended.any():
            assert not rewards.any()
            continue
        for i in np.flatnonzero(terminated):
            final = env.state(i)
            assert final.is_terminal and not obs["action_mask"][i].any()
            learner = int(np.argmax(infos["returns"][i] == rewards[i]))
            assert rewards[i] == pytest.approx(meeple.environment.win_utilities(final.scores)[learner])
            assert infos["returns"][i].sum() == pytest.approx(0)
        others = [j for j in range(3) if not ended[j]]
        before = {j: env.state(j) for j in others}
        # The restarting envs' actions are ignored, whatever they are: illegal, out of range, negative.
        actions = pick(obs, rng)
        for k, i in enumerate(np.flatnonzero(ended)):
            actions[i] = [IDS + 7, -5, 0][k % 3]
        obs, rewards, terminated, truncated, infos = env.step(actions)
        for i in np.flatnonzero(ended):
            fresh = env.state(i)
            assert not fresh.is_terminal and fresh.num_tiles <= 3 and fresh.scores == [0, 0]  # a new game
            assert rewards[i] == 0 and not terminated[i] and not truncated[i] and obs["action_mask"][i].any()
            restarts += 1
        for j in others:  # the others took their step
            assert env.state(j) != before[j]
        if restarts >= 4:
            break
    assert restarts >= 4


def test_self_play_names_the_seat_to_move_and_sees_from_it():
    env = VectorEnv(num_envs=4, rules="players=3 expansions=" + ",".join(ALL), opponents=None, seed=7)
    encoding, rng = meeple.Encoding(3), np.random.default_rng(4)
    obs, infos = env.reset()
    seats_seen = set()
    for _ in range(150):
        for i in range(4):
            state = env.state(i)
            if state.is_terminal:
                assert infos["to_play"][i] == -1
                continue
            seat = int(infos["to_play"][i])
            assert seat == state.current_player
            seats_seen.add(seat)
            planes, flat, _ = encoding.observe(state, seat)
            assert np.array_equal(obs["observation"][i], planes) and np.array_equal(obs["flat"][i], flat)
        obs, rewards, terminated, truncated, infos = env.step(pick(obs, rng))
    assert seats_seen == {0, 1, 2}


def run(env, seed, steps, rng_seed=0):
    obs, infos = env.reset(seed=seed)
    rng, trace = np.random.default_rng(rng_seed), []
    for _ in range(steps):
        result = env.step(pick(obs, rng))
        obs = result[0]
        trace.append((obs, *result[1:4], result[4]["to_play"]))
    return trace


def same(a, b):
    """Observations (dicts of arrays) alike."""
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("opponents", [["greedy", "random", "mcts:iterations=30"], None])
def test_a_seed_fixes_every_game_whatever_the_threads(opponents):
    def make(threads):
        return VectorEnv(num_envs=3, rules="players=2 expansions=river2", opponents=opponents, seed=11, threads=threads)
    a, b = run(make(1), 11, 40), run(make(2), 11, 40)
    for x, y in zip(a, b):
        assert same(x[0], y[0]) and all(np.array_equal(p, q) for p, q in zip(x[1:], y[1:]))
    c = run(make(2), 12, 40)
    assert not all(same(x[0], y[0]) for x, y in zip(a, c))


# ---- bad actions: named by env index, no game moved ----

def started(n=4):
    env = VectorEnv(num_envs=n, rules="players=2 expansions=count", opponents=["random"], seed=1)
    obs, _ = env.reset()
    return env, obs


def assert_refused(env, obs, actions, error, match):
    before, out = states(env), {k: v.copy() for k, v in env._out.items()}
    with pytest.raises(error, match=match):
        env.step(actions)
    assert states(env) == before, "a game moved"
    assert all(np.array_equal(env._out[k], v) for k, v in out.items()), "an array was written"


def test_ids_that_are_not_integers_are_named_by_env_index():
    env, obs = started()
    legal = pick(obs, np.random.default_rng(1))
    for i in range(4):
        for wrong in [float(legal[i]), legal[i] + 0.5, str(legal[i]), None, True, np.bool_(False), [legal[i]],
                      decimal.Decimal(1), 1j, np.float32(1)]:
            actions = list(legal)
            actions[i] = wrong
            assert_refused(env, obs, actions, TypeError, rf"env {i}: action id must be an integer, got")
            assert_refused(env, obs, tuple(actions), TypeError, rf"env {i}: action id must be an integer, got")
            if not isinstance(wrong, list):
                assert_refused(env, obs, np.array(actions, dtype=object), TypeError, rf"env {i}: action id must be an integer")
    for array in [legal.astype(np.float32), legal.astype(np.float64), legal.astype(bool), legal.astype(str),
                  legal.astype(complex), np.array(["x", *legal[1:]], dtype=object), np.array([None] * 4)]:
        assert_refused(env, obs, array, TypeError, r"env 0: action id must be an integer")
    # what is an id: any integer type, a list of ints, a numpy array of ints
    for good in [legal.astype(np.int16), legal.astype(np.uint16), legal.astype(np.uint64), list(map(int, legal))]:
        env2, obs2 = started()
        env2.step(good)


def test_ids_out_of_range_or_not_legal_are_named_by_env_index():
    env, obs = started()
    legal = pick(obs, np.random.default_rng(1))
    for i in range(4):
        for wrong in [-1, IDS, IDS + 100, -IDS, 2**40, np.iinfo(np.int64).min]:
            actions = legal.copy()
            actions[i] = wrong
            assert_refused(env, obs, actions, ValueError, rf"env {i}: action id {wrong} is out of range \(0 to {IDS - 1}\)")
        huge = legal.astype(np.uint64)
        huge[i] = np.uint64(2**64 - 1)  # not an int64: named as given, not wrapped to -1
        assert_refused(env, obs, huge, ValueError, rf"env {i}: action id {2**64 - 1} is out of range")
        actions = legal.copy()
        actions[i] = next(k for k in range(IDS) if not obs["action_mask"][i][k])
        assert_refused(env, obs, actions, ValueError, rf"env {i}: action id {actions[i]} is not legal here")
        # an id legal in another env's game is no better
        other = next((int(k) for k in np.flatnonzero(obs["action_mask"][(i + 1) % 4]) if not obs["action_mask"][i][k]), None)
        if other is not None:
            actions[i] = other
            assert_refused(env, obs, actions, ValueError, rf"env {i}: action id {other} is not legal here")
    env.step(legal)  # and the batch goes on


def test_arrays_of_the_wrong_shape_are_refused():
    env, obs = started()
    legal = pick(obs, np.random.default_rng(1))
    for wrong in [legal[:3], np.append(legal, 0), legal[None], legal.reshape(2, 2), np.array(legal[0]), [], legal.tolist() + [1]]:
        assert_refused(env, obs, wrong, ValueError, r"actions must have shape \(4,\): one id per env, got shape")
    assert_refused(env, obs, "0123", ValueError, r"actions must have shape \(4,\)")


def test_settings_are_checked():
    for make, match in [(lambda: VectorEnv(num_envs=0), "num_envs"), (lambda: VectorEnv(num_envs=2.0), "num_envs"),
                        (lambda: VectorEnv(rules="players=9"), "players"), (lambda: VectorEnv(rules=3), "rules"),
                        (lambda: VectorEnv(num_envs=3, opponents=["greedy", "random"]), "opponents"),
                        (lambda: VectorEnv(opponents=["nosuch"]), "nosuch"), (lambda: VectorEnv(opponents=[3]), r"opponents\[0\]"),
                        (lambda: VectorEnv(seed=-1), "seed"), (lambda: VectorEnv(threads=0), "threads")]:
        with pytest.raises((TypeError, ValueError), match=match):
            make()
    env, _ = started()
    for index in [-1, 4, 1.0, "0"]:
        with pytest.raises((TypeError, ValueError), match="index"):
            env.state(index)
    for seed in [-1, 1.5, "1"]:
        with pytest.raises((TypeError, ValueError), match="seed"):
            env.reset(seed=seed)


# ---- threads ----

def test_threads_sharing_one_vector_env_take_turns():
    """Resets from two threads each return the games of their own seed (never the other's results, half
    written); steps from two threads either move every game or none, with the refusal naming the env."""
    env = VectorEnv(num_envs=8, rules="players=2", opponents=["random"], seed=1, threads=2)
    reference = {seed: VectorEnv(num_envs=8, rules="players=2", opponents=["random"], seed=1).reset(seed=seed)[0]
                 for seed in (21, 22)}
    failures = []

    def resets(seed):
        try:
            for _ in range(40):
                obs, _ = env.reset(seed=seed)
                if not same(obs, reference[seed]):
                    failures.append(f"reset(seed={seed}) returned other games")
        except Exception as e:  # noqa: BLE001 - any error is the failure
            failures.append(repr(e))

    threads = [threading.Thread(target=resets, args=(seed,)) for seed in (21, 22)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []

    latest = {"obs": env.reset(seed=30)[0]}  # whichever thread stepped last publishes what it saw

    def steps(seed):
        rng, done = np.random.default_rng(seed), 0
        try:
            while done < 60:
                try:
                    obs, rewards, terminated, truncated, infos = env.step(pick(latest["obs"], rng))
                except ValueError as e:  # the other thread moved first: these ids were for positions gone by
                    assert "is not legal here" in str(e) and str(e).startswith("env "), str(e)
                    continue
                latest["obs"], done = obs, done + 1
                live = ~(terminated | truncated)
                assert obs["action_mask"][live].any(axis=1).all() and (infos["to_play"][live] >= 0).all()
        except Exception as e:  # noqa: BLE001
            failures.append(repr(e))

    threads = [threading.Thread(target=steps, args=(seed,)) for seed in (31, 32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert same(env.reset(seed=21)[0], reference[21])  # and the games are whole afterwards
