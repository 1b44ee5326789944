"""The three tables of "Death Enters the Saloon", as the seed prints them (seed 000).

Death Enters the Saloon copyleft (ↄ) 2023-2024 Greta Bellagamba and Daniele Di Rubbo, published
under the Creative Commons Attribution-ShareAlike 4.0 International License. The texts below are
quoted from it unchanged (the body's wording where the handout's differs: table 2's 5 reads
"Who witnessed this among the people they care about?"); the app shows ``CREDIT`` wherever a
table is shown.
"""

from __future__ import annotations

from cards.deck import Card, parse_card

CREDIT = (
    "Tables from “Death Enters the Saloon” by Greta Bellagamba and Daniele Di Rubbo, "
    "copyleft (ↄ) 2023-2024, CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/)."
)
LICENSE_URL = "https://creativecommons.org/licenses/by-sa/4.0/"

# Table 1: Saloon Habitués (face card → archetype).
TABLE_1: dict[Card, str] = {
    parse_card(text): archetype
    for text, archetype in (
        ("K♥", "Doctor"),
        ("Q♥", "Prostitute"),
        ("J♥", "Slacker or Gambler"),
        ("K♦", "Mayor"),
        ("Q♦", "Teacher"),
        ("J♦", "Cowboy/Cowgirl"),
        ("K♣", "Judge"),
        ("Q♣", "Saloon Owner"),
        ("J♣", "Sheriff"),
        ("K♠", "Reverend"),
        ("Q♠", "Fortune Teller"),
        ("J♠", "Undertaker"),
    )
}

# Ranks as the cards carry them: 2–10, and 14 for the ace.
RANK_LABEL = {14: "A", **{r: str(r) for r in range(2, 11)}}

# Table 2: "Point the Finger at the Doomed" (a pair was discarded).
TABLE_2: dict[int, str] = {
    14: "You killed *** in cold blood. Why?",
    10: "You killed someone close to ***. What relationship did they have? Why did you do it?",
    9: "You tried to kill ***. Why? What went wrong?",
    8: "You physically hurt ***. How?",
    7: "You hurt ***’s feelings. How?",
    6: "You destroyed something that belonged to ***. What was it? What did it mean to them?",
    5: "You publicly humiliated ***. How? Who witnessed this among the people they care about?",
    4: "You’ve discredited ***. What false rumour did you spread? How did the community react?",
    3: "You stole something from ***. What? What was it worth to you? What was it worth to them?",
    2: "You feel envious of ***. Why?",
}

# Table 3: "Clear Your Name in the Eyes of Death" (the card drawn made no pair).
TABLE_3: dict[int, str] = {
    14: "I don’t deserve death, because I saved the life of ***…",
    10: "I do not deserve death, because I defended *** from an injustice…",
    9: "I am a good person because I testified in favour of *** by dropping a false accusation…",
    8: "I’m a good person because I helped *** get back on their feet when they were on the "
    "breadline…",
    7: "My life must be spared because *** waits for me at home…",
    6: "If I died, this community would be lost, because…",
    5: "I cannot die today because I must keep a promise made to ***…",
    4: "The divine entity I believe in will not let me die because…",
    3: "I don’t deserve to die, because *** told me that I have a natural talent for … that must "
    "not go to waste.",
    2: "I won’t die just today, because today…",
}

TABLE_TITLES = {
    1: "Table 1: Saloon Habitués",
    2: "Table 2: “Point the Finger at the Doomed”",
    3: "Table 3: “Clear Your Name in the Eyes of Death”",
}

RITUAL = "The gaze of Death rests on you."
YEAR_AND_A_DAY = (
    "It has been a year and a day since Death came to the saloon, and now they appear again, "
    "ready to take someone else away."
)


def archetype_of(card: Card) -> str:
    return TABLE_1[card]


def prompt(table: int, rank: int) -> str:
    return (TABLE_2 if table == 2 else TABLE_3)[rank]


def needs_subject(table: int, rank: int) -> bool:
    """Whether the cue has a "***" gap to fill with a character."""
    return "***" in prompt(table, rank)


def filled(table: int, rank: int, subject: str) -> str:
    """The cue with "***" replaced by ``subject`` (e.g. "the Sheriff")."""
    text = prompt(table, rank)
    return text.replace("***", subject) if subject else text
