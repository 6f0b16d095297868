"""kudos_post: one ledger write in one statement (kudos.services._post), so a credit costs one
round trip to PostgreSQL instead of five. Under the player's Account row lock it checks the
idempotency key, refuses a debit the balance can't cover, moves the balance and appends the
entry. It writes nothing when the player has no Account row, is not a person (when asked), or
owns no such key; the outcome says which."""

from django.db import migrations

POSTGRES = """
CREATE FUNCTION kudos_post(
  p_user bigint, p_amount integer, p_kind varchar, p_key varchar, p_memo varchar,
  p_reference varchar, p_created timestamptz, p_people_only boolean)
RETURNS TABLE (
  outcome text, entry_id bigint, entry_user bigint, entry_amount integer, entry_kind varchar,
  entry_memo varchar, entry_reference varchar, entry_balance bigint, entry_created timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  held bigint;
  person boolean;
  earlier kudos_entry%ROWTYPE;
BEGIN
  SELECT a.balance, u.role = 'person' INTO held, person
    FROM kudos_account a JOIN accounts_user u ON u.id = a.user_id
    WHERE a.user_id = p_user FOR UPDATE OF a;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'no account', NULL::bigint, p_user, NULL::integer, NULL::varchar,
      NULL::varchar, NULL::varchar, NULL::bigint, NULL::timestamptz;
    RETURN;
  END IF;
  IF p_people_only AND NOT person THEN
    RETURN QUERY SELECT 'not a person', NULL::bigint, p_user, NULL::integer, NULL::varchar,
      NULL::varchar, NULL::varchar, NULL::bigint, NULL::timestamptz;
    RETURN;
  END IF;
  -- Keys are per player and the player's row is locked: no other write can add this key now.
  SELECT * INTO earlier FROM kudos_entry WHERE key = p_key;
  IF FOUND THEN
    RETURN QUERY SELECT CASE WHEN earlier.user_id = p_user THEN 'paid before' ELSE 'not theirs'
      END, earlier.id, earlier.user_id, earlier.amount, earlier.kind, earlier.memo,
      earlier.reference, earlier.balance_after, earlier.created;
    RETURN;
  END IF;
  IF held + p_amount < 0 THEN
    RETURN QUERY SELECT 'short', NULL::bigint, p_user, p_amount, p_kind, p_memo, p_reference,
      held, NULL::timestamptz;
    RETURN;
  END IF;
  UPDATE kudos_account SET balance = held + p_amount, updated = now() WHERE user_id = p_user;
  RETURN QUERY INSERT INTO kudos_entry
      (user_id, amount, kind, key, memo, reference, balance_after, created)
    VALUES (p_user, p_amount, p_kind, p_key, p_memo, p_reference, held + p_amount, p_created)
    RETURNING 'paid', id, user_id, amount, kind, memo, reference, balance_after, created;
END $$;
"""
POSTGRES_UNDO = """
DROP FUNCTION kudos_post(bigint, integer, varchar, varchar, varchar, varchar, timestamptz,
  boolean);
"""


def run(sql: str):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return apply


class Migration(migrations.Migration):
    dependencies = [("kudos", "0006_streak_day_shared"), ("accounts", "0001_users")]

    operations = [migrations.RunPython(run(POSTGRES), run(POSTGRES_UNDO))]
