"""Issue 17: a fight round for 12 combatants with all their screens, in one process.

Times are this process's CPU (``time.process_time``: the app and SQLite, in process), which
a busy machine disturbs far less than the wall clock. A fresh SQLite database (a temporary
file, migrated), a campaign with a Dealer and four players,
a fight of 12 combatants (4 player characters, 4 NPCs, 4 lines of extras). Each move goes
through ``fight_move`` (the row locked, the key, the version, the timeline) and is followed by
what the live streams do for it: one shared read of the fight (``streams.load_read``) and each
open screen rendered from it through the choke point (``fight_view`` + the template): the
Dealer's console, the four players' phones and the table view. Beside it, the same for a
conflict move (a player's proposal, one read and its six screens through ``conflict_view``),
the cost a fight move must stay within.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _setup(path: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "dustdevils.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _world() -> dict[str, Any]:
    from django.contrib.auth.models import User

    from campaigns.game_sessions import session_start
    from campaigns.models import Membership
    from campaigns.services import campaign_create
    from characters.models import Character
    from fights.services import ExtrasSpec, fight_create

    dealer = User.objects.create_user("bench-dealer", password="x")
    campaign = campaign_create(dealer=dealer, name="Bench Gulch", setting="")
    players = [User.objects.create_user(f"bench-p{i}", password="x") for i in range(4)]
    for p in players:
        Membership.objects.create(campaign=campaign, user=p, role=Membership.Role.PLAYER)
    pcs = [
        Character.objects.create(campaign=campaign, kind="pc", player=p, name=f"Gun {i}", hand=3)
        for i, p in enumerate(players)
    ]
    npcs = [
        Character.objects.create(campaign=campaign, kind="npc", name=f"Outlaw {i}", hand=3)
        for i in range(4)
    ]
    session = session_start(campaign=campaign, actor=dealer)
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="Bench fight",
        characters=pcs + npcs,
        extras=[ExtrasSpec(f"{n} Pinkertons", n, "2d6") for n in (2, 3, 4, 5)],
        rng=random.Random(1),
    )  # fmt: skip
    members = {m.user_id: m for m in Membership.objects.select_related("campaign", "user")}
    return {
        "fight": fight,
        "dealer": members[dealer.pk],
        "players": [members[p.pk] for p in players],
    }


def _screens(fight_id: int, viewers: list[Any]) -> None:
    """What the live streams do after a move: ONE shared read of the fight, then each screen
    rendered from it through the choke point (the site's live table of the fight game)."""
    from dustdevils.live.tables import Viewer
    from tables.site import site

    live = site.live("fights")
    read = live.load(fight_id)
    assert read is not None
    for membership, as_table in viewers:
        viewer = Viewer(membership.user_id, read.row.campaign.slug, fight_id, as_table, "x")
        assert live.panel(viewer, read) is not None


def _round(world: dict[str, Any], rng: random.Random) -> tuple[int, float]:
    """One whole round, every move by the Dealer's console; the time counted is each move with
    its screens (as for the conflict below), not the bench's own look at whose card is up."""
    from fights.engine import action_deck as engine
    from fights.engine.serial import state_from_data
    from fights.services import fight_move

    fight = world["fight"]
    dealer = world["dealer"]
    viewers = [(dealer, False)] + [(p, False) for p in world["players"]] + [(dealer, True)]
    moves, spent = 0, 0.0

    def move(m: Any) -> None:
        nonlocal moves, spent
        fight.refresh_from_db(fields=["version", "state"])
        started = time.process_time()
        fight_move(fight_id=fight.pk, membership=dealer, move=m, version=fight.version, rng=rng)
        _screens(fight.pk, viewers)
        spent += time.process_time() - started
        moves += 1

    fight.refresh_from_db(fields=["state"])
    for c in state_from_data(fight.state).combatants:
        move(engine.RollQuickness(c.cid))
    move(engine.DealRound())
    while True:
        fight.refresh_from_db(fields=["state"])
        current = engine.up(state_from_data(fight.state))
        if current is None:
            break
        holder = current[0]
        move(engine.Pass(holder.cid) if rng.random() < 0.2 else engine.Act(holder.cid, "shoots"))
    move(engine.EndRound())
    return moves, spent


def _conflict_move_cost(world: dict[str, Any]) -> float:
    """A conflict move with its screens (a player's proposal, then six screens rendered through
    ``conflict_view``), in seconds, median of 15."""
    from django.template.loader import render_to_string

    from characters.models import Character
    from conflicts.engine import conflict as engine
    from conflicts.reads import table_read
    from conflicts.selectors import conflict_view
    from conflicts.services import HandSpec, conflict_create, conflict_move, pid_of

    dealer = world["dealer"]
    pcs = list(Character.objects.filter(kind="pc").order_by("pk"))
    times = []
    for n in range(15):
        conflict = conflict_create(
            campaign=dealer.campaign, actor=dealer.user, title=f"Bench conflict {n}",
            hands=[HandSpec(character=c) for c in pcs] + [HandSpec(stud_size=5)],
        )  # fmt: skip
        player = world["players"][0]
        started = time.process_time()
        conflict_move(
            conflict_id=conflict.pk, membership=player,
            move=engine.Propose(pid_of(pcs[0]), ("hand", "eye")), version=conflict.version,
        )  # fmt: skip
        data = table_read(conflict.pk)  # as the conflict streams: one shared read
        assert data is not None
        for membership, as_table in (
            [(dealer, False)] + [(p, False) for p in world["players"]] + [(dealer, True)]
        ):
            context = conflict_view(data, membership, as_table=as_table)
            template = "conflicts/table.html#main" if as_table else "conflicts/detail.html#main"
            render_to_string(template, context | {"notice": "", "error": ""})
        times.append(time.process_time() - started)
    return statistics.median(times)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        _setup(str(Path(folder) / "bench.sqlite3"))
        world = _world()
        rng = random.Random(17)
        rounds = [_round(world, rng) for _ in range(3)]
        per_move = [seconds / moves for moves, seconds in rounds]
        moves = statistics.median(m for m, _ in rounds)
        whole = statistics.median(s for _, s in rounds)
        fight_move_cost = statistics.median(per_move)
        # The comparison IS the goal (issue 17): if it cannot run, the benchmark fails loudly.
        conflict_cost = _conflict_move_cost(world)
    ok = fight_move_cost <= conflict_cost
    print(
        f"A fight round, 12 combatants, every move with its 6 screens (console, 4 phones, table) "
        f"rendered: {moves:.0f} moves in {whole * 1000:.0f} ms of CPU, "
        f"{fight_move_cost * 1000:.1f} ms a move; a conflict move with its 6 screens: "
        f"{conflict_cost * 1000:.1f} ms  "
        f"[{'ok' if ok else 'MISSED'}: a fight move within a conflict move's cost]"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
