"""Admin pages for support staff: characters, knacks and the chip ledger.

The ledger is history (R15): nobody adds, edits or deletes a row here, and a character's chip
count is read-only (it must equal the ledger's sum; the chip services are the only writers).
A superuser may still delete a whole character or campaign, ledger and all.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from characters.models import AttributeChange, Character, ChipEntry, Knack, SessionSnapshot


class WholeLedgerDeletion(admin.ModelAdmin):  # type: ignore[type-arg]
    """Deleting a character (or a campaign) takes its ledger rows with it. Ledger rows cannot
    be deleted on their own, so Django would refuse: superusers may, for the whole object."""

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        if request.user.is_superuser:
            perms_needed.discard(ChipEntry._meta.verbose_name)
        return deleted, counts, perms_needed, protected


class KnackInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Knack
    extra = 0


class ChipEntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = ChipEntry
    extra = 0
    fields = ("created_at", "amount", "balance_after", "reason", "note", "actor", "session")
    readonly_fields = fields
    ordering = ("created_at", "id")
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Character)
class CharacterAdmin(WholeLedgerDeletion):
    list_display = (
        "name", "kind", "campaign", "player", "vocation", "status_label", "chips",
        "devil_rating",
    )  # fmt: skip
    list_filter = ("kind", "out_of_play", "fate", ("campaign", admin.RelatedOnlyFieldListFilter))
    search_fields = ("name", "vocation", "player__username", "campaign__name", "campaign__slug")
    list_select_related = ("campaign", "player")
    autocomplete_fields = ("campaign", "player")
    readonly_fields = ("chips", "created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("campaign", "kind", "player", "name", "vocation")}),
        ("Story", {"fields": ("description", "back_story"), "classes": ("collapse",)}),
        (
            "Attributes (rating, current)",
            {
                "fields": (
                    ("hand", "hand_current"), ("eye", "eye_current"),
                    ("guts", "guts_current"), ("heart", "heart_current"),
                )
            },
        ),
        ("Traits and Devil", {"fields": ("trait_1", "trait_2", "devil", "devil_rating")}),
        ("Chips", {"fields": ("chips",), "description": "Changed only through the ledger."}),
        ("Leaving play", {"fields": ("out_of_play", "fate", "epitaph", "left_play_at")}),
        ("Record", {"fields": ("created_at", "updated_at")}),
    )  # fmt: skip
    inlines = (KnackInline, ChipEntryInline)

    @admin.display(description="status")
    def status_label(self, obj: Character) -> str:
        return obj.status_label


@admin.register(Knack)
class KnackAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "rating", "character", "campaign")
    list_filter = ("rating",)
    search_fields = ("name", "character__name", "character__campaign__name")
    list_select_related = ("character__campaign",)
    autocomplete_fields = ("character",)

    @admin.display(ordering="character__campaign__name")
    def campaign(self, obj: Knack) -> str:
        return str(obj.character.campaign)


@admin.register(ChipEntry)
class ChipEntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The ledger, to look at: no adding, editing or deleting (R15)."""

    list_display = (
        "created_at", "character", "amount", "balance_after", "reason", "note", "actor",
        "session",
    )  # fmt: skip
    list_filter = ("reason", ("character__campaign", admin.RelatedOnlyFieldListFilter))
    search_fields = ("character__name", "note", "actor__username", "character__campaign__name")
    date_hierarchy = "created_at"
    list_select_related = ("character", "actor", "session")
    actions = None  # not even "delete selected"

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChipEntry]:
        return super().get_queryset(request).select_related("character__campaign")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class HistoryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """History, to look at, like the ledger: only the session services and jobs write it. A
    superuser may delete it, with the whole character, session or campaign it belongs to."""

    actions = None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)


@admin.register(AttributeChange)
class AttributeChangeAdmin(HistoryAdmin):
    """Difficulty taken, points restored, recoveries (R9, R16, R22)."""

    list_display = ("at", "character", "attribute", "before", "after", "reason", "session")
    list_filter = ("reason", "attribute")
    search_fields = ("character__name", "character__campaign__name", "conflict__title")
    list_select_related = ("character", "session__campaign")
    date_hierarchy = "at"


@admin.register(SessionSnapshot)
class SessionSnapshotAdmin(HistoryAdmin):
    """Each character as each session ended (the sheet's history chart)."""

    list_display = (
        "session", "character", "hand_current", "eye_current", "guts_current", "heart_current",
        "chips",
    )  # fmt: skip
    search_fields = ("character__name", "session__campaign__name")
    list_select_related = ("character", "session__campaign")
