"""Issue 34: a table's short code is stored (Table.code, indexed), so that a typed code is one
lookup; every existing table gets its code here, made under this desk's secret, and TableCodes
remembers which secret that was (seating.keys.refresh_codes makes them again under another)."""

from django.db import migrations, models

from seating.codes import place_code, secret_mark


def fill_codes(apps, schema_editor):
    Table = apps.get_model("seating", "Table")
    TableCodes = apps.get_model("seating", "TableCodes")
    tables = list(Table.objects.select_related("session__tournament"))
    for table in tables:
        session = table.session
        table.code = place_code(session.tournament.slug, session.number, table.number)
    Table.objects.bulk_update(tables, ["code"], batch_size=500)
    TableCodes.objects.update_or_create(pk=1, defaults={"secret_mark": secret_mark()})


class Migration(migrations.Migration):
    dependencies = [
        ("seating", "0006_table_winds_drawn"),
    ]

    operations = [
        migrations.CreateModel(
            name="TableCodes",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("secret_mark", models.CharField(max_length=64)),
            ],
        ),
        migrations.AddField(
            model_name="table",
            name="code",
            field=models.CharField(
                db_index=True,
                default="",
                editable=False,
                max_length=9,
                verbose_name="short code",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill_codes, migrations.RunPython.noop),
    ]
