"""Issue 15 through HTTP and the service, as a player and the Dealer: a narration bid can never
freeze a conflict (R16), the Call waits for settled hands unless the Dealer calls now (R13), and
a recovery's stud follows its points in the service, not only in the form (R22)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from characters.models import Character
from characters.services import chips_change, chips_grant
from conflicts.models import Conflict, Event
from conflicts.rulings import RULINGS
from conflicts.services import ConflictError, HandSpec, conflict_create, pid_of
from tables.rulings import BY_ID
from tests.conflicts.test_views import Table, arrange, cards, dealt, posse, quick_odds

__all__ = ["posse", "quick_odds"]  # fixtures
pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client: Client, posse: Conflict) -> Table:
    return Table(client, posse)


def at_the_bids(table: Table, dealer: User, pc_a: Any, pc_b: Any) -> None:
    """Abe (3 chips) and Bess beaten by the stud; Bess holds the narration with the A♠."""
    dealt(table, dealer, pc_a, pc_b)
    arrange(
        table.conflict,
        {
            pid_of(pc_a): cards("2♣ 3♠ 4♦ 6♥ 7♣ 8♦ 9♣ J♥"),
            pid_of(pc_b): cards("A♠ 2♦ 3♣ 8♣ 10♦ Q♥"),
            "stud": cards("K♥ K♦ K♠ Q♠ Q♦"),
        },
    )
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    assert table.state().narrator == pid_of(pc_b)


def lines(table: Table) -> list[str]:
    return list(Event.objects.filter(conflict=table.conflict).values_list("text", flat=True))


def test_it_refuses_a_bid_above_the_players_chips_and_changes_nothing_R16(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    at_the_bids(table, dealer, pc_a, pc_b)
    before = table.version
    response = table.post(player_a, "bid", pid=pid_of(pc_a), amount=50, htmx=True)
    assert "Abe Slade holds 3 chips: a bid of 50 cannot be paid." in response.content.decode()
    assert table.version == before
    assert table.state().bids == ()
    # The form itself says how far a bid can go.
    assert 'name="amount" min="1" value="1" max="3"' in table.page(player_a)


def test_it_lets_a_player_withdraw_a_bid_until_the_bids_close_R16(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    at_the_bids(table, dealer, pc_a, pc_b)
    table.ok(player_a, "bid", pid=pid_of(pc_a), amount=3)
    assert "Withdraw Abe Slade&rsquo;s bid" in table.page(player_a)
    table.ok(player_a, "withdraw-bid", pid=pid_of(pc_a))
    assert table.state().bids == ()
    assert "Abe Slade withdraws their bid." in lines(table)
    table.ok(dealer, "close-bids")
    response = table.post(player_a, "withdraw-bid", pid=pid_of(pc_a), htmx=True)
    assert "bids can no longer be withdrawn" in response.content.decode()


def test_it_closes_the_bids_when_a_bidder_spent_the_chips_meanwhile_R16(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    """The freeze the issue reports: a bid made with 3 chips, the chips spent on the sheet
    before the close. The Dealer can still close the bids and finish; nothing is overdrawn."""
    at_the_bids(table, dealer, pc_a, pc_b)
    table.ok(player_a, "bid", pid=pid_of(pc_a), amount=3)
    chips_change(character_id=pc_a.pk, amount=-3, reason="extra_card")  # spent elsewhere
    table.ok(dealer, "close-bids")
    state = table.state()
    assert state.narrator == pid_of(pc_b)  # the high card narrates
    assert "Abe Slade can no longer pay 3 chip(s): that bid lapses." in lines(table)
    for owed in state.owed:
        from conflicts.engine.conflict import default_allocation

        allocation = default_allocation(owed, state.participant(owed.pid).currents)
        who = player_a if owed.pid == pid_of(pc_a) else None
        table.ok(who or _player_of(owed.pid, pc_b), "allocate", pid=owed.pid, **allocation)
    table.ok(dealer, "finish")
    assert Conflict.objects.get(pk=table.conflict.pk).phase == "done"
    assert Character.objects.get(pk=pc_a.pk).chips == 0


def _player_of(pid: str, pc_b: Any) -> User:
    return Character.objects.get(pk=int(pid[1:])).player


def test_it_refuses_a_holders_answer_above_their_chips_R16(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    at_the_bids(table, dealer, pc_a, pc_b)
    table.ok(player_a, "bid", pid=pid_of(pc_a), amount=2)
    Character.objects.filter(pk=pc_b.pk).update(chips=1)
    response = table.post(player_b, "bid", pid=pid_of(pc_b), amount=2, htmx=True)
    assert "Bess Doyle holds 1 chip: a bid of 2 cannot be paid." in response.content.decode()
    assert table.state().answer == 0


def test_it_waits_for_every_hand_before_a_plain_call_R13(
    table: Table, dealer: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    table.ok(player_b, "draw", pid=pid_of(pc_b), stand="1")  # Bess stands: settled
    html = table.page(dealer)
    assert "Waiting for Abe Slade to draw" in html
    assert "Call now" in html
    assert "Abe Slade has not drawn yet" in html
    before = table.version
    response = table.post(dealer, "call", htmx=True)
    assert "Not every hand is settled: Abe Slade has not drawn yet." in response.content.decode()
    assert table.version == before
    table.ok(dealer, "call", now="on")
    assert table.state().phase == "laying"
    assert "Abe Slade had not drawn: stands pat (R13)." in lines(table)
    assert "Bess Doyle had not drawn" not in " ".join(lines(table))


def test_it_calls_plainly_once_every_hand_is_settled_R13(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    table.ok(player_a, "draw", pid=pid_of(pc_a), stand="1")
    table.ok(player_b, "draw", pid=pid_of(pc_b), stand="1")
    assert "Call now" not in table.page(dealer)
    table.ok(dealer, "call")
    assert "The Dealer calls. Choose your lays." in lines(table)


def test_it_refuses_a_call_now_from_a_player_R13(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    before = table.version
    response = table.post(player_a, "call", now="on")
    assert response.status_code == 403
    assert table.version == before


@pytest.mark.parametrize(("points", "wrong"), [(2, 5), (3, 3), (5, 5)])
def test_the_service_refuses_a_recovery_against_the_wrong_stud_R22(
    campaign: Any, dealer: User, pc_a: Any, points: int, wrong: int
) -> None:
    Character.objects.filter(pk=pc_a.pk).update(hand_current=1, eye_current=1)
    pc_a.refresh_from_db()
    with pytest.raises(ConflictError, match="R22"):
        conflict_create(
            campaign=campaign, actor=dealer, title="Stitches",
            hands=[HandSpec(character=pc_a), HandSpec(stud_size=wrong)],
            recovery=(pc_a, points),
        )  # fmt: skip
    assert not Conflict.objects.exists()


def test_a_crafted_recovery_post_gets_the_stud_its_points_call_for_R22(
    client_as: Any, campaign: Any, dealer: User, pc_a: Any
) -> None:
    """The form's stud choice is overridden for a recovery: 2 points is a 3-card stud,
    whatever size the POST asks for."""
    Character.objects.filter(pk=pc_a.pk).update(hand_current=1, eye_current=1)
    url = f"/c/{campaign.slug}/conflicts/new/"
    data = {"title": "Doc's needle", "stakes": 0, "stud": 7, f"side_{pc_a.pk}": "players",
            "recovery_character": pc_a.pk, "recovery_points": 2}  # fmt: skip
    client_as(dealer).post(url, data)
    from conflicts.engine.serial import state_from_data

    state = state_from_data(Conflict.objects.get().state)
    assert state.participant("stud").stud_size == 3


def test_a_player_cannot_bid_chips_another_player_holds_R16(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    """The chips checked are the bidder's own, read by the server, never sent by the form."""
    at_the_bids(table, dealer, pc_a, pc_b)
    chips_grant(character_id=pc_b.pk, amount=20, actor=None)
    response = table.post(player_a, "bid", pid=pid_of(pc_a), amount=10, held=99, htmx=True)
    assert "holds 3 chips" in response.content.decode()


def test_the_rulings_page_shows_the_readings_made_of_unclear_text(client: Client) -> None:
    """Issue 15: the table sees why (R3 five of a kind, R6 high cards card by card, R14
    Difficulty inside the winning side; issue 30: R13, the odds meter's opponents; issue 26:
    R32, a conflict that turns into a gunfight; issue 28: R10, campaign files), and the new
    wording of R13, R16 and R22."""
    html = client.get("/rulings/").content.decode()
    # R26's Guts dice, R33's ended fight (issue 27), R10's campaign files (issue 28), R35 and
    # R36 (issue 36); then the readings of the games registered later (issue 31)
    games = sum(1 for r in BY_ID.values() if r.reading and r not in RULINGS)
    assert html.count("Our reading.") == 10 + games
    for expected in (
        "so does the app",  # R3
        "compares them card by card",  # R6
        "even on the winning side",  # R14
        "every other hand still in play",  # R13: the odds meter
        "the fight settles it",  # R32
        "no file can choose a card",  # R10: campaign files
        "call now",  # R13
        "withdraw it until the Dealer closes the bids",  # R16
        "no other size is accepted",  # R22
    ):
        assert expected in html, expected
    assert '<a href="#R16">R16 Narration bids</a>' in html


def test_the_readings_show_where_the_choice_is_made(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    """At the lay choice (R6, R3) and at the Difficulty (R14); ruling links open a new tab so
    a live table is never left."""
    at_the_bids(table, dealer, pc_a, pc_b)
    html = table.page(player_a)
    assert "even on the winning side" in html
    assert 'href="/rulings/#R14" target="_blank" rel="noopener"' in html


def test_the_lay_choice_names_the_readings_R6_R3(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    table.ok(dealer, "call", now="on")
    html = table.page(player_a)
    assert "two high-card hands compare card by card" in html
    assert "five of a kind (with jokers) beats every other hand" in html


# --- R17: the last stand is the last -------------------------------------------------------


def last_stand(table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any) -> None:
    """Abe, Guts at 0, is dealt on Guts + Hand: this conflict is his last. Played to the end."""
    Character.objects.filter(pk=pc_a.pk).update(guts_current=0)
    table.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["guts", "hand"], devil=0)
    table.ok(dealer, "approve", pid=pid_of(pc_b), attributes=["hand", "eye"], devil=0)
    table.ok(dealer, "deal")
    arrange(
        table.conflict,
        {
            pid_of(pc_a): cards("2♣ 3♠ 4♦ 6♥ 7♣ 8♦"),
            pid_of(pc_b): cards("A♠ 2♦ 3♣ 8♣ 10♦ Q♥ 4♠"),
            "stud": cards("K♥ K♦ K♠ Q♠ Q♦"),
        },
    )
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    from conflicts.engine.conflict import default_allocation

    state = table.state()
    for owed in state.owed:
        who = player_a if owed.pid == pid_of(pc_a) else Character.objects.get(pk=pc_b.pk).player
        allocation = default_allocation(owed, state.participant(owed.pid).currents)
        table.ok(who, "allocate", pid=owed.pid, **allocation)
    table.ok(dealer, "finish")


def test_a_last_stand_takes_the_character_out_of_play_at_once_R17(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    last_stand(table, dealer, player_a, pc_a, pc_b)
    abe = Character.objects.get(pk=pc_a.pk)
    assert abe.out_of_play
    assert abe.left_play_at is not None
    assert abe.awaiting_epitaph
    assert not Character.objects.get(pk=pc_b.pk).out_of_play
    assert any("Abe Slade leaves play" in line for line in lines(table))
    # The finished conflict asks Abe's player for the end; Bess's player is not asked.
    assert "Abe Slade</strong>&rsquo;s last stand" in table.page(player_a)
    assert "last stand: " not in table.page(Character.objects.get(pk=pc_b.pk).player)


def test_the_campaign_page_shows_who_left_play_and_asks_for_the_end_R17(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    last_stand(table, dealer, player_a, pc_a, pc_b)
    url = f"/c/{table.conflict.campaign.slug}/"
    leave = f"/c/{table.conflict.campaign.slug}/characters/{pc_a.pk}/leave-play/"
    html = table.page(player_a, url)
    assert "Out of play: the end is still to be written" in html
    assert f'href="{leave}"' in html
    assert f'href="{leave}"' not in table.page(player_b, url)
    # The end is written once, through the leave-play form, and recorded.
    client = table.as_user(player_a)
    client.post(leave, {"fate": "dies", "epitaph": "He drew on the wrong man."})
    abe = Character.objects.get(pk=pc_a.pk)
    assert (abe.fate, abe.epitaph) == ("dies", "He drew on the wrong man.")
    assert not abe.awaiting_epitaph
    client.post(leave, {"fate": "retires", "epitaph": "Changed my mind."})
    assert Character.objects.get(pk=pc_a.pk).epitaph == "He drew on the wrong man."


def test_a_character_out_of_play_is_never_seated_again_R17(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    last_stand(table, dealer, player_a, pc_a, pc_b)
    slug = table.conflict.campaign.slug
    client = table.as_user(dealer)
    form = client.get(f"/c/{slug}/conflicts/new/").content.decode()
    assert f'name="take_{pc_a.pk}"' not in form
    assert f'name="take_{pc_b.pk}"' in form
    before = Conflict.objects.count()
    crafted = {"title": "Once more", "stakes": 0, "stud": 5, f"take_{pc_a.pk}": "on",
               f"side_{pc_a.pk}": "players", f"take_{pc_b.pk}": "on",
               f"side_{pc_b.pk}": "players"}  # fmt: skip
    client.post(f"/c/{slug}/conflicts/new/", crafted)
    if Conflict.objects.count() > before:  # Bess alone may be seated; Abe never is
        fresh = Conflict.objects.latest("pk")
        assert pid_of(pc_a) not in {s.pid for s in fresh.seats.all()}
    with pytest.raises(ConflictError, match="Abe Slade has left play"):
        conflict_create(
            campaign=table.conflict.campaign, actor=dealer, title="Crafted",
            hands=[HandSpec(character=Character.objects.get(pk=pc_a.pk)), HandSpec(stud_size=3)],
        )  # fmt: skip


def test_deal_again_leaves_out_who_left_play_and_says_so_R17_R20(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    last_stand(table, dealer, player_a, pc_a, pc_b)
    table.as_user(dealer).post(f"{table.url}again/")
    fresh = Conflict.objects.get(previous=table.conflict)
    assert pid_of(pc_a) not in {s.pid for s in fresh.seats.all()}
    assert pid_of(pc_b) in {s.pid for s in fresh.seats.all()}
    assert fresh.events.filter(text="Abe Slade has left play (R17) and is not dealt in.").exists()


# --- R19a: current values at the Deal, no silent loss --------------------------------------


def test_the_deal_reads_the_values_as_they_are_at_the_deal_R19a(
    table: Table, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    """Set up while Abe had Hand 4; before the Deal he took 2 Hand elsewhere: dealt from 2."""
    table.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["hand", "eye"], devil=0)
    table.ok(dealer, "approve", pid=pid_of(pc_b), attributes=["hand", "eye"], devil=0)
    Character.objects.filter(pk=pc_a.pk).update(hand_current=2)
    table.ok(dealer, "deal")
    state = table.state()
    assert len(state.participant(pid_of(pc_a)).hand) == 2 + 3
    assert len(state.participant(pid_of(pc_b)).hand) == 4 + 3
    assert "Abe Slade is dealt as they are now: Hand 2 (was 4) (R19a)." in lines(table)


def test_the_deal_reads_the_sessions_devil_rating_set_after_the_set_up_R21_R19a(
    campaign: Any, client: Client, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    from campaigns.models import DevilRating, GameSession

    session = GameSession.objects.create(campaign=campaign, number=1, status="open")
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="Later", session=session,
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
    )  # fmt: skip
    table = Table(client, conflict)
    DevilRating.objects.create(session=session, character=pc_a, rating=3)  # after the set-up
    table.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["hand", "eye"], devil=1)
    table.ok(dealer, "approve", pid=pid_of(pc_b), attributes=["hand", "eye"], devil=0)
    table.ok(dealer, "deal")
    assert len(table.state().participant(pid_of(pc_a)).hand) == 4 + 3 + 3  # Devil for: +3


def test_a_point_lost_between_placing_and_finishing_is_said_R19a(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    """Difficulty placed, then the character's values fell elsewhere before the finish: the
    point that no longer fits is written to the timeline, not clamped away in silence."""
    at_the_bids(table, dealer, pc_a, pc_b)
    table.ok(dealer, "close-bids")
    from conflicts.engine.conflict import default_allocation

    state = table.state()
    placed = {}
    for owed in state.owed:
        who = player_a if owed.pid == pid_of(pc_a) else player_b
        placed[owed.pid] = default_allocation(owed, state.participant(owed.pid).currents)
        table.ok(who, "allocate", pid=owed.pid, **placed[owed.pid])
    attribute, points = next(iter(placed[pid_of(pc_a)].items()))
    Character.objects.filter(pk=pc_a.pk).update(**{f"{attribute}_current": 0})
    table.ok(dealer, "finish")
    expected = (
        f"Abe Slade: {points} point{'s' if points != 1 else ''} of Difficulty on "
        f"{attribute.title()} could not be placed: {attribute.title()} is already 0 (R9)."
    )
    assert expected in lines(table)


def test_pages_that_show_a_private_hand_are_never_cached(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    """Issue 19 #4: a hand's page, its move answers and its advice say no-store."""
    dealt(table, dealer, pc_a, pc_b)
    client = table.as_user(player_a)
    page = client.get(table.url)
    form = {"version": table.version, "pid": pid_of(pc_a), "stand": "1"}
    answer = client.post(table.move_url("draw"), form, headers={"HX-Request": "true"})
    for response in (page, answer):
        assert "no-store" in response["Cache-Control"]
        assert "private" in response["Cache-Control"]
