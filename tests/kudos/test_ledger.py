"""The ledger: once per key, never negative, append-only, and verify_ledger catches any
mismatch."""

import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from kudos import rules, services
from kudos.models import Account, Entry, Streak

pytestmark = pytest.mark.django_db(transaction=True)

PLAY = Entry.Kind.PLAY


def pay(user, amount, key):
    return services.credit(user_id=user.pk, amount=amount, kind=PLAY, key=key, memo="Test pay")


def balance(user) -> int:
    return Account.objects.get(user=user).balance


def in_parallel(n, work):
    """Run work(i) in n threads at once, each on its own database connection."""
    start = threading.Barrier(n)
    results, errors = [None] * n, []

    def run(i):
        try:
            start.wait()
            results[i] = work(i)
        except Exception as exc:  # collected and raised in the test
            errors.append(exc)
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, errors


def test_a_key_pays_once(real_services, player):
    ann = player()
    first, created = pay(ann, 10, "test:1")
    again, created_again = pay(ann, 10, "test:1")
    assert created and not created_again and again.pk == first.pk
    assert balance(ann) == 10 and Entry.objects.filter(user=ann).count() == 1
    assert first.balance_after == 10 and first.memo == "Test pay"


def test_a_short_balance_refuses_a_debit_with_a_sentence(real_services, player):
    ann = player()
    pay(ann, 30, "test:1")
    granted = []
    with pytest.raises(services.NotEnoughKudos) as refused:
        services.spend(
            user_id=ann.pk,
            amount=50,
            key="shop:1",
            memo="A streak freeze",
            grant=lambda: granted.append(1),
        )
    assert refused.value.message == "This costs 50 Kudos and you have 30."
    assert balance(ann) == 30 and granted == [] and not Entry.objects.filter(key="shop:1").exists()


def test_spend_and_grant_in_one_transaction(real_services, player):
    ann = player()
    pay(ann, 100, "test:1")

    def freeze():
        return services.give_freeze(user_id=ann.pk)

    entry, created = services.spend(
        user_id=ann.pk, amount=40, key="shop:1", memo="A streak freeze", grant=freeze
    )
    assert created and entry.amount == -40 and balance(ann) == 60
    assert Streak.objects.get(account_id=ann.pk).freezes == 1
    # The same purchase again (a double click): nothing taken, nothing granted.
    _, created = services.spend(
        user_id=ann.pk, amount=40, key="shop:1", memo="A streak freeze", grant=freeze
    )
    assert not created and balance(ann) == 60 and Streak.objects.get(account_id=ann.pk).freezes == 1
    services.spend(user_id=ann.pk, amount=40, key="shop:2", memo="A streak freeze", grant=freeze)
    assert Streak.objects.get(account_id=ann.pk).freezes == rules.MAX_FREEZES
    # A grant that is refused undoes its debit.
    pay(ann, 100, "test:2")
    with pytest.raises(services.Refused, match="already hold 2 streak freezes"):
        services.spend(
            user_id=ann.pk, amount=40, key="shop:3", memo="A streak freeze", grant=freeze
        )
    assert balance(ann) == 120 and not Entry.objects.filter(key="shop:3").exists()


def test_a_correction_is_a_new_entry(real_services, player):
    ann = player()
    paid, _ = pay(ann, 25, "test:1")
    services.correct(
        user_id=ann.pk, amount=-25, reason="Paid twice by mistake", key="correction:t-1"
    )
    assert balance(ann) == 0
    assert list(Entry.objects.filter(user=ann).order_by("id").values_list("amount", flat=True)) == [
        25,
        -25,
    ]
    with pytest.raises(services.NotEnoughKudos, match="has 0 Kudos: a correction can't take 5"):
        services.correct(user_id=ann.pk, amount=-5, reason="More", key="correction:t-2")


def test_the_database_refuses_a_negative_balance_and_any_edit(real_services, player):
    ann = player()
    entry, _ = pay(ann, 10, "test:1")
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(user=ann).update(balance=-1)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Entry.objects.filter(pk=entry.pk).update(amount=1000)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Entry.objects.filter(pk=entry.pk).delete()
    with pytest.raises(ValueError):
        entry.save()
    with pytest.raises(ValueError):
        entry.delete()
    assert Entry.objects.get(pk=entry.pk).amount == 10


def test_verify_ledger_passes_and_fails(real_services, player, capsys):
    ann, bob = player(), player()
    pay(ann, 10, "test:1")
    pay(ann, 5, "test:2")
    pay(bob, 7, "test:3")
    call_command("verify_ledger")
    assert "Kudos ledger OK: 2 players, 3 entries, 22 Kudos held." in capsys.readouterr().out
    Account.objects.filter(user=bob).update(balance=8)
    with pytest.raises(CommandError, match="1 problem"):
        call_command("verify_ledger")
    assert (
        f"Player {bob.pk} holds 8 Kudos but their entries add up to 7." in capsys.readouterr().err
    )
    Account.objects.filter(user=bob).update(balance=7)
    # An entry edited behind the ledger's back (the trigger off): the running sum disagrees.
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE kudos_entry DISABLE TRIGGER kudos_entry_append_only")
        cursor.execute("UPDATE kudos_entry SET amount = 11 WHERE key = 'test:1'")
        cursor.execute("ALTER TABLE kudos_entry ENABLE TRIGGER kudos_entry_append_only")
    with pytest.raises(CommandError):
        call_command("verify_ledger")
    err = capsys.readouterr().err
    assert f"Player {ann.pk} holds 15 Kudos but their entries add up to 16." in err
    assert "says the balance became 10, but the entries up to it add up to 11" in err


def test_fifty_parallel_credits_of_one_key_pay_once(real_services, player):
    ann = player()
    results, errors = in_parallel(50, lambda i: pay(ann, 10, "test:same"))
    assert errors == []
    assert sum(created for _, created in results) == 1
    assert balance(ann) == 10 and Entry.objects.filter(user=ann).count() == 1


def test_parallel_spends_never_overdraw(real_services, player):
    ann = player()
    pay(ann, 100, "test:1")

    def buy(i):
        return services.spend(user_id=ann.pk, amount=30, key=f"shop:{i}", memo="Something")

    results, errors = in_parallel(10, buy)
    assert len(errors) == 7 and all(isinstance(e, services.NotEnoughKudos) for e in errors)
    assert balance(ann) == 10
    call_command("verify_ledger")


def test_a_deleted_player_takes_their_kudos_with_them(real_services, player):
    ann, bob = player(), player()
    pay(ann, 10, "test:1")
    pay(bob, 10, "test:2")
    ann_id = ann.pk
    ann.delete()
    assert not Entry.objects.filter(user_id=ann_id).exists()
    assert services.credit(user_id=ann_id, amount=5, kind=PLAY, key="test:3", memo="Late") == (
        None,
        False,
    )
    call_command("verify_ledger")
    assert balance(bob) == 10


def test_a_credit_is_one_statement(real_services, player):
    """A credit checks its key, moves the balance and appends its entry in one round trip to
    the database (kudos_post), and a repeated key costs the same one: the bench's goal rests
    on it."""
    ann = player()
    Account.objects.get_or_create(user=ann)
    with CaptureQueriesContext(connection) as first:
        entry, created = pay(ann, 10, "test:1")
    with CaptureQueriesContext(connection) as again:
        earlier, created_again = pay(ann, 10, "test:1")
    assert created and not created_again and earlier.pk == entry.pk
    assert [q["sql"].split("(")[0] for q in first] == ["SELECT * FROM kudos_post"]
    assert len(again) == 1
    assert (entry.amount, entry.balance_after, entry.memo) == (10, 10, "Test pay")
    assert Entry.objects.get(pk=entry.pk).balance_after == 10 == balance(ann)
