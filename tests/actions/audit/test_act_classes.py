"""Verbs that name one act: the listed classes, read on stems and on irregular forms."""

from actions.audit.act_classes import same_act
from actions.audit.key_terms import key_terms


def test_a_verb_of_the_class_names_the_rules_act() -> None:
    assert same_act(key_terms("contain"), key_terms("the package keeps a helper")) == key_terms("keeps")
    assert same_act(key_terms("alter"), key_terms("the postinst rewrites the file")) == key_terms("rewrites")
    assert same_act(key_terms("contain"), key_terms("a helper kept in the tree")) == key_terms("kept")
    assert same_act(key_terms("transmit"), key_terms("the agent sent the report")) == key_terms("sent")
    # Clearing out a directory deletes what is in it; appending to a file alters it.
    assert same_act(key_terms("delete"), key_terms("the boot hook clears out the spool")) == key_terms(
        "clears"
    )
    assert same_act(key_terms("alter"), key_terms("plugins append a section")) == key_terms("append")
    assert same_act(key_terms("replace"), key_terms("an option substitutes one backend")) == key_terms(
        "substitutes"
    )


def test_a_verb_of_another_class_or_a_common_noun_names_nothing() -> None:
    assert same_act(key_terms("alter"), key_terms("the agent sends the file")) == frozenset()
    # "change" is too often the noun ("the changes") to be read as the act of altering.
    assert same_act(key_terms("alter"), key_terms("the changes are listed")) == frozenset()
    assert same_act(key_terms("publish"), key_terms("the page is published")) == frozenset()
