"""Chunk text split into sentences that are exact slices of it; each sentence kept once."""

from dataclasses import dataclass

from actions.sentences import longest_versions, one_line, sentence_spans


@dataclass(frozen=True)
class Piece:
    text: str

    @property
    def plain(self) -> str:
        return one_line(self.text)


def test_sentences_are_trimmed_slices_and_short_pieces_join_the_next() -> None:
    text = (
        "Art. 5. Records.\nCustomer records must be retained for at least\nseven years. Short one.\n\n"
        "The bank keeps transaction records for seven years! End."
    )
    pieces = [text[b:e] for b, e in sentence_spans(text)]
    assert pieces == [
        "Art. 5. Records.\nCustomer records must be retained for at least\nseven years.",
        "Short one.\n\nThe bank keeps transaction records for seven years! End.",
    ]


def test_a_fragment_or_repeat_of_a_longer_sentence_is_dropped_whatever_its_case_and_line_breaks() -> None:
    pieces = [
        Piece("encrypted with AES-256\nat rest."),
        Piece("Backups are encrypted with AES-256 at rest."),
        Piece("Access is logged."),
        Piece("BACKUPS ARE ENCRYPTED  with AES-256 at rest."),
    ]
    assert [p.text for p in longest_versions(pieces)] == [
        "Backups are encrypted with AES-256 at rest.",
        "Access is logged.",
    ]
