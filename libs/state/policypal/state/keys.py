"""Redis key names, in one place; each begins with the tenant so no query crosses tenants."""


def document(tenant_id: str, document_id: str) -> str:
    """JSON record of one document."""
    return f"pp:{tenant_id}:doc:{document_id}"


def user_documents(tenant_id: str, user_id: str) -> str:
    """Sorted set of a user's document ids by creation time."""
    return f"pp:{tenant_id}:user:{user_id}:docs"


def user_document_hashes(tenant_id: str, user_id: str) -> str:
    """Hash sha256 -> document id, to recognise the same bytes uploaded twice."""
    return f"pp:{tenant_id}:user:{user_id}:doc_sha"


def conversation(tenant_id: str, conversation_id: str) -> str:
    """JSON record of one conversation."""
    return f"pp:{tenant_id}:conv:{conversation_id}"


def user_conversations(tenant_id: str, user_id: str) -> str:
    """Sorted set of a user's conversation ids by last message time."""
    return f"pp:{tenant_id}:user:{user_id}:convs"


def conversation_messages(tenant_id: str, conversation_id: str) -> str:
    """List of the conversation's messages (JSON), oldest first."""
    return f"pp:{tenant_id}:conv:{conversation_id}:msgs"


def conversation_message_ids(tenant_id: str, conversation_id: str) -> str:
    """Set of message ids already appended, so a retried append adds nothing."""
    return f"pp:{tenant_id}:conv:{conversation_id}:msg_ids"


def request_terminal(tenant_id: str, request_id: str) -> str:
    """The one terminal event (JSON) of a request."""
    return f"pp:{tenant_id}:req:{request_id}:terminal"


def request_terminal_published(tenant_id: str, request_id: str) -> str:
    """Set once the request's terminal event is on the bus."""
    return f"pp:{tenant_id}:req:{request_id}:published"


def conversation_registry(tenant_id: str, conversation_id: str) -> str:
    """Hash document id -> JSON registry entry: every document the conversation has used."""
    return f"pp:{tenant_id}:conv:{conversation_id}:registry"


def conversation_registry_turn(tenant_id: str, conversation_id: str) -> str:
    """Counter of hand-offs that used documents, the recency clock of the registry."""
    return f"pp:{tenant_id}:conv:{conversation_id}:registry_turn"


def conversation_summary(tenant_id: str, conversation_id: str) -> str:
    """JSON summary of the conversation's older turns."""
    return f"pp:{tenant_id}:conv:{conversation_id}:summary"


def conversation_pending_interrupt(tenant_id: str, conversation_id: str) -> str:
    """JSON of the interrupt the conversation waits on, with the resolver's saved resume point."""
    return f"pp:{tenant_id}:conv:{conversation_id}:pending"


def answer_cache(tenant_id: str, scope: str) -> str:
    """Hash entry id -> JSON cached answer, for one scope (documents, model, user context)."""
    return f"pp:{tenant_id}:answer_cache:{scope}"


def escalation(tenant_id: str, escalation_id: str) -> str:
    """JSON of one escalation ticket (a question waiting for a human reviewer)."""
    return f"pp:{tenant_id}:escalation:{escalation_id}"


def escalations(tenant_id: str) -> str:
    """Sorted set of the tenant's escalation ids by creation time."""
    return f"pp:{tenant_id}:escalations"


def request_status(tenant_id: str, request_id: str) -> str:
    """JSON of a request accepted through the API (audits): who asked, what, queued or running."""
    return f"pp:{tenant_id}:req:{request_id}:status"


def document_sets(tenant_id: str) -> str:
    """Hash folded set name -> JSON set record: the tenant's document sets."""
    return f"pp:{tenant_id}:sets"


def user_profile(tenant_id: str, user_id: str) -> str:
    """JSON of the company profile a user gave at onboarding (name, country, industry, description)."""
    return f"pp:{tenant_id}:user:{user_id}:profile"


def widget_publications(tenant_id: str) -> str:
    """Hash publication key -> JSON publication: the documents and sets the tenant's widget answers from."""
    return f"pp:{tenant_id}:widget:published"


def conversation_keys(tenant_id: str, conversation_id: str) -> list[str]:
    """Every key that holds part of one conversation (its record, messages and memory)."""
    return [
        conversation(tenant_id, conversation_id),
        conversation_messages(tenant_id, conversation_id),
        conversation_message_ids(tenant_id, conversation_id),
        conversation_registry(tenant_id, conversation_id),
        conversation_registry_turn(tenant_id, conversation_id),
        conversation_summary(tenant_id, conversation_id),
        conversation_pending_interrupt(tenant_id, conversation_id),
    ]
