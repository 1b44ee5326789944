"""One small form per table move (``ACTIONS``, by the name in the move's URL).

Every move form carries the table's ``version`` (a page made for an older table is refused) and
an idempotency ``key`` (a double click sends the same key and changes nothing). ``move()`` turns
the cleaned form into the engine's move. Forms check shapes (two attributes, card notation,
whole numbers); the engine checks the rules and says no in plain words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from django import forms

from cards.deck import FULL_DECK, Card, CardParseError, parse_card
from characters.models import Knack
from characters.rules import ATTRIBUTE_LABELS, ATTRIBUTE_SUITS, ATTRIBUTES
from conflicts.engine import conflict as engine
from conflicts.models import Seat
from conflicts.services import DEALER_MOVES, ConflictError
from dustdevils.idempotency import key_field
from dustdevils.parsing import an_id
from tables.forms import MoveForm as KitMoveForm

ATTRIBUTE_CHOICES = [(a, f"{ATTRIBUTE_SUITS[a]} {ATTRIBUTE_LABELS[a]}") for a in ATTRIBUTES]
CARD_CHOICES = [(c.text, c.text) for c in FULL_DECK]
DEVIL_CHOICES = [("0", "Not in play"), ("1", "For (adds)"), ("-1", "Against (takes away)")]


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


class MoveForm(KitMoveForm):
    dealer_moves = DEALER_MOVES

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
    pk = an_id(knack_id)
    if seat is None or seat.character_id is None or pk is None:
        raise ConflictError("Choose one of the character's own knacks.")
    knack = Knack.objects.filter(pk=pk, character_id=seat.character_id).first()
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


class NarrateForm(forms.Form):
    """The narration written down (issue 18): its words (a NUL character is refused) and the
    form's idempotency key, so a double click writes it once."""

    text = forms.CharField(required=False, strip=False, label="Narration")
    key = key_field()


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
