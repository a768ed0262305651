"""R20/R23: definition shapes, relation shapes and the hub rule, read from the parse of sentences
written for these tests (not copied from any corpus)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from wikigen.engines.offline.candidates import is_code_term
from wikigen.engines.offline.parse import Parse, Word, parse_sentences
from wikigen.engines.offline.predicates import third_person
from wikigen.engines.offline.readings import Rank, Reading, read
from wikigen.engines.offline.relations import Mentions
from wikigen.engines.offline.statements import stated
from wikigen.engines.offline.subjects import noun_phrase
from wikigen.engines.offline.text import visible


def parsed(text: str) -> Parse:
    return parse_sentences([visible(text)])[0]


def reading_of(text: str, term: str):  # type: ignore[no-untyped-def]
    clean = visible(text)
    parse = parse_sentences([clean])[0]
    start = clean.text.index(term)
    head = parse.span_head(start, start + len(term))
    assert head is not None
    marked = any(m.kind in ("bold", "italic") and m.start <= start < m.end for m in clean.marks)
    return read(parse, head, marked=marked)


def relations_of(
    text: str, *names: str, hubs: frozenset[str] = frozenset(), products: frozenset[str] = frozenset()
) -> set[tuple[str, str, str]]:
    clean = visible(text)
    mentions = Mentions.build([(name, [name]) for name in names], known=True).find(clean.text)
    parse = parse_sentences([clean])[0]
    return {(s.subject, s.predicate, s.object) for s in stated(parse, mentions, hubs, products=products)}


# ---------------------------------------------------------------------------------------------
# Definition shapes


@pytest.mark.parametrize(
    ("sentence", "term", "pattern"),
    [
        ("A gizmo is a small device that counts the sprockets of a machine.", "gizmo", "copula"),
        ("Gizmos are small devices that count sprockets.", "Gizmos", "copula"),
        ("A _ledger_ defines the entries a particular account holds.", "ledger", "function"),
        ("_Bundles_ let us group related files for easy transport.", "Bundles", "function"),
        ("A fence is used to keep the flock inside the meadow.", "fence", "function"),
        ("Seed syntax is used as a shortcut for sowing rows.", "Seed syntax", "function"),
        ("The spinning wheel, a tool for making yarn, sits by the window.", "spinning wheel", "appositive"),
        ("This arrangement is called the _orchard layout_.", "orchard layout", "called"),
        ("The grower's notebook, known as the Almanac, records each harvest.", "Almanac", "called"),
        ("We say these two crops form a _rotation pair_.", "rotation pair", "emphasis"),
        ("The `Sprocket` module provides helpers to count the teeth of a gear.", "Sprocket", "function"),
        ("The `Tally` protocol is the protocol used to count anything in a barn.", "Tally", "copula"),
        ("The farm provides hedgerows as a shelter for small birds.", "hedgerows", "copula"),
        ("Another handy tool is the `Tally` module, which keeps the sheep in a barn.", "Tally", "function"),
        ("Trellises are wooden frames, they hold the vines up.", "Trellises", "copula"),  # comma splice
        ("The farm provides the concept of fallow years to rest the soil.", "fallow years", "called"),
        ("Ledgers and tallies are books of accounts.", "tallies", "copula"),  # said of each conjunct
    ],
)
def test_definition_shapes(sentence: str, term: str, pattern: str) -> None:
    """R20: copular, functional, appositive, naming and emphasized first-use definitions."""
    reading = reading_of(sentence, term)
    assert (reading.pattern, reading.rank) == (pattern, Rank.DEFINES)


def test_anaphoric_naming_needs_the_sentence_before() -> None:
    """R20: "This set is called …" (or "Those sets, which we call …", "This set, also known as
    …") is quoted together with the sentence it refers back to."""
    assert reading_of("This set is called the _prelude_.", "prelude").anaphoric
    assert not reading_of("The first set of tools is called the _prelude_.", "prelude").anaphoric
    # "The first approach" is one of those the sentence before lists
    assert reading_of("The first approach is referred to as _row sowing_.", "row sowing").anaphoric
    assert reading_of("The remote shed is called a *gizmo depot*.", "gizmo depot").anaphoric  # the one told of
    # a naming clause on a noun that points back names what the text before described
    assert reading_of('Those sheds, which we call here "dry stores", keep the grain.', "dry stores").anaphoric
    assert reading_of("This shed, also known as the tool shed, holds the ploughs.", "tool shed").anaphoric
    assert not reading_of("The farm has a shed, known as the tool shed, for the ploughs.", "tool shed").anaphoric


@pytest.mark.parametrize(
    ("sentence", "term", "rank"),
    [
        ("Gizmos are prevalent in every workshop.", "Gizmos", Rank.MENTIONS),  # an adjective: a property
        ("Gizmos are the successors to the old sprocket counters.", "Gizmos", Rank.DESCRIBES),  # to another
        ("A gizmo is the counterpart of a sprocket in the workshop.", "gizmo", Rank.DESCRIBES),
        ("A gizmo is not a sprocket.", "gizmo", Rank.MENTIONS),  # negated: defines nothing
        ("Is a gizmo a kind of sprocket?", "gizmo", Rank.MENTIONS),  # a question
        ("You can read more about the gizmo in the appendix.", "gizmo", Rank.MENTIONS),
        ("Any gizmo that counts sprockets can provide useful numbers.", "gizmo", Rank.DESCRIBES),  # may do
        ("Each gizmo in a workshop performs a count every hour.", "gizmo", Rank.DESCRIBES),  # some of them
        ("Sixty gizmos is the limit of one workshop.", "gizmos", Rank.DESCRIBES),  # a quantity
        ("Therefore, the harvests that you plan should be _idempotent_.", "idempotent", Rank.MENTIONS),  # hedged
        ("We can use the seed drill to demonstrate this.", "seed drill", Rank.MENTIONS),  # shows the example
        ("Some gizmos run on batteries in the shed.", "gizmos", Rank.MENTIONS),  # some of the kind only
        ("Gizmos that are removed in this way will be replaced at once.", "Gizmos", Rank.MENTIONS),  # some
        ("As a result, all gizmo names must be short words.", "gizmo names", Rank.MENTIONS),  # follows from
        (
            "Take the previous frontend Barn example, and the Pods specified in the following list:",
            "Pods",
            Rank.MENTIONS,
        ),
        ("The seed bags are then used when sowing the field.", "seed bags", Rank.DESCRIBES),  # those bags
        ("Together, a plough and a harrow are referred to as the tillage set.", "plough", Rank.MENTIONS),
        ("A plough and a harrow are a pair of tools.", "harrow", Rank.MENTIONS),  # a whole, not each
        ("Outside of farming, harrows refer to a kind of rake.", "harrows", Rank.DESCRIBES),  # another sense
        ("In farming, harrows refer to a kind of rake.", "harrows", Rank.DEFINES),
        ("The `Barn` is used to store the hay.", "Barn", Rank.DESCRIBES),  # the example's one barn
        ("Ploughs are a fundamental tool on farms.", "Ploughs", Rank.DESCRIBES),  # how much it matters
        ("A plough is a key tool to break up the soil.", "plough", Rank.DEFINES),  # and what it is for
        ("Tags are key/value pairs.", "Tags", Rank.DEFINES),  # "key" of "key/value" weighs nothing
        ("A `Barn` is used to store the hay.", "Barn", Rank.DEFINES),
        ("Ledgers and tallies work together to count grain.", "tallies", Rank.MENTIONS),  # what both do
        ("Labels are printed for seed bags that are part of the winter stock.", "seed bags", Rank.MENTIONS),
        ("Name the barrel anything, and set a label to reference your shed.", "barrel", Rank.MENTIONS),  # named
        ("In the example above, we defined a barn named `Barn7`.", "Barn7", Rank.MENTIONS),  # an instance
        ("Sprockets wear out because the gizmo is noisy.", "gizmo", Rank.MENTIONS),  # subordinate clause
        ("You also get some basic gizmo features with the bench.", "gizmo", Rank.MODIFIES),  # a modifier
        ("The `sow` command is often used as a first step.", "command", Rank.MENTIONS),  # one command, named
        ("A _Planter_ ensures that all (or some) Beds hold a row of a Crop.", "Beds", Rank.MENTIONS),  # a second root
        ("The `nick` directive allows referring to `Barn.Bins` just as `Crate` within the farm:", "Crate", Rank.MENTIONS),  # naming in use
        ("Here we have used a seed drill to sow the long row.", "seed drill", Rank.MENTIONS),  # what an example did
        ("Above, we used the seed drill to sow two rows.", "seed drill", Rank.MENTIONS),  # past: the example
        ("You can use a seed drill to sow the rows of one field.", "seed drill", Rank.MENTIONS),  # one use
        ("In short, seed bags are used when the field is wet.", "seed bags", Rank.DESCRIBES),  # when, not what for
        ("A query for `oats` returns no rows, because it reads the old barn.", "query", Rank.DESCRIBES),  # one query
        ("The only allowed value is `Weekly`, which is the default.", "Weekly", Rank.MENTIONS),  # a value
        ("Seeds are sown _inline_ in the row, which saves a second pass.", "inline", Rank.MENTIONS),  # a manner
        ("Consider adding a _seed bank_ to the farm if you want to keep rare seeds.", "seed bank", Rank.MENTIONS),  # advice
        ("If you need to store grain for years, *silos* should be used.", "silos", Rank.MENTIONS),  # advice, passive
        ("The sowing mode of a field can either be `Early` or `Late`.", "sowing mode", Rank.MENTIONS),  # its values
        ("In winter, you can only keep 1 seed bank, which is the bank of the village.", "seed bank", Rank.MENTIONS),  # a limit
        ("For winter storage, seed bags are used with sealed crates.", "seed bags", Rank.DESCRIBES),  # a fronted frame
        ("The grain mill consists of two parts: the millstone and the hopper.", "grain mill", Rank.MENTIONS),  # its parts
        ("We planted two orchards, which are the fields that feed the village.", "orchards", Rank.MENTIONS),  # those two
        ("A sowing mode can be a plan for the whole season.", "sowing mode", Rank.DESCRIBES),  # what it may be
        ("We now see a note saying the old barn, which is the north barn, has burned.", "old barn", Rank.MENTIONS),
        ("For those, `rake` is a useful alternative:", "rake", Rank.MENTIONS),  # a verdict, how it compares
        ("Bundles are the most common answer to this question.", "Bundles", Rank.MENTIONS),  # a ranking
        ("In the line above, `n <- [1, 2]` is the **sower**.", "sower", Rank.MENTIONS),  # points at an example
        ("Both harrows break the clods of a field.", "harrows", Rank.MENTIONS),  # the two just named
        ("Threshers always run to completion.", "Threshers", Rank.DESCRIBES),  # where it runs
        ("Delivery is at least once, which means a bell may be called multiple times a day.", "times", Rank.MENTIONS),  # how often
        (  # the parser gives "matches" two subjects: a misparse defines nothing
            "An empty `tag` with operator `Any` matches all tags, names and marks which means this will keep everything.",
            "Any",
            Rank.DESCRIBES,
        ),
    ],
)
def test_what_is_not_a_definition(sentence: str, term: str, rank: int) -> None:
    """R20, precision first: negations, questions and passing mentions do not define."""
    assert reading_of(sentence, term).rank == rank


def test_forward_reference_is_flagged() -> None:
    """R20: "… which Chapter 18 covers" points elsewhere and ranks below a plain definition."""
    assert reading_of("A trellis is a frame, and Chapter 18 shows how to build one.", "trellis").forward
    assert not reading_of("A trellis is a frame that supports climbing plants.", "trellis").forward
    assert reading_of("We will also learn about trellises, which are frames for vines.", "trellises").forward
    assert reading_of("Trellises are described in more detail in [Frames](/frames/).", "Trellises").forward
    assert reading_of("Please refer to the [Trellis Guide](/t/) for the details.", "Trellis Guide").forward
    assert reading_of("Here are the trellises that the garden uses:", "trellises").forward  # a list follows


def test_names_are_noun_phrases_without_determiners() -> None:
    """R20: the name of a defined term is its noun phrase: compounds and adjectives, no articles."""
    parse = parsed("The two main associative storage bins hold the seeds.")
    head = next(w for w in parse.words if w.text == "bins")
    start, end = noun_phrase(parse, head)
    assert parse.text[start:end] == "associative storage bins"
    parse = parsed("The `Counter` module provides counting functions.")
    head = next(w for w in parse.words if w.text == "module")
    start, end = noun_phrase(parse, head)
    assert parse.text[start:end] == "Counter"  # a code name names itself


def test_a_code_span_is_a_term_only_where_it_names_a_thing() -> None:
    """R20: code spans that name things, not expressions or lower-case field paths."""
    for good in ("case", "@moduledoc", "Rc<T>", "String.Chars", "IO.inspect/2", "kube-proxy", "~r"):
        assert is_code_term(good), good
    for bad in ("x = 1", "spec.replicas", "foo(bar)", "a, b", "123", "DATABASE_HOST", "pod-a", "mydb"):
        assert not is_code_term(bad), bad


# ---------------------------------------------------------------------------------------------
# Relation shapes


def test_subject_verb_object() -> None:
    """R23: the subject and the direct object of a verb, with the verb as the predicate."""
    assert relations_of("The miller grinds the grain every morning.", "miller", "grain") == {
        ("miller", "grinds", "grain")
    }


def test_prepositional_object_and_particle() -> None:
    """R23: a prepositional object keeps its preposition in the predicate."""
    assert ("barn", "depends on", "windmill") in relations_of(
        "The barn depends on the windmill for power.", "barn", "windmill"
    )


def test_passive_with_agent_is_turned_around() -> None:
    """R23: "Y is managed by X" states that X manages Y."""
    assert relations_of("The orchard is managed by the cooperative.", "orchard", "cooperative") == {
        ("cooperative", "manages", "orchard")
    }


def test_copula_with_a_class_and_a_relational_noun() -> None:
    """R23: "X is a Y" and "X is the counterpart of Y"."""
    assert relations_of("Every sickle is a blade.", "sickle", "blade") == {("sickle", "is a", "blade")}
    assert ("scythe", "is counterpart of", "sickle") in relations_of(
        "The scythe is the two-handed counterpart of the sickle.", "scythe", "sickle"
    )
    assert ("crate", "is built on top of", "pallet") in relations_of(
        "Crates are boxes built on top of pallets that add walls.", "crate", "pallet"
    )


def test_a_relational_noun_keeps_the_words_it_is_built_from_and_no_aside() -> None:
    """R23: "is a plug-in for Y" is not "is in for Y", "the building block of Y" not "the block of Y";
    a phrase in brackets after the noun is an aside ("(through Y or …)"), not what the noun relates."""
    assert relations_of("The `sorter` is a plug-in for the mill.", "sorter", "mill") == {
        ("sorter", "is plug-in for", "mill")
    }
    assert relations_of(
        "The mill has been the main building block of the farm (through the cooperative or directly).",
        "mill",
        "farm",
        "cooperative",
    ) == {("mill", "is building block of", "farm")}


@pytest.mark.parametrize(
    ("sentence", "names", "expected"),
    [
        # a duty
        ("The shepherd is responsible for the care of the flock.", ("shepherd", "flock"),
         {("shepherd", "is responsible for care of", "flock")}),
        ("The dairy is only responsible for milking cows.", ("dairy", "cows"),
         {("dairy", "is responsible for milking", "cows")}),
        ("The barn is responsible for the hay.", ("barn", "hay"), {("barn", "is responsible for", "hay")}),
        # a use
        ("Sheepdogs are used for herding sheep into the pen.", ("Sheepdogs", "sheep"),
         {("Sheepdogs", "is used for herding", "sheep")}),
        # a process
        ("Shearing is the process of cutting the fleece from sheep.", ("Shearing", "fleece"),
         {("Shearing", "is process of cutting", "fleece")}),
        # what a thing decides for another ("when" there is no circumstance of the statement)
        ("Rain gauges determine when to open a sluice.", ("Rain gauges", "sluice"),
         {("Rain gauges", "determines when to open", "sluice")}),
        ("The miller decides where to store the grain.", ("miller", "grain"),
         {("miller", "decides where to store", "grain")}),
        # hedged, they state nothing
        ("The shepherd might be responsible for the flock.", ("shepherd", "flock"), set()),
        ("The miller might decide where to store the grain.", ("miller", "grain"), set()),
    ],
)
def test_a_duty_a_use_a_process_or_a_decision_relates(
    sentence: str, names: tuple[str, ...], expected: set[tuple[str, str, str]]
) -> None:
    """R23: "X is responsible for the care of Y", "… for milking Y", "X is used for herding Y", "X is
    the process of shearing Y" and "X determines when to V Y" relate X to Y."""
    assert relations_of(sentence, *names) == expected


def test_examples_of_a_class_are_not_what_it_relates_to() -> None:
    """R23: "a garden tool (like `Rake`, `Hoe`)" gives examples of tools: the spade is no "tool like"
    the rake; what the clause after says still relates."""
    found = relations_of(
        "A spade is a garden tool (like `Rake`, `Hoe`, etc) which is stored in the shed.", "spade", "Rake", "shed"
    )
    assert found == {("spade", "is stored in", "shed")}


def test_some_of_a_kind_a_name_given_and_a_recipient_state_nothing() -> None:
    """R23: "Some Acme sheds …" (the parser hangs "Some" on "Acme") speaks of some sheds; "(also
    known as ear marks)" gives a name, not a relation; "uses gates to give the shepherd … the chance"
    makes the shepherd the one who receives, not what gates give."""
    assert relations_of("Some Acme sheds, such as lofts, also use hay bales.", "Acme shed", "hay bale") == set()
    assert relations_of("Acme tags are short unique codes (also known as ear marks).", "Acme tag", "ear mark") == set()
    found = relations_of(
        "The farm uses gates to give the shepherd, and other workers, the chance to count sheep.", "farm", "gate", "shepherd"
    )
    assert found == {("farm", "uses", "gate")}
    # where what is used is no concept, the recipient is still no object of "uses gates to give"
    unnamed = "The farm uses gates to give the shepherd, and other workers, the chance to count sheep."
    assert relations_of(unnamed, "farm", "shepherd") == set()


def test_a_definition_list_entry_glossed_by_a_participle() -> None:
    """R23: "Harrow : Pulled by the tractor across the field." is an entry whose term is what the
    participle says: the tractor pulls the harrow."""
    assert relations_of("Harrow : Pulled by the tractor across the field.", "Harrow", "tractor") == {
        ("tractor", "pulls", "Harrow")
    }
    assert relations_of("SeedTray : Used with compost to start seedlings.", "SeedTray", "compost") == {
        ("SeedTray", "is used with", "compost")
    }


def test_a_definition_list_entry_glossed_by_its_kind() -> None:
    """R23: "`north-barn` : The barn for …" and "`east-barn` : This barn holds …" make the term one
    of the kind the gloss names; "`west-barn` : The barn door …" speaks of a door."""
    assert relations_of("`north-barn` : The barn for crates stored over the winter.", "north-barn", "barn") == {
        ("north-barn", "is a", "barn")
    }
    assert relations_of("`east-barn` : This barn holds the seed crates of the farm.", "east-barn", "barn", "seed crate") == {
        ("east-barn", "is a", "barn"),
        ("east-barn", "holds", "seed crate"),
    }
    assert relations_of("`west-barn` : The barn door opens to the east.", "west-barn", "barn") == set()


def test_a_noun_tagged_as_an_adjective_still_narrows_a_name() -> None:
    """R23: "The snapshot controller watches the barns" (the parser tags "snapshot" an adjective)
    speaks of one controller; "multiple controllers" are any number of them."""
    assert relations_of("The snapshot controller watches the barns.", "controller", "barn") == set()
    assert relations_of("The mill runs multiple controllers in one process.", "mill", "controller") == {
        ("mill", "runs", "controller")
    }


def test_members_listed_under_a_class() -> None:
    """R23: "two containers: barrels and crates" makes each member a kind of the class."""
    found = relations_of(
        "The farm has two main containers: barrels and crates.", "container", "barrel", "crate"
    )
    assert {("barrel", "is a", "container"), ("crate", "is a", "container")} <= found


def test_examples_in_brackets_under_another_claim_are_no_members() -> None:
    """R23: "… only for stored containers (e.g. barrels, crates, etc.)" gives examples under a claim
    about something else; "two containers (barrels and crates)" lists the members."""
    names = ("container", "barrel", "crate")
    examples = "Dry storage is needed only for stored containers (e.g. barrels, crates, etc.) and not for carts."
    assert relations_of(examples, *names) == set()
    listed = relations_of("The farm has two containers (barrels and crates) for the grain.", *names)
    assert ("barrel", "is a", "container") in listed


def test_coordinated_objects() -> None:
    """R23: objects joined by "and" are each related."""
    found = relations_of("The cart carries apples and pears to the market.", "cart", "apple", "pear")
    assert {("cart", "carries", "apple"), ("cart", "carries", "pear")} <= found


def test_coordinated_verbs_share_their_subject() -> None:
    """R23: "… are X, and therefore are Y": the second verb speaks of the first one's subject."""
    found = relations_of(
        "Seed bags are sacks of grain, and therefore are parcels.", "Seed bag", "sack", "parcel"
    )
    assert ("Seed bag", "is a", "parcel") in found
    found = relations_of("The miller might grind the grain and feed the hens.", "miller", "grain", "hen")
    assert found == set()  # the first verb is hedged: so is the one coordinated with it


@pytest.mark.parametrize(
    "sentence",
    [
        "The miller does not grind the grain.",  # negated
        "The miller might grind the grain.",  # hypothetical
        "If the miller grinds the grain, the baker is happy.",  # conditional
        "Does the miller grind the grain?",  # a question
        "The miller grinds the grain when:",  # conditions the list after it states
        "A miller is given a grain of `Burstable` if:",
        "Not every miller is a grain.",  # negated subject
        "Sometimes you may want to have millers working in large barns.",  # hedge over a complement
        "The available grain mills are described in [Millers](/docs/millers/).",  # where the docs say it
    ],
)
def test_negated_hypothetical_and_questions_state_nothing(sentence: str) -> None:
    """R23: negated, hypothetical and question sentences are skipped."""
    assert not {r for r in relations_of(sentence, "miller", "grain") if r[1] in ("grinds", "is a", "is given")}


def test_a_consequence_a_concept_object_s_action_and_a_gloss_state_nothing() -> None:
    """R23: a consequence of an "If …" ("then the miller will fail to grind the grain"), what a concept
    object does ("requires millers … to grind grain": the millers grind it, nothing requires to grind
    it) state nothing of the verb, and a gloss after a colon ("stone millers: millers that …") lists
    no members of the class it names: it gives the class of the name before the colon."""
    assert relations_of(
        "If the grain does not arrive, is not dry or not clean, then the miller will fail to grind the grain.",
        "miller",
        "grain",
    ) == set()
    assert relations_of("The mill requires millers in the valley to grind grain.", "mill", "millers", "grain") == {
        ("mill", "requires", "millers")
    }
    assert relations_of(
        "This page is about stone millers: millers that grind with stones during the harvest.",
        "stone millers",
        "millers",
    ) == {("stone millers", "is a", "millers")}
    assert relations_of("The mill has two parts: millstones and hoppers.", "parts", "millstones", "hoppers") == {
        ("millstones", "is a", "parts"),
        ("hoppers", "is a", "parts"),
    }


def test_a_name_given_with_referred_to_as_is_no_relation() -> None:
    """R23: "… are referred to as a 'grain store'" names, as "are called" does (neither part is the
    named whole; "Together, …" makes the whole consist of them); "refers to" relates."""
    assert relations_of(
        'Together, a miller and a baker are referred to as a "grain team".', "miller", "baker", "grain team"
    ) == {("grain team", "consists of", "miller"), ("grain team", "consists of", "baker")}
    assert relations_of("Unlike what the farm refers to as a silo, a barn holds hay.", "farm", "silo") == set()
    assert relations_of("A ledger refers to a barn by its number.", "ledger", "barn") == {("ledger", "refers to", "barn")}


def test_two_names_without_a_predicate_are_no_relation() -> None:
    """R23: same sentence is not a semantic relation."""
    assert relations_of("The miller, the grain and the weather.", "miller", "grain") == set()


def test_hub_is_an_endpoint_only_as_the_subject() -> None:
    """R23: a hub (the language) is not the object of "a test in Tavola"; it may be the subject."""
    hubs = frozenset({"Tavola"})
    assert relations_of("A test in Tavola is a function.", "Tavola", "test", "function", hubs=hubs) == {
        ("test", "is a", "function")
    }
    assert ("Tavola", "checks", "function") in relations_of(
        "Tavola checks each function.", "Tavola", "function", hubs=hubs
    )
    assert relations_of("Every function is written in Tavola.", "Tavola", "function", hubs=hubs) == set()


def test_a_product_is_the_subject_only_of_what_it_offers() -> None:
    """R20: of a product or a language (a name most sources mention, always written one way) a
    sentence states what it offers its users, not one thing it does in one case; a name that is no
    product is the subject of either."""
    products = frozenset({"Tavola"})
    assert ("Tavola", "supports", "function") in relations_of(
        "Tavola supports each function.", "Tavola", "function", products=products
    )
    assert ("Tavola", "relies on", "function") in relations_of(
        "Tavola relies on a function.", "Tavola", "function", products=products
    )
    assert relations_of("Tavola restarts each function.", "Tavola", "function", products=products) == set()
    assert relations_of("Each function is restarted by Tavola.", "Tavola", "function", products=products) == set()
    assert ("Tavola", "restarts", "function") in relations_of("Tavola restarts each function.", "Tavola", "function")


def test_predicates_read_in_the_third_person() -> None:
    """R23."""
    assert [third_person(v) for v in ("use", "watch", "carry", "be", "go", "stay")] == [
        "uses",
        "watches",
        "carries",
        "is",
        "goes",
        "stays",
    ]


def test_stated_is_sorted_and_free_of_self_loops() -> None:
    """R23."""
    clean = visible("The miller grinds the miller's grain.")
    mentions = Mentions.build([("miller", ["miller"])], known=True).find(clean.text)
    assert stated(parse_sentences([clean])[0], mentions) == []


def test_what_a_noun_introduces_stands_for_it() -> None:
    """R23: "the barn's keeper (Hilda)", "the `Gate` module"."""
    assert ("Hilda", "feeds", "goat") in relations_of(
        "The barn's keeper (Hilda) feeds every goat at dawn.", "Hilda", "goat"
    )
    assert ("Gate", "works with", "fence") in relations_of(
        "The `Gate` module works with fences.", "Gate", "module", "fence"
    )


def test_a_relative_clause_speaks_of_its_noun() -> None:
    """R23: "the kubelet, which runs on every node" and "X is a Y that manages Z"."""
    found = relations_of(
        "The harvester, which runs on every field, fills the silo.", "harvester", "field", "silo"
    )
    assert {("harvester", "runs on", "field"), ("harvester", "fills", "silo")} <= found
    assert ("plough", "turns", "soil") in relations_of(
        "A plough is a tool that turns the soil.", "plough", "soil"
    )


def test_a_code_name_before_a_common_noun_is_the_thing() -> None:
    """R23: "the `quarry` service" is one service, not the Service concept; with no concept of its
    own it is no endpoint at all."""
    clean = visible("The `quarry` service listens on every port.")
    mentions = Mentions.build([("service", ["service"]), ("port", ["port"])], known=True).find(clean.text)
    assert stated(parse_sentences([clean])[0], mentions) == []


def test_instance_names_of_examples_are_not_concepts() -> None:
    """R20: `pod-a`, `web-0`, `mydb` name one instance in an example; `kube-proxy` names a kind."""
    for instance in ("pod-a", "web-0", "mydb", "my-service"):
        assert not is_code_term(instance), instance
    assert is_code_term("kube-proxy")


def test_a_relational_word_keeps_its_preposition() -> None:
    """R23: "is the same as" is not "is as"; only a participle ("built on") stands for the noun."""
    assert ("rake", "is same as", "hoe") in relations_of(
        "Rakes are the same as hoes with longer teeth.", "rake", "hoe"
    )


def hand_parse(rows: list[tuple[str, str, str, str, int, str]]) -> Parse:
    """A parse as spaCy gave it for a sentence of the same shape: (text, pos, tag, dep, head, lemma)."""
    words, at = [], 0
    for i, (text, pos, tag, dep, head, lemma) in enumerate(rows):
        words.append(Word(i, text, at, at + len(text), pos, tag, dep, head, lemma, False))
        at += len(text) + 1
    return Parse(" ".join(r[0] for r in rows), tuple(words))


def hand_relations(parse: Parse, *names: str, kinds: frozenset[str] = frozenset()) -> set[tuple[str, str, str]]:
    mentions = Mentions.build([(name, [name]) for name in names], known=True).find(parse.text)
    return {(s.subject, s.predicate, s.object) for s in stated(parse, mentions, kinds=kinds)}


def reshaped(text: str, changes: dict[str, tuple[str, str | None]]) -> Parse:
    """The parse of ``text`` with words re-hung — word → (dep, its new head's word, or None for a
    root) — in the shape the parser gives other sentences of this form (which sentences it misparses
    is not stable across words)."""
    parse = parsed(text)
    index = {w.text: w.i for w in parse.words}
    words = tuple(
        replace(w, dep=changes[w.text][0], head=w.i if changes[w.text][1] is None else index[changes[w.text][1]])
        if w.text in changes
        else w
        for w in parse.words
    )
    return Parse(parse.text, words)


def test_a_list_is_set_off_right_after_its_kind() -> None:
    """R23 on a parse spaCy really gives: in "grain stores, such as Silo and Crib (C), are built-in farm
    stores", the parser hangs "farm stores" on "grain stores" as an appositive; the "(" between them
    opens an aside of a member, not a list set off after the kind, so farm stores are no member."""
    misparsed = hand_parse(
        [
            ("grain", "NOUN", "NN", "compound", 1, "grain"),
            ("stores", "NOUN", "NNS", "nsubjpass", 12, "store"),
            (",", "PUNCT", ",", "punct", 1, ","),
            ("such", "ADJ", "JJ", "amod", 4, "such"),
            ("as", "ADP", "IN", "prep", 1, "as"),
            ("Silo", "PROPN", "NNP", "pobj", 4, "Silo"),
            ("and", "CCONJ", "CC", "cc", 5, "and"),
            ("Crib", "PROPN", "NNP", "conj", 5, "Crib"),
            ("(", "PUNCT", "-LRB-", "punct", 7, "("),
            ("C", "PROPN", "NNP", "appos", 7, "C"),
            (")", "PUNCT", "-RRB-", "punct", 7, ")"),
            ("are", "AUX", "VBP", "auxpass", 12, "be"),
            ("built", "VERB", "VBN", "ROOT", 12, "build"),
            ("in", "ADP", "RP", "prt", 12, "in"),
            ("farm", "NOUN", "NN", "compound", 15, "farm"),
            ("stores", "NOUN", "NNS", "appos", 1, "store"),
            (".", "PUNCT", ".", "punct", 12, "."),
        ]
    )
    assert hand_relations(misparsed, "grain store", "farm store", "Silo", "Crib") == {
        ("Silo", "is a", "grain store"),
        ("Crib", "is a", "grain store"),
    }
    listed = relations_of("The farm has two grain stores: silos and cribs.", "grain store", "silo", "crib")
    assert {("silo", "is a", "grain store"), ("crib", "is a", "grain store")} <= listed


def test_misparses_state_nothing_they_do_not_say() -> None:
    """R23, precision first, on parses spaCy really gives: a bare participle with a subject is
    passive ("the tokens provided to the gatekeeper are …"); of two direct objects without "and"
    the last is the object ("changing the loaf shape directory"); a noun the parser hung on the
    verb without "and" is no second prepositional object ("stuck in … on the old oven")."""
    provided = hand_parse(
        [
            ("the", "DET", "DT", "det", 1, "the"),
            ("tokens", "NOUN", "NNS", "nsubj", 2, "token"),
            ("provided", "VERB", "VBN", "ROOT", 2, "provide"),
            ("to", "ADP", "IN", "prep", 2, "to"),
            ("the", "DET", "DT", "det", 5, "the"),
            ("gatekeeper", "NOUN", "NN", "pobj", 3, "gatekeeper"),
        ]
    )
    assert hand_relations(provided, "token", "gatekeeper") == {("token", "is provided to", "gatekeeper")}
    changing = hand_parse(
        [
            ("baker", "NOUN", "NN", "nsubj", 1, "baker"),
            ("allows", "VERB", "VBZ", "ROOT", 1, "allow"),
            ("changing", "VERB", "VBG", "xcomp", 1, "change"),
            ("the", "DET", "DT", "det", 4, "the"),
            ("loaf", "NOUN", "NN", "dobj", 2, "loaf"),
            ("shape", "VERB", "VBZ", "compound", 6, "shape"),
            ("directory", "NOUN", "NN", "dobj", 2, "directory"),
        ]
    )
    assert hand_relations(changing, "baker", "loaf") == set()
    stuck = hand_parse(
        [
            ("loaves", "NOUN", "NNS", "nsubjpass", 2, "loaf"),
            ("are", "AUX", "VBP", "auxpass", 2, "be"),
            ("stuck", "VERB", "VBN", "ROOT", 2, "stick"),
            ("in", "ADP", "IN", "prep", 2, "in"),
            ("cooling", "VERB", "VBG", "pcomp", 3, "cool"),
            ("status", "NOUN", "NN", "dobj", 4, "status"),
            ("on", "ADP", "IN", "prep", 4, "on"),
            ("the", "DET", "DT", "det", 8, "the"),
            ("oven", "NOUN", "NN", "conj", 2, "oven"),
        ]
    )
    assert hand_relations(stuck, "loaf", "oven") == set()
    # "in a valley" right after "from each farm" is which farms, though the parser hangs it on the
    # verb ("from the farm to the valley" keeps both)
    assert relations_of("The miller takes grain from each farm in a nearby valley.", "miller", "farm", "valley") == {
        ("miller", "takes grain from", "farm")
    }
    assert ("miller", "moves grain to", "valley") in relations_of(
        "The miller moves grain from the farm to the valley.", "miller", "farm", "valley"
    )


def test_what_a_verb_uses_is_in_its_predicate() -> None:
    """R23: "uses sharp blades to cut the wheat" keeps what it uses; a gerund ("contains drying
    racks") is no purpose."""
    found = relations_of("The farmer uses sharp blades to cut the wheat.", "farmer", "wheat")
    assert found == {("farmer", "uses blades to cut", "wheat")}
    found = relations_of("The `barn` module contains drying racks, sacks and more.", "barn", "rack")
    assert not [p for _, p, _ in found if " to " in f" {p} "]  # never "contains to dry"


@pytest.mark.parametrize(
    ("sentence", "names", "absent"),
    [
        (
            "For example, suppose a miller `Stone` grinds grain based on its weight.",
            ("miller", "grain"),
            "miller",
        ),
        ("The two grains are called `spelt` and `emmer`.", ("grain", "spelt"), "grain"),
        ("The process of turning the soil is known as _tilling_.", ("process", "tilling"), "process"),
        ("Start a new farm named meadow and plough it.", ("meadow", "farm"), "meadow"),  # an instance
        ("To sow the old way, use `harrow` instead of `drill`.", ("harrow", "drill", "way"), "drill"),
        ("Farmers sow seeds in that field, such as wheat or barley.", ("field", "wheat"), "wheat"),
    ],
)
def test_suppositions_names_and_misplaced_lists_state_nothing(
    sentence: str, names: tuple[str, ...], absent: str
) -> None:
    """R23, precision first: a supposition, a naming ("are called") and a "such as" list hung on a
    singular noun ("in that field, such as wheat") state no relation of theirs."""
    assert not [r for r in relations_of(sentence, *names) if absent in (r[0], r[2])]


def test_a_fronted_frame_is_no_object() -> None:
    """R23: "On the farm, a plough turns the soil": the frame is where, not what it relates to."""
    found = relations_of("On the farm, a plough turns the soil of the field.", "farm", "plough", "soil")
    assert ("plough", "turns", "soil") in found
    assert not [r for r in found if "farm" in (r[0], r[2])]


def test_a_means_is_no_purpose_and_a_manner_stays_in_the_predicate() -> None:
    """R23: "trays … filled using a compost service, … to start seedlings" uses no service to start
    anything; "behave differently from" is not "behaves from"."""
    assert relations_of("Use seed trays to start seedlings in spring.", "seed trays", "seedlings") == {
        ("seed trays", "is used to start", "seedlings")
    }
    assert relations_of(
        "Use seed trays or pots filled using a compost service, such as from a garden centre, to start seedlings.",
        "seed trays",
        "compost service",
    ) == set()
    assert relations_of(
        "Greenhouse tomatoes behave differently from field tomatoes in a dry summer.",
        "Greenhouse tomatoes",
        "field tomatoes",
    ) == {("Greenhouse tomatoes", "behaves differently from", "field tomatoes")}


def test_a_relational_adjective_relates_subject_and_object() -> None:
    """R23: "X is similar to Y" relates X to Y with the adjective and its preposition; "X is useful
    for Y" says how good X is, and a negated one states nothing."""
    assert relations_of("The `tally` tool is similar to `count/2` but made for barns.", "tally", "count/2") == {
        ("tally", "is similar to", "count/2")
    }
    assert relations_of("A harrow is compatible with every plough.", "harrow", "plough") == {
        ("harrow", "is compatible with", "plough")
    }
    assert relations_of("A harrow is useful for a plough.", "harrow", "plough") == set()
    assert relations_of("A harrow is not similar to a plough.", "harrow", "plough") == set()


def test_a_name_called_out_after_its_class_is_a_member_of_it() -> None:
    """R23: "a tool called `rake`" makes `rake` a tool, also where the parser reads "called `rake`"
    as an apposition of the class noun; "another "*tool*" called "*hoe*"" makes the hoe one more."""
    found = relations_of(
        "To help with the harvest, the farm provides three sheds (`north`, `south`, and `west`) plus "
        "a tool called `rake` described below:",
        "tool",
        "rake",
    )
    assert found == {("rake", "is a", "tool")}
    another = 'And there\'s another "*tool*" called "*hoe*" that is only used for weeds.'
    assert relations_of(another, "tool", "hoe") == {("hoe", "is a", "tool")}


def test_a_code_name_before_its_kind_is_one_of_that_kind() -> None:
    """R23: "the `Tally` protocol" states that `Tally` is a protocol where "protocol" names a concept;
    a plain word before the noun ("the barn protocol") and a hub state nothing."""
    sentence = "Another handy example is the `Tally` protocol, which says how to count a flock."
    assert relations_of(sentence, "Tally", "protocol") == {("Tally", "is a", "protocol")}
    assert relations_of(sentence, "Tally", "protocol", hubs=frozenset({"Tally"})) == set()
    assert relations_of("Another handy example is the barn protocol.", "barn", "protocol") == set()


def test_a_code_span_is_parsed_as_a_name_and_keeps_its_text() -> None:
    """R20: the parser reads a code span as one name (masked), so that "the `~q` bin"
    is a compound noun and not punctuation; words keep the visible text and offsets."""
    clean = visible("The `~q` bin is used to store lists of seeds (*seeds* are just grains).")
    parse = parse_sentences([clean])[0]
    code = next(w for w in parse.words if w.code)
    assert (code.text, clean.text[code.start : code.end], code.lemma) == ("~q", "~q", "~q")
    assert code.pos in ("PROPN", "NOUN") and parse.words[code.head].text == "bin"
    assert all(w.text == clean.text[w.start : w.end] for w in parse.words)


def test_a_bare_name_after_a_definite_class_is_one_of_that_kind() -> None:
    """R23: "The most common tool is `rake`" makes `rake` a tool (not the tool a rake); "a barn that
    is `Full`" gives the barn a value, not a kind."""
    assert relations_of("The most common tool in the barn is `rake`, which gathers hay.", "tool", "rake") == {
        ("rake", "is a", "tool")
    }
    assert relations_of("Sheep leave a barn that is `Full` before noon.", "barn", "Full") == set()


def test_what_a_second_clause_says_happens_is_no_definition() -> None:
    """R20: "…, and `gather` starts again" tells what happens next; it does not define `gather`."""
    reading = reading_of("In this case the basket is emptied, and `gather` starts again.", "gather")
    assert reading.rank != Rank.DEFINES


@pytest.mark.parametrize(
    "sentence",
    [
        "A harrow can be used in a ploughed field.",  # what is possible, not what is
        "Many harrows in the shed pull ploughs.",  # some of the kind
        "Sheds which store harrows must keep ploughs dry.",  # a restrictive clause picks some sheds
    ],
)
def test_possibility_some_of_a_kind_and_a_restrictive_clause_state_nothing(sentence: str) -> None:
    """R23, precision first: "can", a quantified subject and a restrictive relative clause."""
    assert relations_of(sentence, "harrow", "plough", "field", "shed") == set()


def test_a_non_restrictive_clause_speaks_of_its_noun() -> None:
    """R23: "the shed, which stores harrows, …" says of the shed that it stores them."""
    assert ("shed", "stores", "harrow") in relations_of(
        "The shed, which stores harrows, stands by the field.", "harrow", "field", "shed"
    )


def test_a_narrowed_name_is_its_concept_only_as_a_kind() -> None:
    """R23: "the Sorting interface" is one interface: what it has is not what interfaces have; but
    "a harrow is a disc tool" still makes the harrow a tool."""
    assert relations_of("A plugin that implements the Sorting interface has two methods.", "plugin", "interface") == set()
    assert relations_of("The Sorting interface stores every plugin.", "plugin", "interface") == set()
    assert relations_of("A harrow is a disc tool that breaks the soil.", "harrow", "tool") == {("harrow", "is a", "tool")}
    # the name's own word qualifying the class ("… is a harrow tool") speaks of no harrow in general
    named = "Acme Field Harrow is a harrow tool that breaks the soil."
    assert relations_of(named, "harrow", "tool") == set()


def test_what_a_clause_offers_as_an_alternative_is_the_alternative() -> None:
    """R23: "As an alternative to X, … provides Y" states that Y is an alternative to X; offered with
    a hedge, it states nothing."""
    sentence = "As an alternative to `plough`, the farm provides the `harrow` tool which breaks clods."
    assert relations_of(sentence, "plough", "harrow") == {("harrow", "is alternative to", "plough")}
    assert relations_of("As an alternative to `plough`, you could use `harrow`.", "plough", "harrow") == set()
    assert relations_of("As a farmer, the miller provides `harrow` to `plough` owners.", "plough", "harrow") == set()


def test_a_colon_gloss_defines_and_a_call_names_nothing() -> None:
    """R20: "an overview of X: special Ys that …" glosses X; a list after the colon does not; "Z
    calls the `x` helper" is a call, not a name, but "we call them X" names X."""
    gloss = "This page gives an overview of seed drills: special machines that sow seeds in rows."
    assert reading_of(gloss, "seed drills") == Reading("appositive", Rank.DEFINES)
    assert reading_of("The farm grows three kinds of grain: oats, rye and barley.", "grain").rank == Rank.MENTIONS
    assert reading_of("Notice that the mill calls the `grind` helper:", "grind").rank == Rank.MENTIONS
    assert reading_of("We call them hayricks.", "hayricks").pattern == "called"


def test_where_a_thing_runs_is_a_property_and_what_it_runs_its_function() -> None:
    """R20: "Threshers always run to completion" describes; "A thresher runs the grain through
    its drum" says what it does."""
    assert reading_of("Threshers always run to completion.", "Threshers") == Reading("function", Rank.DESCRIBES)
    assert reading_of("A thresher runs the grain through its drum.", "thresher") == Reading("function", Rank.DEFINES)


def test_what_is_allowed_is_no_fact_and_the_one_allowed_is_no_object() -> None:
    """R23: "X allows Y to V Z" states neither "X allows Y" nor "Y Vs Z", and "X allows Y to V a
    thing" no "X allows to V thing Y" (a predicate no reader agrees with); "X allows Y" does."""
    allowed = "Gates allow the shepherd to count sheep with matching tags."
    assert relations_of(allowed, "gate", "shepherd", "sheep", "tag") == set()
    assert relations_of("Gates allow sheep to cross the meadow.", "gate", "sheep") == set()
    assert relations_of("Gates allow sheep.", "gate", "sheep") == {("gate", "allows", "sheep")}
    # what it lets the reader do is what it is for ("A StatefulSet lets you manage Pods")
    assert relations_of("A ledger lets you track every harvest.", "ledger", "harvest") == {
        ("ledger", "lets you track", "harvest")
    }
    assert relations_of("The farm allows us to sell fleece in the valley.", "farm", "fleece") == {
        ("farm", "allows us to sell", "fleece")
    }
    assert relations_of("A ledger might let you track every harvest.", "ledger", "harvest") == set()


def test_a_name_narrowed_by_another_concept_is_that_one_s() -> None:
    """R23: "the Barn controller applies tags" speaks of one controller (a Barn's), not of
    controllers; "We use the `sow` macro to define fields" tells what `sow` is used for."""
    sentence = "The Barn controller applies tags to the sheep."
    assert relations_of(sentence, "Barn", "controller", "tag") == set()
    # a code name is itself, whatever the parser hangs before it
    assert relations_of("Notice `sow/1` returns a seed.", "sow/1", "seed") == {("sow/1", "returns", "seed")}
    assert relations_of("We use the `sow` macro to define fields in that module.", "sow", "macro", "field") == {
        ("sow", "is a", "macro"),
        ("sow", "is used to define", "field"),
    }


def test_a_verb_sharing_a_passive_subject_keeps_its_own_voice() -> None:
    """R23: "X is managed by Y and contains Z": X contains Z (not "is contains"); "In that case, …"
    is a condition."""
    sentence = "Each barn is managed by the farmer and contains the ploughs for spring."
    assert relations_of(sentence, "barn", "farmer", "plough") == {
        ("farmer", "manages", "barn"),
        ("barn", "contains", "plough"),
    }
    assert relations_of("In that case, the farmer only feeds sheep.", "farmer", "sheep") == set()
    # and the other way round: "X stands in Y and is painted in Z" (the second verb's own auxiliary)
    assert relations_of("Gates stand in the meadow and are painted in the barn.", "Gates", "meadow", "barn") == {
        ("Gates", "stands in", "meadow"),
        ("Gates", "is painted in", "barn"),
    }


def test_a_hub_before_a_name_does_not_narrow_it() -> None:
    """R23: "the Valley controller" is the controller of the hub (the product every page names)."""
    sentence = "The Valley controller applies tags to the sheep."
    assert relations_of(sentence, "Valley", "controller", "tag", hubs=frozenset({"Valley"})) == {
        ("controller", "applies", "tag")
    }


def test_the_kind_an_object_is_offered_as_is_no_relation_and_both_points_back() -> None:
    """R23: "provides `oats` and `rye` as grains" says what the oats are, not how the farm relates to
    grains; R20: "Both harrows break clods" speaks of two harrows just named, not of the kind."""
    assert relations_of("The farm provides `oats` and `rye` as grains.", "farm", "grain") == set()
    assert relations_of("The mill acts as a granary.", "mill", "granary") == {("mill", "acts as", "granary")}


def test_a_comparison_says_how_a_term_compares_not_what_it_is() -> None:
    """R20: "Mulching is different from …", "A `rake` is similar to …", "… provides a
    similar handle to …", "… provide a much finer tilth than …" compare; "A harrow holds …" defines."""
    assert reading_of("Mulching is different from the composting that some growers also use.", "Mulching").rank == Rank.MENTIONS
    assert reading_of("`rake` is similar to `hoe` but tailored for leaves.", "rake").rank == Rank.MENTIONS
    comparisons = [
        ("The `Rake` module provides a very similar handle to the `Hoe` module with smaller tines.", "Rake"),
        ("Harrows generally provide a much finer tilth than using the equivalent ploughs.", "Harrows"),
    ]
    for sentence, term in comparisons:
        reading = reading_of(sentence, term)
        assert reading.rank > Rank.DEFINES and not reading.of_the_one, sentence
    assert reading_of("A harrow holds its tines in a heavy frame.", "harrow").rank == Rank.DEFINES


def test_an_emphasized_word_in_a_sentence_that_defines_another_term_is_a_mention() -> None:
    """R20: "A seed drill is a machine that lets a *grower* sow …" defines the seed drill;
    the emphasized grower is named on the way. Emphasis alone still introduces a term."""
    sentence = "A seed drill is a farm machine that lets a specific *grower*, such as a tenant, sow seeds in rows."
    assert reading_of(sentence, "grower").rank == Rank.MENTIONS
    assert reading_of("We say these neighbouring beds form a _rotation pair_.", "rotation pair") == Reading(
        "emphasis", Rank.DEFINES, anaphoric=True  # "these" beds: quoted with the sentence before
    )
    assert reading_of("Neighbouring beds form a _rotation pair_.", "rotation pair") == Reading("emphasis", Rank.DEFINES)
    symbol = reading_of("The `|>` sign in the corner is the **seed drill**: it sows seeds in rows.", "seed drill")
    assert symbol.pattern == "copula"


def test_one_case_named_by_an_emphasized_term_defines_nothing() -> None:
    """R20: "The actual soil temperature is the *current warmth*" names one case of the term, as the
    thermostat example does; "The `|>` sign … is the **seed drill**: it sows …" names a symbol."""
    assert reading_of("The actual soil temperature is the *current warmth*.", "current warmth") == Reading(
        "mention", Rank.MENTIONS
    )
    assert reading_of("The tool in the corner is the **seed drill**.", "seed drill").rank == Rank.MENTIONS


def test_a_description_of_the_one_named_outranks_a_circumstance() -> None:
    """R20: "The grain store holds …" (weak only by its article) is a description of what
    "the" grain store does; "The grain store runs …", "Each grain store holds …" are not."""
    assert reading_of("The grain store holds the harvest until it is sold.", "grain store") == Reading(
        "function", Rank.DESCRIBES, of_the_one=True
    )
    assert not reading_of("The grain store runs warm in summer.", "grain store").of_the_one
    assert not reading_of("Each grain store in a village holds the harvest.", "grain store").of_the_one


def test_a_subject_that_points_back_describes_nothing_by_itself() -> None:
    """R20: "This tenancy lasts …" speaks of the tenancy just named."""
    assert reading_of("This tenancy lasts one year in the barn.", "tenancy").rank == Rank.MENTIONS
    assert reading_of("Tenancy lasts one year in the barn.", "Tenancy").rank == Rank.DESCRIBES
    # "different" qualities of an object are various ones, no comparison
    assert reading_of("A seed tray allows you to specify different depths for each row.", "seed tray").rank == Rank.DEFINES


def test_a_further_thing_a_term_does_and_a_sentence_bound_to_its_context_define_nothing() -> None:
    """R20: "X also provides …" tells one more thing X does; "Therefore if …", "In both
    cases, …" hold where the text before says; "Similar to ploughs, harrows …" compares."""
    also = reading_of("The `Reaper` module also provides a way to sharpen blades.", "Reaper")
    assert also.rank == Rank.DESCRIBES and not also.of_the_one
    assert reading_of("The `Reaper` module provides a way to sharpen blades.", "Reaper").rank == Rank.DEFINES
    assert reading_of("Therefore if you sow the seed bags late, the yield drops.", "seed bags").forward
    assert reading_of("In both cases, seed bags are sacks of grain kept for sowing.", "seed bags").forward
    assert not reading_of("Seed bags are sacks of grain kept for sowing.", "Seed bags").forward
    assert reading_of("Similar to ploughs, harrows break the soil before sowing.", "harrows").rank == Rank.MENTIONS


def test_on_top_of_a_named_thing_is_that_thing() -> None:
    """R23: "build on top of the `Reaper` functions" relates to what the "of" names, in turn."""
    sentence = "Harvesters build on top of the `Reaper` functions to report better yields."
    assert relations_of(sentence, "Harvesters", "Reaper") == {("Harvesters", "builds on", "Reaper")}


def test_a_step_of_a_procedure_or_a_condition_states_no_relation() -> None:
    """R23, precision first: "After …, the miller grinds …", "When …, the farm sells …", "… adds a
    tag when you use …", "While …, the foreman moves …" and "… how the farm sells crates" say what
    happens then or ask; the plain statement relates. A "while" after the main clause contrasts."""
    names = ("Miller", "Grain", "Farm", "Crate", "Foreman", "Barn")
    for sentence in [
        "After drying all the sacks, the miller grinds the grain.",
        "When the barn runs out of space, the farm will first sell crates stored in that barn.",
        "The farm also sells crates to a buyer when you use the auction.",
        "While the foreman is closing the barn, the miller grinds the grain.",
        "There are two notes that explain how the farm sells crates to buyers:",
    ]:
        assert relations_of(sentence, *names) == set(), sentence
    assert relations_of("The miller grinds the grain.", *names) == {("Miller", "grinds", "Grain")}
    assert relations_of("The farm sells crates, while the foreman keeps the barn.", *names) == {
        ("Farm", "sells", "Crate"),
        ("Foreman", "keeps", "Barn"),
    }


def test_what_a_thing_does_whenever_something_holds_is_a_relation() -> None:
    """R23: "The sorter adds crates when there are empty belts" says what the sorter does each time
    (a "when" after the verb, about the world); "… when you use …" stays a step the reader takes."""
    names = ("Sorter", "Crate", "Belt")
    assert relations_of("The sorter adds crates when there are empty belts, and removes crates when those crates are full.", *names) == {
        ("Sorter", "adds", "Crate"),
        ("Sorter", "removes", "Crate"),
    }
    assert relations_of("The sorter adds crates when you start the belts.", *names) == set()
    assert relations_of("When there are empty belts, the sorter adds crates.", *names) == set()


def test_what_a_thing_does_when_an_option_is_switched_on_is_no_relation() -> None:
    """R23: "… when the night shift and the ledger are enabled" names an option someone chose (a
    passive of a setting verb), not a moment that comes by itself: a condition read as a fact."""
    names = ("Sorter", "Crate", "Belt")
    for sentence in [
        "The sorter adds crates when the night shift and the ledger are enabled.",
        "The sorter adds crates whenever the belt speed is configured.",
    ]:
        assert relations_of(sentence, *names) == set(), sentence
    assert relations_of("The sorter adds crates when the belts are full.", *names) == {("Sorter", "adds", "Crate")}


def test_a_bare_participle_after_a_present_verb_is_no_clause_of_its_subject() -> None:
    """R20/R23: "The ledger lists a set of crates and managed by a sorter" has no "is" before
    "managed": the participle qualifies the crates, so the sorter manages no ledger; with "is" it
    is the ledger's own clause."""
    names = ("Ledger", "Crate", "Sorter")
    assert ("Sorter", "manages", "Ledger") not in relations_of(
        "The ledger lists a set of crates with a common label and managed by a sorter.", *names
    )
    assert ("Sorter", "manages", "Ledger") in relations_of(
        "The ledger lists a set of crates with a common label and is managed by a sorter.", *names
    )


def test_a_noun_phrase_parsed_as_appositions_is_one_noun() -> None:
    """R23, precision first, on a parse spaCy really gives: "The default Acme sorter takes …" read
    as "default" with the appositions "Acme" and "sorter" is one noun phrase, the sorter: Acme is no
    subject of it; a set-off apposition ("The machine, Acme, takes …") names Acme."""
    text = "The default Acme sorter takes crates into account."
    misparsed = reshaped(text, {"default": ("nsubj", "takes"), "Acme": ("appos", "default"), "sorter": ("appos", "default")})
    assert hand_relations(misparsed, "Acme", "crate") == set()
    assert hand_relations(misparsed, "Acme", "sorter", "crate") == {("sorter", "takes into account", "crate")}
    set_off = relations_of("The machine, Acme, takes crates into account.", "Acme", "crate")
    assert set_off == {("Acme", "takes into account", "crate")}


def test_an_object_that_points_to_one_of_an_example_relates_nothing() -> None:
    """R23, precision first: "… to use the named harrow to plough this field", "The farm includes
    that barn." speak of the one an example shows, "adds a barn, `north-barn`, …" of the one it
    names; "… to plough the field" of fields."""
    names = ("Farmer", "Harrow", "Field", "Farm", "Barn")
    assert relations_of("This will tell the farmer to use the named harrow to plough this field.", *names) == set()
    assert relations_of("The farm includes that barn.", *names) == set()
    assert relations_of("The farm adds a barn, `north-barn`, to every map.", *names) == set()  # that one
    assert relations_of("Farmers use the harrow to plough the field.", *names) == {
        ("Farmer", "uses", "Harrow"),
        ("Harrow", "is used to plough", "Field"),
    }


def test_what_is_only_attempted_and_a_gerund_hung_on_a_finite_verb_state_nothing() -> None:
    """R23, precision first: "The miller attempts to grind the grain" says what it tries; in "…
    detects this and tries … by sifting the bran and/or grinding the grain", parsed with "grinding"
    coordinated with "detects" (as spaCy parses it), "grinding" is no second thing the miller does."""
    assert relations_of("The miller attempts to grind the grain.", "miller", "grain") == set()
    text = "The miller detects this and tries to make it ready by sifting the bran and/or grinding the grain."
    misparsed = reshaped(text, {"grinding": ("conj", "detects")})
    assert hand_relations(misparsed, "miller", "grain") == set()
    assert relations_of("The miller detects the flour and grinds the grain.", "miller", "flour", "grain") == {
        ("miller", "detects", "flour"),
        ("miller", "grinds", "grain"),
    }


def test_the_class_of_a_copula_is_not_the_subject_of_its_relative_clause() -> None:
    """R23: "A harrow is a tool that breaks the clods" says the harrow breaks them, not every tool;
    in "… is an Acme resource that breaks …" Acme, the name before the class, does not either."""
    found = relations_of("A harrow is a tool that breaks the clods.", "harrow", "clod", "tool")
    assert found == {("harrow", "is a", "tool"), ("harrow", "breaks", "clod")}
    found = relations_of("A harrow is an Acme resource that breaks the clods.", "harrow", "Acme", "clod")
    assert found == {("harrow", "breaks", "clod")}
    # set off by a comma, the clause is about the class named: "… is `~h`, which is used to …"
    found = relations_of("The usual tool is the `harrow`, which is used to break clods.", "harrow", "clod")
    assert ("harrow", "is used to break", "clod") in found


def test_what_a_thing_takes_into_account() -> None:
    """R23: "takes X and Y into account" relates by the phrase, not by "takes"."""
    assert relations_of("The miller takes grain and crates into account.", "Miller", "Grain", "Crate") == {
        ("Miller", "takes into account", "Grain"),
        ("Miller", "takes into account", "Crate"),
    }


def test_a_sentence_about_one_named_instance_defines_no_kind() -> None:
    """R20: "A `north` barn is on the `hill` farm" speaks of one barn; "A barn is a farm
    building …" of the kind, and "the `Barn` module" of `Barn`."""
    assert reading_of("A `north` barn is in the `hill` farm.", "barn").rank == Rank.MENTIONS
    assert reading_of("The `kube-tools` shed holds the ladders of the farm.", "shed").rank == Rank.MENTIONS
    assert reading_of("A barn is a farm building that stores hay.", "barn").rank == Rank.DEFINES


def test_what_a_term_may_do_describes_nothing() -> None:
    """R20: "Different sacks may be accepted …" says what may happen, not what sacks are."""
    assert reading_of("Different sacks may be accepted depending on the miller.", "sacks").rank == Rank.MENTIONS
    # what is done to sacks is not what they are or do either (_done_to)
    assert reading_of("Sacks are accepted at the mill door.", "Sacks").rank == Rank.MENTIONS
    assert reading_of("Sacks rot in the rain.", "Sacks").rank == Rank.DESCRIBES


def test_what_a_term_can_be_is_no_definition_and_what_it_can_do_no_description() -> None:
    """R20: "A sack policy can be a rule …" describes what it may be, and "Sacks can rot"
    tells only what may happen to them; "A sack policy is a rule …" defines, "Sacks rot …" describes."""
    assert reading_of("A sack policy can be a rule for the whole mill.", "policy").rank == Rank.DESCRIBES
    assert reading_of("A sack policy is a rule for the whole mill.", "policy").rank == Rank.DEFINES
    assert reading_of("Sacks can rot in the rain.", "Sacks").rank == Rank.MENTIONS
    assert reading_of("Sacks rot in the rain.", "Sacks").rank == Rank.DESCRIBES


def test_a_list_entry_label_parsed_as_a_root_hides_no_advice() -> None:
    """R20: in "[Token Projection](…) (also recommended): In Version 2.0 and later, use the sack
    ledger to tell the miller to seal each sack as a *closed bundle*." the label is parsed as a root of
    its own; the sentence is still advice: it neither introduces "closed bundle" by its emphasis nor
    says what the sack ledger is for."""
    text = (
        "[Token Projection](/docs/sealing/#how) (also recommended): In Version 2.0 and later, use the sack ledger "
        "to tell the miller to seal each sack as a *closed bundle*."
    )
    assert sum(w.dep == "ROOT" for w in parsed(text).words) == 2
    assert reading_of(text, "closed bundle").rank == Rank.MENTIONS
    assert reading_of(text, "sack ledger").rank == Rank.MENTIONS
    assert reading_of("A sack ledger is used to tell the miller which sacks to seal.", "sack ledger").rank == Rank.DEFINES


def test_what_usually_holds_a_goal_or_what_something_ensures_states_no_relation() -> None:
    """R23, precision first: "The barn usually holds …" (what holds most of the time), "To make sure
    millers grind grain, …" (a goal), "A foreman ensures that millers grind grain" (what the foreman
    brings about, even parsed as two roots) and "These millers grind …" (the ones just named) are no
    relation of the kinds; the plain statement is."""
    names = ("Miller", "Grain", "Barn", "Foreman")
    for sentence in [
        "The barn usually holds grain for the winter.",
        "To keep millers grinding grain all year, the foreman opens the barn early.",
        "A foreman ensures that all (or some) millers grind grain every day.",
        "A foreman ensures that millers grind grain every day.",
        "These millers grind grain for the whole valley.",
    ]:
        assert ("Miller", "grinds", "Grain") not in relations_of(sentence, *names), sentence
        assert ("Barn", "holds", "Grain") not in relations_of(sentence, *names), sentence
    assert relations_of("The barn holds grain for the winter.", *names) == {("Barn", "holds", "Grain")}
    assert relations_of("Millers grind grain for the whole valley.", *names) == {("Miller", "grinds", "Grain")}


def test_how_a_setting_named_by_code_is_set_is_a_use_not_a_definition() -> None:
    """R20: "The `Ledger.write/2` function allows the `mode` option to be set to …" and "… by updating
    the `rows` field" tell how a knob of the term is used, as "You can use X" does: a use, which
    defines nothing; what the function does is its function."""
    for sentence in [
        "The `Ledger.write/2` function allows the `mode` option to be set to append.",
        "The ledger keeper enables growing the ledger, either by hand or by a clerk, by updating the `rows` field.",
        "`Ledger.write/2` also provides the ability to mark the row with a `label` option.",
    ]:
        term = "Ledger.write/2" if "write" in sentence else "ledger keeper"
        assert reading_of(sentence, term).rank > Rank.DEFINES, sentence
    reading = reading_of("The `Ledger.write/2` function provides a way to add one row to the ledger.", "Ledger.write/2")
    assert (reading.pattern, reading.rank) == ("function", Rank.DEFINES)


def test_a_clause_under_make_sure_states_no_relation() -> None:
    """R23: "Milling refers to making sure that millers grind grain" says what milling brings about,
    as "ensures that" does ("make" with "sure" or "certain"); "making millers grind grain" is a plain
    causing and keeps no such reading."""
    names = ("Miller", "Grain", "Milling")
    for sentence in [
        "Milling refers to making sure that millers grind grain every day.",
        "The foreman makes certain that millers grind grain every day.",
    ]:
        assert ("Miller", "grinds", "Grain") not in relations_of(sentence, *names), sentence
    assert ("Miller", "grinds", "Grain") in relations_of("The foreman says that millers grind grain every day.", *names)


def test_a_clause_under_ensure_parsed_as_a_second_root_states_no_relation() -> None:
    """R23: the parser sometimes splits "A foreman ensures that all (or some) millers grind grain" into
    two roots; the second is still what the foreman brings about (the parse is rebuilt in that shape
    here, since which sentences the model misparses is not stable)."""
    split = reshaped("A foreman ensures that all (or some) millers grind grain every day.", {"grind": ("ROOT", None)})
    assert sum(w.dep == "ROOT" for w in split.words) == 2
    assert ("Miller", "grinds", "Grain") not in hand_relations(split, "Miller", "Grain", "Foreman")
    assert hand_relations(parsed("Millers grind grain every day."), "Miller", "Grain") == {("Miller", "grinds", "Grain")}


def test_a_goal_fronted_or_parsed_as_the_root_states_no_relation() -> None:
    """R23: "To ensure millers land on barns holding grain, …" and ", to let millers grind grain, …"
    are goals, whether the parser hangs them under the main verb or makes "ensure" the root."""
    names = ("Miller", "Grain", "Barn")
    for sentence in [
        "To ensure millers land on barns holding grain, that set of barns should have a common sign.",
        "Every spring, to let millers grind grain, the foreman opens the barn.",
    ]:
        found = relations_of(sentence, *names)
        assert ("Barn", "holds", "Grain") not in found and ("Miller", "grinds", "Grain") not in found, sentence
    assert relations_of("Every spring, millers grind grain in the barn.", *names) >= {("Miller", "grinds", "Grain")}
    rooted = reshaped("To let millers grind grain, the foreman opens the barn.", {"let": ("ROOT", None)})
    assert ("Miller", "grinds", "Grain") not in hand_relations(rooted, *names)


def test_a_frame_a_counterfactual_or_no_longer_states_no_relation() -> None:
    """R23, precision first: "Once …," (even hung on the main verb), "Instead of X being …", "no
    longer", "still" (what holds even so, in the case at hand), and a fronted frame that limits the statement ("In most cases", "In this
    configuration", "In either of those situations", "In barns with …", a mode or process named by a
    bare noun: "In background cascading milling, …") are no plain relation; "In Valley, …" and a
    connective ("In general, …") limit nothing."""
    names = ("Miller", "Grain", "Barn", "Valley", "Grain API")
    for sentence in [
        "Once both init containers complete, the miller grinds the grain from its section.",
        "Instead of grain resources being natively stored by the miller, the specifications are defined as sacks.",
        "Instead of Grain API resources being natively stored by the Miller, the specifications are defined as custom sacks.",
        "As a result, millers no longer grind the grain in the old way.",
        "In most cases, the miller grinds the grain automatically.",
        "In this configuration, the miller grinds the grain at each barn.",
        "In either of those situations the miller grinds the grain again.",
        "In barns with less than 100 sacks, the miller still grinds the grain.",
        "In background cascading milling, the miller grinds the grain.",
        "However, the miller still grinds the grain.",
    ]:
        found = relations_of(sentence, *names)
        assert not {("Miller", "grinds", "Grain"), ("Miller", "stores", "Grain"), ("Miller", "stores", "Grain API")} & found
    assert ("Miller", "grinds", "Grain") in relations_of("In Valley, the miller grinds the grain.", *names)
    assert ("Miller", "grinds", "Grain") in relations_of("In general, the miller grinds the grain.", *names)
    assert ("Miller", "stores", "Grain API") in relations_of("Grain API resources are natively stored by the Miller.", *names)


def test_what_is_provided_with_a_thing_is_the_thing() -> None:
    """R23: "The mill provides millers with sacks" provides sacks (millers receive them)."""
    names = ("Mill", "Miller", "Sack")
    assert relations_of("The mill provides millers with sacks.", *names) == {("Mill", "provides", "Sack")}
    assert relations_of("The mill provides sacks.", *names) == {("Mill", "provides", "Sack")}


def test_instead_of_parsed_as_a_marker_states_no_relation() -> None:
    """R23: the parser may hang "of" of "Instead of X being stored by Y, …" on the verb as its marker
    (the parse is rebuilt in that shape here); what is not the case is still no relation."""
    marked = reshaped(
        "Instead of grain resources being natively stored by the miller, the specifications are defined as sacks.",
        {"of": ("mark", "stored"), "stored": ("advcl", "defined")},
    )
    stored = next(w for w in marked.words if w.text == "stored")
    assert any(w.dep == "mark" and w.text == "of" for w in marked.children(stored.i))
    assert ("Miller", "stores", "Grain") not in hand_relations(marked, "Miller", "Grain")


def test_a_module_named_like_a_kind_is_another_sense() -> None:
    """R23: "the `Sack` module" makes `Sack` a module only where "Sack" names the module; a concept
    named as a common noun ("Sack", "Sacks": the thing farms fill) is another sense, and "the `mill`
    module" is not MILL."""
    parse = parsed("Let's see two examples from the `Sack` module:")
    assert hand_relations(parse, "Sack", "Module") == {("Sack", "is a", "Module")}
    assert hand_relations(parse, "Sack", "Module", kinds=frozenset({"Sack"})) == set()
    # nor is the module the kind in any other relation: "an alternative to `Bin`" is no sack's
    offered = parsed("As an alternative to `Bin`, the farm provides the `Sack` module which holds grain loosely:")
    assert hand_relations(offered, "Sack", "Bin") == {("Sack", "is alternative to", "Bin")}
    assert hand_relations(offered, "Sack", "Bin", kinds=frozenset({"Sack"})) == set()
    filling = parsed("With the `Sack` module the miller fills bins.")
    assert all("Sack" not in r for r in hand_relations(filling, "Sack", "Miller", "Bin", kinds=frozenset({"Sack"})))
    assert relations_of("The functions in the `mill` module grind grain.", "MILL", "Module") == set()
    assert relations_of("The functions in the `MILL` module grind grain.", "MILL", "Module") == {("MILL", "is a", "Module")}


def test_a_concept_named_with_its_plural_is_a_kind() -> None:
    """R23: the offline engine passes as ``kinds`` the concepts whose aliases hold their plural."""
    from wikigen.engines.offline.drawing import _kinds

    named = [("Sack", ["Sack", "Sacks"]), ("Box", ["Box", "Boxes"]), ("Enum", ["Enum"]), ("MILL", ["MILL", "M"])]
    assert _kinds(named) == {"Sack", "Box"}


def test_a_pointing_subject_stands_for_no_appositive() -> None:
    """R23: in "This page gives an overview of seed drills: special machines that …" the parser may
    make "machines" an appositive of "page"; "This page" stands for no machine."""
    shaped = reshaped(
        "This page gives an overview of seed drills: special machines that sow seeds in rows.",
        {"machines": ("appos", "page")},
    )
    page = next(w for w in shaped.words if w.text == "page")
    assert any(w.dep == "appos" and w.text == "machines" for w in shaped.children(page.i))
    assert hand_relations(shaped, "Seed drill", "Machine") == set()


@pytest.mark.parametrize(
    "sentence",
    [
        "A gatekeeper's purpose is to admit visitors through the main gate.",
        "The purpose of a gatekeeper is to admit visitors through the main gate.",
        "A gatekeeper's job is to admit visitors through the main gate.",
    ],
)
def test_what_a_term_is_for_defines_it(sentence: str) -> None:
    """R20: "X's purpose is to …", "The purpose of X is to …" say what X is for."""
    assert reading_of(sentence, "gatekeeper") == Reading("purpose", Rank.DEFINES)


@pytest.mark.parametrize("opener", ["For example,", "For example:", "For instance \u2014", "E.g.,"])
def test_one_example_of_a_kind_defines_nothing(opener: str) -> None:
    """R20: "For example, a gatekeeper is the owner of a set of keys." (or "For example: …")
    says what one example is; "A gatekeeper is the owner of a set of keys." defines."""
    sentence = f"{opener} a gatekeeper is the owner of a set of keys."
    assert reading_of(sentence, "gatekeeper").rank == Rank.DESCRIBES
    assert reading_of("A gatekeeper is the owner of a set of keys.", "gatekeeper").rank == Rank.DEFINES


def test_the_name_of_a_symbol_describes_and_what_it_does_defines() -> None:
    """R20: "the `~` operator is called the harvest operator" gives a symbol's name and
    nothing it does; "A sign that marks the granary is called …" names what it says."""
    assert reading_of("In the village, the `~` operator is called *the harvest operator*.", "harvest operator") == Reading(
        "called", Rank.DESCRIBES
    )
    assert reading_of("A sign that marks the granary is called *the harvest sign*.", "harvest sign").rank == Rank.DEFINES


def test_a_pointer_defines_nothing_of_what_it_points_to() -> None:
    """R20: "To see an example, read …" points elsewhere, and "… look no further than … called
    `Tally`" names the thing it points to on the way, without saying what it is."""
    presented = reading_of("To see an example, look no further than the village's grain ledger called `Tally`.", "Tally")
    assert presented.rank == Rank.MENTIONS
    assert reading_of("To see an example, read the village's grain ledger called `Tally`.", "Tally").forward


def test_a_noun_phrase_misparsed_as_subject_and_verb_describes_nothing() -> None:
    """R20: the tagger reads "the owner object you're deleting …" as "the owner objects"
    (a singular noun with a plural verb): no sentence about what an owner does."""
    sentence = "The owner object you're deleting first enters a waiting state."
    parse = parsed(sentence)
    assert [(w.text, w.tag) for w in parse.words[1:3]] == [("owner", "NN"), ("object", "VBP")]  # the misparse
    assert reading_of(sentence, "owner").rank == Rank.MENTIONS
    assert reading_of("The owner waits for its dependents.", "owner") == Reading("subject", Rank.DESCRIBES)


def test_what_data_a_term_keeps_only_describes_it() -> None:
    """R20: "A ledger stores figures in the loft." and "A tally tracks the sheaves of each field." say
    what data the term keeps, a property of it, not what it is or does; "A granary holds grain."
    still says what a granary is for."""
    assert reading_of("A ledger stores figures in the loft.", "ledger") == Reading("function", Rank.DESCRIBES)
    assert reading_of("A tally tracks the sheaves of each field.", "tally").rank == Rank.DESCRIBES
    assert reading_of("A granary holds grain.", "granary") == Reading("function", Rank.DEFINES)


def test_what_holds_per_instance_or_on_a_condition_defines_nothing() -> None:
    """R20: "For every harvest, a granary holds grain." says what each case has, as an
    example tells one; "A ledger is only used for a harvest if …" when it is used, and "Ledgers are
    mostly used to …", "… frequently used as …" how it is used most, a use like "You can use X", not
    what it is for."""
    assert reading_of("For every harvest, a granary holds grain.", "granary").rank == Rank.DESCRIBES
    assert reading_of("A granary holds grain.", "granary").rank == Rank.DEFINES
    assert reading_of("For each named gate, the gate record has the form `gate.example`.", "gate record").rank == Rank.MENTIONS
    assert reading_of("A ledger is only used for a harvest if it was made for the village.", "ledger").rank == Rank.DESCRIBES
    assert reading_of("A ledger is used for a harvest.", "ledger") == Reading("function", Rank.DEFINES)
    # what it is mostly used for, like what it typically does, is one use among others
    assert reading_of("Ledgers are mostly used to count grain.", "Ledgers") == Reading("use", Rank.DESCRIBES)
    assert reading_of("Ledgers are frequently used as a tally.", "Ledgers") == Reading("use", Rank.DESCRIBES)
    assert reading_of("A ledger is used as a tally.", "ledger").rank == Rank.DEFINES
    assert reading_of("A ledger is used to count grain.", "ledger").rank == Rank.DEFINES
    # "The ledger is used to …" speaks of one ledger, as "The form is …" does of one form
    assert reading_of("The ledger is used to count grain.", "ledger").rank == Rank.DESCRIBES


def test_a_step_in_sequence_or_an_example_frame_states_no_relation() -> None:
    """R23, precision first: "Finally, …", "… then …", "After the drying phase, …" are steps of a
    procedure, "In this example, …" one example; the plain statement relates."""
    names = ("Miller", "Grain", "Barn")
    for sentence in [
        "Finally, the miller grinds the grain with the heaviest stone.",
        "The miller then grinds the grain for the market.",
        "After the drying phase, the miller grinds the grain according to the order.",
        "In this example, a miller that owns a barn is asked to grind grain.",
    ]:
        assert ("Miller", "grinds", "Grain") not in relations_of(sentence, *names), sentence
        assert ("Miller", "owns", "Barn") not in relations_of(sentence, *names), sentence
    assert ("Miller", "grinds", "Grain") in relations_of("The miller grinds the grain for the market.", *names)


def test_a_modifier_of_any_word_of_the_name_narrows_it() -> None:
    """R23: "The priority admission controller …" (the modifier hangs on "admission") and "The
    snapshot controller …" (a modifier naming another concept, tagged as an adjective) are one kind
    of controller: they say nothing of controllers."""
    names = ("Admission controller", "Priority", "Pod", "Controller", "Snapshot", "Binding", "Ledger")
    assert relations_of("The priority admission controller checks the form and resolves the priority of the Pod to 1000.", *names) == set()
    assert relations_of("The snapshot controller handles the binding of a `Ledger` object with a matching record.", *names) == set()
    assert ("Admission controller", "resolves", "Priority") in relations_of("The admission controller resolves the priority.", *names)
    assert ("Controller", "handles", "Binding") in relations_of("The controller handles the binding of a `Ledger` object.", *names)
    # a definition list's term runs into its entry once the markup is gone: it narrows nothing
    entry = "Seed Carts\n: Farm machines are deployed as seed carts, driven by the miller."
    assert relations_of(entry, "Farm machines", "Seed Carts") == {("Farm machines", "is deployed as", "Seed Carts")}


@pytest.mark.parametrize(
    "sentence",
    [
        "However, a shepherd replaces harrows that are broken or lost for any reason on the farm.",
        "The miller rejects any grain that does not meet the baker's weekly needs.",
        "Any harrow exceeding its weight limit will be repaired by the smith before the spring.",
        "The farmer for ploughs owns every harrow in the valley.",
        "Farmers of this valley own every plough.",
        "The first farmer owns every plough in the valley.",
    ],
)
def test_what_is_said_of_some_members_of_a_kind_states_no_relation(sentence: str) -> None:
    """R23, precision first: a restrictive clause after the name ("harrows that are
    broken"), "any" with a participle ("any harrow exceeding …"), an ordinal ("the first farmer")
    or a phrase that picks members by another concept or a pointing word ("the farmer for ploughs",
    "farmers of this valley") speaks of some of the kind, not of the kind."""
    found = relations_of(sentence, "shepherd", "harrow", "miller", "grain", "smith", "shed", "plough", "ox", "farmer")
    assert found == set(), found


def test_a_clause_set_apart_or_a_place_still_speaks_of_the_kind() -> None:
    """R23: "harrows, which …" adds to the name, a copula's class keeps its clause,
    "the smith in the village" is still the smith, and "harrows that break the soil" are harrows
    doing what harrows do: none of these picks some members."""
    assert ("farmer", "mends", "harrow") in relations_of(
        "The farmer mends the harrows, which break every spring in the stony field.", "farmer", "harrow"
    )
    assert relations_of("A harrow is a tool that breaks the soil after the plough.", "harrow", "tool", "plough") >= {
        ("harrow", "is a", "tool")
    }
    assert ("smith", "mends", "harrow") in relations_of(
        "The smith in the village mends the harrows before the spring.", "smith", "harrow"
    )
    assert relations_of("Farmers own every plough.", "farmer", "plough") == {("farmer", "owns", "plough")}
    # what the members do still speaks of the kind
    assert ("barn", "holds", "harrow") in relations_of(
        "The old barn holds the harrows that break the soil in spring.", "barn", "harrow"
    )


def test_a_fronted_with_phrase_limits_the_statement_to_its_case() -> None:
    """R23: "With a heavy harrow, …" and "Without a plough, …" say what holds in that
    case; the same "with" after the verb is how it is done, and the relation stands."""
    names = ("farmer", "harrow", "field", "plough")
    assert relations_of("With a heavy harrow, the farmer breaks the soil of every field.", *names) == set()
    assert relations_of("Without a plough, the farmer breaks the soil of every field.", *names) == set()
    assert ("farmer", "breaks soil of", "field") in relations_of(
        "The farmer breaks the soil of every field with a heavy harrow.", *names
    )


def test_an_examples_made_up_instance_states_no_relation() -> None:
    """R23, precision first: after "For example," a name with "a"/"an" is one made-up
    instance ("For example, a farmer owns a plough …"), so the sentence states nothing of the kind;
    a plural or a name ("For example, millers grind grain") still states it of them."""
    names = ("farmer", "plough", "miller", "grain", "smith")
    assert relations_of("For example, a farmer owns a plough and lends it to the miller.", *names) == set()
    assert relations_of("For instance, when a farmer buys a plough, the smith sharpens it.", *names) == set()
    assert ("farmer", "owns", "plough") in relations_of("A farmer owns a plough.", *names)
    assert ("miller", "grinds", "grain") in relations_of("For example, millers grind grain.", *names)


@pytest.mark.parametrize(
    ("sentence", "subject", "verb", "obj"),
    [
        ("A silo stores grain for the mill.", "silo", "stores", "grain"),
        ("A granary stores grain through the winter.", "granary", "stores", "grain"),
        ("A seed drill plants seeds in straight rows.", "drill", "plants", "seeds"),
    ],
)
def test_a_verb_read_as_a_plural_noun_is_read_again_as_the_verb(
    sentence: str, subject: str, verb: str, obj: str
) -> None:
    """R20: the small English model reads some sentences without a verb ("A silo
    stores grain …" as one noun phrase, "stores" a plural noun); such a sentence is parsed again
    with a pronoun before the word that agrees as a verb, and that reading is kept, so the sentence
    says what its subject does, and states the relation."""
    parse = parsed(sentence)
    words = {w.text: w for w in parse.words}
    assert words[verb].pos == "VERB" and words[verb].dep == "ROOT"
    assert words[subject].dep == "nsubj" and words[subject].head == words[verb].i
    assert words[obj].dep == "dobj" and words[obj].head == words[verb].i
    assert all(w.text == parse.text[w.start : w.end] for w in parse.words)
    first = subject if subject != "drill" else "seed drill"
    assert (first, verb, "grain" if obj == "grain" else "seed") in relations_of(sentence, first, "grain", "seed")


def test_a_caption_without_a_verb_stays_a_noun_phrase() -> None:
    """R20: a heading-like phrase ("Lease objects within the node namespace.") has no verb to
    find: read again, no word takes an object, so the model's reading stays."""
    parse = parsed("Lease objects within the node namespace.")
    assert not any(w.pos in ("VERB", "AUX") for w in parse.words)


@pytest.mark.parametrize(
    ("entry", "subject", "relation"),
    [
        ("Barn (optional)\n: Stores hay for the winter.", "Barn", ("barn", "stores", "hay")),
        ("seed-cart\n: This cart carries seed sacks to the field.", "cart", ("seed-cart", "carries", "seed sack")),
    ],
)
def test_a_list_entry_s_label_is_the_subject_of_its_verb_phrase(
    entry: str, subject: str, relation: tuple[str, str, str]
) -> None:
    """R20: a definition list's entry that is a verb phrase ("Barn (optional) / : Stores
    hay …") keeps its colon in the visible text and is read with the label as the verb's subject,
    as is "This cart …" in the entry of "seed-cart"; the relation it states is the label's."""
    clean = visible(entry)
    assert " : " in clean.text
    parse = parse_sentences([clean])[0]
    label = next(w for w in parse.words if w.text == subject and w.end <= clean.text.index(":"))
    verb = parse.words[label.head]
    assert label.dep == "nsubj" and verb.pos == "VERB" and verb.dep == "ROOT" and label.pos == "NOUN"
    assert relation in relations_of(entry, "barn", "hay", "seed-cart", "seed sack")


@pytest.mark.parametrize(
    ("sentence", "term", "reading"),
    [
        ("Each granary holds the grain of one farm.", "granary", Reading("function", Rank.DESCRIBES)),
        ("A granary holds the grain of one farm.", "granary", Reading("function", Rank.DEFINES)),
        ("This granary is used to store the grain.", "granary", Reading("mention", Rank.MENTIONS)),
        ("Any granary can be used to store the grain.", "granary", Reading("use", Rank.DESCRIBES)),
        ("A granary is used to store the grain.", "granary", Reading("function", Rank.DEFINES)),
        ("Use these granaries to store the grain.", "granaries", Reading("mention", Rank.MENTIONS)),
        ("Use granaries to store the grain.", "granaries", Reading("mention", Rank.MENTIONS)),
        ("For each named granary, the miller keeps a record.", "granary", Reading("mention", Rank.MENTIONS)),
    ],
)
def test_what_one_or_each_of_a_kind_does_or_is_used_for_defines_nothing(
    sentence: str, term: str, reading: Reading
) -> None:
    """R20: what each one does ("Each granary holds …") describes; what this one is used for ("This
    granary is used to …") is said of the one named before and only mentions it; what any one can be used to do ("Any granary can be used to
    …") is a use, as "You can use X to …" is; advice ("Use granaries to …", "Use these granaries to
    …") only mentions them; "each named granary" is a granary with a name,
    not a name given. The kind's ("A granary holds …", "A granary is used to …") defines it."""
    assert reading_of(sentence, term) == reading


@pytest.mark.parametrize(
    ("sentence", "term", "rank"),
    [
        ("Granaries are used to store the grain of the village.", "Granaries", Rank.DESCRIBES),
        ("Millstones are used by the miller to grind the grain.", "Millstones", Rank.DESCRIBES),
        ("A granary is used to store the grain of the village.", "granary", Rank.DEFINES),
        ("The `~g` sigil is used to store the grain of the village.", "~g", Rank.DEFINES),
    ],
)
def test_what_the_members_of_a_kind_are_used_for_is_one_use(sentence: str, term: str, rank: Rank) -> None:
    """R20, precision first: "Granaries are used to …" (a plural subject of a passive "used")
    tells one use of the members, as "Cgroups are used as a pod boundary …" does; "A granary is used
    to …" and a name written as code ("The `~g` sigil is used to …") say what it is for."""
    assert reading_of(sentence, term).rank == rank


@pytest.mark.parametrize(
    ("sentence", "term", "rank"),
    [
        ("`harvest` is an optional `int`, by default is `None`.", "harvest", Rank.MENTIONS),
        ("The possible seasons are `Spring`, `Summer` and `Autumn`.", "seasons", Rank.MENTIONS),
        ("A harvest is the yield of one field in one season.", "harvest", Rank.DEFINES),
    ],
)
def test_a_value_or_type_written_as_code_says_not_what_the_term_is(sentence: str, term: str, rank: Rank) -> None:
    """R20, precision first: a copula whose complement is written as code gives a value, a type or
    the members ("`harvest` is an optional `int`", "The possible seasons are `Spring`, …"), not
    what the term is; a complement in prose ("is the yield of …") defines it."""
    assert reading_of(sentence, term).rank == rank


def test_a_kind_named_after_another_thing_is_no_subclass_of_the_bare_concept() -> None:
    """R23, one word in two senses: "an Acme gateway", "a Hayfield controller" name a kind of their own
    after another thing (as "an API gateway" is no Gateway of the Gateway API); a plain word before
    the head ("a wooden gateway", "a field gateway") still makes the subject one of the concept."""
    assert relations_of("The Tiller is an Acme gateway that opens at dawn.", "Tiller", "gateway") == set()
    assert relations_of("The Tiller is a Hayfield controller for the barns.", "Tiller", "controller") == set()
    assert ("Tiller", "is a", "gateway") in relations_of("The Tiller is a wooden gateway that opens at dawn.", "Tiller", "gateway")
    assert ("Tiller", "is a", "gateway") in relations_of("The Tiller is a field gateway that opens at dawn.", "Tiller", "gateway")


def test_a_kinds_code_name_with_the_and_no_classifier_is_the_examples_one() -> None:
    """R23: "The `Granary` is used to store the harvests of this farm." speaks of the example's
    granary (a kind's name written as code, with "the" and no classifier after it): it states no
    relation of granaries; "A `Granary` stores …" still does."""
    sentence = "The `Granary` is used to store the harvests of the village."
    assert relations_of(sentence, "Granary", "harvests") == set()
    assert ("Granary", "stores", "harvests") in relations_of(
        "A `Granary` stores the harvests of the village.", "Granary", "harvests"
    )


def test_a_count_or_a_hyphened_kind_names_some_not_the_kind() -> None:
    """R23, precision first: "four old ploughs" are those four, and "steel-tipped
    ploughs" one kind of plough ("API-initiated evictions", "set-based selectors"): neither states a
    relation of ploughs; "one or more ploughs", "the new ploughs" and "built-in carts" still speak
    of the kind."""
    assert relations_of("The village starts with four old ploughs.", "village", "plough") == set()
    assert relations_of("The smith repairs the new steel-tipped ploughs.", "smith", "plough") == set()
    assert ("farmer", "owns", "plough") in relations_of("A farmer owns one or more ploughs.", "farmer", "plough")
    assert ("smith", "repairs", "plough") in relations_of("The smith repairs the new ploughs.", "smith", "plough")
    assert ("farmer", "owns", "cart") in relations_of("Farmers own the built-in carts.", "farmer", "cart")


def test_a_participle_right_after_an_argument_picks_some_like_a_relative_clause() -> None:
    """R23, precision first: "ploughs mended by another smith" are the ploughs "that are mended by
    another smith": what the sentence says of them is not said of ploughs; a participle set off by
    a comma adds to the name and picks none."""
    names = ("smith", "plough")
    assert relations_of("A smith ignores ploughs mended by another smith.", *names) == set()
    assert ("smith", "mends", "plough") in relations_of("A smith mends ploughs, bought by farmers.", *names)


def test_an_adjective_hung_on_the_object_as_part_of_its_name_picks_some() -> None:
    """R23, precision first: "The smith ignores unready ploughs …", with "unready" hung on the noun
    as a part of its name (the parser's sign of a word that picks some of the kind), says nothing
    of ploughs in general; the same sentence without it does."""
    sentence = "The smith ignores unready ploughs as he calculates the size of the field."
    assert relations_of(sentence, "smith", "plough") == set()
    assert ("smith", "ignores", "plough") in relations_of(
        "The smith ignores ploughs as he calculates the size of the field.", "smith", "plough"
    )


def test_a_default_a_case_or_a_moment_states_no_relation() -> None:
    """R23, precision first: what holds by default holds until someone configures it
    otherwise; "In case …" and "For a X to …" say when; a clause that picks a scenario or a point
    in time ("the point that the miller grinds …") tells which moment, not what is so."""
    names = ("miller", "grain", "mill")
    assert relations_of("By default, the miller sends the grain to the mill.", *names) == set()
    assert relations_of("In case the mill is closed, the miller takes the grain to the mill.", *names) == set()
    assert relations_of("For a grain to be milled, the miller cleans the mill.", *names) == set()
    assert relations_of("This avoids the scenario where a miller grinds grain twice.", *names) == set()
    assert relations_of("There is a gap between the point that the miller grinds grain and noon.", *names) == set()
    assert ("miller", "sends", "grain") in relations_of("The miller sends the grain to the mill.", *names)
    # a thing named with such a noun is still a thing
    assert ("hook", "stores", "grain") in relations_of("A hook is an extension point that stores grain.", "hook", "grain")


def test_the_way_something_is_done_states_no_relation() -> None:
    """R23, precision first: "The way the miller grinds grain is like a sieve" tells which way the
    sentence speaks of; "a way that sorts grain" says what the way does."""
    names = ("miller", "grain", "sieve")
    assert relations_of("The way the miller grinds grain is like a sieve.", *names) == set()
    assert ("sieve", "sorts", "grain") in relations_of("A sieve is a way that sorts grain.", *names)


def test_an_instruction_to_the_reader_states_no_relation() -> None:
    """R23, precision first: "Write a note that asks the miller to grind grain" tells the
    reader what to do; "Use a sieve to sift grain" still says what a sieve is for."""
    names = ("miller", "grain", "sieve", "ledger")
    assert relations_of("Write a script inside the mill that uses the ledger to count the grain.", *names) == set()
    assert relations_of("Take the previous example, and the grain specified in the ledger:", *names) == set()
    assert ("sieve", "is used to sift", "grain") in relations_of("Use a sieve to sift the grain.", *names)


def test_this_document_names_a_term_of_its_own() -> None:
    """R20: "This guide uses the term _cold frame_ …" speaks of the text itself, not of what the
    sentence before said: no sentence before is quoted with it."""
    assert not reading_of("This guide uses the term _cold frame_ to mean any glass box.", "cold frame").anaphoric
    assert reading_of("These boxes form a _cold frame_.", "cold frame").anaphoric


def test_a_reason_of_one_case_or_a_caused_step_states_no_relation() -> None:
    """R23, precision first: "Since the gate is open, the miller …" tells what follows
    in one case (or from one release on); "…, which causes the miller to grind the grain" is a step
    that follows another, and "… a way to make the miller grind the grain" what is brought about."""
    names = ("miller", "grain", "mill")
    assert relations_of("Since the gate is open, the miller takes the grain to the mill.", *names) == set()
    assert relations_of("This rings a bell, which causes the miller to grind the grain.", *names) == set()
    made = "Sluices are a way to make the miller grind the grain at night."
    assert relations_of(made, *names) == set()
    assert ("miller", "grinds", "grain") in relations_of("The miller grinds the grain, since it is dry.", *names)


def test_a_verdict_on_a_term_is_no_definition() -> None:
    """R20: "A ledger is a good fit for …", "… is a useful alternative" judge what the term is good
    for, "the preferred (recommended) way to …" which to choose; "A ledger is a useful record of …"
    still says what it is."""
    assert reading_of("A ledger is a good fit for keeping the grain records of a farm.", "ledger").rank > Rank.DEFINES
    assert reading_of("The ledger is the preferred way to keep the grain records.", "ledger").rank > Rank.DEFINES
    assert reading_of("Ledgers are the recommended record for a farm that sells grain.", "Ledgers").rank > Rank.DEFINES
    assert reading_of("For those, a ledger is a useful alternative to a tally stick.", "ledger").rank > Rank.DEFINES
    assert reading_of("A ledger is a useful record of the grain a farm sold.", "ledger").rank == Rank.DEFINES


def test_an_adjective_says_a_property_and_responsible_for_says_what_it_does() -> None:
    """R20: "Sheds are small", "Public barns on the farm are open to every visitor" tell a
    property, not what a shed or a barn is; "… is responsible for feeding …" what the keeper does."""
    assert reading_of("Sheds are small.", "Sheds").rank == Rank.MENTIONS
    assert reading_of("Public barns on the farm are open to every visitor.", "barns").rank == Rank.MENTIONS
    assert reading_of("Sheds without a lock are private to their owner.", "Sheds").rank == Rank.MENTIONS
    assert reading_of("The barn keeper is responsible for feeding the animals.", "keeper").rank == Rank.DESCRIBES


def test_a_noun_the_tagger_took_for_an_adjective_still_defines() -> None:
    """R20: in "A sheaf is a constant whose size never changes" the tagger reads "constant"
    as an adjective; an article and a relative clause make it the noun the sentence defines by."""
    sentence = "A sheaf is a constant whose size never changes."
    assert [w.pos for w in parsed(sentence).words if w.dep == "attr"] == ["ADJ"]  # the misread
    assert reading_of(sentence, "sheaf") == Reading("copula", Rank.DEFINES)


def test_a_subject_narrowed_by_a_participle_or_misparsed_describes_nothing() -> None:
    """R20: "Sacks filled by the miller are sealed …" speaks of some sacks; "The row a
    seed, bulb or cutting belongs to." is parsed with a subject under a subject — neither describes
    sacks or seeds; "Sacks keep the grain dry …" says what sacks do."""
    assert reading_of("Sacks filled by the miller are sealed with wax.", "Sacks").rank == Rank.MENTIONS
    assert reading_of("Sacks holding grain are stored in the dry barn.", "Sacks").rank == Rank.MENTIONS
    assert reading_of("The row a seed, bulb or cutting belongs to.", "seed").rank == Rank.MENTIONS
    # "Any sack …", "Every sack …": what holds of each one, as for what each one does
    assert reading_of("Any sack is allowed to hold rye.", "sack").rank == Rank.MENTIONS
    assert reading_of("Every sack is weighed at the mill door.", "sack").rank == Rank.MENTIONS
    assert reading_of("Sacks keep the grain dry and travel well.", "Sacks").rank == Rank.DEFINES


def test_what_a_thing_is_able_or_responsible_for_is_what_it_does() -> None:
    """R20: "Seed drills are able to sow …", "A seed drill is responsible for sowing …" say
    what it does; "… responsible for that" leaves what it does to the sentence before, and "Only
    winter drills …" speaks of some of them."""
    assert reading_of("Seed drills are able to sow a whole row at once.", "drills") == Reading("function", Rank.DEFINES)
    assert reading_of("A seed drill is responsible for sowing the rows.", "drill") == Reading("function", Rank.DEFINES)
    assert reading_of("Seed drills are responsible for that.", "drills").rank == Rank.MENTIONS
    assert reading_of("Only winter drills are able to sow frozen soil.", "drills").rank == Rank.DESCRIBES


def test_the_one_of_any_of_a_kind_is_a_kind() -> None:
    """R20: "The furrow is the first groove of a field" says what the furrow of any field
    is; "… of the field" speaks of one field."""
    assert reading_of("The furrow is the first groove of a field.", "furrow").rank == Rank.DEFINES
    assert reading_of("The furrow is the first groove of the field.", "furrow").rank == Rank.DESCRIBES


def test_a_kind_in_parentheses_after_the_term_glosses_it() -> None:
    """R20: "`Drill`s (machines built for sowing)" glosses the term with its kind, though only on
    the way to one example's fact after "For example,"; "(even bins with no lid)" is an aside on
    some bins, and "(the key)" names one thing."""
    assert reading_of("`Drill`s (machines built for sowing) are sold in spring.", "Drills") == Reading(
        "appositive", Rank.DEFINES
    )
    assert reading_of("For example, `Drill`s (machines built for sowing) are sold in spring.", "Drills") == Reading(
        "appositive", Rank.DESCRIBES
    )
    aside = "The farmer keeps bins of the `Oats` or `Rye` kinds (even bins with no lid) in the barn."
    assert reading_of(aside, "Oats").rank == Rank.MENTIONS
    assert reading_of("Use the first element (the key) to sort.", "element").rank == Rank.MENTIONS


def test_what_is_done_to_a_thing_describes_nothing() -> None:
    """R20: "Bales are stored in the loft as …", "Bale priority is specified by setting …" tell
    what is done to bales; "Bales are stacked in the loft, keep their shape and feed …" goes on with
    what they do."""
    assert reading_of("Bales are stored in the loft as tight blocks.", "Bales").rank == Rank.MENTIONS
    assert reading_of("Bale priority is specified by setting a tag on the bale.", "priority").rank == Rank.MENTIONS
    done_and_doing = "Bales are stacked in the loft, keep their shape and feed the cows all winter."
    assert reading_of(done_and_doing, "Bales").rank == Rank.DESCRIBES


def test_in_case_frames_a_circumstance() -> None:
    """R20: "In case you need to keep grain for years, *silos* should be used." says what to
    do then, like "If …": never a definition."""
    assert reading_of("In case you need to keep grain for years, *silos* should be used.", "silos").forward
    assert not reading_of("Silos keep grain dry for years.", "Silos").forward


def test_a_lead_into_what_follows_and_a_requirement_state_no_relation() -> None:
    """R23: "The miller grades sacks based on the following factors:" and "… in this order:" leave
    the statement to the list after them; "The miller must weigh the sacks" says what is required,
    not what is done. "The miller grades sacks by weight." states it."""
    assert relations_of("The miller grades sacks based on the following factors:", "miller", "sacks") == set()
    assert relations_of("The miller checks the sacks in this order:", "miller", "sacks") == set()
    assert relations_of("The miller must weigh the sacks.", "miller", "sacks") == set()
    assert relations_of("The miller weighs the sacks.", "miller", "sacks") == {("miller", "weighs", "sacks")}
    assert relations_of("The miller grades sacks by weight.", "miller", "sacks") == {("miller", "grades", "sacks")}


def test_a_further_feature_a_need_and_what_is_listed_below_define_nothing() -> None:
    """R20: "Furthermore, `Sower` provides …" adds one more thing it does, like "also";
    "Sower logs require a separate barn …" says what they need; "… a machine called `sow` summarized
    below:" leaves what it is to the list after it."""
    assert reading_of("Furthermore, `Sower` provides convenience functions.", "Sower").rank == Rank.DESCRIBES
    assert reading_of("`Sower` provides convenience functions.", "Sower").rank == Rank.DEFINES
    assert reading_of("Sower logs require a separate barn to store the records.", "logs").rank == Rank.MENTIONS
    listed = "The farm provides three tools plus a machine called `sow` summarized below:"
    assert reading_of(listed, "sow").forward


@pytest.mark.parametrize(
    "sentence",
    [
        "Use the hay press when you need tight bales.",
        "Only use the hay press if you have no baler that you can borrow.",
        "Note that like the baler, the hay press is also kept in the barn.",
    ],
)
def test_an_instruction_to_the_reader_defines_nothing(sentence: str) -> None:
    """R20: a sentence that tells the reader what to do ("Use X when …", "Only use X if …", "Note that
    X is …") says nothing of what X is; "A hay press is a machine that …" does."""
    assert reading_of(sentence, "hay press") == Reading("mention", Rank.MENTIONS)
    assert reading_of("A hay press is a machine that makes tight bales.", "hay press").rank == Rank.DEFINES
    glossed = reading_of("Clean the Hayloft - a barn loft for storing the hay.", "Hayloft")
    assert glossed.pattern == "appositive"


def test_what_a_term_may_be_or_one_user_uses_it_for_defines_nothing() -> None:
    """R20: "A hay bale may be a large roll …" says what one may be; "Hay bales are used by
    the miller to …" what one user does with them. "Hay bales are used to feed the herd in winter."
    says what they are for."""
    may_be = reading_of("A hay bale may be a large roll of dried grass.", "hay bale")
    assert may_be == Reading("mention", Rank.MENTIONS)
    used_by = reading_of("Hay bales are used by the miller to feed the herd in winter.", "Hay bales")
    assert used_by.pattern == "use" and used_by.rank == Rank.DESCRIBES
    assert reading_of("Hay bales are used to feed the herd in winter.", "Hay bales").pattern == "function"


def test_what_a_term_allows_for_is_no_definition() -> None:
    """R20: "Gate logs allow for quick counts …" say what gate logs make possible (a benefit, or a
    risk: "… allows for disclosure of …"), not what they are or do; "Ear tags allow the shepherd to
    count the flock" says what they are for."""
    benefit = reading_of("Gate logs allow for quick counts of the flock.", "Gate logs")
    assert benefit == Reading("mention", Rank.MENTIONS)
    assert reading_of("Ear tags allow the shepherd to count the flock.", "Ear tags").rank == Rank.DEFINES


def test_what_the_reader_can_do_with_a_term_defines_nothing() -> None:
    """R20: "You can also run _seed drills_, which are machines that …" and "You can also get the raw
    tallies, just a list of …" say what the reader can do with the term, however the sentence glosses
    it; "Seed drills are machines that sow seeds in rows." defines it."""
    run = "You can also run _seed drills_, which are machines that sow seeds in rows."
    assert reading_of(run, "seed drills") == Reading("mention", Rank.MENTIONS)
    get = "You can also get the raw tallies, just a list of numbers with every sheep counted at the gate."
    assert reading_of(get, "raw tallies") == Reading("mention", Rank.MENTIONS)
    assert reading_of("Seed drills are machines that sow seeds in rows.", "Seed drills").rank == Rank.DEFINES


def test_what_a_term_uses_or_needs_defines_nothing() -> None:
    """R20: "Hay carts use wooden wheels to roll." says what a hay cart uses, as "… require a
    horse" says what it needs; "Hay carts carry hay to the barn." says what they do."""
    assert reading_of("Hay carts use wooden wheels to roll on the field.", "Hay carts").rank == Rank.MENTIONS
    assert reading_of("Hay carts require a horse to pull them.", "Hay carts").rank == Rank.MENTIONS
    assert reading_of("Hay carts carry hay to the barn.", "Hay carts").rank == Rank.DESCRIBES


def test_one_naming_of_several_names_defines_none_of_them() -> None:
    """R20: "The two sheds are called `north_shed` and `south_shed`." leaves to the reader which shed
    each name is, and so does "…, respectively"; "a set of machines, called ploughs, that …" names one."""
    assert reading_of("The two sheds are called `north_shed` and `south_shed`.", "north_shed").rank == Rank.MENTIONS
    respectively = "The year has two seasons called Sowing and Reaping, respectively."
    assert reading_of(respectively, "Sowing").rank == Rank.MENTIONS
    one = reading_of("A farm has a set of machines, called ploughs, that turn the soil.", "ploughs")
    assert (one.pattern, one.rank) == ("called", Rank.DEFINES)
    other = reading_of("These tools that cut the grain are also called a **sickle** or a **scythe**.", "sickle")
    assert (other.pattern, other.rank) == ("called", Rank.DEFINES)  # two names of one thing


def test_how_or_by_what_default_a_term_works_defines_nothing() -> None:
    """R20: "By design, a hay cart is …" and "… is specified by setting the `carts` field" say how,
    or by what default; "A hay cart is a cart that carries hay to the barn." defines it."""
    designed = reading_of("By design, a hay cart is a cart that carries hay to the barn.", "hay cart")
    assert designed == Reading("mention", Rank.MENTIONS)
    assert reading_of("A hay cart is a cart that carries hay to the barn.", "hay cart").rank == Rank.DEFINES


def test_one_job_people_do_with_a_tool_is_not_what_it_is_for() -> None:
    """R20: "Farm developers use the `Drill` tool to sow rows." and "You use seed drills to sow
    rows …" tell one job people do with it; "We use `Drill` whenever we want to sow …" says when it is
    the thing to use, what it is for; "Many developers use …" speaks of some."""
    assert reading_of("Farm developers use the `Drill` tool to sow rows.", "Drill").rank != Rank.DEFINES
    assert reading_of("You use seed drills to sow rows rather than to plough.", "seed drills").rank != Rank.DEFINES
    whenever = reading_of("We use `Drill` whenever we want to sow rows without a plough.", "Drill")
    assert whenever == Reading("function", Rank.DEFINES)
    naming = reading_of("We'll use *seed drill* to refer to those drills that sow in rows.", "seed drill")
    assert naming.rank == Rank.DEFINES
    assert reading_of("Many developers use the `Drill` tool to sow rows.", "Drill").rank == Rank.MENTIONS


@pytest.mark.parametrize(
    "sentence, term",
    [
        ("Many granaries store barley through the winter.", "granaries"),
        ("Several ploughs can also be used to break frozen soil.", "ploughs"),
        ("Multiple harrows can be pulled by one tractor to cover a wide field.", "harrows"),
        ("Other sheds provide a dry place for the hay.", "sheds"),
    ],
)
def test_many_several_or_multiple_of_a_kind_say_nothing_of_the_kind(sentence: str, term: str) -> None:
    """R20, precision first: the tagger reads "many", "several", "multiple" and "other"
    before a noun as adjectives, not determiners; they pick some of the kind all the same, as
    "Some granaries …" does, so the sentence only mentions it."""
    assert reading_of(sentence, term).rank == Rank.MENTIONS
    assert reading_of("A granary stores barley through the winter.", "granary").rank != Rank.MENTIONS


def test_an_emphasized_term_that_each_one_has_or_some_of_is_not_introduced() -> None:
    """R20, precision first: technical prose emphasizes a term where it introduces it,
    but not where the sentence says what every one of another kind has ("Every farm object also has
    a _tag_ …") or may do ("Any shed can enable *dry mode* if …"), nor where it counts some of them
    ("multiple _tines_"); "Linux uses *capabilities* to …" still introduces its term."""
    assert reading_of("Every farm object also has a _tag_ that is unique across the valley.", "tag").rank == Rank.MENTIONS
    assert reading_of("Any shed on a farm can enable *dry mode* if you set the dry field.", "dry mode").rank == Rank.MENTIONS
    assert reading_of("A harrow can be made of multiple _tines_ which are comma-separated.", "tines").rank == Rank.MENTIONS
    assert reading_of("Linux uses *capabilities* to divide the privileges into categories.", "capabilities").rank == Rank.DEFINES


def test_an_emphasized_term_used_on_the_way_is_not_introduced() -> None:
    """R20, precision first: an emphasized term the sentence compares ("the difference
    between _hayseed_ and _chaff_"), gives as a reason ("because they have *dry floors*"), makes the
    subject of an elided verb ("whereas _barn extensions_ do") or reaches as the means of something
    else ("by adding a _tarp_") is used there, not introduced; "_Barn extensions_ do the work of …"
    says what they do."""
    assert reading_of("The difference between _hayseed_ and _chaff_ is what the sieve keeps.", "chaff").rank == Rank.MENTIONS
    sheds = "Keep in mind the first three are called sheds because they have *dry floors*, while barns are open."
    assert reading_of(sheds, "dry floors").rank == Rank.MENTIONS
    whereas = "Adding a shed does not let you change existing barns, whereas _barn extensions_ do."
    assert reading_of(whereas, "barn extensions").rank == Rank.MENTIONS
    assert reading_of("You can keep the hay dry by adding a _tarp_ over each stack.", "tarp").rank == Rank.MENTIONS
    assert reading_of("_Barn extensions_ do the work of a barn for a smaller herd.", "Barn extensions").rank == Rank.DEFINES


def test_a_part_of_something_is_where_it_belongs() -> None:
    """R20: "is a central part of the barn" says how much the hayloft matters there, where
    "a part that breaks the soil" and "a reusable part of the harrow" say what a tine is."""
    assert reading_of("A hayloft is a central part of the barn.", "hayloft").rank > Rank.DEFINES
    assert reading_of("Haylofts are an important part of every barn.", "Haylofts").rank > Rank.DEFINES
    assert reading_of("A tine is a part that breaks the soil.", "tine").rank == Rank.DEFINES
    assert reading_of("A tine is a reusable part of the harrow.", "tine").rank == Rank.DEFINES


def test_a_relative_clause_whose_verb_disagrees_in_number_is_another_nouns() -> None:
    """R20: in "Leases are kept in the tool shed, which are used for heavy tools" the
    plural verb makes the leases the subject of the clause, not the shed; "…, which is used for …"
    says what the shed is for."""
    assert reading_of("Leases are kept in the tool shed, which are used for heavy tools.", "tool shed").rank == Rank.MENTIONS
    assert reading_of("Tools are kept in the tool shed, which is used for heavy tools.", "tool shed").rank == Rank.DEFINES
    # a name is plural by its ending, whatever the tagger says ("`Barrow`s" reads as NNP)
    assert reading_of("The farm provides `Barrow`s, which are simple carts with one wheel.", "Barrows").rank == Rank.DEFINES


def test_a_benefit_against_something_else_describes_but_does_not_define() -> None:
    """R20: "Irrigation allows better use of water" tells a benefit, better than what came
    before; "Irrigation allows the use of water …" what it does."""
    assert reading_of("Irrigation allows better use of water on a dry farm.", "Irrigation").rank == Rank.DESCRIBES
    assert reading_of("Irrigation allows the use of water on a dry farm.", "Irrigation").rank == Rank.DEFINES


def test_this_command_of_a_tool_is_one_command_not_the_tool() -> None:
    """R20: "This `seedctl` command selects every bed …" is what one command line does;
    "The `seedctl` tool selects …" says it of the tool."""
    assert relations_of("This `seedctl` command selects every Bed in the garden.", "seedctl", "Bed") == set()
    assert relations_of("The `seedctl` tool selects every Bed in the garden.", "seedctl", "Bed") == {
        ("seedctl", "selects", "Bed")
    }


@pytest.mark.parametrize(
    "sentence",
    [
        # the root read as a plural noun, though a later clause has verbs
        "Seed rotation tidies up old beds from your garden after their crop has been removed.",
        # the verb read right, the subject read as its compound, leaving it no subject
        "Crop rotation tidies up the soil of a field after its harvest has been taken.",
    ],
)
def test_a_subject_the_model_read_into_the_verb_is_read_again_as_the_subject(sentence: str) -> None:
    """R20: two more misreadings of the small model, repaired as a verbless sentence is:
    the sentence is parsed again with a pronoun for the subject, and the subject is the verb's."""
    parse = parsed(sentence)
    words = {w.text: w for w in parse.words}
    assert words["tidies"].pos == "VERB" and words["tidies"].dep == "ROOT"
    assert words["rotation"].dep == "nsubj" and words["rotation"].head == words["tidies"].i
    assert reading_of(sentence, "rotation").rank == Rank.DESCRIBES


def test_a_subject_narrowed_or_made_in_an_example_describes_some_not_the_kind() -> None:
    """R20: "Any granary that holds the barley above will be able to …" says what some
    granaries can do, and "The filled granary will hold …" what the one just filled does: neither
    is what "the" one named does, which outranks a plain description of the kind."""
    narrowed = reading_of("Any granary that holds the barley above will be able to feed the village.", "granary")
    assert narrowed.rank == Rank.DESCRIBES and not narrowed.of_the_one
    made = reading_of("The filled granary will hold the new harvest of the farm.", "granary")
    assert made.rank == Rank.DESCRIBES and not made.of_the_one
    assert reading_of("The granary will hold the new harvest of the farm.", "granary").of_the_one


def test_one_of_two_alternatives_is_not_stated() -> None:
    """R20: "… writes to either the Alert board or the Bed log" says it writes to one or
    the other: no relation to either; "… writes to the Alert board" is one."""
    names = ("seed counter", "Alert board", "Bed log")
    assert relations_of("The seed counter writes to either the Alert board or the Bed log.", *names) == set()
    assert relations_of("The seed counter writes to the Alert board.", *names) == {
        ("seed counter", "writes to", "Alert board")
    }


def test_a_clause_after_a_bracket_of_examples_qualifies_the_noun_before_it() -> None:
    """R20: in "Garden machines (e.g. `seeder`, `tiller`, or other tools) which sow beds
    must …" the clause picks the machines that sow; it says nothing of `seeder` or `tiller`."""
    text = "Garden machines (e.g. `seeder`, `tiller`, `mower`, or other farm tools) which sow Beds must carry a tag."
    assert relations_of(text, "seeder", "tiller", "Beds") == set()
    assert relations_of("The `seeder`, which sows Beds, carries a tag.", "seeder", "Beds") == {("seeder", "sows", "Beds")}


def test_a_term_of_the_one_just_named_or_where_a_term_belongs_does_not_define_it() -> None:
    """R20: "Direct access to this barn lets …" says what access to one barn does, and
    "Acme seed tracking is part of how …" where seed tracking belongs: neither defines the term;
    "Direct access to the barn lets …" and "… is a record of …" do."""
    assert reading_of("Direct access to this barn lets farmers take grain.", "access").rank == Rank.DESCRIBES
    assert reading_of("Direct access to the barn lets farmers take grain.", "access").rank == Rank.DEFINES
    assert reading_of("Acme seed tracking is part of how the farm plans its beds.", "seed tracking").rank == Rank.MENTIONS
    assert reading_of("Acme seed tracking is a record of how the farm plans its beds.", "seed tracking").rank == Rank.DEFINES


def test_an_object_the_model_read_apart_from_its_noun_only_qualifies_it() -> None:
    """R20: "… a pluggable design for the Acme planter", read with "Acme" as the object of
    "for" and "planter" hung on the verb as a clause (as the small model reads some such phrases),
    relates nothing to Acme: the noun right after it is what it qualifies."""
    text = "The seed framework is a pluggable design for the Acme planter."
    misread = reshaped(text, {"Acme": ("pobj", "for"), "planter": ("advcl", "is")})
    assert ("seed framework", "is design for", "Acme") not in hand_relations(misread, "seed framework", "Acme")
    read_right = "The seed framework is a pluggable design for Acme."
    assert ("seed framework", "is design for", "Acme") in relations_of(read_right, "seed framework", "Acme")


def test_what_a_term_does_weighed_against_what_it_may_not_do_describes_it() -> None:
    """R20: "Seed planners enable bed rotation, but might not satisfy all use-cases"
    weighs what they do against what they may not: a description, not a definition; "… and
    satisfy all farms" is what they do."""
    assert reading_of("Seed planners enable bed rotation, but might not satisfy all use-cases.", "Seed planners").rank == Rank.DESCRIBES
    assert reading_of("Seed planners enable bed rotation, but do not satisfy all farms.", "Seed planners").rank == Rank.DESCRIBES
    assert reading_of("Seed planners enable bed rotation and satisfy all farms.", "Seed planners").rank == Rank.DEFINES


def test_a_label_read_as_the_subject_of_an_instruction_is_not_what_it_does() -> None:
    """R20: "Silo: Create a silo …", read with the label as the subject of "Create" (as
    the small model reads some such entries), tells the reader what to do: no definition of the
    label; "Silos create …" says what silos do."""
    misread = reshaped("Silo: Create a silo with a wide roof.", {"Silo": ("nsubj", "Create"), "Create": ("ROOT", None)})
    head = next(w for w in misread.words if w.text == "Silo")
    assert read(misread, head).rank != Rank.DEFINES
    assert reading_of("Silos create a dry store for the grain of a farm.", "Silos").rank == Rank.DEFINES


def test_what_the_objects_of_a_named_kind_do_is_what_the_kind_does() -> None:
    """R20: "GrainSilo objects define …" says what a GrainSilo is — an identifier (code
    or CamelCase) right before "objects" or "resources" names the kind; a plain noun before them
    ("barn objects") is a modifier still, and a GrainSilo named in another noun's phrase mentions it."""
    defined = reading_of("GrainSilo objects describe the grain that a farm keeps.", "GrainSilo")
    assert (defined.pattern, defined.rank) == ("function", Rank.DEFINES)
    assert reading_of("`GrainSilo` resources describe the grain that a farm keeps.", "GrainSilo").rank == Rank.DEFINES
    assert reading_of("Barn objects describe the grain that a farm keeps.", "Barn").rank != Rank.DEFINES
    assert reading_of("The name of a GrainSilo object must be short.", "GrainSilo").rank != Rank.DEFINES


def test_where_a_verb_sends_a_concept_its_object_is_part_of_the_predicate() -> None:
    """R23: "The loader assigns crates to barns" does not assign the loader to barns: the
    object, a concept of its own, stays in the predicate of the prepositional relation."""
    found = relations_of("The loader assigns crates to barns.", "loader", "crates", "barns")
    assert ("loader", "assigns", "crates") in found
    assert ("loader", "assigns crates to", "barns") in found and ("loader", "assigns to", "barns") not in found


def test_quoted_words_given_as_examples_of_words_are_the_words_themselves() -> None:
    """R20: "… a label that contains words such as “grain” or “straw”" speaks of the
    words, not of grain: the quoted examples of words are no definition of them."""
    text = "A crate is never sent back because its label contains words such as “grain” or “straw”."
    parse = parsed(text)
    for term in ("grain", "straw"):
        head = next(w for w in parse.words if w.text == term)
        assert read(parse, head, marked=True).rank == Rank.MENTIONS


def test_the_same_thing_is_the_one_already_spoken_of() -> None:
    """R20: "Two carters can load the same wagon: a farmer …, and a second farmer …"
    introduces no wagon (and the list after the colon names the carters, not what a wagon is)."""
    text = "Two carters can load the same wagon: a farmer with a cart, and a second farmer who came later."
    assert reading_of(text, "wagon").rank == Rank.MENTIONS


def test_one_item_of_a_list_is_no_appositive_of_the_item_before_it() -> None:
    """R20: "The ledger records a crate id, the crate weight, a price, the buyer and the
    date" lists what it records; "the crate weight" is no gloss of the id, nor "a price" of the weight.
    "Fennel, a herb with a strong taste, grows …" still glosses its term."""
    listed = "The ledger records a crate id, the crate weight, a price, the buyer and the date."
    assert reading_of(listed, "crate weight").rank != Rank.DEFINES
    assert reading_of("Fennel, a herb with a strong taste, grows in dry soil.", "Fennel").rank == Rank.DEFINES


def test_a_pointed_subject_is_the_one_the_sentence_before_named() -> None:
    """R20: "This fence is a rule of the farm as much as a wall" says it of the fence the sentence
    before set up, not of fences: it only mentions the term. "A fence is a wall of posts …" defines it."""
    assert reading_of("This fence is a rule of the farm as much as a wall.", "fence") == Reading(
        "mention", Rank.MENTIONS
    )
    assert reading_of("A fence is a wall of posts around a field.", "fence") == Reading("copula", Rank.DEFINES)


def test_what_follows_a_colon_after_the_class_is_what_the_one_thing_holds() -> None:
    """R23, on a parse spaCy really gives: "A harvest is one stored version of the crop:
    the ledger plus every sack, bale and basket, …" read with "ledger" a second complement of "is"
    makes the harvest a version; the ledger, sacks, bales and baskets after the colon are what it
    holds, not kinds the harvest is."""
    text = "A harvest is one stored version of the crop: the ledger plus every sack, bale and basket, kept in one barn."
    misparsed = reshaped(text, {"ledger": ("attr", "is")})
    found = hand_relations(misparsed, "harvest", "version", "ledger", "sack", "bale", "basket")
    assert ("harvest", "is a", "version") in found
    assert not {r for r in found if r[1] == "is a" and r[2] != "version"}, found


def test_a_noun_after_a_comma_and_and_opens_a_clause_not_a_list_of_objects() -> None:
    """R23: "Old crates stay in the barn, and the ledger inside the shed notes, for every
    crate, …" — the parser hangs "ledger" on "stay" as if it were a second place the crates stay;
    after ", and" it is the subject of a clause the parser did not build. Without the comma the
    repair for a noun the parser hung on the verb ("hedges" on "builds") still holds."""
    found = relations_of(
        "Old crates stay in the barn, and the ledger inside the shed notes, for every crate, the field that grew it.",
        "crate", "ledger", "barn",
    )
    assert found == {("crate", "stays in", "barn")}
    hung = reshaped("`plough` builds on seed rows and hedges to dig and turn on certain fields.", {"and": ("cc", "builds"), "hedges": ("conj", "builds")})
    assert {("plough", "builds on", "seed row"), ("plough", "builds on", "hedge")} <= hand_relations(
        hung, "plough", "seed row", "hedge"
    )


def test_a_participle_read_as_a_passive_verb_with_an_object_qualifies_the_noun() -> None:
    """R23, on a parse spaCy really gives: "… and its edges are evidenced relations only"
    read as the passive "are evidenced" with the object "relations" says what the edges are (a
    passive takes no object); "The silos were given names …" keeps its object."""
    text = "Its fields are meadows only, and its paths are trodden tracks only."
    misparsed = reshaped(
        text, {"paths": ("nsubjpass", "trodden"), "trodden": ("conj", "are"), "tracks": ("dobj", "trodden")}
    )
    misparsed = Parse(misparsed.text, tuple(
        replace(w, dep="auxpass", head=w.i + 1) if w.text == "are" and w.i > 6 else
        replace(w, tag="VBN", pos="VERB", lemma="tread") if w.text == "trodden" else w
        for w in misparsed.words
    ))
    found = hand_relations(misparsed, "field", "meadow", "path", "track")
    assert ("path", "is a", "track") in found and not any(r[1] == "is trodden" for r in found)
    assert ("silo", "is given", "name") in relations_of("The silos were given names by the farmer.", "silo", "name", "farmer")


def test_a_definition_list_entry_keeps_its_gloss_whatever_list_the_parser_sees_in_it() -> None:
    """R20: "Harvest" / ": A gathered crop or yield with sacks, a date, a weight and a
    buyer." defines the harvest, however the parser hangs the list inside it; an instruction that
    opens with a word and lists examples ("Lookup a record (MX, NS, ...) of a host:") does not."""
    entry = "Harvest\n:   A gathered crop or yield with sacks, a date, a weight and a buyer."
    assert reading_of(entry, "Harvest").rank == Rank.DEFINES
    assert reading_of("Lookup a record (MX, NS, ...) of a host:", "Lookup").rank != Rank.DEFINES


def test_a_term_marked_as_the_means_of_another_thing_is_put_to_use() -> None:
    """R20: "Millers grind the grain, with the sorting handled by the farm via _seed
    sieves_ (new this year)." says what the sieves are used for, not what they are; "… a new machine that lets millers sort
    the seeds via _seed sieving_" names what the machine does."""
    text = "Millers grind the grain, with the sorting of seeds handled by the farm via _seed sieves_ (introduced this year)."
    assert reading_of(text, "seed sieves").rank != Rank.DEFINES
    named = "The farm has a new machine that lets millers sort the seeds via _seed sieving_."
    assert reading_of(named, "seed sieving").rank == Rank.DEFINES


def test_what_the_term_will_be_in_the_example_at_hand_is_no_definition() -> None:
    """R20: "`ledger-cli`: will be the name of the program." and "Here, `row` will be a copy of the
    last row." say what the example at hand will do, never what the term is; a "will" in a clause of
    its own leaves the definition standing."""
    for sentence, term in [
        ("`ledger-cli`: will be the name of the program.", "ledger-cli"),
        ("Here, `row` will be a copy of the last row.", "row"),
        ("The keeper will write the row to the ledger.", "keeper"),
    ]:
        assert reading_of(sentence, term).forward, sentence
    sentence = "A ledger is a record of rows: once you write a row, the keeper will keep it."
    reading = reading_of(sentence, "ledger")
    assert (reading.pattern, reading.rank, reading.forward) == ("copula", Rank.DEFINES, False)


def test_a_thing_the_reader_acts_on_named_in_passing_is_no_definition() -> None:
    """R20: "… you keep the rows in a file known as a _ledger_", "It is possible to order quills
    (called goose quills), but …" and "… allows you to write books with several parts (also known as
    volumes)" name a thing the reader acts on, and "We want the press to create a book called
    `year-book`" one the reader wants made: the sentence says what the reader does, not what the
    thing is. What a thing has ("Ledgers have a standard format called a "folio"") stays named."""
    for sentence, term in [
        ("Most often, you keep the rows in a file known as a _ledger_.", "ledger"),
        ("It is possible to order quills from the shop (called goose quills), but this is rare.", "goose quills"),
        ("But **Scribe** allows you to write books with several parts (also known as volumes).", "volumes"),
        ("We want the press to create a printed book called `year-book`.", "year-book"),
    ]:
        assert reading_of(sentence, term).rank == Rank.MENTIONS, sentence
    reading = reading_of('Ledgers have a standard format called a "folio".', "folio")
    assert (reading.pattern, reading.rank) == ("called", Rank.DEFINES)


def test_a_thing_named_on_the_way_to_something_else_is_no_definition() -> None:
    """R20: "… open Acme's bookkeeping shell, called Abacus", "… look no further than the farm's
    seed counter called `Tally`", "… in a process called _Binding_" name an object on the way to
    something else and say nothing of what it is; "… worker machines, called nodes, that run …" and
    "… a "seed box" called "tray box"" (a member of a quoted term) still name what they define."""
    for sentence, term in [
        ("This chapter shows how you can open Acme's bookkeeping shell, called Abacus.", "Abacus"),
        ("To see an example, look no further than the farm's seed counter called `Tally`.", "Tally"),
        ("The miller then tells the baker about this order in a process called _Binding_.", "Binding"),
    ]:
        assert reading_of(sentence, term).rank == Rank.MENTIONS, sentence
    for sentence, term in [
        ("A farm consists of a barn plus a set of fields, called plots, that grow the crops.", "plots"),
        ('The farmer puts the seeds into a "seed box" called "tray box".', "tray box"),
    ]:
        assert reading_of(sentence, term).pattern == "called", sentence


def test_a_term_the_text_before_introduced_is_not_introduced_by_its_emphasis() -> None:
    """R20: "… and **entry** to refer to one of these "sub-entries" of your ledger" and "The keeper
    adds these *sub-entries* …" stress a word the text before introduced; the same word without
    "these" is introduced here."""
    sentence = "Here I use **book** to refer to the whole ledger, and **entry** to refer to one of these *sub-entries* of it."
    assert reading_of(sentence, "sub-entries").rank == Rank.MENTIONS
    assert reading_of("The keeper adds these *sub-entries* every day.", "sub-entries").rank == Rank.MENTIONS
    assert reading_of("The keeper adds *sub-entries* every day.", "sub-entries").pattern == "emphasis"


def test_members_that_share_a_modifier_the_kind_lacks_name_its_narrower_sense() -> None:
    """R23 (senses): "the containers (*farm crates* and *farm boxes*)" says which containers the
    sentence means, the farm ones, a narrower sense than the bare kind: no member is made a kind of
    "Container". A kind that carries the shared modifier, or members that share none, classify."""
    names = ("Farm crate", "Farm box", "Container", "Farm container", "Crate")
    narrowed = "You stack the containers (*farm crates* and *farm boxes*) by size."
    assert not {r for r in relations_of(narrowed, *names) if r[1] == "is a"}
    same = "You stack the *farm containers* (*farm crates* and *farm boxes*) by size."
    assert ("Farm crate", "is a", "Farm container") in relations_of(same, *names)
    plain = "You stack the containers (*crates* and *farm boxes*) by size."
    assert ("Farm box", "is a", "Container") in relations_of(plain, *names)


def test_a_subject_narrowed_by_a_participle_or_a_for_states_nothing_of_its_kind() -> None:
    """R20/R23: "The keeper tending the big book checks the rows" and "A keeper for big books checks
    the rows" speak of some keepers, picked out by what follows the noun; an aside set off by commas
    ("The keeper, using the big book, checks …") and the bare kind still state a relation."""
    names = ("Keeper", "Row")
    for sentence in [
        "The keeper tending the big book checks the rows.",
        "A keeper for big books checks the rows.",
    ]:
        assert not relations_of(sentence, *names), sentence
    for sentence in [
        "The keeper, using the big book, checks the rows.",
        "A keeper checks the rows.",
    ]:
        assert ("Keeper", "checks", "Row") in relations_of(sentence, *names), sentence


def test_another_name_in_brackets_defines_only_the_subject_it_follows() -> None:
    """R20, R25: "Acme tags are short unique codes (also known as ear marks)" and "Part of the Acme
    toolkit (also known as Acmekit)" give another name of a noun the sentence does not define: the bracketed
    name is not what the sentence says a thing is. After the subject ("A ledger row (also known as a
    line) is …") the sentence defines it, and "generic servers (called `Barn`) that …" names one of
    them."""
    for sentence, term in [
        ("Acme tags are short unique codes (also known as ear marks).", "ear marks"),
        ("Part of the Acme toolkit (also known as Acmekit).", "Acmekit"),
        ("This command refers to Plough version 6 and above (also known as Plough Core).", "Plough Core"),
    ]:
        assert reading_of(sentence, term).pattern != "called", sentence
    reading = reading_of("A ledger row (also known as a line) is a record of one sale.", "line")
    assert (reading.pattern, reading.rank) == ("called", Rank.DEFINES)
    reading = reading_of("The farm offers an API for building generic servers (called `Barn`) that store the grain.", "Barn")
    assert (reading.pattern, reading.rank) == ("called", Rank.DEFINES)


def test_members_offered_as_a_kind_say_not_what_the_kind_is() -> None:
    """R20, precision first: "The farm provides `plough` and `harrow` as tools" says which members
    are of the kind, not what a tool is; "The farm provides tools as a means for tilling" says what
    the offered thing is for."""
    reading = reading_of("The farm provides `plough` and `harrow` as tools.", "tools")
    assert reading.rank == Rank.MENTIONS
    reading = reading_of("The farm provides tools as a means for tilling the soil.", "tools")
    assert (reading.pattern, reading.rank) == ("copula", Rank.DEFINES)


def test_two_nouns_joined_by_and_take_no_singular_verb() -> None:
    """R23, precision first, on a parse spaCy really gives: in "The farm object defines a Crop
    template and a tractor for the farm creates Crops …" the parser joined the object of one clause
    to the subject of the next, and "creates", singular, cannot have "template and tractor" as its
    subject; with a plural verb the two nouns are one subject."""
    text = "The farm object defines a Crop template and a tractor for the farm creates Crops."
    misparsed = reshaped(text, {"template": ("nsubj", "creates"), "creates": ("ccomp", "defines")})
    assert hand_relations(misparsed, "Crop template", "Crops") == set()
    assert ("Crop template", "creates", "Crops") in relations_of(
        "The Crop template and the Tractor create Crops.", "Crop template", "Crops", "Tractor"
    )


def test_a_clause_after_such_as_is_an_example_and_states_nothing() -> None:
    """R20, precision first: in "Acme leverages client certificate authentication for system
    components, such as when the Clerk authenticates to the Ledger" the clause after "such as" is one
    example case of the first, not a fact of its own; said as the main clause it is one."""
    assert (
        relations_of(
            "Acme leverages client certificate authentication for system components, such as when the"
            " Clerk authenticates to the Ledger.",
            "Clerk",
            "Ledger",
        )
        == set()
    )
    assert ("Clerk", "authenticates to", "Ledger") in relations_of(
        "The Clerk authenticates to the Ledger with a client certificate.", "Clerk", "Ledger"
    )


def test_a_successor_and_a_usual_member_are_no_members_of_the_kind() -> None:
    """R23, precision first: "The Seeder is the next-generation Planter" names what replaces the
    planter, not one of them; "… run within barns (usually Hay Barns)" says which ones as a rule,
    not a list of members. "The Seeder is a Planter" and "… within barns (Hay Barns)" still are."""
    assert relations_of("The Seeder is the next-generation Planter that sows two rows.", "Seeder", "Planter") == set()
    assert ("Seeder", "is a", "Planter") in relations_of("The Seeder is a Planter that sows two rows.", "Seeder", "Planter")
    assert relations_of("The tools run within barns (usually Hay Barns).", "Hay Barns", "barns") == set()
    assert ("Hay Barns", "is a", "barns") in relations_of("The tools run within barns (Hay Barns).", "Hay Barns", "barns")


def test_the_one_told_and_a_further_feature_say_not_what_a_term_is() -> None:
    """R20, precision first: "Using `wide=True` tells **Plough** that the output …" names the one
    told, and "Plough has many other features" adds to what was said of it: neither says what
    Plough is. "**Plough** tills the soil …" does, and "Plough has two blades …" describes it."""
    told = reading_of('Using `wide=True` tells **Plough** that the output should be shown in "wide mode".', "Plough")
    assert told.rank == Rank.MENTIONS
    further = reading_of("Plough has many other features, as an example, you can check the docs for:", "Plough")
    assert further.rank == Rank.MENTIONS
    assert reading_of("**Plough** tills the soil of a field before sowing.", "Plough").rank == Rank.DEFINES
    assert reading_of("Plough has two blades for the soil.", "Plough").rank == Rank.DESCRIBES


def test_what_does_the_term_to_itself_explains_nothing() -> None:
    """R20, precision first: "`mode`: controls the "mode" to open the barn with" explains the term by
    itself; "`lock`: controls the gate of the barn" says what it does."""
    assert reading_of('* `mode`: controls the "mode" to open the barn with.', "mode").rank == Rank.MENTIONS
    assert reading_of("* `lock`: controls the gate of the barn.", "lock").rank == Rank.DEFINES


def test_a_pair_that_is_one_way_states_nothing_of_each() -> None:
    """R23, precision first: "Fences and gates are a flexible way to keep sheep in the meadow": the
    pair is one way, and neither alone keeps the sheep in; "Fences are a flexible way to keep sheep
    …" says it of fences, and "Fences and gates are barriers" makes each one a barrier."""
    pair = "Fences and gates are a flexible way to keep sheep in the meadow."
    assert relations_of(pair, "Fences", "gates", "sheep") == set()
    assert ("Fences", "is way to keep", "sheep") in relations_of(
        "Fences are a flexible way to keep sheep in the meadow.", "Fences", "sheep"
    )
    assert ("gates", "is a", "barriers") in relations_of("Fences and gates are barriers.", "Fences", "gates", "barriers")


def test_another_name_in_brackets_is_no_member_of_the_kind() -> None:
    """R23, R25: "a literal `--depth` plough (also known as "digger")" gives that plough another
    name; the name is no member of ploughs. "a plough called `digger`" is one."""
    bracketed = 'The farm looks for a literal `--depth` plough (also known as "digger" or "ripper") in the shed.'
    assert relations_of(bracketed, "digger", "plough") == set()
    assert ("digger", "is a", "plough") in relations_of("The farm keeps a plough called `digger` in the shed.", "digger", "plough")


def test_a_bare_verb_read_as_present_tense_is_still_an_instruction() -> None:
    """R20, on a tag spaCy really gives ("To start developing Starlette, create a **fork** of …" tags
    "create" VBP): a root verb with no subject is an instruction whether tagged VB or VBP, so the
    emphasized term in it is not introduced. "Farmers create a seed bank …" has its subject, and
    "There are seed banks …" its "there"."""
    from wikigen.engines.offline.frames import is_imperative

    def as_present(text: str) -> Parse:
        parse = parsed(text)
        return Parse(parse.text, tuple(replace(w, tag="VBP") if w.dep == "ROOT" else w for w in parse.words))

    assert is_imperative(as_present("To start farming, create a seed bank of the grains on the hill."))
    assert not is_imperative(as_present("Farmers create a seed bank of the grains on the hill."))
    assert not is_imperative(parsed("There are seed banks of the grains on the hill."))


@pytest.mark.parametrize(
    ("sentence", "term", "reading"),
    [
        (
            "Granville includes a `Ledger` class that keeps the accounts of every farm.",
            "Ledger",
            Reading("function", Rank.DEFINES),
        ),
        ("Granville includes a `Ledger` class for the accounts of every farm.", "Ledger", Reading("function", Rank.DEFINES)),
        (
            "Granville includes the `Ledger` class that keeps the accounts of every farm.",
            "Ledger",
            Reading("mention", Rank.MENTIONS),
        ),
        ("Granville includes records that keep the accounts of every farm.", "records", Reading("mention", Rank.MENTIONS)),
        (
            "Granville provides a `tally` method to count the sheaves of a field.",
            "Granville",
            Reading("function", Rank.DESCRIBES),
        ),
        ("Granville provides a ledger to count the sheaves of a field.", "Granville", Reading("function", Rank.DEFINES)),
    ],
)
def test_a_member_offered_with_what_it_does_is_defined_by_it(sentence: str, term: str, reading: Reading) -> None:
    """R20: "Granville includes a `Ledger` class that keeps …" (or "… class for the accounts …") says
    what the offered member does, as "Starlette includes a `Request` class that gives you …" does;
    "the `Ledger` class that …" picks one, and a plain plural ("records that keep …") some. The one
    that offers a member written as code ("Granville provides a `tally` method to …") is described by
    it, not defined: the sentence is about the member."""
    assert reading_of(sentence, term) == reading
