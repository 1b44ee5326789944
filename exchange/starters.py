"""Ready-made campaigns ("starters") a Dealer can load into a campaign; registered with
``campaigns.starters`` (the new-campaign form, ``load_starter``) by ``ExchangeConfig.ready``.

The only one so far is THE HANGED MAN, the seed's sample scenario (Last Oak, Kansas). Numbers,
traits, knacks, Devils and chips are the seed's. Editorial choices, so the data reads and
matches like what players type:

- names, traits and knack names use straight quotes and apostrophes (the seed mixes “curly”
  and "straight" ones from page to page; a knack bought later from a keyboard then matches);
  the trailing full stop the seed puts after some traits is dropped;
- prose (back stories, Devils, notes) is the seed's own wording and typography, with the page
  breaks the seed's text has inside two paragraphs joined up;
- the minor characters (a deputy, Doc Samuelson, Delmer Barnes, "Red" Sally) have no numbers
  in the seed: theirs are the starter's, and their descriptions say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from campaigns.models import Campaign, Membership, WantedLink
from campaigns.services import CampaignError, note_save
from campaigns.starters import Starter as Registered
from characters.models import Character, ChipEntry
from characters.services import character_create, chips_grant


def _prose(text: str) -> str:
    """Paragraphs written wrapped in the source: unwrap each, keep blank lines between them."""
    paragraphs = [" ".join(p.split()) for p in text.strip().split("\n\n")]
    return "\n\n".join(p for p in paragraphs if p)


@dataclass(frozen=True)
class Sheet:
    name: str
    vocation: str
    hand: int
    eye: int
    guts: int
    heart: int
    knacks: dict[str, int]
    traits: tuple[str, ...] = ()
    devil: str = ""
    devil_rating: int | None = None
    back_story: str = ""
    description: str = ""
    chips: int = 0

    def data(self) -> dict[str, Any]:
        traits = (*self.traits, "", "")
        return {
            "name": self.name,
            "vocation": self.vocation,
            "description": self.description,
            "back_story": self.back_story,
            "hand": self.hand,
            "eye": self.eye,
            "guts": self.guts,
            "heart": self.heart,
            "trait_1": traits[0],
            "trait_2": traits[1],
            "devil": self.devil,
            "devil_rating": self.devil_rating,
        }


@dataclass(frozen=True)
class Link:
    npc: str
    pc: str
    devil_touched: str
    notes: str


@dataclass(frozen=True)
class Starter:
    setting: str
    pitch: str
    pcs: tuple[Sheet, ...]
    npcs: tuple[Sheet, ...]
    links: tuple[Link, ...]
    notes: tuple[tuple[str, str], ...] = field(default=())


# --- THE HANGED MAN (seed, pages 18 ff.) ------------------------------------------------------

JIM = '"Gentleman" Jim Harris'
ZEKE = "Zeke Munroe"
JACK = '"Black" Jack Kerrigan'
LUKE = '"Lucky" Luke Johnson'
CLARA = "Clara Hardin"
MERRILL = "Merrill Randolph"
LONG_TOM = '"Long" Tom Meredith'
DEPUTY = "Last Oak deputy"
DOC = '"Doc" Samuelson'
DELMER = "Delmer Barnes"
SALLY = '"Red" Sally'

_STARTER_NUMBERS = "The seed gives no numbers for this character: these are the starter's."

HANGED_MAN = Starter(
    setting="Last Oak, Kansas",
    pitch=_prose("""
        Last Oak, Kansas, a waypoint on the Santa Fe Trail in the early 1870s. Mayor Merrill
        Randolph and Sheriff “Long” Tom Meredith have just lynched a man they believed to be
        “Gentleman” Jim Harris, a gunfighter and known murderer. The lynching covered up
        something far less noble than justice. The hanged man was not “Gentleman” Jim. And
        “Gentleman” Jim Harris just rode into town.
    """),
    pcs=(
        Sheet(
            name=JIM,
            vocation="Wanted Gunfighter",
            hand=4, eye=4, guts=3, heart=2,
            traits=("Richer than Croesus", "Cool as a cucumber"),
            knacks={"Shootin'": 4, "Drinkin'": 1, "Bargainin'": 2, "Philanderin'": 2,
                    "Gamblin'": 2},
            devil=_prose("""
                “Gentleman” Jim is a wanted man. His reputation as a cold-blooded killer
                follows him like a disease. While it has its advantages in getting what he
                wants, being a fugitive means he can’t settle down to enjoy a good life of
                money, fine clothes, and finer companions.
            """),
            devil_rating=3,
            back_story=_prose("""
                There was a time—before the War of the States—when Jim Harris considered
                himself a gentleman. Time was, his woman and his business partner were all a
                man needed to be happy and successful. But when he found out whom his wife was
                happier with, he joined the Union army as an officer. That didn’t last long
                either; his unit was killed to a man at Antietam.

                Now, “Gentleman” Jim sees himself as anything but gentlemanly. Since the war’s
                end, he’s taken the lives of more than a half a dozen men with his mismatched
                six-guns. He’s a ruthless killer, or so folks say. Is it murder if a man is
                good at saving his own skin?
            """),
            chips=3,
        ),
        Sheet(
            name=ZEKE,
            vocation="Guilt-ridden Bounty Hunter",
            hand=5, eye=3, guts=3, heart=2,
            traits=("Strong as an ox", "Meaner than a new sheared sheep"),
            knacks={"Shootin'": 2, "Wrestlin'": 2, "Trackin'": 3, "Ridin'": 1, "Drinkin'": 3},
            devil=_prose("""
                Zeke is a mean drunk. He can hardly keep himself away from a bottle of whiskey,
                because it's the only thing that numbs the memory of that woman and her unborn
                baby those years ago in Ohio. Zeke's Devil comes into play in important
                conflicts involving liquor.
            """),
            devil_rating=2,
            back_story=_prose("""
                Ezekiel Munroe has worked his whole life as a bounty hunter. In his early days
                before the War of the States, he caught up with a 16-year-old slave woman who’d
                managed to make it across the Ohio River, even though she was almost ready to
                deliver her baby. He helped turn her in, and got all of $5 for his effort. The
                girl got a damn sight worse than that.

                Now, Zeke's much older, but he's not much wiser. He's still tracking down crooks
                and thugs for a bounty. The frontier provides him an ample supply of bounties to
                pursue ... and ghosts of the pasts to escape. Fortunately, it also provides an
                ample supply of whiskey.
            """),
            chips=3,
        ),
        Sheet(
            name=JACK,
            vocation="Crooked Gambler",
            hand=3, eye=4, guts=2, heart=4,
            traits=("Sly as a fox", "Sharp as a rattler's tooth"),
            knacks={"Gamblin'": 4, "Lyin'": 3, "Shootin'": 2, "Snoopin'": 2},
            devil=_prose("""
                Black Jack is a damn cheat. When presented with the opportunity to beat the
                odds with a little underhandedness, he'll do it. One of these days, Black Jack's
                so-called luck may run out, and he'll have to decide whether to cheat fate once
                and for all or just cut loose and let the cards fall where they may. God knows
                he's due.
            """),
            devil_rating=2,
            back_story=_prose("""
                Jack Kerrigan is a gambler whose infamous "luck" is anything but. He's a damn
                cheat, through and through. When he was younger, he was as talented as any
                gambler on the Mississippi or New Orleans. But, in a game against a crooked
                Creole, Black Jack lost everything he had and a finger from his left hand to
                boot! Black Jack lost all faith in his skill as a gambler, but couldn't bring
                himself to quit the game. He learned a lesson that day. Cheat or lose.
            """),
            chips=4,
        ),
        Sheet(
            name=LUKE,
            vocation="Lonesome Cowpoke",
            hand=3, eye=3, guts=4, heart=3,
            traits=("Reckless as a blind bear", "Friendlier than a pet coon"),
            knacks={"Shootin'": 2, "Ridin'": 3, "Drinkin'": 3, "Ropin'": 2, "Lock Pickin'": 1},
            devil=_prose("""
                In a word, Luke Johnson's Devil is isolation. He's a nice enough cowpoke; he
                just doesn't trust himself to help others or to get close to others. He'd just
                as soon help himself. After years of doing things his own way, Luke doesn't
                trust much anybody else, either!
            """),
            devil_rating=2,
            back_story=_prose("""
                Since the long, cold winter of '66, Luke Johnson's been alone. That year his
                wife and two daughters died of pneumonia on their Kansas prairie farm, and he
                blames himself for letting them die. Now, he wanders the Santa Fe trail hopping
                from job to job ... and from heist to heist to get by.
            """),
            chips=6,
        ),
    ),
    npcs=(
        Sheet(
            name=CLARA,
            vocation="Widow, Merrill Randolph's sister-in-law",
            hand=2, eye=3, guts=2, heart=4,
            traits=("Pretty as a little red wagon", "Quiet as a mouse"),
            knacks={"Teachin'": 2, "Seducin'": 3, "Mendin'": 2},
            devil=_prose("""
                Clara’s Devil is original sin. Since her husband passed on, she’s found the only
                way to get what she really needs is to be with a man, whether she likes it or
                not.
            """),
            devil_rating=3,
            description=_prose("""
                Clara Hardin hasn’t known happiness since her husband died. Her brother-in-law,
                Merrill Randolph, put a roof over her head and kept her fed and provided for.
                But he had his own ideas about what Clara was to supply in return. Now, part of
                her feels like she deserved what she got; the other part of her would just as
                soon see Merrill so full of lead he couldn’t walk uphill.
            """),
        ),
        Sheet(
            name=MERRILL,
            vocation="Mayor of Last Oak",
            hand=3, eye=3, guts=2, heart=4,
            traits=("Proud as a peacock", "Crooked as a snake"),
            knacks={"Politickin'": 3, "Sweet Talkin'": 2, "Drinkin'": 1, "Gamblin'": 2},
            devil=_prose("""
                Merrill’s Devil is the incessant need to control others. Merrill manipulates
                others to get what he wants. More often than not, that means convincing his old
                friend “Long” Tom Meredith to do his dirty work.
            """),
            devil_rating=3,
            description=_prose("""
                Merrill Randolph is a two-faced bastard. To the town of Last Oak, he’s an
                affable man who keeps things pretty much status quo. But to the few who know his
                uglier side, like Clara Hardin, he’s a devious son of a bitch who connives to
                get what he wants. What he wants most lately is Clara Hardin, and he’ll continue
                to abuse her if it’s the only way he can get her. But he’ll also do what he can
                to win her heart, even if it means stringing up an innocent man.
            """),
        ),
        Sheet(
            name=LONG_TOM,
            vocation="Sheriff of Last Oak",
            hand=3, eye=2, guts=4, heart=2,
            traits=("Tough as nails", "Cruel as spite"),
            knacks={"Interrogatin'": 2, "Shootin'": 3, "Fightin'": 3, "Ridin'": 2,
                    "Trackin'": 1},
            devil=_prose("""
                Long Tom is a bully. He enforces the law with a heavy hand, but he only really
                knows how to handle those who fear him. If folks would stand and put up a fight,
                he’s lose half his thunder quicker than he could draw.
            """),
            devil_rating=2,
            description=_prose("""
                “Long” Tom Meredith is an imposing figure of a man who keeps the peace in Last
                Oak through force and fear. He and Merrill Randolph are long-time friends, and
                Merrill has a lot of influence on the tough old sheriff. So much so that Long
                Tom might make a fella disappear, or even string a fella up to die without so
                much as a trial. Long Tom’s more interested in keeping Last Oak the way Merrill
                wants it than he is in upholding the law.
            """),
        ),
        Sheet(
            name=DEPUTY,
            vocation="Deputy sheriff",
            hand=3, eye=2, guts=2, heart=2,
            knacks={"Shootin'": 2, "Ridin'": 2},
            description=_prose(f"""
                One of “Long” Tom Meredith’s deputies (the seed allows “any number of
                deputies”): use this sheet for each of them. They rode in the posse that
                brought in the hanged man. {_STARTER_NUMBERS}
            """),
        ),
        Sheet(
            name=DOC,
            vocation="Town doctor",
            hand=2, eye=4, guts=2, heart=3,
            knacks={"Doctorin'": 3, "Drinkin'": 1},
            description=_prose(f"""
                Last Oak’s town doctor. He has seen to every body the rash of shootings left
                behind, and would have been the one to look at the hanged man. {_STARTER_NUMBERS}
            """),
        ),
        Sheet(
            name=DELMER,
            vocation="General Store owner",
            hand=2, eye=3, guts=2, heart=3,
            knacks={"Bargainin'": 3, "Gossipin'": 2},
            description=_prose(f"""
                Owner of Last Oak’s General Store. Everybody passing along the Santa Fe Trail
                buys from him, and he hears what they talk about. {_STARTER_NUMBERS}
            """),
        ),
        Sheet(
            name=SALLY,
            vocation="Saloon girl at the Red Roof Saloon",
            hand=2, eye=3, guts=3, heart=3,
            knacks={"Seducin'": 3, "Snoopin'": 2, "Gamblin'": 1},
            description=_prose(f"""
                The Red Roof Saloon’s most “experienced” lady. The lynching happened just
                outside her saloon, and Clara Hardin’s affair with the well-dressed stranger was
                the gossip of the town. {_STARTER_NUMBERS}
            """),
        ),
    ),
    links=(
        Link(
            npc=CLARA,
            pc=JIM,
            devil_touched="His reputation as a cold-blooded killer",
            notes=_prose("""
                Clara hoped the man she took for Gentleman Jim would shoot her brother-in-law
                Merrill dead. Now the real one has ridden in: she might ask him to help her get
                revenge, or just to get her out of town.
            """),
        ),
        Link(
            npc=MERRILL,
            pc=JIM,
            devil_touched="A wanted man who can't settle down",
            notes=_prose("""
                Merrill had the town hang “Gentleman” Jim to be rid of Clara’s lover. The real
                Jim alive and in Last Oak threatens the story that hides Merrill’s motive.
            """),
        ),
        Link(
            npc=LONG_TOM,
            pc=JIM,
            devil_touched="His reputation follows him like a disease",
            notes=_prose("""
                Long Tom’s posse hanged a man as Gentleman Jim under a sign that reads
                “Gunfighters beware.” The real Jim is the proof of his mistake, and still a
                wanted man.
            """),
        ),
        Link(
            npc=LONG_TOM,
            pc=ZEKE,
            devil_touched="Whiskey: the drinkin' money he was paid",
            notes=_prose("""
                Zeke got enough drinkin’ money to last a while for helping Long Tom bring in
                Gentleman Jim and his partner. Trouble is, they got the wrong guy.
            """),
        ),
        Link(
            npc=LONG_TOM,
            pc=LUKE,
            devil_touched="Isolation: he trusts nobody to help him",
            notes=_prose("""
                The posse carted Luke off to the Last Oak jail with the stranger he shared his
                campfire with. They strung the stranger up, and Luke’s worried he’s next.
            """),
        ),
        Link(
            npc=LONG_TOM,
            pc=JACK,
            devil_touched="The cheat's chance to beat the odds",
            notes=_prose("""
                Black Jack reckons Gentleman Jim’s money must be somewhere, like maybe the town
                jail, which is Long Tom’s.
            """),
        ),
    ),
    notes=(
        (
            "The situation in Last Oak",
            _prose("""
                Last Oak, Kansas, is a waypoint along the Santa Fe Trail. Cowboys and all manner
                of travelers pass through the town on their way to and from the American
                Southwest. The dusty prairie town has had a hell of a lot of trouble lately with
                a rash of shootings as raucous cowboys and wild gunslingers converge on the town
                looking for an easy dollar.

                But nothing compares to the most recent commotion.

                The town had a public lynching led by Mayor Merrill Randolph and sheriff “Long”
                Tom Meredith. Just outside the Red Roof Saloon, they strung up a man they
                believed to be “Gentleman” Jim Harris, a gunfighter and known murderer.

                But, the lynching covered up something far less noble than justice. The man they
                hanged had a short-lived love affair with Clara Hardin, Merrill Randolph’s own
                sister-in-law, whose husband died last year in some peculiar circumstances.
                Clara had hoped she could convince the hanged man, whom she too believed to be
                Gentleman Jim, to shoot dead her brother-in-law Merrill. Merrill has stolen
                Clara’s inheritance and taken advantage of her numerous times since taking her
                under his roof to “care and provide for the poor widow of his dead brother.”

                Clara’s love affair with the well-dressed stranger, which was the gossip of the
                town, enraged Merrill, and he set in motion a plan to rid himself of her lover.
                He urged his long-time friend, the heavy-handed Sheriff Tom Meredith to organize
                a posse to hunt down “Gentleman” Jim. They captured the well-dressed fellow,
                along with some other unknown outlaw, and hung him up on the gallows after an
                impromptu trial with a jeering public as jury.

                Now, Merrill Randolph has rid himself of Clara’s lover and no one suspects his
                real motive.

                There’s only one problem. The hanged man was not “Gentleman” Jim. Fact is, no
                one seems to know just who the hell he was.

                And “Gentleman” Jim Harris just rode into town.
            """),
        ),
        (
            "Unresolved: the identity of the hanged man",
            _prose("""
                The identity of the hanged man. No one really knows who the mayor and his
                over-eager sheriff did hang, or what he was doing in Last Oak.
            """),
        ),
        (
            "Unresolved: Clara Hardin's husband's death",
            "The circumstances of Clara Hardin’s husband’s death.",
        ),
        (
            "Unresolved: Long Tom's role in the lynching",
            "Sheriff “Long” Tom Meredith’s role in the lynching of the hanged man.",
        ),
        (
            "Running the scenario",
            _prose("""
                “The Hanged Man” situation is ripe with immediate conflict. The key is getting
                the player characters involved in the trouble in Last Oak. Several issues are
                left intentionally unresolved in this scenario so players may narrate in play
                the actuality of events.

                If play starts to stall, the Dealer might highlight these unresolved issues as a
                means to keep players on track. This should be done, of course, through the
                non-player characters. For example, Clara Hardin might approach the real
                Gentleman Jim to help her get revenge, or maybe just to get her out of town.

                Anywhere from two to four of the characters can be used, depending on group
                size. In all cases, one player should run the character “Gentleman” Jim Harris.
                Each of these four characters should have a pivotal role in the way “The Hanged
                Man” develops. Introduce the characters to the following startling revelations,
                or invent other means to strongly link the characters to the scenario.
            """),
        ),
        (
            f"Hook: {JIM}",
            _prose("""
                “Gentleman” Jim Harris rides into Last Oak to a gruesome sight—a hanged man
                dangles from the gallows surrounded by flies and a horrendous smell. Around the
                dead man’s neck hangs a crude sign that reads “Gunfighters beware.” Any inquiry
                with the townsfolk identifies the hanged man as “that murderin’ Gentleman Jim!”
            """),
        ),
        (
            f"Hook: {ZEKE}",
            _prose("""
                Zeke Munroe managed to get himself enough drinkin’ money to last a while after
                helping “Long” Tom Meredith bring in Gentleman Jim and his partner. Trouble is,
                they got the wrong guy.
            """),
        ),
        (
            f"Hook: {LUKE}",
            _prose("""
                Luke Johnson’s had better luck. While out on the trail, he came across a
                well-dressed stranger and offered some grub and hot coffee from his campfire.
                After a couple hours of shooting the breeze, Luke found himself at the barrel of
                Zeke Johnson’s shotgun. Zeke and the posse soon carted him off to the Last Oak
                jail. Lord knows why, but they strung up the stranger dead, and Luke’s worried
                he’s next.
            """),
        ),
        (
            f"Hook: {JACK}",
            _prose("""
                After hearing that Gentleman Jim was in nearby Last Oak, “Black” Jack Kerrigan
                decided to see about hitting up the gunfighter for a friendly game of cards.
                Black Jack knows Jim is a wealthy man from out east, or at least he was before
                they strung him up. His money must be somewhere, like maybe the town jail ...
            """),
        ),
    ),
)  # fmt: skip


def _load(starter: Starter, *, campaign: Campaign, players: Sequence[User]) -> None:
    dealer_seat = (
        Membership.objects.select_related("user")
        .filter(campaign=campaign, role=Membership.Role.DEALER)
        .first()
    )
    if dealer_seat is None:
        raise CampaignError(f"{campaign} has no Dealer to run the starter's characters.")
    dealer = dealer_seat.user
    if len(players) > len(starter.pcs):
        raise CampaignError(
            f"This starter has {len(starter.pcs)} player characters; {len(players)} players "
            "were given."
        )
    if len({p.pk for p in players}) != len(players):
        raise CampaignError("Each player runs one of the starter's characters: a name is twice.")
    seated = set(
        Membership.objects.filter(campaign=campaign, user__in=players).values_list(
            "user_id", flat=True
        )
    )
    strangers = [p.get_username() for p in players if p.pk not in seated]
    if strangers:
        raise CampaignError(f"Not seated at {campaign}: {', '.join(strangers)}.")
    names = [sheet.name for sheet in (*starter.pcs, *starter.npcs)]
    taken = list(campaign.characters.filter(name__in=names).values_list("name", flat=True))
    if taken:
        raise CampaignError(
            f"{campaign} already has {', '.join(sorted(taken))}: this starter was loaded before."
        )

    with transaction.atomic():
        fields = []
        if not campaign.setting:
            campaign.setting = starter.setting
            fields.append("setting")
        if not campaign.pitch:
            campaign.pitch = starter.pitch
            fields.append("pitch")
        if fields:
            campaign.save(update_fields=fields)

        made: dict[str, Character] = {}
        for index, sheet in enumerate(starter.pcs):
            player = players[index] if index < len(players) else dealer
            pc = character_create(
                campaign=campaign,
                kind=Character.Kind.PC,
                player=player,
                data=sheet.data(),
                knacks=sheet.knacks,
                check_rules=True,  # the seed's characters follow R28
            )
            if sheet.chips:
                chips_grant(
                    character_id=pc.pk,
                    amount=sheet.chips,
                    actor=dealer,
                    note="Starting chips",
                    reason=ChipEntry.Reason.STARTING,
                )
            made[sheet.name] = pc
        for sheet in starter.npcs:
            made[sheet.name] = character_create(
                campaign=campaign,
                kind=Character.Kind.NPC,
                player=None,
                data=sheet.data(),
                knacks=sheet.knacks,
                check_rules=True,
            )
        WantedLink.objects.bulk_create(
            WantedLink(
                campaign=campaign,
                npc=made[link.npc],
                pc=made[link.pc],
                devil_touched=link.devil_touched,
                notes=link.notes,
            )
            for link in starter.links
        )
        for title, body in starter.notes:
            note_save(campaign=campaign, title=title, body=body)


def load_hanged_man(*, campaign: Campaign, players: Sequence[User] = ()) -> None:
    """Fill ``campaign`` with THE HANGED MAN: the setting and pitch (where the campaign has
    none yet), the four player characters with their starting chips (R15 ledger rows, reason
    "starting"), the three important NPCs and the minor ones, the Wanted! links, and the
    Dealer's notes (the situation, the unresolved questions, running the scenario, one hook
    per player character).

    ``players`` (each already seated at the campaign) take the player characters in the
    seed's order: "Gentleman" Jim Harris first (the seed: "one player should run the
    character Gentleman Jim Harris"), then Zeke Munroe, "Black" Jack Kerrigan and "Lucky" Luke
    Johnson. Characters left without a player are given to the Dealer, who can hand them to
    players later (a player character must always have someone running it).

    All or nothing: one transaction. Raises ``CampaignError`` if the campaign already holds
    any of the starter's characters, or a player is not seated there.
    """
    _load(HANGED_MAN, campaign=campaign, players=players)


HANGED_MAN_STARTER = Registered(
    key="hanged-man",
    title="The Hanged Man",
    label="The Hanged Man (Last Oak, Kansas)",
    load=lambda **kwargs: load_hanged_man(**kwargs),  # looked up at call time (tests patch it)
)
