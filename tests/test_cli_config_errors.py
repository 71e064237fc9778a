"""The operator commands' configuration errors are said in the reader's
language (`--lang`, else the locale), with the file, line and key as they are.

Before, `unobot replay` with no store ("no games are kept here ..."), a
config.yaml that does not parse, a misspelt key and a `--store` that names no
Redis were English to an operator whose `unobot replay --help` and argparse
errors were already Spanish. Run as the operator does: the command in a
process, with only LANG set (or `--lang` where the command takes it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from unobot.chat.i18n import gettext_for


def unobot(cwd: Path, *args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE") and not k.startswith("UNOBOT_")}
    env.update({"LANG": lang, "XDG_DATA_HOME": str(cwd / "xdg"), "XDG_CONFIG_HOME": str(cwd / "xdgc")})
    return subprocess.run([sys.executable, "-m", "unobot.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_no_store_kept_here_in_spanish(tmp_path: Path) -> None:
    done = unobot(tmp_path, "replay", "--last", "--data-dir", str(tmp_path / "none"), lang="es_ES.UTF-8")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == (f"{gettext_for('es')('error:')} {tmp_path / 'none'}: aquí no se guarda ninguna "
                                   "partida: no hay almacén integrado en esta carpeta (--data-dir indica otra, "
                                   "--store un servidor Redis)"), done.stderr
    english = unobot(tmp_path, "replay", "--last", "--data-dir", str(tmp_path / "none"))
    assert english.stderr.startswith(f"error: {tmp_path / 'none'}: no games are kept here"), english.stderr


def test_a_config_file_that_does_not_parse_says_where_in_german(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("redis:\n  url: [1\n", encoding="utf-8")
    done = unobot(tmp_path, "audit", lang="de_DE.UTF-8")
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert line.startswith("Fehler: config.yaml:3: das ist kein gültiges YAML: "), line
    assert "prüfe die Einrückung" in line, line  # the fix, in German too


def test_a_misspelt_key_names_the_close_one_in_french(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("redsi:\n  url: x\n", encoding="utf-8")
    done = unobot(tmp_path, "replay", "--last", "--lang", "fr")
    assert done.stderr.strip().startswith(
        "erreur : config.yaml:1: redsi: clé inconnue ; voulais-tu dire 'redis' ? connues : redis, store"), done.stderr


def test_a_store_url_that_names_no_redis_in_russian_and_spanish(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("redis:\n  url: foo\n", encoding="utf-8")
    done = unobot(tmp_path, "audit", lang="ru_RU.UTF-8")
    assert done.stderr.strip().startswith("ошибка: config.yaml:2: redis.url: 'foo' — не URL Redis; "), done.stderr
    (tmp_path / "config.yaml").unlink()
    done = unobot(tmp_path, "replay", "--last", "--store", "foo", lang="es_ES.UTF-8")
    assert done.returncode == 2
    assert done.stderr.strip().startswith("error: la dirección del almacén: 'foo' no es una URL de Redis: "), done.stderr


# Every section's own checks (a wrong type or value inside `redis:`, `store:`, `telegram:`, `discord:`,
# `web:`, `game:`), and the environment's: before, only the checks shared by every section (a number,
# a mapping, an unknown key) were translated; these were English whatever the reader's language.
SECTION_ERRORS = [
    ("redis:\n  url: memory\n  wait_replicas: -1\n", "de_DE.UTF-8",
     "Fehler: config.yaml:3: redis.wait_replicas: erwartet, wie viele Replikas jede Speicherung haben müssen"),
    ("redis:\n  cluster: true\n", "uk_UA.UTF-8",
     "помилка: config.yaml: redis.cluster: Redis Cluster потрібен URL redis:// або rediss://: задайте redis.url"),
    ("redis:\n  url: redis://h:99999/0\n", "ca_ES.UTF-8",
     "error: config.yaml:2: redis.url: 'redis://h:99999/0': 'h:99999' no és host:port"),
    ("store:\n  prefix: 'a b'\n", "es_ES.UTF-8",
     "error: config.yaml:2: store.prefix: 'a b' no sirve como prefijo de claves"),
    ("telegram:\n  webhook:\n    secret: 'a b'\n", "ru_RU.UTF-8",
     "ошибка: config.yaml:3: telegram.webhook.secret: Telegram принимает от 1 до 256 символов"),
    ("discord:\n  gateway_url: http://x\n", "fr_FR.UTF-8",
     "erreur : config.yaml:2: discord.gateway_url: 'http://x' n’est pas une URL ws(s)"),
    ("web:\n  port: 70000\n", "it_IT.UTF-8", "errore: config.yaml:2: web.port: 70000 non è una porta TCP"),
    ("web:\n  enabled: 'yes'\n", "pt_BR.UTF-8", "erro: config.yaml:2: web.enabled: esperava-se true ou false, não 'yes'"),
    ("game:\n  default_language: xx\n", "zh_CN.UTF-8", "config.yaml:2: game.default_language: 未知语言 'xx'；已知："),
    ("game:\n  turn_seconds: 100000\n", "pl_PL.UTF-8",
     "config.yaml:2: game.turn_seconds: najwyżej 3600 (godzina, najdłużej, ile ustawia /timer), nie 100000"),
    ("variants:\n  path: nowhere\n", "tr_TR.UTF-8", "config.yaml:2: variants.path: "),
]


def test_each_sections_errors_are_in_the_readers_language(tmp_path: Path) -> None:
    for text, lang, expected in SECTION_ERRORS:
        (tmp_path / "config.yaml").write_text(text, encoding="utf-8")
        done = unobot(tmp_path, "audit", lang=lang)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert expected in done.stderr, (lang, done.stderr)
        if lang.startswith("tr"):
            assert done.stderr.strip().endswith("bir klasör değil"), done.stderr
    (tmp_path / "config.yaml").write_text(SECTION_ERRORS[0][0], encoding="utf-8")
    english = unobot(tmp_path, "audit")  # the English text is the same as before, for logs and tests
    assert "redis.wait_replicas: expected how many replicas must have each save" in english.stderr, english.stderr


def test_a_broken_default_variant_says_where_in_its_file_in_spanish(tmp_path: Path) -> None:
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "mine.yaml").write_text("name: mine\nextends: official\nrules:\n  nosuchrule: {}\n",
                                                     encoding="utf-8")
    (tmp_path / "config.yaml").write_text("variants:\n  path: variants\ngame:\n  default_variant: mine\n",
                                          encoding="utf-8")
    done = unobot(tmp_path, "audit", lang="es_ES.UTF-8")
    assert done.returncode == 2, done.stderr
    assert "config.yaml:4: game.default_variant: " in done.stderr, done.stderr
    assert "(en " in done.stderr and "mine.yaml:4)" in done.stderr, done.stderr  # where, in Spanish words
    assert " (in " not in done.stderr, done.stderr


def test_simulate_store_that_names_no_redis_in_the_readers_language(tmp_path: Path) -> None:
    done = unobot(tmp_path, "simulate", "--store", "foo", "--games", "1", lang="es_ES.UTF-8")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == ("error: --store 'foo': indica memory, embedded, config, o una URL redis://, "
                                   "rediss://, unix://, redis+cluster:// o rediss+cluster://"), done.stderr
    done = unobot(tmp_path, "simulate", "--store", "redis://h:99999", "--games", "1", lang="de_DE.UTF-8")
    assert done.stderr.strip() == ("Fehler: --store 'redis://h:99999': 'h:99999' ist kein Host:Port "
                                   "(ein Port ist eine Zahl, 1–65535)"), done.stderr
    done = unobot(tmp_path, "simulate", "--store", "memory", "--workers", "0", lang="tr_TR.UTF-8")
    assert done.returncode == 2 and done.stderr.strip() == "hata: --workers en az 1 olmalı", done.stderr


def test_no_bot_token_in_the_readers_language(tmp_path: Path) -> None:
    done = unobot(tmp_path, "telegram", lang="es_ES.UTF-8")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().endswith(
        "error: no hay token del bot: define TELEGRAM_BOT_TOKEN (de @BotFather) o telegram.token"), done.stderr
    done = unobot(tmp_path, "discord", lang="pt_BR.UTF-8")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().endswith("erro: nenhum token do bot: defina DISCORD_BOT_TOKEN (do Developer "
                                        "Portal, página Bot) ou discord.token"), done.stderr


def test_a_server_that_cannot_keep_the_configured_promise_is_refused_in_the_readers_language(
        tmp_path: Path) -> None:
    """`redis.wait_aof: true` on a server without WAITAOF (Redis before 7.2) or without an
    append-only file: the operator's setting, refused at start-up with its fix, and said in
    their language as a mistake in config.yaml is (it was English: "the store (Redis)
    refused: redis.wait_aof: this server has no WAITAOF ...")."""
    from tests.support.redis_server import RedisServer

    server = RedisServer(tmp_path / "redis", appendonly=False).start()
    try:
        (tmp_path / "config.yaml").write_text(f"redis:\n  url: {server.url}\n  wait_aof: true\n", encoding="utf-8")
        done = unobot(tmp_path, "audit", lang="es_ES.UTF-8")
        assert done.returncode == 2, done.stderr
        line = done.stderr.strip()
        assert line.startswith(f"error: el almacén (Redis) se negó: redis.wait_aof: este servidor "
                               f"(127.0.0.1:{server.port}) "), line
        assert line.endswith(" redis.wait_aof: false"), line
        assert "this server" not in line, line
    finally:
        server.stop()
    (tmp_path / "config.yaml").unlink()
    done = unobot(tmp_path, "audit", "--store", "redis://127.0.0.1:1", lang="ru_RU.UTF-8")
    assert done.stderr.strip().startswith("ошибка: хранилище (Redis) недоступно: "), done.stderr


def test_the_web_tables_store_and_address_errors_in_the_readers_language(tmp_path: Path) -> None:
    done = unobot(tmp_path, "web", "--redis", "redis://127.0.0.1:1", "--port", "0", lang="it_IT.UTF-8")
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("errore: l’archivio (Redis) non è raggiungibile: "), \
        done.stderr
    done = unobot(tmp_path, "web", "--public-url", "ftp://x", lang="it_IT.UTF-8")
    assert done.returncode == 2 and done.stderr.strip() == "errore: --public-url: 'ftp://x' non è un URL http(s)", \
        done.stderr


def test_simulate_s_own_mistakes_in_the_readers_language(tmp_path: Path) -> None:
    done = unobot(tmp_path, "simulate", "--variant", "nosuch", "--games", "1", lang="fr_FR.UTF-8")
    assert done.returncode == 2 and done.stderr.startswith("erreur : nosuch: variante inconnue 'nosuch'"), done.stderr
    assert "solution : variantes connues : " in done.stderr, done.stderr
    done = unobot(tmp_path, "simulate", "--policy", "foo", "--games", "1", lang="de_DE.UTF-8")
    assert done.returncode == 2 and done.stderr.startswith("Fehler: unbekannte Strategie 'foo'; bekannt: "), done.stderr
    done = unobot(tmp_path, "simulate", "--budget", "0", "--games", "1", lang="es_ES.UTF-8")
    assert done.returncode == 2 and done.stderr.strip() == ("error: --budget es un tiempo en segundos mayor que 0 "
                                                            "(el tiempo de expert por jugada)"), done.stderr


def test_a_webhook_port_in_use_in_the_readers_language(tmp_path: Path) -> None:
    """The port is found taken before any network is asked: one line, in Spanish (the
    system's own words for why stay as it says them)."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        (tmp_path / "config.yaml").write_text("redis:\n  url: memory\ntelegram:\n  token: '1:abcdefghijk'\n",
                                              encoding="utf-8")
        done = unobot(tmp_path, "telegram", "--webhook", "https://bot.example.org/hook", "--listen", "127.0.0.1",
                      "--port", str(port), lang="es_ES.UTF-8")
    assert done.returncode == 1, done.stderr
    assert (f"error: el bot no pudo arrancar: el servidor del webhook no puede escuchar en 127.0.0.1:{port}: "
            in done.stderr), done.stderr


def test_a_web_table_port_in_use_in_the_readers_language(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = unobot(tmp_path, "web", "--redis", "memory", "--listen", "127.0.0.1", "--port", str(port),
                      lang="de_DE.UTF-8")
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().startswith(f"Fehler: der Web-Tisch kann nicht auf 127.0.0.1:{port} lauschen: "), \
        done.stderr
