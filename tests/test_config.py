"""config.yaml: defaults, the shipped file, env overrides, and errors that name file and line."""

from __future__ import annotations

import ast
import textwrap
from dataclasses import fields
from pathlib import Path

import pytest

from unobot.config import (
    Config,
    ConfigError,
    GameConfig,
    RedisConfig,
    StoreConfig,
    WebhookConfig,
    config_path,
    load_config,
    parse_config,
)

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "config.yaml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def test_no_file_gives_the_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert config_path({}) is None
    config = load_config(environ={})
    assert config == Config()
    assert config.redis.url is None and not config.redis.memory
    assert config.store.data_dir == Path("data") and config.store.prefix == "unobot"
    assert config.store.game_ttl == 48 * 3600
    assert config.game == GameConfig("official", "en", 0, 30)
    assert config.telegram.webhook == WebhookConfig(None, "0.0.0.0", 8443, None)


def test_the_shipped_file_says_the_defaults_and_documents_every_key() -> None:
    config = parse_config(SHIPPED.read_text(), str(SHIPPED), base_dir=ROOT)
    defaults = Config()
    assert config.redis == defaults.redis
    assert config.store == StoreConfig(data_dir=ROOT / "data")
    assert config.telegram == defaults.telegram
    assert config.game == defaults.game
    text = SHIPPED.read_text()
    for section in (RedisConfig, StoreConfig, GameConfig, WebhookConfig):
        for f in fields(section):
            assert f"  {f.name}:" in text, f"{f.name} is not in config.yaml"
    for env in ("UNOBOT_REDIS_URL", "UNOBOT_DATA_DIR", "TELEGRAM_BOT_TOKEN",
                "UNOBOT_TELEGRAM_API_URL"):
        assert env in text


def test_a_full_file_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, """
        redis:
          url: redis://cache:6379/2
        store:
          data_dir: state
          prefix: uno-prod
          game_ttl_hours: 0
          connect_timeout: 0.5
          socket_timeout: 3
        telegram:
          token: "123:abc"
          base_url: http://127.0.0.1:8081/bot
          webhook: {url: "https://bot.example/hook", listen: 127.0.0.1, port: 8080, secret: s3cr-et_}
        game:
          default_variant: party
          default_language: es
          turn_seconds: 30
          lobby_minutes: 5
    """)
    config = load_config(path, environ={})
    assert config.source == str(path)
    assert config.redis.url == "redis://cache:6379/2"
    assert config.store == StoreConfig(tmp_path / "state", "uno-prod", 0.0, 0.5, 3.0)
    assert config.store.game_ttl is None
    assert config.telegram.token == "123:abc"
    assert config.telegram.base_url == "http://127.0.0.1:8081/bot"
    assert config.telegram.webhook == WebhookConfig("https://bot.example/hook", "127.0.0.1",
                                                    8080, "s3cr-et_")
    assert config.game == GameConfig("party", "es", 30, 5)


def test_wait_replicas(tmp_path: Path) -> None:
    """`redis.wait_replicas`: 0 unless set (null too); a URL from the environment keeps it."""
    assert Config().redis.wait_replicas == 0
    assert load_config(write(tmp_path, "redis: {wait_replicas: null}\n"), environ={}).redis.wait_replicas == 0
    path = write(tmp_path, "redis: {url: 'redis://h:7000', cluster: true, wait_replicas: 2}\n")
    config = load_config(path, environ={})
    assert config.redis == RedisConfig("redis+cluster://h:7000", True, 2)
    moved = load_config(path, environ={"UNOBOT_REDIS_URL": "redis://other:7001"})
    assert moved.redis == RedisConfig("redis+cluster://other:7001", True, 2)


def test_secrets_stay_out_of_repr(tmp_path: Path) -> None:
    path = write(tmp_path, "telegram: {token: '123:very-secret', webhook: {secret: hushhush}}\n")
    config = load_config(path, environ={})
    assert "very-secret" not in repr(config) and "hushhush" not in repr(config)


@pytest.mark.parametrize(("value", "expected"), [
    ("memory", "memory"), ("embedded", None), ("unix:///run/redis.sock", "unix:///run/redis.sock"),
    ("rediss://h:6380/0", "rediss://h:6380/0"),
])
def test_redis_url_forms(tmp_path: Path, value: str, expected: str | None) -> None:
    config = load_config(write(tmp_path, f"redis: {{url: '{value}'}}\n"), environ={})
    assert config.redis.url == expected
    assert config.redis.memory == (value == "memory")


def test_env_overrides_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, """
        redis: {url: "redis://from-file:6379/0"}
        store: {data_dir: from-file}
        telegram: {token: file-token, base_url: "https://file.example/bot"}
    """)
    env = {
        "UNOBOT_REDIS_URL": "memory",
        "UNOBOT_DATA_DIR": "/srv/unobot",
        "TELEGRAM_BOT_TOKEN": "env-token",
        "UNOBOT_TELEGRAM_API_URL": "http://127.0.0.1:9/bot",
    }
    config = load_config(path, environ=env)
    assert config.redis.url == "memory"
    assert config.store.data_dir == Path("/srv/unobot")
    assert config.telegram.token == "env-token"
    assert config.telegram.base_url == "http://127.0.0.1:9/bot"
    # empty variables count as unset
    blank = load_config(path, environ=dict.fromkeys(env, ""))
    assert blank.redis.url == "redis://from-file:6379/0"
    assert blank.telegram.token == "file-token"


def test_unobot_config_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "game: {turn_seconds: 12}\n")
    monkeypatch.chdir(ROOT)  # where a ./config.yaml exists: the env still wins
    assert load_config(environ={"UNOBOT_CONFIG": str(path)}).game.turn_seconds == 12
    with pytest.raises(ConfigError, match=r"missing\.yaml: no such file \(named by \$UNOBOT_CONFIG\)"):
        load_config(environ={"UNOBOT_CONFIG": str(tmp_path / "missing.yaml")})


def test_cwd_config_yaml_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "game: {lobby_minutes: 7}\n")
    monkeypatch.chdir(tmp_path)
    assert load_config(environ={}).game.lobby_minutes == 7


def test_bad_env_url_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"\$UNOBOT_REDIS_URL: 'localhost:6379' is not a Redis URL"):
        load_config(write(tmp_path, ""), environ={"UNOBOT_REDIS_URL": "localhost:6379"})


@pytest.mark.parametrize(("text", "line", "needle"), [
    ("store:\n  prefix: unobot\n  game_ttl: 48\n", 3,
     "store.game_ttl: unknown key; did you mean 'game_ttl_hours'?"),
    ("redis:\n  url: localhost:6379\n", 2, "redis.url: 'localhost:6379' is not a Redis URL"),
    ("redis:\n  url: 'redis+cluster://h1:7000,h2:70000'\n", 2,
     "redis.url: 'redis+cluster://h1:7000,h2:70000': 'h2:70000' is no host:port"),
    ("game:\n  turn_seconds: soon\n", 2, "game.turn_seconds: expected a whole number"),
    ("game:\n  lobby_minutes: 0\n", 2, "game.lobby_minutes: must be at least 1"),
    ("game:\n  turn_seconds: 100000\n", 2, "game.turn_seconds: at most 3600 (an hour, the longest /timer sets)"),
    ("game:\n\n  default_variant: offical\n", 3, "did you mean 'official'?"),
    ("game:\n  default_language: klingon\n", 2, "unknown language 'klingon'; known: "),
    ("store:\n  socket_timeout: -1\n", 2, "store.socket_timeout: must be at least"),
    ("store:\n  prefix: 'a {b}'\n", 2, "store.prefix: 'a {b}' is not a usable key prefix"),
    ("telegram:\n  webhook:\n    port: 70000\n", 3, "telegram.webhook.port: 70000 is not a TCP port"),
    ("telegram:\n  webhook:\n    secret: 'has spaces'\n", 3, "telegram.webhook.secret"),
    ("telegram:\n  base_url: api.telegram.org\n", 2, "is not an http(s) URL"),
    ("telegram: yes\n", 1, "telegram: this section must be a mapping"),
    ("colour: red\n", 1, "colour: unknown key"),
    ("- just\n- a list\n", 1, "the file must be a mapping"),
    ("game:\n  turn_seconds: [1\n", 3, "not valid YAML"),
    ("store:\n  data_dir: {a: 1}\n", 2, "store.data_dir: expected text"),
    ("redis:\n  url: memory\n  wait_replicas: -1\n", 3,
     "redis.wait_replicas: expected how many replicas must have each save before it is answered: "
     "a whole number, 0 (none) or more, not -1"),
    ("redis:\n  wait_replicas: one\n", 2, "redis.wait_replicas: expected how many replicas"),
    ("redis:\n  wait_replicas: 1.5\n", 2, "0 (none) or more, not 1.5"),
    ("redis:\n  wait_replicas: true\n", 2, "0 (none) or more, not True"),
    ("redis:\n  wait_replica: 1\n", 2, "redis.wait_replica: unknown key; did you mean 'wait_replicas'?"),
])
def test_errors_name_file_line_and_key(tmp_path: Path, text: str, line: int, needle: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})
    error = caught.value
    assert str(error).startswith(f"{path}:{line}: "), str(error)
    assert error.line == line
    assert needle in str(error)


def test_the_default_variant_may_be_left_unloaded(tmp_path: Path) -> None:
    """What `unobot telegram` reads before it takes updates: the name only (loading
    the variant loads every rule plugin); the full read, later, still refuses it."""
    path = write(tmp_path, "game:\n  default_variant: offical\n")
    assert load_config(path, environ={}, check_variant=False).game.default_variant == "offical"
    with pytest.raises(ConfigError, match="did you mean 'official'"):
        load_config(path, environ={})


def test_an_empty_file_is_all_defaults(tmp_path: Path) -> None:
    path = write(tmp_path, "# nothing set\n")
    config = load_config(path, environ={})
    assert config == Config(store=StoreConfig(), source=str(path))


def test_config_module_imports_no_driver() -> None:
    tree = ast.parse((ROOT / "core" / "config.py").read_text())
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names]
    imported += [node.module for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and node.level == 0]
    assert not [n for n in imported if n.split(".")[0] in ("redis", "telegram", "adapters")]


def test_the_commands_that_name_variants_find_the_configured_folders(tmp_path: Path) -> None:
    """`variants.path` is where an operator's variants are found: `unobot
    variants` lists them (a broken one with its file, line and fix) and
    `unobot simulate --variant` plays them, as the bot does; a broken
    config.yaml is said in its one line by both."""
    import os
    import subprocess
    import sys

    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "house.yaml").write_text("name: house\nextends: official\nrules:\n  jump-in: {}\n")
    (folder / "wrong.yaml").write_text("name: wrong\nextends: official\nrules:\n  stacking: {optional: maybe}\n")
    config = write(tmp_path, "variants:\n  path: [mine]\n")
    env = {**os.environ, "UNOBOT_CONFIG": str(config)}

    def unobot(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "unobot.cli", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)

    listed = unobot("variants")
    assert listed.returncode == 0, listed.stderr
    assert any(line.startswith("house ") for line in listed.stdout.splitlines()), listed.stdout
    assert "wrong.yaml:4: option 'optional' of rule 'stacking'" in listed.stdout, listed.stdout
    shown = unobot("variants", "house")
    assert shown.returncode == 0 and "jump-in" in shown.stdout, shown.stdout + shown.stderr
    played = unobot("simulate", "--variant", "house", "--games", "1", "--json")
    assert played.returncode == 0 and '"variant": "house"' in played.stdout, played.stdout + played.stderr
    config.write_text("variants:\n  path: [mine\n")
    for args in (["variants"], ["simulate", "--games", "1"]):
        broken = unobot(*args)
        assert broken.returncode == 2 and broken.stderr.startswith(f"error: {config}:"), broken.stderr
