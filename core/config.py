"""The bot's configuration: ``config.yaml`` plus a few environment overrides, typed.

Why one typed object: the CLI, the Telegram adapter and the store factory all
need the same handful of settings, and a typo in a YAML file should stop the
bot at start-up with the file and line, not surface as a ``KeyError`` at the
first webhook. Why no driver imports: core must stay free of ``redis`` and
``telegram`` (see ``tests/test_layering.py``); this module only reads and
checks values, the adapters act on them.

Where the file comes from, first match wins:

1. ``$UNOBOT_CONFIG`` (a missing file is then an error: it was asked for);
2. ``./config.yaml``;
3. nothing: the defaults below.

Environment variables override the file (so a secret need not be written
down, and a container can be pointed elsewhere without editing it):

=========================  ======================
variable                   overrides
=========================  ======================
``UNOBOT_REDIS_URL``       ``redis.url``
``UNOBOT_DATA_DIR``        ``store.data_dir``
``TELEGRAM_BOT_TOKEN``     ``telegram.token``
``UNOBOT_TELEGRAM_API_URL`` ``telegram.base_url``
``DISCORD_BOT_TOKEN``      ``discord.token``
``UNOBOT_DISCORD_API_URL`` ``discord.api_url``
``UNOBOT_DISCORD_GATEWAY_URL`` ``discord.gateway_url``
``UNOBOT_WEB_SECRET``      ``web.secret``
``UNOBOT_WEB_URL``         ``web.public_url``
=========================  ======================

An empty environment variable counts as unset.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, cast

from .chat.i18n import N_, Msg
from .variants import VariantError, load_yaml_with_lines, resolve, set_configured_path

CONFIG_ENV = "UNOBOT_CONFIG"
DEFAULT_FILE = "config.yaml"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

MEMORY = "memory"
"""``redis.url`` value that selects the in-process store (nothing survives a restart)."""
EMBEDDED = "embedded"
"""``redis.url`` value that, like null, selects the embedded redis-server."""

URL_SCHEMES = ("redis://", "rediss://", "unix://", "redis+cluster://", "rediss+cluster://")
"""What a Redis store URL starts with (the config's, and every --store / --redis on a command line)."""
CLUSTER_SCHEMES = {"redis://": "redis+cluster://", "rediss://": "rediss+cluster://"}
"""Plain scheme -> the scheme that selects Redis Cluster (``redis.cluster: true`` rewrites to it)."""
WEBHOOK_SECRET_RE = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what Telegram accepts as a webhook secret
#: What is said of a webhook secret that does not match it (the file's key, or `--secret`).
WEBHOOK_SECRET_FORM = N_("Telegram accepts 1-256 characters: letters, digits, _ and -")
_LANG_RE = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")  # a catalogue's name: es, pt_BR, zh_TW
_PREFIX_RE = re.compile(r"[^{}\s]{1,64}")


class ConfigError(ValueError):
    """A configuration that cannot be used, with the file, line and key at fault.

    The message is kept as a `Msg` (as `VariantError`'s): `text(lang)` says
    it in the reader's language (an operator's `unobot replay` in Spanish:
    `core/cli_text.py`'s `config_error_line`), while `str()` and `message`
    stay English (logs). The file, line and key are never translated: they
    are what the person looks for."""

    def __init__(self, source: str, line: int | None, key: str, message: str | Msg) -> None:
        self.source = source
        self.line = line
        self.key = key
        self.msg = message if isinstance(message, Msg) else Msg.plain(message)
        self.message = self.msg.text()
        super().__init__(self.text())

    def text(self, lang: str | None = None) -> str:
        """`file:line: key: message`, the message in `lang` (None: English)."""
        where = f"{self.source}:{self.line}" if self.line else self.source
        said = self.msg.text(lang)
        return f"{where}: {self.key}: {said}" if self.key else f"{where}: {said}"


# --------------------------------------------------------------------------- the typed config


@dataclass(frozen=True, slots=True)
class RedisConfig:
    """Where games are stored. ``url`` None means the embedded redis-server.

    ``cluster``: the URL names a Redis Cluster node. Then ``url`` is always in
    its cluster form (``redis+cluster://``), whichever way it was asked for
    (``redis.cluster: true`` with a ``redis://`` URL, or the URL itself), so
    every place that opens a store from ``url`` gets a cluster client.
    """

    url: str | None = None
    cluster: bool = False
    #: Replicas that must have a write before a move is answered (WAIT; 0: none asked).
    wait_replicas: int = 0
    #: The primary must also have fsynced the write to its AOF (WAITAOF 1 0; Redis 7.2+).
    wait_aof: bool = False

    @property
    def memory(self) -> bool:
        """True when games live in this process only (``url: memory``)."""
        return self.url == MEMORY


@dataclass(frozen=True, slots=True)
class StoreConfig:
    """How the store keeps games (see ``core/store.py`` and ``adapters/redis_store.py``)."""

    data_dir: Path = Path("data")
    prefix: str = "unobot"
    game_ttl_hours: float = 48.0
    connect_timeout: float = 1.0
    socket_timeout: float = 2.0

    @property
    def game_ttl(self) -> float | None:
        """Seconds a game lives without a move (None: forever, when the hours are 0)."""
        return self.game_ttl_hours * 3600.0 if self.game_ttl_hours > 0 else None


@dataclass(frozen=True, slots=True)
class RecordsConfig:
    """How long finished games are kept (``core/chat/records.py``): ``keep_days``
    None keeps them for ever (``forever`` in the file), 0 keeps none."""

    keep_days: float | None = 30.0
    max_per_chat: int = 200
    max_people_per_chat: int = 1000
    """People a chat's standings hold (who played least recently goes first)."""

    @property
    def keep(self) -> float | None:
        """Seconds a finished game is kept (None: for ever)."""
        return None if self.keep_days is None else self.keep_days * 86400.0


@dataclass(frozen=True, slots=True)
class WebhookConfig:
    """Telegram webhook; ``url`` None means long polling instead."""

    url: str | None = None
    listen: str = "0.0.0.0"
    port: int = 8443
    secret: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class TelegramConfig:
    """The Telegram adapter's settings. The token is kept out of ``repr`` (logs)."""

    token: str | None = field(default=None, repr=False)
    base_url: str | None = None
    webhook: WebhookConfig = field(default_factory=WebhookConfig)
    #: The Telegram user id that owns the bot's card sticker sets; None: cards as text.
    sticker_owner: int | None = None


@dataclass(frozen=True, slots=True)
class DiscordConfig:
    """The Discord adapter's settings: the token (kept out of ``repr``), and
    the REST and gateway addresses (None: Discord's; tests point them at a
    local server)."""

    token: str | None = field(default=None, repr=False)
    api_url: str | None = None
    gateway_url: str | None = None
    #: Ask Discord for the privileged Server Members intent (enabled on the
    #: Developer Portal's Bot page too): a member who leaves the server, or is
    #: kicked, loses their seats at once. Without it a ban still does (the
    #: moderation intent is not privileged), a leave or kick at their turn's end.
    members_intent: bool = False


@dataclass(frozen=True, slots=True)
class WebTableConfig:
    """The web table (adapters/web): `unobot web`, and inside `unobot telegram`
    / `unobot discord` when ``enabled``. The secret signs the table links
    (kept out of ``repr``; None: derived from the bot token)."""

    enabled: bool = False
    listen: str = "127.0.0.1"
    port: int = 8080
    #: The address players open (the reverse proxy's https URL); None: http://listen:port.
    public_url: str | None = None
    secret: str | None = field(default=None, repr=False)
    #: The Telegram Mini App's short name (BotFather /newapp); None: no "Open the table" button.
    telegram_app: str | None = None
    #: Minutes a Telegram `initData` is accepted after Telegram signed it.
    init_data_minutes: int = 1440
    #: `unobot web` may open browser-only tables (anyone reaching the page may).
    browser_tables: bool = True


@dataclass(frozen=True, slots=True)
class VariantsConfig:
    """Where variant files are looked for besides the shipped ones and the
    plugins' (`unobot.variants` entry points): folders, searched first."""

    path: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Defaults for a chat that has not chosen otherwise."""

    default_variant: str = "official"
    default_language: str = "en"
    turn_seconds: int = 0
    lobby_minutes: int = 30
    #: Seconds the `expert` AI searches per move (capped by a turn timer).
    ai_seconds: float = 0.2


@dataclass(frozen=True, slots=True)
class Config:
    """Everything ``config.yaml`` can say. ``source`` is the file read (None: defaults)."""

    redis: RedisConfig = field(default_factory=RedisConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    telegram: TelegramConfig = field(default_factory=TelegramConfig)
    game: GameConfig = field(default_factory=GameConfig)
    source: str | None = None
    discord: DiscordConfig = field(default_factory=DiscordConfig)
    variants: VariantsConfig = field(default_factory=VariantsConfig)
    web: WebTableConfig = field(default_factory=WebTableConfig)
    records: RecordsConfig = field(default_factory=RecordsConfig)


def _records_config(reader: Any, top: Mapping[str, Any]) -> RecordsConfig:
    """The ``records`` section: ``keep_days`` (a number of days, 0, or ``forever``), ``max_per_chat``,
    ``max_people_per_chat``."""
    raw = reader.mapping(top.get("records"), ("records",))
    reader.known(raw, ("records",), ("keep_days", "max_per_chat", "max_people_per_chat"))
    defaults = RecordsConfig()
    keep_raw = raw.get("keep_days")
    keep: float | None
    if keep_raw == "forever":
        keep = None
    else:
        keep = reader.number(keep_raw, ("records", "keep_days"), defaults.keep_days or 30.0, minimum=0)
    return RecordsConfig(keep_days=keep,
                         max_per_chat=reader.integer(raw.get("max_per_chat"), ("records", "max_per_chat"),
                                                     defaults.max_per_chat, minimum=1),
                         # at least a full table (10 seats): a match never drops its own players
                         max_people_per_chat=reader.integer(raw.get("max_people_per_chat"),
                                                            ("records", "max_people_per_chat"),
                                                            defaults.max_people_per_chat, minimum=10))


# --------------------------------------------------------------------------- loading


def config_path(environ: Mapping[str, str] | None = None) -> Path | None:
    """The file to read: ``$UNOBOT_CONFIG``, else ``./config.yaml`` if it exists, else None."""
    env = os.environ if environ is None else environ
    named = env.get(CONFIG_ENV)
    if named:
        return Path(named)
    default = Path(DEFAULT_FILE)
    return default if default.is_file() else None


def load_config(
    path: str | os.PathLike[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    check_variant: bool = True,
) -> Config:
    """Read the configuration (``path``, or where :func:`config_path` says) and apply env overrides.

    Raises :class:`ConfigError` naming the file and line of the first bad value.
    ``check_variant=False`` leaves out loading ``game.default_variant`` (its
    name is still read): that loads every rule plugin, which a bot does once it
    takes updates rather than before (``unobot telegram`` checks it then).
    """
    env = os.environ if environ is None else environ
    file = Path(path) if path is not None else config_path(env)
    config = Config()
    if file is not None:
        source = str(file)
        try:
            text = file.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigError(source, None, "", Msg(N_("no such file (named by ${variable})"), variable=CONFIG_ENV)
                              if path is None else Msg(N_("no such file"))) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(source, None, "", Msg(N_("cannot read it: {problem}"), problem=str(exc))) from None
        config = parse_config(text, source, base_dir=file.resolve().parent, check_variant=check_variant)
    return apply_env(config, env)


def parse_config(text: str, source: str, *, base_dir: Path | None = None, check_variant: bool = True) -> Config:
    """Check and convert the YAML text of a config file.

    A relative ``store.data_dir`` is taken relative to ``base_dir`` (the
    file's folder), so the bot finds its data wherever it is started from.
    """
    try:
        data, lines = load_yaml_with_lines(text, source)
    except VariantError as exc:  # the shared YAML reader reports in the variants' terms (a Msg, and its fix)
        said = exc.msg if exc.fix_msg is None else Msg(N_("{problem} ({fix})"), problem=exc.msg, fix=exc.fix_msg)
        raise ConfigError(source, exc.line, "", said) from None
    reader = _Reader(source, lines)
    if data is None:
        data = {}
    top = reader.mapping(data, ())
    reader.known(top, (), ("redis", "store", "telegram", "game", "discord", "variants", "web",
                             "records"))

    variants_raw = reader.mapping(top.get("variants"), ("variants",))
    reader.known(variants_raw, ("variants",), ("path",))
    raw_path = variants_raw.get("path") or []
    if isinstance(raw_path, str):
        raw_path = [raw_path]
    if not isinstance(raw_path, list) or not all(isinstance(p, str) for p in raw_path):
        reader.fail(("variants", "path"), Msg(N_("expected a folder or a list of folders")))
    folders = tuple(_resolve_dir(p, base_dir) for p in raw_path)
    for i, folder in enumerate(folders):
        if not folder.is_dir():
            reader.fail(("variants", "path", str(i)) if len(raw_path) > 1 else ("variants", "path"),
                        Msg(N_("{folder} is not a folder"), folder=repr(str(folder))))
    set_configured_path(list(folders))

    redis_raw = reader.mapping(top.get("redis"), ("redis",))
    reader.known(redis_raw, ("redis",), _names(RedisConfig))
    url = reader.url(redis_raw.get("url"), ("redis", "url"))
    cluster = redis_raw.get("cluster", False)
    if not isinstance(cluster, bool):
        reader.fail(("redis", "cluster"), _not_a_flag(cluster))
    wait_replicas = redis_raw.get("wait_replicas")
    if wait_replicas is None:
        wait_replicas = 0
    elif isinstance(wait_replicas, bool) or not isinstance(wait_replicas, int) or wait_replicas < 0:
        reader.fail(("redis", "wait_replicas"), Msg(N_("expected how many replicas must have each save before "
                                                       "it is answered: a whole number, 0 (none) or more, "
                                                       "not {value}"), value=repr(wait_replicas)))
    wait_aof = redis_raw.get("wait_aof", False)
    if wait_aof is None:
        wait_aof = False
    elif not isinstance(wait_aof, bool):
        reader.fail(("redis", "wait_aof"), _not_a_flag(wait_aof))
    redis_config = replace(_redis_config(url, cluster, reader, ("redis", "cluster")),
                           wait_replicas=wait_replicas, wait_aof=wait_aof)

    store_raw = reader.mapping(top.get("store"), ("store",))
    reader.known(store_raw, ("store",), _names(StoreConfig))
    store = StoreConfig()
    data_dir = reader.text(store_raw.get("data_dir"), ("store", "data_dir"))
    prefix = reader.text(store_raw.get("prefix"), ("store", "prefix"))
    if prefix is not None and not _PREFIX_RE.fullmatch(prefix):
        reader.fail(("store", "prefix"), Msg(N_("{prefix} is not a usable key prefix "
                                                "(1-64 characters, no braces or spaces)"), prefix=repr(prefix)))
    store = StoreConfig(
        data_dir=_resolve_dir(data_dir, base_dir) if data_dir else store.data_dir,
        prefix=prefix or store.prefix,
        game_ttl_hours=reader.number(store_raw.get("game_ttl_hours"), ("store", "game_ttl_hours"),
                                     store.game_ttl_hours, minimum=0),
        connect_timeout=reader.number(store_raw.get("connect_timeout"),
                                      ("store", "connect_timeout"), store.connect_timeout,
                                      minimum=0.001),
        socket_timeout=reader.number(store_raw.get("socket_timeout"), ("store", "socket_timeout"),
                                     store.socket_timeout, minimum=0.001),
    )

    tg_raw = reader.mapping(top.get("telegram"), ("telegram",))
    reader.known(tg_raw, ("telegram",), ("token", "base_url", "webhook", "sticker_owner"))
    hook_raw = reader.mapping(tg_raw.get("webhook"), ("telegram", "webhook"))
    reader.known(hook_raw, ("telegram", "webhook"), _names(WebhookConfig))
    hook_defaults = WebhookConfig()
    secret = reader.text(hook_raw.get("secret"), ("telegram", "webhook", "secret"))
    if secret is not None and not WEBHOOK_SECRET_RE.fullmatch(secret):
        reader.fail(("telegram", "webhook", "secret"), Msg(WEBHOOK_SECRET_FORM))
    port = reader.integer(hook_raw.get("port"), ("telegram", "webhook", "port"),
                          hook_defaults.port, minimum=1)
    if port > 65535:
        reader.fail(("telegram", "webhook", "port"), _not_a_port(port))
    owner_raw = tg_raw.get("sticker_owner")
    sticker_owner = None if owner_raw is None else reader.integer(
        owner_raw, ("telegram", "sticker_owner"), 0, minimum=1)
    telegram = TelegramConfig(
        sticker_owner=sticker_owner,
        token=reader.text(tg_raw.get("token"), ("telegram", "token")),
        base_url=reader.http_url(tg_raw.get("base_url"), ("telegram", "base_url")),
        webhook=WebhookConfig(
            url=reader.http_url(hook_raw.get("url"), ("telegram", "webhook", "url")),
            listen=reader.text(hook_raw.get("listen"), ("telegram", "webhook", "listen"))
            or hook_defaults.listen,
            port=port,
            secret=secret,
        ),
    )

    game_raw = reader.mapping(top.get("game"), ("game",))
    reader.known(game_raw, ("game",), _names(GameConfig))
    game_defaults = GameConfig()
    variant = reader.text(game_raw.get("default_variant"), ("game", "default_variant"))
    if variant is not None and check_variant:
        try:
            resolve(variant)  # it must load, not just exist: a broken default stops the bot here
        except VariantError as exc:
            said = exc.msg
            if exc.line:
                said = Msg(N_("{problem} (in {place})"), problem=said, place=f"{exc.source}:{exc.line}")
            if exc.fix_msg is not None:
                said = Msg(N_("{problem} ({fix})"), problem=said, fix=exc.fix_msg)
            reader.fail(("game", "default_variant"), said)
    language = reader.text(game_raw.get("default_language"), ("game", "default_language"))
    if language is not None:
        known = languages()
        if not _LANG_RE.fullmatch(language) or language not in known:
            reader.fail(("game", "default_language"),
                        Msg(N_("unknown language {language}; known: {known}"), language=repr(language),
                            known=", ".join(known)))
    game = GameConfig(
        default_variant=variant or game_defaults.default_variant,
        default_language=language or game_defaults.default_language,
        turn_seconds=_turn_seconds(reader, game_raw.get("turn_seconds"), game_defaults.turn_seconds),
        lobby_minutes=reader.integer(game_raw.get("lobby_minutes"), ("game", "lobby_minutes"),
                                     game_defaults.lobby_minutes, minimum=1),
        ai_seconds=reader.number(game_raw.get("ai_seconds"), ("game", "ai_seconds"),
                                 game_defaults.ai_seconds, minimum=0.01),
    )
    dc_raw = reader.mapping(top.get("discord"), ("discord",))
    reader.known(dc_raw, ("discord",), _names(DiscordConfig))
    gateway_url = reader.text(dc_raw.get("gateway_url"), ("discord", "gateway_url"))
    if gateway_url is not None and not gateway_url.startswith(("ws://", "wss://")):
        reader.fail(("discord", "gateway_url"), Msg(N_("{url} is not a ws(s) URL"), url=repr(gateway_url)))
    members_intent = dc_raw.get("members_intent", False)
    if not isinstance(members_intent, bool):
        reader.fail(("discord", "members_intent"), _not_a_flag(members_intent))
    discord = DiscordConfig(token=reader.text(dc_raw.get("token"), ("discord", "token")),
                            api_url=reader.http_url(dc_raw.get("api_url"), ("discord", "api_url")),
                            gateway_url=gateway_url, members_intent=members_intent)
    return Config(redis=redis_config, store=store, telegram=telegram, game=game,
                  source=source, discord=discord, variants=VariantsConfig(folders),
                  web=_web_config(reader, top), records=_records_config(reader, top))


def _web_config(reader: _Reader, top: dict[str, Any]) -> WebTableConfig:
    raw = reader.mapping(top.get("web"), ("web",))
    reader.known(raw, ("web",), _names(WebTableConfig))
    d = WebTableConfig()
    flags = {}
    for key in ("enabled", "browser_tables"):
        value = raw.get(key, getattr(d, key))
        if not isinstance(value, bool):
            reader.fail(("web", key), _not_a_flag(value))
        flags[key] = value
    port = reader.integer(raw.get("port"), ("web", "port"), d.port, minimum=1)
    if port > 65535:
        reader.fail(("web", "port"), _not_a_port(port))
    app = reader.text(raw.get("telegram_app"), ("web", "telegram_app"))
    if app is not None and not re.fullmatch(r"[A-Za-z0-9_]{3,30}", app):
        reader.fail(("web", "telegram_app"), Msg(N_("{app} is not a Mini App short name "
                                                    "(3-30 letters, digits or _, as BotFather's /newapp gave it)"),
                                                 app=repr(app)))
    return WebTableConfig(
        enabled=flags["enabled"], browser_tables=flags["browser_tables"],
        listen=reader.text(raw.get("listen"), ("web", "listen")) or d.listen, port=port,
        public_url=reader.http_url(raw.get("public_url"), ("web", "public_url")),
        secret=reader.text(raw.get("secret"), ("web", "secret")), telegram_app=app,
        init_data_minutes=reader.integer(raw.get("init_data_minutes"), ("web", "init_data_minutes"),
                                         d.init_data_minutes, minimum=1))


def apply_env(config: Config, environ: Mapping[str, str] | None = None) -> Config:
    """The config with the environment overrides applied (empty variables are ignored)."""
    env = os.environ if environ is None else environ

    def get(name: str) -> str | None:
        value = env.get(name, "").strip()
        return value or None

    redis_url = get("UNOBOT_REDIS_URL")
    if redis_url is not None:
        checked_url = _Reader("$UNOBOT_REDIS_URL", {}).url(redis_url, ())
        config = replace(config, redis=replace(_redis_config(
            checked_url, config.redis.cluster, _Reader("$UNOBOT_REDIS_URL", {}), ()),
            wait_replicas=config.redis.wait_replicas, wait_aof=config.redis.wait_aof))
    if config.redis.cluster and config.redis.url is None:
        raise ConfigError(config.source or "config", None, "redis.cluster",
                          Msg(N_("a Redis Cluster needs a redis:// or rediss:// URL: set redis.url "
                                 "or ${variable}"), variable="UNOBOT_REDIS_URL"))
    data_dir = get("UNOBOT_DATA_DIR")
    if data_dir is not None:
        config = replace(config, store=replace(config.store, data_dir=Path(data_dir)))
    token = get("TELEGRAM_BOT_TOKEN")
    if token is not None:
        config = replace(config, telegram=replace(config.telegram, token=token))
    base_url = get("UNOBOT_TELEGRAM_API_URL")
    if base_url is not None:
        checked = _Reader("$UNOBOT_TELEGRAM_API_URL", {}).http_url(base_url, ())
        config = replace(config, telegram=replace(config.telegram, base_url=checked))
    for var, key in (("DISCORD_BOT_TOKEN", "token"), ("UNOBOT_DISCORD_API_URL", "api_url"),
                     ("UNOBOT_DISCORD_GATEWAY_URL", "gateway_url")):
        value = get(var)
        if value is not None:
            if key == "api_url":
                value = _Reader(f"${var}", {}).http_url(value, ())
            fields: dict[str, Any] = {key: value}
            config = replace(config, discord=replace(config.discord, **fields))
    web_secret, web_url = get("UNOBOT_WEB_SECRET"), get("UNOBOT_WEB_URL")
    if web_secret is not None:
        config = replace(config, web=replace(config.web, secret=web_secret))
    if web_url is not None:
        checked_web = _Reader("$UNOBOT_WEB_URL", {}).http_url(web_url, ())
        config = replace(config, web=replace(config.web, public_url=checked_web))
    return config


def redis_address_problem(url: str) -> Msg | None:
    """What is wrong with the hosts of a Redis URL (`redis://h:99999/0`, `h:abc`), or None.

    Why: the scheme alone was checked, and redis-py's own parser met a port
    that is no port as a ValueError traceback ("Port out of range 0-65535")
    from every command that opens a store. A cluster URL may name several
    hosts (`redis+cluster://h1:7000,h2:7000`); a unix socket has none."""
    from urllib.parse import urlsplit

    if url.startswith("unix://"):
        return None
    hosts = urlsplit(url).netloc.rpartition("@")[2]
    for host in hosts.split(","):
        try:
            _ = urlsplit(f"//{host}").port  # the parsing is the check
        except ValueError:
            return Msg(N_("{url}: {host} is no host:port (a port is a number, 1-65535)"), url=repr(url),
                       host=repr(host))
    return None


def languages() -> list[str]:
    """Languages the bot has texts for (folders of ``core/locale``; English always)."""
    found = {"en"}
    if LOCALE_DIR.is_dir():
        found.update(p.name for p in LOCALE_DIR.iterdir() if p.is_dir() and _LANG_RE.fullmatch(p.name))
    return sorted(found)


# --------------------------------------------------------------------------- helpers


def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _redis_config(url: str | None, cluster: bool, reader: _Reader,
                  path: tuple[str, ...]) -> RedisConfig:
    """``redis.url`` + ``redis.cluster`` -> a RedisConfig whose url says cluster when it is one."""
    if url is not None and url.startswith(tuple(CLUSTER_SCHEMES.values())):
        return RedisConfig(url=url, cluster=True)
    if not cluster:
        return RedisConfig(url=url)
    if url is None:  # $UNOBOT_REDIS_URL may name it; apply_env checks that something does
        return RedisConfig(cluster=True)
    for plain, clustered in CLUSTER_SCHEMES.items():
        if url is not None and url.startswith(plain):
            return RedisConfig(url=clustered + url[len(plain):], cluster=True)
    reader.fail(path, Msg(N_("a Redis Cluster needs a redis:// or rediss:// URL in redis.url, not {url}"),
                          url=repr(url)))
    return RedisConfig()  # unreachable


def _not_a_flag(value: Any) -> Msg:
    """What is said of a setting that takes true or false and was given something else."""
    return Msg(N_("expected true or false, not {value}"), value=repr(value))


def _not_a_port(port: int) -> Msg:
    """What is said of a port number past the last TCP port."""
    return Msg(N_("{port} is not a TCP port (1-65535)"), port=port)


def _turn_seconds(reader: _Reader, value: Any, default: int) -> int:
    """`game.turn_seconds`, within what a chat's `/timer` may set: a longer one
    was taken and shown ("100000 seconds per turn") where `/timer 100000`
    sets an hour; the file and the chats now agree on what a timer may be."""
    from .chat.commands import MAX_TIMER_SECONDS

    seconds = reader.integer(value, ("game", "turn_seconds"), default, minimum=0)
    if seconds > MAX_TIMER_SECONDS:
        reader.fail(("game", "turn_seconds"), Msg(N_("at most {most} (an hour, the longest /timer sets), "
                                                     "not {value}"), most=MAX_TIMER_SECONDS, value=seconds))
    return seconds


def _resolve_dir(value: str, base_dir: Path | None) -> Path:
    path = Path(value).expanduser()
    return path if path.is_absolute() or base_dir is None else base_dir / path


class _Reader:
    """Type checks that know where each value sits in the file (for the error message)."""

    def __init__(self, source: str, lines: Mapping[tuple[str, ...], int]) -> None:
        self.source = source
        self.lines = lines

    def fail(self, path: tuple[str, ...], message: str | Msg) -> None:
        line = None
        for cut in range(len(path), -1, -1):  # the key itself, else the nearest parent
            line = self.lines.get(path[:cut])
            if line is not None:
                break
        raise ConfigError(self.source, line, ".".join(path), message)

    def mapping(self, value: Any, path: tuple[str, ...]) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.fail(path, Msg(N_("the file must be a mapping of `key: value` lines, not {kind}") if not path
                                else N_("this section must be a mapping of `key: value` lines, not {kind}"),
                                kind=type(value).__name__))
        return cast(dict[str, Any], value)

    def known(self, value: Mapping[Any, Any], path: tuple[str, ...], names: tuple[str, ...]) -> None:
        for key in value:
            if key not in names:
                close = difflib.get_close_matches(str(key), names, n=1)
                known = ", ".join(names)
                self.fail((*path, str(key)), Msg(N_("unknown key; did you mean {close}? known: {known}"),
                                                 close=repr(close[0]), known=known) if close
                          else Msg(N_("unknown key; known: {known}"), known=known))

    def text(self, value: Any, path: tuple[str, ...]) -> str | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            self.fail(path, Msg(N_("expected text, not {kind}"), kind=type(value).__name__))
        text = str(value).strip()
        return text or None

    def number(self, value: Any, path: tuple[str, ...], default: float, *, minimum: float) -> float:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(path, Msg(N_("expected a number, not {value}"), value=repr(value)))
        if value < minimum:
            self.fail(path, Msg(N_("must be at least {minimum}, not {value}"), minimum=f"{minimum:g}", value=repr(value)))
        return float(value)

    def integer(self, value: Any, path: tuple[str, ...], default: int, *, minimum: int) -> int:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, Msg(N_("expected a whole number, not {value}"), value=repr(value)))
        if value < minimum:
            self.fail(path, Msg(N_("must be at least {minimum}, not {value}"), minimum=str(minimum), value=repr(value)))
        return int(value)

    def url(self, value: Any, path: tuple[str, ...]) -> str | None:
        """A Redis URL, ``memory``, or None/``embedded`` (both mean the embedded server)."""
        text = self.text(value, path)
        if text is None or text == EMBEDDED:
            return None
        if text.startswith(URL_SCHEMES) and (problem := redis_address_problem(text)) is not None:
            self.fail(path, problem)
        if text == MEMORY or text.startswith(URL_SCHEMES):
            return text
        self.fail(path, Msg(N_("{url} is not a Redis URL; use redis://host:port/db, rediss://..., "
                               "redis+cluster://host:port (a Redis Cluster), unix:///path, `{memory}`, "
                               "or null for the embedded server"), url=repr(text), memory=MEMORY))
        return None  # unreachable

    def http_url(self, value: Any, path: tuple[str, ...]) -> str | None:
        text = self.text(value, path)
        if text is not None and not text.startswith(("http://", "https://")):
            self.fail(path, Msg(N_("{url} is not an http(s) URL"), url=repr(text)))
        return text
