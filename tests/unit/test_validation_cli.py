"""`unodsl validate` and `unodsl schema` for people, editors and CI: output formats,
exit codes (0 valid, 1 invalid, 2 usage), --strict, and the files editors and
pre-commit read."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result
from jsonschema import Draft202012Validator

from unodsl.cli import EXIT_INVALID, EXIT_OK, EXIT_USAGE, main
from unodsl.variant.schema import overlay_schema, schema
from unodsl.variant.source import load_source

ROOT = Path(__file__).resolve().parents[2]
MINI = (ROOT / "tests" / "bad_variants" / "bases" / "mini.yaml").read_text()


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """good.yaml (valid), warn.yaml (one warning) and bad.yaml (one error), in the cwd."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.yaml").write_text(MINI)
    (tmp_path / "warn.yaml").write_text(MINI.replace("  wild:\n", "  spare:\n    points: 5\n  wild:\n"))
    (tmp_path / "bad.yaml").write_text(MINI.replace("on_play: skip()", "on_play: skp()"))
    return {"good": "good.yaml", "warn": "warn.yaml", "bad": "bad.yaml"}


# -- exit codes -------------------------------------------------------------------------
def test_valid_files_exit_0_and_say_ok(files: dict[str, str]) -> None:
    house = str(ROOT / "variants" / "house" / "seven_zero.yaml")
    result = run("validate", "good.yaml", "classic", house)
    assert result.exit_code == EXIT_OK == 0
    assert result.output == f"good.yaml: ok\nclassic: ok\n{house}: ok\n"


def test_an_invalid_file_exits_1_and_every_file_is_still_checked(files: dict[str, str]) -> None:
    result = run("validate", "bad.yaml", "good.yaml")
    assert result.exit_code == EXIT_INVALID == 1
    assert result.output == ("bad.yaml:16:14: error: unknown function 'skp'\n"
                             "  hint: did you mean 'skip'?\n"
                             "good.yaml: ok\n")


def test_warnings_pass_unless_strict(files: dict[str, str]) -> None:
    relaxed = run("validate", "warn.yaml")
    assert relaxed.exit_code == EXIT_OK
    assert relaxed.output == "warn.yaml:17:3: warning: card kind 'spare' is defined but never in the deck\n"
    strict = run("validate", "--strict", "warn.yaml")
    assert strict.exit_code == EXIT_INVALID
    assert strict.output == relaxed.output


@pytest.mark.parametrize("args", [
    ["validate"],                               # no files
    ["validate", "--format", "xml", "x.yaml"],  # an unknown format
    ["validate", "--nope", "x.yaml"],           # an unknown option
    ["schema", "extra"],                        # schema takes no argument
])
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == EXIT_USAGE == 2
    assert "Usage:" in result.output


def test_a_missing_file_is_a_diagnostic_not_a_usage_error(files: dict[str, str]) -> None:
    result = run("validate", "nothere.yaml")
    assert result.exit_code == EXIT_INVALID
    assert result.output == "nothere.yaml:1:1: error: no such file\n"


# -- formats ---------------------------------------------------------------------------------
def test_json_format_lists_every_diagnostic(files: dict[str, str]) -> None:
    result = run("validate", "--format", "json", "warn.yaml", "good.yaml", "nothere.yaml")
    assert result.exit_code == EXIT_INVALID
    assert json.loads(result.output) == [
        {"file": "warn.yaml", "line": 17, "column": 3, "severity": "warning",
         "message": "card kind 'spare' is defined but never in the deck", "hint": None},
        {"file": "nothere.yaml", "line": 1, "column": 1, "severity": "error",
         "message": "no such file", "hint": None},
    ]


def test_json_format_of_valid_files_is_an_empty_list(files: dict[str, str]) -> None:
    result = run("validate", "--format", "json", "good.yaml")
    assert (result.exit_code, json.loads(result.output)) == (EXIT_OK, [])


def test_github_format_prints_escaped_annotations(files: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "odd, name.yaml").write_text(MINI.replace("deck_size: 40", "deck_size: 41"))
    result = run("validate", "--format", "github", "odd, name.yaml", "warn.yaml")
    assert result.exit_code == EXIT_INVALID
    assert result.output.splitlines() == [
        "::error file=odd%2C name.yaml,line=6,col=12,title=unodsl::deck_size says 41 cards, but the deck "
        "lists 40%0Ahint: fix the counts or the declared size",
        "::warning file=warn.yaml,line=17,col=3,title=unodsl::card kind 'spare' is defined but never in the deck",
    ]


def test_github_format_with_strict_reports_warnings_as_errors(files: dict[str, str]) -> None:
    result = run("validate", "--format", "github", "--strict", "warn.yaml")
    assert result.output.startswith("::error file=warn.yaml,line=17,col=3,")
    assert result.exit_code == EXIT_INVALID


def test_text_format_prints_brackets_in_messages_literally(files: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "b.yaml").write_text(MINI.replace("on_play: skip()", "on_play: swap_hands(player, "
                                                  "choose_player([]))"))
    result = run("validate", "b.yaml")
    assert "choose_player() is given an empty list" in result.output
    assert "[/]" not in result.output and "[bold]" not in result.output


# -- schema, editors, pre-commit -------------------------------------------------------------
def test_schema_prints_the_json_schema() -> None:
    result = run("schema")
    assert result.exit_code == EXIT_OK
    assert json.loads(result.output) == schema()
    Draft202012Validator.check_schema(schema())


def test_the_overlay_schema_file_is_generated_and_current() -> None:
    result = run("schema", "--overlay")
    assert json.loads(result.output) == overlay_schema()
    Draft202012Validator.check_schema(overlay_schema())
    committed = (ROOT / "unodsl" / "variant" / "schemas" / "overlay.schema.json").read_text(encoding="utf-8")
    assert committed == result.output, "run: unodsl schema --overlay > unodsl/variant/schemas/overlay.schema.json"


def test_the_overlay_schema_accepts_overlays_and_still_checks_their_values() -> None:
    check = Draft202012Validator(overlay_schema())
    house = ROOT / "variants" / "house"
    for path in house.glob("*.yaml"):  # read as unodsl reads them (`on:` is a key, not YAML 1.1's true)
        assert list(check.iter_errors(load_source(path).data)) == [], path
    assert not check.is_valid({"name": "no extends"})
    assert not check.is_valid({"extends": "classic", "players": {"max": "many"}})
    assert not check.is_valid({"extends": "classic", "deck": [{"kind": "skip"}]})  # list items stay complete
    assert check.is_valid({"extends": "classic", "players": {"max": 4}, "cards": {"skip": {"on_play": None}}})


def test_the_overlay_schema_takes_the_merging_spellings_and_only_them() -> None:
    check = Draft202012Validator(overlay_schema())
    rule = {"name": "sevens", "on": "card_played", "do": "skip()"}
    group = {"kind": "skip", "count": 2}
    for good in ([rule], [{"name": "sevens", "remove": True}], None):
        assert check.is_valid({"extends": "classic", "rules": good}), good
    for bad in ([{"on": "card_played", "do": "skip()"}],  # a rule an overlay gives is named
                [{"name": "sevens", "remove": False}], [{"name": "sevens", "remove": True, "do": "skip()"}],
                [{"name": "sevens", "on": "card_played"}], {"sevens": None}):
        assert not check.is_valid({"extends": "classic", "rules": bad}), bad
    for good in ([group], {"add": [group]}, {"replace": [group]}, None):
        assert check.is_valid({"extends": "classic", "deck": good}), good
    for bad in ({"add": [group], "replace": [group]}, {"append": [group]}, {"add": [{"kind": "skip"}]}, {}):
        assert not check.is_valid({"extends": "classic", "deck": bad}), bad
    # A whole variant still has only plain lists.
    classic = load_source(ROOT / "variants" / "classic.yaml").data
    assert Draft202012Validator(schema()).is_valid(classic)
    assert not Draft202012Validator(schema()).is_valid({**classic, "deck": {"add": [group]}})


def test_every_shipped_variant_points_editors_at_the_right_schema() -> None:
    for path in sorted((ROOT / "variants").rglob("*.yaml")):
        first = path.read_text().splitlines()[0]
        match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert match, f"{path} has no yaml-language-server header"
        target = (path.parent / match.group(1)).resolve()
        assert target.is_file(), f"{path}: {match.group(1)} does not exist"
        extends = "\nextends:" in path.read_text()
        assert target.name == ("overlay.schema.json" if extends else "variant.schema.json"), path


def test_the_schemas_next_to_the_shipped_variants_are_the_packaged_ones() -> None:
    for name in ("variant.schema.json", "overlay.schema.json"):
        committed = (ROOT / "variants" / "schemas" / name).read_bytes()
        assert committed == (ROOT / "unodsl" / "variant" / "schemas" / name).read_bytes(), \
            f"run: unodsl schema --write variants/schemas/ (variants/schemas/{name} is stale)"


def test_schema_write_makes_the_file_a_variant_header_names(tmp_path: Path) -> None:
    (tmp_path / "house" / "editor").mkdir(parents=True)
    (tmp_path / "base.yaml").write_text("# yaml-language-server: $schema=house/editor/variant.schema.json\n" + MINI)
    overlay = tmp_path / "house" / "mine.yaml"
    overlay.write_text("# yaml-language-server: $schema=editor/overlay.schema.json\nextends: ../base.yaml\n")
    result = run("schema", "--write", str(tmp_path / "base.yaml"), "--write", str(overlay))
    assert result.exit_code == EXIT_OK, result.output
    written = tmp_path / "house" / "editor"
    assert json.loads((written / "variant.schema.json").read_text()) == schema()
    assert json.loads((written / "overlay.schema.json").read_text()) == overlay_schema()
    assert result.output == f"wrote {written / 'variant.schema.json'}\nwrote {written / 'overlay.schema.json'}\n"
    again = run("schema", "--write", str(tmp_path / "base.yaml"))  # its own earlier output is replaced
    assert again.exit_code == EXIT_OK


def test_schema_write_without_a_header_writes_next_to_the_variant_and_says_what_to_add(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text(MINI)
    result = run("schema", "--write", str(tmp_path / "mine.yaml"))
    assert result.exit_code == EXIT_OK
    assert json.loads((tmp_path / "variant.schema.json").read_text()) == schema()
    assert "# yaml-language-server: $schema=variant.schema.json" in result.output


def test_schema_write_to_a_folder_and_to_a_file(tmp_path: Path) -> None:
    assert run("schema", "--write", str(tmp_path)).exit_code == EXIT_OK
    assert json.loads((tmp_path / "variant.schema.json").read_text()) == schema()
    assert json.loads((tmp_path / "overlay.schema.json").read_text()) == overlay_schema()
    assert run("schema", "--overlay", "--write", str(tmp_path / "o.json")).exit_code == EXIT_OK
    assert json.loads((tmp_path / "o.json").read_text()) == overlay_schema()


@pytest.mark.parametrize(("header", "target", "message"), [
    ("$schema=https://example.org/s.json", None, "names a URL"),
    ("$schema=../notes.json", None, "writes only files named variant.schema.json or overlay.schema.json"),
    ("$schema=overlay.schema.json", None, "needs variant.schema.json, but its header names overlay.schema.json"),
    ("$schema=gone/variant.schema.json", None, "no folder"),
    ("$schema=variant.schema.json", "variant.schema.json", "is not a unodsl schema; not overwritten"),
])
def test_schema_write_refuses_what_it_should_not_write(tmp_path: Path, header: str, target: str | None,
                                                        message: str) -> None:
    (tmp_path / "mine.yaml").write_text(f"# yaml-language-server: {header}\n{MINI}")
    if target:
        (tmp_path / target).write_text("my notes, not a schema")
    result = CliRunner().invoke(main, ["schema", "--write", str(tmp_path / "mine.yaml")])
    assert result.exit_code == EXIT_INVALID
    assert message in result.output
    assert re.match(rf"{re.escape(str(tmp_path))}/\S+:1:\d+: error: ", result.output), result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["mine.yaml", *([target] if target else [])])
    if target:
        assert (tmp_path / target).read_text() == "my notes, not a schema"


def test_pre_commit_hooks_run_validate_on_variant_files() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    by_id = {h["id"]: h for h in hooks}
    assert by_id["unodsl-validate"]["entry"] == "unodsl validate"
    assert by_id["unodsl-validate-strict"]["entry"] == "unodsl validate --strict"
    for hook in hooks:
        assert hook["language"] == "python"
        files = re.compile(hook["files"])
        assert files.search("variants/classic.yaml") and files.search("game/variants/house/x.yml")
        assert not files.search(".github/workflows/ci.yaml") and not files.search(".pre-commit-hooks.yaml")


def test_validation_doc_exists_and_names_the_tools() -> None:
    doc = (ROOT / "docs" / "validation.md").read_text()
    for needed in ("yaml-language-server", "--format github", "--format json", "--strict", "pre-commit",
                   "extends:", "exit", "unodsl schema"):
        assert needed in doc, needed


def test_a_broken_base_shared_by_several_files_is_reported_once(files: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(MINI.replace("deck_size: 40", "deck_size: 41"))
    (tmp_path / "a.yaml").write_text("extends: base.yaml\nname: A\n")
    (tmp_path / "b.yaml").write_text("extends: base.yaml\nname: B\n")
    result = run("validate", "a.yaml", "b.yaml")
    assert result.exit_code == EXIT_INVALID
    assert result.output == ("base.yaml:6:12: error: deck_size says 41 cards, but the deck lists 40\n"
                             "  hint: fix the counts or the declared size\n"
                             "b.yaml: invalid: see above (in a file it extends)\n")
    assert len(json.loads(run("validate", "--format", "json", "a.yaml", "b.yaml").output)) == 1


# -- shipped names ------------------------------------------------------------------------
HOUSE_NAMES = sorted(f"house/{p.stem}" for p in (ROOT / "variants" / "house").glob("*.yaml"))


def test_list_shows_every_house_overlay_by_the_name_that_runs_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    listed = [line.split()[0] for line in run("list").output.splitlines()]
    assert HOUSE_NAMES and set(HOUSE_NAMES) <= set(listed)
    assert listed.index("classic") < listed.index(HOUSE_NAMES[0])  # the main variants first


@pytest.mark.parametrize("name", HOUSE_NAMES)
def test_every_house_overlay_runs_validates_and_renders_by_name(name: str, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # far from variants/: the name is found among the shipped files
    assert (validated := run("validate", name)).output == f"{name}: ok\n", validated.output
    played = run("run", name, "--seed", "1")
    assert played.exit_code == EXIT_OK and re.search(r" wins? after ", played.output), played.output
    rulebook = run("rulebook", name)
    assert rulebook.exit_code == EXIT_OK and yaml.safe_load((ROOT / "variants" / f"{name}.yaml").read_text())[
        "name"] in rulebook.output
    simulated = run("simulate", name, "-n", "2")
    assert simulated.exit_code == EXIT_OK, simulated.output
    assert run("options", name).exit_code == EXIT_OK


def test_a_misspelt_house_name_is_told_with_the_near_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("validate", "house/seven_zer")
    assert result.exit_code == EXIT_INVALID
    assert result.output == ("house/seven_zer:1:1: error: no variant file or shipped variant named "
                             "'house/seven_zer'\n  hint: did you mean 'house/seven_zero'?\n")


def test_a_file_that_exists_wins_over_a_shipped_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "seven_zero").write_text(MINI.replace("name: Mini", "name: Local"))
    assert run("validate", "house/seven_zero").output == "house/seven_zero: ok\n"
    assert "Local" in run("rulebook", "house/seven_zero").output
