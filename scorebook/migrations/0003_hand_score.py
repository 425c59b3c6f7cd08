from django.db import migrations, models


def score_stored_hands(apps, schema_editor):
    """Give every hand its stored row of the sheet, session by session, as the app now keeps."""
    import rules
    from rules.reader import Sheet
    from scorebook.sheets import score_hands

    Session = apps.get_model("scorebook", "Session")
    Hand = apps.get_model("scorebook", "Hand")
    for session in Session.objects.all().iterator():
        variant = rules.get_variant(session.variant)
        players = tuple(session.seats.order_by("position").values_list("player__name", flat=True))
        sheet = Sheet(variant, variant.rules(session.rules), players)
        hands = list(session.hands.order_by("number").only("pk", "number", "data", "voided"))
        try:
            scores = score_hands(
                sheet,
                [(hand.number, None if hand.voided else hand.data) for hand in hands],
                running=rules.scoring.start(sheet.variant, sheet.rules, players),
            )
        except rules.RulesError:
            continue  # the sheet page lists the hands this engine does not accept
        for hand, score in zip(hands, scores, strict=True):
            hand.score = score
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
