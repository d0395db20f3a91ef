"""The seed: 30 owners with unique names, each holding 0 to 6 items (some archived), all
created before the world's frozen "now"."""

from __future__ import annotations

from prove_env.world import SeedContext

from .models import Item, Owner

N_OWNERS = 30
THINGS = ("Lamp", "Bookshelf", "Road bike", "Camera", "Tent", "Guitar", "Desk", "Kettle", "Backpack", "Monitor",
          "Rug", "Blender", "Scooter", "Printer", "Sofa")
ADJECTIVES = ("Old", "Blue", "Spare", "Small", "Vintage", "Red", "Folding", "Travel", "Garden", "Office")


def seed(ctx: SeedContext) -> None:
    for _ in range(N_OWNERS):
        first, last = ctx.person_name()
        owner = Owner(id=ctx.new_id("OWN"), name=f"{first} {last}",
                      email=f"{first.lower()}.{last.lower()}@example.com")
        ctx.add(owner)
        titles: set[str] = set()
        for _ in range(ctx.rng.randint(0, 6)):
            title = f"{ctx.rng.choice(ADJECTIVES)} {ctx.rng.choice(THINGS).lower()}"
            if title in titles:
                continue
            titles.add(title)
            ctx.add(Item(id=ctx.new_id("ITM"), owner_id=owner.id, title=title,
                         note=ctx.fake.sentence(nb_words=6) if ctx.rng.random() < 0.5 else None,
                         status="archived" if ctx.rng.random() < 0.2 else "active",
                         created_at=ctx.moment(-400, -1)))
