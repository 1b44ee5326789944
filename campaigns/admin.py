"""Admin pages for support staff: campaigns, seats, invitations, notes, sessions, links.

Invitation tokens exist only as hashes, and the admin cannot make invitations (the raw link is
shown once, on the campaign's page) nor change a hash; it can revoke them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.http import HttpRequest

from campaigns.models import (
    Campaign,
    DevilRating,
    FormKey,
    GameSession,
    Invite,
    JobRun,
    Membership,
    Note,
    SessionEvent,
    WantedLink,
)
from campaigns.services import CampaignError, invite_revoke
from characters.admin import HistoryAdmin, WholeLedgerDeletion


class MembershipInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Membership
    extra = 0
    fields = ("user", "role", "joined_at")
    readonly_fields = ("joined_at",)
    autocomplete_fields = ("user",)


class NoteInline(admin.StackedInline):  # type: ignore[type-arg]
    model = Note
    extra = 0
    fields = ("title", "body", "position")


@admin.register(Campaign)
class CampaignAdmin(WholeLedgerDeletion):
    list_display = (
        "name",
        "kind",
        "slug",
        "setting",
        "dealer",
        "members",
        "characters",
        "created_at",
    )
    list_filter = ("kind", "winner_bonus", "created_at")
    search_fields = ("name", "slug", "setting", "memberships__user__username")
    readonly_fields = ("created_at",)
    date_hierarchy = "created_at"
    inlines = (MembershipInline, NoteInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Campaign]:
        dealer = Membership.objects.filter(
            campaign=OuterRef("pk"), role=Membership.Role.DEALER
        ).values("user__username")[:1]
        campaigns: QuerySet[Campaign] = super().get_queryset(request)
        return campaigns.annotate(
            dealer_name=Subquery(dealer),
            member_count=Count("memberships", distinct=True),
            character_count=Count("characters", distinct=True),
        )

    @admin.display(ordering="dealer_name")
    def dealer(self, obj: Any) -> str:
        return obj.dealer_name or "—"

    @admin.display(ordering="member_count")
    def members(self, obj: Any) -> int:
        return int(obj.member_count)

    @admin.display(ordering="character_count")
    def characters(self, obj: Any) -> int:
        return int(obj.character_count)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "campaign", "role", "joined_at")
    list_filter = ("role",)
    search_fields = ("user__username", "campaign__name", "campaign__slug")
    list_select_related = ("user", "campaign")
    autocomplete_fields = ("user", "campaign")
    readonly_fields = ("joined_at",)


@admin.action(description="Revoke the selected invitations")
def revoke_invites(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Invite]) -> None:
    done = 0
    for invite in queryset:
        try:
            invite_revoke(invite=invite)
            done += 1
        except CampaignError as error:
            messages.warning(request, f"{invite}: {error}")
    messages.success(request, f"Revoked {done} invitation{'s' if done != 1 else ''}.")


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("campaign", "label", "status", "created_by", "created_at", "expires_at",
                    "used_by")  # fmt: skip
    list_filter = (("used_at", admin.EmptyFieldListFilter),
                   ("revoked_at", admin.EmptyFieldListFilter), "expires_at")  # fmt: skip
    search_fields = ("campaign__name", "label", "created_by__username", "used_by__username")
    list_select_related = ("campaign", "created_by", "used_by")
    fields = ("campaign", "label", "status", "token_hash", "created_by", "created_at",
              "expires_at", "used_at", "used_by", "revoked_at")  # fmt: skip
    readonly_fields = ("campaign", "status", "token_hash", "created_by", "created_at",
                       "used_at", "used_by", "revoked_at")  # fmt: skip
    actions = (revoke_invites,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the link would have no token: invitations are made on the campaign page


class DevilRatingInline(admin.TabularInline):  # type: ignore[type-arg]
    model = DevilRating
    extra = 0
    fields = ("character", "rating", "set_by", "set_at")
    readonly_fields = ("set_at",)
    raw_id_fields = ("character", "set_by")


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("__str__", "number", "date", "status", "started_at", "ended_at")
    list_filter = ("status", "date")
    search_fields = ("campaign__name", "notes")
    list_select_related = ("campaign",)
    autocomplete_fields = ("campaign",)
    inlines = (DevilRatingInline,)


@admin.register(DevilRating)
class DevilRatingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("character", "session", "rating", "set_by", "set_at")
    list_filter = ("rating",)
    search_fields = ("character__name", "session__campaign__name")
    list_select_related = ("character", "session__campaign", "set_by")
    raw_id_fields = ("session", "character", "set_by")


@admin.register(Note)
class NoteAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("title", "campaign", "position", "updated_at")
    search_fields = ("title", "body", "campaign__name")
    list_select_related = ("campaign",)
    autocomplete_fields = ("campaign",)


@admin.register(WantedLink)
class WantedLinkAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("npc", "pc", "campaign", "devil_touched")
    search_fields = ("npc__name", "pc__name", "campaign__name", "devil_touched")
    list_select_related = ("npc", "pc", "campaign")
    autocomplete_fields = ("campaign", "npc", "pc")


@admin.register(SessionEvent)
class SessionEventAdmin(HistoryAdmin):
    """A session's log: started, ended (by the Dealer or the stale-session sweep), recovered."""

    list_display = ("at", "session", "actor", "text")
    search_fields = ("text", "session__campaign__name")
    list_select_related = ("session__campaign", "actor")


@admin.register(JobRun)
class JobRunAdmin(HistoryAdmin):
    """Background jobs that ran for a session, once each (the row makes a re-run a no-op)."""

    list_display = ("session", "job", "started_at", "finished_at", "summary")
    list_filter = ("job",)
    search_fields = ("session__campaign__name",)
    list_select_related = ("session__campaign",)


@admin.register(FormKey)
class FormKeyAdmin(HistoryAdmin):
    """Create forms' idempotency keys (tables.once): what each form made, kept so the same
    form sent again makes nothing more. Only the forms write them."""

    list_display = ("created_at", "user", "campaign", "made_model", "made_id")
    search_fields = ("campaign__name", "user__username")
    list_select_related = ("campaign", "user")
