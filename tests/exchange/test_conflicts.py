"""Issue 18: the export carries conflicts (engine state, seats, timeline, replay states, "Deal
again") and each session's log, and import and restore put them back; bad conflict data is
refused with its place in the file, nothing written. Only the Dealer downloads the file. Issue 28:
a running conflict's file holds none of its hidden cards, and comes back dealt again
(tests/exchange/test_secrets.py)."""

from __future__ import annotations

import copy
import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign, GameSession, Membership, SessionEvent
from conflicts.models import Conflict, Event, Seat, Snapshot
from conflicts.selectors.replay import replay_snapshots
from conflicts.services import conflict_create, conflict_deal_again, pid_of
from conflicts.services.setup import HandSpec
from exchange.api import (
    ImportRefused,
    campaign_export,
    campaign_file_dump,
    campaign_file_parse,
    campaign_import,
    campaign_restore,
)
from tests.conflicts.test_replay import _play_to_the_end
from tests.conflicts.test_views import Table, dealt, posse, quick_odds
from tests.conftest import depth
from tests.exchange.conftest import model_counts
from tests.made_once import (
    Rows,
    campaign,
    dealer,
    fetch,
    npc,
    outsider,
    pc_a,
    pc_b,
    player_a,
    player_b,
    rows_once,
)

pytestmark = pytest.mark.django_db
# The cast, Dry Gulch and its evening are made once for the module (tests/made_once.py).
__all__ = [
    "campaign", "dealer", "npc", "outsider", "pc_a", "pc_b", "player_a", "player_b",
    "quick_odds", "rows_once",
]  # fmt: skip

Data = dict[str, Any]
REDEALT = "Restored from a campaign file in the middle of the hand."


def without_redeals(data: Data) -> Data:
    """``data`` as it was before an import dealt its running conflicts again (issue 28): the
    restore's timeline line taken out, the version it added taken back."""
    data = copy.deepcopy(data)
    for conflict in data["conflicts"]:
        lines = [line for line in conflict["timeline"] if not line["text"].startswith(REDEALT)]
        conflict["version"] -= len(conflict["timeline"]) - len(lines)
        conflict["timeline"] = lines
    return data


def counts() -> dict[str, int]:
    """Every row of the campaigns, characters and users (``model_counts``), and of conflicts."""
    return {
        **model_counts(),
        **{m.__name__: m.objects.count() for m in (Conflict, Seat, Event, Snapshot)},
    }


def evening(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any, npc: Any
) -> Campaign:
    """Dry Gulch after an evening: a session with its log, a finished conflict (and its "Deal
    again", being set up), and a second conflict in the Draw."""
    campaign = table.conflict.campaign
    session = GameSession.objects.create(
        campaign=campaign, number=1, status=GameSession.Status.ENDED,
        started_at=dt.datetime(2026, 11, 20, 19, 0, tzinfo=dt.UTC),
    )  # fmt: skip
    SessionEvent.objects.create(
        session=session, actor=dealer, text="The Dealer starts the session.",
        at=dt.datetime(2026, 11, 20, 19, 0, tzinfo=dt.UTC),
    )  # fmt: skip
    SessionEvent.objects.create(
        session=session, text="Recovery: 3 points back.",
        at=dt.datetime(2026, 11, 20, 23, 0, tzinfo=dt.UTC),
    )  # fmt: skip
    Conflict.objects.filter(pk=table.conflict.pk).update(session=session)
    _play_to_the_end(table, dealer, player_a, player_b, pc_a, pc_b)
    dealer_seat = Membership.objects.get(campaign=campaign, user=dealer)
    conflict_deal_again(conflict_id=table.conflict.pk, membership=dealer_seat)

    second = conflict_create(
        campaign=campaign, actor=dealer, title="Cards at the saloon", session=session,
        hands=[HandSpec(character=pc_a, goal="Win the deed"), HandSpec(character=npc)],
    )  # fmt: skip
    dealt(Table(table.client, second), dealer, pc_a, npc)
    return campaign


@pytest.fixture(scope="module")
def at_table_once(rows_once: Rows, django_db_blocker: Any) -> int:
    """The evening played once for the module (tests/made_once.py), through the views as at the
    table (the posse and the quick odds of tests/conflicts/test_views.py): the tests read it,
    and what one writes (an import, a restore) is rolled back at its end."""
    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        quick_odds.__wrapped__(patch)
        cast = fetch(rows_once)
        conflict = posse.__wrapped__(cast["campaign"], cast["dealer"], cast["pc_a"], cast["pc_b"])
        names = ("dealer", "player_a", "player_b", "pc_a", "pc_b", "npc")
        return evening(Table(Client(), conflict), *(cast[name] for name in names)).pk


@pytest.fixture
def at_table(at_table_once: int, db: None) -> Campaign:
    return Campaign.objects.get(pk=at_table_once)


def test_the_export_carries_each_conflict_and_the_session_log(
    at_table: Campaign, pc_a: Any
) -> None:
    data = campaign_export(at_table)
    assert data["version"] == 3
    conflicts = data["conflicts"]
    assert [(c["title"], c["phase"], c["previous"]) for c in conflicts] == [
        ("The posse at the canyon", "done", None),
        ("The posse at the canyon — hand 2", "sizing", 0),
        ("Cards at the saloon", "draw", None),
    ]
    done = conflicts[0]
    assert done["session"] == 1
    assert done["state"] == Conflict.objects.get(title="The posse at the canyon").state
    key = next(c["key"] for c in data["characters"] if c["name"] == pc_a.name)
    assert done["seats"][0] == {"pid": pid_of(pc_a), "character": key,
                                "goal": "Jump into the river"}  # fmt: skip
    assert [s["character"] for s in done["seats"]][2] is None  # the posse's stud: no character
    assert [line["seq"] for line in done["timeline"]] == list(range(1, len(done["timeline"]) + 1))
    assert done["timeline"][0]["actor"] == "dealer"
    versions = [s["version"] for s in done["snapshots"]]
    assert versions == sorted(set(versions))
    assert versions[0] == 0
    assert len(versions) == Snapshot.objects.filter(conflict__title=done["title"]).count()
    # A running conflict's file says how many cards each hand holds, never which (issue 28).
    saloon = conflicts[2]["state"]
    assert all(p["hand"] and set(p["hand"]) == {"??"} for p in saloon["participants"])
    assert set(saloon["deck"]["stock"]) == {"??"}
    assert (saloon["order"], saloon["salt"]) == ([], "")
    assert data["sessions"][0]["log"] == [
        {"at": "2026-11-20T19:00:00+00:00", "actor": "dealer",
         "text": "The Dealer starts the session."},
        {"at": "2026-11-20T23:00:00+00:00", "actor": None, "text": "Recovery: 3 points back."},
    ]  # fmt: skip


def test_it_round_trips_conflicts_exactly_into_a_database_without_the_campaign(
    at_table: Campaign, dealer: User
) -> None:
    text = campaign_file_dump(campaign_export(at_table))
    at_table.delete()
    assert not Conflict.objects.exists()

    result = campaign_import(campaign_file_parse(text), dealer=dealer, seat_members=True)

    assert result.warnings == ()
    again = campaign_export(result.campaign)
    # The same file, but for the conflict in play: dealt again, and said so (issue 28).
    assert campaign_file_dump(without_redeals(again)) == text
    assert [REDEALT in line["text"] for line in again["conflicts"][2]["timeline"]][-1]


def test_an_import_as_a_new_campaign_brings_the_conflicts_back_beside_the_original(
    at_table: Campaign, dealer: User, client: Client
) -> None:
    data = campaign_export(at_table)

    copy_ = campaign_import(copy.deepcopy(data), dealer=dealer, seat_members=True).campaign

    again = campaign_export(copy_)
    assert without_redeals(again)["conflicts"] == data["conflicts"]
    assert again["sessions"] == data["sessions"]
    fresh = {c.title: c for c in copy_.conflicts.all()}
    old = {c.title: c for c in at_table.conflicts.all()}
    assert set(fresh) == set(old)
    for title, conflict in fresh.items():
        if title == "Cards at the saloon":  # in play: dealt again (tests/exchange/test_secrets.py)
            assert conflict.version == old[title].version + 1
            continue
        assert (conflict.phase, conflict.version, conflict.state) == (
            old[title].phase, old[title].version, old[title].state,
        )  # fmt: skip
        seats = list(conflict.seats.select_related("character"))
        assert all(s.character is None or s.character.campaign_id == copy_.pk for s in seats)
        assert [(s.pid, s.character and s.character.name, s.goal) for s in seats] == [
            (s.pid, s.character and s.character.name, s.goal) for s in old[title].seats.all()
        ]
        assert list(conflict.events.values_list("seq", "version", "text", "created_at")) == list(
            old[title].events.values_list("seq", "version", "text", "created_at")
        )
    hand_2 = fresh["The posse at the canyon — hand 2"]
    assert hand_2.previous == fresh["The posse at the canyon"]
    finished = fresh["The posse at the canyon"]
    assert len(replay_snapshots(finished)) == len(replay_snapshots(old[finished.title])) > 1
    assert finished.session is not None
    assert finished.session.campaign_id == copy_.pk
    # The copy's replay is there for its Dealer.
    client.force_login(dealer)
    assert client.get(f"{finished.get_absolute_url()}replay/").status_code == 200


def test_a_restore_puts_the_conflicts_and_the_log_back(at_table: Campaign, dealer: User) -> None:
    data = campaign_export(at_table)
    at_table.conflicts.all().delete()
    SessionEvent.objects.all().delete()

    campaign_restore(copy.deepcopy(data), campaign=at_table, dealer=dealer)

    assert without_redeals(campaign_export(at_table)) == data
    assert at_table.conflicts.count() == 3


def test_a_restored_finished_conflict_without_its_snapshots_simply_has_no_replay(
    at_table: Campaign, dealer: User
) -> None:
    data = campaign_export(at_table)
    for conflict in data["conflicts"]:
        del conflict["snapshots"]

    campaign_restore(data, campaign=at_table, dealer=dealer)

    finished = at_table.conflicts.get(title="The posse at the canyon")
    assert finished.phase == "done"
    assert replay_snapshots(finished) == []


def test_it_still_reads_a_version_1_file_without_conflicts(
    at_table: Campaign, dealer: User
) -> None:
    data = campaign_export(at_table)
    data["version"] = 1
    del data["conflicts"]
    for session in data["sessions"]:
        del session["log"]

    copy_ = campaign_import(data, dealer=dealer).campaign

    assert not copy_.conflicts.exists()
    assert not SessionEvent.objects.filter(session__campaign=copy_).exists()


def test_a_player_never_downloads_the_file_with_every_hand(
    at_table: Campaign, client: Client, dealer: User, player_a: User, outsider: User
) -> None:
    url = f"/c/{at_table.slug}/export.json"
    client.force_login(player_a)
    assert client.get(url).status_code == 403
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    client.force_login(dealer)
    response = client.get(url)
    assert response.status_code == 200
    assert json.loads(response.content) == campaign_export(at_table)  # every hand, R10 above


# --- Refusals ---------------------------------------------------------------------------------


def _first(data: Data) -> Data:
    first: Data = data["conflicts"][0]  # the finished one
    return first


def _saloon(data: Data) -> Data:
    saloon: Data = data["conflicts"][2]  # in the Draw
    return saloon


def _dup_seq(data: Data) -> None:
    _first(data)["timeline"][1]["seq"] = 1


def _bad_card(data: Data) -> None:
    _first(data)["state"]["participants"][0]["hand"][0] = "ZZ"


def _no_participants(data: Data) -> None:
    del _saloon(data)["state"]["participants"]


def _two_aces(data: Data) -> None:
    hand = _first(data)["state"]["participants"][0]["hand"]
    hand[1] = hand[0]  # a card twice: the deck is not whole


def _huge_in_state(data: Data) -> None:
    _saloon(data)["state"]["stakes"] = 10**12


def _seat_twice(data: Data) -> None:
    seats = _saloon(data)["seats"]
    seats[1]["pid"] = seats[0]["pid"]


def _stray_seat(data: Data) -> None:
    _saloon(data)["seats"][1]["pid"] = "nobody"


_FIRST_KEY = "abe-slade"  # pc_a of tests/conftest.py


def _set(pick: Callable[[Data], Data], key: str, value: Any) -> Callable[[Data], None]:
    def change(data: Data) -> None:
        pick(data)[key] = value

    return change


REFUSALS: dict[str, tuple[Callable[[Data], None], str]] = {
    "unknown character": (
        _set(lambda d: _saloon(d)["seats"][0], "character", "nobody"),
        'conflicts[2].seats[0].character: no character has the key "nobody"',
    ),
    "a character's hand without one": (
        _set(lambda d: _saloon(d)["seats"][0], "character", None),
        'conflicts[2].seats[0].character: the hand "c',
    ),
    "the stud given a character": (
        _set(lambda d: _first(d)["seats"][2], "character", _FIRST_KEY),
        "conflicts[0].seats[2].character: the Dealer's stud hand has no character",
    ),
    "duplicate seq": (_dup_seq, "conflicts[0].timeline[1].seq: line 1 is given twice"),
    "phase not the state's": (
        _set(_saloon, "phase", "done"),
        'conflicts[2].phase: is "done", but the state\'s phase is "draw"',
    ),
    "unknown phase": (
        _set(_saloon, "phase", "poker"),
        "conflicts[2].phase: must be one of",
    ),
    "huge version": (
        _set(_saloon, "version", 10**20),
        "conflicts[2].version: must be 0 to 2,147,483,647, got a number of 21 digits",
    ),
    "huge number in the state": (
        _huge_in_state,
        "conflicts[2].state.stakes: must be at most 2,147,483,647 either way",
    ),
    "state not an object": (
        _set(_saloon, "state", [1, 2]),
        "conflicts[2].state: must be an object {...}, got a list",
    ),
    "a card the engine does not know": (
        _bad_card,
        "conflicts[0].state: is not a conflict state the engine can load",
    ),
    "a state without hands": (
        _no_participants,
        "conflicts[2].state: is not a conflict state the engine can load",
    ),
    "a card twice": (_two_aces, "conflicts[0].state: is not a conflict state the engine can load"),
    "a seat twice": (_seat_twice, "conflicts[2].seats[1].pid: "),
    "a seat for no hand": (_stray_seat, 'conflicts[2].seats[1].pid: "nobody" is not a hand'),
    "previous ahead": (
        _set(_first, "previous", 2),
        "conflicts[0].previous: the first conflict has no previous one",
    ),
    "unknown session": (
        _set(_first, "session", 9),
        "conflicts[0].session: there is no session 9 in sessions",
    ),
    "a snapshot past the version": (
        _set(lambda d: _first(d)["snapshots"][0], "version", 10**6),
        "conflicts[0].snapshots[0].version: must be 0–",
    ),
    "a bad snapshot": (
        _set(lambda d: _first(d)["snapshots"][0], "state", {"format": 9}),
        "conflicts[0].snapshots[0].state: is not a conflict state the engine can load",
    ),
    "a log line without a time": (
        _set(lambda d: d["sessions"][0]["log"][0], "at", None),
        "sessions[0].log[0].at: must be a date and time",
    ),
    "a timeline field unknown": (
        _set(lambda d: _first(d)["timeline"][0], "secret", "x"),
        "conflicts[0].timeline[0].secret: is not part of this format",
    ),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_it_refuses_bad_conflict_data_naming_the_place_and_writes_nothing(
    at_table: Campaign, dealer: User, case: str
) -> None:
    change, expected = REFUSALS[case]
    data = campaign_export(at_table)
    change(data)
    before = counts()

    def as_new() -> object:
        return campaign_import(copy.deepcopy(data), dealer=dealer)

    def restore() -> object:
        return campaign_restore(copy.deepcopy(data), campaign=at_table, dealer=dealer)

    for attempt in (as_new, restore):
        with pytest.raises(ImportRefused) as refused:
            attempt()
        assert any(p.startswith(expected) for p in refused.value.problems), refused.value.problems
    assert counts() == before


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))] or [path]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))] or [path]
    return [path]


JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10), st.integers(), st.text(max_size=30),
    st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.text(max_size=3),
                                                             st.integers(0, 3), max_size=2),
)  # fmt: skip


@settings(
    max_examples=depth(100),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_an_import_with_any_conflict_value_changed_never_fails_other_than_by_refusing(
    at_table: Campaign, dealer: User, data: st.DataObject
) -> None:
    exported = campaign_export(at_table)
    leaves = [p for p in _leaves(exported) if p and p[0] in ("conflicts", "sessions")]
    # A leaf, or any object or list above it (a whole hand, a seat, a timeline...).
    places = sorted({p[:n] for p in leaves for n in range(2, len(p) + 1)}, key=repr)
    path = data.draw(st.sampled_from(places))
    target: Any = exported
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = data.draw(JSON_VALUES)
    problems: tuple[str, ...] = ("none",)
    try:
        campaign_import(exported, dealer=dealer)
    except ImportRefused as refused:
        problems = refused.problems
    assert problems


def test_the_file_writes_each_engine_state_on_one_line(at_table: Campaign) -> None:
    data = campaign_export(at_table)
    text = campaign_file_dump(data)
    assert json.loads(text) == data
    state_lines = [line for line in text.splitlines() if line.lstrip().startswith('"state": {')]
    snapshots = sum(len(c["snapshots"]) for c in data["conflicts"])
    assert len(state_lines) == len(data["conflicts"]) + snapshots
    assert all(line.rstrip().endswith(("},", "}")) for line in state_lines)


def test_a_conflict_in_play_goes_on_after_the_import(
    at_table: Campaign, client: Client, dealer: User, player_a: User, pc_a: Any
) -> None:
    copy_ = campaign_import(campaign_export(at_table), dealer=dealer, seat_members=True).campaign
    saloon = Table(client, copy_.conflicts.get(title="Cards at the saloon"))
    version = saloon.version

    saloon.ok(player_a, "draw", pid=pid_of(pc_a), stand="1")  # her own hand, in the copy

    assert saloon.version == version + 1
    assert saloon.state().participant(pid_of(pc_a)).drew
    assert saloon.conflict.events.last().actor == player_a  # type: ignore[union-attr]


@pytest.mark.slow
def test_a_long_campaigns_own_file_imports_back_whole(at_table: Campaign, dealer: User) -> None:
    """A campaign of a year of evenings — 200 finished conflicts with their replays — exports to a
    file this table imports again (IMPORT_MAX_BYTES), in seconds: nothing of it is lost."""
    import copy
    import time

    from django.conf import settings

    from exchange.api import campaign_file_dump, campaign_file_parse, campaign_import

    data = campaign_export(at_table)
    finished = data["conflicts"][0]
    data["conflicts"] = [copy.deepcopy(finished) | {"title": f"Hand {n}"} for n in range(200)]
    raw = campaign_file_dump(data).encode()
    assert 4 * 1024 * 1024 < len(raw) <= settings.IMPORT_MAX_BYTES
    started = time.monotonic()
    result = campaign_import(campaign_file_parse(raw), dealer=dealer, seat_members=False)
    took = time.monotonic() - started
    # How long it took is printed, not asserted: a timed test fails on a busy machine (the
    # import's speed is the benchmark's business).
    print(f"\nimported {len(raw):,} bytes, 200 conflicts with their replays in {took:.2f} s")
    assert Conflict.objects.filter(campaign=result.campaign).count() == 200
    assert Snapshot.objects.filter(conflict__campaign=result.campaign).count() == 200 * len(
        finished["snapshots"]
    )
