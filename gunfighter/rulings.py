"""The Gunfighter's readings on the Rulings page (``tables.rulings``, through its declaration, from
``GunfighterConfig.ready``): how the app reads seed 003, and every reading where it is silent,
with the seed's own words beside them. Code comments and tests cite these ids."""

from __future__ import annotations

from tables.rulings import Ruling

GROUP = "The Gunfighter"

RULINGS = (
    Ruling(
        "GF1", "Two to six gunfighters", GROUP,
        "Two to six play, one per character deck: Gunslinger (black), Outlaw (orange), Veteran "
        "(red), Drunk (yellow), Lawman (blue), Reverend (white). Each starts with three lives "
        "and five covert cards.",
        seed_words="6 Character Decks of 30 showdown cards … Each player takes three wooden "
        "chips to represent their health.",
        reading="The seed gives no smallest table; a duel needs two, so the app starts a game "
        "for two or more.",
    ),
    Ruling(
        "GF2", "Random decks, or chosen if all agree", GROUP,
        "By default the app deals the decks at random (the server's cryptographic randomness). "
        "Whoever starts the game may tick that everyone agreed to choose: then each gunfighter "
        "picks a free deck on their phone, and until all have, any of them can tap \u201cDraw at "
        "random instead\u201d \u2014 they do not agree, and the app deals every deck at random.",
        seed_words="Players may choose which Gunfighter they get to play as if all players "
        "agree to that.",
        reading="Agreement is said out loud at the table; a single tap against it is enough to "
        "fall back to the seed's first way.",
    ),
    Ruling(
        "GF3", "Whose mat first", GROUP,
        "Who saw a western last is asked once, when the game starts, and the mats are reviewed "
        "clockwise from them every showdown. Once they are out, the review starts with the "
        "next gunfighter after them who was in the showdown. Every mat of the showdown is "
        "reviewed, even after someone falls: a fallen gunfighter's shots still land.",
        seed_words="Starting with the player who has most recently seen a western movie take "
        "turns examining what happened to that gunfighter",
        reading="The seed does not say whether the first reviewer changes between showdowns, "
        "nor which way the turns go: the app keeps the first one and goes clockwise. \u201cThe "
        "showdown is considered over\u201d when someone is killed is read as: no further "
        "showdown cards are played, but the mats already played on are still read.",
    ),
    Ruling(
        "GF4", "The showdown clock", GROUP,
        "Each gunfighter taps \u201cBandolier set\u201d, then plays a covert card or taps "
        "\u201cno covert card\u201d (R38); then whoever saw a western last starts the clock "
        "(R39), on every phone at once: a moment to look up, 5 seconds of countdown, 5 seconds "
        "of play, "
        "with a beep and a vibration at each edge. Covert cards and \u201cBandolier set\u201d "
        "are refused once it started; mats are entered only once it hit zero.",
        seed_words="A showdown is a 10 second period of time in which the first 5 seconds are a "
        "countdown and the remaining 5 seconds are when cards from the duelists' bandoliers … "
        "may be played.",
        reading="The seed asks for a timer app; the clock starts 1.5 seconds after the tap, on "
        "the server's clock, so that every phone hears of it before it starts.",
    ),
    Ruling(
        "GF5", "Who dealt the last point", GROUP,
        "Each gunfighter enters the damage their own mat shows, per gunfighter who dealt it "
        "(their own cards too). If it kills and several dealt damage, they say who dealt the "
        "last point (the topmost damaging card); that gunfighter takes the fallen one's covert "
        "cards, and the app moves the count. Killed by their own card, nobody claims them: "
        "they go to the covert discard pile.",
        seed_words="The player who killed (dealt the last point of damage) to the now-dead "
        "gunfighter is allowed to claim all of that gunfighter's remaining covert cards.",
        reading="The seed does not say who claims when the last point is the fallen one's "
        "own; the app gives them to no one. Nor does it except a killer who fell earlier in "
        "the same review: they still claim them, and leave the game with them.",
    ),
    Ruling(
        "GF6", "The app does not read the cards", GROUP,
        "The mats are read at the table, card by card, negations included; the app takes the "
        "damage that is left: a whole number from 0 to 30 per gunfighter. Lives never go "
        "below 0, and damage is kept for the whole game.",
        seed_words="If you are ever confused, simply read the card directions!",
        reading="The seed lists no card: the app counts damage, it does not resolve cards.",
    ),
    Ruling(
        "GF7", "Rebuilding the decks", GROUP,
        "Before a showdown, if any gunfighter still standing cannot draw six showdown cards, "
        "the app says the decks must be rebuilt: every gunfighter shuffles their discard pile "
        "and pocket back into their deck, and the counts go back to 30 before the six are drawn.",
        seed_words="If any player is unable to draw 6 cards, all players will shuffle any "
        "cards from their bandolier, pocket, and discard pile together to create a new deck",
        reading="One passage has only that gunfighter rebuild (\u201creshuffle your discard "
        "pile and your pocket\u201d); two say all players: the app follows the two.",
    ),
    Ruling(
        "GF8", "Covert cards are never dealt again", GROUP,
        "Each gunfighter may play one covert card before each showdown (the count goes down, "
        "the card goes to the shared covert discard pile); a kill brings the fallen one's. The "
        "app deals no more after the first five.",
        seed_words="Each player is dealt a hand of 5 covert (GREEN) cards. … each gunfighter "
        "is now free to play one covert card.",
        reading="The seed never says that covert cards are drawn again, so the app never deals "
        "the 42 cards' rest. The seed plays them \u201conce each gunfighter's bandolier is "
        "laid out\u201d: the app refuses one before every bandolier is set, and the clock "
        "waits for every covert card or \u201cno covert card\u201d (R38).",
    ),
    Ruling(
        "R38", "The Gunfighter, settled", GROUP,
        "The readings GF1\u2013GF12 stand, with these changes. Covert cards come after the "
        "bandoliers: one is refused, in plain words, until every living gunfighter's bandolier "
        "is set. The clock waits for everyone: it starts once every living gunfighter has "
        "played their covert card or tapped \u201cno covert card\u201d (one with no covert "
        "card left has said so); the host may start it anyway for a phone that has gone quiet, "
        "and the timeline says so. A kill ends the showdown after the reviews: every mat is "
        "still reviewed, then the dead are eliminated, together, and each killer claims the "
        "covert cards the fallen one held then. Claiming them and pocketing left-over cards are "
        "taken by default; the app records each mat's damage, not each card: cards played too "
        "early or too late are the table's to judge.",
        seed_words="Once each gunfighter's bandolier is laid out, each gunfighter is now free "
        "to play one covert card. \u2026 Once the showdown is over and each player has "
        "reviewed what has happened to their gunfighter, 3 things can occur",
        reading="The seed's order is kept on the phones: bandoliers, covert cards, the clock; "
        "the dead leave once the review is done, not in the middle of it.",
    ),
    Ruling(
        "R39", "Who starts the clock and reviews first", GROUP,
        "It does not change between showdowns: the one named at the start as having seen a "
        "western last starts the clock and reviews their mat first, every showdown; once they "
        "are out, the next one standing after them clockwise.",
        seed_words="Starting with the player who has most recently seen a western movie take "
        "turns examining what happened to that gunfighter",
        reading="One name, asked once, for both: the seed's timer needs someone to start it.",
    ),
    Ruling(
        "GF9", "The pocket", GROUP,
        "At their mat's review each gunfighter says how many cards were left in their "
        "bandolier: they go to the pocket, up to six; the rest are discarded with the cards "
        "played. Swapping pocket cards with the six just drawn changes no count.",
        seed_words="you may have up to 6 cards in your pocket. If a player already has 6 "
        "cards in their pocket and they end the showdown with cards left in their bandolier "
        "the cards from their bandolier are discarded instead of being pocketed.",
        reading="Showdown cards played \u201cbefore a showdown begins\u201d come from the six "
        "drawn, so they count as played. The seed says what happens to a full pocket; to one "
        "with room for some of the cards left, the app reads \u201cup to 6\u201d: it fills "
        "up to six and the rest are discarded.",
    ),
    Ruling(
        "GF10", "The last ones fall together; nothing is private", GROUP,
        "The last gunfighter standing wins; if the last ones fall in the same showdown, nobody "
        "is left standing and the app says so. Every count the app keeps is public: the covert "
        "cards and bandoliers stay on the table and in hands, where the app never sees them.",
        seed_words="Objective: To be the last gunfighter standing. … You may look at your hand "
        "but do not show other players.",
        reading="The seed does not say what happens when nobody survives: no winner.",
    ),
    Ruling(
        "GF11", "A mat or a covert card entered wrong is taken back", GROUP,
        "Whoever entered their mat wrong taps \u201ctake it back\u201d: the table is as it "
        "was before that mat, and it is reviewed again \u2014 with every mat entered after it, "
        "even one that eliminated someone or ended the game. It can be taken back until the "
        "table's next move after the review (the next showdown's first tap); a gunfighter "
        "who is out takes back only the last mat entered, if it is theirs. A covert card "
        "tapped by mistake goes back to the hand, until the clock starts.",
        seed_words="If you are ever confused, simply read the card directions!",
        reading="The seed's mats are read aloud at the table, so a mistake is put right at "
        "once; the app lets the table do the same with what it typed.",
    ),
    Ruling(
        "GF12", "A phone that is gone", GROUP,
        "The table's host can make any gunfighter's move for them (choose a deck, set the "
        "bandolier, play or take back a covert card, start the clock, enter or take back "
        "their mat), for a phone that is "
        "flat, lost or left behind; the timeline says who acted for whom. No other gunfighter "
        "can.",
        seed_words="Players must agree that everyone's play mats are within easy reach of all "
        "players",
        reading="The seed has no phones: the cards and mats stay on the table, where the host "
        "can read a mat for a gunfighter as well as they can.",
    ),
)  # fmt: skip
