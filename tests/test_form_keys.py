"""Issue 28 #7: every form that creates or changes something carries an idempotency key
(``name="key"``), so a double click — or twenty identical posts — is done once (the README
says every form carries one). Read from the templates: each ``<form method="post">`` either
prints a key or is listed below as done once by its nature, with why. A new form without a key
fails here until it gets one (``{% form_key %}``, or a form's ``key_field()``) or a reason.
tests/test_create_once.py races twenty identical posts of the create forms on PostgreSQL."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

from campaigns.forms import (
    CampaignForm,
    InviteForm,
    NoteForm,
    NoteMoveForm,
    SessionPlanForm,
    WantedLinkForm,
)
from conflicts.forms import ConflictCreateForm, NarrateForm
from fights.forms import FightCreateForm
from saloon.game import NewSaloon
from tables.oneoff import OneOffForm

TEMPLATES = Path(settings.BASE_DIR) / "templates"
FORM = re.compile(r"<form\b(?P<tag>[^>]*)>(?P<body>.*?)</form>", re.DOTALL | re.IGNORECASE)
ACTION = re.compile(r"""\{%\s*url\s+['"](?P<name>[\w:]+)['"]""")
# What prints a key inside a form.
KEY_MARKS = (
    'name="key"', "{% form_key %}", "{{ form.key }}", "fresh_key", 'include "saloon/_hidden.html"',
)  # fmt: skip
# Forms whose fields are printed in a loop over the form (campaigns/_field.html prints a hidden
# field as its input): their form class has the key field.
KEY_FIELD_FORMS = {
    "campaigns:create": CampaignForm,
    "campaigns:invite_create": InviteForm,
    "campaigns:note_create": NoteForm,
    "campaigns:wanted_create": WantedLinkForm,
    "campaigns:session_plan": SessionPlanForm,
}

# Done once by their nature: a second identical post changes nothing more (or is refused in
# plain words), so they need no key.
ONCE_BY_NATURE = {
    "login": "logging in twice is being logged in",
    "logout": "logging out twice is being logged out",
    "set_language": "choosing a language twice is having chosen it (issue 39)",
    "signup": "a username is taken once: the second post is told so",
    "password_change": "setting the same password twice sets it",
    "characters:approve": "approving an approved character changes nothing",
    "fights:quickness_dice": "sets the dice to the value sent",
    "characters:leave_play": "a character leaves play once; the second post is refused",
    "campaigns:join": "a seat is taken once per person (a unique membership)",
    "campaigns:wanted_edit": "sets the link's words to the ones sent",
    "campaigns:note_edit": "sets the note's words to the ones sent",
    "campaigns:wanted_delete": "deleting it twice: the second finds nothing (404)",
    "campaigns:note_delete": "deleting it twice: the second finds nothing (404)",
    "campaigns:invite_revoke": "a withdrawn invitation stays withdrawn",
    "campaigns:session_start": "starting the session being played returns it",
    "campaigns:session_end": "ending an ended session does nothing more, and says so",
    "campaigns:devil_rating": "sets the rating to the one sent (R21)",
    "campaigns:member_remove": "the seat is gone after the first; the second finds nothing",
    "campaigns:dealer_hand_over": "the chair moves once; the second is no longer the Dealer's",
    "again_url": "Deal again is once per conflict: a second finds the continuation made (R20)",
}


def post_forms() -> list[tuple[str, str, str]]:
    """(template, the form's name — its action's URL name, else its action —, its body) of
    every POST form in the templates."""
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for form in FORM.finditer(path.read_text()):
            tag = form.group("tag")
            if 'method="post"' not in tag.lower():
                continue
            action = ACTION.search(tag)
            if action:
                name = action.group("name")
            else:
                attr = re.search(r'action="\{\{\s*(?P<var>[\w.]+)', tag)
                name = attr.group("var") if attr else "(its own page)"
            found.append((str(path.relative_to(TEMPLATES)), name, form.group("body")))
    return found


def test_it_finds_the_post_forms() -> None:
    assert len(post_forms()) > 40


def test_every_post_form_carries_a_key_or_is_done_once_by_its_nature() -> None:
    missing = []
    for template, name, body in post_forms():
        if any(mark in body for mark in KEY_MARKS):
            continue
        if name in KEY_FIELD_FORMS and "campaigns/_field.html" in body:
            continue
        if template == "characters/leave_play.html":
            name = "characters:leave_play"
        if template == "campaigns/join.html":
            name = "campaigns:join"
        if name not in ONCE_BY_NATURE:
            missing.append(f"{template}: {name}")
    assert not missing, "POST forms without an idempotency key: " + ", ".join(missing)


def test_the_forms_printed_field_by_field_have_a_key_field() -> None:
    forms = [
        *KEY_FIELD_FORMS.values(), NoteMoveForm, ConflictCreateForm, NarrateForm,
        FightCreateForm, NewSaloon, OneOffForm,
    ]  # fmt: skip
    assert all("key" in form.base_fields for form in forms)
