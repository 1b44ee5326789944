"""The admin pages support staff use: everything registered, the ledger read-only (R15),
invitation hashes untouchable."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Permission, User
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from campaigns.game_sessions import session_end, session_start
from campaigns.models import Campaign, DevilRating, Invite, Membership
from campaigns.recovery import session_recover
from campaigns.services import campaign_create, invite_create, note_save, session_plan
from characters.models import Character, ChipEntry
from exchange.starters import load_hanged_man
from tables.once import made_once

MODELS = [
    *apps.get_app_config("campaigns").get_models(),
    *apps.get_app_config("characters").get_models(),
]


def _url(model: type[Model], view: str, *args: object) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture
def table(dealer: User, player_a: User) -> Campaign:
    campaign = campaign_create(dealer=dealer, name="The Hanged Man")
    Membership.objects.create(campaign=campaign, user=player_a, role=Membership.Role.PLAYER)
    load_hanged_man(campaign=campaign, players=[player_a])
    session = session_plan(campaign=campaign)
    jim = campaign.characters.get(name='"Gentleman" Jim Harris')
    DevilRating.objects.create(session=session, character=jim, rating=3, set_by=player_a)
    invite_create(campaign=campaign, actor=dealer, label="for Zeke")
    # A create form's key (issue 28): the note its form made.
    made_once(
        user=dealer, key="a-form", make=lambda: note_save(campaign=campaign, title="Mine", body="")
    )
    # A session played and ended with Jim hurt: its log, snapshots, recovery and history (R22).
    session_start(campaign=campaign, actor=dealer)
    Character.objects.filter(pk=jim.pk).update(hand_current=1)
    session_end(session_id=session.pk, actor=dealer)
    session_recover(session_id=session.pk)
    return campaign


@pytest.fixture
def staff(db: None) -> Client:
    """A staff member with every permission of the two apps, but not a superuser."""
    user = User.objects.create_user("support", password="x" * 20, is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(content_type__app_label__in=["campaigns", "characters"])
    )
    client = Client()
    client.force_login(user)
    return client


def test_it_registers_every_model_of_campaigns_and_characters() -> None:
    assert [m.__name__ for m in MODELS if not admin.site.is_registered(m)] == []


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_it_lists_searches_and_shows_each_model(
    admin_client: Client, table: Campaign, model: type[Model]
) -> None:
    assert admin_client.get(_url(model, "changelist")).status_code == 200
    assert admin_client.get(_url(model, "changelist"), {"q": "Hanged"}).status_code == 200
    obj = model._default_manager.first()
    assert obj is not None
    assert admin_client.get(_url(model, "change", obj.pk)).status_code == 200


def test_it_shows_knacks_and_the_ledger_on_the_character(
    admin_client: Client, table: Campaign
) -> None:
    jim = table.characters.get(name='"Gentleman" Jim Harris')
    html = admin_client.get(_url(Character, "change", jim.pk)).content.decode()
    assert 'name="knacks-0-name"' in html
    assert "Starting chips" in html  # the ledger row, shown
    assert 'name="chip_entries-0-amount"' not in html  # ...but not editable
    assert 'name="chips"' not in html  # the counter follows the ledger only


def test_it_keeps_the_ledger_read_only(admin_client: Client, table: Campaign) -> None:
    entry = ChipEntry.objects.first()
    assert entry is not None
    assert admin_client.get(_url(ChipEntry, "add")).status_code == 403
    assert admin_client.post(_url(ChipEntry, "change", entry.pk), {"amount": 99}).status_code == 403
    assert (
        admin_client.post(_url(ChipEntry, "delete", entry.pk), {"post": "yes"}).status_code == 403
    )
    assert 'name="action"' not in admin_client.get(_url(ChipEntry, "changelist")).content.decode()
    entry.refresh_from_db()
    assert entry.amount == 3


def test_it_lets_a_superuser_delete_a_whole_character_with_its_ledger(
    admin_client: Client, table: Campaign
) -> None:
    jim = table.characters.get(name='"Gentleman" Jim Harris')
    response = admin_client.post(_url(Character, "delete", jim.pk), {"post": "yes"})
    assert response.status_code == 302
    assert not Character.objects.filter(pk=jim.pk).exists()
    assert not ChipEntry.objects.filter(character_id=jim.pk).exists()


def test_it_keeps_other_staff_from_deleting_chip_history(staff: Client, table: Campaign) -> None:
    jim = table.characters.get(name='"Gentleman" Jim Harris')
    assert staff.post(_url(Character, "delete", jim.pk), {"post": "yes"}).status_code == 403
    assert Character.objects.filter(pk=jim.pk).exists()


def test_it_never_lets_anyone_write_an_invitation_hash(
    admin_client: Client, table: Campaign
) -> None:
    invite = Invite.objects.get()
    html = admin_client.get(_url(Invite, "change", invite.pk)).content.decode()
    assert invite.token_hash in html  # shown, to match a row to a report
    assert 'name="token_hash"' not in html
    assert admin_client.get(_url(Invite, "add")).status_code == 403


def test_it_revokes_invitations_in_bulk(admin_client: Client, table: Campaign) -> None:
    invite = Invite.objects.get()
    admin_client.post(
        _url(Invite, "changelist"),
        {"action": "revoke_invites", admin.helpers.ACTION_CHECKBOX_NAME: [invite.pk]},
    )
    invite.refresh_from_db()
    assert invite.status == "revoked"


def test_it_shows_the_dealer_and_counts_on_the_campaign_list(
    admin_client: Client, table: Campaign
) -> None:
    html = admin_client.get(_url(Campaign, "changelist")).content.decode()
    assert '<td class="field-dealer">dealer</td>' in html
    assert '<td class="field-characters">11</td>' in html
