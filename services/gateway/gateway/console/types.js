// @ts-check
// JSDoc types of what the console reads from the API and the event streams, after the contracts
// (libs/contracts/policypal/contracts/events.py, audit.py): an editor with type checking flags a
// field the console reads that the contracts no longer have. Types only: nothing runs here.

/**
 * @typedef {object} Envelope
 * @property {string} event_id
 * @property {string} tenant_id
 * @property {string} user_id
 * @property {string} request_id
 * @property {string} thread_id
 * @property {string} occurred_at
 */

/**
 * @typedef {"stored" | "parsing" | "parsed" | "chunked" | "embedding" | "embedded" | "indexed"} IngestStage
 * @typedef {Envelope & { type: "ingest.progress", document_id: string, stage: IngestStage,
 *   done: number | null, total: number | null, message: string }} IngestProgress
 * @typedef {Envelope & { type: "document.ready", document_id: string, pages: number, chunks: number,
 *   parser: string }} DocumentReady
 * @typedef {Envelope & { type: "document.failed", document_id: string, reason_code: string,
 *   reason: string }} DocumentFailed
 */

/**
 * @typedef {"summarize" | "inquire" | "compare" | "audit"} ActionName
 * @typedef {"high" | "medium" | "low"} ConfidenceTier
 * @typedef {{ marker: number, document_id: string, title: string, version: string, page: number | null,
 *   chunk_id: string, quote: string }} Citation
 * @typedef {{ marker: number, url: string, title: string, quote: string }} WebCitation
 * @typedef {{ prompt_tokens: number, completion_tokens: number, cost_usd: number,
 *   estimated?: boolean }} Usage
 * @typedef {{ id: string, label: string }} InterruptOption
 */

/**
 * @typedef {Envelope & { type: "status", stage: string, message: string }} StatusEvent
 * @typedef {Envelope & { type: "token", message_id: string, index: number, text: string }} TokenEvent
 * @typedef {Envelope & { type: "interrupt", interrupt_id: string,
 *   interrupt_type: "action_choice" | "doc_choice" | "text_input" | "retrieval_low", message: string,
 *   options: InterruptOption[] | null }} InterruptEvent
 * @typedef {Envelope & { type: "error", code: string, message: string, retryable: boolean }} ErrorEvent
 * @typedef {Envelope & { type: "escalation", escalation_id: string, status: "pending_human" | "resolved",
 *   message: string, question: string }} EscalationEvent
 */

/**
 * @typedef {object} ResponseFields
 * @property {"response"} [type]
 * @property {string} [message_id]
 * @property {ActionName} [action]
 * @property {string} answer
 * @property {Citation[]} [citations]
 * @property {WebCitation[]} [web_citations]
 * @property {string} [model]
 * @property {Usage} [usage]
 * @property {ConfidenceTier | null} [inference_confidence]
 * @property {ConfidenceTier | null} [retrieval_confidence]
 * @property {string | null} [caution]
 * @property {string[]} [notices]
 * @property {boolean} [cached]
 * @property {AuditResult | Record<string, any> | null} [result]
 * @property {"assistant" | "reviewer" | null} [answered_by]
 * @property {string | null} [escalation_id]
 * @typedef {Partial<Envelope> & ResponseFields} ResponseEvent
 */

/**
 * @typedef {"Critical" | "High" | "Medium" | "Low"} Severity
 * @typedef {object} AuditFinding
 * @property {string} target_doc_id
 * @property {string} target_doc_title
 * @property {Severity} severity
 * @property {string} source_quote
 * @property {string} target_quote
 * @property {number | null} [source_marker]
 * @property {number | null} [target_marker]
 * @property {number | null} [target_page]
 * @property {string | null} [target_section]
 * @property {string | null} [theme]
 * @property {string | null} [rationale]
 * @property {string} suggestion
 * @property {string} consequence
 * @property {number} confidence_score
 * @typedef {object} RuleCoverage
 * @property {string} target_doc_id
 * @property {string} rule_quote
 * @property {number | null} [rule_page]
 * @property {string | null} [rule_section]
 * @property {string} rule_modality
 * @property {"addressed" | "contradicted" | "not_addressed"} status
 * @property {string | null} [source_quote]
 * @property {number | null} [target_marker]
 * @property {number | null} [source_marker]
 * @typedef {{ overall_status: string, summary: string, findings: AuditFinding[],
 *   coverage?: RuleCoverage[] }} AuditResult
 */

/**
 * @typedef {object} DocumentView
 * @property {string} document_id
 * @property {string} title
 * @property {string} version
 * @property {"regulatory" | "policy"} doc_type
 * @property {string | null} set_name
 * @property {string} filename
 * @property {"processing" | "ready" | "failed"} status
 * @property {number | null} pages
 * @property {number | null} chunks
 * @property {string | null} reason
 * @property {string} request_id
 * @property {string} events_url
 * @typedef {{ document_id: string, request_id: string, status: string, events_url: string,
 *   duplicate: boolean, document: DocumentView }} UploadResult
 */

/**
 * @typedef {{ role: "user" | "assistant" | "system", content: string, request_id: string,
 *   message_id: string, created_at: string, metadata?: Record<string, any> | null }} StoredMessage
 */

export {};
