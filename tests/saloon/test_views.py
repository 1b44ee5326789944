"""The saloon's pages and moves through the test client: starting a game from the campaign,
post/redirect/get without JavaScript, htmx answers, permissions (only seated players act, each
on their turn; outsiders 404; anonymous to the login), bad input refused with nothing written,
stale forms and double clicks, and the Markdown story."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Membership
from saloon.engine import game as g
from saloon.models import Saloon, SaloonLine
from tables.errors import NotYours, Refused
from tests.kit import new_game
from tests.saloon.conftest import ACTION, form_of, play, state_of
from tests.saloon.kit import random_move

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def seeded_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """The moves made through the pages shuffle (S2) with a seeded generator, not the OS's:
    a game's course, and so what each test reaches, is the same on every run."""
    rng = random.Random(9)
    monkeypatch.setattr("tables.play.system_rng", lambda: rng)


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def seated(saloon: Saloon, dealer: User, player_a: User, player_b: User) -> dict[str, Client]:
    return {"p1": client_for(dealer), "p2": client_for(player_a), "p3": client_for(player_b)}


@pytest.fixture
def watcher(campaign: Any, django_user_model: type[User]) -> User:
    """A member of the campaign who is not seated at the game."""
    user = django_user_model.objects.create_user(username="watcher", first_name="Wyatt")
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.PLAYER)
    return user


def post(client: Client, saloon: Saloon, move: g.Move, **extra: Any) -> Any:
    data = form_of(move, saloon.version) | extra
    return client.post(saloon.get_absolute_url() + f"move/{ACTION[type(move)]}/", data)


def play_to(saloon: Saloon, seated: dict[str, Client], until: Any, seed: int = 5) -> g.SaloonState:
    """Random legal moves through the pages until ``until(state)``."""
    rng = random.Random(seed)
    for _ in range(600):
        state = state_of(saloon)
        if (until(state) and not state.unwanted) or state.phase == g.Phase.OVER:
            return state
        move = random_move(state, rng)
        response = post(seated[move.pid], saloon, move)
        assert response.status_code == 302
    raise AssertionError("never got there")


# --- Starting ------------------------------------------------------------------------------


def test_it_is_linked_from_the_campaign_page(client_as: Any, player_a: User, campaign: Any) -> None:
    page = client_as(player_a).get(campaign.get_absolute_url()).content.decode()
    assert f"/c/{campaign.slug}/saloon/" in page


def test_a_member_starts_a_game_with_three_members_in_seat_order(
    campaign: Any, dealer: User, player_a: User, player_b: User
) -> None:
    client = client_for(player_a)
    data = {
        "player": [dealer.pk, player_a.pk, player_b.pk],
        f"seat_{dealer.pk}": 3, f"seat_{player_a.pk}": 1, f"seat_{player_b.pk}": 2,
    }  # fmt: skip
    response = client.post(f"/c/{campaign.slug}/saloon/new/", data)
    saloon = Saloon.objects.get()
    assert response.status_code == 302
    assert response["Location"] == saloon.get_absolute_url()
    assert [s.user for s in saloon.seats.all()] == [player_a, player_b, dealer]
    assert state_of(saloon).phase == g.Phase.DISCARD


def test_it_refuses_too_few_players_and_strangers(
    campaign: Any, player_a: User, player_b: User, outsider: User
) -> None:
    client = client_for(player_a)
    page = client.post(f"/c/{campaign.slug}/saloon/new/", {"player": [player_a.pk, player_b.pk]})
    assert "3 to 5 players" in page.content.decode()
    with pytest.raises(Refused, match="member"):
        new_game(
            "saloon", campaign=campaign, actor=player_a, players=[player_a, player_b, outsider]
        )
    assert not Saloon.objects.exists()


def test_the_alternative_rule_lets_players_pick_archetypes(
    campaign: Any, dealer: User, player_a: User, player_b: User
) -> None:
    saloon = new_game(
        "saloon", campaign=campaign, actor=dealer, players=[dealer, player_a, player_b], pick=True
    )
    page = client_for(player_a).get(saloon.get_absolute_url()).content.decode()
    assert "Pick the archetype you wish to play" in page
    assert "Undertaker" in page
    response = post(client_for(player_a), saloon, g.PickArchetype("p2", g.TABLE_ORDER[-1]))
    assert response.status_code == 302
    assert state_of(saloon).player("p2").role == "the Undertaker"


# --- Moves ---------------------------------------------------------------------------------


def test_a_whole_game_plays_through_the_pages_without_javascript(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    state = play_to(saloon, seated, lambda s: False)
    assert state.phase == g.Phase.OVER
    page = seated["p1"].get(saloon.get_absolute_url()).content.decode()
    assert 'data-ending="' in page
    assert saloon.lines.count() > 10


def test_a_move_redirects_with_what_happened(saloon: Saloon, seated: dict[str, Client]) -> None:
    state = state_of(saloon)
    pid = g.whose_move(state)[0]
    response = seated[pid].post(
        saloon.get_absolute_url() + "move/discard/", {"version": saloon.version}, follow=True
    )
    assert "message--success" in response.content.decode()
    assert "discards" in response.content.decode() or "no pair" in response.content.decode()


def test_htmx_gets_the_panel_back_with_the_refusal(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    state = play_to(saloon, seated, lambda s: s.phase == g.Phase.PLAY)
    assert state.turn is not None
    other = next(p.pid for p in state.players if p.pid != state.turn.drawer)
    response = seated[other].post(
        saloon.get_absolute_url() + "move/draw/",
        {"version": saloon.version, "position": 0},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="saloon-main"')
    assert "turn to draw" in body
    assert "message--error" in body
    assert "data-move-error" in body  # the browser moves the reason next to the form
    assert response["HX-Reswap"] == "morph:outerHTML show:none"
    assert json.loads(response["HX-Trigger"]) == {
        "move-answered": {"panel": "saloon-main", "refused": True}
    }


def nothing_written(saloon: Saloon, client: Client, data: dict[str, Any], action: str) -> str:
    before = (state_of(saloon), saloon.version, SaloonLine.objects.count())
    response = client.post(saloon.get_absolute_url() + f"move/{action}/", data, follow=True)
    after = (state_of(saloon), saloon.version, SaloonLine.objects.count())
    assert after == before
    return response.content.decode()


def test_bad_input_is_refused_in_plain_words_and_nothing_is_written(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    state = play_to(saloon, seated, lambda s: s.phase == g.Phase.PLAY)
    assert state.turn is not None
    drawer = state.turn.drawer
    other = next(p.pid for p in state.players if p.pid not in (drawer, state.doomed))
    v = saloon.version
    size = len(state.player(state.doomed).hand)
    # Drawing out of turn.
    page = nothing_written(saloon, seated[other], {"version": v, "position": 0}, "draw")
    assert "turn to draw" in page
    # A card index that is not there.
    page = nothing_written(saloon, seated[drawer], {"version": v, "position": size}, "draw")
    assert "There is no card there" in page
    page = nothing_written(saloon, seated[drawer], {"version": v, "position": "x"}, "draw")
    assert "Pick one of the Doomed" in page
    # A second draw.
    state = play_to(saloon, seated, lambda s: s.turn is not None and s.turn.step != g.Step.DRAW)
    assert state.turn is not None
    if state.phase == g.Phase.PLAY:
        page = nothing_written(
            saloon, seated[state.turn.drawer], {"version": saloon.version, "position": 0}, "draw"
        )
        assert "Waiting for" in page or "turn to" in page


def test_a_follow_up_by_a_player_who_already_asked_is_refused(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    state = play_to(
        saloon,
        seated,
        lambda s: s.turn is not None and s.turn.step == g.Step.FOLLOW_UP,
    )
    assert state.turn is not None
    asker = state.turn.offer
    post(seated[asker], saloon, g.FollowUp(asker, "And then?"))
    state = state_of(saloon)
    assert state.turn is not None
    post(seated[state.turn.answerer], saloon, g.Answer(state.turn.answerer, "Then nothing."))
    saloon.refresh_from_db()
    page = nothing_written(saloon, seated[asker], {"version": saloon.version}, "follow_up")
    assert "already asked your follow-up" in page or "turn to ask" in page or "turn to draw" in page


def test_a_stale_form_is_refused(saloon: Saloon, seated: dict[str, Client]) -> None:
    first, second = g.whose_move(state_of(saloon))[:2]
    old = saloon.version
    seated[first].post(saloon.get_absolute_url() + "move/discard/", {"version": old})
    saloon.refresh_from_db()
    page = nothing_written(saloon, seated[second], {"version": old}, "discard")
    assert "moved on" in page


def test_a_double_click_moves_once(saloon: Saloon, seated: dict[str, Client]) -> None:
    pid = g.whose_move(state_of(saloon))[0]
    data = {"version": saloon.version, "key": "k" * 24}
    seated[pid].post(saloon.get_absolute_url() + "move/discard/", data)
    version = Saloon.objects.get().version
    seated[pid].post(saloon.get_absolute_url() + "move/discard/", data)
    assert Saloon.objects.get().version == version


def test_only_seated_players_act(saloon: Saloon, watcher: User, outsider: User) -> None:
    url = saloon.get_absolute_url() + "move/raise/"
    assert client_for(watcher).post(url, {"version": saloon.version}).status_code == 403
    assert client_for(outsider).post(url, {"version": saloon.version}).status_code == 404
    anonymous = client_for(None).post(url, {"version": saloon.version})
    assert anonymous.status_code == 302
    assert "/accounts/login/" in anonymous["Location"]
    assert state_of(saloon).unwanted == ""
    with pytest.raises(NotYours, match="Only the players"):
        play(saloon, watcher, g.RaiseUnwanted(""))


def test_an_unknown_move_is_404(saloon: Saloon, seated: dict[str, Client]) -> None:
    assert seated["p1"].post(saloon.get_absolute_url() + "move/cheat/").status_code == 404


def test_the_unwanted_card_is_on_every_screen_and_pauses_play(
    saloon: Saloon, seated: dict[str, Client], watcher: User
) -> None:
    for client in (*seated.values(), client_for(watcher)):
        assert 'data-unwanted="down"' in client.get(saloon.get_absolute_url()).content.decode()
    post(seated["p2"], saloon, g.RaiseUnwanted("p2"))
    for client in seated.values():
        page = client.get(saloon.get_absolute_url()).content.decode()
        assert 'data-unwanted="up"' in page
        assert "raised by Abe" in page
    table = seated["p1"].get(saloon.get_absolute_url() + "table/").content.decode()
    assert "raised by Abe" in table
    assert "Lower the Unwanted card" in seated["p2"].get(saloon.get_absolute_url()).content.decode()
    assert (
        "Lower the Unwanted card"
        not in seated["p1"].get(saloon.get_absolute_url()).content.decode()
    )
    pid = g.whose_move(state_of(saloon))[0]
    page = nothing_written(saloon, seated[pid], {"version": saloon.version}, "discard")
    assert "Play is paused" in page
    post(seated["p2"], saloon, g.LowerUnwanted("p2"))
    assert state_of(saloon).unwanted == ""


def test_the_host_may_lower_the_unwanted_card_too_and_the_timeline_says_so_R34(
    saloon: Saloon, seated: dict[str, Client], watcher: User
) -> None:
    """Issue 27: only the raiser could lower it; if they left, the table was paused for good.
    The host (the table's Dealer) may lower it too; nobody else."""
    post(seated["p2"], saloon, g.RaiseUnwanted("p2"))
    host_page = seated["p1"].get(saloon.get_absolute_url()).content.decode()
    assert "Lower it as the host" in host_page
    assert (
        "Lower it as the host" not in seated["p3"].get(saloon.get_absolute_url()).content.decode()
    )
    url = saloon.get_absolute_url() + "move/lower-host/"
    refused = seated["p3"].post(url, {"version": saloon.version})
    assert refused.status_code == 403
    assert client_for(watcher).post(url, {"version": saloon.version}).status_code == 403
    assert state_of(saloon).unwanted == "p2"
    assert seated["p1"].post(url, {"version": saloon.version}).status_code == 302
    assert state_of(saloon).unwanted == ""
    last = SaloonLine.objects.filter(saloon=saloon).order_by("-pk").first()
    assert last is not None
    assert last.text.endswith("the host, lowers the Unwanted card raised by Abe: play goes on.")


def test_while_the_unwanted_card_is_up_words_are_struck_from_the_story(
    saloon: Saloon, seated: dict[str, Client], outsider: User
) -> None:
    """S4: the card is raised "to change or delete what was said"."""
    play_to(saloon, seated, lambda s: s.phase == g.Phase.PLAY)
    words = "The Sheriff's wife never loved him."
    post(seated["p3"], saloon, g.Tell("p3", words))
    state_of(saloon)  # the newest version, for the next form
    post(seated["p3"], saloon, g.Tell("p3", "I keep the saloon's books honest."))
    state_of(saloon)
    told, own = SaloonLine.objects.filter(saloon=saloon, kind="tell").order_by("seq")
    strike = saloon.get_absolute_url() + "strike/{}/"

    def refused(client: Client, line: SaloonLine, words: str) -> None:
        def now() -> tuple[Any, ...]:
            lines = list(SaloonLine.objects.values_list("text", "said", "struck"))
            return (state_of(saloon), saloon.version, lines)

        before = now()
        page = client.post(strike.format(line.pk), {"version": saloon.version}, follow=True)
        assert words in page.content.decode()
        assert now() == before

    refused(seated["p3"], own, "only while the Unwanted card is up")
    post(seated["p2"], saloon, g.RaiseUnwanted("p2"))
    assert state_of(saloon).unwanted == "p2"
    assert "line__strike" not in seated["p1"].get(saloon.get_absolute_url()).content.decode()
    refused(seated["p1"], told, "Only Abe, who raised the Unwanted card")
    assert client_for(outsider).post(strike.format(told.pk)).status_code == 404
    assert "line__strike" in seated["p2"].get(saloon.get_absolute_url()).content.decode()
    response = seated["p2"].post(strike.format(told.pk), {"version": saloon.version})
    assert response.status_code == 302
    told.refresh_from_db()
    assert (told.struck, told.said) == (True, "")
    for client in seated.values():
        for page in ("", "table/", "story.md"):
            assert (
                "never loved him"
                not in client.get(saloon.get_absolute_url() + page).content.decode()
            )
    assert state_of(saloon).unwanted == "p2"  # still up: play stays paused
    refused(seated["p2"], told, "no such words left")
    # Whoever said the words strikes their own, too.
    assert seated["p3"].post(strike.format(own.pk), {"version": saloon.version}).status_code == 302
    own.refresh_from_db()
    assert own.struck


def test_striking_the_question_in_play_takes_its_character_off_every_screen(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    state = play_to(saloon, seated, lambda s: s.turn is not None and s.turn.step == g.Step.ASK)
    assert state.turn is not None
    drawer, doomed = state.turn.drawer, state.doomed
    post(seated[drawer], saloon, g.Prompt(drawer, subject="the blacksmith’s widow"))
    state_of(saloon)
    post(seated[doomed], saloon, g.RaiseUnwanted(doomed))
    state_of(saloon)
    pages = [saloon.get_absolute_url() + page for page in ("", "table/")]
    assert all("blacksmith" in seated[doomed].get(url).content.decode() for url in pages)
    question = SaloonLine.objects.filter(saloon=saloon, kind="question").latest("seq")
    response = seated[doomed].post(
        saloon.get_absolute_url() + f"strike/{question.pk}/", {"version": saloon.version}
    )
    assert response.status_code == 302
    state_of(saloon)
    post(seated[doomed], saloon, g.LowerUnwanted(doomed))  # play goes on
    for client in seated.values():
        for url in pages:
            page = client.get(url).content.decode()
            # (the prompt form, asked again, has it as an example: not said)
            assert "blacksmith" not in page.replace('placeholder="the blacksmith’s widow"', "")
    after = state_of(saloon)
    assert after.turn is not None
    assert after.turn.step == g.Step.ASK  # R34: the struck question is asked again
    assert "asks again, with a new" in seated[drawer].get(pages[0]).content.decode()


def test_the_phone_says_what_to_do_and_shows_the_prompt(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    state = play_to(
        saloon, seated, lambda s: s.turn is not None and s.turn.step in (g.Step.ASK, g.Step.CLEAR)
    )
    assert state.turn is not None
    page = seated[state.turn.drawer].get(saloon.get_absolute_url()).content.decode()
    assert "Ask your question" in page or "Clear your name" in page
    assert "prompts__row--now" in page
    assert "CC BY-SA 4.0" in page
    other = next(p.pid for p in state.players if p.pid != state.turn.drawer)
    assert "data-prompt" in seated[other].get(saloon.get_absolute_url()).content.decode()


def test_the_drawer_sees_backs_to_pick_from(saloon: Saloon, seated: dict[str, Client]) -> None:
    state = play_to(saloon, seated, lambda s: s.phase == g.Phase.PLAY)
    assert state.turn is not None
    page = seated[state.turn.drawer].get(saloon.get_absolute_url()).content.decode()
    assert page.count("data-back ") == len(state.player(state.doomed).hand)
    assert "Draw from the Doomed" in page


def test_the_story_exports_as_markdown(saloon: Saloon, seated: dict[str, Client]) -> None:
    rng = random.Random(2)
    for _ in range(400):
        state = state_of(saloon)
        if state.phase == g.Phase.OVER:
            break
        move = random_move(state, rng)
        if isinstance(move, g.Answer):
            move = g.Answer(move.pid, "I did it for the <b>gold</b>.")
        post(seated[move.pid], saloon, move)
    response = seated["p2"].get(saloon.get_absolute_url() + "story.md")
    text = response.content.decode()
    assert response["Content-Type"].startswith("text/markdown")
    assert text.startswith("# What we learned about the saloon")
    assert "I did it for the &lt;b&gt;gold&lt;/b&gt;." in text
    assert "## The ending" in text
    assert "CC BY-SA 4.0" in text


def test_a_character_can_be_named_and_the_table_calls_it_so(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    post(seated["p2"], saloon, g.NameCharacter("p2", "x"), name="Mercy Cole")
    table = seated["p1"].get(saloon.get_absolute_url() + "table/").content.decode()
    assert "Mercy Cole" in table


def test_after_an_ending_play_can_continue_a_year_and_a_day_later(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    state = play_to(saloon, seated, lambda s: False)
    assert state.phase == g.Phase.OVER
    response = seated["p3"].post(
        saloon.get_absolute_url() + "move/continue/", {"version": Saloon.objects.get().version}
    )
    assert response.status_code == 302
    state = state_of(saloon)
    assert state.phase == g.Phase.DISCARD
    assert state.year == 1
    page = seated["p1"].get(saloon.get_absolute_url()).content.decode()
    assert "a year and a day later" in page


def test_the_rulings_page_shows_the_saloons_readings_beside_R1_to_R34(client: Client) -> None:
    """Issue 27: the readings S1–S6 lived in saloon/engine only."""
    from saloon.engine.state import READINGS

    page = client.get("/rulings/").content.decode()
    assert 'id="R34"' in page
    for sid, text in READINGS:
        assert f'id="{sid}"' in page
        assert text.replace("’", "&rsquo;")[:30] in page or text[:30] in page
    assert "passing is not asking" in page


def test_an_answer_can_name_the_character_it_brings_up_for_the_extra_question_R34(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    def answering(state: g.SaloonState) -> bool:
        t = state.turn
        return bool(t and t.step == g.Step.ANSWER and t.table == 2 and not t.asked)

    state = play_to(saloon, seated, answering)
    assert state.turn is not None
    answerer = state.turn.answerer
    other = next(p.pid for p in state.players if p.pid not in (answerer, state.turn.drawer))
    page = seated[answerer].get(saloon.get_absolute_url()).content.decode()
    assert 'name="brought_up"' in page
    response = seated[answerer].post(
        saloon.get_absolute_url() + "move/answer/",
        {"version": saloon.version, "text": "Ask them.", "brought_up": f"pid:{other}"},
    )
    assert response.status_code == 302
    turn = state_of(saloon).turn
    assert turn is not None
    assert other in turn.brought_up


def test_the_story_names_who_death_took_and_the_new_archetype_a_year_later(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    """Issue 27: story.md's ending did not name who Death took; "a year and a day later" did
    not record the new archetype."""
    for seed in range(5, 40):
        state = play_to(saloon, seated, lambda s: False, seed=seed)
        if state.dead:
            break
        seated["p1"].post(
            saloon.get_absolute_url() + "move/continue/", {"version": Saloon.objects.get().version}
        )
    assert state.dead, "no game ended with a death"
    dead = state.player(state.dead)
    story = seated["p1"].get(saloon.get_absolute_url() + "story.md").content.decode()
    assert f"Death took **{dead.role}**, played by {dead.name}." in story
    seated["p1"].post(
        saloon.get_absolute_url() + "move/continue/", {"version": Saloon.objects.get().version}
    )
    again = state_of(saloon).player(state.dead)
    story = seated["p1"].get(saloon.get_absolute_url() + "story.md").content.decode()
    assert f"{dead.name} now plays {again.role}." in story


def test_the_screen_cues_who_speaks_as_the_seed_names_it(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    """Issue 27: one free "Tell" for anyone, with no cue that it is someone's turn to speak.
    The Doomed taken by Death gives a farewell; the black joker's holder describes Death's exit;
    a newly safe player says how they realise Death will leave them be."""
    from html import unescape

    for seed in range(5, 60):
        state = play_to(saloon, seated, lambda s: False, seed=seed)
        if state.ending in (g.Ending.TAKEN, g.Ending.DEATH_LEAVES):
            break
        seated["p1"].post(
            saloon.get_absolute_url() + "move/continue/", {"version": Saloon.objects.get().version}
        )
    if state.ending == g.Ending.TAKEN:
        speaker, cue = state.dead, "Your farewell: how Death takes you away."
    else:
        assert state.ending == g.Ending.DEATH_LEAVES
        speaker, cue = state.doomed, "Describe Death’s exit."
    page = unescape(seated[speaker].get(saloon.get_absolute_url()).content.decode())
    assert f"<strong data-my-cue>{cue}</strong>" in page
    other = next(pid for pid in seated if pid != speaker)
    page = unescape(seated[other].get(saloon.get_absolute_url()).content.decode())
    assert cue not in page
    assert state.player(speaker).name in page.split("data-speakers>")[1].split("</p>")[0]


def test_a_safe_player_is_cued_to_say_how_death_will_leave_them_be(
    saloon: Saloon, seated: dict[str, Client]
) -> None:
    from html import unescape

    def someone_safe(s: g.SaloonState) -> bool:
        return s.phase == g.Phase.PLAY and any(s.is_safe(p.pid) for p in s.players)

    for seed in range(5, 60):
        state = play_to(saloon, seated, someone_safe, seed=seed)
        if someone_safe(state):
            break
        seated["p1"].post(
            saloon.get_absolute_url() + "move/continue/", {"version": Saloon.objects.get().version}
        )
    safe = next(p.pid for p in state.players if state.is_safe(p.pid))
    page = unescape(seated[safe].get(saloon.get_absolute_url()).content.decode())
    assert "You are safe: say briefly how you realise Death will leave you be." in page
