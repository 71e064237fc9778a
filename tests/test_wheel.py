"""unobot installs as a real package: a wheel, in a fresh virtual
environment, with no clone around (the plugin author's view).

The wheel must carry the variants and translations, put nothing but
`unobot` into site-packages, and work from a folder outside the clone:
`unobot variants`, a whole console round, and an external plugin (built as
its own wheel) whose scenarios pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None,
        timeout: float = 600) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{args}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def test_the_wheel_installs_and_runs_without_the_clone(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels)]
    run([*pip, str(ROOT)], cwd=tmp_path)
    run([*pip, str(ROOT / "tests" / "example_plugin")], cwd=tmp_path)
    built = sorted(p.name for p in wheels.glob("*.whl"))
    assert len(built) == 2 and built[0].startswith("unobot-0"), built

    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    run([str(py), "-m", "pip", "install", "-q", *map(str, wheels.glob("*.whl"))], cwd=tmp_path)

    # nothing generic lands in site-packages: one namespace
    site = Path(run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                    cwd=tmp_path).stdout.strip())
    tops = {p.name for p in site.iterdir() if p.is_dir() and not p.name.endswith((".dist-info", "__pycache__"))}
    assert "unobot" in tops and not tops & {"core", "adapters", "plugins", "variants"}, tops
    assert (site / "unobot" / "variant_files" / "official.yaml").is_file()
    assert (site / "unobot" / "locale" / "es" / "LC_MESSAGES" / "unobot.po").is_file()

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UNOBOT_", "PYTHON"))}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    unobot = str(env_dir / "bin" / "unobot")

    listed = run([unobot, "variants"], cwd=outside, env=env).stdout
    for name in ("official", "reglas-de-uno", "party", "fast", "example-party"):
        assert name in listed, listed

    game = run([unobot, "play", "--auto", "--rounds", "1", "--store", "memory", "--delay", "0",
                "--seed", "5", "--players", "3"], cwd=outside, env=env, timeout=300).stdout
    assert "wins the round" in game, game[-2000:]

    scenarios = outside / "plugin-scenarios"
    shutil.copytree(ROOT / "tests" / "example_plugin" / "scenarios", scenarios)
    result = run([unobot, "scenario", str(scenarios)], cwd=outside, env=env).stdout
    assert result.strip().endswith("6 passed, 0 failed"), result
