"""BM25 terms: stemmed words without stop words, saturating weights, stable indices."""

from policypal.vectorstore import sparse_terms


def test_terms_are_stemmed_lower_case_words_without_stop_words() -> None:
    assert sparse_terms.terms("The Encrypted files and the ENCRYPTION of debian-policy 3.1.4") == [
        "encrypt",
        "file",
        "encrypt",
        "debian-polici",
        "3.1.4",
    ]


def test_typeset_apostrophes_read_as_plain_ones() -> None:
    assert sparse_terms.terms("The program’s name; don’t compute it") == ["program", "name", "comput"]
    assert sparse_terms.terms("The program’s name") == sparse_terms.terms("The program's name")


def test_document_weights_saturate_with_repetition_and_shrink_with_length() -> None:
    once = sparse_terms.document_vector("retention")
    thrice = sparse_terms.document_vector("retention retention retention")
    assert once.indices == thrice.indices
    assert thrice.values[0] > once.values[0]
    assert thrice.values[0] < 3 * once.values[0]
    longer = sparse_terms.document_vector("retention " + "filler " * 300)
    position = longer.indices.index(once.indices[0])
    assert longer.values[position] < once.values[0]


def test_query_and_document_share_indices_across_calls() -> None:
    query = sparse_terms.query_vector("Are the records retained?")
    document = sparse_terms.document_vector("Records shall be retained for seven years.")
    assert set(query.indices) <= set(document.indices)
    assert query.values == [1.0] * len(query.indices)
    assert sparse_terms.query_vector("the").indices == []
