"""What an uploaded file is, judged from its bytes, and the text of text files in any encoding."""

from policypal.filetypes.claims import SUPPORTED_TYPES, Claim, Verdict, claimed_types, judge
from policypal.filetypes.detection import DetectedType, FileKind, detect_file_type
from policypal.filetypes.text_decoding import UndecodableText, decode_text

__all__ = [
    "SUPPORTED_TYPES",
    "Claim",
    "DetectedType",
    "FileKind",
    "UndecodableText",
    "Verdict",
    "claimed_types",
    "decode_text",
    "detect_file_type",
    "judge",
]
