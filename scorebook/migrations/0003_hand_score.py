from django.db import migrations, models


def score_stored_hands(apps, schema_editor):
    """Give every hand its stored row of the sheet, session by session, as the app now keeps.

    Self-contained: the row is made here as the app made it when this migration was written,
    so the app's code may change later without changing what this migration does. Only the
    engine (rules: reading, scoring, the paper note) is used, as it is the scoring itself.
    """
    import rules
    from rules.problems import Problems
    from rules.reader import Sheet, read_hand
    from rules.scoring import amount_json, play, start

    Session = apps.get_model("scorebook", "Session")
    Hand = apps.get_model("scorebook", "Hand")
    for session in Session.objects.all().iterator():
        variant = rules.get_variant(session.variant)
        players = tuple(session.seats.order_by("position").values_list("player__name", flat=True))
        sheet = Sheet(variant, variant.rules(session.rules), players)
        hands = list(session.hands.order_by("number").only("pk", "number", "data", "voided"))
        running = start(sheet.variant, sheet.rules, players)
        problems = Problems()
        for hand in hands:
            if hand.voided:
                hand.score = {"running": running.to_json()}
                continue
            own = {k: v for k, v in hand.data.items() if k not in ("format", "variant", "rules")}
            if list(own.get("players", ())) == list(players):
                del own["players"]
            read = read_hand(own, problems, f"hands[{hand.number - 1}]", sheet, entered=False)
            if read is None:
                break
            row, running = play(sheet.variant, sheet.rules, players, read[2], running)
            result = row.result
            hand.score = {
                "amounts": {name: amount_json(a) for name, a in result.amounts.items()},
                "lines": [
                    [line.text, {name: amount_json(a) for name, a in line.amounts.items()}]
                    for line in result.lines
                ],
                "note": rules.note(result),
                "dealer": row.dealer,
                "running": running.to_json(),
            }
        if problems:
            continue  # the sheet page lists the hands this engine does not accept
        Hand.objects.bulk_update(hands, ["score"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorebook", "0002_session_closing"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="score",
            field=models.JSONField(blank=True, default=dict, verbose_name="score"),
        ),
        migrations.RunPython(score_stored_hands, migrations.RunPython.noop),
    ]
