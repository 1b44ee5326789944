"""Fights onto the table kit's bases (``tables.models.TableRow``, ``TimelineLine``; issue 35):
the same columns, tables (``conflicts_fight``…) and constraint names, so this only tells
Django's state (the campaign's ``related_name`` is now the kit's ``%(class)ss``, still
``fights``); nothing in the database changes (``sqlmigrate fights 0002`` prints no SQL)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0005_formkey'),
        ('fights', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='fight',
                    name='campaign',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='%(class)ss', to='campaigns.campaign'),
                ),
            ],
            database_operations=[],
        ),
    ]
