"""Who may see which table: signed tokens and Telegram's `initData`.

Why signatures and no sessions table: every process that serves the web
table (one `unobot web`, or the one inside `unobot telegram`) must agree on
who a request is from without a shared login database. So each link
carries what it grants and an HMAC-SHA256 over it with the server's secret
(`web.secret`, else one derived from the bot token); a link that was
changed, or made with another secret, fails the check. Nothing else is
trusted: the page never names its player, the token or `initData` does.

Three kinds of proof:

- a **table token** (`table_token(chat)`): names a chat and nothing more.
  In a Telegram Mini App link (`t.me/<bot>/<app>?startapp=<token>`) it says
  which group's game to open; the player is the `initData` user. For a
  browser-only table (`web....` chats, made by `unobot web`) it is the
  share link: whoever has it may pick a name and sit down.
- a **player token** (`player_token(chat, person, name, expiry)`): one
  person at one chat until a time (Discord's and the console's "Open the
  table", and the seat a browser-only player picked a name for).
- Telegram's **initData**, checked by `check_init_data` as the Mini Apps
  documentation says: secret key = HMAC_SHA256(key="WebAppData",
  msg=bot_token); hash = hex HMAC_SHA256(key=secret key, msg=the sorted
  `key=value` lines without `hash`), and `auth_date` no older than allowed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl

#: Where a token's fields are split (never in a base64url text: that has - and _).
SEP = "."
#: In a Telegram start parameter only A-Z a-z 0-9 _ - are allowed: its separator.
START_SEP = "_"
MAC_CHARS = 22  # 16 bytes of HMAC, base64url without padding: cannot be guessed


class LinkError(ValueError):
    """A token or initData that does not check out; `code` is a refusal code of the page."""

    def __init__(self, code: str, chat: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        #: The chat a genuine but expired link names (its refusal says where to get a new one).
        self.chat = chat


@dataclass(frozen=True)
class Viewer:
    """The person a request is from, as its proof says."""

    chat: str
    person: str
    name: str
    lang: str | None = None
    #: What proved it: "telegram" (a Mini App's `initData`), "player" (a player token).
    #: Who is an admin depends on it (adapters/web/admins.py).
    via: str = ""
    #: A player token signed for a chat admin (a Discord member with Manage Server
    #: when they asked `/uno table`): an admin of that chat's table while it is valid.
    admin: bool = False


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: bytes, purpose: str, text: str) -> str:
    return _b64(hmac.new(secret, f"{purpose}\n{text}".encode(), hashlib.sha256).digest()[:16])


def server_secret(configured: str | None, bot_token: str | None) -> bytes:
    """The secret links are signed with: the configured one, else derived from
    the bot token (every process of one bot agrees without being told), else
    a random one for this run (links then die with the process)."""
    if configured:
        return configured.encode()
    if bot_token:
        return hmac.new(bot_token.encode(), b"unobot web table links", hashlib.sha256).digest()
    import secrets

    return secrets.token_bytes(32)


# -- table tokens ------------------------------------------------------------------------

def table_token(secret: bytes, chat: str) -> str:
    """A chat's token: fits Telegram's start parameter (1-512 of A-Z a-z 0-9 _ -)."""
    return _b64(chat.encode()) + START_SEP + _mac(secret, "table", chat)


def read_table_token(secret: bytes, token: str) -> str:
    """The chat a table token names, or LinkError("bad_link")."""
    if not token or len(token) > 512 or not token.isascii():
        raise LinkError("bad_link")
    head, mac = token[:-MAC_CHARS - 1], token[-MAC_CHARS:]
    if token[-MAC_CHARS - 1:-MAC_CHARS] != START_SEP:
        raise LinkError("bad_link")
    try:
        chat = _unb64(head).decode()
    except (ValueError, UnicodeDecodeError):
        raise LinkError("bad_link") from None
    if not chat or not hmac.compare_digest(mac, _mac(secret, "table", chat)):
        raise LinkError("bad_link")
    return chat


# -- player tokens -----------------------------------------------------------------------

def player_token(secret: bytes, chat: str, person: str, name: str, expires: float,
                 lang: str | None = None, *, admin: bool = False) -> str:
    """A signed link for one person at one chat until `expires` (a time.time());
    `admin`: the chat's front-end vouches they are one of its admins (kept as
    the signature's, so a token without it reads as it did before)."""
    fields: list[object] = [chat, person, name, int(expires), lang or ""]
    if admin:
        fields.append(1)
    body = _b64(json.dumps(fields, separators=(",", ":"), ensure_ascii=False).encode())
    return body + SEP + _mac(secret, "player", body)


def read_player_token(secret: bytes, token: str, now: float | None = None) -> Viewer:
    """The viewer a player token names; LinkError "bad_link" or "expired"."""
    body, _, mac = (token or "").partition(SEP)
    if not body or not mac or len(token) > 2048 or not token.isascii():
        raise LinkError("bad_link")
    if not hmac.compare_digest(mac, _mac(secret, "player", body)):
        raise LinkError("bad_link")
    try:
        chat, person, name, expires, lang, *more = json.loads(_unb64(body))
    except (ValueError, TypeError, UnicodeDecodeError):
        raise LinkError("bad_link") from None
    if (time.time() if now is None else now) > float(expires):
        raise LinkError("expired", str(chat).partition("#")[0])
    return Viewer(str(chat), str(person), str(name), str(lang) or None, admin=more == [1])


def chat_named(secret: bytes, auth: object) -> str | None:
    """The chat a page's proof names, even when it does not let the page in (a table token of
    a chat's table opened outside its front-end, an expired player link); None if it names none
    genuinely. Only for saying where that table is: it grants nothing."""
    if not isinstance(auth, dict):
        return None
    try:
        if auth.get("table"):
            return read_table_token(secret, str(auth["table"]))
        if auth.get("player"):
            return read_player_token(secret, str(auth["player"])).chat.partition("#")[0]
    except LinkError as exc:
        return exc.chat
    return None


# -- Telegram's initData -----------------------------------------------------------------

def init_data_hash(bot_token: str, fields: dict[str, str]) -> str:
    """The hash Telegram puts in `initData` for these fields (all but `hash`)."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")
    key = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    return hmac.new(key, check.encode(), hashlib.sha256).hexdigest()


def sign_init_data(bot_token: str, fields: dict[str, str]) -> str:
    """`initData` as Telegram would send it (the tests and the benchmark act as Telegram)."""
    from urllib.parse import urlencode

    return urlencode({**fields, "hash": init_data_hash(bot_token, fields)})


def check_init_data(bot_token: str, init_data: str, max_age: float,
                    now: float | None = None) -> dict[str, str]:
    """The fields of a genuine, fresh `initData`; LinkError "forged" or "expired".

    `max_age` seconds: an `initData` is a bearer proof, so one copied from a
    log or an old tab stops working. `user` is returned as Telegram sent it
    (JSON); `telegram_user` reads it."""
    if not init_data or len(init_data) > 8192:
        raise LinkError("forged")
    try:
        fields = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=True))
    except ValueError:
        raise LinkError("forged") from None
    given = fields.pop("hash", "")
    if not given or not hmac.compare_digest(given, init_data_hash(bot_token, fields)):
        raise LinkError("forged")
    try:
        auth_date = int(fields.get("auth_date", ""))
    except ValueError:
        raise LinkError("forged") from None
    if (time.time() if now is None else now) - auth_date > max_age:
        raise LinkError("expired")
    return fields


def telegram_user(fields: dict[str, str]) -> tuple[str, str, str | None]:
    """(person id, name, language code) of the checked `initData`'s user.

    The id is the Telegram user id as text: the same id the Telegram adapter
    seats that person under, so one person plays one seat from both."""
    try:
        user = json.loads(fields.get("user", ""))
        person = int(user["id"])
    except (ValueError, TypeError, KeyError):
        raise LinkError("forged") from None
    name = str(user.get("first_name") or user.get("username") or person)[:64]
    lang = user.get("language_code")
    return str(person), name, str(lang) if lang else None
