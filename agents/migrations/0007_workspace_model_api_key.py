from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("agents", "0006_run_messages"),
    ]

    operations = [
        migrations.AddField(
            model_name="workspace",
            name="model_api_key",
            field=models.CharField(
                blank=True,
                help_text="The key sent to this workspace's own model server (model_base_url); "
                "the global MODEL_API_KEY never is. Write-only: never shown back.",
                max_length=500,
            ),
        ),
    ]
