"""Three `unobot telegram --webhook` processes on one Redis Cluster serve one bot.

Each is a separate process started from the command line, with the
cluster's `redis+cluster://` URL in `UNOBOT_REDIS_URL` and a webhook of its
own on loopback, and no `--secret`: each sets the secret it derives from
the token, and all must accept what is sent to them with it (a random secret
per process would leave only the last to set it serving). Every update goes
to one of them at random
(seeded), as a load balancer would send it. Four groups play at once, two
whole rounds each, the players opening their hands and picking cards as
people do (`TableDriver`; whose turn it is read from the store, since the
processes edit status messages within Telegram's group budgets).
Then `unobot audit`, run as a person runs it against the same cluster,
replays every game from its log and finds each as stored; a game changed
behind its log's back makes it say so and exit 1.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from tests.botapi import BotAPIServer
from tests.support.ports import free_port
from tests.support.redis_cluster import RedisCluster
from tests.telegram.driver import CliBalancer, CliBot, StoreReader, StoreTurns, TableDriver
from tests.telegram.test_game import short_games
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.telegram import keyboards, users
from unobot.chat.table import BETWEEN_ROUNDS, PLAYING, Table

GROUPS = 4
ROUNDS = 2


async def open_game(driver: TableDriver, reader: StoreReader) -> None:
    """/new, two Join presses, Start: each waited for in the store, whichever process took it."""
    first, *others = driver.players
    await driver.command(first, "/new")
    deadline = asyncio.get_running_loop().time() + 60  # three processes and a cluster on a loaded machine
    while True:  # the lobby is posted, then recorded as the status message and in the opener's record
        table = await driver.table()
        record = await users.user_record(reader.store, first["id"])
        if table is not None and table.adapter.get("status") and driver.chat in (record.get("games") or []):
            break
        assert asyncio.get_running_loop().time() < deadline, f"the lobby of {driver.chat} was never recorded"
        await asyncio.sleep(0.01)
    presses = [await driver.press(player, keyboards.JOIN) for player in others]
    presses.append(await driver.press(first, keyboards.START))
    table = await driver.table()
    if table is None or table.phase != PLAYING:  # what each press was answered, to tell why
        ids = {update["callback_query"]["id"] for update in presses}
        answers = [call.params.get("text") for call in driver.server.calls
                   if call.method == "answerCallbackQuery" and call.params.get("callback_query_id") in ids]
        lobbies = [call.params.get("text", "")[:40] for call in driver.server.calls
                   if call.method == "sendMessage" and str(call.params.get("chat_id")) == driver.chat]
        raise AssertionError(f"{driver.chat} not started: {table}; answers {answers}; posted {lobbies}")
    assert [s.name for s in table.seats] == [p["first_name"] for p in driver.players]


async def play_rounds(driver: TableDriver, rounds: int) -> Table:
    """Play until `rounds` rounds are over; the game stays open between rounds (so it stays bound to its chat)."""
    ended = 0
    for _ in range(400 * rounds):
        table = await driver.table()
        assert table is not None
        if table.phase == BETWEEN_ROUNDS:
            table = await round_message(driver)
            ended += 1
            if ended == rounds:
                return table
        assert await driver.step()
    raise AssertionError(f"{driver.chat}: {rounds} rounds did not end")


async def round_message(driver: TableDriver) -> Table:
    """A round is over: until its message (with "Next round") is posted and recorded as the
    status message (the process that made the last move sends it after saving the move, within
    the group's budget: on a loaded machine it may take seconds)."""
    deadline = asyncio.get_running_loop().time() + 60
    while asyncio.get_running_loop().time() < deadline:
        table = await driver.table()
        assert table is not None and table.phase == BETWEEN_ROUNDS
        message = driver.message_with(keyboards.NEXT_ROUND)
        if message is not None and message["message_id"] == table.adapter.get("status"):
            return table
        await asyncio.sleep(0.01)
    raise AssertionError(f"{driver.chat}: no round message recorded as the status")


def unobot_audit(config: Path, redis_url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "UNOBOT_CONFIG": str(config), "UNOBOT_REDIS_URL": redis_url}
    return subprocess.run([sys.executable, "-m", "unobot.cli", "audit"], capture_output=True, text=True,
                          timeout=120, env=env, cwd=config.parent)


async def test_three_webhook_processes_on_a_cluster_serve_several_groups(server: BotAPIServer,
                                                                        tmp_path: Path) -> None:
    prefix = "fleet"
    with RedisCluster(tmp_path / "cluster", primaries=3) as cluster:
        processes = [CliBot(server, cluster.url, prefix, tmp_path / f"bot{i}", port=free_port(),
                            secret=None).start()
                     for i in range(3)]
        outputs: list[str] = []
        reader = StoreReader(RedisStore.from_url(cluster.url, prefix=prefix))
        try:
            await asyncio.gather(*(process.ready() for process in processes))
            router = CliBalancer(server, processes, reader, seed=13)
            drivers = []
            for g in range(GROUPS):
                group = server.group(title=f"Table {g}")
                players = [server.user(2000 + 10 * g + i, f"{name}{g}") for i, name in enumerate(("Ann", "Ben", "Cy"))]
                driver = StoreTurns(server, router, group, players, seed=g, check_privacy=False)
                await short_games(reader, driver.chat)  # type: ignore[arg-type]
                drivers.append(driver)
            homes = {cluster.primary_for(reader.store.keys.binding(d.chat)).port for d in drivers}
            assert len(homes) >= 2, "the groups' games all sit on one primary"

            await asyncio.gather(*(open_game(driver, reader) for driver in drivers))
            finals = await asyncio.gather(*(play_rounds(driver, ROUNDS) for driver in drivers))

            for driver, table in zip(drivers, finals, strict=True):
                assert table.phase == BETWEEN_ROUNDS and table.game is not None and table.game.round == ROUNDS
                assert driver.stats.moves > 2 * ROUNDS and driver.stats.refusals == 0, driver.stats
                # The group sees the round's end: its status message now, with "Next round".
                shown = driver.message_with(keyboards.NEXT_ROUND)
                assert shown is not None and shown["message_id"] == table.adapter["status"]
            # Every process took a fair share of the updates.
            total = sum(p.updates for p in processes)
            assert all(p.updates > total / 6 for p in processes), [p.updates for p in processes]

            # `unobot audit` against the cluster: every game replays from its log.
            config = tmp_path / "audit.yaml"
            config.write_text(f"store:\n  prefix: {prefix}\n  data_dir: {tmp_path}\n")
            done = unobot_audit(config, cluster.url)
            assert done.returncode == 0, done.stdout + done.stderr
            assert done.stdout.strip().splitlines()[-1] == f"{GROUPS} games replayed, 0 mismatches", done.stdout

            # A game changed behind its log's back: the command names it and fails.
            game_id = await reader.store.chat_game(drivers[1].chat)
            assert game_id is not None
            stored = await reader.store.load_game(game_id)
            assert stored is not None
            table = Table.decode(stored.state, stored.version)
            assert table.game is not None
            table.game.scores[0] += 7
            await reader.store.save_game(game_id, table.encode(), expected_version=stored.version,
                                         log=["adapter x"])
            done = unobot_audit(config, cluster.url)
            assert done.returncode == 1, done.stdout + done.stderr
            lines = done.stdout.strip().splitlines()
            assert [line.split()[:2] for line in lines if line.startswith("MISMATCH")] == [["MISMATCH", game_id]]
            assert lines[-1] == f"{GROUPS} games replayed, 1 mismatch", done.stdout
        finally:
            await reader.close()
            outputs = [process.stop() for process in processes]
        for output in outputs:
            assert "Traceback" not in output and " ERROR " not in output, output
            assert "update failed" not in output, output
