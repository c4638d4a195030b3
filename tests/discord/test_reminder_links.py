"""A reminder points at the board players must look at, also after a restart (when the bot
remembers no post and the pass reads them, all games' at once, from the database)."""

from __future__ import annotations


async def test_a_reminder_after_a_restart_links_to_the_newest_board(table):
    await table.started_game(time_control="daily")
    await table.alice.slash(table.thread, "move", unit="r1", to="0201")
    await table.alice.slash(table.thread, "end-phase")
    await table.alice.slash(table.thread, "end-phase")  # bob's turn: a new board
    newest = table.boards()[-1]
    await table.restart()
    table.clock.advance(13 * 3600)
    await table.env.advance_time(61)
    [reminder] = [m for m in table.thread.history() if "⏰" in m.content]
    assert f"<@{table.bob.id}>" in reminder.content
    link = f"/channels/{table.thread.guild.id}/{table.thread.id}/{newest.id}"
    assert link in reminder.content, reminder.content


async def test_a_reminder_for_a_game_whose_board_was_never_recorded_links_to_its_thread(table):
    info = await table.started_game(time_control="daily")
    await table.service.store.execute("DELETE FROM posts WHERE game_id = ?", (info.id,))
    await table.restart()
    asked = []
    original = table.service.posts

    async def posts(game_id, kind=None):
        asked.append(game_id)
        return await original(game_id, kind)

    table.service.posts = posts
    table.clock.advance(13 * 3600)
    await table.env.advance_time(61)
    [reminder] = [m for m in table.thread.history() if "⏰" in m.content]
    assert f"<#{table.thread.id}>" in reminder.content, reminder.content
    assert asked == [], "the pass read every game's newest board at once; none is read again"
