"""URLs of the campaigns app: campaign things under /c/<slug>/, invitation links under /join/.

Anonymous visitors are sent to log in from every page here except /join/ (which explains the
invitation first); logged-in people who do not sit at the campaign get 404.
"""

from __future__ import annotations

from django.urls import URLPattern, path

from campaigns.streams import campaign_stream, running_stream
from campaigns.views import game_sessions, seats, table
from campaigns.views.running import running_banner

app_name = "campaigns"

urlpatterns: list[URLPattern] = [
    path("campaigns/new/", table.campaign_create, name="create"),
    path("join/<str:token>/", seats.join, name="join"),
    # The "In play now" ribbon of every page, and its live stream (a nudge per person).
    path("running/", running_banner, name="running"),
    path("running/stream/", running_stream, name="running_stream"),
    path("c/<slug:slug>/", table.detail, name="detail"),
    path("c/<slug:slug>/stream/", campaign_stream, name="stream"),
    # Dealer prep
    path("c/<slug:slug>/notes/new/", table.note_create, name="note_create"),
    path("c/<slug:slug>/notes/<int:note_id>/edit/", table.note_edit, name="note_edit"),
    path("c/<slug:slug>/notes/<int:note_id>/delete/", table.note_delete, name="note_delete"),
    path("c/<slug:slug>/notes/<int:note_id>/move/", table.note_move, name="note_move"),
    path("c/<slug:slug>/wanted/new/", table.wanted_create, name="wanted_create"),
    path("c/<slug:slug>/wanted/<int:link_id>/edit/", table.wanted_edit, name="wanted_edit"),
    path("c/<slug:slug>/wanted/<int:link_id>/delete/", table.wanted_delete, name="wanted_delete"),
    # Sessions (R21)
    path("c/<slug:slug>/sessions/plan/", table.session_plan, name="session_plan"),
    path("c/<slug:slug>/sessions/start/", game_sessions.session_start, name="session_start"),
    path("c/<slug:slug>/sessions/<int:number>/", table.session_detail, name="session"),
    path("c/<slug:slug>/sessions/<int:number>/end/", game_sessions.session_end, name="session_end"),
    path("c/<slug:slug>/sessions/<int:number>/devil/", table.devil_rating_set, name="devil_rating"),
    # Invitations and seats
    path("c/<slug:slug>/invites/", seats.invites, name="invites"),
    path("c/<slug:slug>/invites/new/", seats.invite_create, name="invite_create"),
    path(
        "c/<slug:slug>/invites/<int:invite_id>/revoke/", seats.invite_revoke, name="invite_revoke"
    ),
    path("c/<slug:slug>/members/", seats.members, name="members"),
    path(
        "c/<slug:slug>/members/<int:member_id>/remove/", seats.member_remove, name="member_remove"
    ),
    path(
        "c/<slug:slug>/members/<int:member_id>/dealer/",
        seats.dealer_hand_over,
        name="dealer_hand_over",
    ),
]
