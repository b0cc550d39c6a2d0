"""The held-out corpus's manifest (``tools/business_corpus.csv``): every row Excel-saved,
at a commit, with its sha256, on the side of the split its repository's hash puts it
(``tools.business_corpus.part_of``). The workbooks themselves are not needed here."""

from __future__ import annotations

import hashlib
import re
from collections import Counter

import pytest

from tools import business_corpus as bc


def test_the_split_is_by_the_hash_of_the_repository():
    # sha256("owner/name")'s first hex digit, worked here: 0-7 held out, 8-f tuned on
    for repo in ("apache/poi", "tafia/calamine", "a/b", "x/y"):
        digit = int(hashlib.sha256(repo.encode()).hexdigest()[0], 16)
        assert bc.part_of(repo) == ("heldout" if digit < 8 else "tune"), repo


def test_every_row_is_an_excel_saved_workbook_at_a_commit_on_its_side():
    rows = bc.entries()
    assert rows and len({r["sha256"] for r in rows}) == len(rows)
    for r in rows:
        # (the second round's parts are the same sides, with a 2: heldout2, tune2; the
        # third to nineteenth rounds, heldout3-19, are held out whole, not split; so is the
        # tuning pool, tune3)
        if r["part"] not in ("heldout3", "heldout4", "heldout5", "heldout6", "tune3",
                             "heldout7", "heldout8", "heldout9", "heldout10",
                             "heldout11", "heldout12", "heldout13",
                             "heldout14", "heldout15", "heldout16", "heldout17",
                             "heldout18", "heldout19"):
            assert r["part"].removesuffix("2") == bc.part_of(r["repository"]), r
        assert re.fullmatch(r"[0-9a-f]{40}", r["commit"]), r
        assert re.fullmatch(r"[0-9a-f]{64}", r["sha256"]), r
        assert re.fullmatch(r"Microsoft( Macintosh)? Excel( Online)? \d+\.\d{4}",
                            r["application"]), r
        assert r["path"].lower().endswith((".xlsx", ".xlsm")), r
    assert {r["part"] for r in rows} == set(bc.PARTS)
    # a repository of the second round is not one of the first
    first = {r["repository"] for r in rows if r["part"] in ("heldout", "tune")}
    assert not first & {r["repository"] for r in rows if r["part"].endswith("2")}


def test_the_third_part_shares_no_owner_with_the_first_two_and_caps_each_repository():
    # the rule written in the manifest before any candidate was looked at: no repository
    # nor owner of the first two rounds; at most 3 files a repository, so with 12 or more
    # repositories none has more than a quarter of the part
    rows = bc.entries()
    third = [r for r in rows if r["part"] == "heldout3"]
    earlier = {r["repository"].split("/")[0].lower() for r in rows
               if r["part"] not in ("heldout3", "heldout4", "heldout5", "heldout6", "tune3",
                                    "heldout7", "heldout8", "heldout9", "heldout10",
                                    "heldout11", "heldout12", "heldout13",
                                    "heldout14", "heldout15", "heldout16", "heldout17",
                                    "heldout18", "heldout19")}
    owners = {r["repository"].split("/")[0].lower() for r in third}
    assert third and not owners & earlier
    per_repository = Counter(r["repository"] for r in third)
    assert len(per_repository) >= 12 and max(per_repository.values()) <= 3
    assert max(per_repository.values()) <= len(third) / 4
    # the first eligible files by path: a repository's rows are at one commit
    for repo in per_repository:
        assert len({r["commit"] for r in third if r["repository"] == repo}) == 1, repo


#: the parts in the order their rules were written: the tuning pool (tune3) was gathered
#: after heldout5 and before heldout6's rule (the manifest's blocks)
CHRONOLOGICAL = ("heldout", "tune", "heldout2", "tune2", "heldout3", "heldout4", "heldout5",
                 "tune3", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10",
                 "heldout11", "heldout12", "heldout13", "heldout14", "heldout15",
                 "heldout16", "heldout17", "heldout18", "heldout19")


@pytest.mark.parametrize(("part", "files", "repositories"), [
    ("heldout4", 45, 15), ("heldout5", 45, 15), ("heldout6", 45, 15), ("heldout7", 45, 15),
    ("heldout8", 45, 15), ("heldout9", 45, 15), ("heldout10", 45, 15),
    # heldout11's rule was applied until the machine's fetch tool refused new
    # repositories (the manifest's note under its rule): 11 files of 7 repositories
    ("heldout11", 11, 7),
    # heldout12's, the same: 23 files of 17 repositories
    ("heldout12", 23, 17),
    # heldout13, complete: 45 files of 32 repositories
    ("heldout13", 45, 32),
    ("heldout14", 45, 30),
    # heldout15's names listed 52 repositories only: 21 files of 13 (the manifest's note)
    ("heldout15", 21, 13),
    ("heldout16", 45, 25),
    # heldout17's names listed 83 candidates only: 26 files of 18 (the manifest's note)
    ("heldout17", 26, 18),
    # heldout18's, 355 candidates: 37 files of 23 (the manifest's note)
    ("heldout18", 37, 23),
    # heldout19, complete: 45 files of 28 repositories
    ("heldout19", 45, 28)])
def test_a_later_part_shares_no_owner_with_the_earlier_ones_and_caps_each_repository(
        part, files, repositories):
    # each round's rule (the fourth and after), committed in the manifest before any
    # candidate was looked at: no repository nor owner of the parts before it (the tuning
    # pool included from the sixth round on); at most 3 files a repository, the first
    # eligible ones by path at one commit; at least 15 repositories; 45 files
    assert set(CHRONOLOGICAL) == set(bc.PARTS)
    rows = bc.entries()
    chosen = [r for r in rows if r["part"] == part]
    before = CHRONOLOGICAL[:CHRONOLOGICAL.index(part)]
    earlier = {r["repository"].split("/")[0].lower() for r in rows if r["part"] in before}
    assert len(chosen) == files
    assert not {r["repository"].split("/")[0].lower() for r in chosen} & earlier
    per_repository = Counter(r["repository"] for r in chosen)
    assert len(per_repository) >= repositories and max(per_repository.values()) <= 3
    for repo in per_repository:
        assert len({r["commit"] for r in chosen if r["repository"] == repo}) == 1, repo
        paths = [r["path"] for r in chosen if r["repository"] == repo]
        assert paths == sorted(paths), repo


def test_the_tuning_pool_is_recorded_as_it_was_chosen():
    # tune3, gathered after heldout5 from mirrored repositories and tuned on (the
    # manifest's block): 30 files of 10 repositories, at most 6 a repository, first by
    # path at one commit; no repository or owner of heldout5 (the earlier parts' checks
    # leave the pool out: it came after them, and shares repositories with heldout3 and
    # heldout4)
    rows = bc.entries()
    pool = [r for r in rows if r["part"] == "tune3"]
    assert len(pool) == 30
    fifth = {r["repository"].split("/")[0].lower() for r in rows if r["part"] == "heldout5"}
    assert not {r["repository"].split("/")[0].lower() for r in pool} & fifth
    per_repository = Counter(r["repository"] for r in pool)
    assert len(per_repository) == 10 and max(per_repository.values()) <= 6
    for repo in per_repository:
        assert len({r["commit"] for r in pool if r["repository"] == repo}) == 1, repo
        paths = [r["path"] for r in pool if r["repository"] == repo]
        assert paths == sorted(paths), repo


def test_census_reads_a_part_where_fetch_writes_it(tmp_path, monkeypatch):
    # DIR/part/owner+name/path with / as __: the folder census --part tune3 gives
    # refusal_census is where fetch puts the pool's files (local_path)
    row = next(r for r in bc.entries() if r["part"] == "tune3")
    assert bc.local_path(tmp_path, row).parent.parent == tmp_path / "tune3"
    got = []
    from tools import refusal_census
    monkeypatch.setattr(refusal_census, "main", lambda argv: got.append(argv) or 0)
    assert bc.main(["census", str(tmp_path), "--part", "tune3"]) == 0
    assert got == [["--corpus", str(tmp_path / "tune3")]]

