"""What the Discord frontend owes a channel, kept in the database so that a restart or another
process finds it: notes of posts Discord refused, and buttons still to be taken off."""

from __future__ import annotations

from tests.storage.databases import Opener


async def test_a_note_for_named_users_is_told_once_to_each_and_survives_a_reopen(open_repo: Opener) -> None:
    repo = await open_repo()
    await repo.add_channel_note("c1", "Reminder: bob to move", ["bob", "cat"])
    await repo.add_channel_note("c1", "Reminder: bob to move", ["dan"])  # the same post again
    await repo.close()
    repo = await open_repo()
    assert await repo.take_channel_notes("c1", "amy") == []
    assert await repo.take_channel_notes("c2", "bob") == []
    assert await repo.take_channel_notes("c1", "bob") == ["Reminder: bob to move"]
    assert await repo.take_channel_notes("c1", "bob") == [], "told once"
    assert await repo.take_channel_notes("c1", "dan") == ["Reminder: bob to move"]
    assert await repo.take_channel_notes("c1", "cat") == ["Reminder: bob to move"]
    assert await repo.take_channel_notes("c1", "cat") == []
    await repo.close()


async def test_a_note_for_nobody_in_particular_goes_to_whoever_acts_next(open_repo: Opener) -> None:
    repo = await open_repo()
    await repo.add_channel_note("c1", "The game ended.", None)
    assert await repo.take_channel_notes("c1", "amy") == ["The game ended."]
    assert await repo.take_channel_notes("c1", "bob") == []
    await repo.close()


async def test_moving_the_live_buttons_queues_the_older_message_once(open_repo: Opener) -> None:
    repo = await open_repo()
    await repo.move_live_buttons("c1", ("100", 7))
    assert await repo.button_removals() == []
    await repo.move_live_buttons("c1", ("100", 7))  # the same message again (an edit): nothing owed
    assert await repo.button_removals() == []
    await repo.move_live_buttons("c1", ("101", 7))
    await repo.move_live_buttons("c2", ("200", 8))
    await repo.move_live_buttons("c1", None)  # the game ended: no message carries them
    await repo.close()
    repo = await open_repo()
    assert await repo.button_removals() == [("c1", "100"), ("c1", "101")]
    await repo.button_removed("c1", "100")
    await repo.forget_channel("c1")
    assert await repo.button_removals() == []
    await repo.move_live_buttons("c2", ("201", 8))
    assert await repo.button_removals() == [("c2", "200")]
    await repo.close()
