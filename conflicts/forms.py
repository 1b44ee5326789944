"""Forms for the conflict screens: setting a conflict up, and one small form per table move.

Every move form carries the table's ``version`` (a page made for an older table is refused) and
an idempotency ``key`` (a double click sends the same key and changes nothing). ``move()`` turns
the cleaned form into the engine's move. Forms check shapes (two attributes, card notation,
whole numbers); the engine checks the rules and says no in plain words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from django import forms

from campaigns.models import Campaign, GameSession
from characters.models import Character, Knack
from characters.rules import ATTRIBUTE_LABELS, ATTRIBUTE_SUITS, ATTRIBUTES
from characters.selectors import in_play as characters_in_play
from conflicts.engine import conflict as engine
from conflicts.engine.cards import FULL_DECK, Card, CardParseError, parse_card
from conflicts.models import Fight, Seat, Side
from conflicts.services import DEALER_MOVES, ConflictError, HandSpec

ATTRIBUTE_CHOICES = [(a, f"{ATTRIBUTE_SUITS[a]} {ATTRIBUTE_LABELS[a]}") for a in ATTRIBUTES]
CARD_CHOICES = [(c.text, c.text) for c in FULL_DECK]
DEVIL_CHOICES = [("0", "Not in play"), ("1", "For (adds)"), ("-1", "Against (takes away)")]


def problem_of(form: forms.Form) -> str:
    """The first thing wrong with a form, in plain words."""
    for name, errors in form.errors.items():
        label = "" if name == "__all__" or name not in form.fields else form.fields[name].label
        return f"{label}: {errors[0]}" if label else str(errors[0])
    return "Something in that form is missing."


class CardsField(forms.MultipleChoiceField):
    """Card notation in, ``Card`` values out (R1)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=CARD_CHOICES, **kwargs)

    def clean(self, value: Any) -> tuple[Card, ...]:
        texts = super().clean(value)
        try:
            return tuple(parse_card(t) for t in texts)
        except CardParseError as error:  # pragma: no cover - the choices already refuse it
            raise forms.ValidationError(str(error)) from error


# --- Moves -------------------------------------------------------------------------------------


class MoveForm(forms.Form):
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)

    move_type: ClassVar[type]

    @classmethod
    def dealer_only(cls) -> bool:
        return issubclass(cls.move_type, DEALER_MOVES)

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        return self.move_type()  # type: ignore[no-any-return]


class HandForm(MoveForm):
    """A move about one hand (the engine's ``pid``); the service checks it is yours to play."""

    pid = forms.CharField(max_length=20, label="Hand")

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        return self.move_type(self.cleaned_data["pid"])  # type: ignore[no-any-return]


class TwoAttributesField(forms.MultipleChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=ATTRIBUTE_CHOICES, widget=forms.CheckboxSelectMultiple, **kwargs)

    def clean(self, value: Any) -> tuple[str, str]:
        chosen = super().clean(value)
        if len(chosen) != 2:
            raise forms.ValidationError("choose exactly two (R11).")
        first, second = sorted(chosen, key=ATTRIBUTES.index)  # the sheet's order
        return (first, second)


class ProposeForm(HandForm):
    move_type = engine.Propose
    attributes = TwoAttributesField(label="Two attributes")
    trait = forms.BooleanField(required=False, label="My goal plays to a trait (+1)")

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        d = self.cleaned_data
        return engine.Propose(d["pid"], d["attributes"], trait=d["trait"])


class ApproveForm(HandForm):
    move_type = engine.Approve
    attributes = TwoAttributesField(label="Two attributes")
    trait = forms.BooleanField(required=False, label="Plays to a trait (+1)")
    devil = forms.TypedChoiceField(choices=DEVIL_CHOICES, coerce=int, initial=0, label="Devil")

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        d = self.cleaned_data
        return engine.Approve(d["pid"], d["attributes"], trait=d["trait"], devil=d["devil"])


class ExtraCardForm(HandForm):
    move_type = engine.SpendExtraCard


class AwardCardForm(HandForm):
    move_type = engine.AwardExtraCard


class DealForm(MoveForm):
    move_type = engine.Deal

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        return engine.Deal(salt="")  # the service draws the secret salt (R10)


class DrawForm(HandForm):
    move_type = engine.Draw
    discards = CardsField(required=False, label="Discards")
    extra_chip = forms.BooleanField(required=False, label="Spend a chip for one more (+1)")
    stand = forms.CharField(required=False)

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        d = self.cleaned_data
        if d["stand"]:
            return engine.Draw(d["pid"], ())
        if not d["discards"]:  # "Discard and draw" with nothing ticked is a slip, not a stand
            raise ConflictError("Tap the cards to discard first, or stand pat.")
        # R13: the discard limit is the knack the Dealer approved, held in the conflict.
        return engine.Draw(d["pid"], d["discards"], extra_chip=d["extra_chip"])


def own_knack(seat: Seat | None, knack_id: str) -> Knack:
    """R13, R19a: one of the seat's character's knacks, as rated now."""
    if seat is None or seat.character_id is None or not knack_id.isdigit():
        raise ConflictError("Choose one of the character's own knacks.")
    knack = Knack.objects.filter(pk=int(knack_id), character_id=seat.character_id).first()
    if knack is None:
        raise ConflictError("Choose one of the character's own knacks.")
    return knack


def knack_rating(seat: Seat | None, knack_id: str) -> int:
    """The chosen knack's rating (0 for none), for the discard advisor's what-if."""
    return own_knack(seat, knack_id).rating if knack_id else 0


class NameKnackForm(HandForm):
    """R13: the player names the knack their Draw plays to; the Dealer decides."""

    move_type: ClassVar[type] = engine.NameKnack
    knack = forms.CharField(max_length=20, label="Knack")

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        pid = self.cleaned_data["pid"]
        knack = own_knack(seats.get(pid), self.cleaned_data["knack"])
        return self.move_type(pid, knack.name, knack.rating)  # type: ignore[no-any-return]


class ApproveKnackForm(NameKnackForm):
    """R13: the Dealer approves the knack named, or changes it (also in advance)."""

    move_type: ClassVar[type] = engine.ApproveKnack


class AdviceForm(forms.Form):
    """The draw form's knack and chip, sent to the discard advisor as they change."""

    pid = forms.CharField(max_length=20)
    knack = forms.CharField(required=False)
    extra_chip = forms.BooleanField(required=False)

    def limit(self, seats: Iterable[Seat]) -> int:
        seat = next((s for s in seats if s.pid == self.cleaned_data["pid"]), None)
        try:
            rating = knack_rating(seat, self.cleaned_data["knack"])
        except ConflictError:
            rating = 0
        return rating + (1 if self.cleaned_data["extra_chip"] else 0)


class AwardRedrawForm(HandForm):
    move_type = engine.AwardRedraw
    card = forms.ChoiceField(choices=CARD_CHOICES, label="Card to redraw")

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        return engine.AwardRedraw(self.cleaned_data["pid"], parse_card(self.cleaned_data["card"]))


class FoldForm(HandForm):
    move_type = engine.Fold


class DealerFoldForm(MoveForm):
    move_type = engine.DealerFold


class CancelForm(MoveForm):
    move_type = engine.Cancel


class CallForm(MoveForm):
    move_type = engine.Call
    # R13: "call now" before every hand is settled; those hands stand pat.
    now = forms.BooleanField(required=False)

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        return engine.Call(now=self.cleaned_data["now"])


def chips_held(seat: Seat | None) -> int:
    """The chips a seat's character holds now (R16: a bid never exceeds them)."""
    return seat.character.chips if seat is not None and seat.character is not None else 0


class LayForm(HandForm):
    move_type = engine.ChooseLay
    cards = CardsField(label="Cards to lay")

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        return engine.ChooseLay(self.cleaned_data["pid"], self.cleaned_data["cards"])


class RevealForm(MoveForm):
    move_type = engine.Reveal


class BidForm(HandForm):
    move_type = engine.PlaceBid
    amount = forms.IntegerField(min_value=1, max_value=99, label="Chips")

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        pid = self.cleaned_data["pid"]
        return engine.PlaceBid(pid, self.cleaned_data["amount"], held=chips_held(seats.get(pid)))


class WithdrawBidForm(HandForm):
    move_type = engine.WithdrawBid


class CloseBidsForm(MoveForm):
    move_type = engine.CloseBids

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        # R16: each bidder's chips as they are now; a bid no longer payable lapses.
        return engine.CloseBids(held={pid: chips_held(seat) for pid, seat in seats.items()})


class AllocateForm(HandForm):
    move_type = engine.Allocate
    hand = forms.IntegerField(min_value=0, max_value=20, required=False)
    eye = forms.IntegerField(min_value=0, max_value=20, required=False)
    guts = forms.IntegerField(min_value=0, max_value=20, required=False)
    heart = forms.IntegerField(min_value=0, max_value=20, required=False)

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        d = self.cleaned_data
        allocation = {a: d[a] for a in ATTRIBUTES if d.get(a)}
        return engine.Allocate(d["pid"], allocation)


class RestoreForm(HandForm):
    move_type = engine.Restore
    attribute = forms.ChoiceField(choices=ATTRIBUTE_CHOICES, label="Attribute")

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        return engine.Restore(self.cleaned_data["pid"], self.cleaned_data["attribute"])


class OverrideForm(HandForm):
    move_type = engine.OverrideDifficulty
    source = forms.CharField(max_length=20, required=False, label="Hurt by")
    reason = forms.CharField(max_length=300, label="The narrator's decree")

    def move(self, seats: Mapping[str, Seat]) -> engine.Move:
        d = self.cleaned_data
        return engine.OverrideDifficulty(d["pid"], d["source"] or None, d["reason"])


class FinishForm(MoveForm):
    move_type = engine.Finish


ACTIONS: dict[str, type[MoveForm]] = {
    "propose": ProposeForm,
    "approve": ApproveForm,
    "extra-card": ExtraCardForm,
    "award-card": AwardCardForm,
    "deal": DealForm,
    "draw": DrawForm,
    "name-knack": NameKnackForm,
    "approve-knack": ApproveKnackForm,
    "award-redraw": AwardRedrawForm,
    "fold": FoldForm,
    "cancel": CancelForm,
    "dealer-fold": DealerFoldForm,
    "call": CallForm,
    "lay": LayForm,
    "reveal": RevealForm,
    "bid": BidForm,
    "withdraw-bid": WithdrawBidForm,
    "close-bids": CloseBidsForm,
    "allocate": AllocateForm,
    "restore": RestoreForm,
    "override": OverrideForm,
    "finish": FinishForm,
}


# --- Setting a conflict up ---------------------------------------------------------------------


class SessionChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        return f"Session {obj.number}"


@dataclass(frozen=True)
class SeatRow:
    """One character's line on the new-conflict form."""

    character: Character
    take: forms.BoundField
    goal: forms.BoundField
    side: forms.BoundField


class ConflictCreateForm(forms.Form):
    """The Dealer's set-up: title, Stakes (R18), who takes part and on which side (R14), the
    Dealer's stud hand (R12), the session, and an optional recovery conflict (R22)."""

    title = forms.CharField(max_length=160, label="Title")
    # The form's idempotency key (dustdevils.idempotency): a double click sets up one conflict.
    key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)
    stakes = forms.TypedChoiceField(
        choices=[(n, str(n) if n else "None") for n in range(4)], coerce=int, initial=0,
        label="Stakes (chips)",
    )  # fmt: skip
    stud = forms.TypedChoiceField(
        choices=[(0, "No stud hand"), (3, "3-card stud"), (5, "5-card stud"), (7, "7-card stud")],
        coerce=int, initial=5, label="The Dealer's stud hand",
    )  # fmt: skip
    stud_goal = forms.CharField(max_length=300, required=False, label="What the stud stands for")
    session = SessionChoiceField(
        queryset=GameSession.objects.none(), required=False, label="Session",
        empty_label="No session",
    )  # fmt: skip
    recovery_character = forms.ModelChoiceField(
        queryset=Character.objects.none(), required=False, label="Recovery conflict for",
        empty_label="Not a recovery conflict",
    )  # fmt: skip
    recovery_points = forms.IntegerField(
        min_value=1, max_value=20, required=False, label="Points to recover"
    )
    # R32: a conflict that settles an action of a fight's round (from the fight's console).
    fight_round = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)

    def __init__(
        self, campaign: Campaign, *args: Any, fight: Fight | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.fight = fight
        sessions = campaign.sessions.exclude(status=GameSession.Status.ENDED).order_by("-number")
        session_field = self.fields["session"]
        assert isinstance(session_field, forms.ModelChoiceField)
        session_field.queryset = sessions
        self.fields["session"].initial = next(
            (s.pk for s in sessions if s.status == GameSession.Status.OPEN), None
        )
        in_play = list(characters_in_play(campaign))  # R17: never one who left play
        chosen = [c for c in in_play if c.is_pc or c.is_important]
        self.characters = sorted(chosen, key=lambda c: (not c.is_pc, c.name))  # PCs first
        recovery_field = self.fields["recovery_character"]
        assert isinstance(recovery_field, forms.ModelChoiceField)
        recovery_field.queryset = campaign.characters.filter(
            pk__in=[c.pk for c in in_play if c.is_pc and recoverable(c)]
        )
        fighting = {s.character_id for s in fight.seats.all() if s.character_id} if fight else set()
        if fight is not None:
            self.fields["title"].initial = f"{fight.title}, round {fight.round}"
            self.fields["fight_round"].initial = fight.round
            self.fields["session"].initial = fight.session_id
        for c in self.characters:
            self.fields[f"take_{c.pk}"] = forms.BooleanField(
                required=False, initial=c.pk in fighting if fight else c.is_pc,
                label=f"{c.name} takes part",
            )  # fmt: skip
            self.fields[f"goal_{c.pk}"] = forms.CharField(
                max_length=300, required=False, label=f"{c.name}'s goal"
            )
            self.fields[f"side_{c.pk}"] = forms.ChoiceField(
                choices=Side.choices, initial="players" if c.is_pc else "dealer",
                label=f"{c.name}'s side",
            )  # fmt: skip

    @property
    def rows(self) -> list[SeatRow]:
        return [
            SeatRow(c, self[f"take_{c.pk}"], self[f"goal_{c.pk}"], self[f"side_{c.pk}"])
            for c in self.characters
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        recovering = data.get("recovery_character")
        if recovering is not None:
            points = data.get("recovery_points")
            if not points:
                raise forms.ValidationError("Say how many points the recovery would restore (R22).")
            if points > recoverable(recovering):
                raise forms.ValidationError(
                    f"{recovering.name} has only {recoverable(recovering)} point(s) to recover "
                    "(attributes at 0 don't recover, R17)."
                )
            data[f"take_{recovering.pk}"] = True
        if not any(data.get(f"take_{c.pk}") for c in self.characters if c.is_pc):
            raise forms.ValidationError("Tick at least one player character.")
        return data

    def stud_size(self) -> int:
        if self.cleaned_data.get("recovery_character") is not None:
            return engine.recovery_stud_size(self.cleaned_data["recovery_points"])  # R22
        return int(self.cleaned_data["stud"])

    def hands(self) -> list[HandSpec]:
        d = self.cleaned_data
        out = [
            HandSpec(character=c, side=d[f"side_{c.pk}"], goal=d.get(f"goal_{c.pk}", ""))
            for c in self.characters
            if d.get(f"take_{c.pk}")
        ]
        if self.stud_size():
            out.append(HandSpec(stud_size=self.stud_size(), side="dealer", goal=d["stud_goal"]))
        return out

    def recovery(self) -> tuple[Character, int] | None:
        c = self.cleaned_data.get("recovery_character")
        return (c, self.cleaned_data["recovery_points"]) if c is not None else None


def recoverable(character: Character) -> int:
    """R22/R17: Difficulty that recovery can give back (attributes at 0 don't recover)."""
    return sum(
        character.rating(a) - character.current(a) for a in ATTRIBUTES if character.current(a) > 0
    )
