"""Forms for the fight screens: starting a fight, and one small form per move.

Every move form carries the fight's ``version`` (a page made for an older fight is refused) and
an idempotency ``key`` (a double click sends the same key and changes nothing). ``move()`` turns
the cleaned form into the move. Forms check shapes (whole numbers, card notation, dice like
3d6); the engine checks the rules and says no in plain words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms

from campaigns.models import Campaign, GameSession
from cards.deck import FULL_DECK, Card, parse_card
from cards.dice import Opposed, opposed, parse_dice
from cards.errors import IllegalMove
from characters.models import Character
from characters.selectors import in_play as characters_in_play
from dustdevils.idempotency import key_field
from dustdevils.parsing import whole_number
from fights.engine import action_deck as engine
from fights.services import DEALER_MOVES, ExtrasSpec, JoinSpec, Move, TNRoll, cid_of
from tables.forms import GameMove

if TYPE_CHECKING:
    from conflicts.models import Conflict

CARD_CHOICES = [("", "—")] + [(c.text, c.text) for c in FULL_DECK]
WHOLE = dict.fromkeys(
    ("required", "invalid", "min_value", "max_value"),
    "Type the total as a whole number, 0 or more.",
)


class FightMoveForm(GameMove):
    """A fight's move as the kit's move form (``GameMove``): its version (required: a fight's
    page always sends it), key and basis; the Dealer's moves are the host's (``host_only``:
    they run the round, or change a combatant's standing). ``move(pid, now_ms)`` is the engine's
    move; a move about one combatant names it itself (``cid``, posted), so ``pid`` is not read:
    the services judge whether the mover plays it (a player only their own character)."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    dealer_moves = DEALER_MOVES
    host_refusal = "Only the Dealer can do that."

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.host_only = hasattr(cls, "move_type") and cls.dealer_only()

    def move(self, pid: str = "", now_ms: int = 0) -> Move:
        return self.move_type()  # type: ignore[no-any-return]


class CombatantForm(FightMoveForm):
    """A move about one combatant; the service checks it is yours to play."""

    cid = forms.CharField(max_length=20, label="Combatant")

    def move(self, pid: str = "", now_ms: int = 0) -> Move:
        return self.move_type(self.cleaned_data["cid"])  # type: ignore[no-any-return]


class QuicknessForm(CombatantForm):
    """R23/R27: a Quickness total typed in from real dice."""

    move_type = engine.Quickness
    total = forms.IntegerField(
        min_value=0, max_value=999, label="Quickness total", error_messages=WHOLE
    )
    bust = forms.BooleanField(required=False, label="Bust (more than half the dice show 1)")

    def move(self, pid: str = "", now_ms: int = 0) -> Move:
        d = self.cleaned_data
        return engine.Quickness(d["cid"], d["total"], bool(d["bust"]))


class RollQuicknessForm(CombatantForm):
    move_type = engine.RollQuickness


class RollGutsForm(CombatantForm):
    """R26, R27: the app rolls the surprised combatant's Guts check (TN 5)."""

    move_type = engine.RollGuts


class GutsForm(CombatantForm):
    """R26: a surprised combatant's TN 5 Guts check, from round 2."""

    move_type = engine.Guts
    total = forms.IntegerField(min_value=0, max_value=999, label="Guts total", error_messages=WHOLE)
    bust = forms.BooleanField(required=False, label="Bust")

    def move(self, pid: str = "", now_ms: int = 0) -> Move:
        d = self.cleaned_data
        return engine.Guts(d["cid"], d["total"], bool(d["bust"]))


class CardField(forms.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=CARD_CHOICES, required=False, **kwargs)

    def clean(self, value: Any) -> Card | None:
        text = super().clean(value)
        return parse_card(text) if text else None


class ActForm(CombatantForm):
    """R31/R26: act with the card up, or out of turn with the sleeved card or the red joker
    (``card``), optionally interrupting the action under way (the opposed roll's outcome, or
    both totals for the app to read)."""

    move_type = engine.Act
    text = forms.CharField(max_length=300, required=False, label="What you do")
    speed = forms.ChoiceField(
        choices=[(s.value, s.value) for s in engine.Speed], required=False, label="Speed"
    )
    cost = forms.IntegerField(min_value=0, max_value=20, required=False, label="Cards it costs")
    consecutive = forms.BooleanField(required=False, label="Consecutive")
    card = CardField(label="Card")
    interrupt = forms.BooleanField(required=False, label="Interrupt")
    opposed = forms.ChoiceField(
        choices=[("", "—")] + [(o.value, o.value) for o in Opposed], required=False,
        label="Opposed roll",
    )  # fmt: skip
    mine = forms.IntegerField(min_value=0, max_value=999, required=False, label="Your Quickness")
    theirs = forms.IntegerField(min_value=0, max_value=999, required=False, label="Their Quickness")

    def move(self, pid: str = "", now_ms: int = 0) -> Move:
        d = self.cleaned_data
        result: Opposed | None = Opposed(d["opposed"]) if d["opposed"] else None
        if d["interrupt"] and d["mine"] is not None and d["theirs"] is not None:
            result = opposed(d["mine"], d["theirs"])  # R26: the app reads the two totals
        return engine.Act(
            d["cid"], text=d["text"], speed=engine.Speed(d["speed"] or "short"), card=d["card"],
            cost=d["cost"] or 0, consecutive=bool(d["consecutive"]),
            interrupt=bool(d["interrupt"]), opposed=result,
        )  # fmt: skip


class SleeveForm(CombatantForm):
    move_type = engine.Sleeve
    card = CardField(label="Card")

    def move(self, pid: str = "", now_ms: int = 0) -> Move:
        return engine.Sleeve(self.cleaned_data["cid"], self.cleaned_data["card"])


class PassForm(CombatantForm):
    move_type = engine.Pass


class AbandonForm(CombatantForm):
    move_type = engine.Abandon


class LeaveForm(CombatantForm):
    move_type = engine.Leave


class CapForm(CombatantForm):
    """R23: the Dealer lifts a cap for supernatural aid (empty: no cap at all)."""

    move_type = engine.SetCap
    cap = forms.IntegerField(min_value=1, max_value=54, required=False, label="Card cap")

    def move(self, pid: str = "", now_ms: int = 0) -> Move:
        return engine.SetCap(self.cleaned_data["cid"], self.cleaned_data["cap"])


class DealForm(FightMoveForm):
    move_type = engine.DealRound


class EndRoundForm(FightMoveForm):
    move_type = engine.EndRound


class EndFightForm(FightMoveForm):
    move_type = engine.EndFight


class TNRollForm(FightMoveForm):
    """R32: roll dice against a TN to resolve an action (for a combatant, or the Dealer's)."""

    move_type = TNRoll
    cid = forms.CharField(max_length=20, required=False, label="For")
    dice = forms.CharField(max_length=12, label="Dice", initial="1d6")
    tn = forms.IntegerField(min_value=1, max_value=99, label="TN", initial=5)
    note = forms.CharField(max_length=200, required=False, label="For what")

    def clean_dice(self) -> str:
        try:
            return str(parse_dice(self.cleaned_data["dice"]))
        except IllegalMove as error:  # 0d6, 3d7: the roller's own words
            raise forms.ValidationError(str(error)) from error

    def move(self, pid: str = "", now_ms: int = 0) -> Move:
        d = self.cleaned_data
        return TNRoll(d["cid"] or None, d["dice"], d["tn"], d["note"])


class JoinForm(FightMoveForm):
    """Someone joins the fight under way: a character of the campaign, or a new line of extras
    ("2 more Pinkertons 2d6"), maybe surprised (R26). The Dealer's, from the join page."""

    move_type = JoinSpec
    character = forms.IntegerField(min_value=1, required=False, label="Who joins")
    extras = forms.CharField(
        max_length=160, required=False, label="Or a line of extras",
        help_text="How many, who, their Quickness dice — “2 more Pinkertons 2d6”.",
    )  # fmt: skip
    surprised = forms.BooleanField(required=False, label="Surprised")

    def clean_extras(self) -> ExtrasSpec | None:
        lines = parse_extras(self.cleaned_data["extras"])
        if len(lines) > 1:
            raise forms.ValidationError("One line of extras at a time.")
        return lines[0] if lines else None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        if (data.get("character") is None) == (data.get("extras") is None):
            raise forms.ValidationError(
                "Pick one character, or write one line of extras: one newcomer at a time."
            )
        return data

    def move(self, pid: str = "", now_ms: int = 0) -> Move:
        d = self.cleaned_data
        return JoinSpec(d["character"], d["extras"], bool(d["surprised"]))


ACTIONS: dict[str, type[FightMoveForm]] = {
    "quickness": QuicknessForm,
    "roll": RollQuicknessForm,
    "guts": GutsForm,
    "roll-guts": RollGutsForm,
    "deal": DealForm,
    "act": ActForm,
    "sleeve": SleeveForm,
    "pass": PassForm,
    "abandon": AbandonForm,
    "leave": LeaveForm,
    "cap": CapForm,
    "end-round": EndRoundForm,
    "end-fight": EndFightForm,
    "tn-roll": TNRollForm,
    "join": JoinForm,
}


# --- Starting a fight ----------------------------------------------------------------------------


class SessionChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        return f"Session {obj.number}"


POT_MAX = 1_000  # chips of one colour: a draw takes one of them all at random (R27)


def parse_pot(text: str) -> list[tuple[str, int]]:
    """ "white 10, red 5, blue 3" → [("white", 10), ("red", 5), ("blue", 3)] (R27)."""
    pot = []
    for part in text.replace(";", ",").split(","):
        words = part.split()
        if not words:
            continue
        count = whole_number(words[-1], maximum=POT_MAX) if len(words) > 1 else None
        if count is None:
            raise forms.ValidationError(
                f"Write each chip colour with its count (0 to {POT_MAX:,}), like “white 10”; "
                f"“{part.strip()[:40]}” is not."
            )
        pot.append((" ".join(words[:-1]), count))
    return pot


def parse_extras(text: str) -> list[ExtrasSpec]:
    """One line each: "3 Pinkertons 2d6" (a count, a name, optional Quickness dice)."""
    out = []
    for raw in text.splitlines():
        words = raw.split()
        if not words:
            continue
        size = whole_number(words[0]) if words[0].isdecimal() else 1
        if size is None:  # digits, but not a number a line of extras can have
            raise forms.ValidationError(
                f"“{raw.strip()[:40]}”: a line of extras has 1 to 50 members."
            )
        dice = "1d6"
        if len(words) > 1 and "d" in words[-1].lower() and words[-1][-1].isdigit():
            dice = words[-1]
            words = words[:-1]
        try:
            parse_dice(dice)
        except IllegalMove as error:
            raise forms.ValidationError(f"“{raw.strip()}”: {error}") from error
        if not 1 <= size <= 50:
            raise forms.ValidationError(f"“{raw.strip()}”: a line of extras has 1 to 50 members.")
        out.append(ExtrasSpec(" ".join(words), size, dice))
    return out


class FightCreateForm(forms.Form):
    """The Dealer starts a fight: who (PCs, NPCs, lines of extras), who is surprised (R26), the
    card cap (R23) and the Fate pot (R27)."""

    key = key_field()  # the form's idempotency key: twenty identical posts start one fight
    title = forms.CharField(max_length=160, required=False, label="Title")
    session = SessionChoiceField(
        queryset=GameSession.objects.none(), label="Session", empty_label=None
    )
    extras = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, label="Extras",
        help_text="One line each: how many, who, their Quickness dice — “3 Pinkertons 2d6”.",
    )  # fmt: skip
    surprised_extras = forms.BooleanField(required=False, label="The extras are surprised")
    cap = forms.IntegerField(
        min_value=1, max_value=54, initial=engine.DEFAULT_CAP, label="Card cap"
    )
    fate_pot = forms.CharField(
        max_length=200, label="Fate pot",
        initial=", ".join(f"{c} {n}" for c, n in engine.DEFAULT_FATE_POT),
        help_text="Chip colours and counts (R27).",
    )  # fmt: skip

    def __init__(
        self, campaign: Campaign, *args: Any, conflict: Conflict | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        sessions = campaign.sessions.filter(status=GameSession.Status.OPEN).order_by("-number")
        session_field = self.fields["session"]
        assert isinstance(session_field, forms.ModelChoiceField)
        session_field.queryset = sessions
        self.characters: list[Character] = sorted(
            characters_in_play(campaign), key=lambda c: (not c.is_pc, c.name)
        )  # R17: never one who left play
        # "This turns into a gunfight": the conflict's characters are ticked, nobody else (its
        # studs are unnamed hands: the Dealer adds them as extras).
        in_conflict = (
            {s.character_id for s in conflict.seats.all() if s.character_id} if conflict else set()
        )
        if conflict is not None:
            self.fields["title"].initial = f"{conflict.title}: the gunfight"
            if conflict.session_id and conflict.session_id in {s.pk for s in sessions}:
                self.fields["session"].initial = conflict.session_id
        for c in self.characters:
            self.fields[f"take_{c.pk}"] = forms.BooleanField(
                required=False, initial=c.pk in in_conflict if conflict else c.is_pc,
                label=f"{c.name} fights",
            )  # fmt: skip
            self.fields[f"surprised_{c.pk}"] = forms.BooleanField(
                required=False, label=f"{c.name} is surprised"
            )

    @property
    def rows(self) -> list[tuple[Character, forms.BoundField, forms.BoundField]]:
        return [(c, self[f"take_{c.pk}"], self[f"surprised_{c.pk}"]) for c in self.characters]

    def clean_fate_pot(self) -> list[tuple[str, int]]:
        return parse_pot(self.cleaned_data["fate_pot"])

    def clean_extras(self) -> list[ExtrasSpec]:
        return parse_extras(self.cleaned_data["extras"])

    def chosen(self) -> list[Character]:
        return [c for c in self.characters if self.cleaned_data.get(f"take_{c.pk}")]

    def surprised(self) -> set[str]:
        d = self.cleaned_data
        cids = {cid_of(c) for c in self.characters if d.get(f"surprised_{c.pk}")}
        if d.get("surprised_extras"):
            cids |= {f"x{n}" for n in range(1, len(d["extras"]) + 1)}
        return cids


class QuicknessDiceForm(forms.Form):
    """R27 (house rule): the Dealer sets a character's Quickness dice; empty: (Hand)d6."""

    quickness_dice = forms.CharField(max_length=8, required=False, label="Quickness dice")

    def clean_quickness_dice(self) -> str:
        text = self.cleaned_data["quickness_dice"].strip()
        if not text:
            return ""
        try:
            return str(parse_dice(text))
        except IllegalMove as error:
            raise forms.ValidationError(str(error)) from error
