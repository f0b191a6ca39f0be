"""The offline stage 2 (``RegistryDocumentMatcher``): which loose names it hands on as unresolved."""

from policypal.contracts import ActionName
from resolver.documents import MatchRequest, RegistryDocumentMatcher, RegistryMatch
from tests.resolver.factories import document, entry

KYC = document("kyc", "KYC Procedure", version="2022")
AML = document("aml", "Our AML Policy", version="v3")
GDPR = document("gdpr", "GDPR", doc_type="regulatory", version="2016")
CATALOG = [KYC, AML, GDPR]


async def _match(
    message: str, *, registry: tuple[str, ...] = (), action: ActionName = "inquire"
) -> RegistryMatch:
    by_id = {d.document_id: d for d in CATALOG}
    request = MatchRequest(message, action, [], [entry(by_id[i], 1) for i in registry], catalog=CATALOG)
    return await RegistryDocumentMatcher().match(request)


async def test_topic_acronyms_are_not_handed_on_as_document_names() -> None:
    match = await _match("What does our policy say about PEP screening and CDD refresh cycles?")
    assert (match.unresolved_names, match.document_ids, match.confidence) == ((), (), "high")


async def test_a_regulation_named_in_a_document_position_is_handed_on() -> None:
    match = await _match("Does DORA require a register of ICT providers, and what does MiFID II say?")
    assert match.unresolved_names == ("DORA", "MiFID II")


async def test_our_policy_takes_the_registry_policy_and_without_one_searches_the_catalog() -> None:
    remembered = await _match("What does our policy say about PEP screening?", registry=("aml",))
    assert (remembered.document_ids, remembered.confidence) == (("aml",), "high")
    fresh = await _match("What does our policy say about PEP screening?")
    assert (fresh.document_ids, fresh.confidence) == ((), "high")


async def test_a_pointed_reference_with_nothing_to_point_at_stays_unresolved() -> None:
    match = await _match("What does that policy say about PEP screening?")
    assert match.confidence == "low"
