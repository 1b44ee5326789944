"""Export and import of whole campaigns as JSON files (backups, moving a table elsewhere).

The app's functions are in ``exchange.api`` (this package is a Django app: its ``__init__``
imports no model).

The file (UTF-8 JSON; ``campaign_export`` builds it, ``campaign_import`` reads it)::

    {
      "format": "dustdevils.campaign", "version": 3,   # versions 1 and 2 are read too
      "campaign": {"name", "slug", "setting", "pitch", "winner_bonus": bool,
                   "kind": "one_off" (only for a one-off table)},
      "members": [{"username", "role": "dealer" | "player"}],
      "characters": [{
        "key": "gentleman-jim-harris",          # stable id within the file
        "name", "kind": "pc" | "npc", "player": username | null,
        "vocation", "description", "back_story",
        "attributes": {"hand": {"rating": 0-5, "current": 0-rating}, "eye", "guts", "heart"},
        "traits": [at most two], "knacks": {name: 1-4},
        "devil": {"description", "rating": 1-3 | null},
        "chips": {"current": n, "ledger": [{"amount": ±n, "reason", "note",
                  "actor": username | null, "at": ISO 8601, "session": number | null}]},
        "out_of_play": bool, "fate": "" | "dies" | ..., "epitaph", "left_play_at": ISO | null,
        "secrets": the Dealer's (non-player characters only; the export is the Dealer's),
        "approved": bool (false: a player's new character waiting for the Dealer; default true)
      }],
      "links": [{"npc": key, "pc": key, "devil_touched", "notes"}],     # Wanted!
      "notes": [{"title", "body"}],                                        # in order
      "sessions": [{"number", "date": "YYYY-MM-DD" | null, "status", "notes",
                    "started_at": ISO | null, "ended_at": ISO | null,
                    "devil_ratings": {character key: 1-3},                 # R21
                    "log": [{"at": ISO, "actor": username | null, "text"}]}],  # since 2
      "conflicts": [{"title", "phase", "version", "session": number | null,   # since 2
                     "previous": index of an earlier conflict | null,      # R20 Deal again
                     "created_at": ISO, "abandoned_at": ISO | null,
                     "state": the engine's state (conflicts.engine.serial): whole once the
                              conflict is over; while it runs, sealed (see below),
                     "seats": [{"pid", "character": key | null, "goal"}],
                     "timeline": [{"seq", "version", "at": ISO, "actor": username | null,
                                   "text"}],
                     "snapshots": [{"version", "state"}]}],   # the replay; optional
      "games": {                                                    # since 3
        "fights": [{"title", "session": number | null, "phase", "version", "created_at",
                    "state": sealed (fights.engine.seal),
                    "seats": [{"cid", "kind": "pc" | "npc" | "extras", "character": key | null,
                               "name", "size"}],
                    "timeline": [{"seq", "version", "at", "actor", "text", "round"}]}],
        "gunfights" | "saloons" | "showdowns": [{"title", "phase", "version", "created_at",
                    "state": sealed (<game>.engine.seal; The Gunfighter's is whole, GF10),
                    "seats": [{"pid", "user": username, "position"}],
                    "timeline": [{"seq", "version", "at", "actor", "text", and the game's own:
                                  a saloon's "deal", "kind", "pid", "said", "struck"; Saloon
                                  Showdown's "kind", "pid"; The Gunfighter's "showdown",
                                  "pid"}]}]
      }
    }

A version 2 file may carry ``fights``, the fights' public record (title, session, rounds, over,
public timeline), which importing never brought back; it is read and left aside.

Optional fields, written only when there is something to write: a character's
``quickness_dice`` (R27, set by the Dealer: imported).

Conflicts (version 2) come back: the engine's state, checked by the engine's own loader and
written back in its shape (the phase must be the state's, every hand has one seat), seats
pointing at the file's characters, the timeline, "Deal again" links, and a finished conflict's
replay states if the file has them (without them it simply has no replay). Only the Dealer can
export (a player gets 403, an outsider 404). A conflict no longer points at the fight it
settled (R32), nor a fight at the conflict it broke out of. Each engine state is written on one
line.

Secrets never leave a running table (R10, issue 28; the Rulings page says it too). A finished
conflict (done, folded, cancelled) is written whole: R10 makes all of its cards public. A
conflict still being played is written *sealed* (``conflicts.engine.restore.sealed``): each
card nobody may see yet is ``"??"`` — how many, never which — and there is no deck order, no
salt, no commitment and no replay; only the lays on the table after the reveal stay. Bringing
one back (import or restore) deals every hidden card again from a fresh shuffle into the same
places, under a new salt and commitment, whatever the file says they are (``"??"``, or cards
from an older file or a forged one), and writes a timeline line saying so
(``conflicts.engine.restore.redealt``): no file can choose a card in a hand or the deck.

Every other game (version 3, issue 37) — fights, Death Enters the Saloon, Saloon Showdown and
The Gunfighter — is written by its own codec (``tables.codecs``, each game's ``codec.py``,
found by ``autodiscover_modules``; ``exchange.games``), in every phase, with its seats, its
public timeline and its state sealed the same way whether it is finished or running: a fight's
unplayed cards, sleeves and stock are "??" and a Fate draw not yet revealed is left out (R30);
a saloon hand's faces are "??" (only the public cards are named, in the deck's order); Saloon
Showdown keeps who entered a count, never the number (SS15); The Gunfighter keeps nothing
private (GF10) and is written whole. Bringing a running game back deals its hidden cards again
from a fresh shuffle (a fight's hands only with cards still to come up, a saloon hand never a
pair) or has its counts entered again, whatever the file says, and writes a timeline line
saying so (a fight also tells each player, on a secret line, the hand dealt to them). Each
game written is shown to every kind of viewer in the import's transaction, and the import's
``ImportResult.games`` says, game by game, what was done. A game's seat is a member by
username: one not seated here leaves the seat empty (said so); a fight's combatant is a
character of the file (its id in the state is renamed to the character's new one).

Every state a file brings is read by the engine's loader, which checks each value the screens
read (``conflicts.engine.serial``); then, in the import's own transaction, every conflict's
panels are made for every kind of viewer — the Dealer, each player with a hand, a player
watching, the shared screen — and a finished one's replay at every step
(``exchange.showing``). A state some page cannot show refuses the file: nothing is written.

Besides the fields of the first sketch of the format, the file carries ``left_play_at``,
``started_at`` and ``ended_at``, so a backup keeps them. It does not carry invitations (their
links are this server's secrets), who set each session's Devil rating, when rows were made,
which conflict a ledger row came from, nor the conflicts' move keys (a double-click guard).

Character keys are made from the names ("clara-hardin"; a second "Jim" is "jim-2") and every
list is written in a fixed order, so export → import → export gives the same file: exactly,
when the slug is free where the file is imported (otherwise ``campaign.slug`` differs), but for
a running conflict, which comes back dealt again: one more timeline line and version.

The file's structure (fields, types, lengths, ranges) is a JSON Schema, draft 2020-12:
``exchange/schema/campaign.schema.json``, which any JSON Schema tool can check a file with; a
character's ``secrets`` and ``approved`` may be left out (the first files had neither): none,
and approved.

Every list has a maximum, stated in the schema (``maxItems``, ``maxProperties``): 100 members,
300 characters with 20 knacks each, 1,000 Wanted! links, 500 notes, 500 sessions with 300 Devil
ratings and 1,000 log lines each, 300 conflicts with 12 seats, 2,000 timeline lines and 2,000
replay states each, 300 fights with 2,000 lines each; the chip ledgers hold
``IMPORT_MAX_LEDGER_ROWS`` (5,000) rows in all, and the file ``IMPORT_MAX_BYTES`` (16 MB). A
list beyond its maximum is refused first, by name, before anything else is checked
(``notes: holds 100,000; this table imports at most 500``); a JSON number NaN or Infinity is
refused as the file is read. The pages show those lists a page at a time
(``dustdevils.paging``), so no page's time grows with a campaign's size.

Importing checks the whole file before writing anything and refuses it, writing nothing, with
messages that name the place: ``characters[2].attributes.hand.rating: must be 0–5, got 7``.
First its structure against the schema (``exchange.structure``); once that is right, what a
schema cannot say (``exchange.checks``): keys that must point at a character, the ledger, times,
each conflict's state as its engine reads it.
Members are matched by username: one without an account here is left out and their
characters go to the importing Dealer (the returned warnings say so). The chip ledger is kept
as written (R15): its rows must add up to ``chips.current``, never going below zero.
"""
