"""Write the bundled campaign from a pool of generated missions: which pool file becomes which
campaign mission, with its hand-written name and story.

    python benchmarks/campaign_curate.py POOL [--out missions]

POOL holds ``buddy/gen-bNN.toml`` and ``party/gen-pNN.toml`` made by the `kakapo generate`
commands listed in missions/CAMPAIGN.md, and ``first/`` with the first collection's missions
(b01-b04, p01-p03 as they were before the campaign). Each campaign file is its pool file
with the name and story replaced and a header saying where it came from; the pool file's own
first line (the exact `kakapo generate` command that made it) is kept. Existing files in
--out are replaced only with --force.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

# campaign id: (pool file, name, story)
BUDDY = {
    "b01": ("buddy/gen-b04.toml", "Two tracks in the mud",
            "Two kakapo left tracks by the feeding station; a tag on either will do, and two scanners are out."),
    "b02": ("first/b02.toml", "Long neck",
            "A takahe stretches for tussock seed: scan it from both ends."),
    "b03": ("first/b03.toml", "Edge of the forest",
            "Three birds at the bush edge, but one sits on the cliff where no scanner reaches."),
    "b04": ("first/b01.toml", "First contact",
            "A kakapo is calling near the hut on Whenua Hou: find it."),
    "b05": ("buddy/gen-b02.toml", "Short night",
            "Six rounds before the dawn boat: one of the two kea will do."),
    "b06": ("buddy/gen-b01.toml", "Rimu mast",
            "The rimu are fruiting and two kakapo feed beneath them: scan both."),
    "b07": ("buddy/gen-b06.toml", "Whio rapids",
            "Two blue ducks ride the river rapids; seven skills and two pieces help from the bank."),
    "b08": ("buddy/gen-b08.toml", "Feeding station",
            "Two kakapo share the old feeding station; one scanner is already set."),
    "b09": ("buddy/gen-b09.toml", "Track and bowl",
            "Three booming kakapo on their track-and-bowl systems; two scanners are already down."),
    "b10": ("buddy/gen-b13.toml", "Kakariki flock",
            "Four orange-fronted parakeets in the beech; any two tags tell the story."),
    "b11": ("buddy/gen-b07.toml", "Hihi feeders",
            "Two stitchbirds guard the sugar-water feeders; few skills to spare."),
    "b12": ("buddy/gen-b14.toml", "Kokako dawn",
            "Two kokako sing at dawn, and six rounds before they fall silent."),
    "b13": ("buddy/gen-b15.toml", "Kiwi crossing",
            "Three rowi cross the track after dark: scan them all."),
    "b14": ("buddy/gen-b16.toml", "Anchor Island",
            "Three kakapo moved to Fiordland's Anchor Island: check that each has settled."),
    "b15": ("buddy/gen-b24.toml", "Mohua canopy",
            "Five yellowheads in the canopy: scan any three before they fly."),
    "b16": ("buddy/gen-b18.toml", "Stoat fence",
            "Four takahe by the fence, one out of reach behind it: the other three must be scanned."),
    "b17": ("buddy/gen-b22.toml", "Kaki shingle",
            "Three black stilts on the braided river, and only two skills: plan the cards."),
    "b18": ("buddy/gen-b21.toml", "Chick watch",
            "Three hand-reared kakapo chicks are back in the wild; their nests are marked on every side."),
    "b19": ("buddy/gen-b27.toml", "Storm on Codfish",
            "A storm is coming in: four kakapo to check before the boat leaves."),
    "b20": ("buddy/gen-b30.toml", "Every last kakapo",
            "The yearly health check: the three hardest-to-reach kakapo, and seven rounds to do it."),
}

PARTY = {
    "p01": ("party/gen-p02.toml", "Pateke pond",
            "Two brown teal on the pond: a tag on either one, in eight rounds."),
    "p02": ("first/p01.toml", "Track survey",
            "The volunteer team walks the track: one kakapo is calling near it."),
    "p03": ("party/gen-p04.toml", "Crowded clearing",
            "Five birds in the clearing, one out of reach; three scanners are down and two tags will do."),
    "p04": ("first/p03.toml", "Compass",
            "A kea on the lookout rock, with a coloured side in every direction."),
    "p05": ("first/p02.toml", "Twin nests",
            "Two kakapo nests side by side: the team scans both."),
    "p06": ("party/gen-p05.toml", "Karearea perch",
            "A falcon watches from its perch, marked in four colours."),
    "p07": ("party/gen-p03.toml", "Tieke hop",
            "Two saddlebacks hop across the forest floor of Tiritiri Matangi."),
    "p08": ("party/gen-p01.toml", "Dawn chorus",
            "Tui and bellbirds fill the bush; find the two kokako among them."),
    "p09": ("party/gen-p09.toml", "Kakariki valley",
            "Two orange-fronted parakeets dart through the valley beech."),
    "p10": ("party/gen-p07.toml", "Hoiho landing",
            "Two yellow-eyed penguins come ashore at dusk: nine rounds, two skills."),
    "p11": ("party/gen-p14.toml", "Tara iti beach",
            "Three fairy terns nest on the sand: two scans before the tide turns."),
    "p12": ("party/gen-p15.toml", "Toutouwai trail",
            "Three robins follow the team along the track: scan all three."),
    "p13": ("party/gen-p18.toml", "Taiko burrows",
            "Three Chatham Island taiko in their burrows; two scanners are already down."),
    "p14": ("party/gen-p20.toml", "Black robin rescue",
            "Once down to five birds: scan the three black robins on the ridge."),
    "p15": ("party/gen-p23.toml", "Ulva Island",
            "Five birds on a predator-free island, one out of reach: three to scan in nine rounds."),
    "p16": ("party/gen-p22.toml", "Nest cams",
            "Four kakapo nests, each needing a camera, and two skills for the whole night."),
    "p17": ("party/gen-p24.toml", "Kea's mischief",
            "A kea has moved the team's gear: two pieces are already down, three birds wait."),
    "p18": ("party/gen-p29.toml", "Transfer day",
            "Three kakapo move islands today, and only eight rounds to check them."),
    "p19": ("party/gen-p28.toml", "Long night",
            "Three kakapo, sides of every colour, and a board already half used."),
    "p20": ("party/gen-p33.toml", "Kakapo census",
            "The whole population, counted one by one: four kakapo, the final mission."),
}


def curate(source: Path, name: str, story: str, cid: str, origin: str) -> str:
    lines = source.read_text().splitlines()
    kept = [ln for ln in lines if not re.match(r"\s*(name|story)\s*=", ln)]
    header = [ln for ln in kept if ln.startswith("#")][:3]
    body = [ln for ln in kept if not ln.startswith("#")]
    out = [f"# {cid}: campaign mission, curated from {origin}; name and story written by hand."]
    out += header
    out += [f"name = {quote(name)}", f"story = {quote(story)}"]
    out += body
    return "\n".join(out) + "\n"


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pool", type=Path)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "missions")
    ap.add_argument("--force", action="store_true", help="replace existing campaign files")
    args = ap.parse_args()
    for mode, table in (("buddy", BUDDY), ("party", PARTY)):
        for cid, (src, name, story) in sorted(table.items()):
            source = args.pool / src
            origin = f"pool file {src}" if not src.startswith("first/") else "the first collection's " + Path(src).stem
            target = args.out / mode / f"{cid}.toml"
            if target.exists() and not args.force:
                print(f"{target} exists (use --force to replace it)", file=sys.stderr)
                return 2
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(curate(source, name, story, cid, origin))
            print(f"{target} <- {source}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
