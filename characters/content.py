"""Copy the standard content of blades/content into the database.

Called by the data migration with the historical models, so it must not import the
current ones. Running it twice changes nothing: rows are matched by their keys.
"""

from blades import content


def load_standard_content(apps) -> None:
    Playbook = apps.get_model("characters", "Playbook")
    SpecialAbility = apps.get_model("characters", "SpecialAbility")
    PlaybookFriend = apps.get_model("characters", "PlaybookFriend")
    Item = apps.get_model("characters", "Item")
    Option = apps.get_model("characters", "Option")

    for kind, entries in (
        ("heritage", content.heritages()),
        ("background", content.backgrounds()),
        ("vice", content.vices()),
        ("trauma", content.traumas()),
    ):
        for order, entry in enumerate(entries):
            Option.objects.update_or_create(
                kind=kind,
                key=entry["key"],
                defaults={
                    "name": entry["name"],
                    "description": entry.get("description", ""),
                    "order": order,
                },
            )

    if not Item.objects.filter(playbook=None).exists():
        for order, entry in enumerate(content.items()):
            Item.objects.create(
                playbook=None,
                name=entry["name"],
                load=entry["load"],
                armor=entry.get("armor") or "",
                order=order,
            )

    for data in content.playbooks():
        playbook, created = Playbook.objects.update_or_create(
            table=None,
            key=data["key"],
            defaults={
                "name": data["name"],
                "tagline": data.get("tagline", ""),
                "dots": data["dots"],
                "xp_trigger": data["xp_trigger"],
                "friends_label": data.get("friends_label", "Friends and rivals"),
            },
        )
        if not created:
            continue
        for order, ability in enumerate(data["abilities"]):
            SpecialAbility.objects.create(
                playbook=playbook,
                key=ability["key"],
                name=ability["name"],
                description=ability["description"],
                special_armor=ability.get("special_armor", False),
                mule=ability.get("mule", False),
                order=order,
            )
        for order, friend in enumerate(data["friends"]):
            PlaybookFriend.objects.create(
                playbook=playbook, name=friend["name"], role=friend.get("role", ""), order=order
            )
        for order, item in enumerate(data["items"]):
            Item.objects.create(
                playbook=playbook,
                name=item["name"],
                load=item["load"],
                fine=item.get("fine", False),
                order=order,
            )
