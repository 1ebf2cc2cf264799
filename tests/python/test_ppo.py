"""experiments/ppo.py: a tiny run end to end (files, resume, Ctrl-C), the masked sampler, and the policy head's
alignment with the action ids."""
import csv
import os
import pathlib
import signal
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "experiments"))
import ppo  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import meeple  # noqa: E402
from meeple.vector import VectorEnv  # noqa: E402

# Small enough to compile in seconds; every test shares these settings, so the compiled functions are shared.
TINY = ["--envs", "3", "--rollout", "4", "--minibatches", "2", "--epochs", "2", "--channels", "4", "--layers", "1",
        "--hidden", "8", "--eval-games", "3", "--eval-envs", "3", "--eval-every", "100000", "--threads", "1", "--no-progress"]
STEPS_PER_UPDATE = 3 * 4
W = meeple.WINDOW


def rows(out):
    with open(out / "progress.csv") as f:
        return list(csv.DictReader(f))


def counters(out):
    import json
    with np.load(out / "checkpoint.npz") as z:
        return json.loads(str(z["counters"]))


def test_tiny_run_writes_its_files_resumes_and_stops_on_ctrl_c(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    handler = signal.getsignal(signal.SIGINT)  # the default, or SIG_IGN when the tests run in the background
    assert ppo.main(["--out", str(out), "--steps", str(2 * STEPS_PER_UPDATE), *TINY]) == 0
    first = rows(out)
    assert [int(r["steps"]) for r in first] == [0, 2 * STEPS_PER_UPDATE]  # the start and the end are evaluated
    for r in first:
        assert int(r["eval_games"]) == 3
        for name in ("greedy", "heuristic"):
            assert 0 <= float(r[f"low_{name}"]) <= float(r[f"win_{name}"]) <= float(r[f"high_{name}"]) <= 1
    assert first[-1]["policy_loss"] != "" and np.isfinite(float(first[-1]["value_loss"]))
    assert (out / "progress.png").stat().st_size > 1000
    assert counters(out)["steps"] == 2 * STEPS_PER_UPDATE and counters(out)["updates"] == 2
    with np.load(out / "weights.npz") as w:
        assert w["place/kernel"].shape == (4, 4) and w["abbey/kernel"].shape == (4, 1)
        trained = {k: w[k] for k in w.files}

    # A rerun with the same --out resumes: the step count goes on from the checkpoint, the CSV keeps its rows.
    assert ppo.main(["--out", str(out), "--steps", str(3 * STEPS_PER_UPDATE), *TINY]) == 0
    assert "resuming" in capsys.readouterr().out
    second = rows(out)
    assert second[:2] == first and int(second[2]["steps"]) == 3 * STEPS_PER_UPDATE and int(second[2]["updates"]) == 3
    with np.load(out / "weights.npz") as w:
        assert set(w.files) == set(trained) and any(not np.array_equal(w[k], trained[k]) for k in w.files)

    # Ctrl-C during a rollout: that update finishes, the checkpoint is saved, main returns normally.
    real = ppo.gae

    def interrupted(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        return real(*args, **kwargs)

    monkeypatch.setattr(ppo, "gae", interrupted)
    assert ppo.main(["--out", str(out), "--steps", "100000", *TINY]) == 0
    assert "stopped" in capsys.readouterr().out
    assert counters(out)["steps"] == 4 * STEPS_PER_UPDATE
    assert signal.getsignal(signal.SIGINT) is handler  # the handler is put back


def test_bad_settings_and_checkpoints_are_refused_with_exit_code_2(tmp_path, capsys):
    out = tmp_path / "run"
    bad = [["--envs", "0"], ["--rollout", "-1"], ["--minibatches", "5"], ["--lr", "0"], ["--minutes", "-3"],
           ["--steps", "0"], ["--margin-scale", "-1"], ["--players", "7"], ["--opponent", "no_such_bot"],
           ["--envs", "x"]]
    for extra in bad:
        with pytest.raises(SystemExit) as e:
            ppo.main(["--out", str(out), *TINY, *extra])
        assert e.value.code == 2, extra
        assert extra[0] in capsys.readouterr().err, extra
    # A checkpoint of another network, or a file that is no checkpoint: named, nothing overwritten.
    assert ppo.main(["--out", str(out), "--steps", str(STEPS_PER_UPDATE), *TINY]) == 0
    before = (out / "checkpoint.npz").read_bytes()
    with pytest.raises(SystemExit) as e:
        ppo.main(["--out", str(out), "--steps", str(2 * STEPS_PER_UPDATE), *TINY, "--channels", "6"])
    assert e.value.code == 2 and "channels" in capsys.readouterr().err
    assert (out / "checkpoint.npz").read_bytes() == before
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "checkpoint.npz").write_bytes(b"not a checkpoint")
    with pytest.raises(SystemExit) as e:
        ppo.main(["--out", str(tmp_path / "junk"), "--steps", "12", *TINY])
    assert e.value.code == 2 and "checkpoint.npz" in capsys.readouterr().err


def random_masks(rng, rows):
    """Masks of every density, with rows of one legal id and rows of none."""
    masks = rng.random((rows, meeple.NUM_ACTION_IDS)) < rng.choice([0.0005, 0.01, 0.3, 0.9], size=(rows, 1))
    masks[0] = False
    masks[1] = False
    masks[1, rng.integers(meeple.NUM_ACTION_IDS)] = True
    return masks


def test_the_masked_sampler_never_picks_an_illegal_id():
    rng = np.random.default_rng(5)
    sample = jax.jit(jax.vmap(ppo.sample_masked, in_axes=(0, None, None)))
    for trial in range(12):
        masks = random_masks(rng, 64)
        # Logits that favour the illegal ids by far: the mask must still win.
        logits = rng.normal(0, 5, masks.shape).astype(np.float32) + np.where(masks, 0.0, 1e4).astype(np.float32)
        ids = np.asarray(sample(jax.random.split(jax.random.PRNGKey(trial), 16), logits, masks))  # [16, 64]
        legal = masks[np.arange(64)[None, :], ids]
        empty = ~masks.any(axis=1)
        assert legal[:, ~empty].all()
        assert (ids[:, empty] == 0).all()  # a finished game's row: id 0, which the environment ignores
        logp = np.asarray(ppo.log_probs(jnp.asarray(logits), jnp.asarray(masks)))
        p = np.exp(logp)
        assert np.allclose(p[~empty].sum(axis=1), 1, atol=1e-4) and (p[~empty][~masks[~empty]] == 0).all()


def test_the_sampler_follows_the_softmax_over_legal_ids():
    mask = np.zeros((1, meeple.NUM_ACTION_IDS), bool)
    mask[0, [7, 4200, 6000]] = True
    logits = np.zeros((1, meeple.NUM_ACTION_IDS), np.float32)
    logits[0, [7, 4200, 6000]] = np.log([1.0, 2.0, 5.0])
    logits[0, 3] = 50.0  # illegal
    sample = jax.jit(jax.vmap(ppo.sample_masked, in_axes=(0, None, None)))
    ids = np.asarray(sample(jax.random.split(jax.random.PRNGKey(0), 8000), logits, mask))[:, 0]
    freq = np.array([(ids == i).mean() for i in (7, 4200, 6000)])
    assert np.abs(freq - [0.125, 0.25, 0.625]).max() < 0.03 and freq.sum() == 1


def test_assembled_logits_put_each_cell_and_rotation_at_its_id():
    rng = np.random.default_rng(1)
    for _ in range(50):
        row, col, r = rng.integers(W), rng.integers(W), rng.integers(4)
        dense = np.zeros((1, ppo.DENSE_IDS), np.float32)
        place = np.zeros((1, W, W, 4), np.float32)
        abbey = np.zeros((1, W, W, 1), np.float32)
        place[0, row, col, r] = 10
        logits = np.asarray(ppo.assemble_logits(dense, place, abbey))
        assert logits.shape == (1, meeple.NUM_ACTION_IDS) and logits.argmax() == 1 + 4 * (row * W + col) + r
        place[:] = 0
        abbey[0, row, col, 0] = 10
        assert np.asarray(ppo.assemble_logits(dense, place, abbey)).argmax() == meeple.ACTION_ID_BLOCKS["abbey"] + row * W + col
        abbey[:] = 0
        k = rng.integers(ppo.DENSE_IDS)
        dense[0, k] = 10
        expected = 0 if k == 0 else meeple.ACTION_ID_BLOCKS["deploy"] + k - 1
        assert np.asarray(ppo.assemble_logits(dense, place, abbey)).argmax() == expected


NET = ppo.Policy(channels=4, layers=1, hidden=8)  # the network of TINY
APPLY = jax.jit(NET.apply)


def hand_set_network():
    """The tiny network with every weight 0 but these: the convolution copies plane `fits_<90 r>` at the
    centre of its patch (log1p-scaled) to channel r, and the placement head reads channel r as rotation r.
    Its placement logits are then the fits planes, so its argmax says where the head puts each cell."""
    enc = meeple.Encoding(2)
    learner = ppo.Learner(ppo.parse_args(["--out", "unused", *TINY]), enc.plane_shape, enc.flat_size)
    params = jax.tree_util.tree_map(jnp.zeros_like, learner.params)
    fits = [name for name, _ in enc.plane_channels()].index("fits_0")
    conv = np.zeros(params["params"]["conv"]["kernel"].shape, np.float32)  # [planes * PATCH * PATCH, channels]
    place = np.zeros(params["params"]["place"]["kernel"].shape, np.float32)
    centre = (ppo.PATCH // 2) * ppo.PATCH + ppo.PATCH // 2
    for r in range(4):
        conv[(fits + r) * ppo.PATCH ** 2 + centre, r] = 1
        place[r, r] = 1
    params["params"]["conv"]["kernel"] = jnp.asarray(conv)
    params["params"]["place"]["kernel"] = jnp.asarray(place)
    assert learner.net == NET  # what APPLY runs
    learner.params = params
    return learner, fits


def logits_of(learner, planes, flat, mask):
    """The network's logits, fed as the training loop feeds it."""
    rows, cells = ppo.candidate_cells(planes, mask)
    pairs = ppo.pair_arrays(planes, rows, cells, len(planes))
    return np.asarray(APPLY(learner.params, planes, ppo.network_flat(planes, flat), pairs)[0])


def test_the_network_gives_a_cell_and_rotation_the_id_of_that_placement():
    learner, fits = hand_set_network()
    enc = meeple.Encoding(2)
    rng = np.random.default_rng(2)
    cases = [(rng.integers(W), rng.integers(W), rng.integers(4)) for _ in range(32)]
    planes = np.zeros((len(cases), *enc.plane_shape), np.uint8)
    mask = np.zeros((len(cases), meeple.NUM_ACTION_IDS), bool)
    ids = [1 + 4 * (row * W + col) + r for row, col, r in cases]
    for b, (row, col, r) in enumerate(cases):
        planes[b, fits + r, row, col] = 1  # large only at one cell and rotation
        mask[b, ids[b]] = True  # so that the cell is one the network looks at
        mask[b, rng.choice(meeple.NUM_ACTION_IDS, 20)] = True  # and others with it
    logits = logits_of(learner, planes, np.zeros((len(cases), enc.flat_size), np.float32), mask)
    assert [int(i) for i in logits.argmax(axis=1)] == ids


def test_every_legal_placement_id_reads_its_cell_and_rotation_in_real_games():
    """Against the environment's own observations and masks: each legal placement's id gets the logit of
    the fits plane at its cell and rotation (the planes come [planes, row, column] from the env)."""
    learner, _ = hand_set_network()
    env = VectorEnv(num_envs=8, rules="players=2 expansions=abbey_mayor", opponents=["random"], seed=3, threads=1)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    place = slice(1, meeple.ACTION_ID_BLOCKS["abbey"])
    checked = 0
    for _ in range(60):
        logits = logits_of(learner, obs["observation"], obs["flat"], obs["action_mask"])[:, place]
        mask = obs["action_mask"][:, place]
        # log1p(1) on every cell and rotation where the tile fits, 0 elsewhere; each legal placement is one.
        assert np.allclose(logits[mask], np.log(2.0))
        checked += int(mask.sum())
        ids = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])
        obs, *_ = env.step(ids)
    assert checked > 200


def test_gae_stops_at_the_end_of_a_game():
    rewards = np.array([[0.0], [1.0], [0.0], [0.5]], np.float32)
    values = np.array([[0.2], [0.4], [9.0], [0.1]], np.float32)
    dones = np.array([[0.0], [1.0], [1.0], [0.0]], np.float32)
    adv, ret = ppo.gae(rewards, values, dones, np.array([0.3], np.float32), gamma=0.9, lam=0.5)
    d3 = 0.5 + 0.9 * 0.3 - 0.1
    d1 = 1.0 - 0.4  # the game ended: no value after it
    d0 = 0.0 + 0.9 * 0.4 - 0.2
    assert np.allclose(adv[:, 0], [d0 + 0.45 * d1, d1, -9.0, d3])
    assert np.allclose(ret, adv + values)


class Recording:
    """A teacher that answers as `bot` does and keeps (the id of each state it was asked about, its answer).
    `first=True`: the first legal action, the same every time (to compare one teacher with several)."""

    def __init__(self, asked, first=False):
        self.bot, self.asked, self.first = meeple.make_player("heuristic", 0), asked, first

    def name(self):
        return "recording"

    def choose(self, state):
        action = state.legal_actions()[0] if self.first else self.bot.choose(state)
        self.asked.append((id(state), meeple.Encoding.id_of(state, action)))
        return action


def small_trainer(tmp_path, *extra, seed=7):
    enc = meeple.Encoding(2)
    args = ppo.parse_args(["--out", str(tmp_path), *TINY, "--imitate", "heuristic", "--envs", "4", "--rollout", "8", *extra])
    learner = ppo.Learner(args, enc.plane_shape, enc.flat_size)
    return learner, ppo.Trainer(args, learner, env_seed=seed)


def test_imitation_plays_the_teachers_actions_and_learns_them(tmp_path):
    """With `imitate` the rollout's actions are the teacher's own choices, asked once per decision in order,
    each legal; imitation's updates raise the network's agreement with them."""
    learner, trainer = small_trainer(tmp_path)
    asked = []
    batch = trainer.rollout(lambda: False, [Recording(asked)], imitate=True)
    said = [i for _, i in asked]
    valid = batch["valid"] > 0  # the steps where a game waited for the learner: one question each, in order
    assert len(said) == valid.sum() > 0 and list(batch["actions"][valid]) == said == list(batch["teacher"][valid])
    assert batch["mask"][np.flatnonzero(valid), batch["actions"][valid]].all()
    stats = [learner.update(batch, imitate=True) for _ in range(40)]
    loss, agreement = [s[0] for s in stats], [s[ppo.STATS.index("agreement")] for s in stats]
    assert np.isnan(stats[0][ppo.STATS.index("approx_kl")])  # no ratio in imitation
    assert loss[-1] < 0.5 * loss[0] and agreement[-1] > agreement[0] and agreement[-1] >= 0.8


def test_the_teacher_is_not_asked_where_a_game_only_restarts(tmp_path):
    """A game that ended (perhaps outgrowing the window, with legal actions the ids cannot name) is not
    asked about: its row gets id 0, which the environment ignores."""
    _, trainer = small_trainer(tmp_path)
    mask = trainer.obs["action_mask"]
    assert mask.any(axis=1).all()
    trainer.restart[:] = [True, False, True, False]
    asked = []
    ids = trainer.teacher_ids([Recording(asked)], mask)
    assert len(asked) == 2 and ids[0] == ids[2] == 0 and mask[[1, 3], ids[[1, 3]]].all()


def test_several_teacher_threads_label_as_one_teacher_does(tmp_path):
    _, trainer = small_trainer(tmp_path, "--envs", "9")
    mask = trainer.obs["action_mask"]
    one = trainer.teacher_ids([Recording([], first=True)], mask)
    asked = [[], [], []]
    three = trainer.teacher_ids([Recording(a, first=True) for a in asked], mask)
    assert (one == three).all() and sorted(len(a) for a in asked) == [3, 3, 3]


def test_after_imitation_the_teacher_labels_the_states_the_policy_visits_and_pulls_the_policy(tmp_path):
    """PPO's rollouts with a teacher: the learner's sampled actions are played, and the teacher's choice at each
    state is kept beside them; with --imitate-weight the updates move the policy toward those labels, which
    PPO alone (weight 0, same network, same batch) does far less."""
    learner, trainer = small_trainer(tmp_path)
    asked = []
    batch = trainer.rollout(lambda: False, [Recording(asked)])
    valid = batch["valid"] > 0
    assert list(batch["teacher"][valid]) == [i for _, i in asked]
    assert batch["mask"][np.flatnonzero(valid), batch["actions"][valid]].all()
    assert (batch["actions"][valid] != batch["teacher"][valid]).any()  # an untrained policy's own choices
    agreement = {}
    for weight in (0.0, 2.0):
        enc = meeple.Encoding(2)
        args = ppo.parse_args(["--out", str(tmp_path), *TINY, "--imitate", "heuristic", "--imitate-weight", str(weight)])
        pupil = ppo.Learner(args, enc.plane_shape, enc.flat_size)
        pupil.params = learner.params
        stats = [pupil.update(batch) for _ in range(30)]
        assert np.isnan(stats[-1][ppo.STATS.index("agreement")]) == (weight == 0)  # no labels used: none reported
        best = np.asarray(pupil.best({"observation": batch["planes"], "flat": batch["flat"], "action_mask": batch["mask"]}))
        agreement[weight] = (best[valid] == batch["teacher"][valid]).mean()
    assert agreement[2.0] >= 0.7 and agreement[2.0] > agreement[0.0] + 0.2


def test_a_run_imitates_first_then_trains_with_ppo_and_resumes_in_either_phase(tmp_path, capsys):
    out = tmp_path / "run"
    run = ["--out", str(out), *TINY, "--imitate", "heuristic", "--imitate-steps", str(2 * STEPS_PER_UPDATE),
           "--eval-every", str(10 * STEPS_PER_UPDATE)]
    assert ppo.main([*run, "--steps", str(STEPS_PER_UPDATE)]) == 0
    assert [r["phase"] for r in rows(out)] == ["start", "imitate"]
    # Resumed mid-imitation: imitation goes on, an evaluation falls where it ends, then PPO.
    assert ppo.main([*run, "--steps", str(3 * STEPS_PER_UPDATE)]) == 0
    table = rows(out)
    assert [(r["phase"], int(r["steps"])) for r in table] == [
        ("start", 0), ("imitate", STEPS_PER_UPDATE), ("imitate", 2 * STEPS_PER_UPDATE), ("ppo", 3 * STEPS_PER_UPDATE)]
    assert table[2]["approx_kl"] == "" and 0 <= float(table[2]["agreement"]) <= 1
    assert table[3]["approx_kl"] != "" and 0 <= float(table[3]["agreement"]) <= 1
    assert counters(out)["imitated"] == 2 * STEPS_PER_UPDATE
    # A resume must keep how the run imitates and what it is evaluated on.
    for changed in (["--imitate", "none"], ["--imitate-steps", "5"], ["--imitate-weight", "0"], ["--eval-seed", "3"]):
        with pytest.raises(SystemExit) as e:
            ppo.main([*run, "--steps", str(4 * STEPS_PER_UPDATE), *changed])
        assert e.value.code == 2 and changed[0] in capsys.readouterr().err, changed
    assert counters(out)["steps"] == 3 * STEPS_PER_UPDATE
    # The trained run judged on other games, with nothing written; never on the games it was watched on.
    before = {f.name: f.read_bytes() for f in out.iterdir()}
    assert ppo.main(["--out", str(out), *TINY, "--evaluate-only", "--eval-seed", "99", "--eval-games", "4"]) == 0
    printed = capsys.readouterr().out
    assert "against greedy" in printed and "against heuristic" in printed and "of 4 games from seed 99" in printed
    for bad, message in ((["--eval-seed", "12345"], "evaluated on during training"), ([], "needs --eval-seed")):
        with pytest.raises(SystemExit) as e:
            ppo.main(["--out", str(out), *TINY, "--evaluate-only", *bad])
        assert e.value.code == 2 and message in capsys.readouterr().err
    assert {f.name: f.read_bytes() for f in out.iterdir()} == before
    with pytest.raises(SystemExit) as e:
        ppo.main(["--out", str(tmp_path / "nothing"), *TINY, "--evaluate-only", "--eval-seed", "5"])
    assert e.value.code == 2 and "does not exist" in capsys.readouterr().err and not (tmp_path / "nothing").exists()
    for bad in (["--imitate", "no_such_bot"], ["--imitate-steps", "-1"], ["--imitate-lr", "0"], ["--imitate-weight", "-1"]):
        with pytest.raises(SystemExit) as e:
            ppo.main(["--out", str(tmp_path / "bad"), *TINY, *bad])
        assert e.value.code == 2, bad


def test_a_pure_ppo_run_is_not_turned_into_imitation_on_resume(tmp_path):
    """--imitate given to a run that has done PPO (an old checkpoint without the settings saved, here made by
    dropping them) never imitates on top of PPO."""
    out = tmp_path / "run"
    assert ppo.main(["--out", str(out), *TINY, "--steps", str(STEPS_PER_UPDATE)]) == 0
    with np.load(out / "checkpoint.npz") as z:
        old = {k: z[k] for k in z.files if k != "run_settings"}
    np.savez(out / "checkpoint.npz", **old)
    assert ppo.main(["--out", str(out), *TINY, "--steps", str(2 * STEPS_PER_UPDATE), "--imitate", "heuristic"]) == 0
    assert [r["phase"] for r in rows(out)] == ["start", "ppo", "ppo"] and counters(out)["imitated"] == 0
