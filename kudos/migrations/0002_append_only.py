"""The database keeps the ledger append-only: an entry can't be changed, and (on PostgreSQL)
can't be deleted except with its player (kudos.services.forget names the players being
deleted in that transaction)."""

from django.db import migrations

POSTGRES = """
CREATE FUNCTION kudos_entry_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD.user_id::text = ANY (
      string_to_array(coalesce(current_setting('kudos.forget', true), ''), ',')) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'Kudos entries are append-only: post a correction instead (entry %)', OLD.id;
END $$;
CREATE TRIGGER kudos_entry_append_only BEFORE UPDATE OR DELETE ON kudos_entry
  FOR EACH ROW EXECUTE FUNCTION kudos_entry_append_only();
"""
POSTGRES_UNDO = """
DROP TRIGGER kudos_entry_append_only ON kudos_entry;
DROP FUNCTION kudos_entry_append_only();
"""
SQLITE = """
CREATE TRIGGER kudos_entry_append_only BEFORE UPDATE ON kudos_entry
BEGIN SELECT RAISE(ABORT, 'Kudos entries are append-only: post a correction instead'); END;
"""
SQLITE_UNDO = "DROP TRIGGER kudos_entry_append_only;"


def run(sql: dict):
    def apply(apps, schema_editor):
        statement = sql.get(schema_editor.connection.vendor)
        if statement:
            schema_editor.execute(statement, params=None)

    return apply


class Migration(migrations.Migration):
    dependencies = [("kudos", "0001_ledger")]

    operations = [
        migrations.RunPython(
            run({"postgresql": POSTGRES, "sqlite": SQLITE}),
            run({"postgresql": POSTGRES_UNDO, "sqlite": SQLITE_UNDO}),
        )
    ]
