"""R20: which terms become concepts and which sentence defines each, on sources written
for these tests (not copied from any corpus)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from wikigen.engines.offline.documents import Guard
from wikigen.engines.offline.engine import analyze
from wikigen.engines.offline.headings import heading_terms


def analyzed(sources: list[dict[str, Any]], anchors: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The offline engine's analyze delta for ``sources`` (id, title, body), with ``anchors`` known."""
    request = {"sources": sources, "fragments": [], "anchors": anchors or [], "relations": [], "revoked": []}
    return analyze(request, Guard(time.monotonic() + 300, threading.Event(), "analyze"))


def concepts(body: str, title: str = "Notes") -> dict[str, dict[str, Any]]:
    delta = analyzed([{"id": "knowledge/notes", "title": title, "body": body}])
    for concept in delta["concepts"]:
        for quote in [
            concept["definition"]["quotes"][0]["quote"],
            *(e["quote"] for e in concept["evidence"]),
        ]:
            assert quote in body  # R22: verbatim
    return {c["name"]: c for c in delta["concepts"]}


def definition(concept: dict[str, Any]) -> str:
    quote: str = concept["definition"]["quotes"][0]["quote"]
    return quote


def defined_as(body: str, name: str, title: str = "Notes") -> str:
    """The definition quote of the concept ``name`` the body gives (it must give one)."""
    found = concepts(body, title=title)
    assert name in found, sorted(found)
    return definition(found[name])


def test_emphasized_first_use_defines_a_term() -> None:
    """R20: technical prose emphasizes a term where it introduces it."""
    body = (
        "Growers plant in beds. We say these neighbouring beds form a _rotation pair_.\n\n"
        "Rotation pairs rest every third year so that the soil recovers.\n"
    )
    found = concepts(body)
    assert "Rotation pair" in found
    # "these" beds are the ones the sentence before spoke of: it is quoted too
    assert definition(found["Rotation pair"]) == "Growers plant in beds. We say these neighbouring beds form a _rotation pair_."


def test_a_code_heading_names_the_construct_not_the_english_word() -> None:
    """R20: "## `gather`" names the construct; "in this case" is not a mention of `case`."""
    body = (
        "## `gather`\n\n"
        "`gather` collects every ripe fruit of a row into one basket.\n\n"
        "In this case the basket is emptied at the end of the row, and `gather` starts again.\n"
    )
    found = concepts(body)
    assert "gather" in found
    assert definition(found["gather"]).startswith("`gather` collects")


def test_abbreviation_gives_an_alias() -> None:
    """R20: "The Seed Exchange Protocol (SEP) is …" names the concept and its abbreviation."""
    body = (
        "The Seed Exchange Protocol (SEP) is the agreement by which two farms trade seed lots.\n\n"
        "Farms that follow the SEP record every lot they trade.\n"
    )
    found = concepts(body)
    assert "Seed Exchange Protocol" in found
    assert "SEP" in found["Seed Exchange Protocol"]["aliases"]


def test_letters_spelled_out_after_them_name_the_concept() -> None:
    """R20: "returns a BTU (barn tally unit)" spells the letters out: the words name the concept and
    the letters are its alias; the spelling alone defines nothing, a sentence that says what it is
    does. Words that do not spell the letters ("YAML (you could also use JSON)") are a remark."""
    body = (
        "Every trade is written down. Notice `trade/1` returns a BTU (barn tally unit).\n\n"
        "A barn tally unit is a measure that counts the sacks of one barn.\n\n"
        "Write the ledger in YAML (you could also use JSON). Notice the FIFO (first-in first-out) queue.\n"
    )
    found = concepts(body)
    assert "BTU" in found["Barn tally unit"]["aliases"]
    assert definition(found["Barn tally unit"]).startswith("A barn tally unit is a measure")
    assert not any("could" in name.casefold() or "first-in" in name.casefold() for name in found)


def test_a_name_known_as_another_is_one_concept_with_that_name_as_alias() -> None:
    """R25/R26: "A **seed ledger** (also known as a **seed book**) is …" gives one concept with the
    other name as its alias, not two concepts defined by one sentence and drawn as one being the
    other; a name "called" in parentheses names one of the things before it and stays a concept
    where the sentence says what those do."""
    body = (
        "A **seed ledger** (also known as a **seed book**) is a record that lists every lot a farm "
        "keeps, with its year and its field.\n\n"
        "Each farm keeps one seed ledger. A seed book is checked every spring.\n\n"
        "Farms share machines for sowing whole fields (called `FieldSowers`) that plant one row at a time.\n\n"
        "A `FieldSower` plants one row at a time.\n"
    )
    found = concepts(body)
    assert "Seed ledger" in found and "seed book" in found["Seed ledger"]["aliases"]
    assert not {"Seed book", "seed book"} & set(found)
    assert "FieldSower" in found or "FieldSowers" in found
    # under a plural title the candidate is the title's "Seed Ledgers"; the singular still names it
    found = concepts("# Seed Ledgers\n\n" + body, title="Seed Ledgers")
    assert "seed book" in found["Seed Ledger"]["aliases"]
    assert not {"Seed book", "seed book"} & set(found)
    # a name given to a narrower noun phrase names that kind, not the candidate its noun is
    found = concepts(
        "# Trays\n\nA *tray* is a shallow box that holds seedlings.\n\n"
        'A grower asks for a literal `wide` tray (also known as "flat" or "deep"), by that name.\n\n'
        "Every *flat* holds forty seedlings.\n",
        title="Trays",
    )
    assert not {"flat", "deep"} & set(found["Tray"]["aliases"])


def test_a_list_entry_labelled_by_a_quality_or_a_task_names_no_term() -> None:
    """R20: "**Easy to sow**: …" and "**Rotate crops**: …" label what a product offers, a quality and
    a task; "**Seed drill**: …" labels a thing, and the entry defines it."""
    body = (
        "The farm kit has these features:\n\n"
        "* **Easy to sow**: It's easy to sow for new growers.\n"
        "* **Rotate crops**: The kit rotates crops for you, even on a slope.\n"
        "* **Seed drill**: A machine that puts each seed at the right depth.\n\n"
        "The kit is easy to sow with, and it can rotate crops on any field. Every seed drill is checked yearly.\n"
    )
    found = concepts(body)
    assert not {"Easy to sow", "Rotate crops", "Rotate crop"} & set(found)
    assert definition(found["Seed drill"]).startswith("**Seed drill**: A machine")


def test_one_word_whose_capitals_spell_the_letters_gets_them_as_alias() -> None:
    """R20: "a _SeedTrayRotator_ (STR)" names one camel-case word by its capitals; "Barns (BNS)"
    does not spell them."""
    body = (
        "You can turn the trays automatically using a _SeedTrayRotator_ (STR).\n\n"
        "A SeedTrayRotator is a frame that turns every seed tray once a day.\n\n"
        "Barns (BNS) are buildings that keep the harvest dry.\n"
    )
    found = concepts(body)
    assert "STR" in found["SeedTrayRotator"]["aliases"]
    assert "BNS" not in {alias for c in found.values() for alias in c["aliases"]}


def test_calling_something_as_a_thing_runs_it_and_names_nothing() -> None:
    """R20: "you can call many tools as *sowers*" runs the tools; "a tool known as a *harrow*"
    names one."""
    body = (
        "You may have seen that you can call many farm tools as sowers with `farm run`.\n\n"
        "Every sower plants seeds. A sower is checked each spring.\n\n"
        "The kit ships a tool known as a harrow, which breaks up the soil before sowing.\n\n"
        "A harrow is pulled across the field.\n"
    )
    found = concepts(body)
    assert not any(definition(c).startswith("You may have seen") for c in found.values())
    assert "Harrow" in found


def test_a_step_that_leads_into_an_example_names_no_term_by_its_verb() -> None:
    """R20: "- Prune a fruit tree using a specific blade:" tells the reader what to do before a
    command; its first word is a verb, however the parser reads a capital, and defines no *Prune*
    (nor *Unmount*); the page's lead still defines the command."""
    body = (
        "# seedctl\n\n"
        "> Manage the seed lots of a farm.\n\n"
        "- Prune a fruit tree using a specific blade:\n\n"
        "`seedctl prune {{tree}}`\n\n"
        "- Prune a fruit tree using a specific blade again:\n\n"
        "`seedctl prune {{tree}} --again`\n\n"
        "- Unmount a seed drum as soon as it becomes empty:\n\n"
        "`seedctl unmount {{drum}}`\n\n"
        "- Unmount a seed drum as soon as it becomes empty again:\n\n"
        "`seedctl unmount {{drum}} --again`\n"
    )
    found = concepts(body, title="seedctl")
    assert not {"Prune", "Unmount"} & set(found), sorted(found)
    assert definition(found["seedctl"]) == "Manage the seed lots of a farm."


def test_a_former_name_is_no_definition() -> None:
    """R20, precision first: "Before 2019 this method was known as _dry sowing_" gives the name
    the method had, not what it is; "is known as" in the present names."""
    former = "Before 2019 this method was known as _dry sowing_.\n\nSome farms still use dry sowing.\n"
    assert "Dry sowing" not in concepts(former)
    present = "Sowing without water is known as _dry sowing_.\n\nSome farms still use dry sowing.\n"
    assert "Dry sowing" in concepts(present)


def test_an_entry_whose_clause_has_its_own_subject_does_not_define_its_label() -> None:
    """R20: in "**Drivers:** tractors with an exempt driver are ignored …" the clause says what
    happens to its own subject, not what a driver is; "**Crate keeper:** Counts the crates …" has
    no subject of its own and says what a crate keeper does."""
    body = (
        "## Exemptions\n\n"
        "- **Drivers:** tractors with an exempt driver are ignored by the gate.\n"
        "- **Crate keeper:** Counts the crates of the barn every evening.\n\n"
        "Every driver signs the book. The crate keeper signs too.\n"
    )
    found = concepts(body)
    assert "Driver" not in found
    assert definition(found["Crate keeper"]).startswith("**Crate keeper:** Counts the crates")


def test_what_a_term_does_defines_it_before_a_sentence_that_only_emphasizes_it() -> None:
    """R20: the author's emphasis marks where a term is introduced ("_Trellises_ are placed in the
    beds."), but a sentence of a defining form says more: "Trellises let climbing beans grow …"."""
    body = (
        "Stakes hold a single stem upright. _Trellises_ are placed in the beds in spring. "
        "Trellises let climbing beans grow upward along a lattice of thin slats.\n\n"
        "Every bed gets two trellises.\n"
    )
    assert defined_as(body, "Trellises").startswith("Trellises let climbing beans grow")


def test_a_naming_after_a_sentence_whose_pronoun_points_back_defines_nothing() -> None:
    """R20: "… the first two are called _sowers_" is quoted with the sentence before it, which must
    say what "the first two" are of: "We are going to look at the tools now." does, "We are going to
    look at them now." leans on a sentence further back and the naming defines nothing."""
    named = (
        "# Tools\n\nFarms keep three tools in the shed.\n\nWe are going to look at {} now. Keep in mind "
        "the first two are called _sowers_ because they plant seeds, while the third is a rake.\n"
    )
    assert "Sowers" not in concepts(named.format("them"))
    assert definition(concepts(named.format("the tools"))["Sowers"]).startswith("We are going to look at the tools")


def test_a_notion_introduced_is_quoted_with_the_sentence_that_opens_with_it() -> None:
    """R20: "… also provides a notion of furrows." only introduces the term; the sentence
    right after it that opens with it says what furrows are, and the quote holds both. "This page
    describes the concept of crop rotation" is about the page and defines nothing."""
    body = (
        "Besides sowing seed, a plough also provides a notion of furrows. "
        "Furrows may consist of several parallel cuts that are often sown as one.\n\n"
        "Count the furrows of every field.\n\n"
        "This page describes the concept of _crop rotation_ on small farms.\n\n"
        "Crop rotation changes the crops of a field.\n"
    )
    found = concepts(body)
    assert definition(found["Furrows"]) == (
        "Besides sowing seed, a plough also provides a notion of furrows. "
        "Furrows may consist of several parallel cuts that are often sown as one."
    )
    assert found["Furrows"]["definition"]["text"].endswith("sown as one.")  # the claim shows both
    assert "Crop rotation" not in found or not definition(found["Crop rotation"]).startswith("This page")


def test_a_notion_only_brought_in_defines_nothing() -> None:
    """R20: "The guild brings the concept of tithes from the old town." only names the notion, and
    no sentence after it opens with it: tithes are not defined by it. "… provides the concept of
    fallow, to rest a field for a year" says what it is for and defines it."""
    bare = "# Tithes\n\nThe guild brings the concept of tithes from the old town.\n\nCount the sheaves.\n"
    assert "Tithes" not in concepts(bare)
    told = (
        "# Fallow\n\nThe guild also provides the concept of fallow, to rest a field for a year.\n\n"
        "Count the sheaves.\n"
    )
    assert definition(concepts(told)["Fallow"]).startswith("The guild also provides the concept of fallow")


def test_a_term_only_said_to_be_used_often_is_not_a_concept() -> None:
    """R20: "Ledgers are frequently used as a tally of the harvest." says how ledgers are most
    used, as "You can use X" does, not what a ledger is: under its own heading it still defines
    nothing; "Ledgers are used as a tally …" says what they are for."""
    body = "# Ledgers\n\nLedgers are {}used as a tally of the harvest.\n\nCount the sheaves.\n"
    assert "Ledgers" not in concepts(body.format("frequently "))
    assert definition(concepts(body.format(""))["Ledgers"]).startswith("Ledgers are used as a tally")


def test_one_more_of_an_emphasized_kind_does_not_introduce_it() -> None:
    """R20: "… counts the cellar as another **seed store** …" speaks of one more of a kind the text
    introduced before, so its emphasis defines nothing; "… as a **seed store** …" introduces it."""

    def text(determiner: str) -> str:
        return (
            "# Cellars\n\nThe farmer keeps seed in sealed jars in the loft.\n\n"
            f"In winter the farmer also counts the cellar as {determiner} **seed store** that stays cool.\n\n"
            "The seed store holds the seed for spring.\n"
        )

    assert "Seed store" not in concepts(text("another"))
    assert definition(concepts(text("a"))["Seed store"]).startswith("In winter the farmer also counts")


def test_a_term_written_with_a_pointing_word_is_the_one_named_before() -> None:
    """R20: "This granary is a dry store …" after "… use the farm's `tower` granary." says what the
    granary just named is, not what a granary is; nor does "This field failing means …" (the parser
    hangs "This" on "field"). "A granary is …" and "A field failing means …" define them."""

    def granary(determiner: str) -> str:
        return (
            "# Granary\n\nRather than the loft, you should use the farm's `tower` granary. "
            f"{determiner} granary is a dry store that keeps grain safe from mice.\n\nEvery granary holds grain.\n"
        )

    def failing(determiner: str) -> str:
        return (
            "# Field failing\n\nThe farm checks every field each week.\n\n"
            f"{determiner} field failing means the soil needs more lime.\n\nA field failing is rare.\n"
        )

    assert "Granary" not in concepts(granary("This"))
    assert definition(concepts(granary("A"))["Granary"]) == "A granary is a dry store that keeps grain safe from mice."
    assert "Field failing" not in concepts(failing("This"))
    assert definition(concepts(failing("A"))["Field failing"]).startswith("A field failing means")


def test_a_sentence_opening_on_what_came_before_introduces_no_term() -> None:
    """R20: "The above code will raise the number of _tithes_ to ten." tells what the example before
    it does; its emphasis introduces nothing. "The new law will raise …" stands on its own."""

    def text(opener: str) -> str:
        return f"# Tithes\n\n{opener} will raise the number of _tithes_ to ten.\n\nCount the sheaves.\n"

    assert "Tithes" not in concepts(text("The above code"))
    assert definition(concepts(text("The new law"))["Tithes"]).startswith("The new law will raise")


def test_what_the_one_named_by_a_plain_word_does_defines_no_kind() -> None:
    """R20: under the heading "Gate", "The gate responds to two kinds of knock …" says what the gate
    of this farm does, a plain word with "The"; "A gate responds …" says it of any gate. Not "The
    `gate` …", a name written as code."""

    def text(subject: str) -> str:
        return (
            f"# Gate\n\nThe farm has many fields.\n\n{subject} responds to two kinds of knock from the road.\n\n"
            "Open the gate with care. Pass `gate` to the lock.\n"
        )

    assert "Gate" not in concepts(text("The gate"))
    assert definition(concepts(text("A gate"))["Gate"]).startswith("A gate responds")


def test_quotes_that_hedge_a_word_name_no_term() -> None:
    """R20: 'the "bins" of grain they keep' puts a word in quotes to hedge it, not to introduce a
    term ("tagged tuples" in quotes does)."""
    body = (
        'Just like a silo provides a way for farmers to describe the "bins" of grain they keep when '
        'filling a cart, a barn provides a way to describe the "bins" of hay when filling a cart.\n\n'
        "Every bin is cleaned in spring.\n"
    )
    assert "Bin" not in concepts(body)


def test_a_maturity_is_no_definition_and_no_term() -> None:
    """R20: "Crop rotation is an *alpha feature* and only enabled when …" says how far the feature
    is, even in the term's own section; the lead says what it is, and "alpha feature" is no term."""
    body = (
        "Crop rotation is a method for changing the crops of a field every year.\n\n"
        "## Enabling crop rotation\n\n"
        "Crop rotation is an *alpha feature* and only enabled when the `Rotation` flag is set.\n\n"
        "Use crop rotation. The alpha feature is good.\n"
    )
    found = concepts(body)
    assert definition(found["Crop rotation"]).startswith("Crop rotation is a method")
    assert "Alpha feature" not in found
    listed = (
        "* [Harrowbot](https://example.org/harrowbot) harrows a field in rows and reports the depth of "
        "every furrow. Harrowbot is a [Farm Tools project at the Sandbox level](https://example.org/p).\n"
        "* [Seedbot](https://example.org/seedbot) is a robot that sows seed in rows.\n\n"
        "Harrowbot and Seedbot share a charger. Harrowbot is small.\n"
    )
    harrowbot = concepts(listed).get("Harrowbot")  # what it does, or nothing: never its project's level
    assert harrowbot is None or not definition(harrowbot).startswith("Harrowbot is a [Farm")


def test_an_emphasized_thing_the_reader_uses_is_described_not_defined() -> None:
    """R20: "… sort the crates automatically using a _CrateSorter_" and "The usual way … is to run a
    *grain dryer* in the barn that stands …" tell what the reader does with a thing; with a purpose
    ("uses *sieves* to split …") the sentence says what it is for; what the reader can do with it
    ("Instead, you can use _seed trays_ that hold …") defines nothing, whatever its clause says."""
    body = (
        "You can sort the crates automatically using a _CrateSorter_.\n\n"
        "The usual way to dry the harvest is to run a *grain dryer* in the barn that stands by the mill.\n\n"
        "A farm uses *sieves* to split the grain from the chaff.\n\n"
        "Instead, you can use _seed trays_ that hold one seedling in each cell.\n\n"
        "Every CrateSorter, grain dryer, sieve and seed tray is cleaned in spring.\n"
    )
    found = concepts(body)
    assert "CrateSorter" not in found and "Grain dryer" not in found
    assert definition(found["Sieve"]).startswith("A farm uses *sieves* to split")
    assert "Seed tray" not in found


def test_a_name_given_partly_in_quotes_is_not_its_last_word() -> None:
    """R20: 'This is called the "number-per-crate" model.' names the number-per-crate model, not
    "model"; 'This is called "prying".' names prying."""
    body = (
        'Every crate in a barn has its own number. This is called the "number-per-crate" model.\n\n'
        "The model is simple. A model helps.\n"
    )
    assert "Model" not in concepts(body)
    whole = 'If you accept, you can see every crate. This is called "prying".\n\nPrying is fun. Prying helps.\n'
    assert "Prying" in concepts(whole)  # the whole name in quotes


def test_members_offered_in_a_lead_in_do_not_define_the_kind_and_a_heading_names_prose_beside_code() -> None:
    """R20: "The farm supports `oats` and `rye` as grains:" leads into what follows and does not open
    on its term: it says which grains the farm has, not what grains are; the heading "Grains and
    `chaff`" names both the prose kind and the code name; "The `Mill` module" names only `Mill`."""
    body = (
        "## Grains and `chaff`\n\n"
        "The farm supports `oats` and `rye` as grains:\n\n"
        "Grains are stored in the barn until winter, with the `chaff` set apart.\n"
    )
    found = concepts(body)
    assert all(definition(c) != "The farm supports `oats` and `rye` as grains:" for c in found.values())

    assert heading_terms("Grains and `chaff`") == [("chaff", True), ("Grains", False)]
    assert heading_terms("The `Mill` module") == [("Mill", True)]


def test_anaphoric_naming_is_quoted_with_the_sentence_before() -> None:
    """R20: "This set is called the _prelude_" is quoted together with what "this set" is."""
    body = (
        "Every farm keeps a few tools within reach of the gate at all times. "
        "This set is called the _gate kit_.\n\n"
        "The gate kit is checked every morning before work starts.\n"
    )
    found = concepts(body)
    assert definition(found["Gate kit"]) == (
        "Every farm keeps a few tools within reach of the gate at all times. This set is called the _gate kit_."
    )
    # what a reader sees of the definition is both sentences: the first alone says nothing of a gate kit
    assert found["Gate kit"]["definition"]["text"] == (
        "Every farm keeps a few tools within reach of the gate at all times. This set is called the _gate kit_."
    )


def test_a_forward_reference_never_defines() -> None:
    """R20: "… is known as a _trellis frame_, and Chapter 18 shows …" points elsewhere."""
    body = (
        "A support for climbing beans is known as a _trellis frame_, and Chapter 18 shows how to build one.\n\n"
        "Beans climb the trellis frame within a week.\n\n"
        "A trellis frame is a lattice of thin slats that carries climbing plants.\n"
    )
    found = concepts(body)
    assert definition(found["Trellis frame"]).startswith("A trellis frame is a lattice")


def test_people_and_placeholders_are_not_concepts() -> None:
    """R20, precision first: "developers" do things in many sentences; `foo` is an example's name."""
    body = (
        "Developers can extend the planner with plugins. Developers write a plugin in an afternoon.\n\n"
        "For example, `foo` is a plugin that waters the beds, and `foo` runs at dawn.\n"
    )
    found = {name.casefold() for name in concepts(body)}
    assert "developer" not in found and "developers" not in found
    assert "foo" not in found


def test_an_anchor_named_by_a_short_word_is_mentioned_only_as_code() -> None:
    """R20: a live construct `gather` … `case` is not mentioned by the English word: "in this case"."""
    delta = analyzed(
        [
            {
                "id": "knowledge/notes",
                "title": "Notes",
                "body": "Every case holds the harvest of the whole farm through the winter.\n\n"
                "The barn is full in this case, and the farmers rest until spring.\n",
            }
        ],
        anchors=[
            {"id": "concept/case", "name": "case", "aliases": [], "type": "concept"},
            {"id": "concept/harvest", "name": "Harvest", "aliases": [], "type": "concept"},
        ],
    )
    quotes = {
        e["quote"]
        for r in delta["relations"]
        if "concept/case" in (r["subject"], r["object"])
        for e in r["evidence"]
    }
    assert quotes == set()  # the English word "case" is never the construct


def test_an_instance_named_by_a_letter_is_no_concept() -> None:
    """R20, precision first: "Bed Q" and "Row N" are one example's instances, not kinds of things."""
    body = (
        "## Beds\n\n"
        "A **bed** is a raised strip of soil where one crop grows.\n\n"
        "**Bed Q** is planted next to **Row N** in the same field as the orchard.\n\n"
        "**Bed Q** is empty in winter, and **Row N** holds the compost.\n"
    )
    found = concepts(body)
    assert not {"Bed Q", "Row N"} & set(found)


def test_a_function_named_with_its_arity_is_found_without_it() -> None:
    """R20: "## `tally/2`" then "`tally` is …": the bare name is the same function (an alias)."""
    body = (
        "## `tally/2`\n\n"
        "Farm v2 introduced `tally/2` for the evening count.\n\n"
        "`tally` counts the sheep that pass the gate and returns their number.\n"
    )
    found = concepts(body)
    assert "tally/2" in found
    assert found["tally/2"]["aliases"] == ["tally"]
    assert definition(found["tally/2"]).startswith("`tally` counts")


def test_a_code_term_its_own_section_only_mentions_is_no_concept() -> None:
    """R20: under "## `tally/2`", "The gate keeper can use `tally/2`, so …" and "pass the flock to
    `tally/2`" only use the function: no sentence says what it is or does, so it is no concept;
    "`tally/2` counts the sheep …" under the same heading defines it."""
    used = "The gate keeper can use `tally/2`, so the farmer does not count by hand.\n\n"
    step = "Before dusk, pass the flock to `tally/2` and wait.\n"
    assert "tally/2" not in concepts("## `tally/2`\n\n" + used + step)
    defined = "`tally/2` counts the sheep that pass the gate.\n\n"
    assert "tally/2" in concepts("## `tally/2`\n\n" + defined + step)


def test_a_kind_for_one_thing_defines_only_that_kind() -> None:
    """R20 (one concept per sense): "Plugins for the tractor are separate binaries …" says what the
    tractor's plugins are, not what a plugin is, as "Tractor plugins are …" would; "Plugins are
    separate binaries …" defines the kind."""
    rest = "\n\nInstall plugins with the barn tool. Plugins can break the tractor.\n"
    narrowed = "Plugins for the tractor are separate binaries that add new behaviour to its controls."
    assert concepts("## Extending the barn\n\n" + narrowed + rest) == {}
    general = "Plugins are separate binaries that add new behaviour to the tractor's controls."
    assert "Plugins" in concepts("## Extending the barn\n\n" + general + rest)


def test_a_page_that_names_itself_this_command() -> None:
    """R23: on a command's page, "This command is an alias of `plough`." relates the page's own
    concept, even in a lead line shorter than a passage (E1 keeps it out of the article, not out of
    the evidence: the quote is verbatim at its span)."""
    sources = [
        {
            "id": "knowledge/tiller",
            "title": "tiller",
            "body": "# tiller\n\n> This command is an alias of `plough`.\n\n- Show the original command's page:\n\n`help plough`\n",
        },
        {
            "id": "knowledge/plough",
            "title": "plough",
            "body": "# plough\n\n> Turn the soil of a field.\n\n- Turn one row:\n\n`plough row`\n",
        },
    ]
    delta = analyzed(sources)
    found = {(r["subject"], r["predicate"], r["object"]): r for r in delta["relations"]}
    assert set(found) == {("tiller", "is alias of", "plough")}
    quote = found[("tiller", "is alias of", "plough")]["evidence"][0]["quote"]
    assert quote == "This command is an alias of `plough`." and quote in sources[0]["body"]


def _tldr_page(name: str, lead: str) -> dict[str, str]:
    """A tldr page: a title, a one-line description after ``>`` and one example."""
    return {"id": f"knowledge/{name}", "title": name, "body": f"# {name}\n\n> {lead}\n\n- Show it:\n\n`{name} row`\n"}


@pytest.mark.parametrize(
    "lead",
    [
        "This command has been superseded by `harrow`.",  # what became of the command
        "The examples for this command have been moved together with `harrow`.",  # of its examples
        "`rake` can refer to multiple commands with the same name.",  # a page that points to others
    ],
)
def test_a_lead_that_says_only_what_became_of_a_command_defines_nothing(lead: str) -> None:
    """R20: "This command has been superseded by `harrow`." says what became of `rake`, "The examples
    for this command have been moved together with `harrow`." what became of its examples, and
    "`rake` can refer to multiple commands with the same name." only points to the pages of those
    commands: none says what `rake` is, so no concept; "Level the soil of a field." defines `harrow`."""
    sources = [_tldr_page("rake", lead), _tldr_page("harrow", "Level the soil of a field.")]
    assert {c["name"] for c in analyzed(sources)["concepts"]} == {"harrow"}


def test_this_page_is_the_text_not_its_subject() -> None:
    """R23: "This page introduces the Harrow object …" says what the text does; it relates the page's
    concept to nothing."""
    body = (
        "# Harrows\n\n"
        "This page introduces the Harrow object in Farming, with notes on how harrows work.\n\n"
        "A harrow is a farm tool that breaks up clods of soil after ploughing.\n\n"
        "Farming is the craft of growing crops. Harrows are used in farming to level the soil.\n"
    )
    delta = analyzed([{"id": "knowledge/harrows", "title": "Harrows", "body": body}])
    assert not [r for r in delta["relations"] if "introduces" in r["predicate"]], delta["relations"]


def test_a_labelled_list_entry_is_about_its_label() -> None:
    """R20, precision first: "**Rye**: Seed drills run slower." is an entry about rye; it says
    nothing that defines seed drills, even under the heading that names them."""
    body = (
        "## Seed drills\n\n"
        "- **Rye**: Seed drills run slower in the heavy clay of the lower field.\n"
        "- **Oats**: Seed drills run faster when the soil of the field is dry.\n"
    )
    assert "Seed drill" not in concepts(body)


def test_a_list_entry_telling_what_the_example_will_be_defines_nothing() -> None:
    """R20: "`barn-keeper`: will be the name of the program." tells what the example at hand will do,
    as "`X` will be a copy of …" does; an entry in the present tense still defines its term."""
    body = (
        "# Packaging\n\n"
        "Set the project's fields:\n\n"
        "* `barn-keeper`: will be the name of the program that the farmers run in their terminal.\n"
        "* `hay-loader`: loads the hay bales onto the cart before the farmers drive to the barn.\n\n"
        "Then run `barn-keeper` and `hay-loader` in the terminal. Both `barn-keeper` and `hay-loader` "
        "print a line for every bale.\n"
    )
    found = concepts(body)
    assert "barn-keeper" not in found
    assert "hay-loader" in found


def test_two_emphasized_phrases_stress_a_contrast() -> None:
    """R20, precision first: "preferred over *hand saws* and *pit saws*" stresses two things
    against each other; it introduces neither."""
    body = (
        "## Saws\n\n"
        "Power tools are preferred over *hand saws* and *pit saws* where the timber is large.\n\n"
        "Hand saws and pit saws still cut the small beams of the old barn.\n"
    )
    found = concepts(body)
    assert not {"Hand saw", "Pit saw", "Hand saws", "Pit saws"} & set(found)


def test_a_lead_in_to_an_example_is_the_definition_only_when_nothing_else_is() -> None:
    """R20: "Trellises also support climbing beans:" leads into an example; a sentence of the same
    form that stands alone is the better definition."""
    body = (
        "## Trellis\n\n"
        "A trellis also supports climbing beans:\n\n"
        "```\nbeans -> trellis\n```\n\n"
        "A trellis holds climbing plants upright against a wall of the garden.\n\n"
        "Every trellis in the garden is painted green each spring.\n"
    )
    found = concepts(body)
    assert "Trellis" in found
    assert definition(found["Trellis"]) == "A trellis holds climbing plants upright against a wall of the garden."


def test_what_a_titled_term_does_defines_it_where_the_source_uses_it_again() -> None:
    """R20: the source's title names "the sprinkler hub"; "The sprinkler hub stores …" says
    what it does. One such sentence in passing is no concept; a term the source is about is."""
    body = (
        "The sprinkler hub stores the watering schedule of every bed in the garden.\n\n"
        "When rain is forecast, gardeners pause the sprinkler hub for a day.\n\n"
        "Gardeners read the log of the sprinkler hub every week.\n"
    )
    assert defined_as(body, "Sprinkler hub", title="Sprinkler hub").startswith("The sprinkler hub stores")
    assert "Sprinkler hub" not in concepts(body.split("\n\n")[0] + "\n", title="Sprinkler hub")


def test_strings_quoted_as_an_example_s_values_are_no_terms() -> None:
    """R20: 'a bed "bed-a" with a row "carrots" and a bed "bed" with a row "a-carrots"' quotes values;
    a phrase quoted on its own introduces a term ("crop rotation")."""
    body = (
        'Naming can clash: a bed "bed-a" with a row "carrots" and a bed "bed" with a row "a-carrots" both\n'
        'end up as "bed-a-carrots". The gardener renames the carrots row when that happens.\n\n'
        'Growers speak of "crop rotation" when a bed changes its crop every year.\n\n'
        "A bed that skips crop rotation tires quickly, so gardeners plan it early.\n"
    )
    found = concepts(body)
    assert "Carrots" not in found and "carrots" not in found
    assert "Crop rotation" in found


def test_a_bold_label_of_an_instruction_is_no_definition() -> None:
    """R20: "- **Mulch**: Spread a layer of straw …" tells what to do; the label is named again below,
    but nothing says what mulch is."""
    body = (
        "Ways to keep a bed moist through the summer:\n\n"
        "- **Mulch**: Spread a layer of straw over the soil, and then water the bed less often.\n"
        "- **Shade**: Hang a cloth over the bed at noon so that the soil stays cool.\n\n"
        "Mulch and shade work best together in a dry summer on sandy soil.\n"
    )
    found = concepts(body)
    assert "Mulch" not in found and "Shade" not in found


def test_a_definition_list_term_linked_to_its_page_is_a_term() -> None:
    """R20 (glossaries and definition lists): a one-word lower-case entry is a term where the author
    links it to its own page; unlinked, such a word needs the texts to name it a term elsewhere."""
    body = (
        "# Parts of the mill\n\n"
        "[grindstone](/parts/#grindstone)\n: The heavy round stone that turns the grain into flour.\n\n"
        "hopper\n: The box above the stones from which the grain runs down.\n"
    )
    found = concepts(body)
    assert definition(found["Grindstone"]).startswith("[grindstone](/parts/#grindstone)\n: The heavy")
    assert "Hopper" not in found and "hopper" not in found


def test_a_value_labelled_with_its_default_is_no_concept() -> None:
    """R20: "`Weekly` (default): …" is a list entry about a setting's value, as "`Weekly`: …" is."""
    body = (
        "# Schedules\n\n"
        "The `cadence` field says how often the barn is swept.\n\n"
        "- `Weekly` (default): The sweeper cleans the barn every week, and `Weekly` is the usual choice.\n"
        "- `Daily`: The sweeper cleans the barn every day.\n"
    )
    assert not {"Weekly", "Daily"} & set(concepts(body))


def test_a_heading_names_a_term_only_as_words_of_its_own() -> None:
    """R20: "### Harvest" is the section of `Harvest`; "### HarvestMoon" is not, although it contains
    the word: a mention there is no definition of `Harvest` in its own section."""
    from wikigen.engines.offline.sections import is_named_in_heading

    assert is_named_in_heading("Using `Harvest`", "Harvest") and is_named_in_heading("Harvests", "harvest")
    assert not is_named_in_heading("HarvestMoon", "Harvest") and not is_named_in_heading("Preharvest checks", "harvest")


def test_a_task_done_to_one_of_a_kind_is_not_its_own_section() -> None:
    """R20: "### Modifying a Haywain" tells the steps of a task done to one haywain; what
    a haywain is said where the text introduces it, not there. "Using `Harvest`" is still the
    section of `Harvest`."""
    from wikigen.engines.offline.candidates import Candidate
    from wikigen.engines.offline.sections import is_own_section

    body = (
        "A _Haywain_ creates hay bales on a repeating schedule.\n\n"
        "### Modifying a Haywain\n\n"
        "By design, a Haywain contains a ledger for _new_ loads.\n\n"
        "Farmers repaint the Haywain every spring.\n"
    )
    assert defined_as(body, "Haywain", title="Farm carts").startswith("A _Haywain_ creates hay bales")
    haywain = Candidate("Haywain", False)
    assert not is_own_section("Modifying a Haywain", haywain) and is_own_section("Haywain", haywain)
    assert is_own_section("Using `Harvest`", Candidate("Harvest", True))


def test_what_a_term_does_outranks_where_it_runs_even_outside_its_section() -> None:
    """R20: "The compost heap holds kitchen waste until …" says what the heap does; "The
    compost heap runs warm …" (in its own section) only how it runs. What it does wins."""
    body = (
        "The compost heap holds kitchen waste until it turns into soil for the beds.\n\n"
        "## Compost heap\n\n"
        "The compost heap runs warm in the shade behind the shed.\n\n"
        "Gardeners turn the compost heap with a fork every week.\n"
    )
    assert defined_as(body, "Compost heap", title="Garden notes").startswith("The compost heap holds kitchen waste")


def test_a_person_named_by_a_role_is_not_defined_by_a_step_they_take() -> None:
    """R20: "A barn administrator creates a number of `Stalls`." is a step of a procedure,
    not what a barn administrator is; the same sentence of a machine says what it does."""
    step = (
        "## Barn {0}\n\n"
        "A barn {0} creates a number of `Stalls` before the herd arrives.\n\n"
        "The barn {0} then opens the gate.\n"
    )
    assert "Barn administrator" not in concepts(step.format("administrator"))
    assert definition(concepts(step.format("robot"))["Barn robot"]).startswith("A barn robot creates")
    # nor by what happens to them in a story ("… deletes the feed records by mistake")
    story = "## Barn {0}\n\nA barn {0} deletes the feed records by mistake.\n\nThe barn {0} then opens the gate.\n"
    assert "Barn administrator" not in concepts(story.format("administrator"))
    assert "Barn robot" in concepts(story.format("robot"))


def test_one_concept_however_its_name_is_spaced() -> None:
    """R26/R25: "SeedDrill" and "seed drill" (the API kind and the words) are one concept, in one
    increment and across increments (the anchor is found again, not defined twice)."""
    body = (
        "A _seed drill_ is a machine that sows seeds in straight rows.\n\n"
        "A `SeedDrill` is the object that records each seed drill of the farm.\n\n"
        "The seed drill sows the rows every spring.\n"
    )
    found = concepts(body)
    assert len([n for n in found if n.replace(" ", "").casefold() == "seeddrill"]) == 1, sorted(found)
    anchor = {"id": "concept/seeddrill", "name": "SeedDrill", "aliases": [], "type": "resource"}
    delta = analyzed([{"id": "knowledge/notes", "title": "Notes", "body": body}], [anchor])
    assert not [c for c in delta["concepts"] if c["name"].replace(" ", "").casefold() == "seeddrill"]


def test_what_follows_from_another_clause_does_not_describe_a_term() -> None:
    """R20: "The lever has no effect on the gears, so gizmos are still required …" says
    what follows from the lever, not what a gizmo is; a sentence of its own about gizmos does."""
    body = (
        "## Gizmos\n\n"
        "The lever has no effect on the gears of the mill, so gizmos are still required to hold the axle.\n\n"
        "{0}The miller oils the gizmos every week.\n"
    )
    assert "Gizmos" not in concepts(body.format(""))
    own = "Gizmos rarely break in winter, because the miller keeps them warm and dry.\n\n"
    assert defined_as(body.format(own), "Gizmos").startswith("Gizmos rarely break")


def test_a_list_of_roles_defines_each_role_by_what_it_does() -> None:
    """R20: "**Barn administrator:** Looks after …" is an entry of a list of roles."""
    body = (
        "Three people share the farm.\n\n"
        "- {0}Barn administrator{1} Looks after the stalls and keeps the feed records.\n"
        "- {0}Field hand{1} Ploughs the fields.\n\n"
        "The barn administrator orders feed each month.\n"
    )
    for label in (("**", ":**"), ("__", ":__"), ("**", "**:")):
        assert "Barn administrator" in concepts(body.format(*label)), label


def test_a_name_joined_by_small_words_is_named_whole() -> None:
    """R20: "… is known as Quality of Harvest (QoH) grade" names "Quality of Harvest" with its letters
    as an alias, never "Quality" alone."""
    body = (
        "Growers sort every crate into a grade. This is known as Quality of Harvest (QoH) grade.\n\n"
        "The QoH grade decides which crate is sold first. Each QoH grade has a colour.\n"
    )
    found = concepts(body)
    assert "Quality" not in found
    assert found["Quality of Harvest"]["aliases"] == ["QoH"]
    assert definition(found["Quality of Harvest"]).startswith("Growers sort every crate into a grade. This is known")


def test_a_clause_before_a_colon_is_a_main_clause() -> None:
    """R20: "Threshers are machines for such chores: they …" — the parser hangs the first
    clause under the second; it still says what threshers are, quoted with the sentence that names
    the chores "such" points to."""
    chores = "Farms once beat grain by hand, often losing much of it on the floor."
    body = (
        "## Threshers\n\n"
        f"{chores} "
        "Threshers are harvest machines for such chores: they separate the grain from the straw.\n\n"
        "Threshers rattle loudly in the barn all through August.\n"
    )
    assert defined_as(body, "Threshers", title="Machines").startswith(f"{chores} Threshers are harvest machines")


def test_how_a_term_compares_or_what_one_example_does_defines_nothing() -> None:
    """R20: "`sift` does it better: …" (a comparative) and "For example, a baler can be
    used with …" (one example) say something of the term without saying what it is; the plain
    sentence is its definition."""
    body = (
        "## `sift`\n\n"
        "`sift` does it better: it removes the stones before the flour is weighed.\n\n"
        "`sift` separates flour from bran through a fine mesh.\n\n"
        "## Balers\n\n"
        "For example, a baler can be used with a wrapper in order to seal the bales.\n\n"
        "Balers rattle loudly in the fields all through July.\n"
    )
    assert defined_as(body, "sift", title="Tools").startswith("`sift` separates flour")
    assert defined_as(body, "Baler", title="Tools").startswith("Balers rattle")


@pytest.mark.parametrize(
    "sentence",
    [
        "Instead of stacking hay by hand, balers press it into tight blocks.",  # a contrast
        "Balers also support twine knotters in the barn.",  # one more feature
    ],
)
def test_a_contrast_or_one_more_feature_alone_makes_no_concept(sentence: str) -> None:
    """R20: a titled term whose only sentences say what it does instead of something else,
    or what else it does, is not defined; the same term with a plain description is."""
    body = "## Balers\n\n{0}\n\nThe farm keeps two balers in the shed.\n"
    names = {"Baler", "Balers"}
    assert not names & set(concepts(body.format(sentence), title="Tools"))
    assert names & set(concepts(body.format("Balers rattle loudly in the fields all through July."), title="Tools"))


def test_what_you_need_a_term_for_defines_it_despite_the_if() -> None:
    """R20: "If you need to …, X is a useful construct" says what X is for; a plain "If …,
    X …" states a circumstance and is never a definition."""
    body = (
        "## `winnow`\n\n"
        "If the wind drops, `winnow` is a slow chore.\n\n"
        "If you need to separate chaff from grain, `winnow` is the usual construct.\n\n"
        "Growers call `winnow` after every harvest.\n"
    )
    assert defined_as(body, "winnow", title="Chores").startswith("If you need to separate chaff")


def test_an_anchor_named_again_keeps_its_aliases_for_relations() -> None:
    """R23: an anchor a changed source names again keeps its own aliases when relations are read:
    "Sack" (alias "Sacks", a kind of thing) is no module in "the `Sack` module …"."""
    anchors = [
        {"id": "concept/sack", "name": "Sack", "aliases": ["Sacks"], "type": "concept", "definition": "A sack holds grain."},
        {"id": "concept/module", "name": "Module", "aliases": ["Modules"], "type": "concept", "definition": "A module groups functions."},
    ]
    body = (
        "# Sack tools\n\n"
        "A sack is a bag of woven cloth that holds grain.\n\n"
        "The `Sack` module returns the weight of each sack, while the scale reads raw bytes.\n"
    )
    delta = analyzed([{"id": "knowledge/sack-tools", "title": "Sack tools", "body": body}], anchors)
    assert not [r for r in delta["relations"] if r["predicate"] == "is a"], delta["relations"]


def test_what_a_term_is_outranks_what_it_does() -> None:
    """R20: of two defining sentences, the one that says what the term *is* (a copula, or
    what it is for) is its definition, even outside the term's own section; the one that says what
    it does ("A kiln holds …", under the heading "Kilns") is not."""
    body = (
        "# Kilns\n\n"
        "A kiln holds the clay pots of the potters while they harden.\n\n"
        "The potters load it at dusk and unload it at dawn.\n\n"
        "## How it is built\n\n"
        "A kiln is a thermally insulated chamber that reaches the heat clay needs to harden.\n"
    )
    assert defined_as(body, "Kiln") == (
        "A kiln is a thermally insulated chamber that reaches the heat clay needs to harden."
    )
    purpose = body.replace(
        "A kiln is a thermally insulated chamber",
        "A kiln's purpose is to keep a thermally insulated chamber",
    )
    assert defined_as(purpose, "Kiln").startswith("A kiln's purpose is")


def test_a_term_marked_where_the_sentence_says_what_it_is_is_defined_there() -> None:
    """R20: "The _hay loft_ is a …" — a definite article on a term the author emphasizes
    in the sentence that says what it is names the one thing the term means, not one of a kind; the
    same sentence unmarked ("The barn is a …") speaks of one barn and defines nothing of its own."""
    body = (
        "# The farmyard\n\n"
        "The _hay loft_ is a storage floor above the stalls where the dry fodder is kept.\n\n"
        "Farmers fill the hay loft in July and empty it by March.\n"
    )
    assert defined_as(body, "Hay loft") == (
        "The _hay loft_ is a storage floor above the stalls where the dry fodder is kept."
    )
    assert "Hay loft" not in concepts(body.replace("_hay loft_", "hay loft"))


def test_the_second_of_two_named_is_quoted_with_the_sentence_before() -> None:
    """R20: "… while the second is referred to as _deep ploughing_" names the second of two
    ways the sentence before gives: that definition is both sentences."""
    body = (
        "Farms can till more land by adding teams of oxen, or by giving each team a heavier plough. "
        "The first approach is referred to as _wide ploughing_, while the second is referred to as "
        "_deep ploughing_.\n\n"
        "Deep ploughing needs strong oxen. Wide ploughing needs more oxen and more drivers.\n"
    )
    found = concepts(body)
    assert definition(found["Deep ploughing"]) == (
        "Farms can till more land by adding teams of oxen, or by giving each team a heavier plough. "
        "The first approach is referred to as _wide ploughing_, while the second is referred to as "
        "_deep ploughing_."
    )


def test_a_note_on_the_side_or_a_history_defines_nothing() -> None:
    """R20: what a sentence inside an admonition (a Hugo note, a GitHub alert, an MkDocs
    "!!! note") says of a term is a side remark, and "Early on, …" tells what was: neither is a
    definition, so a term only they speak of is no concept; the same sentence in the text defines
    it. A note may still name a term ("… is called a _hay rake_")."""
    plain = "## Hay wagons\n\nHay wagons run between the field and the barn every evening.\n"
    assert "Hay wagons" in concepts(plain)
    for aside in (
        "{{< note >}}\nHay wagons run between the field and the barn every evening.\n{{< /note >}}\n",
        "> [!NOTE]\n> Hay wagons run between the field and the barn every evening.\n",
        '!!! note "Tools"\n    Hay wagons run between the field and the barn every evening.\n',
    ):
        assert not concepts("## Hay wagons\n\n" + aside), aside
    assert not concepts("## Hay wagons\n\nEarly on, hay wagons ran between the field and the barn.\n")
    named = "{{< note >}}\nA tool that gathers cut grass into rows is called a _hay rake_.\n{{< /note >}}\n"
    assert "Hay rake" in concepts(named + "\nHay wagons run between the field and the barn every evening.\n")


def test_a_remark_on_the_side_is_not_chosen_over_a_statement_of_the_same_form() -> None:
    """R20: "Note that …", "As we said, …" and an "also" add to what the text said of a term before;
    of two sentences that describe it alike, the one that stands on its own defines it."""
    from wikigen.engines.offline.acceptance import best_form
    from wikigen.engines.offline.findings import Found, Rank, Reading
    from wikigen.engines.offline.text import sentences

    text = (
        "Note that the `:archived` key does not warn when a page is opened. "
        "The `:archived` key marks a page as kept for the record. "
        "`:archived` also accepts a reason. "
        "As we said, `:archived` hides the page from the index."
    )
    found = [
        Found(":archived", sentence, Reading("subject", Rank.DESCRIBES), own_section=True, opens=True)
        for sentence in sentences("knowledge/notes", text)
    ]
    assert len(found) == 4
    assert [f.sentence.text for f in best_form(found)] == [
        "The `:archived` key marks a page as kept for the record."
    ]


def test_of_two_sentences_that_name_a_term_the_one_that_stands_alone_defines_it() -> None:
    """R20: a naming sentence is never leaning (it is quoted as it stands), but of two that name a
    term alike, "And then … that pen called the *sorting yard*" goes on from the sentence before it;
    the one that stands on its own defines the term."""
    from wikigen.engines.offline.acceptance import best_form
    from wikigen.engines.offline.findings import Found, Rank, Reading
    from wikigen.engines.offline.text import sentences

    text = (
        "And then the dogs push every lamb out of that pen called the *sorting yard*. "
        "Each flock walks through the gate into a large pen called the *sorting yard*."
    )
    found = [
        Found("sorting yard", sentence, Reading("called", Rank.DEFINES), own_section=True)
        for sentence in sentences("knowledge/notes", text)
    ]
    assert len(found) == 2
    assert [f.sentence.text for f in best_form(found)] == [
        "Each flock walks through the gate into a large pen called the *sorting yard*."
    ]


def test_the_kind_of_a_thing_a_sentence_names_is_not_introduced_by_it() -> None:
    """R20: "… to a "**paper ledger**" called "**daily tally**"" names one ledger and says what the
    daily tally is; it says nothing of what a paper ledger is, however the author marked it."""
    body = (
        "The way counting works underneath is that the **farm office** (north, south, east) treats what "
        'we count as if our dog was **writing numbers** to a "**paper ledger**" called "**daily tally**".\n\n'
        'And then the farm office **shows on the board** whatever our dog "**wrote**" to that "**paper '
        'ledger**" called "**daily tally**".\n\nThe daily tally is read every evening.\n'
    )
    found = concepts("# Counting\n\n" + body, title="Counting")
    assert "Daily tally" in found
    assert "Paper ledger" not in found


def test_the_product_named_before_a_common_noun_leaves_the_noun_as_alias() -> None:
    """R20/R26: "Gizmo widgets", where Gizmo is the product every source is about, are widgets — the
    noun alone names the term too; a name of its own ("Gizmo API") keeps its capitals and gets none."""
    sources = [
        {"id": "knowledge/a", "title": "Widgets", "body": (
            "_Gizmo widgets_ are persistent entities in the Gizmo system. "
            "Gizmo uses widgets to record what you asked for.\n\nEach widget has a name.\n")},
        {"id": "knowledge/b", "title": "Servers", "body": (
            "The _Gizmo API_ is the interface that Gizmo serves to its clients.\n\n"
            "A widget is stored by the Gizmo API.\n")},
        {"id": "knowledge/c", "title": "Setup", "body": "Gizmo is a portable tool for keeping records.\n\nInstall Gizmo first.\n"},
    ]
    found = {c["name"]: c for c in analyzed(sources)["concepts"]}
    assert found["Gizmo widgets"]["aliases"] == ["widgets"]
    assert not any(a.casefold() == "api" for a in found["Gizmo API"].get("aliases", []))


def test_a_term_named_of_what_the_sentence_before_spoke_of_is_quoted_with_it() -> None:
    """R20/R22: "We say these meters perform _structural ranking_" and "We call other losses
    *gradual losses*" name what the sentence before spoke of: the definition is both sentences,
    verbatim."""
    body = (
        "The meters in the shed can compare any two beds. We say these meters perform _structural ranking_.\n\n"
        "Structural ranking changes each year. A structural ranking is kept.\n"
    )
    assert defined_as(body, "Structural ranking") == (
        "The meters in the shed can compare any two beds. We say these meters perform _structural ranking_."
    )
    body = "Frost and hail destroy a crop at once. We call other losses *gradual losses*.\n\nGradual losses add up over a season.\n"
    assert defined_as(body, "Gradual losses") == "Frost and hail destroy a crop at once. We call other losses *gradual losses*."


def test_a_phrase_linked_to_the_page_about_it_is_a_term() -> None:
    """R20: "[Grain silos](/docs/storage/grain-silos/) keep …" links the phrase to the page about it,
    as a glossary does: a term, even where this text names it once; a link to some other page
    ("[read the guide](/docs/storage/)") makes no term."""
    from wikigen.engines.offline.markings import links_its_page

    assert links_its_page("Grain silos", "/docs/storage/grain-silos/")
    assert links_its_page("grain silo", "../storage/grain-silos.md")  # either number, a file
    assert links_its_page("Seed drill", "/docs/tools/sowing/#seed-drill")  # a section about it
    assert links_its_page("tail call", "https://en.wikipedia.org/wiki/Tail_call")
    assert links_its_page("`sow`", "`sow/2`")  # ExDoc's autolink of a function with its arity
    assert not links_its_page("read the guide", "/docs/storage/")
    assert not links_its_page("Grain silos", "https://example.org/")
    linked = "[Grain silos](/docs/storage/grain-silos/) keep the harvest dry through the winter.\n"
    assert defined_as(linked, "Grain silos").startswith("[Grain silos](/docs/storage/grain-silos/) keep")
    assert not concepts("Grain silos keep the harvest dry through the winter.\n")


def test_what_to_use_for_the_thing_just_named_or_a_change_defines_nothing() -> None:
    """R20: "Use a _seed drill_ to set this depth …" tells what to do about the thing just
    named, "Likewise if …" a case, "_Seed drills_ have replaced …" a change: none says what the
    term is; "We use a _seed drill_ whenever we want to sow grain in rows" does."""
    assert "Seed drill" in concepts(
        "We use a _seed drill_ whenever we want to sow grain in rows.\n\nA seed drill is pulled.\n"
    )
    for text in (
        "The depth is set per field. Use a _seed drill_ to set this depth at sowing time.\n\nA seed drill is pulled.\n",
        "Likewise if the soil is wet, then the _seed drill_ will sow fewer rows.\n\nA seed drill is pulled.\n",
        "_Seed drills_ have replaced sowing by hand.\n\nA seed drill is pulled.\n",
    ):
        assert "Seed drill" not in concepts(text) and "Seed drills" not in concepts(text), text


def test_a_pro_or_a_con_weighed_against_another_defines_nothing() -> None:
    """R20: the items of a list that "Advantages compared to …:" (or a "Trade-offs"
    heading) leads into weigh a term up against another; what they say of it is no definition."""
    item = "- _Crop rotation_ provides a rest for the soil.\n- Crop rotation needs a plan.\n"
    assert "Crop rotation" in concepts("Ways of farming:\n\n" + item)
    assert "Crop rotation" not in concepts("Advantages compared to fallowing:\n\n" + item)
    assert "Crop rotation" not in concepts("## Trade-offs\n\n" + item)


def test_the_kind_things_are_grouped_into_is_defined_by_the_grouping() -> None:
    """R20: "In Gizmo we group several widgets into _panels_" says what panels are; one
    thing divided into kinds, or what you can do once, does not."""
    body = "# Panels\n\nIn Gizmo we group several widgets into panels.\n\nPanels are saved.\n"
    assert defined_as(body, "Panels", title="Panels") == "In Gizmo we group several widgets into panels."
    from wikigen.engines.offline.parse import parse_sentences
    from wikigen.engines.offline.readings import Rank, read
    from wikigen.engines.offline.text import visible

    for text, word in (
        ("The Gizmo API is organized into different kinds.", "kinds"),
        ("We grouped the tests into suites yesterday.", "suites"),
        ("You can organize your widgets into panels.", "panels"),
    ):
        (parse,) = parse_sentences([visible(text)])
        head = next(w for w in parse.words if w.text == word)
        assert read(parse, head).rank != Rank.DEFINES, text


def test_a_definition_that_points_back_is_quoted_with_the_sentence_it_points_to() -> None:
    """R20: "_Seed banks_ are designed for these cases." says what seed banks are for only
    with the sentence that names the cases; the definition quotes both, as one contiguous quote."""
    cases = "Some growers need to keep rare grain for decades."
    body = f"# Seeds\n\n{cases} _Seed banks_ are designed for these cases.\n\nSeed banks are cold. Seed banks are old.\n"
    assert defined_as(body, "Seed banks") == f"{cases} _Seed banks_ are designed for these cases."
    plain = "# Seeds\n\n_Seed banks_ are designed for keeping rare grain.\n\nSeed banks are cold. Seed banks are old.\n"
    assert defined_as(plain, "Seed banks") == "_Seed banks_ are designed for keeping rare grain."
    # a quote never crosses a blank line: opening a paragraph, the sentence does not define them
    apart = body.replace(f"{cases} ", f"{cases}\n\n")
    assert all(cases not in definition(c) for c in concepts(apart).values())


def test_a_name_that_points_back_across_a_blank_line_defines_nothing() -> None:
    """R20: 'Those conveniences, which we call here "row tools", allow …' opening a paragraph names
    what the paragraph before spoke of, which the quote cannot hold; in the same block the two
    sentences are quoted together."""
    sentences = (
        "Growers plant rows by hand and carry the seed in sacks.",
        'Those conveniences, which we call here "row tools", allow the farm to stay small.',
    )
    tail = "\n\nRow tools are cheap. Row tools are old.\n"
    assert "Row tools" not in concepts("# Sowing\n\n" + "\n\n".join(sentences) + tail)
    together = concepts("# Sowing\n\n" + " ".join(sentences) + tail)
    assert definition(together["Row tools"]).startswith(sentences[0])


def test_such_a_noun_points_back_even_under_a_gerund() -> None:
    """R20: "… for keeping *such* grain" ("such" read as an adjective, under a gerund) points to the
    grain the sentence before names, as "these cases" does; the definition quotes both."""
    grain = "Some growers need to keep rare grain for decades."
    body = f"# Seeds\n\n{grain} _Seed banks_ are designed for keeping such grain.\n\nSeed banks are cold. Seed banks are old.\n"
    assert defined_as(body, "Seed banks") == f"{grain} _Seed banks_ are designed for keeping such grain."


def test_one_step_of_a_process_defines_nothing() -> None:
    """R20: "A sieve then holds the chaff …" tells one step of what the text describes,
    not what a sieve is; "A sieve holds the chaff …" says what it does. An emphasized term ("The
    _sorting table_ then passes …") is no more defined by one step, nor is a term by a step counted
    at the start ("First, sieves hold …", "Finally, …")."""
    from wikigen.engines.offline.parse import parse_sentences
    from wikigen.engines.offline.readings import Rank, read
    from wikigen.engines.offline.text import visible

    for text, word, defines in (
        ("A sieve then holds the chaff back from the flour.", "sieve", False),
        ("A sieve holds the chaff back from the flour.", "sieve", True),
        ("The _sorting table_ then passes the grain to the mill.", "table", False),
        ("A _sorting table_ passes the grain to the mill.", "table", True),
        ("First, sieves must hold the chaff back, then the mill grinds the grain.", "sieves", False),
        ("Finally, a sieve holds the chaff back from the flour.", "sieve", False),
    ):
        (parse,) = parse_sentences([visible(text)])
        head = next(w for w in parse.words if w.text == word)
        reading = read(parse, head, marked="_" in text)
        assert (reading.rank == Rank.DEFINES) is defines, (text, reading)


def test_what_the_text_says_it_covers_defines_nothing() -> None:
    """R20: "This page describes _seed banks_ …" says what the text covers, not what seed
    banks are; "A _seed bank_ keeps …" does."""
    from wikigen.engines.offline.parse import parse_sentences
    from wikigen.engines.offline.readings import Rank, read
    from wikigen.engines.offline.text import visible

    for text, rank in (
        ("This page describes _seed banks_ in farming.", Rank.MENTIONS),
        ("This document gives an overview of _seed banks_.", Rank.MENTIONS),
        ("A _seed bank_ keeps rare grain for decades.", Rank.DEFINES),
        ("This page gives an overview of seed banks: stores that keep rare grain for decades.", Rank.DEFINES),
    ):
        (parse,) = parse_sentences([visible(text)])
        head = next(w for w in parse.words if w.text.startswith("bank"))
        reading = read(parse, head, marked=True)
        assert reading.rank == rank, (text, reading)


def test_a_name_given_to_a_subject_that_names_itself_points_nowhere() -> None:
    """R20: "The remote service is called a *webhook backend*" names the one the text spoke
    of (quoted with the sentence before it); "the `:=` operator is called *the walrus operator*" says
    which one itself, so it stands alone, even opening a paragraph (and, a symbol's name with nothing
    it does, describes: test_the_name_of_a_symbol_describes_and_what_it_does_defines)."""
    from wikigen.engines.offline.parse import parse_sentences
    from wikigen.engines.offline.readings import Rank, read
    from wikigen.engines.offline.text import visible

    for text, rank, anaphoric in (
        ("The remote service is called a *webhook backend*.", Rank.DEFINES, True),
        ("In Gizmo, the `:=` operator is called *the walrus operator*.", Rank.DESCRIBES, False),
    ):
        (parse,) = parse_sentences([visible(text)])
        head = next(w for w in parse.words if w.dep == "oprd")
        reading = read(parse, head, marked=True)
        assert (reading.rank, reading.anaphoric) == (rank, anaphoric), (text, reading)


def test_parts_counted_what_follows_and_a_change_define_nothing() -> None:
    """R20: "Seed trays have two sections: a deep well and a lid" lists a tray's parts, not
    what a section is; "Seed trays have the following form." points at what comes next; "Seed trays
    have replaced paper cups." tells a change. "Seed trays, a kind of flat box, …" still glosses."""
    from wikigen.engines.offline.parse import parse_sentences
    from wikigen.engines.offline.readings import Rank, read
    from wikigen.engines.offline.text import visible

    for text, word, defines in (
        ("Seed trays have two sections: a deep well and a lid, joined by a hinge.", "sections", False),
        ("Seed trays have the following form.", "trays", False),
        ("Seed trays have replaced paper cups.", "trays", False),
        ("Growers start seeds in seed trays: flat boxes that hold soil in cells.", "trays", True),
        ("A seed tray holds the following row of seeds until they sprout.", "tray", True),
    ):
        (parse,) = parse_sentences([visible(text)])
        head = next(w for w in parse.words if w.text == word)
        reading = read(parse, head)
        assert (reading.rank == Rank.DEFINES and not reading.forward) is defines, (text, reading)
        if not defines:
            assert reading.rank != Rank.DEFINES or reading.forward, (text, reading)


def test_a_list_its_lead_calls_benefits_weighs_its_items_up() -> None:
    """R20: "Seed trays became popular because they offer extra benefits, such as:" leads
    into pros; what an item says of a term there defines nothing."""
    item = "- _Crop rotation_ provides a rest for the soil.\n- Crop rotation needs a plan.\n"
    assert "Crop rotation" in concepts("Ways of farming:\n\n" + item)
    lead = "Farms have changed because rotations offer extra benefits, such as:\n\n"
    assert "Crop rotation" not in concepts(lead + item)


def test_a_list_entry_among_the_benefits_defines_nothing() -> None:
    """R20: "- **Crop rotation**: rests the soil …" under "… offer extra benefits, such as:"
    is a pro; under "Ways of farming:" it is the entry that defines crop rotation."""
    item = "- **Crop rotation**: rests the soil every third year.\n- **Fallowing**: leaves a field empty.\n"
    tail = "\nCrop rotation needs a plan. Crop rotation is old.\n"
    assert "Crop rotation" in concepts("Ways of farming:\n\n" + item + tail)
    lead = "Farms have changed because rotations offer extra benefits, such as:\n\n"
    assert "Crop rotation" not in concepts(lead + item + tail)


def test_what_comes_next_what_is_usual_and_where_it_starts_define_nothing() -> None:
    """R20: "…, let's talk about X", a fragment that an example interrupted ("as, …"),
    what a thing *typically* does and where it starts ("Rows start from the gate") are no definitions;
    "Trellises let us train vines" and "A seed drill starts the sowing" say what the term does."""
    from wikigen.engines.offline.parse import parse_sentences
    from wikigen.engines.offline.readings import Rank, read
    from wikigen.engines.offline.text import visible

    for text, word, defines in (
        ("Before we plant, let's talk about how growers choose seed trays.", "trays", False),
        ("Trellises let us train vines along a wall.", "Trellises", True),
        ("as, in dry weeks, seed trays will hold less water than beds.", "trays", False),
        ("Seed trays typically provide shelter for young plants.", "trays", False),
        ("Seed trays provide shelter for young plants.", "trays", True),
        ("Tilth typically refers to the condition of tilled soil.", "Tilth", True),
        ("Furrows start from the gate:", "Furrows", False),
        ("A seed drill starts the sowing of each row.", "drill", True),
    ):
        (parse,) = parse_sentences([visible(text)])
        head = next(w for w in parse.words if w.text == word)
        reading = read(parse, head)
        assert (reading.rank == Rank.DEFINES and not reading.forward) is defines, (text, reading)


def test_a_scenario_is_no_concept() -> None:
    """R20: "A common scenario is …" says where something is used; "scenario" names no
    concept of the text, however often it recurs."""
    body = "A common scenario is seed trays in greenhouses. Another scenario is beds.\n\nScenarios vary.\n"
    assert not {"Scenario", "Scenarios"} & set(concepts(body))


def test_a_definition_list_entry_says_nothing_of_the_other_terms_it_names() -> None:
    """R20: "Sprinklers" / ": Seed trays are watered from above …" is an entry about
    sprinklers, one way to water trays; it does not say what a seed tray is."""
    body = (
        "## Seed trays\n\nSeed trays can be watered in two ways:\n\n"
        "Drip lines\n: Seed trays are watered from below by thin pipes.\n\n"
        "Sprinklers\n: Seed trays are watered from above by spray heads.\n"
    )
    found = concepts(body)
    assert "Drip lines" in found
    assert "Seed trays" not in found and "Seed tray" not in found


def test_a_function_named_with_two_arities_is_an_example_of_the_notation() -> None:
    """R20: "`sow/1` identifies the function named `sow` that takes one argument, whereas
    `sow/2` identifies another one" explains the name/arity notation; it defines neither function."""
    body = (
        "## Naming\n\n`sow/1` identifies the function named `sow` that takes one argument, whereas "
        "`sow/2` identifies another one.\n\nCall `sow/1` with a bed.\n"
    )
    assert "sow/1" not in concepts(body)
    alone = "## Naming\n\n`sow/1` identifies the function named `sow` that takes one argument.\n\nCall `sow/1` with a bed.\n"
    assert "sow/1" in concepts(alone)


def test_a_quoted_phrase_before_a_noun_qualifies_it() -> None:
    """R20: in "seed tins are the "go to" container for dry seeds" the quoted words qualify
    "container" (read as one name, as a code span is); the sentence says what seed tins are."""
    from wikigen.engines.offline.parse import parse_sentences
    from wikigen.engines.offline.readings import Rank, read
    from wikigen.engines.offline.text import visible

    (parse,) = parse_sentences([visible('Whenever you need to keep seeds dry, tins are the "go to" container in a shed.')])
    head = next(w for w in parse.words if w.text == "tins")
    reading = read(parse, head)
    assert reading.rank == Rank.DEFINES and reading.pattern == "copula" and not reading.forward, reading
    # a quoted phrase before a connective qualifies nothing: it stays words of their own
    (parse,) = parse_sentences([visible('We would rather "let it rot" since the soil recovers.')])
    assert "let it rot" not in [w.text for w in parse.words]


def test_a_kind_of_the_term_named_before_it_does_not_define_it() -> None:
    """R20: "Barley mills grind …" says what barley mills do, not what a mill is; "the
    term “sieve” refers to …" names the term itself and defines it."""
    body = "## Mills\n\nBarley mills grind the grain of the northern farms.\n\nMills stand near rivers. Mills are old.\n"
    found = concepts(body)
    assert "Mills" not in found or "Barley" not in definition(found["Mills"])
    named = "## Sieves\n\nThe term “sieve” refers to a frame with a mesh that parts grain from chaff.\n\nSieves hang in the barn.\n"
    assert "refers to a frame" in defined_as(named, "Sieve")


def test_a_name_both_sources_of_two_keep_mentioning_is_a_hub() -> None:
    """R20: in an increment of two sources, a proper name each mentions all through (three
    sentences or more) is the product they are about, defined only by what it is; "Quillfeather
    provides ledgers …" is one thing it does. Named once in the second source, it is no hub."""
    first = (
        "Quillfeather provides ledgers for every farm in the valley.\n\n"
        "Farmers in the valley open Quillfeather each morning.\n\n"
        "The harvest report comes from Quillfeather at noon.\n"
    )
    both = (
        "Traders read the prices in Quillfeather before the market opens.\n\n"
        "A stall keeper writes each sale into Quillfeather.\n\n"
        "At night Quillfeather sends the totals to the farm office.\n"
    )
    once = (
        "Traders read the prices before the market opens.\n\n"
        "A stall keeper writes each sale into Quillfeather.\n\n"
        "At night the totals go to the farm office.\n"
    )

    def names(second: str) -> list[str]:
        delta = analyzed(
            [
                {"id": "knowledge/farming", "title": "Farming", "body": first},
                {"id": "knowledge/selling", "title": "Selling", "body": second},
            ]
        )
        return [c["name"] for c in delta["concepts"]]

    assert "Quillfeather" not in names(both)
    assert "Quillfeather" in names(once)


def test_what_is_said_of_an_abbreviation_is_said_of_the_name_it_shortens() -> None:
    """R20/R26: "The Seed Counting Service (SCS) …" and then "SCS is responsible for counting …": SCS is
    the long name's alias, and the sentence about SCS defines the Seed Counting Service (were SCS a
    candidate of its own, the two would share the letters and neither would be found by them)."""
    body = (
        "The Seed Counting Service (SCS) and the Row Planning Service (RPS) work together to plan the "
        "fields.\n\n"
        "SCS is responsible for counting the seeds of every row, whereas RPS plans the rows.\n"
    )
    found = concepts(body)
    assert definition(found["Seed Counting Service"]).startswith("SCS is responsible for counting")
    assert "SCS" in found["Seed Counting Service"]["aliases"]
    assert "SCS" not in found


def test_what_the_reader_can_do_with_a_named_term_does_not_define_it() -> None:
    """R20: "You can use Seed Planners to add …" under a heading that names them says what
    the reader can do with them, not what they are: no concept; "Seed Planners add …" says what they do."""
    used = "## Seed Planners\n\nYou can use Seed Planners to add new kinds of rows to a field.\n"
    assert "Seed Planners" not in concepts(used)
    does = "## Seed Planners\n\nSeed Planners add new kinds of rows to a field.\n"
    assert "Seed Planners" in concepts(does)


def test_a_plural_heading_term_takes_the_singular_its_emphasis_writes() -> None:
    """R20: under "## Seed drills" the text names "a _seed drill_" once, in
    underscores: the concept is "Seed drill" (the underscores are Markdown, not part of the word)."""
    body = (
        "## Seed drills\n\n"
        "Farmers once sowed by hand. The machine that drops seeds in rows is known as a _seed drill_.\n"
    )
    found = concepts(body)
    assert "Seed drill" in found and "Seed drills" not in found, sorted(found)


def test_a_code_name_the_author_calls_a_tool_is_described_by_what_that_tool_does() -> None:
    """R20: "The `seedctl` command-line tool manages …" says what `seedctl` is (a tool) and
    does: a concept, though it is written in lower case like a field; "the `depth` field" and "a
    `seedctl` tool" (one of several) are not."""
    body = "The `seedctl` command-line tool manages the seeds of every bed in a garden.\n"
    assert defined_as(body, "seedctl").startswith("The `seedctl` command-line tool manages")
    assert "depth" not in concepts("The `depth` field sets how deep each seed goes.\n")
    assert "seedctl" not in concepts("A `seedctl` tool manages the seeds of every bed in a garden.\n")
    # how it does one thing is no description of the tool
    assert "seedctl" not in concepts("The `seedctl` tool uses the `--depth` flag to set how deep seeds go.\n")


def test_a_common_word_is_a_term_where_its_heading_names_it_and_its_section_opens_defining_it() -> None:
    """R20: "extensions" is too common a word to be a term (the stop list), except under
    "## Extensions" whose section opens with "Extensions are …"; in passing, or opening a section that
    a heading names otherwise, it is not."""
    defined = "## Extensions\n\nExtensions are small machines that a gardener bolts onto a seed drill.\n"
    assert defined_as(defined, "Extensions").startswith("Extensions are small machines")
    assert "Extensions" not in concepts("## Seed drills\n\nExtensions are small machines that a gardener bolts onto a seed drill.\n")
    assert "Extensions" not in concepts("Extensions are small machines that a gardener bolts onto a seed drill.\n")


def test_what_a_term_linked_to_its_own_page_does_describes_it_where_the_sentence_opens_with_it() -> None:
    """R20: "The [seed counter](/docs/garden/seed-counter/) reports …" opens with the term
    as a link to the page about it and says what it does: a concept, as a glossary entry would be;
    the same words without the link, or a page the sentence points to ("The [README](…) …"), are not."""
    linked = "The [seed counter](/docs/garden/seed-counter/) reports weed issues for every bed.\n"
    assert defined_as(linked, "Seed counter").startswith("The [seed counter]")
    assert "Seed counter" not in concepts("The seed counter reports weed issues for every bed.\n")
    page = "The [README](https://example.org/seed-drill#readme) for the seed drill lists the parts it needs.\n"
    assert "README" not in concepts(page)


def test_the_product_named_before_the_term_a_section_is_about_names_nothing() -> None:
    """R20: where "Acme" is the product most sources name (a hub), "Acme rakes are …"
    opening the section "## Rakes" says what rakes are; the same sentence under another heading
    keeps "Acme rakes" a name of its own."""

    def names(heading: str) -> dict[str, str]:
        sources = [
            {"id": "knowledge/sheds", "title": "Sheds", "body": "Acme is a company that makes garden tools. Acme sheds keep tools dry.\n"},
            {"id": "knowledge/hoes", "title": "Hoes", "body": "Acme makes hoes. An Acme hoe cuts weeds.\n"},
            {
                "id": "knowledge/rakes",
                "title": "Tools",
                "body": f"## {heading}\n\nAcme rakes are long-handled tools that gather leaves into heaps.\n\n"
                "Acme tests every rake before it ships.\n",
            },
        ]
        delta = analyzed(sources)
        return {c["name"]: c["definition"]["quotes"][0]["quote"] for c in delta["concepts"]}

    assert names("Rakes").get("Rake", "").startswith("Acme rakes are long-handled tools")
    assert not {"Rake", "Rakes"} & set(names("Garden work"))


def test_a_noun_the_texts_never_count_is_no_alias_of_the_product_s_term() -> None:
    """R20/R26: "Gizmo architecture" is Gizmo's design; the texts never write "architectures", so the
    noun alone ("a pluggable architecture for …") is any design, not Gizmo's: no alias. "Gizmo
    cluster", where the texts write "Gizmo clusters", has "cluster"."""
    sources = [
        {"id": "knowledge/a", "title": "Design", "body": (
            "_Gizmo architecture_ is the layout of the parts that make up the Gizmo system.\n\n"
            "_Gizmo cluster_ is a set of machines that run the Gizmo system.\n\n"
            "Gizmo clusters grow as you add machines.\n")},
        {"id": "knowledge/b", "title": "Servers", "body": "Gizmo serves its clients.\n\nA widget is stored by Gizmo.\n"},
        {"id": "knowledge/c", "title": "Setup", "body": "Gizmo is a portable tool for keeping records.\n\nInstall Gizmo first.\n"},
    ]
    found = {c["name"]: c for c in analyzed(sources)["concepts"]}
    assert "architecture" not in [a.casefold() for a in found["Gizmo architecture"].get("aliases", [])]
    assert "cluster" in [a.casefold() for a in found["Gizmo cluster"].get("aliases", [])]


def test_an_initialism_or_a_word_also_written_in_lower_case_leaves_no_alias() -> None:
    """R20/R26: "GZI widgets" are the widgets a standard gives, some widgets among others, and "the
    relay cycle" writes "relay" as a plain word: neither the hub's initialism nor its lower-case word
    makes the noun alone an alias, while "Gizmo widgets" still gives "widgets"."""

    def aliases(term: str, hub: str, lower: str) -> list[str]:
        sources = [
            {"id": "knowledge/a", "title": "Widgets", "body": (
                f"_{term}_ are persistent entities that {hub} keeps for its users.\n\n"
                f"{hub} uses {term.split()[1]} to record what you asked for. {lower}\n")},
            {"id": "knowledge/b", "title": "Servers", "body": f"{hub} serves its clients.\n\nA record is stored by {hub}.\n"},
            {"id": "knowledge/c", "title": "Setup", "body": f"{hub} is a portable tool for keeping records.\n\nInstall {hub} first.\n"},
        ]
        found = {c["name"].casefold().rstrip("s"): c for c in analyzed(sources)["concepts"]}
        return [a.casefold() for a in found[term.casefold().rstrip("s")].get("aliases", [])]

    assert "widgets" in aliases("Gizmo widgets", "Gizmo", "")
    assert "widgets" not in aliases("GZI widgets", "GZI", "")
    assert "cycles" not in aliases("Relay cycles", "Relay", "Each relay cycle ends at noon.")
    assert "cycles" in aliases("Relay cycles", "Relay", "")


def test_a_common_noun_is_the_alias_of_the_product_s_term_the_author_marks() -> None:
    """R20/R26: "objects" is on the stop list — no concept, and no alias of "Gizmo objects" written
    plainly; where the author marks "_Gizmo objects_" as the term, the texts' "objects" are Gizmo's:
    the noun alone is the term's alias, and "Widgets are objects …" links the two."""

    def analyzed_with(term: str) -> tuple[dict[str, list[str]], set[tuple[str, str]]]:
        sources = [
            {"id": "knowledge/a", "title": "Records", "body": (
                f"{term} are records that the Gizmo system keeps for its users.\n\n"
                "A _widget_ is a small part that a machine is built from.\n\n"
                "Widgets are objects that Gizmo stores for a year.\n")},
            {"id": "knowledge/b", "title": "Servers", "body": "Gizmo serves its clients.\n\nA widget is stored by Gizmo.\n"},
            {"id": "knowledge/c", "title": "Setup", "body": "Gizmo is a portable tool for keeping records.\n\nInstall Gizmo first.\n"},
        ]
        delta = analyzed(sources)
        found = {c["name"]: [a.casefold() for a in c.get("aliases", [])] for c in delta["concepts"]}
        return found, {(r["subject"], r["object"]) for r in delta["relations"]}

    found, related = analyzed_with("_Gizmo objects_")
    assert "objects" in found["Gizmo objects"] and ("Widget", "Gizmo objects") in related
    found, related = analyzed_with("Gizmo objects")
    assert not any("objects" in aliases for aliases in found.values()) and not related


def test_a_thing_named_in_an_example_is_no_concept() -> None:
    """R20: "A custom crop named SeedMax, that you can plant …" sets up an example's
    instance; "A garden agent called SeedMax …" names a thing of its own."""
    assert "SeedMax" not in concepts("A custom crop named SeedMax, that you can plant in any bed.\n")
    assert "SeedMax" in concepts("A garden agent called SeedMax connects to every bed at night.\n")


def test_a_subkind_named_by_a_hyphened_word_before_the_term_does_not_describe_it() -> None:
    """R20: "Garden-specific seed drills help …" says what one subkind does, not what seed
    drills do; a later "Seed drills help …" does."""
    subkind = "## Seed drills\n\nGarden-specific seed drills help farmers sow rows faster.\n"
    assert "Seed drills" not in concepts(subkind)
    both = subkind + "\nSeed drills help farmers keep every row straight.\n"
    assert defined_as(both, "Seed drills").startswith("Seed drills help farmers keep")


@pytest.mark.parametrize(
    "sentence",
    [
        "Balers are used when the hay is dry enough to store.",  # when it is used
        "Balers can also be used within a barn without a tractor.",  # where
        "A baler can be used with twine or with wire.",  # with what
        "Balers can be used to press hay into tight blocks.",  # one thing it can do
    ],
)
def test_when_or_with_what_a_term_is_used_makes_no_concept(sentence: str) -> None:
    """R20: the circumstance of a term's use, or what it can be used to do, says nothing of what
    it is or is for; "Balers are used to press hay into tight blocks" says what they are for."""
    body = "## Balers\n\n{0}\n\nThe farm keeps two balers in the shed.\n"
    names = {"Baler", "Balers"}
    assert not names & set(concepts(body.format(sentence), title="Tools"))
    assert names & set(concepts(body.format("Balers are used to press hay into tight blocks."), title="Tools"))


@pytest.mark.parametrize(
    "sentence",
    [
        "Seed drills run alongside a *hay rake* in the same field.",  # where a verb's event happens
        "Your barn, built with a **hay rake**, won't need a second shed.",  # with what
        "Growers mow the field with a *hay rake* before noon.",
        "A seed drill looks the same as a *hay rake* from the road.",  # as what
        'Seed drills and "hay rakes" may also carry a spare wheel.',  # shares the first conjunct's verb
        "Seed drills (or *hay rakes*) are parked when the harvest ends.",  # an alternative name
    ],
)
def test_an_emphasized_term_the_sentence_only_passes_through_is_not_introduced(sentence: str) -> None:
    """R20: an emphasized term where a verb's event happens, with what or as what, or as a second
    conjunct, is passed through on the way to something else; the sentence says nothing of what it
    is. A noun's object ("the need for _hay rakes_, which …") or a clause of its own still does."""
    body = "## Field work\n\n{0}\n\nEvery hay rake is oiled in spring. The hay rakes wait in the barn.\n"
    names = {"Hay rake", "Hay rakes"}
    assert not names & set(concepts(body.format(sentence)))
    introduced = "Farms often have a need for _hay rakes_, which turn the cut grass to dry."
    assert names & set(concepts(body.format(introduced)))
