"""Fights move from the conflicts app to their own (issue 25): the same tables
(``conflicts_fight``…, kept by ``db_table``), so this only tells Django's state; nothing in the
database changes. ``conflicts.0007_fights_moved_out`` removes them from the conflicts app."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('campaigns', '0004_campaign_kind'),
        ('characters', '0007_chipentry_created_at_default'),
        ('conflicts', '0006_fight_from_conflict'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Fight',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('title', models.CharField(max_length=160)),
                        ('state', models.JSONField()),
                        ('version', models.PositiveIntegerField(default=0)),
                        ('phase', models.CharField(db_index=True, max_length=12)),
                        ('round', models.PositiveIntegerField(default=1)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('last_move_at', models.DateTimeField(auto_now=True)),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='fights', to='campaigns.campaign')),
                        ('created_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('from_conflict', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='fights', to='conflicts.conflict')),
                        ('session', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='fights', to='campaigns.gamesession')),
                    ],
                    options={
                        'db_table': 'conflicts_fight',
                        'ordering': ['-created_at'],
                    },
                ),
                migrations.CreateModel(
                    name='FightEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seq', models.PositiveIntegerField()),
                        ('version', models.PositiveIntegerField()),
                        ('round', models.PositiveIntegerField()),
                        ('text', models.TextField()),
                        ('secret', models.BooleanField(default=False)),
                        ('cids', models.JSONField(blank=True, default=list)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('fight', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to='fights.fight')),
                    ],
                    options={
                        'db_table': 'conflicts_fightevent',
                        'ordering': ['seq'],
                        'constraints': [models.UniqueConstraint(fields=('fight', 'seq'), name='fight_event_seq_once')],
                    },
                ),
                migrations.CreateModel(
                    name='FightMoveKey',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(max_length=64)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('fight', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='fights.fight')),
                    ],
                    options={
                        'db_table': 'conflicts_fightmovekey',
                        'constraints': [models.UniqueConstraint(fields=('fight', 'key'), name='fight_move_key_once'), models.CheckConstraint(condition=models.Q(('key', ''), _negated=True), name='fight_move_key_not_empty')],
                    },
                ),
                migrations.CreateModel(
                    name='FightSeat',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('cid', models.CharField(max_length=20)),
                        ('kind', models.CharField(choices=[('pc', 'Player character'), ('npc', 'Non-player character'), ('extras', 'Extras')], max_length=6)),
                        ('name', models.CharField(max_length=120)),
                        ('size', models.PositiveSmallIntegerField(default=1)),
                        ('character', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='characters.character')),
                        ('fight', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='fights.fight')),
                    ],
                    options={
                        'db_table': 'conflicts_fightseat',
                        'ordering': ['id'],
                        'constraints': [models.UniqueConstraint(fields=('fight', 'cid'), name='fight_seat_cid_once'), models.CheckConstraint(condition=models.Q(models.Q(('character__isnull', True), ('kind', 'extras')), models.Q(models.Q(('kind', 'extras'), _negated=True), ('character__isnull', False)), _connector='OR'), name='fight_seat_character_or_extras')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
