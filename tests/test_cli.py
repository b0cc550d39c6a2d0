"""The ``napkin`` command as a user meets it: every subcommand's options, each mistake
answered by one sentence naming the file or argument and the fix, the documented exit
status (0 done, 1 file problem, 2 misuse), and nothing written but the named output (a
listing of the folder before and after each run)."""

import math
import os
import stat
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from addin import cli
from addin.cli import commands as cli_commands
from addin.cli import paths as cli_paths

TEMPLATE = Path(__file__).resolve().parent.parent / "workbook" / "napkin.xlsx"
LEAKS = ("Errno", "PosixPath", ".tmp", "in_place", "Traceback", "('", "KeyError",
         "AttributeError", "TypeError", "pass in_place")


def napkin(*args):
    return subprocess.run([sys.executable, "-m", "addin.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


def workbook(path, formulas=("=RIDGE(989,3.35)", "=B1*2")):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sizing"
    for i, f in enumerate(formulas, start=1):
        ws.cell(i, 1, f"row {i}")
        ws.cell(i, 2, f)
    wb.save(path)
    return path


@pytest.fixture
def d(tmp_path):
    """A folder as users have them: a workbook, a folder, a FIFO and links."""
    workbook(tmp_path / "book.xlsx")
    workbook(tmp_path / "other.xlsx", ["=1+1"])
    (tmp_path / "folder.xlsx").mkdir()
    os.mkfifo(tmp_path / "pipe.xlsx")
    (tmp_path / "link.xlsx").symlink_to("book.xlsx")
    (tmp_path / "dangling.xlsx").symlink_to("gone.xlsx")
    (tmp_path / "dev.xlsx").symlink_to("/dev/null")
    return tmp_path


def listing(root: Path) -> dict:
    """Every entry under root (links not followed): kind, size, mtime, link target."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath, name)
            st = p.lstat()
            out[str(p.relative_to(root))] = (stat.S_IFMT(st.st_mode), st.st_size,
                                             st.st_mtime_ns,
                                             os.readlink(p) if p.is_symlink() else None)
    return out


def run(d, monkeypatch, capsys, argv):
    monkeypatch.chdir(d)
    rc = cli.main([a.format(d=d) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def one_sentence(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for leak in LEAKS:
        assert leak not in lines[0], lines[0]
    return lines[0]


# (argv, exit status, words the one line of stderr must contain)
REFUSED = {
    "device": (["calc", "book.xlsx", "-o", "/dev/null"], 1, ["/dev/null is a device"]),
    "link to a device": (["calc", "book.xlsx", "-o", "dev.xlsx"], 1, ["dev.xlsx is a device"]),
    "fifo out": (["calc", "book.xlsx", "-o", "pipe.xlsx"], 1, ["pipe.xlsx is a named pipe"]),
    "folder out": (["calc", "book.xlsx", "-o", "folder.xlsx"], 1,
                   ["folder.xlsx is a folder", "folder.xlsx/out.xlsx"]),
    "missing folder": (["calc", "book.xlsx", "-o", "missing/dir/out.xlsx"], 1,
                       ["the folder missing/dir does not exist", "mkdir -p"]),
    "csv suffix": (["calc", "book.xlsx", "-o", "out.csv"], 2,
                   ["out.csv", ".xlsx or .xlsm", "-o out.xlsx"]),
    "xlsm from xlsx": (["calc", "book.xlsx", "-o", "out.xlsm"], 2,
                       ["own suffix", "-o out.xlsx"]),
    "no sheet": (["calc", "book.xlsx", "-o", "out.xlsx", "--show", "NoSheet!A1:B2"], 2,
                 ["--show NoSheet!A1:B2", "no sheet named NoSheet", "Sizing"]),
    "near sheet": (["calc", "book.xlsx", "-o", "out.xlsx", "--show", "Sizng!A1"], 2,
                   ["did you mean Sizing?"]),
    "no range": (["calc", "book.xlsx", "-o", "out.xlsx", "--show", "Sizing!ZZ"], 2,
                 ["--show Sizing!ZZ", "Sizing!A4:B9"]),
    "huge range": (["calc", "book.xlsx", "-o", "out.xlsx", "--show", "Sizing!A1:Z100000"], 2,
                   ["2,600,000 cells", "--json"]),
    "neither": (["calc", "book.xlsx"], 2, ["give either -o OUT.xlsx or --in-place"]),
    "both": (["calc", "book.xlsx", "-o", "out.xlsx", "--in-place"], 2, ["not both"]),
    "onto itself": (["calc", "book.xlsx", "-o", "book.xlsx"], 2, ["IN itself", "--in-place"]),
    "onto itself by a link": (["calc", "book.xlsx", "-o", "link.xlsx"], 2, ["--in-place"]),
    "missing in": (["calc", "nothere.xlsx", "-o", "out.xlsx"], 1,
                   ["nothere.xlsx does not exist"]),
    "misspelt in": (["calc", "bok.xlsx", "-o", "out.xlsx"], 1, ["did you mean book.xlsx?"]),
    "folder in": (["calc", "folder.xlsx", "-o", "out.xlsx"], 1, ["folder.xlsx is a folder"]),
    "fifo in": (["calc", "pipe.xlsx", "-o", "out.xlsx"], 1, ["pipe.xlsx is a named pipe"]),
    "device in": (["calc", "/dev/zero", "-o", "out.xlsx"], 1, ["/dev/zero is a device"]),
    "dangling in": (["calc", "dangling.xlsx", "-o", "out.xlsx"], 1,
                    ["symbolic link to gone.xlsx, which does not exist"]),
    "dangling out": (["calc", "book.xlsx", "-o", "dangling.xlsx"], 1,
                     ["symbolic link", "does not exist"]),
    "freeze to a folder": (["freeze", "book.xlsx", "-o", "folder.xlsx"], 1, ["is a folder"]),
    "freeze neither": (["freeze", "book.xlsx"], 2, ["napkin freeze book.xlsx -o OUT.xlsx"]),
    "unfreeze unfrozen": (["unfreeze", "book.xlsx", "-o", "out.xlsx"], 1,
                          ["no formulas frozen by napkin"]),
    "unfreeze to a fifo": (["unfreeze", "book.xlsx", "-o", "pipe.xlsx"], 1, ["named pipe"]),
    "template csv": (["template", "-o", "t.csv"], 2, ["t.csv", "-o t.xlsx"]),
    "template folder": (["template", "-o", "folder.xlsx"], 1, ["is a folder"]),
    "template missing folder": (["template", "-o", "no/t.xlsx"], 1, ["the folder no"]),
    "lite onto a file": (["lite", "-o", "book.xlsx"], 1, ["not a folder"]),
    "lite missing parent": (["lite", "-o", "no/bundle"], 1, ["the folder no does not exist"]),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_refused_with_a_sentence_and_nothing_written(case, d, monkeypatch, capsys):
    argv, code, words = REFUSED[case]
    before, null = listing(d), os.stat("/dev/null")
    rc, out, err = run(d, monkeypatch, capsys, argv)
    line = one_sentence(err)
    assert rc == code, (rc, line)
    assert line.startswith(f"napkin {argv[0]}: ")
    for w in words:
        assert w in line, (w, line)
    assert listing(d) == before  # not even a temporary file
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and os.stat("/dev/null").st_ino == null.st_ino


def test_a_refused_workbook_is_named_by_its_own_sentence(d, monkeypatch, capsys):
    """A workbook napkin refuses (guard.WorkbookError) prints that error's sentence, not
    the "cannot process" of other errors."""
    workbook(d / "circular.xlsx", ["=B2", "=B1"])
    rc, out, err = run(d, monkeypatch, capsys, ["calc", "circular.xlsx", "-o", "out.xlsx"])
    assert (rc, one_sentence(err)) == (
        1, "napkin calc: circular reference through Sizing!B1, Sizing!B2: napkin does not "
           "compute formulas that depend on their own value (Excel's iterative "
           "calculation); rewrite them without the cycle, or run with --lenient to keep "
           "the values Excel saved in those cells. Nor can it keep the value Excel saved "
           'there (docs/fidelity.md, "Cells kept"): Excel saved no value in Sizing!B1')
    assert not (d / "out.xlsx").exists()


# A refusal a user can act on: the sentence names the cell, the function, the form of
# argument (for a function napkin does not know or has not checked: any form), and what
# would compute it (a function napkin knows or has checked, or --lenient)
REFUSALS = {
    "unknown function": (
        ["=RIGDE(989,3.35)"],
        ["unknown function RIGDE() in Sizing!B1 (did you mean RIDGE?)",
         "neither Excel's", "whatever the form of its arguments",
         "rewrite the formula with functions napkin knows",
         "run with --lenient to keep the values Excel saved in that cell"]),
    "function not checked": (
        ["=BITAND(1,5)", "=1+1", "=BITAND(B2,3)"],
        ["napkin has not checked against Excel the function BITAND() in Sizing!B1, "
         "Sizing!B3, with any form of argument",
         "rewrite those formulas with functions napkin has checked",
         "run with --lenient to compute them anyway"]),
    "form of argument not checked": (
        ["=_xlfn.BETA.INV(C9,2,3)"],
        ["napkin has not checked against Excel BETA.INV() given an empty cell in Sizing!B1",
         "rewrite the formula so that it does not give the function that form of argument",
         "run with --lenient to keep the values Excel saved in those cells"]),
}


@pytest.mark.parametrize("kind", REFUSALS)
def test_a_refusal_names_cell_function_form_and_remedy(kind, d, monkeypatch, capsys):
    formulas, said = REFUSALS[kind]
    workbook(d / "refused.xlsx", formulas)
    rc, out, err = run(d, monkeypatch, capsys, ["calc", "refused.xlsx", "-o", "out.xlsx"])
    line = one_sentence(err)
    assert rc == 1 and line.startswith("napkin calc: ") and not (d / "out.xlsx").exists()
    for words in said:
        assert words in line, (words, line)
    # and the remedy it names computes it
    rc, out, err = run(d, monkeypatch, capsys, ["calc", "refused.xlsx", "-o", "out.xlsx",
                                                "--lenient", "-q"])
    assert rc == 0 and (d / "out.xlsx").exists()


def _failing_compile(monkeypatch, marker):
    """Make the engine's compile step raise (as a bug of napkin's would) on the formulas
    holding ``marker``, and compile every other formula as before."""
    from addin.engine import executor

    real = executor.compile_formula

    def compile_formula(text, cell_ref, references=None, **options):
        if marker in text:
            raise RuntimeError("compile step broken\nfor this test")
        return real(text, cell_ref, references, **options)

    monkeypatch.setattr(executor, "compile_formula", compile_formula)


def test_napkin_failing_on_a_formula_says_it_is_napkin_s_bug(d, monkeypatch, capsys):
    """An exception of napkin's own code while compiling a formula is a refusal naming
    the cell, its formula (shortened) and the exception as napkin's bug, with what to do;
    not "cannot read the formulas (not Excel's formula syntax)"; nothing is written."""
    long = "=B1*2+" + "+".join(f"RIDGE({i},3.35)" for i in range(900, 910))
    workbook(d / "long.xlsx", ["=RIDGE(989,3.35)", long])
    _failing_compile(monkeypatch, "B1*2")
    before = listing(d)
    rc, out, err = run(d, monkeypatch, capsys, ["calc", "book.xlsx", "-o", "out.xlsx"])
    assert (rc, one_sentence(err)) == (
        1, "napkin calc: napkin failed on Sizing!B2 (=B1*2): compiling it raised "
           "RuntimeError: compile step broken for this test, a bug in napkin, not in the "
           "formula: please report it with the workbook; meanwhile compute it in Excel, or "
           "run with --lenient to keep the values Excel saved in Sizing!B2" + NO_VALUE_KEPT)
    assert listing(d) == before
    # a long formula is cut at 60 characters: "=B1*2+RIDGE(900,3.35)+" and so on, 59 + "…"
    rc, out, err = run(d, monkeypatch, capsys, ["calc", "long.xlsx", "-o", "out.xlsx"])
    line = one_sentence(err)
    assert rc == 1 and f"napkin failed on Sizing!B2 ({long[:59]}…): compiling" in line
    assert "not Excel's formula syntax" not in line and listing(d) == before
    # --lenient keeps what Excel saved in that cell (openpyxl saved none) and says why
    rc, out, err = run(d, monkeypatch, capsys, ["calc", "book.xlsx", "-o", "out.xlsx",
                                                "--lenient"])
    assert rc == 0 and err.startswith("napkin calc: kept the values Excel saved in "
                                      "Sizing!B2, as napkin failed on Sizing!B2 (=B1*2)")
    assert "a bug in napkin: please report it with the workbook" in err
    ws = openpyxl.load_workbook(d / "out.xlsx", data_only=True).active
    assert ws["B1"].value == pytest.approx(989 / 3.35) and ws["B2"].value is None


#: what strict mode adds to a refusal where it cannot keep Excel's value in the cell
#: instead (addin/engine/kept.py): openpyxl's workbooks hold no value of a formula
NO_VALUE_KEPT = ('. Nor can it keep the value Excel saved there (docs/fidelity.md, '
                 '"Cells kept"): Excel saved no value in Sizing!B2')


@pytest.mark.parametrize("formula", ["=A1-(-4,3)", "=SUM(A1", "=1 2"])
def test_a_formula_the_parser_rejects_is_not_called_napkin_s_bug(formula, d, monkeypatch,
                                                                  capsys):
    # formulas' parser rejects these (FormulaError, ParenthesesError): Excel's syntax has
    # no decimal comma, no unclosed call, no two numbers side by side
    workbook(d / "bad.xlsx", ["=1+1", formula])
    before = listing(d)
    rc, out, err = run(d, monkeypatch, capsys, ["calc", "bad.xlsx", "-o", "out.xlsx"])
    assert (rc, one_sentence(err)) == (
        1, "napkin calc: napkin cannot read the formulas in Sizing!B2 (not Excel's formula "
           "syntax); run with --lenient to keep the values Excel saved in those cells"
           + NO_VALUE_KEPT)
    assert listing(d) == before

def test_unwritable_folder(d, monkeypatch, capsys):
    locked = d / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    real_access = os.access  # root may write anyway: let the check see what a user sees
    monkeypatch.setattr(cli_paths.os, "access", lambda p, mode: False if Path(p).resolve() == locked
                        else real_access(p, mode))
    try:
        rc, _, err = run(d, monkeypatch, capsys, ["calc", "book.xlsx", "-o", "locked/o.xlsx"])
        line = one_sentence(err)
        assert rc == 1 and "cannot write in the folder locked: permission denied" in line
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_disk_full_names_out_not_the_temporary_file(d, monkeypatch, capsys):
    from addin.ooxml import package

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(package.os, "fsync", full)
    before = listing(d)
    rc, _, err = run(d, monkeypatch, capsys, ["calc", "book.xlsx", "-o", "out.xlsx"])
    assert rc == 1
    assert one_sentence(err) == "napkin calc: out.xlsx: no space left on device; free some " \
        "disk space and run again"
    assert listing(d) == before


def test_calc_writes_only_out(d, monkeypatch, capsys):
    before = listing(d)
    rc, out, err = run(d, monkeypatch, capsys,
                       ["calc", "book.xlsx", "-o", "out.xlsx", "--show", "Sizing!A1:B2"])
    assert rc == 0, err
    after = listing(d)
    assert set(after) - set(before) == {"out.xlsx"}
    assert {k: v for k, v in after.items() if k != "out.xlsx"} == before
    # RIDGE(989, 3.35) = 989 / 3.35 = 295.224 FLOP/byte (hand calculation), twice 590.448
    assert "Sizing!A1:B2\n  row 1\t295.224\n  row 2\t590.448\n" in out
    assert "computed 2 formulas: book.xlsx -> out.xlsx" in out


def test_quiet_prints_nothing(d, monkeypatch, capsys):
    rc, out, err = run(d, monkeypatch, capsys, ["calc", "book.xlsx", "-o", "out.xlsx", "-q"])
    assert (rc, out, err) == (0, "", "")


def test_json(d, monkeypatch, capsys):
    import json

    rc, out, _ = run(d, monkeypatch, capsys, ["calc", "book.xlsx", "-o", "o.xlsx", "--json"])
    assert rc == 0
    got = json.loads(out)
    assert got["Sizing!B1"] == pytest.approx(989 / 3.35)  # RIDGE = peak / bandwidth


def test_in_place_on_a_link_computes_the_target_and_keeps_the_link(d, monkeypatch, capsys):
    rc, out, err = run(d, monkeypatch, capsys, ["calc", "link.xlsx", "--in-place"])
    assert rc == 0, err
    assert (d / "link.xlsx").is_symlink() and os.readlink(d / "link.xlsx") == "book.xlsx"
    assert (d / "book.xlsx.bak").is_file() and not (d / "link.xlsx.bak").exists()
    wb = openpyxl.load_workbook(d / "book.xlsx", data_only=True)
    assert wb["Sizing"]["B1"].value == pytest.approx(989 / 3.35)


def test_out_through_a_link_writes_the_target(d, monkeypatch, capsys):
    (d / "out-link.xlsx").symlink_to("other.xlsx")
    rc, _, err = run(d, monkeypatch, capsys, ["calc", "book.xlsx", "-o", "out-link.xlsx"])
    assert rc == 0, err
    assert (d / "out-link.xlsx").is_symlink()
    wb = openpyxl.load_workbook(d / "other.xlsx", data_only=True)
    assert wb["Sizing"]["B2"].value == pytest.approx(2 * 989 / 3.35)


def test_freeze_and_unfreeze_in_place(d, monkeypatch, capsys):
    rc, out, err = run(d, monkeypatch, capsys, ["freeze", "book.xlsx", "--in-place"])
    assert rc == 0, err
    assert "froze 1 cells" in out and (d / "book.xlsx.bak").is_file()
    rc, out, err = run(d, monkeypatch, capsys, ["unfreeze", "book.xlsx", "-o", "back.xlsx"])
    assert rc == 0, err
    assert "restored 1 formulas" in out
    ws = openpyxl.load_workbook(d / "back.xlsx")["Sizing"]
    assert ws["B1"].value == "=RIDGE(989,3.35)"


def test_template_and_lite_write_only_their_output(d, monkeypatch, capsys):
    before = listing(d)
    rc, out, err = run(d, monkeypatch, capsys, ["template", "-o", "t.xlsx"])
    assert rc == 0 and out == "wrote t.xlsx\n", err
    rc, out, err = run(d, monkeypatch, capsys, ["lite", "-o", "bundle"])
    assert rc == 0, err
    new = set(listing(d)) - set(before)
    assert new == {"t.xlsx", "bundle", "bundle/main.py", "bundle/requirements.txt"}


# --------------------------------------------------------------------------- eval


def test_eval_suggests_the_function_meant(d, monkeypatch, capsys):
    rc, out, err = run(d, monkeypatch, capsys, ["eval", "=RIDG(1,2)"])
    assert rc == 2
    assert out == "#NAME? RIDG is not a function (neither Excel's nor napkin's): " \
                  "did you mean RIDGE?\n"


@pytest.mark.parametrize("formula, words", [
    ("=RIDGE(989；3.35)", ["'；' (fullwidth semicolon)", "=RIDGE(989,3.35)"]),
    ("=RIDGE((989,3.35)", ["parentheses do not match (2 opened, 1 closed)"]),
    ('=WEIGHT_GB("70B,"FP8")', ["not closed"]),
])
def test_eval_formula_that_does_not_parse(formula, words, d, monkeypatch, capsys):
    rc, out, err = run(d, monkeypatch, capsys, ["eval", formula, "=1+1"])
    assert rc == 2 and out == "2\n"  # the other formula is still evaluated
    line = one_sentence(err)
    assert line.startswith(f"napkin eval: cannot read the formula {formula}: ")
    for w in words:
        assert w in line


def test_eval_failing_on_a_formula_says_it_is_napkin_s_bug(d, monkeypatch, capsys):
    # the compile step raising on a formula that parses: napkin's bug, said as such (exit
    # 1, as calc's refusals), not "cannot read the formula"; the next formula still counts
    _failing_compile(monkeypatch, "RIDGE(990,")
    rc, out, err = run(d, monkeypatch, capsys, ["eval", "=RIDGE(990,3.35)", "=1+1"])
    assert rc == 1 and out == "2\n"
    assert one_sentence(err) == (
        "napkin eval: napkin failed on the formula =RIDGE(990,3.35): compiling it raised "
        "RuntimeError: compile step broken for this test, a bug in napkin, not in the "
        "formula: please report it with the formula; meanwhile compute it in Excel")

def test_eval_results_exit_0_even_for_error_values(d, monkeypatch, capsys):
    rc, out, _ = run(d, monkeypatch, capsys, ["eval", "=RIDGE(989,0)", "=RIDGE(989,3.35)*2"])
    assert rc == 0
    first, second = out.splitlines()
    assert first.startswith("#NUM! ")
    assert float(second) == pytest.approx(2 * 989 / 3.35)


# --------------------------------------------------------------------------- options, help


@pytest.mark.parametrize("argv", [["frobnicate"], ["calc", "--frob", "book.xlsx"],
                                  ["bench", "--only", "nothing"], ["eval"], ["addin"]])
def test_bad_options_exit_2(argv, d, monkeypatch, capsys):
    monkeypatch.chdir(d)
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    assert e.value.code == 2
    assert "usage: napkin" in capsys.readouterr().err


def test_every_subcommand_option_parses():
    p = cli.parser()
    a = p.parse_args(["calc", "in.xlsx", "-o", "o.xlsx", "--json", "--lenient", "-q",
                      "--show", "S!A1", "--show", "S!B2:C3"])
    assert (a.input, a.output, a.json, a.lenient, a.quiet, a.show) == \
        ("in.xlsx", "o.xlsx", True, True, True, ["S!A1", "S!B2:C3"])
    a = p.parse_args(["calc", "in.xlsx", "--in-place", "--quiet"])
    assert a.in_place and a.output is None
    for cmd in ("freeze", "unfreeze"):
        a = p.parse_args([cmd, "in.xlsx", "--output", "o.xlsx"])
        assert (a.command, a.output, a.in_place) == (cmd, "o.xlsx", False)
    assert p.parse_args(["template"]).output == "napkin.xlsx"
    assert p.parse_args(["lite"]).output == "napkin-lite"
    assert p.parse_args(["addin", "install", "--dry-run"]).dry_run
    a = p.parse_args(["bench", "--json", "--only", "range", "--only", "calc"])
    assert a.json and a.only == ["range", "calc"]
    assert p.parse_args(["eval", "=1", "2"]).formulas == ["=1", "2"]


def test_help_is_written_for_users():
    r = napkin("--help")
    assert r.returncode == 0
    assert r.stdout.startswith("usage: napkin")
    assert cli.SUMMARY.split(":")[1].split()[0] in r.stdout
    for cmd in ("eval", "calc", "freeze", "unfreeze", "template", "lite", "addin", "bench"):
        assert cmd in r.stdout
    assert "exit status:" in r.stdout and "3  napkin bench" in r.stdout
    texts = [r.stdout]
    for cmd in ("eval", "calc", "freeze", "unfreeze", "template", "lite", "bench"):
        h = napkin(cmd, "--help")
        assert h.returncode == 0, h.stderr
        texts.append(h.stdout)
    calc, template, lite, bench = texts[2], texts[5], texts[6], texts[7]
    assert "-o OUT.xlsx, --output OUT.xlsx" in calc and "IN is never changed" in calc
    assert "default: napkin.xlsx" in template and "default: napkin-lite" in lite
    assert "--json" in bench and "Exit status 3" in bench
    for text in texts:
        assert "issue" not in text.lower() and "``" not in text and ":func:" not in text


def test_misuse_exits_2_from_a_shell(tmp_path):
    assert napkin("calc", TEMPLATE).returncode == 2  # neither -o nor --in-place
    assert napkin("frobnicate").returncode == 2


def test_main_job_prints_the_key_results(tmp_path):
    """The README's first command: the answer, then the scenario, and (a third range) the
    working."""
    out = tmp_path / "napkin-computed.xlsx"
    r = napkin("calc", TEMPLATE, "-o", out, "--show", "Sizing!A4:B15", "--show",
               "Sizing!A17:B39", "--show", "Sizing!A65:B87")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    # the answer: Llama 3.1 70B in FP8 on H100s, batch 16 of 2,000 + 300 tokens: 70.6 GB of
    # weights + 16 × 327,680 B × 2,300 tokens = 12.06 GB of KV > 80 GB, so 2 GPUs a replica;
    # the step (workbook.model.serving): the KV cache at the mean context, 16 × 327,680 B
    # × (2,000 + 300 ÷ 2) = 11.27 GB ÷ (2 × 3.35 TB/s) = 1.6824 ms (one copy: 8 KV heads
    # on 2 GPUs), + 69.55 GB of weights read ÷ (2 × 3.35 TB/s) = 10.3805 ms (the matmuls
    # of 16 × (1 + 2,000 ÷ 300) = 122.67 tokens, decoded and prefilled, 2 × 70.6e9 ×
    # 122.67 ÷ (2 × 1,979e12) = 4.376 ms, below them; the attention 4 × 80 × 8,192 ×
    # (2,150 + 6.667 × 1,000) × 16 ÷ 3,958e12 = 0.093 ms, below the KV read), + the
    # all-reduces of those tokens, 2 × 80 × (6.6 + 2 × 0.6 µs + 122.67 × 8,192 × 2 B ÷ 450
    # GB/s) = 1.9626 ms (NCCL's ring latencies, src/graph/tuning.cc): 14.0255 ms; ÷ 0.471
    # (REGIME_EFFICIENCY of 2 GPUs at batch 16: throughput_tp's anchor, 16 being the
    # smallest batch of its rows, udfs/data/efficiency.csv) = 29.778 ms, + the layers' time
    # (no H100 measurement counted): 80 layers (config.json num_hidden_layers) × 65.8 µs
    # (udfs/data/layer_time.csv) = 5.264 ms: 35.042 ms, 1000 ÷ 35.042 = 28.54 tokens/s a
    # user (short of the 30 asked), 16 × 1000 ÷ 35.042 = 456.59 tokens/s a replica; the
    # peak, 1e8 ÷ 86,400 × 2 = 2,314.8 tokens/s, needs ⌈2,314.8 ÷ (456.59 × 0.6)⌉ = ⌈8.45⌉
    # = 9 replicas: 18 GPUs × 2.95 × 730.5 h = 38,789.55 a month, ÷ 3,043.75 M output
    # tokens a month = 12.744
    kv = 16 * 327680 * 2150 / 6.7e12 * 1e3
    weights = 69_549_326_848 / 6.7e12 * 1e3
    assert 2 * 70.6e9 * 16 * (1 + 2000 / 300) / (2 * 1979e12) * 1e3 < weights
    comm = 2 * 80 * (7.8e-3 + 16 * (1 + 2000 / 300) * 8192 * 2 / 450e9 * 1e3)
    floor = kv + weights + comm
    assert floor == pytest.approx(14.0255, abs=5e-5)
    real_ms = 14.0255 / 0.471 + 80 * 65.8 / 1000
    assert real_ms == pytest.approx(35.042, abs=5e-4)
    assert 1000 / real_ms == pytest.approx(28.54, abs=5e-3) and 1000 / real_ms < 30
    assert 16000 / real_ms == pytest.approx(456.59, abs=5e-3)
    assert 1e8 / 86400 * 2 / (16000 / real_ms * 0.6) == pytest.approx(8.45, abs=5e-3)
    assert math.ceil(1e8 / 86400 * 2 / (16000 / real_ms * 0.6)) == 9
    assert 18 * 2.95 * 730.5 == pytest.approx(38789.55, abs=1e-6)
    assert 18 * 2.95 * 730.5 / 3043.75 == pytest.approx(12.744, abs=5e-4)
    shown = {k.strip(): x for k, x in (line.split("\t", 1) for line in lines
                                       if line.count("\t") == 1)}
    # 14.0255 is the floor as shown (6 figures): ± 5e-5 ÷ 0.471 on the realistic step
    assert float(shown["Decode step (realistic)"].split()[0]) == pytest.approx(real_ms,
                                                                               abs=2e-4)
    assert float(shown["Tokens/s per user (realistic)"].split()[0]) == pytest.approx(
        1000 / real_ms, rel=1e-5)
    assert float(shown["Tokens/s per replica (realistic)"].split()[0]) == pytest.approx(
        16000 / real_ms, rel=1e-5)
    for line in ("  GPUs in total\t18 GPU(s)", "  Replicas for the peak\t9 replica(s)",
                 "  GPUs per replica (tensor parallel × stages)\t2 GPU(s)",
                 "  Monthly cost (USD)\t38,789.6", "  Cost per million output tokens (USD)\t12.744",
                 "  Decode step floor (datasheet peaks; for comparison)\t14.0255 ms/token",
                 "  Model\tLlama 3.1 70B", "  GPU\tNVIDIA H100 SXM", "  Currency label\tUSD"):
        assert line in lines, line
    # Llama 3.1 70B (70.6e9 parameters, models.csv) in FP8: 70.6 GB; 70.6e9 / 2^30 GiB
    assert "  Weights\t70.6 GB" in lines
    assert "  Weights in GiB\t65.7514 GiB" in lines
    # weights fit on one 80 GB H100 (70.6 GB ≤ 80 GB), weights + 12.06 GB of KV do not
    assert "  Weights fit on one GPU?\tyes" in lines
    assert "  Weights + KV cache fit on one GPU?\tno" in lines
    # a step reads 70.6e9 − 128,256 × 8,192 (all but the input embedding table; config.json:
    # vocab 128256, hidden 8192) = 69.55 GB: 69.55 GB / 3.35 TB/s = 20.76 ms
    assert "  Decode floor: weights only, batch 1, one GPU\t20.761 ms/token" in lines
    assert out.exists() and TEMPLATE.exists()


@pytest.mark.parametrize("formula, line", [
    ("=RIDGE(989)", "#VALUE! RIDGE has too few arguments: bandwidth is missing; the function "
                    "is RIDGE(peak_flops, bandwidth, [efficiency])"),
    ("=RIDGE(989,3.35,1,2)", "#VALUE! RIDGE has too many arguments (4 given, at most 3); the "
                             "function is RIDGE(peak_flops, bandwidth, [efficiency])"),
])
def test_eval_names_the_missing_arguments(formula, line, d, monkeypatch, capsys):
    rc, out, _ = run(d, monkeypatch, capsys, ["eval", formula])
    assert (rc, out) == (0, line + "\n")


def test_calc_suggests_the_function_meant(d, monkeypatch, capsys):
    workbook(d / "typo.xlsx", ["=RIGDE(989,3.35)"])
    rc, _, err = run(d, monkeypatch, capsys, ["calc", "typo.xlsx", "-o", "out.xlsx"])
    assert rc == 1
    assert "unknown function RIGDE() in Sizing!B1" in one_sentence(err)
    assert "did you mean RIDGE?" in err and not (d / "out.xlsx").exists()


def test_progress_on_a_terminal_only(d, monkeypatch, capsys):
    workbook(d / "long.xlsx", [f"=RIDGE({900 + i},3.35)" for i in range(600)])
    monkeypatch.setattr(cli_commands, "PROGRESS_DELAY", 0)  # show at once, however short the run
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    rc, _, err = run(d, monkeypatch, capsys, ["calc", "long.xlsx", "-o", "o.xlsx"])
    assert rc == 0 and "napkin: compiling" in err and "napkin: computing" in err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    rc, out, err = run(d, monkeypatch, capsys, ["calc", "long.xlsx", "-o", "o.xlsx", "-q"])
    assert (rc, out, err) == (0, "", "")  # --quiet: silent even at a terminal
    r = napkin("calc", d / "long.xlsx", "-o", d / "p.xlsx")  # piped: no bar
    assert r.returncode == 0 and r.stderr == ""
