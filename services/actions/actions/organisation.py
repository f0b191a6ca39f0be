"""The line about the user's organisation that ends each drafting prompt's task (docs/product.md, Company profile).

It comes from the profile the user filled in, never from a document. It follows the task's fixed
instructions rather than preceding them, so the part of the system prompt shared by every user of an
action stays identical and cacheable by the provider.
"""

from policypal.contracts import CompanyContext

#: The most characters of the profile a prompt carries. The description may hold 2,000: the line is
#: context for tone and relevance, not material, so it is kept to a fixed few tokens per call and
#: never outweighs the instructions or the passages.
MAX_ORGANISATION_CHARS = 500

_LEAD = "About the user's organisation (their own words; context for relevance, not a source to cite): "


def about_organisation(company: CompanyContext | None) -> str:
    """One line on who the user works for, at most ``MAX_ORGANISATION_CHARS`` of it from the profile;
    empty when they gave nothing."""
    if company is None:
        return ""
    where = ", ".join(part for part in (company.industry, company.country) if part)
    who = (
        f"{company.company_name} ({where})"
        if company.company_name and where
        else company.company_name or where
    )
    text = ". ".join(_one_line(part) for part in (who, company.description or "") if part.strip())
    if not text:
        return ""
    if len(text) > MAX_ORGANISATION_CHARS:
        text = text[: MAX_ORGANISATION_CHARS - 1].rstrip() + "…"
    return _LEAD + text


def with_organisation(instructions: str, company: CompanyContext | None) -> str:
    """``instructions`` followed by the line about the user's organisation, when there is one."""
    line = about_organisation(company)
    return f"{instructions}\n\n{line}" if line else instructions


def _one_line(text: str) -> str:
    # Line breaks collapsed, so the user's text cannot open a heading of its own in the prompt.
    return " ".join(text.split())
