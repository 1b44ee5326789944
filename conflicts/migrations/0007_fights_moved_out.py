"""The fight's models now belong to the fights app (``fights.0001_initial``), on the same tables:
this removes them from the conflicts app's state and points ``Conflict.fight`` (R32) at
``fights.Fight``. The database is not touched."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('conflicts', '0006_fight_from_conflict'),
        ('fights', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='conflict',
                    name='fight',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='conflicts', to='fights.fight'),
                ),
                migrations.DeleteModel(name='FightMoveKey'),
                migrations.DeleteModel(name='FightEvent'),
                migrations.DeleteModel(name='FightSeat'),
                migrations.DeleteModel(name='Fight'),
            ],
            database_operations=[],
        ),
    ]
