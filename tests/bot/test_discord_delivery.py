"""How the Discord frontend keeps a post Discord did not take, and how it lays out pictures where
it may not use embeds."""

from __future__ import annotations

from bot.discord_delivery import decode_parts, encode_parts, without_embeds
from bot.discord_views import MessagePart
from bot.posts import Attachment, Choice


def _turn_notice() -> MessagePart:
    return MessagePart(
        content="<@100000000000000001> your turn (stand-in)",
        attachments=[
            Attachment("board.png", b"\x89PNG stand-in board", "The board in words"),
            Attachment("close-up.png", b"\x89PNG stand-in close-up", "The close-up in words"),
            Attachment("moves.txt", b"stand-in text"),
        ],
        choices=[Choice("Pass", "g:1:2:a:pass", "primary")],
        placeholder="Choose",
        mentions=["100000000000000001"],
        append_key="turn:1",
    )


def test_an_owed_post_is_kept_whole_pictures_buttons_and_pings() -> None:
    parts = [_turn_notice(), MessagePart("a second message")]
    assert decode_parts(encode_parts(parts)) == parts


def test_without_embeds_each_later_picture_is_a_message_of_its_own_with_the_buttons_last() -> None:
    first, close_up = without_embeds(_turn_notice())
    assert [a.filename for a in first.attachments] == ["board.png", "moves.txt"]
    assert first.mentions == ["100000000000000001"] and not first.choices
    assert close_up.content == "" and [a.filename for a in close_up.attachments] == ["close-up.png"]
    assert [c.label for c in close_up.choices] == ["Pass"] and close_up.append_key == "turn:1"
    plain = MessagePart("no pictures")
    assert without_embeds(plain) == [plain]
