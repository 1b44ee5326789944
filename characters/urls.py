"""URLs of the characters app, all under /c/<slug>/characters/ (included at the root by
dustdevils/urls.py)."""

from __future__ import annotations

from django.urls import path

from characters.streams import character_stream
from characters.views import chips, sheets

app_name = "characters"

BASE = "c/<slug:slug>/characters/"
ONE = BASE + "<int:character_id>/"

urlpatterns = [
    path(BASE, sheets.character_list, name="list"),
    path(BASE + "new/", sheets.character_new, name="create"),
    path(BASE + "new/npc/", sheets.npc_new, name="create_npc"),
    path(BASE + "check/", sheets.sheet_check, name="check"),
    path(ONE, sheets.sheet, name="sheet"),
    path(ONE + "edit/", sheets.character_edit, name="edit"),
    path(ONE + "check/", sheets.sheet_check, name="check_existing"),
    path(ONE + "chips/", chips.page, name="chips"),
    path(ONE + "chips/attribute/", chips.attribute_improve, name="improve_attribute"),
    path(ONE + "chips/knack/", chips.knack_improve, name="improve_knack"),
    path(ONE + "chips/new-knack/", chips.knack_buy, name="buy_knack"),
    path(ONE + "chips/grant/", chips.grant, name="grant"),
    path(ONE + "approve/", sheets.approve, name="approve"),
    path(ONE + "leave-play/", sheets.leave_play, name="leave_play"),
    path(ONE + "stream/", character_stream, name="stream"),
]
