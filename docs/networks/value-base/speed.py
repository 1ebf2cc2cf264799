"""Simulations per second of mcts bot specs (argv) on one thread: six positions each at tiles 10 and 40 of
random 2-player base games (or of the rules given first as --rules=TEXT), 3,000 simulations a search (give
iterations=3000,reuse=0 in the spec)."""
import time, random, sys
import meeple
rules = meeple.Rules(players=2)
if sys.argv[1].startswith("--rules="):
    rules = meeple.Rules.parse(sys.argv.pop(1)[len("--rules="):])
def positions(seed, tiles):
    s, d, r = meeple.State(rules), meeple.Dealer(seed), random.Random(seed)
    placed = 0
    while True:
        if s.is_chance:
            s.apply(d.deal(s)); placed += 1
            if placed >= tiles and not s.is_chance and not s.is_terminal: return s
        else:
            s.apply(r.choice(s.legal_actions()))
specs = sys.argv[1:]
for tiles in (10, 40):
    ps = [positions(seed, tiles) for seed in range(1, 7)]
    for spec in specs:
        bot = meeple.make_player(spec, 1)
        bot.choose(ps[0])
        t = time.perf_counter()
        for p in ps: bot.choose(p)
        dt = time.perf_counter() - t
        print(f"tile {tiles}: {spec:60s} {6*3000/dt/1000:6.1f}k simulations/s", flush=True)
