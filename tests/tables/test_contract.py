"""The table kit's promises, once, for every declared game (``tables.site``: the five games and
the test-only high card): a new game from the list page, once per form; every page opens for
the table's members and for nobody else; two seats tapping on the same page version both go
through (no tap lost); a double tap applies once; a refusal writes nothing and says why; a move
made on a table that has moved on in what it was based on says so; no value a viewer may not
see reaches any of their screens (page, fragment, poll, live stream, shared screen, story); no
post gives a server error. What each game tells the suite: ``tests/<app>/contract.py``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import NoReverseMatch, reverse

from dustdevils.live.tables import Viewer
from tables.errors import STALE
from tables.game import Game
from tables.site import site
from tests.contract import Contract, Tap, contract_of, new_post, start_game
from tests.kit import race

pytestmark = pytest.mark.django_db

GAMES = [pytest.param(game, id=game.kind) for game in site.games()]


def test_every_declared_game_is_under_contract() -> None:
    kinds = {game.kind for game in site.games()}
    assert {"gunfighter", "showdown", "saloon", "highcard", "conflict", "fight"} <= kinds
    for game in site.games():
        assert isinstance(contract_of(game), Contract)


@pytest.fixture
def seats(dealer: User, player_a: User, player_b: User) -> dict[str, User]:
    return {"p1": dealer, "p2": player_a, "p3": player_b}


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start(game: Game, campaign: Any, seats: dict[str, User]) -> Any:
    return start_game(game, campaign, list(seats.values()))


def basis(game: Game, row: Any, pid: str) -> str:
    """What seat ``pid``'s page says its move is based on (the scope its contract gives)."""
    return game.basis(game.load(row.state), contract_of(game).scope(row, pid))


def written(row: Any) -> tuple[Any, ...]:
    row.refresh_from_db()
    game = next(g for g in site.games() if isinstance(row, g.model))
    lines = game.line_model._default_manager.filter(**{game.fk: row}).count()
    return row.version, json.dumps(row.state, sort_keys=True), lines


def tap(game: Game, row: Any, user: User, move: Tap, **kit: Any) -> Any:
    """A seat's move posted as its phone posts it (htmx), with its page's version and basis
    unless ``kit`` says otherwise."""
    pid, action, fields = move
    row.refresh_from_db()
    fields = fields(row) if callable(fields) else fields
    post = {"version": row.version, "basis": basis(game, row, pid), "key": "", **fields, **kit}
    url = reverse(f"{game.namespace}:move", args=[row.campaign.slug, row.pk, action])
    return client_of(user).post(url, post, HTTP_HX_REQUEST="true")


def set_up(game: Game, row: Any, seats: dict[str, User]) -> Contract:
    contract = contract_of(game)
    for move in contract.setup:
        answer = tap(game, row, seats[move[0]], move)
        assert answer.status_code == 200
        assert b"data-move-error" not in answer.content, answer.content[:400]
    return contract


def at_together(game: Game, campaign: Any, seats: dict[str, User]) -> tuple[Any, Contract]:
    """A new game taken to where its contract's two seats may tap at once."""
    row = start(game, campaign, seats)
    contract = set_up(game, row, seats)
    assert contract.together is not None
    return row, contract


@pytest.mark.parametrize("game", GAMES)
def test_a_new_game_from_the_list_page_once_per_form(
    game: Game, campaign: Any, seats: dict[str, User]
) -> None:
    host = client_of(seats["p1"])
    assert host.get(reverse(f"{game.namespace}:list", args=[campaign.slug])).status_code == 200
    users = list(seats.values())
    post = new_post(game, campaign, users, "one-form")
    url = reverse(f"{game.namespace}:new", args=[campaign.slug])
    first, again = host.post(url, post), host.post(url, post)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert game.model._default_manager.filter(campaign=campaign).count() == 1
    row = game.model._default_manager.get(campaign=campaign)
    seated = contract_of(game).seated
    assert (seated(row) if seated else [s.user for s in row.seats.order_by("position")]) == users


@pytest.mark.parametrize("game", GAMES)
def test_every_page_opens_for_members_and_for_nobody_else(
    game: Game, campaign: Any, seats: dict[str, User], outsider: User
) -> None:
    row = start(game, campaign, seats)
    urls = [reverse(f"{game.namespace}:list", args=[campaign.slug])]
    for name in ("detail", "version", "table", "story"):
        try:
            urls.append(reverse(f"{game.namespace}:{name}", args=[campaign.slug, row.pk]))
        except NoReverseMatch:
            continue
    for url in urls:
        for user in seats.values():
            assert client_of(user).get(url).status_code in (200, 204), url
        assert client_of(outsider).get(url).status_code == 404, url
        assert Client().get(url).status_code == 302, url


@pytest.mark.parametrize("game", GAMES)
def test_two_seats_tapping_on_the_same_page_both_go_through(
    game: Game, campaign: Any, seats: dict[str, User]
) -> None:
    row, contract = at_together(game, campaign, seats)
    first, second = contract.together
    row.refresh_from_db()
    version = row.version
    # Both pages were made at this version, each with its own seat's basis.
    kit = [{"version": version, "basis": basis(game, row, move[0])} for move in (first, second)]
    for move, made in zip((first, second), kit, strict=True):
        answer = tap(game, row, seats[move[0]], move, **made)
        assert b"data-move-error" not in answer.content, answer.content[:600]
    row.refresh_from_db()
    assert row.version == version + 2


@pytest.mark.parametrize("game", GAMES)
def test_a_double_tap_applies_once(game: Game, campaign: Any, seats: dict[str, User]) -> None:
    row, contract = at_together(game, campaign, seats)
    move = contract.together[0]
    row.refresh_from_db()
    version = row.version
    kit = {"version": version, "basis": basis(game, row, move[0]), "key": "double"}
    assert tap(game, row, seats[move[0]], move, **kit).status_code == 200
    after = written(row)
    again = tap(game, row, seats[move[0]], move, **kit)
    assert again.status_code == 200
    assert b"data-move-error" not in again.content
    assert written(row) == after
    assert after[0] == version + 1


@pytest.mark.parametrize("game", GAMES)
def test_a_refusal_writes_nothing_and_says_why(
    game: Game, campaign: Any, seats: dict[str, User]
) -> None:
    row = start(game, campaign, seats)
    contract = set_up(game, row, seats)
    assert contract.refused is not None
    move, reason = contract.refused
    before = written(row)
    answer = tap(game, row, seats[move[0]], move)
    assert answer.status_code == 200
    assert b"data-move-error" in answer.content
    assert reason.encode() in answer.content
    assert json.loads(answer["HX-Trigger"])["move-answered"]["refused"] is True
    assert written(row) == before


@pytest.mark.parametrize("game", GAMES)
def test_a_move_on_a_table_moved_on_under_it_says_so(
    game: Game, campaign: Any, seats: dict[str, User]
) -> None:
    row, contract = at_together(game, campaign, seats)
    first, second = contract.together
    row.refresh_from_db()
    version = row.version
    tap(game, row, seats[first[0]], first)
    before = written(row)
    # A page of before that move, whose basis no longer holds (a forged or outdated one).
    answer = tap(game, row, seats[second[0]], second, version=version, basis="moved-on")
    assert STALE.encode() in answer.content
    assert written(row) == before


@pytest.mark.parametrize("game", GAMES)
def test_no_hidden_value_reaches_any_screen_of_any_viewer(
    game: Game, campaign: Any, seats: dict[str, User]
) -> None:
    row = start(game, campaign, seats)
    contract = set_up(game, row, seats)
    row.refresh_from_db()
    secrets = contract.secrets(row)
    live = site.live(game.kind)
    read = live.load(row.pk)
    for pid, user in seats.items():
        client = client_of(user)
        surfaces = [
            client.get(row.get_absolute_url()).content,
            client.get(row.get_absolute_url(), HTTP_HX_REQUEST="true").content,
            client.get(reverse(f"{game.namespace}:version", args=[campaign.slug, row.pk])).content,
            client.get(reverse(f"{game.namespace}:list", args=[campaign.slug])).content,
        ]
        for name in ("table", "story"):
            try:
                url = reverse(f"{game.namespace}:{name}", args=[campaign.slug, row.pk])
            except NoReverseMatch:
                continue
            surfaces.append(client.get(url).content)
        for as_table in (False, True) if game.shared_screen else (False,):
            viewer = Viewer(user.pk, campaign.slug, row.pk, as_table, "t")
            surfaces.append((live.panel(viewer, read) or "").encode())
        for secret in (*secrets.get(pid, ()), *secrets.get("*", ())):
            for surface in surfaces:
                assert secret.encode() not in surface, (pid, secret)


ODD: list[dict[str, Any]] = [
    {"pid": ["p2", "p3"], "version": "x"},
    {"version": "9" * 400, "key": "k" * 5000},
    {"version": "-3", "basis": "\x00"},
    {"pid": "p9", "basis": "z" * 3000, "version": "0"},
    {"pid": "\x00", "version": ""},
]


@pytest.mark.parametrize("game", GAMES)
def test_no_post_gives_a_server_error(game: Game, campaign: Any, seats: dict[str, User]) -> None:
    row = start(game, campaign, seats)
    contract = contract_of(game)
    fields = {f: ["1e3", "\x00"] for f in contract.fields}
    # Each seat's phone keeps its session from post to post (a log-in per post was a quarter of
    # this test's time); it is still logged in as that seat at the end.
    phones = {user: client_of(user) for user in (seats["p1"], seats["p2"])}
    for action in [*game.moves, "no-such-move"]:
        url = reverse(f"{game.namespace}:move", args=[campaign.slug, row.pk, action])
        for data in ODD:
            for phone in phones.values():
                answer = phone.post(url, {**data, **fields}, HTTP_HX_REQUEST="true")
                assert answer.status_code < 500, (action, data)
    new = reverse(f"{game.namespace}:new", args=[campaign.slug])
    for data in ODD:
        assert phones[seats["p1"]].post(new, {**data, "player": ["x", "\x00"]}).status_code < 500
    for user, phone in phones.items():
        assert phone.session.get("_auth_user_id") == str(user.pk)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", GAMES)
def test_two_seats_at_the_same_instant_both_go_through_and_a_double_tap_once(
    game: Game, campaign: Any, seats: dict[str, User]
) -> None:
    """On PostgreSQL's row lock, released at the same moment: two seats' taps and a third, the
    first's double tap (its key)."""
    row, contract = at_together(game, campaign, seats)
    row.refresh_from_db()
    version = row.version
    moves = [*contract.together, contract.together[0]]
    bases = [basis(game, row, move[0]) for move in moves]
    keys = ["first", "second", "first"]

    def job(i: int) -> int:
        move = moves[i]
        made = {"version": version, "basis": bases[i], "key": keys[i]}
        answer = tap(game, row, seats[move[0]], move, **made)
        assert b"data-move-error" not in answer.content, answer.content[:600]
        return answer.status_code

    assert race(3, job) == [200, 200, 200]
    row.refresh_from_db()
    assert row.version == version + 2


@pytest.mark.parametrize("game", GAMES)
def test_only_the_host_acts_for_another_seat_and_only_for_one_at_the_table(
    game: Game, campaign: Any, seats: dict[str, User]
) -> None:
    """A player never makes another's move (403); the host acts for a seat whose phone is gone,
    and only for a seat at this game (GF12, SS19)."""
    row, contract = at_together(game, campaign, seats)
    pid, action, fields = contract.together[1]
    before = written(row)
    other = next(p for p in seats if p not in (pid, "p1"))
    if not game.host_acts_for:  # nobody acts for another: a posted seat is not read
        before_basis = basis(game, row, pid)
        tap(game, row, seats[other], (pid, action, fields), pid=contract.scope(row, pid))
        row.refresh_from_db()
        assert basis(game, row, pid) == before_basis
        return
    assert tap(game, row, seats[other], (pid, action, fields), pid=pid).status_code == 403
    for odd in ("p9", "\x00", "x" * 500):
        answer = tap(game, row, seats["p1"], (pid, action, fields), pid=odd)
        assert answer.status_code == 200
        assert game.no_seat.encode() in answer.content
    assert written(row) == before


def test_one_key_sent_to_two_games_new_forms_makes_each_its_own(
    campaign: Any, seats: dict[str, User]
) -> None:
    """B8 (issue 37): a form's key is kept with its form, so the same key sent to another
    game's new-game form makes that game, not the first."""
    host, users = client_of(seats["p1"]), list(seats.values())
    for game in site.games():
        post = new_post(game, campaign, users, "same-key")
        answer = host.post(reverse(f"{game.namespace}:new", args=[campaign.slug]), post)
        assert answer.status_code == 302, game.kind
        assert f"/{game.namespace}/" in answer["Location"], game.kind
        assert game.model._default_manager.filter(campaign=campaign).count() == 1, game.kind
