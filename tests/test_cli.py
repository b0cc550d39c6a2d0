"""The README's main job: napkin calc on the template, key results printed."""

import subprocess
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent.parent / "workbook" / "napkin.xlsx"


def napkin(*args):
    return subprocess.run([sys.executable, "-m", "addin.cli", *map(str, args)],
                          capture_output=True, text=True)


def test_main_job_prints_the_key_results(tmp_path):
    out = tmp_path / "napkin-computed.xlsx"
    r = napkin("calc", TEMPLATE, "-o", out, "--show", "Sizing!A4:B9", "--show", "Sizing!A35:B61")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    # Llama 3.1 70B (70.6e9 parameters, models.csv) in FP8: 70.6 GB; 70.6e9 / 2^30 GiB
    assert "  Weights\t70.6 GB" in lines
    assert "  Weights in GiB\t65.7514 GiB" in lines
    # weights fit on one 80 GB H100 (reference doc §1), weights + 42.9 GB of KV do not
    assert "  Weights fit on one GPU?\tyes" in lines
    assert "  Weights + KV cache fit on one GPU?\tno" in lines
    # 70.6 GB / 3.35 TB/s = 21.07 ms (reference doc §2: 70 GB gives ~21 ms)
    assert "  Decode floor: weights only, batch 1, one GPU\t21.0746 ms/token" in lines
    assert out.exists() and TEMPLATE.exists()


def test_misuse_exits_2(tmp_path):
    assert napkin("calc", TEMPLATE).returncode == 2  # neither -o nor --in-place
    assert napkin("frobnicate").returncode == 2
