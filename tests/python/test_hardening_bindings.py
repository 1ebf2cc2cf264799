"""Bad input to the Python bindings, second round (issue 27): RecordBuilder checks what it is given, bots and
states may be shared between threads, arguments of the wrong type get a message naming them, and State
pickles carry a checksum. Cases are generated (seeded loops), not only the issue's examples."""
import json
import pickle
import random
import threading
import zlib

import numpy as np
import pytest

import meeple
from meeple import _meeple
from meeple import policy
from meeple.vector import VectorEnv

ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]
GAMES = [(2, []), (3, ALL), (4, ["river2", "count"]), (5, ["abbey_mayor", "king_robber"])]


def random_game(players, expansions, seed):
    """Every state of a random game and the action taken in it, then the final state."""
    state, dealer, rng = meeple.State(meeple.Rules(players=players, expansions=expansions)), meeple.Dealer(seed), random.Random(seed)
    steps = []
    while not state.is_terminal:
        action = dealer.deal(state) if state.is_chance else rng.choice(state.legal_actions())
        steps.append((state.copy(), action))
        state.apply(action)
    return steps, state


def apply_error(state, action):
    """The RulesError message State.apply gives for `action` (None when it is legal)."""
    try:
        state.copy().apply(action)
    except meeple.RulesError as e:
        return str(e)
    return None


# ---- 2. RecordBuilder ----

@pytest.mark.parametrize("players,expansions", GAMES)
def test_record_builder_refuses_illegal_actions_and_keeps_the_record(players, expansions):
    steps, final = random_game(players, expansions, seed=players)
    others = [a for _, a in random_game(players, expansions, seed=players + 100)[0]]  # actions of another game
    rng = random.Random(players)
    rules = final.rules
    builder, clean = meeple.RecordBuilder(rules, ["a"] * players, 7), meeple.RecordBuilder(rules, ["a"] * players, 7)
    refused = 0
    for state, action in steps:
        candidates = [rng.choice(others) for _ in range(3)]
        for _ in range(3):
            try:
                candidates.append(meeple.Action.from_bits(rng.getrandbits(32) if rng.random() < 0.5 else rng.getrandbits(26)))
            except ValueError:
                pass
        for bad in candidates:
            if state.is_legal(bad):
                continue
            with pytest.raises(meeple.RulesError) as e:
                builder.add(state, bad)
            assert str(e.value) == apply_error(state, bad)  # the same error as State.apply
            refused += 1
        builder.add(state, action)
        clean.add(state, action)
    assert refused > 3 * len(steps)
    line = builder.finish(final)
    assert line == clean.finish(final)
    assert '"?"' not in line
    assert meeple.replay(line) == final


@pytest.mark.parametrize("players,expansions", GAMES[:2])
def test_record_builder_refuses_states_that_are_not_the_next_position(players, expansions):
    steps, final = random_game(players, expansions, seed=11)
    other_steps, other_final = random_game(players, expansions, seed=12)
    rules = final.rules
    other_rules = meeple.Rules(players=players + 1, expansions=expansions)
    builder = meeple.RecordBuilder(rules)
    rng = random.Random(3)
    for i, (state, action) in enumerate(steps):
        wrong = [steps[j][0] for j in rng.sample(range(len(steps)), 4) if j != i]
        wrong += [s for s, _ in rng.sample(other_steps, 3) if s != state]
        for other in wrong:
            with pytest.raises(ValueError, match=f"is not the position the {i} actions added so far lead to"):
                builder.add(other, action)
        if i % 20 == 0:
            with pytest.raises(ValueError, match="the state is a game of rules"):
                builder.add(meeple.State(other_rules), action)
            with pytest.raises(ValueError, match="is not the position"):
                builder.finish(other_final)
        builder.add(state, action)
    with pytest.raises(meeple.RulesError):  # nothing follows the end
        builder.add(final, steps[-1][1])
    assert meeple.replay(builder.finish(final)) == final


def test_a_record_starts_at_the_initial_position():
    rules = meeple.Rules()
    steps, _ = random_game(2, [], seed=5)
    with pytest.raises(ValueError, match="is not the position the 0 actions added so far lead to"):
        meeple.RecordBuilder(rules).add(steps[3][0], steps[3][1])
    assert json.loads(meeple.RecordBuilder(rules, [], 0).finish(meeple.State(rules)))["actions"] == []


# ---- 3. Threads ----

def decision_states(count, seed=3):
    steps, _ = random_game(3, ALL, seed)
    states = [s for s, _ in steps if not s.is_chance]
    return [states[i * len(states) // count] for i in range(count)]


def run_threads(targets, timeout=120):
    """Runs the callables at once; returns their exceptions. A thread still running after `timeout` (a hang)
    fails the test."""
    errors, start = [], threading.Barrier(len(targets))

    def wrap(target):
        try:
            start.wait()
            target()
        except BaseException as e:  # noqa: B036 - reported to the test
            errors.append(e)

    threads = [threading.Thread(target=wrap, args=(t,), daemon=True) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return errors


def test_threads_sharing_one_search_player_take_turns():
    # Before the lock, two searches at once in one tree returned illegal actions or crashed the interpreter.
    states = decision_states(12)
    bot = meeple.make_player("mcts:iterations=300", seed=1)
    chosen = []

    def hammer(k):
        rng = random.Random(k)
        for r in range(12):
            state = rng.choice(states)
            action = bot.choose(state)
            assert state.is_legal(action), (state, action)
            chosen.append(action)
            if r % 2:
                bot.observe(rng.choice(state.legal_actions()))  # observe also takes its turn

    assert run_threads([lambda k=k: hammer(k) for k in range(8)]) == []
    assert len(chosen) == 8 * 12


@pytest.mark.parametrize("spec", ["mcts:iterations=200", "mcts:iterations=100,worlds=2", "heuristic", "random"])
def test_a_search_works_on_its_own_copy_while_another_thread_changes_the_state(spec):
    rules = meeple.Rules(players=3, expansions=ALL)
    box = [meeple.State(rules)]  # the shared state; replaced by a new game when one ends
    done = threading.Event()
    searched, finished = [], []
    shared_bot = meeple.make_player(spec, seed=2)

    def mutate():
        dealer, rng, steps = meeple.Dealer(1), random.Random(1), 0
        while not done.is_set() and steps < 1_000_000:
            state = box[0]
            if state.is_terminal:
                box[0] = meeple.State(rules)
            else:
                state.apply(dealer.deal(state) if state.is_chance else rng.choice(state.legal_actions()))
            steps += 1

    def search(k):
        bot = shared_bot if k % 2 else meeple.make_player(spec, seed=k)
        try:
            for _ in range(15):
                for _ in range(10**6):  # until the state is at a decision node when copied
                    try:
                        searched.append(bot.choose(box[0]))
                        break
                    except ValueError as e:
                        assert "players choose only at decision nodes" in str(e), e
        finally:
            finished.append(k)
            if len(finished) == 4:
                done.set()

    errors = run_threads([mutate] + [lambda k=k: search(k) for k in range(4)])
    done.set()
    assert errors == []
    assert len(searched) == 4 * 15


def test_python_bots_are_called_from_threads_too():
    class Lowest(meeple.Player):
        def choose(self, state):
            return state.legal_actions()[0]

    states, bot = decision_states(6), Lowest()
    results = [[] for _ in range(4)]
    assert run_threads([lambda k=k: results[k].extend(meeple.Player.choose(bot, s) for s in states) for k in range(4)]) == []
    assert results == [[s.legal_actions()[0] for s in states]] * 4


# ---- 8. Arguments of the wrong type, text that is not UTF-8 ----

def sample_values():
    rules = meeple.Rules()
    state, dealer = meeple.State(rules), meeple.Dealer(1)
    while state.is_chance or len(state.legal_actions()) < 2:
        state.apply(dealer.deal(state) if state.is_chance else state.legal_actions()[0])
    model = policy.PolicyModel([(np.ones((1, len(meeple.ACTION_FEATURE_NAMES))), np.zeros(1))])
    trained = meeple.make_evaluator("trained")
    encoding, envs = meeple.Encoding(2), VectorEnv(num_envs=2, rules=rules, opponents=["random"], seed=1, threads=1)
    planes, flat, _ = encoding.observe(state, 0)
    table = meeple.Table(rules, [None, meeple.make_player("random")], ["you", "random"], 1)
    table.advance()  # at the caller's first decision
    return {
        "State": state, "Action": state.legal_actions()[0], "Rules": rules, "Dealer": meeple.Dealer(1),
        "Player": meeple.make_player("random"), "RecordBuilder": meeple.RecordBuilder(rules),
        "Standings": meeple.Standings(["random"]), "Table": table, "List[Player]": [meeple.make_player("random")] * 2,
        "players": 2, "expansions": [],  # Rules takes objects: a count or the rules text; a list or a string
        "Evaluator": trained, "TrainedEvaluator": trained, "FittedEvaluator": trained.weights_for(rules),
        "LinearEvaluator": trained.weights_for(rules), "record": meeple.RecordBuilder(rules).finish(meeple.State(rules)),
        "PolicyNet": meeple.PolicyNet.from_json(model.to_json(rules, name="t")),
        "PolicyValueNet": meeple.PolicyValueNet.from_json(meeple.random_network_json(rules, channels=2, flat_hidden=2, global_hidden=2)),
        # arrays by the name of the argument that takes them, of the shapes it takes (those of 2 players, 2 envs)
        "Encoding": encoding, "VectorEnvCore": envs._core, "out": envs._out, "actions": np.zeros(2, np.int64),
        "planes": planes, "flat": flat, "tensor": np.zeros(encoding.tensor_size, np.float32),
        "mask": np.zeros(meeple.NUM_ACTION_IDS, np.bool_),
    }


def parameters(function):
    """(name, type, required) of each parameter, from the signature pybind11 writes at the head of the docstring."""
    head = function.__doc__.splitlines()[0]
    inside, params, depth, current = head[head.index("(") + 1:head.rindex(") -> ")], [], 0, ""
    for ch in inside + ",":
        if ch == "," and depth == 0:
            name, _, rest = current.strip().partition(":")
            if name not in ("", "/", "*"):  # pybind11 3 marks positional-only parameters with /
                params.append((name.strip(), rest.split(" = ")[0].strip(), " = " not in rest))
            current = ""
            continue
        depth += ch in "[(<{"
        depth -= ch in "])>}"
        current += ch
    return params


def api():
    """(label, function, class name or None) for every public function and method of meeple._meeple."""
    for name in sorted(dir(_meeple)):
        obj = getattr(_meeple, name)
        if name.startswith("_") or (isinstance(obj, type) and issubclass(obj, BaseException)):
            continue
        if isinstance(obj, type):
            for method, member in vars(obj).items():
                # __eq__ answers NotImplemented to other types, as Python expects
                private = method.startswith("_") and not method.endswith("__")  # pybind11's own
                if type(member).__name__ in ("instancemethod", "staticmethod") and method != "__eq__" and not private:
                    yield f"{name}.{method}", member.__func__, name
        elif callable(obj):
            yield name, obj, None


def valid(type_name, samples):
    """A value of the type as pybind11 2 or 3 spells it."""
    t = type_name.replace("meeple._meeple.", "").replace("typing.SupportsInt | typing.SupportsIndex", "int")
    t = t.replace("typing.SupportsFloat | typing.SupportsIndex", "float").replace("collections.abc.Sequence[", "List[")
    t = t.replace("tuple[", "Tuple[")
    t = f"Optional[{t[:-7]}]" if t.endswith(" | None") else t
    if t in samples:
        return samples[t]
    return {"int": 1, "float": 0.5, "str": "random", "bool": False, "bytes": b"", "dict": {}, "List[str]": [],
            "List[int]": [1, 2], "Optional[int]": None, "Optional[str]": None, "List[Tuple[List[str], int]]": [], "object": None}[t]


def given(name, type_name, samples):
    """The value a parameter gets while another is tried with wrong ones: the sample of its name, else of its type."""
    return samples[name] if name in samples else valid(type_name, samples)


WRONG = [None, "text", 1.5, [1, "a"], {"a": 1}, (), meeple.Rules(), meeple.Action.pass_(), object(), -1, 2**70, b"\xff"]
PYBIND_DUMPS = ("incompatible function arguments", "incompatible constructor arguments", "Invoked with", "Unable to cast")


def call(label, function, cls, args, kwargs, samples):
    if cls is not None and parameters(function)[:1] and parameters(function)[0][0] == "self":
        target = getattr(_meeple, cls)
        fresh = label.endswith(("__init__", "__setstate__"))
        args = [target.__new__(target) if fresh else samples[cls], *args]
    return function(*args, **kwargs)


def test_every_function_names_the_argument_of_the_wrong_type():
    samples, checked = sample_values(), 0
    for label, function, cls in api():
        params = [(n, t) for n, t, _ in parameters(function) if n != "self"]
        required = [n for n, _, r in parameters(function) if n != "self" and r]
        for i, (name, type_name) in enumerate(params):
            for wrong in WRONG:
                args = [wrong if j == i else given(n, t, samples) for j, (n, t) in enumerate(params)]
                try:
                    call(label, function, cls, args, {}, samples)
                    continue
                except (TypeError, ValueError, meeple.RulesError) as e:
                    error, message = e, str(e)
                except Exception as e:  # noqa: BLE001 - any other kind is the failure
                    pytest.fail(f"{label}({name}={wrong!r}) raised {type(e).__name__}: {e}")
                assert not any(d in message for d in PYBIND_DUMPS), (label, name, wrong, message)
                if isinstance(error, TypeError):
                    assert name in message, (label, name, wrong, message)
                checked += 1
        # Missing, surplus and unknown arguments are named too.
        if required:
            with pytest.raises(TypeError, match=f"missing argument '{required[0]}'"):
                call(label, function, cls, [], {}, samples)
        with pytest.raises(TypeError, match=rf"takes {len(params)} arguments? \(.*\), got {len(params) + 2}$"):
            call(label, function, cls, [given(n, t, samples) for n, t in params] + [1, 2], {}, samples)
        with pytest.raises(TypeError, match="has no argument 'bogus'"):
            call(label, function, cls, [given(n, t, samples) for n, t in params], {"bogus": 1}, samples)
    assert checked > 500


def test_methods_keep_their_signatures_and_python_subclasses_work():
    assert meeple.State.apply.__doc__.startswith("apply(self: meeple._meeple.State, action: meeple._meeple.Action)")
    assert meeple.replay.__name__ == "replay"

    class Mine(meeple.Player):
        def __init__(self):
            super().__init__()

        def choose(self, state):
            return state.legal_actions()[-1]

    state = sample_values()["State"]
    assert meeple.Player.choose(Mine(), state) == state.legal_actions()[-1]
    assert pickle.loads(pickle.dumps(meeple.Rules(players=3))) == meeple.Rules(players=3)


@pytest.mark.parametrize("returned", [5, None, "place", [1], 1.5, meeple.Rules(), object()])
def test_a_python_bot_returning_the_wrong_type_is_named(returned):
    class Wrong(meeple.Player):
        def choose(self, state):
            return returned

        def name(self):
            return "mybot"

    state = sample_values()["State"]
    kind = type(returned).__name__ if returned is not None else "None"
    with pytest.raises(TypeError, match=rf"^Player 'mybot'\.choose returned {kind}.*, expected meeple\.Action$"):
        meeple.Player.choose(Wrong(), state)
    # Called from Python directly, the value reaches RecordBuilder.add, which names it.
    with pytest.raises(TypeError, match=rf"^RecordBuilder\.add\(\): argument 'action' must be meeple\.Action, got {kind}"):
        meeple.RecordBuilder(state.rules).add(meeple.State(state.rules), Wrong().choose(state))


def test_a_python_bot_with_a_bad_name_or_no_choose_is_named():
    class BadName(meeple.Player):
        def choose(self, state):
            return 5

        def name(self):
            return 42

    class NoChoose(meeple.Player):
        pass

    state = sample_values()["State"]
    with pytest.raises(TypeError, match=r"^Player 'BadName'\.choose returned int 5"):
        meeple.Player.choose(BadName(), state)
    with pytest.raises(TypeError, match="BadName.name returned int 42, expected str"):
        meeple.Player.name(BadName())
    with pytest.raises(TypeError, match="NoChoose does not define choose"):
        meeple.Player.choose(NoChoose(), state)


def record_text():
    steps, final = random_game(2, ["river2"], seed=8)
    builder = meeple.RecordBuilder(final.rules)
    for state, action in steps[:30]:
        builder.add(state, action)
    return builder.finish(steps[30][0]).encode()


def test_records_that_are_not_utf8_name_the_offset():
    text, rng = record_text(), random.Random(1)
    bad_sequences = [b"\xff", b"\xfe", b"\xc0\xaf", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xc3"]
    for _ in range(300):
        at = rng.randrange(len(text) + 1)
        data = text[:at] + rng.choice(bad_sequences) + text[at:]
        first_bad = None
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            first_bad = e.start
        with pytest.raises(ValueError, match=rf"^record: not valid UTF-8: byte 0x{data[first_bad]:02x} at offset {first_bad} "):
            meeple.replay(data)
    assert meeple.replay(text) == meeple.replay(text.decode())
    # Text read with errors="surrogateescape" holds lone surrogates where the bytes were not UTF-8.
    for _ in range(100):
        at = rng.randrange(len(text) + 1)
        escaped = (text[:at] + b"\xff" + text[at:]).decode("utf-8", "surrogateescape")
        with pytest.raises(ValueError, match=rf"^record: not valid UTF-8: character U\+DCFF at offset {escaped.index(chr(0xDCFF))} "):
            meeple.replay(escaped)
    with pytest.raises(TypeError, match="record must be str or bytes, got int 5"):
        meeple.replay(5)


def test_messages_quoting_bytes_that_are_not_utf8_are_still_errors_of_their_kind():
    rng = random.Random(2)
    calls = [meeple.Rules.parse, lambda b: meeple.make_player(b, 1), meeple.make_evaluator, meeple.tile_geometry,
             meeple.PolicyNet.load, lambda b: meeple.Rules().option(b), meeple.Action.draw]
    for _ in range(200):
        junk = bytes(rng.randrange(128, 256) for _ in range(rng.randrange(1, 6)))
        call_ = rng.choice(calls)
        with pytest.raises(ValueError) as e:
            call_(b"x" + junk)
        str(e.value).encode("utf-8")  # valid text: bad bytes shown as U+FFFD


def test_action_json_is_exported():
    assert meeple.action_json is _meeple.action_json and "action_json" in meeple.__all__
    state = sample_values()["State"]
    assert isinstance(meeple.action_json(state, state.legal_actions()[0]), dict)


# ---- 9. Pickles ----

def pickled_states():
    steps, final = random_game(3, ALL, seed=9)
    return [meeple.State(meeple.Rules()), steps[40][0], steps[len(steps) // 2][0], final,
            random_game(2, [], seed=4)[0][101][0]]


def load(blob):
    state = meeple.State.__new__(meeple.State)
    state.__setstate__(bytes(blob))
    return state


def test_every_single_byte_flip_of_a_pickle_is_refused():
    for state in pickled_states():
        blob = state.__getstate__()
        assert load(blob) == state and pickle.loads(pickle.dumps(state)) == state
        for at in range(len(blob)):
            for flip in (0x01, 0xFF):
                changed = bytearray(blob)
                changed[at] ^= flip
                with pytest.raises(ValueError, match="corrupted State pickle: its checksum|not a pickled meeple State"):
                    load(changed)


def test_random_corruptions_of_a_pickle_are_refused():
    rng = random.Random(5)
    for state in pickled_states():
        blob = state.__getstate__()
        body = blob.index(b":", blob.index(b":", blob.index(b":") + 1) + 1) + 1
        for _ in range(400):
            changed = bytearray(blob)
            for _ in range(rng.randrange(2, 9)):
                at = rng.randrange(body, len(blob)) if rng.random() < 0.9 else rng.randrange(len(blob))
                changed[at] = rng.randrange(256)
            if changed == blob:
                continue
            with pytest.raises(ValueError, match="its checksum says .*but the CRC-32 of its bytes is|not a pickled meeple State"):
                load(changed)


def test_pickles_of_the_older_format_are_refused():
    blob = pickled_states()[1].__getstate__()
    tag, size, crc, rest = blob.split(b":", 3)
    assert tag == b"meeple-state/4" and int(crc, 16) == zlib.crc32(rest)
    with pytest.raises(ValueError, match="not a pickled meeple State of this build"):
        load(b"meeple-state/3:" + size + b":" + rest)
