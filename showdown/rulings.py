"""How the app reads Saloon Showdown (seed 001) where the seed is silent or unclear: on the
Rulings page (``tables.rulings``, through its declaration) with the seed's own words beside
each. Tests and the engine cite these ids."""

from __future__ import annotations

from tables.rulings import Ruling

GROUP = "Saloon Showdown"


def _r(id: str, title: str, text: str, seed_words: str, reading: str) -> Ruling:
    return Ruling(id=id, title=title, group=GROUP, text=text, seed_words=seed_words,
                  reading=reading)  # fmt: skip


RULINGS = (
    _r(
        "SS1",
        "Set-up and the simple game",
        "2 to 7 play. Whoever saw a western last takes the dealer token (chosen when the game is "
        "started); each starts with 20$ loot and a 20$ bounty; play starts on the dealer's left, "
        "clockwise. A 2-player game is always the simple game: no Desperado, no standoff.",
        "Per giocare in due, o anche per giocare una versione semplificata … togliete dal mazzo "
        "tutte le carte che contengono i simboli “Desperado” e “Stallo alla messicana”",
        "The seed asks for the simple rules with two players; the app switches them on itself.",
    ),
    _r(
        "SS2",
        "Replacing the public cards",
        "After each turn, if the player who just played holds the dealer token, the app reminds "
        "them to discard the four public cards and turn up four new ones.",
        "se il giocatore si ritrova ad avere il token “Mazziere”, deve scartare tutte le “carte "
        "pubbliche” e sostituirle con 4 nuove carte",
        "The seed says it of the player who just acted; the reminder goes to them only.",
    ),
    _r(
        "SS3",
        "Pistols, zones and noises",
        "The four pistols are red, blue, yellow and green; the zones head, arm, chest and leg; "
        "the noises Bang, Blam and Boom. The app never checks a call against the cards (it does "
        "not see them): the player shot confirms or disputes it.",
        "il colore della pistola da prendere; la zona del corpo dell'avversario da colpire; il "
        "rumore dello sparo da pronunciare",
        "The seed names only the blue and yellow pistols and the head and arm; the other names "
        "are the app's.",
    ),
    _r(
        "SS4",
        "Cashing a bounty",
        "A trio of Taglia da vivo, a duel won or a standoff won moves the other player's bounty "
        "into the winner's loot: that bounty falls to 0. The Law is paid the same sum by the "
        "Bank, as the seed says.",
        "riscuotere immediatamente l'intera Taglia di un altro giocatore bersaglio",
        "The seed does not say where the trio's money comes from; the duel's rule takes the "
        "loser's bounty, and the app reads the trio the same way.",
    ),
    _r(
        "SS5",
        "A bounty back to 20$",
        "A player with no bounty gets it back to 20$ from the Bank at the end of their own turn, "
        "not at once.",
        "Un giocatore che si ritrova senza Taglia deve riportarla a 20$ … alla fine del proprio "
        "turno.",
        "The letter of the seed.",
    ),
    _r(
        "SS6",
        "The duel's race",
        "Each duellist taps Ready once the hands are swapped; three seconds after the last one, "
        "“Via!” shows on every phone at the same instant of the server's clock. The first claim "
        "to reach the server wins (a later one stays on the timeline with its lag, “Zeke "
        "fired too, 2 ms later”; nobody fires twice); the one shot confirms or disputes; the "
        "dealer token's holder settles a dispute, even their own: the shot stands, or everyone "
        "fires again on a new “Via!”.",
        "Al “Via!” del mazziere possono girarle per guardarle. A quel punto il primo giocatore "
        "che spara all'altro correttamente … vince il Duello",
        "The seed's dealer says “Via!”; the phones say it together instead, so nobody is faster "
        "by hearing it first.",
    ),
    _r(
        "SS7",
        "Russian roulette: a tie",
        "The server rolls one six-sided die. Higher than the bullets: the pistol clicks and the "
        "threatener pays 20$. Equal or lower: a live round, the threatener takes 20$.",
        "Se il valore del dado è superiore … spara a vuoto … Se invece il valore del dado è "
        "inferiore … il colpo è in canna",
        "The seed says nothing of a die equal to the bullets. The standard bluff gives ties to "
        "the threatener, and so does the app's roulette.",
    ),
    _r(
        "SS8",
        "The horse escape",
        "“Ci vediamo!” sends the threat to a new target the escaper names. If that one rides "
        "away too, the threat comes back to the first escaper, who must call the bluff or say "
        "“E tu?”. In a 2-player game the escape simply ends the threat.",
        "Se però anche questo secondo bersaglio usa “Fuga a cavallo”, allora sei obbligato a "
        "decidere se andare al Duello o dubitare",
        "“Sei obbligato” is read as the first escaper; nobody escapes a third time.",
    ),
    _r(
        "SS9",
        "The Law",
        "“Io sono la Legge.” ends the threatener's turn at once with nothing done, and they go "
        "to jail: they skip their next turn too (R37). A Law trio holder who wins a duel ticks "
        "it on their shot and takes the loser's bounty twice: once from the loser, once from the "
        "Bank.",
        "Quel giocatore perde il turno, e tu incassi il valore della sua Taglia",
        "The threatener is in the middle of their turn: it is that turn they lose, and the jail "
        "takes the next one (R37).",
    ),
    _r(
        "SS10",
        "The Mexican standoff",
        "While a threat waits for its answer, anyone else may join with “Non credo proprio!” "
        "while a pistol is left (three at most). Then only the Bottle interrupts. The first "
        "threatened player closes the chain and referees; the others race like a duel, shooting "
        "whom they like. A Bottle knocks one gunman out (the first threatener too) and the others "
        "stay in the standoff; one knocked out cannot join it again (R37); one gunman left "
        "standing ends it with nothing.",
        "Questo può avvenire più volte, a catena, finché ci sono pistole disponibili",
        "The seed does not say who ends the chain: the referee does, on their phone.",
    ),
    _r(
        "SS11",
        "Wounds",
        "A wound does nothing during play; each is −10$ at the end, and a third one ends the game.",
        "1 segnalino Ferita, che vale -10$ a fine partita",
        "The seed gives a wound no other effect, nor does the app.",
    ),
    _r(
        "SS12",
        "Event cards",
        "The host reveals the event drawn and who drew it; every other move waits until it is "
        "resolved (a fight not yet shot starts its Ready again after it). The Turkey: the host "
        "names the first of the others to shoot it; both take 10$ "
        "and lose a wound. Noon: the highest bounties (with the next highest when one player "
        "stands alone) fight; the host says who shot whom, paid as a duel (two) or a standoff "
        "(more); nobody's turn ends. Rain of bullets and the bank robbery: each phone enters its "
        "count, hidden until all are in; the poorest is the lowest loot. The fifth card, which "
        "the seed does not describe, is settled by the table; the host marks it done.",
        "Quando un giocatore pesca una carta-evento dal mazzo (per un qualsiasi motivo), il "
        "gioco si interrompe e si seguono le regole dettate dalla carta-evento.",
        "The seed describes four of the five cards, and the races of events only in words.",
    ),
    _r(
        "SS13",
        "The end",
        "The first player to reach 130$ loot or a third wound sets the end: the game ends at the "
        "end of the turn of the player on their right (the one who plays just before them). "
        "Later triggers change nothing; of two in the same move, the first in turn order from "
        "the player whose turn it is counts (R37).",
        "il gioco termina alla fine del turno del giocatore alla destra di chi ha ottenuto 130$ "
        "o 3 Ferite",
        "The first trigger counts.",
    ),
    _r(
        "R37",
        "Saloon Showdown, settled",
        "The readings SS1–SS22 stand, with these changes. The Law: the jailed threatener's "
        "threat ends with nothing done and they skip their next turn — play passes over them "
        "once, and the timeline and their phone say so (“in jail: skips this turn”). The "
        "standoff: a player knocked out of it by the Bottle cannot join that standoff again, "
        "the first threatener included. When two players reach 130$ or a third wound in the "
        "same move, the game ends after the turn of the player on the right of whichever of them "
        "comes first in turn order, counting from the player whose turn it is.",
        "sbattilo in gattabuia! Quel giocatore perde il turno … elimina dallo Stallo il giocatore "
        "che colpisce … il gioco termina alla fine del turno del giocatore alla destra di chi ha "
        "ottenuto 130$ o 3 Ferite",
        "Jail is more than losing the turn under way: the next one goes too. Two triggers at "
        "once are taken in the order the table plays.",
    ),
    _r(
        "SS14",
        "Scores and ties",
        "Score = loot + bounty − 10$ a wound. A tie goes to the higher bounty; still tied, the "
        "tied players fight once more (a duel, or a race of all of them), for nothing but the win.",
        "In caso di parità, vince chi ha la Taglia più alta. Se la parità sussiste, il vincitore "
        "è deciso con le regole del Duello (o dello Stallo, se ci sono più di due giocatori).",
        "The letter of the seed; the tie-break moves no money.",
    ),
    _r(
        "SS15",
        "What is hidden",
        "The cards stay on the table. The app hides the bullet counts of a called bluff (and an "
        "event's counts): each phone shows its own, nobody else's, until every count is in; "
        "then the timeline shows them all. Everything else it keeps is public.",
        "Allora entrambi i giocatori rivelano la loro mano e contano il totale di simboli "
        "Proiettile",
        "Both reveal at once in the seed: entering first must not tell the other anything.",
    ),
    _r(
        "SS16",
        "Money and the Bank",
        "The Bank never runs out. A theft (or the roulette's 20$ paid by the threatener) takes at "
        "most what the payer's loot holds, never from the Bank; a bounty never goes below 0.",
        "ma in ogni caso il giocatore con più Proiettili non può rifarsi dalla Banca",
        "The letter of the seed, applied to every theft.",
    ),
    _r(
        "SS17",
        "The Bottle",
        "Case B: anyone but the threatener, while a threat, its bluff or its duel is under way and "
        "no shot is claimed yet: the threat is over and the Bottle's holder takes 20$ from the "
        "Bank. Never in a triello. Case A is a shot claimed with the Bottle instead of a pistol "
        "(“Crash!”).",
        "La Minaccia può anche essere interrotta con la Bottiglia.",
        "The seed allows it during the threat and the duel; the app stops at the first claimed "
        "shot.",
    ),
    _r(
        "SS18",
        "The triello",
        "The Desperado wins by hitting either of the two first: both bounties, and a wound each "
        "for the two. If either hits the Desperado first, the Desperado takes a wound and the two "
        "share half the Desperado's bounty, rounded down to whole dollars each.",
        "si spartiscono metà della sua Taglia (se però è dispari, il dollaro extra rimane sulla "
        "Taglia del Desperado)",
        "An odd half is split the same way: the extra dollar stays with the Desperado.",
    ),
    _r(
        "SS19",
        "A phone that is gone",
        "The table's host can make any player's move for them when their phone is flat, lost "
        "or left behind: their turn, their answer to a threat, their bullets, their Ready and "
        "shot, their confirmation or dispute, the dealer token's ruling. The timeline says who "
        "acted for whom. No other player can.",
        "Il giocatore minacciato può “rispondere” in due diversi modi: 1. Può dubitare, "
        "rispondendo “Stai bluffando!”",
        "The seed has no phones: every move is said aloud at the table, where the host hears "
        "it as well as anyone, so nobody's flat battery holds the game.",
    ),
    _r(
        "SS20",
        "A count mistyped",
        "A player who entered the wrong bullet count (or an event's count) takes it back and "
        "enters it again, as long as another count is still awaited; the timeline says a count "
        "was taken back, never what it was. Once every count is in, they are shown and settled "
        "at once. The host takes back an event card revealed by mistake, before anyone counted "
        "for it: it is still to come.",
        "Allora entrambi i giocatori rivelano la loro mano e contano il totale di simboli "
        "Proiettile",
        "At the table the hands are shown together: a number typed wrong before then is no "
        "count yet.",
    ),
    _r(
        "SS21",
        "Putting a mistake right",
        "The host can set any player's loot, bounty and wounds to what the table agrees they "
        "are (a move tapped wrong, a shot confirmed by mistake, money recounted); the timeline "
        "says what changed, from what to what. If the player who set the end no longer has "
        "130$ or three wounds, the end they set is undone. Turns and fights are not rewound.",
        "La Banca è accessibile liberamente da tutti i giocatori che abbiano necessità di "
        "cambiare i tagli delle loro banconote.",
        "The seed's money is on the table, where a mistake is put right by hand; the app's "
        "money is put right by the host, in everyone's sight.",
    ),
    _r(
        "SS22",
        "A duel won against no bounty",
        "The winner of a duel whose loser has no bounty cashes nothing, and still raises their "
        "own bounty by 10$ from the Bank; the loser still takes the wound.",
        "Se il giocatore sconfitto non ha una Taglia, chi ha vinto non incassa niente.",
        "“Incassa” is the loser's bounty going into the winner's loot; the 10$ raise of the "
        "winner's own bounty comes from the Bank, not from the loser, and stands.",
    ),
)
