"""The Rulings page's text: how the app reads each unclear rule, in plain words for the table,
with an id (R1, R2, …) that code comments, tests and the page all cite; each declared game adds
its own readings (``register``). docs/rulings.md is written from it (``manage.py rulings_doc``)."""

from __future__ import annotations

from tables.rulings import Ruling

CARDS, CONFLICT, SESSIONS, ACTION, SALOON, CHARACTERS = (
    "Cards and hands",
    "The conflict",
    "Sessions",
    "The action deck (combat rounds)",
    "Death Enters the Saloon",
    "Characters",
)

RULINGS: tuple[Ruling, ...] = (
    Ruling(
        "R1", "Notation", CARDS,
        "Cards are written rank then suit: 2 to 10, J, Q, K, A, and the suits ♣ ♦ ♥ ♠. The two "
        "jokers are RJ (red) and BJ (black). You can type T for a ten or C D H S for the suits; "
        "the app always answers with the symbols.",
    ),
    Ruling(
        "R2", "Suits", CARDS,
        "Clubs are lowest, then diamonds, hearts and spades. Each suit is an attribute: ♠ Hand, "
        "♦ Eye, ♣ Guts, ♥ Heart. That is where Difficulty lands.",
    ),
    Ruling(
        "R3", "Categories", CARDS,
        "Standard poker, highest first: five of a kind (jokers only), royal flush, straight "
        "flush, four of a kind, full house, flush, straight, three of a kind, two pair, pair, "
        "high card. Straights and flushes need all five cards. An ace is high, or low in "
        "A-2-3-4-5, where it counts as a 1 for everything, narration too.",
        reading=(
            "The rulebook's list stops at the royal flush. Jokers are wild, so five of a kind "
            "can happen; poker ranks it above every other hand, and so does the app."
        ),
    ),
    Ruling(
        "R4", "The lay", CARDS,
        "You lay at most five cards; with fewer than five you lay them all. When the Dealer "
        "calls, the app puts your best poker lay first and offers the other lays worth "
        "thinking about — for instance two pair that keeps a high king for the narration, or "
        "a lay that would deal more Difficulty. You can also pick any five cards yourself.",
    ),
    Ruling(
        "R5", "Jokers are wild, but have no suit of their own", CARDS,
        "A joker becomes whatever rank makes your best hand, so five of a kind is possible, and "
        "takes a suit only to finish a flush. A flush never holds the same rank twice. For "
        "every suit comparison a joker ranks below clubs, and it never adds a suit to "
        "Difficulty.",
    ),
    Ruling(
        "R6", "Comparing two lays", CARDS,
        "Category first; then the ranks that make the category; then the other cards, highest "
        "first (a longer lay beats an otherwise equal shorter one); then suits card by card; "
        "last, a red joker beats a black one. Two different lays never tie.",
        reading=(
            "The rulebook does not say how two high-card hands compare. The app compares them "
            "card by card, highest first, as poker does, and only then by suit."
        ),
    ),
    Ruling(
        "R7", "The combination", CARDS,
        "The cards that make the hand's category: all five for straights, flushes, full houses "
        "and five of a kind; four for four of a kind and two pair; three for three of a kind; "
        "two for a pair; the one highest card for high card.",
    ),
    Ruling(
        "R8", "Narration (the fastest tongue)", CARDS,
        "Whoever laid the single highest card narrates, whether or not they won. Only laid "
        "cards count, and folded hands don't. Rank decides, then suit; a joker counts as the "
        "rank it played and below clubs; between two such jokers red wins.",
    ),
    Ruling(
        "R9", "Difficulty", CARDS,
        "A beaten character loses one attribute point per card of the combination that beat "
        "them. Their player spreads the points over the attributes whose suits appear among "
        "that combination's real (non-joker) cards; if it has none, any attribute will do. "
        "Nothing goes below 0 and points with nowhere to go are lost. The Dealer places an "
        "NPC's points. The app fills in a sensible default you can change.",
    ),
    Ruling(
        "R10", "The deck", CONFLICT,
        "Every conflict gets a fresh 54-card deck, shuffled on the server with the operating "
        "system's cryptographic randomness. Your cards are sent only to you (and to the "
        "Dealer). Discards go to a pile; when the deck runs dry the pile is shuffled into a new "
        "deck — never the cards in hands. When the cards are dealt the app shows a fingerprint "
        "(SHA-256) of the shuffled order; when the conflict ends it shows the secret salt and "
        "the order, so anyone can check the deck was not changed along the way. That order is the "
        "full deal: with the log's \"Dealt\" line anyone can rebuild every hand, a folded one "
        "too. The app chooses this openly — once a conflict is over, all of its cards are public.",
        reading=(
            "Campaign files (export, import, restore; issue 28): the rules say nothing of backups, "
            "so the app keeps this ruling's promise through them. A file never holds a running "
            "conflict's hidden cards — not even the Dealer's file: each one is written \"??\" "
            "(how many, never which), with no deck order and no salt; only the cards already "
            "public (the lays on the table after the reveal) stay. When a file brings a running "
            "conflict back, every hidden card is shuffled afresh on the server and dealt again "
            "into the same places — each hand keeps its size, the deck and the discard pile "
            "theirs — under a new secret salt and a new fingerprint, and the timeline says so. "
            "So no file can choose a card, and the check at the end is against the new "
            "fingerprint. A finished conflict comes back as it was: all of its cards are public."
        ),
    ),
    Ruling(
        "R11", "The Deal", CONFLICT,
        "Your cards: the two attributes the Dealer approves (as they are now, after Difficulty) "
        "+ 1 if your goal plays to one of your traits, ± your Devil rating if the Dealer says "
        "your Devil is in play (for or against you), + 1 if you spend a chip for an extra card "
        "(once a hand), + 1 for each extra card the Dealer awards a Dealer hand, and, only if "
        "the Dealer switched the house rule on, + 1 for winning the last hand of a continued "
        "fight (a character's hand: the Dealer's stud keeps its size, R12). Never fewer than "
        "none. An attribute at 0 is replaced as the Road to Hell says.",
        house_rule=True,
    ),
    Ruling(
        "R12", "The Dealer's hands", CONFLICT,
        "Hazards and minor characters share one stud hand of 3, 5 or 7 cards that never draws. "
        "An important NPC (one with a Devil) gets a hand of its own, dealt and drawn just like "
        "a player's.",
    ),
    Ruling(
        "R13", "The Draw", CONFLICT,
        "Discard up to the rating of one knack that fits what you are doing, and draw as many. "
        "A chip buys one more (once a hand); on the Road to Hell you add your Devil rating. You "
        "choose all your discards first, then the new cards come at once. You name the knack "
        "and the Dealer approves it (or changes it), as with the Deal's attributes. The Dealer "
        "calls once every hand has drawn or stood; calling earlier is an explicit \u201ccall "
        "now\u201d, and the hands that had not drawn stand pat, said in the timeline.",
        reading=(
            "The odds meter and the discard advisor beside your hand are a help, not a rule. "
            "They give the chance that your lay is the best at the table (the winner, R14), "
            "so they reckon with every other hand still in play, your own side's too, and say "
            "which. Each of those hands counts as it is now: its size now, no draw foreseen "
            "(a hand that has yet to draw may still change), its best five laid. Its cards "
            "you cannot see are dealt at random, thousands of times over, from the cards you "
            "cannot see: never your own hand, your discards or any card you can see, and "
            "never a card you may not see (R10). The advisor weighs every discard your limit "
            "allows against those same hands."
        ),
    ),
    Ruling(
        "R14", "Sides", CONFLICT,
        "Everyone sits on a side: by default the players on one, the Dealer's hands on the "
        "other, but the Dealer can seat people differently for a fight between players. The "
        "best lay wins. Anyone an opponent beat takes Difficulty from the best opposing lay "
        "(stud hands take none). The narrator can decree otherwise — even that the winner gets "
        "hurt — and the Dealer records that, with the reason, in the timeline.",
        reading=(
            "The rulebook speaks of the loser. The app reads \u201cbeaten\u201d per hand: "
            "anyone whose lay an opponent's lay beats takes Difficulty, even on the winning "
            "side (the winner's partner who laid less than the other side)."
        ),
    ),
    Ruling(
        "R15", "Chips", CONFLICT,
        "Every chip earned or spent is in the ledger, with the reason. Players spend one for an "
        "extra card, an extra draw (each once a hand), a fold, or a narration bid. The Dealer "
        "never spends: the Dealer awards one chip to every player in the conflict to give a "
        "Dealer hand an extra card, to redraw one of its cards, or to fold the whole conflict. "
        "Between conflicts chips improve attributes and knacks.",
    ),
    Ruling(
        "R16", "Narration bids", CONFLICT,
        "After the lays are shown any player may bid chips to take the narration from whoever "
        "holds the high card. The holder may answer and keeps it by matching the highest bid; "
        "otherwise the highest bid wins, the earlier of equal bids first. Only the winner pays, "
        "and the Dealer never bids. A bid (or an answer) can never be more than the chips you "
        "hold when you make it, and you can withdraw it until the Dealer closes the bids; a "
        "bid its bidder can no longer pay when they close (chips spent since) lapses, so the "
        "conflict always ends. Winning narration with chips also lets you restore one point of "
        "Difficulty your character took in this conflict (a 0 comes back as 1), once.",
    ),
    Ruling(
        "R17", "The Road to Hell", CONFLICT,
        "A character with an attribute at 0 plays on, but the first conflict that uses that "
        "attribute is their last. In it the Devil rating stands in for the zero (twice the "
        "Devil if both attributes are 0), they may redraw extra cards equal to their Devil, "
        "and they narrate — if several are on their last stand, they bid among themselves. "
        "The character leaves play the moment that conflict ends — no later conflict or fight "
        "can seat it — and the player writes the end afterwards, sheet kept. The same holds "
        "for important NPCs. Folding out of it skirts it.",
    ),
    Ruling(
        "R18", "Stakes", CONFLICT,
        "Before the Deal the Dealer may put 1 to 3 chips at stake. Every player character on "
        "the winning side who did not fold earns them.",
    ),
    Ruling(
        "R19", "Folding", CONFLICT,
        "A player folds by spending a chip before the Dealer calls: no Difficulty, no Stakes. "
        "If every player character folds, the conflict stays unresolved.",
    ),
    Ruling(
        "R19a", "Current values", CONFLICT,
        "A conflict reads each character's attributes, Devil rating for the session and knacks "
        "when its hands are sized and dealt, not when it was set up: Difficulty taken in "
        "another conflict meanwhile, a recovery or an improvement all count, and the timeline "
        "says when the values changed. A point of Difficulty that cannot be placed is said in "
        "the timeline, never dropped silently.",
    ),
    Ruling(
        "R20", "Continuing a fight", CONFLICT,
        "“Deal again” starts a new conflict linked to the last one, with the same people, a "
        "fresh deck and a fresh Deal. If the Dealer switched on the house rule, the last "
        "hand's winner gets an extra card.",
    ),
    Ruling(
        "R21", "Devil ratings", SESSIONS,
        "At the start of each session every player sets their character's Devil rating (1–3); "
        "the session keeps it.",
    ),
    Ruling(
        "R22", "Recovery", SESSIONS,
        "When the Dealer ends a session attributes come back to their ratings, except those at "
        "0. The Dealer may let damage carry over. Recovering during a session is a conflict "
        "against a stud: 3 cards for 1–2 points, 5 for 3–4, 7 for 5 or more (no other size is "
        "accepted); winning it restores the points.",
    ),
    Ruling(
        "R23", "Cards per round", ACTION,
        "In a combat round you get one free card plus one per success and raise on a TN 5 "
        "Quickness roll (5–9 one success, each further full 5 a raise), at most five unless the "
        "Dealer lifts the cap. A bust gets nothing but keeps the card up the sleeve.",
    ),
    Ruling(
        "R24", "Order", ACTION,
        "Joker first, then ace, king, down to 2; equal ranks by ♠, ♥, ♦, ♣. Each card is one "
        "action.",
    ),
    Ruling(
        "R25", "Jokers", ACTION,
        "The red joker acts whenever its holder likes that round and draws from the Fate pot. "
        "The black joker is discarded at once with any sleeved card, the Dealer draws from the "
        "Fate pot and the action deck is reshuffled at the end of the round.",
    ),
    Ruling(
        "R26", "Sleeve, interrupts, surprise, speeds", ACTION,
        "One card may go up the sleeve and be played before any action later. Interrupting "
        "takes an opposed Quickness roll. The surprised get no cards in the first round. "
        "Actions cost 0, 1 or more cards depending on their length.",
        reading=(
            "The rulebook asks the surprised for a TN 5 Guts check from the second round but "
            "names no dice. The app rolls (Guts)d6 for a character — its current Guts, at "
            "least one die, as Quickness is (Hand)d6 — and a line of extras' own dice; it rolls "
            "once a round, and a total from real dice can still be typed in."
        ),
    ),
    Ruling(
        "R27", "Dice and the Fate pot", ACTION,
        "Dice that roll their maximum roll again and add; the highest die is the total; more "
        "than half the dice showing 1 is a bust. Quickness defaults to (Hand)d6. The Fate pot "
        "is a bag of chips the Dealer fills; every draw is recorded.",
        house_rule=True,
    ),
    Ruling(
        "R30", "Who sees what in a fight", ACTION,
        "The running order, every card already played and every combatant's card count are "
        "public. Your unplayed cards are seen by you and the Dealer; an NPC's only by the "
        "Dealer until played. A card up the sleeve shows as one face-down card. The deck's "
        "order is never shown; the discard pile is public.",
    ),
    Ruling(
        "R31", "The countdown", ACTION,
        "The Dealer runs the round down the order. When your card comes up you act with it, "
        "put it up your sleeve, or pass. A sleeved card or the red joker may be played out of "
        "turn; any other interrupt needs the opposed roll. The round ends when every card is "
        "played, sleeved or passed; the sleeve stays, the rest is discarded.",
    ),
    Ruling(
        "R33", "Readings where the action deck is silent", ACTION,
        "The red joker ranks before the black; it never comes up in the countdown — its "
        "holder plays it at will — and its Fate-pot draw stays secret until it is played. "
        "Players never see where others' unplayed cards fall in the order. An opposed "
        "Quickness roll that ties fails. One Quickness move per combatant per round. An "
        "interrupt is aimed at the action under way — the card that is up — and the screen "
        "says whose action that is.",
        reading=(
            "A fight ended once the next round's Quickness was rolled ended in that round, "
            "before its deal: the timeline and the session say so, and count the rounds dealt."
        ),
    ),
    Ruling(
        "R32", "Resolving an action", ACTION,
        "The app does not decide what an action does: you say it and the timeline records it. "
        "The Dealer may settle it with the dice roller against a TN, or with a Dust Devils "
        "conflict. House rule (off by default): a player character's Fate-pot draw adds a "
        "chip to its ledger.",
        house_rule=True,
        reading=(
            "The rules do not say what becomes of a conflict that turns into a gunfight. The "
            "app's reading: the fight settles it, so it is never left open. Before the Deal "
            "the conflict is called off, as a cancel: nothing was dealt, nobody wins or "
            "loses, and chips spent in it go back. Once the cards are out it ends by the rules "
            "first (the Dealer finishes it, or folds it, R15), then the fight starts; one "
            "already over stays as it ended."
        ),
    ),
    Ruling(
        "R35", "A black joker is out until its round ends", ACTION,
        "When the deck runs short in the middle of a round's deal, the discards are shuffled "
        "back in, except a black joker drawn this round: it waits beside the deck and comes "
        "back only with the reshuffle at the end of the round. So the black joker comes up at "
        "most once in a round's deal, and the Dealer draws from the Fate pot for it at most "
        "once a round.",
        seed_words="The party action deck is reshuffled when there are no longer enough cards "
        "left for someone to draw. … at the end of that round of combat the entire party action "
        "deck is reshuffled so the Black Joker can show up again sooner.",
        reading="The two reshuffles are read together: the one in the middle of a deal never "
        "brings back the black joker that round, so its Fate draw is never doubled.",
    ),
    Ruling(
        "R34", "The saloon's readings", SALOON,
        "Where Death Enters the Saloon is silent, the readings S1–S6 below stand, with these "
        "corrections to the seed's letter: the brought-up player's extra question (up to "
        "three) is lost only by asking a follow-up, never by passing one; a character is "
        "brought up by the initial question, by its answer, or by a table-3 cue with or "
        "without “***”; a struck initial question may be asked again. The host may lower the "
        "Unwanted card too (the timeline says so), so an absent raiser cannot pause the table "
        "for good.",
    ),
    Ruling(
        "R36", "The saloon, settled", SALOON,
        "A turn has one extra question at most. It is offered to the players whose characters "
        "were brought up, in the order they were brought up, until one of them asks it: a pass "
        "hands it to the next, and once one asks, no one else is offered one. A question or cue "
        "with “***” brings up that character only; the answer to a follow-up brings no one up; "
        "nobody brings up their own character or the drawer's. The host may lower the Unwanted "
        "card whether or not they hold a seat at the game.",
        seed_words="the player of the character brought up by the initial question always has "
        "the right to ask the Doomed an extra question (up to a maximum of three), provided that "
        "they have not already asked one. Note that bringing up other characters in follow-up "
        "questions does not allow the respective players to ask additional questions",
        reading="“An extra question” is one a turn, whoever it goes to: S3's “until one asks”.",
    ),
    Ruling(
        "R28", "Creating a player character", CHARACTERS,
        "13 points over Hand, Eye, Guts and Heart, each 1 to 5; two traits written as "
        "similes; knacks rated 1–4 adding up to exactly 11, no more of them than Hand + Eye or "
        "6; a Devil with a rating of 1–3. Non-player characters are free-form; one with a "
        "Devil is important and gets its own hand.",
    ),
    Ruling(
        "R29", "Ratings and current values", CHARACTERS,
        "Each attribute has a rating (what chips buy) and a current value (the rating less "
        "Difficulty). The Deal uses current values.",
    ),
)  # fmt: skip
